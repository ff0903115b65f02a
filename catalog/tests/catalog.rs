//! The catalogs as the build scripts compile them: a key missing from a
//! language, placeholders that differ between languages or a malformed
//! placeholder is an error naming the file and the key.
#![allow(clippy::unwrap_used)] // tests

use catalog as cells;

/// The modules of `says`, with `cells.<code>.toml` as the files' names.
fn modules(
    says: &[cells::Messages],
    errors: &mut Vec<String>,
) -> std::collections::BTreeMap<String, String> {
    cells::modules(
        says,
        |code| format!("cells.{code}.toml"),
        "crate::Lang",
        errors,
    )
}

/// The build's errors for these two `[d.say]` tables (empty when sound).
fn errors(en_say: &str, zh_say: &str) -> Vec<String> {
    let says: Vec<cells::Messages> = [en_say, zh_say]
        .iter()
        .map(|text| {
            let table: toml::Table = toml::from_str(text).unwrap();
            table
                .iter()
                .map(|(k, v)| (("d".to_owned(), k.clone()), v.as_str().unwrap().to_owned()))
                .collect()
        })
        .collect();
    let mut errors = Vec::new();
    let _ = modules(&says, &mut errors);
    errors
}

#[test]
fn placeholders_are_named_and_braces_doubled() {
    assert_eq!(
        cells::placeholders("{a} of {b_2}, {a} again, {{literal}}").unwrap(),
        ["a", "b_2"]
    );
    assert!(cells::placeholders("no placeholders").unwrap().is_empty());
    for bad in ["{}", "{0}", "{a:?}", "{A}", "a } b", "{a", "{ a }"] {
        assert!(cells::placeholders(bad).is_err(), "{bad:?} must be refused");
    }
}

#[test]
fn sound_messages_generate_one_type_each() {
    assert!(
        errors(
            "a = \"{n} tokens\"\nb = \"none\"\n",
            "a = \"{n} 个\"\nb = \"无\"\n"
        )
        .is_empty()
    );
    let mut e = Vec::new();
    let mut en = cells::Messages::new();
    en.insert(("d".into(), "a".into()), "{n} tokens of {k}".into());
    let mut zh = cells::Messages::new();
    zh.insert(("d".into(), "a".into()), "{k} 的 {n} 个".into());
    let texts = modules(&[en, zh], &mut e);
    assert!(e.is_empty(), "{e:?}");
    let d = &texts["d"];
    assert!(d.contains("pub struct a<T0, T1>"), "{d}");
    assert!(
        d.contains("Lang::En => format!(\"{n} tokens of {k}\", k = self.k, n = self.n)"),
        "{d}"
    );
    assert!(
        d.contains("Lang::Zh => format!(\"{k} 的 {n} 个\", k = self.k, n = self.n)"),
        "{d}"
    );
}

#[test]
fn a_missing_key_or_different_placeholders_fail_naming_them() {
    let e = errors("a = \"x\"\nb = \"y\"\n", "a = \"甲\"\n");
    assert_eq!(e, ["cells.zh.toml: `d.b` is missing"]);
    let e = errors("a = \"x\"\n", "a = \"甲\"\nc = \"丙\"\n");
    assert_eq!(e, ["cells.en.toml: `d.c` is missing"]);
    let e = errors("a = \"{n} of {k}\"\n", "a = \"{n} 个\"\n");
    assert_eq!(
        e,
        ["cells.zh.toml: `d.a` has the placeholders {n}, en has {k}, {n}"]
    );
    let e = errors("a = \"{n:>3}\"\n", "a = \"{n}\"\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("cells.en.toml: `d.a`: "), "{e:?}");
}

#[test]
fn a_key_that_is_no_rust_name_fails() {
    let e = errors("type = \"x\"\n", "type = \"甲\"\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("`type` must be a Rust name"), "{e:?}");
}

#[test]
fn a_key_named_like_the_generated_code_fails() {
    // `lang` would shadow the parameter of `text(lang)`; `get` is each module's lookup.
    let e = errors(
        "lang = \"x\"\nget = \"y\"\n",
        "lang = \"甲\"\nget = \"乙\"\n",
    );
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e.iter().any(|e| e.contains("`lang` must be a Rust name")),
        "{e:?}"
    );
    assert!(
        e.iter().any(|e| e.contains("`get` must be a Rust name")),
        "{e:?}"
    );
}

#[test]
fn a_message_without_placeholders_is_also_a_static_str() {
    let mut e = Vec::new();
    let mut en = cells::Messages::new();
    en.insert(("d".into(), "a".into()), "braces {{ }}".into());
    let mut zh = cells::Messages::new();
    zh.insert(("d".into(), "a".into()), "花括号 {{ }}".into());
    let texts = modules(&[en, zh], &mut e);
    assert!(e.is_empty(), "{e:?}");
    let d = &texts["d"];
    assert!(
        d.contains("pub const fn as_str(&self, lang: Lang) -> &'static str"),
        "{d}"
    );
    assert!(d.contains("Lang::En => \"braces { }\","), "{d}");
}
