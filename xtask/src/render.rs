//! Pre-rendering: the HTML of every route, written natively at build time from
//! the `chapters` and `exercises` crates.
//!
//! A chapter page carries its whole text, tables, math, highlighted code, the
//! self-test, and every cell with the output of its default parameters (the
//! same demo code the browser runs). The page's wasm then mounts the live parts
//! (`data-island` elements) in place: cells, exercises, the scratch cell,
//! progress marks, the header's tools. With JavaScript off the book still reads.

use chapters::Lang;
use chapters::demo::{self, Demo};
use chapters::doc::{Block, escape};
use chapters::highlight::highlight_rust;

/// One file of the site: its path under `dist/`, its language, `<title>`, `<body>`.
pub struct Page {
    /// Path under `dist/`, e.g. `ch/newmodels.html`.
    pub file: String,
    /// The page's language (`<html lang>`).
    pub lang: Lang,
    /// The document title.
    pub title: String,
    /// One-line description (`<meta name="description">`).
    pub description: String,
    /// The same page in the other language, when there is one (`<link rel=alternate>`,
    /// the header's language switch).
    pub other: Option<String>,
    /// The body's HTML.
    pub body: String,
}

/// Every page of the site, in both languages: the home page, the glossary,
/// each chapter that has a text in that language, and the 404 page.
pub fn pages() -> Result<Vec<Page>, String> {
    let mut out = vec![not_found()];
    let all = chapters::all();
    for lang in Lang::ALL {
        out.push(home(lang));
        out.push(glossary(lang)?);
        out.push(rhai_guide(lang)?);
        for (i, ch) in all.iter().enumerate() {
            if ch.source_in(lang).is_none() {
                continue;
            }
            let prev = i.checked_sub(1).map(|j| &all[j]);
            out.push(chapter(ch, lang, prev, all.get(i + 1))?);
        }
    }
    Ok(out)
}

/// The repository path of `ch`'s text in `lang`: `chapter.md`, or
/// `chapter.zh.md` beside it.
pub fn repo_path(ch: &chapters::Chapter, lang: Lang) -> String {
    match lang {
        Lang::En => ch.repo_path.to_owned(),
        Lang::Zh => ch.repo_path.replace("chapter.md", "chapter.zh.md"),
    }
}

/// Fills the page template (`index.html`): `<html lang="en">`, `<!--ih:title-->`,
/// `<!--ih:description-->`, `<!--ih:head-->` (the other language's address) and
/// `<!--ih:body-->`.
pub fn fill(template: &str, page: &Page) -> Result<String, String> {
    for marker in [
        "<html lang=\"en\">",
        "<!--ih:title-->",
        "<!--ih:description-->",
        "<!--ih:head-->",
        "<!--ih:body-->",
    ] {
        if !template.contains(marker) {
            return Err(format!("index.html has no {marker} marker"));
        }
    }
    let mut head = page.other.as_ref().map_or_else(String::new, |url| {
        let other = other_lang(page.lang);
        format!(
            "<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">",
            other.tag(),
            escape(url)
        )
    });
    head.push_str(&page_words(page.lang));
    Ok(template
        .replace(
            "<html lang=\"en\">",
            &format!("<html lang=\"{}\">", page.lang.tag()),
        )
        .replace("<!--ih:title-->", &escape(&page.title))
        .replace("<!--ih:description-->", &escape(&page.description))
        .replace("<!--ih:head-->", &head)
        .replace("<!--ih:body-->", &page.body))
}

fn other_lang(lang: Lang) -> Lang {
    match lang {
        Lang::En => Lang::Zh,
        Lang::Zh => Lang::En,
    }
}

/// The app's locale file for `lang` (`app/locales/<lang>.json`, the keys the
/// UI is translated by), parsed once.
fn locale(lang: Lang) -> &'static serde_json::Map<String, serde_json::Value> {
    static LOCALES: std::sync::OnceLock<[serde_json::Map<String, serde_json::Value>; 2]> =
        std::sync::OnceLock::new();
    let [en, zh] = LOCALES.get_or_init(|| {
        let parse = |text: &str| {
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
                .unwrap_or_default()
        };
        [
            parse(include_str!("../../app/locales/en.json")),
            parse(include_str!("../../app/locales/zh.json")),
        ]
    });
    if lang == Lang::Zh { zh } else { en }
}

/// The pre-rendered pages' interface text in `lang`, from [`locale`]. A
/// missing key is a build error (and a test checks both files have the same keys).
pub(crate) fn t(lang: Lang, key: &str) -> String {
    match locale(lang).get(key).and_then(|v| v.as_str()) {
        Some(v) => v.to_owned(),
        None => panic!("app/locales: no string `{key}` for {}", lang.tag()),
    }
}

/// What the page's script (`web/page.js`, `ihSay`) says, in `lang`: the
/// locale's `page_*` strings (the prefix dropped), as a JSON element of
/// the page's head that the script reads.
fn page_words(lang: Lang) -> String {
    let words: serde_json::Map<String, serde_json::Value> = locale(lang)
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix("page_")?.to_owned(), v.clone())))
        .collect();
    // `<` escaped, so no string can end the element.
    let json = serde_json::Value::Object(words)
        .to_string()
        .replace('<', "\\u003c");
    format!("<script type=\"application/json\" id=\"ih-words\">{json}</script>")
}

/// A chapter's address in `lang`: its Chinese page, or its English one while
/// it has no Chinese text.
fn chapter_url(c: &chapters::Chapter, lang: Lang) -> String {
    match c.source_in(lang) {
        Some(_) => format!("{}/ch/{}", lang.prefix(), c.slug),
        None => format!("/ch/{}", c.slug),
    }
}

/// A chapter's title in `lang`: the `# ` line of its text in that language.
fn chapter_title(c: &chapters::Chapter, lang: Lang) -> String {
    c.source_in(lang)
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("# ")))
        .map_or_else(|| c.title.to_owned(), |t| t.trim().to_owned())
}

/// A chapter's one-line summary in `lang`: a Chinese text gives its own as
/// `<!-- summary: … -->`; else the English one.
fn chapter_summary(c: &chapters::Chapter, lang: Lang) -> String {
    c.source_in(lang)
        .filter(|_| lang != Lang::En)
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.trim().strip_prefix("<!-- summary:"))
                .and_then(|l| l.strip_suffix("-->"))
        })
        .map_or_else(|| c.summary.to_owned(), |t| t.trim().to_owned())
}

fn header(lang: Lang, other: Option<&str>) -> String {
    let switch = other.map_or_else(String::new, |url| {
        let o = other_lang(lang);
        format!(
            "<a class=\"lang-switch\" href=\"{}\" hreflang=\"{tag}\" lang=\"{tag}\" title=\"{}\" data-lang=\"{code}\">{}</a>",
            escape(url),
            escape(&t(lang, "switch_title")),
            escape(&t(lang, "switch_to")),
            tag = o.tag(),
            code = if o == Lang::Zh { "zh" } else { "en" },
        )
    });
    format!(
        "<header class=\"site-header\"><a href=\"{home}/\" class=\"brand\">{book}</a>\
         <button type=\"button\" class=\"search-open secondary\" aria-keyshortcuts=\"/ Control+K Meta+K\" \
         title=\"{search_title}\">{search} <kbd>/</kbd></button>{switch}\
         <div class=\"header-tools\" data-island=\"header\"><button type=\"button\" class=\"theme-switch secondary\" \
         title=\"{theme_title}\">{theme}</button></div></header>\n\
         <div class=\"notices\" data-island=\"notices\"></div>\n",
        home = lang.prefix(),
        book = escape(&t(lang, "book")),
        search = escape(&t(lang, "search")),
        search_title = escape(&t(lang, "search_title")),
        theme_title = escape(&t(lang, "theme_title")),
        theme = escape(&t(lang, "theme_system")),
    )
}

fn home(lang: Lang) -> Page {
    let cards: String = chapters::all()
        .iter()
        .map(|c| {
            let exs = exercises::for_chapter(c.id);
            let list: String = exs
                .iter()
                .map(|e| {
                    format!(
                        "<li data-progress=\"{}\" data-title=\"{title}\"><span class=\"mark\" aria-hidden=\"true\">·</span> {title} — <span class=\"status\">{}</span></li>",
                        e.id,
                        escape(&t(lang, "not_attempted")),
                        title = escape(e.title_in(lang)),
                    )
                })
                .collect();
            format!(
                "<li class=\"chapter-card\" data-chapter=\"{}\"><a href=\"{}\">{}</a><p>{}</p>\
                 <details><summary class=\"muted\">{}</summary><ul class=\"progress-list\">{list}</ul></details></li>",
                c.id,
                chapter_url(c, lang),
                escape(&chapter_title(c, lang)),
                escape(&chapter_summary(c, lang)),
                escape(&t(lang, "exercises_count").replace("%{count}", &exs.len().to_string())),
            )
        })
        .collect();
    let other = format!("{}/", other_lang(lang).prefix());
    let body = format!(
        "{}<div class=\"island\" data-island=\"home\"><main class=\"page home\"><h1>{book}</h1>\
         <p class=\"lede\">{}</p>\
         <h2>{}</h2><ol class=\"chapters\">{cards}</ol>\
         <p class=\"home-glossary\"><a href=\"{}/glossary\">{}</a></p></main></div>\n",
        header(lang, Some(&other)),
        escape(&t(lang, "lede")),
        escape(&t(lang, "chapters")),
        lang.prefix(),
        escape(&t(lang, "glossary")),
        book = escape(&t(lang, "book")),
    );
    Page {
        file: format!("{}index.html", dir(lang)),
        lang,
        title: t(lang, "book"),
        description: t(lang, "description"),
        other: Some(other),
        body,
    }
}

/// The folder of `lang`'s pages under `dist/`: `` or `zh/`.
fn dir(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "",
        Lang::Zh => "zh/",
    }
}

/// The glossary (`chapters/glossary.toml`): each term in both languages, with
/// its definition in the page's language and the chapters that use it.
fn glossary(lang: Lang) -> Result<Page, String> {
    let terms = chapters::glossary::terms()?;
    let other = other_lang(lang);
    let all = chapters::all();
    let rows: String = terms
        .iter()
        .map(|term| {
            let (name, other_name, def) = match lang {
                Lang::En => (&term.en, &term.zh, &term.en_def),
                Lang::Zh => (&term.zh, &term.en, &term.zh_def),
            };
            let used: Vec<String> = term
                .chapters
                .iter()
                .filter_map(|id| all.iter().find(|c| c.id == *id))
                .map(|c| {
                    format!(
                        "<a href=\"{}\">{}</a>",
                        chapter_url(c, lang),
                        escape(&chapter_title(c, lang))
                    )
                })
                .collect();
            format!(
                "<tr id=\"{id}\"><th scope=\"row\"><dfn>{}</dfn></th><td lang=\"{}\">{}</td><td>{}</td><td class=\"small\">{}</td></tr>",
                escape(name),
                other.tag(),
                escape(other_name),
                escape(def),
                used.join("<br>"),
                id = term.id,
            )
        })
        .collect();
    let url = format!("{}/glossary", other.prefix());
    let body = format!(
        "{}<main class=\"page glossary\" data-pagefind-body><h1>{title}</h1><p class=\"lede\">{}</p>\
         <div class=\"table-wrap\"><table class=\"glossary-table\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th>\
         <th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>{rows}</tbody></table></div>\
         <p><a href=\"{}/\">{}</a></p></main>\n",
        header(lang, Some(&url)),
        escape(&t(lang, "glossary_lede")),
        escape(&t(lang, "glossary_term")),
        escape(&t(lang, "glossary_zh")),
        escape(&t(lang, "glossary_definition")),
        escape(&t(lang, "glossary_used_in")),
        lang.prefix(),
        escape(&t(lang, "back_to_contents")),
        title = escape(&t(lang, "glossary")),
    );
    Ok(Page {
        file: format!("{}glossary.html", dir(lang)),
        lang,
        title: format!("{} — {}", t(lang, "glossary"), t(lang, "book")),
        description: t(lang, "glossary_lede"),
        other: Some(url),
        body,
    })
}

/// `text` as HTML with its Markdown code spans (`` `x` ``) as `<code>`.
fn with_code_spans(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

/// "Rhai for Python programmers" (`chapters/guide/rhai.toml`): one table of
/// what a Python programmer writes, what Rhai writes, a note and what Rhai
/// gives for the example (a test runs each).
fn rhai_guide(lang: Lang) -> Result<Page, String> {
    let guide = chapters::guide::rhai()?;
    let w = guide.words(lang);
    let rows: String = guide
        .row
        .iter()
        .map(|r| {
            let note = match lang {
                Lang::En => &r.en,
                Lang::Zh => &r.zh,
            };
            format!(
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td><code>{}</code></td></tr>",
                escape(&r.python),
                escape(&r.rhai),
                with_code_spans(note),
                escape(&r.value),
            )
        })
        .collect();
    let url = format!("{}/rhai", other_lang(lang).prefix());
    let more = with_code_spans(&w.more).replace(
        "rhai.rs/book",
        "<a href=\"https://rhai.rs/book/\">rhai.rs/book</a>",
    );
    let body = format!(
        "{}<main class=\"page guide\" data-pagefind-body><h1>{}</h1><p class=\"lede\">{}</p>\
         <div class=\"table-wrap\"><table class=\"guide-table\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th>\
         <th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>{rows}</tbody></table></div>\
         <p>{more}</p><p><a href=\"{}/\">{}</a></p></main>\n",
        header(lang, Some(&url)),
        escape(&w.title),
        with_code_spans(&w.lede),
        escape(&w.python),
        escape(&w.rhai),
        escape(&w.note),
        escape(&w.gives),
        lang.prefix(),
        escape(&t(lang, "back_to_contents")),
    );
    Ok(Page {
        file: format!("{}rhai.html", dir(lang)),
        lang,
        title: format!("{} — {}", w.title, t(lang, "book")),
        description: w.lede.replace('`', ""),
        other: Some(url),
        body,
    })
}

fn not_found() -> Page {
    let list = |lang: Lang| -> String {
        chapters::all()
            .iter()
            .map(|c| {
                format!(
                    "<li><a href=\"{}\">{}</a></li>",
                    chapter_url(c, lang),
                    escape(&chapter_title(c, lang))
                )
            })
            .collect()
    };
    let (en, zh) = (Lang::En, Lang::Zh);
    Page {
        file: "404.html".to_owned(),
        lang: en,
        title: format!("{} — {}", t(en, "not_found_title"), t(en, "book")),
        description: "There is no page at this address.".to_owned(),
        other: None,
        body: format!(
            "{}<main class=\"page not-found\"><h1>{}</h1>\
             <p>{}</p><ul>{}</ul><p><a href=\"/\">{}</a></p>\
             <section lang=\"{}\"><h2>{}</h2><p>{}</p><ul>{}</ul><p><a href=\"/zh/\">{}</a></p></section></main>\n",
            header(en, None),
            escape(&t(en, "not_found_title")),
            escape(&t(en, "not_found_text")),
            list(en),
            escape(&t(en, "back_to_contents")),
            zh.tag(),
            escape(&t(zh, "not_found_title")),
            escape(&t(zh, "not_found_text")),
            list(zh),
            escape(&t(zh, "back_to_contents")),
        ),
    }
}

fn chapter(
    ch: &chapters::Chapter,
    lang: Lang,
    prev: Option<&chapters::Chapter>,
    next: Option<&chapters::Chapter>,
) -> Result<Page, String> {
    let doc = ch
        .doc_in(lang)
        .ok_or_else(|| format!("{}: no text in {}", ch.id, lang.tag()))?
        .map_err(|e| format!("{} ({}) {e}", ch.repo_path, lang.tag()))?;
    let toc: String = doc
        .headings
        .iter()
        .filter(|h| h.level == 2)
        .map(|h| format!("<li><a href=\"#{}\">{}</a></li>", h.id, escape(&h.text)))
        .collect();
    let marks: String = exercises::for_chapter(ch.id)
        .iter()
        .map(|e| {
            format!(
                "<li data-progress=\"{id}\"><span class=\"mark\" data-island=\"mark\" data-exercise=\"{id}\" title=\"{}\">·</span>\
                 <a href=\"#exercise-{}\">{}</a></li>",
                escape(&t(lang, "not_attempted")),
                e.slug(),
                escape(e.title_in(lang)),
                id = e.id,
            )
        })
        .collect();
    let mut main = String::new();
    let mut terms = Terms::new(lang)?;
    for b in &doc.blocks {
        match b {
            Block::Html(h) => {
                main.push_str("<div class=\"prose\">");
                main.push_str(&terms.preview(h));
                main.push_str("</div>\n");
            }
            Block::SelfTest(items) => {
                main.push_str("<ol class=\"selftest\">");
                for (q, a) in items {
                    let (q, a) = (terms.preview(q), terms.preview(a));
                    main.push_str(&format!(
                        "<li><div class=\"prose\">{q}</div><details><summary>{}</summary><div class=\"prose\">{a}</div></details></li>",
                        escape(&t(lang, "show_answer"))
                    ));
                }
                main.push_str("</ol>\n");
            }
            Block::Cell { id, line } => {
                let demo = chapters::demo(id)
                    .ok_or_else(|| format!("{} line {line}: unknown cell `{id}`", ch.repo_path))?;
                // An exercise of this chapter whose answer is this cell's source.
                let answers = exercises::all().into_iter().find(|e| {
                    e.id.starts_with(&format!("{}/", ch.id)) && e.answered_by_cell == Some(demo.id)
                });
                main.push_str(&once_per_program("cell", demo.id, lang, || {
                    cell(&demo, answers.as_ref(), lang)
                })?);
            }
            Block::Exercise { id, line } => {
                let ex = exercises::by_id(id).ok_or_else(|| {
                    format!("{} line {line}: unknown exercise `{id}`", ch.repo_path)
                })?;
                main.push_str(&once_per_program("exercise", ex.id, lang, || {
                    exercise(&ex, lang)
                })?);
            }
            Block::Scratch { code } => main.push_str(&scratch(ch.id, code, lang)),
        }
    }
    // The chapter as a notebook (issue #11 §2): under the title, and in the footer.
    let main = main.replacen(
        "</h1>\n",
        &format!(
            "</h1>\n{}",
            crate::notebook::download_link(ch.slug, "top", lang)
        ),
        1,
    );
    let nav = |c: Option<&chapters::Chapter>, rel: &str, arrow: &str| {
        c.map(|c| {
            format!(
                "<a href=\"{}\" rel=\"{rel}\">{arrow} {}</a>",
                chapter_url(c, lang),
                escape(&chapter_title(c, lang))
            )
        })
        .unwrap_or_default()
    };
    let contents: String = chapters::all()
        .iter()
        .map(|c| {
            let progress = format!(
                "<span class=\"chapter-progress muted\" data-island=\"chapter-progress\" data-chapter=\"{}\" title=\"{}\">0/{}</span>",
                c.id,
                escape(&t(lang, "exercises_passed")),
                exercises::for_chapter(c.id).len()
            );
            if c.id == ch.id {
                format!(
                    "<li class=\"toc-chapter current\"><a href=\"{}\" aria-current=\"page\">{}</a> {progress}\
                     <ol>{toc}</ol><p class=\"toc-title toc-exercises\">{}</p><ul class=\"progress-list\">{marks}</ul></li>",
                    chapter_url(c, lang),
                    escape(&chapter_title(c, lang)),
                    escape(&t(lang, "exercises")),
                )
            } else {
                format!(
                    "<li class=\"toc-chapter\"><a href=\"{}\">{}</a> {progress}</li>",
                    chapter_url(c, lang),
                    escape(&chapter_title(c, lang))
                )
            }
        })
        .collect();
    let other = other_lang(lang);
    let other_url = ch.source_in(other).map_or_else(
        || format!("{}/", other.prefix()),
        |_| chapter_url(ch, other),
    );
    let body = format!(
        "{header}<div class=\"chapter-layout\">\
         <nav class=\"toc\" aria-label=\"{contents_label}\"><details open><summary class=\"toc-title\">{contents_label}</summary>\
         <ol class=\"book-toc\">{contents}</ol><p class=\"toc-home\"><a href=\"{home}/\">{home_link}</a></p>\
         <p class=\"toc-home\"><a href=\"{home}/glossary\">{glossary}</a></p></details></nav>\n\
         <script>if (innerWidth <= 860) document.querySelector(\".toc details\").removeAttribute(\"open\");</script>\n\
         <main class=\"page chapter\" id=\"chapter\" data-chapter=\"{id}\" data-pagefind-body>\n{main}\
         <footer class=\"chapter-footer\"><nav class=\"prev-next\" aria-label=\"{chapter_nav}\">{prev}<a href=\"{home}/\">{contents_label}</a>{next}</nav>\
         {notebook}<a class=\"edit-link\" href=\"{edit}{path}\">{edit_label}</a></footer></main></div>\n",
        header = header(lang, Some(&other_url)),
        id = ch.id,
        prev = nav(prev, "prev", "←"),
        next = nav(next, "next", "→"),
        edit = EDIT_BASE_URL,
        path = repo_path(ch, lang),
        notebook = crate::notebook::download_link(ch.slug, "footer", lang),
        contents_label = escape(&t(lang, "contents")),
        chapter_nav = escape(&t(lang, "chapter_nav")),
        home = lang.prefix(),
        home_link = escape(&t(lang, "home_link")),
        glossary = escape(&t(lang, "glossary")),
        edit_label = escape(&t(lang, "edit_page")),
    );
    Ok(Page {
        file: format!("{}ch/{}.html", dir(lang), ch.slug),
        lang,
        title: format!("{} — {}", chapter_title(ch, lang), t(lang, "book")),
        description: chapter_summary(ch, lang),
        other: Some(other_url),
        body,
    })
}

/// The glossary's one-line definitions in one language, for the previews a
/// chapter shows beside its links to the glossary (#30): hovering or focusing
/// a term's link shows its definition in place; the link still goes to the
/// glossary.
struct Terms {
    /// `{prefix}/glossary#`: how the chapter's links to a term begin.
    link: String,
    /// Term id → definition.
    defs: std::collections::BTreeMap<String, String>,
    /// Previews made so far on the page (their ids are numbered).
    made: usize,
}

impl Terms {
    fn new(lang: Lang) -> Result<Terms, String> {
        let defs = chapters::glossary::terms()?
            .into_iter()
            .map(|t| {
                let def = match lang {
                    Lang::En => t.en_def,
                    Lang::Zh => t.zh_def,
                };
                (t.id, def)
            })
            .collect();
        Ok(Terms {
            link: format!("<a href=\"{}/glossary#", lang.prefix()),
            defs,
            made: 0,
        })
    }

    /// `html` with each link to a glossary term wrapped with its definition:
    /// `<span class="term"><a … aria-describedby="term-N">…</a><span
    /// class="term-def" role="tooltip" id="term-N">definition</span></span>`.
    /// The definition is hidden until the link is hovered or focused
    /// (`style/book.css`; Esc hides it, `web/page.js`), left out of search,
    /// and read as the link's description.
    fn preview(&mut self, html: &str) -> String {
        let mut out = String::with_capacity(html.len());
        let mut rest = html;
        while let Some(i) = rest.find(&self.link) {
            let after = &rest[i + self.link.len()..];
            let parts = after.find('"').and_then(|q| {
                let id = &after[..q];
                let open = after.find('>')?;
                let close = after.find("</a>")?;
                (open < close).then_some((id, open, close))
            });
            let Some((id, open, close)) = parts else {
                break;
            };
            let Some(def) = self.defs.get(id) else {
                // The content checker names a link to no term.
                out.push_str(&rest[..i + self.link.len()]);
                rest = after;
                continue;
            };
            self.made += 1;
            let n = self.made;
            // A KV size's accounting tag (`chapters::accounting`) is drawn as a tag.
            let class = if id.starts_with("kv-accounting-") {
                "term acct"
            } else {
                "term"
            };
            out.push_str(&rest[..i]);
            out.push_str(&format!(
                "<span class=\"{class}\">{}{} aria-describedby=\"term-{n}\">{}</a><span class=\"term-def\" role=\"tooltip\" id=\"term-{n}\" data-pagefind-ignore>{}</span></span>",
                self.link,
                &after[..open],
                &after[open + 1..close],
                escape(def)
            ));
            rest = &after[close + "</a>".len()..];
        }
        out.push_str(rest);
        out
    }
}

/// Where "edit this page" links point: the repository's file view.
pub const EDIT_BASE_URL: &str =
    "https://github.com/inference-handbook/inference-handbook/blob/main/";

/// A table as the page's cell renders it.
/// A cell's or an exercise's HTML, made once per run of this program. It
/// depends only on what is compiled into it (the demos' code and defaults,
/// the statements, their examples, the words), never on the chapter files
/// that `cargo xtask serve` reads again on every edit (`watch.rs`); running
/// every demo and highlighting every source was most of what rendering the
/// pages again took.
fn once_per_program(
    kind: &str,
    id: &str,
    lang: Lang,
    make: impl FnOnce() -> Result<String, String>,
) -> Result<String, String> {
    type Made = std::collections::HashMap<(String, Lang), String>;
    static MADE: std::sync::OnceLock<std::sync::Mutex<Made>> = std::sync::OnceLock::new();
    let made = MADE.get_or_init(Default::default);
    let key = (format!("{kind} {id}"), lang);
    if let Some(html) = made.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(html.clone());
    }
    let html = make()?;
    made.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, html.clone());
    Ok(html)
}

fn cell(d: &Demo, answers: Option<&exercises::Exercise>, lang: Lang) -> Result<String, String> {
    let defaults = demo::defaults(d.params);
    let out = (d.run)(&defaults, lang).map_err(|e| {
        format!(
            "cell `{}`: its defaults do not run: {}",
            d.id,
            e.iter()
                .map(|e| format!("{}: {}", e.param, e.message))
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    Ok(app::ssr::cell(
        *d,
        out,
        highlight_rust(d.source),
        answers.map(|e| (e.id.to_owned(), e.title_in(lang).to_owned())),
        lang,
    ))
}

fn exercise(ex: &exercises::Exercise, lang: Lang) -> Result<String, String> {
    let md = ex.statement_markdown_in(lang)?;
    let statement =
        chapters::doc::fragment(&md, 1).map_err(|e| format!("{}: statement {e}", ex.id))?;
    let props = app::ssr::ExerciseIsland {
        id: ex.id.to_owned(),
        title: ex.title_in(lang).to_owned(),
        hints: ex.hints_in(lang).iter().map(|h| h.to_string()).collect(),
        cases: (ex.cases)().len(),
        reference_html: highlight_rust(ex.reference_source),
        reference_python_html: chapters::highlight::highlight_python(
            exercises::known::known_good_python(ex.id).unwrap_or_default(),
        ),
        reference_rhai_html: escape(exercises::known::known_good(ex.id).unwrap_or_default()),
        mistakes: ex
            .mistakes_in(lang)
            .iter()
            .map(|(id, text)| (id.to_string(), text.to_string()))
            .collect(),
    };
    Ok(app::ssr::exercise(ex.clone(), statement, props, lang))
}

fn scratch(chapter: &str, code: &str, lang: Lang) -> String {
    app::ssr::scratch(chapter, code, lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_renders_with_its_islands() {
        let pages = pages().unwrap();
        let ch = pages
            .iter()
            .find(|p| p.file == "ch/newmodels.html")
            .unwrap();
        for id in ["compressor", "attended", "ledger", "mhc", "routing"] {
            assert!(
                ch.body
                    .contains(&format!("data-island=\"cell\" data-id=\"{id}\"")),
                "{id}"
            );
        }
        for ex in exercises::for_chapter("ch_newmodels") {
            assert!(
                ch.body
                    .contains(&format!("data-island=\"exercise\" data-id=\"{}\"", ex.id)),
                "{}",
                ex.id
            );
        }
        // The text, its math and the cells' default outputs are in the HTML.
        assert!(ch.body.contains("<math"));
        assert!(ch.body.contains("tabindex=\"0\" class=\"cell-text\">"));
        assert!(ch.body.contains("class=\"selftest\""));
        assert!(pages.iter().any(|p| p.file == "404.html"));
        assert!(pages.iter().any(|p| p.file == "index.html"));
    }

    #[test]
    fn the_template_needs_its_markers() {
        let p = Page {
            file: "x.html".into(),
            lang: Lang::Zh,
            title: "a < b".into(),
            description: "d".into(),
            other: Some("/x".into()),
            body: "<p>B</p>".into(),
        };
        let t = "<html lang=\"en\"><title><!--ih:title--></title><meta content=\"<!--ih:description-->\"><!--ih:head--><body><!--ih:body--></body>";
        assert_eq!(
            fill(t, &p).unwrap(),
            format!(
                "<html lang=\"zh-CN\"><title>a &lt; b</title><meta content=\"d\"><link rel=\"alternate\" hreflang=\"en\" href=\"/x\">{}<body><p>B</p></body>",
                page_words(Lang::Zh)
            )
        );
        assert!(fill("<body></body>", &p).is_err());
    }

    /// Every word the page's script asks for (`ihSay("key"…)` in
    /// `web/page.js`) is in the page, in each language, read back as the
    /// script reads it.
    #[test]
    fn the_pages_script_finds_its_words_in_each_language() {
        let script = include_str!("../../web/page.js");
        let asked: Vec<&str> = script
            .split("ihSay(\"")
            .skip(1)
            .map(|s| s.split('"').next().unwrap())
            .collect();
        assert!(asked.len() >= 10, "{asked:?}");
        for lang in Lang::ALL {
            let el = page_words(lang);
            let json = el
                .strip_prefix("<script type=\"application/json\" id=\"ih-words\">")
                .and_then(|s| s.strip_suffix("</script>"))
                .unwrap();
            let words: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(json).unwrap();
            for key in &asked {
                let w = words.get(*key).and_then(|v| v.as_str());
                assert!(
                    w.is_some_and(|w| !w.is_empty()),
                    "no page_{key} for {}",
                    lang.tag()
                );
            }
        }
        assert!(page_words(Lang::Zh).contains("本书有新版本了"));
        assert!(page_words(Lang::En).contains("it holds more than %{n} bytes"));
    }

    #[test]
    fn both_locales_have_the_same_keys_and_every_key_used_exists() {
        let keys = |text: &str| -> Vec<String> {
            let m: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text).unwrap();
            let mut k: Vec<String> = m.keys().cloned().collect();
            k.sort();
            k
        };
        let en = keys(include_str!("../../app/locales/en.json"));
        assert_eq!(en, keys(include_str!("../../app/locales/zh.json")));
        // Every key this file asks `t` for is in the files.
        let src = include_str!("render.rs");
        for used in src
            .split("t(lang, \"")
            .chain(src.split("t(en, \""))
            .chain(src.split("t(zh, \""))
            .skip(1)
        {
            let key = used.split('"').next().unwrap();
            if key.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !key.is_empty() {
                assert!(en.iter().any(|k| k == key), "no locale key `{key}`");
            }
        }
    }

    #[test]
    fn the_chinese_pages_are_chinese_and_point_at_each_other() {
        let pages = pages().unwrap();
        let zh = pages.iter().find(|p| p.file == "zh/index.html").unwrap();
        assert_eq!(zh.lang, Lang::Zh);
        assert_eq!(zh.other.as_deref(), Some("/"));
        assert!(zh.body.contains("href=\"/zh/glossary\""));
        for ch in chapters::all()
            .iter()
            .filter(|c| c.source_in(Lang::Zh).is_some())
        {
            let file = format!("zh/ch/{}.html", ch.slug);
            let page = pages.iter().find(|p| p.file == file).unwrap();
            assert_eq!(
                page.other.as_deref(),
                Some(format!("/ch/{}", ch.slug).as_str())
            );
            assert!(
                page.body
                    .contains(&format!("class=\"lang-switch\" href=\"/ch/{}\"", ch.slug))
            );
            let en = pages
                .iter()
                .find(|p| p.file == format!("ch/{}.html", ch.slug))
                .unwrap();
            assert_eq!(
                en.other.as_deref(),
                Some(format!("/zh/ch/{}", ch.slug).as_str())
            );
        }
        // A Chinese page's cells, exercises and scratch cell speak Chinese:
        // chrome from the locale files, titles and labels from cells.<lang>.toml.
        let page = |file: &str| pages.iter().find(|p| p.file == file).unwrap();
        let (zh, en) = (page("zh/ch/newmodels.html"), page("ch/newmodels.html"));
        for (lang, p) in [(Lang::Zh, zh), (Lang::En, en)] {
            for key in [
                "chrome_cell_kind",
                "chrome_run",
                "chrome_reset",
                "chrome_exercise_kind",
                "chrome_scratch_title",
            ] {
                assert!(p.body.contains(&escape(&t(lang, key))), "{key}: {}", p.file);
            }
            for d in (chapters::all()[0].demos)() {
                // Text as the components write it: `&`, `<` and `>` escaped.
                let text = |s: &str| {
                    s.replace('&', "&amp;")
                        .replace('<', "&lt;")
                        .replace('>', "&gt;")
                };
                assert!(p.body.contains(&text(d.title_in(lang))), "{}", d.id);
                for param in d.params {
                    let label = format!("\">{}</label>", text(d.label_in(param.name, lang)));
                    assert!(p.body.contains(&label), "{}.{}", d.id, param.name);
                    assert!(p.body.contains(&text(&d.help_in(param.name, lang))));
                }
            }
        }
        for english in [
            ">Run it<",
            ">Run<",
            ">Exercise<",
            ">Scratch<",
            "Rust source (",
        ] {
            assert!(!zh.body.contains(english), "zh page has `{english}`");
        }
        assert!(zh.body.contains("Rust 源码（"));
        // The ledger's figure table: Chinese headers on the Chinese page only.
        assert!(zh.body.contains("<th>模型</th>") && !zh.body.contains("<th>Model</th>"));
        assert!(en.body.contains("<th>Model</th>"));
        // The Rhai guide in both languages, every row's example on it.
        let guide = chapters::guide::rhai().unwrap();
        for (file, lang) in [("rhai.html", Lang::En), ("zh/rhai.html", Lang::Zh)] {
            let p = pages.iter().find(|p| p.file == file).unwrap();
            assert!(p.body.contains(&escape(&guide.words(lang).title)), "{file}");
            for row in &guide.row {
                assert!(p.body.contains(&escape(&row.rhai)), "{file}: {}", row.rhai);
            }
        }
        let g = pages.iter().find(|p| p.file == "zh/glossary.html").unwrap();
        for term in chapters::glossary::terms().unwrap() {
            assert!(
                g.body.contains(&format!("<tr id=\"{}\">", term.id)),
                "{}",
                term.id
            );
        }
    }
}
