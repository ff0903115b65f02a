use lang::Lang;

#[test]
fn tags_and_locales_parse() {
    for zh in ["zh", "zh-CN", "zh_CN.UTF-8", "ZH", "zh_TW"] {
        assert_eq!(Lang::parse(zh), Some(Lang::Zh), "{zh}");
    }
    for en in ["en", "en_US.UTF-8", "C", "POSIX", "C.UTF-8"] {
        assert_eq!(Lang::parse(en), Some(Lang::En), "{en}");
    }
    assert_eq!(Lang::parse("fr_FR.UTF-8"), None);
    assert_eq!(Lang::parse(""), None);
    assert_eq!(Lang::parse("zhx"), None);
    assert!("de".parse::<Lang>().unwrap_err().contains("zh or en"));
}

#[test]
fn the_first_set_locale_variable_decides() {
    let zh = Some("zh_CN.UTF-8");
    let en = Some("en_US.UTF-8");
    assert_eq!(Lang::from_locale(None, None, zh), Lang::Zh);
    assert_eq!(Lang::from_locale(en, None, zh), Lang::En);
    assert_eq!(Lang::from_locale(None, zh, en), Lang::Zh);
    assert_eq!(
        Lang::from_locale(Some(""), None, zh),
        Lang::Zh,
        "empty is unset"
    );
    assert_eq!(Lang::from_locale(Some("fr_FR"), None, zh), Lang::En);
    assert_eq!(Lang::from_locale(None, None, None), Lang::En);
}

#[test]
fn codes_tags_prefixes_and_json() {
    assert_eq!(Lang::ALL.map(Lang::code), ["en", "zh"]);
    assert_eq!(Lang::ALL.map(Lang::tag), ["en", "zh-CN"]);
    assert_eq!(Lang::ALL.map(Lang::prefix), ["", "/zh"]);
    for l in Lang::ALL {
        assert_eq!(Lang::parse(l.code()), Some(l));
        assert_eq!(Lang::parse(l.tag()), Some(l));
        // Saved progress, exports and the CLI's JSON carry the code.
        let json = serde_json::to_string(&l).unwrap();
        assert_eq!(json, format!("\"{}\"", l.code()));
        assert_eq!(serde_json::from_str::<Lang>(&json).unwrap(), l);
    }
}
