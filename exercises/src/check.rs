//! The content checker: proves the book's exercises and directives are sound.
//! Runs in the tests (`cargo test -p exercises`).

use judge::{Status, Verdict};

use crate::Exercise;

/// Grades the reference solution itself as if a learner had written it.
pub fn grade_reference(ex: &Exercise) -> Verdict {
    struct Reference(fn(&[judge::Value]) -> Result<judge::Value, String>);
    impl judge::Solver for Reference {
        fn call(&mut self, args: &[judge::Value]) -> Result<judge::Value, judge::SolverError> {
            (self.0)(args).map_err(judge::SolverError::Runtime)
        }
    }
    judge::grade(&ex.spec(), &mut Reference(ex.reference))
}

pub use crate::known::{known_good, known_wrong};

/// Every problem found in the book's content; empty when all is well.
pub fn problems() -> Vec<String> {
    let mut out = Vec::new();
    let all = crate::all();
    for (i, ex) in all.iter().enumerate() {
        if all[..i].iter().any(|e| e.id == ex.id) {
            out.push(format!("{}: duplicate id", ex.id));
        }
        if let Err(e) = ex.statement_markdown() {
            out.push(e);
        }
        if ex.hints.is_empty() {
            out.push(format!("{}: no hints", ex.id));
        }
        let cases = (ex.cases)();
        if !cases.iter().any(|c| c.kind == judge::Kind::Public) {
            out.push(format!("{}: no public case", ex.id));
        }
        if !cases.iter().any(|c| c.kind == judge::Kind::Hidden) {
            out.push(format!("{}: no hidden case", ex.id));
        }
        let v = grade_reference(ex);
        if v.status != Status::Passed {
            out.push(format!(
                "{}: reference does not pass its own cases: {}",
                ex.id, v.message
            ));
        }
        #[cfg(feature = "script")]
        {
            let (v, _) =
                crate::grade_rhai(ex, ex.starter_rhai, judge::script::Limits::default(), None);
            if v.status == Status::Passed {
                out.push(format!("{}: the Rhai starter passes", ex.id));
            }
            let edited = format!("{}\n// edited\n", ex.starter_rhai);
            let (v, _) = crate::grade_rhai(ex, &edited, judge::script::Limits::default(), None);
            if v.status != Status::NotAttempted {
                out.push(format!(
                    "{}: the Rhai starter should reach todo(), got {}",
                    ex.id,
                    v.status.label()
                ));
            }
        }
        if !ex.starter_rust.contains("todo!()") {
            out.push(format!("{}: the Rust starter has no todo!()", ex.id));
        }
    }
    out.extend(book_problems());
    out
}

/// What must be unique across the whole book, whatever chapter it is in: demo ids
/// (a cell finds its demo by id) and scripting function names (one Rhai
/// namespace); and every chapter's text: its directives.
fn book_problems() -> Vec<String> {
    let mut out = Vec::new();
    let demos: Vec<(&str, &str)> = chapters::all()
        .iter()
        .flat_map(|c| (c.demos)().into_iter().map(move |d| (c.id, d.id)))
        .collect();
    for (ch, id, other) in duplicates(&demos) {
        out.push(format!(
            "{ch}: demo id `{id}` is also a demo of {other}; demo ids are unique across the book"
        ));
    }
    let api: Vec<(&str, &str)> = crate::api::by_chapter()
        .into_iter()
        .flat_map(|(ch, fns)| fns.into_iter().map(move |f| (ch, f.name)))
        .collect();
    for (ch, name, other) in duplicates(&api) {
        out.push(format!(
            "chapters/src/{ch}/api.rs: scripting function `{name}` is also {other}'s; names are unique across the book"
        ));
    }
    #[cfg(feature = "render")]
    {
        let all_demos: Vec<(&str, chapters::demo::Demo)> = chapters::all()
            .iter()
            .flat_map(|c| (c.demos)().into_iter().map(move |d| (c.id, d)))
            .collect();
        let with_zh: Vec<&str> = chapters::all()
            .iter()
            .filter(|c| c.source_in(chapters::Lang::Zh).is_some())
            .map(|c| c.id)
            .collect();
        let every: Vec<&str> = chapters::all().iter().map(|c| c.id).collect();
        for (lang, required) in [(chapters::Lang::En, &every), (chapters::Lang::Zh, &with_zh)] {
            out.extend(cell_text_problems(
                &all_demos,
                required,
                lang,
                chapters::cells::all_cell_texts(lang),
            ));
        }
    }
    #[cfg(feature = "render")]
    for ch in chapters::all() {
        match ch.doc() {
            Ok(doc) => {
                let exercises: Vec<&str> = crate::for_chapter(ch.id).iter().map(|e| e.id).collect();
                out.extend(directive_problems(
                    ch.id,
                    ch.repo_path,
                    &doc.blocks,
                    &demos,
                    &exercises,
                ));
            }
            Err(e) => out.push(format!("{} {e}", ch.repo_path)),
        }
        out.extend(link_problems(&ch, chapters::Lang::En));
        out.extend(language_problems(&ch));
        for lang in chapters::Lang::ALL {
            if let Some(text) = ch.source_in(lang) {
                out.extend(sources_problems(&source_path(&ch, lang), text, lang));
            }
        }
        // Every figure is one the chapter quotes (#26): a number no text
        // shows is no figure (what a cell prints is pinned by the parity
        // fixtures).
        let mut texts: Vec<&str> = chapters::Lang::ALL
            .iter()
            .filter_map(|l| ch.source_in(*l))
            .collect();
        for e in crate::for_chapter(ch.id) {
            texts.push(e.statement);
            texts.extend(e.zh.as_ref().map(|z| z.statement));
        }
        let figures = (ch.figures)();
        let names: Vec<&str> = figures.iter().map(|(n, _)| *n).collect();
        out.extend(unquoted_figures(ch.repo_path, &names, &texts));
        // A cell named as an exercise's answer is one of the same chapter's.
        for e in crate::for_chapter(ch.id) {
            if let Some(cell) = e.answered_by_cell
                && !demos.contains(&(ch.id, cell))
            {
                out.push(format!(
                    "{}: answered_by_cell = \"{cell}\" is not a cell of {}",
                    e.id, ch.id
                ));
            }
        }
    }
    out
}

/// The cells' words in `lang` (#12, #26), given every demo as `(chapter,
/// demo)`, the chapters that must have them (every chapter in English, those
/// with a Chinese text in Chinese) and the texts
/// (`chapters/src/<chapter>/cells.<lang>.toml`): in those chapters every demo
/// has a title and every parameter a label and a help, in its own chapter's
/// file; and the files name no demo or parameter that does not exist.
#[cfg(feature = "render")]
fn cell_text_problems(
    demos: &[(&str, chapters::demo::Demo)],
    required: &[&str],
    lang: chapters::Lang,
    texts: &[chapters::cells::CellTexts],
) -> Vec<String> {
    let code = match lang {
        chapters::Lang::En => "en",
        chapters::Lang::Zh => "zh",
    };
    let language = match lang {
        chapters::Lang::En => "English",
        chapters::Lang::Zh => "Chinese",
    };
    let file = |ch: &str| format!("chapters/src/{ch}/cells.{code}.toml");
    let mut out = Vec::new();
    for (ch, d) in demos {
        if !required.contains(ch) {
            continue;
        }
        let Some(t) = texts.iter().find(|t| t.demo == d.id) else {
            out.push(format!(
                "{}: demo `{}` has no {language} texts (`[{}]` with a `title`)",
                file(ch),
                d.id,
                d.id
            ));
            continue;
        };
        if t.chapter != *ch {
            out.push(format!(
                "{}: `[{}]` is a demo of {ch}; its texts belong in {}",
                file(t.chapter),
                d.id,
                file(ch)
            ));
        }
        if t.title.trim().is_empty() {
            out.push(format!("{}: `{}.title` is empty", file(ch), d.id));
        }
        for p in d.params {
            match t.params.iter().find(|pt| pt.name == p.name) {
                None => out.push(format!(
                    "{}: parameter `{}` of demo `{}` has no {language} label and help (`[{}.{}]`)",
                    file(t.chapter),
                    p.name,
                    d.id,
                    d.id,
                    p.name
                )),
                Some(pt)
                    if pt.label.trim().is_empty() || d.help_in(p.name, lang).trim().is_empty() =>
                {
                    out.push(format!(
                        "{}: `{}.{}` has an empty label or help",
                        file(t.chapter),
                        d.id,
                        p.name
                    ));
                }
                Some(_) => {}
            }
        }
    }
    for t in texts {
        let Some((_, d)) = demos.iter().find(|(_, d)| d.id == t.demo) else {
            out.push(format!(
                "{}: `[{}]` names no demo of the book",
                file(t.chapter),
                t.demo
            ));
            continue;
        };
        for pt in t.params {
            if !d.params.iter().any(|p| p.name == pt.name) {
                out.push(format!(
                    "{}: `[{}.{}]`: demo `{}` has no parameter `{}`",
                    file(t.chapter),
                    t.demo,
                    pt.name,
                    t.demo,
                    pt.name
                ));
            }
        }
    }
    out
}

/// Links inside the book that lead nowhere: every Markdown link `](/...)` or
/// `](#...)` in a chapter's text must name a page of the book (`/`,
/// `/ch/<slug>`) and, after `#`, a heading, cell (`cell-<demo>`) or exercise
/// (`exercise-<slug>`) of that page.
#[cfg(feature = "render")]
fn link_problems(ch: &chapters::Chapter, lang: chapters::Lang) -> Vec<String> {
    use chapters::Lang;
    let Some(source) = ch.source_in(lang) else {
        return Vec::new();
    };
    let file = source_path(ch, lang);
    let glossary: Vec<String> = chapters::glossary::terms()
        .map(|t| t.into_iter().map(|t| t.id).collect())
        .unwrap_or_default();
    let anchors = |c: &chapters::Chapter| -> Vec<String> {
        let mut a: Vec<String> = c
            .doc_in(lang)
            .or_else(|| c.doc_in(Lang::En))
            .and_then(|d| d.ok())
            .map(|d| d.headings.into_iter().map(|h| h.id).collect())
            .unwrap_or_default();
        a.extend((c.demos)().iter().map(|d| format!("cell-{}", d.id)));
        a.extend(
            crate::for_chapter(c.id)
                .iter()
                .map(|e| format!("exercise-{}", e.id.rsplit('/').next().unwrap_or(e.id))),
        );
        a
    };
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = &after[..end];
            rest = &after[end..];
            if !(target.starts_with('/') || target.starts_with('#')) {
                continue;
            }
            let (page, anchor) = target.split_once('#').unwrap_or((target, ""));
            let own = page.is_empty();
            // A page of this language: `/zh/ch/kvcache` from the Chinese text.
            let Some(page) = (if page.is_empty() {
                Some("")
            } else {
                page.strip_prefix(lang.prefix())
            }) else {
                out.push(format!(
                    "{file} line {}: link to `{target}`: the {} text links to the pages under `{}/`",
                    n + 1,
                    if lang == Lang::Zh { "Chinese" } else { "English" },
                    lang.prefix(),
                ));
                continue;
            };
            if page == "/glossary" {
                if !glossary.iter().any(|g| g == anchor) {
                    out.push(format!(
                        "{file} line {}: link to `{target}`: no term `{anchor}` in chapters/glossary.toml",
                        n + 1
                    ));
                }
                continue;
            }
            let dest = if own {
                Some(*ch)
            } else if page == "/" || page.is_empty() {
                None
            } else {
                match page
                    .strip_prefix("/ch/")
                    .and_then(|slug| chapters::all().into_iter().find(|c| c.slug == slug))
                {
                    Some(c) => Some(c),
                    None => {
                        out.push(format!(
                            "{file} line {}: link to `{target}`: no such page in the book",
                            n + 1
                        ));
                        continue;
                    }
                }
            };
            if !anchor.is_empty() {
                let known = dest.as_ref().map(&anchors).unwrap_or_default();
                if !known.iter().any(|a| a == anchor) {
                    out.push(format!(
                        "{file} line {}: link to `{target}`: no heading, cell or exercise `{anchor}` there",
                        n + 1
                    ));
                }
            }
        }
    }
    out
}

/// The anchor of the section every chapter ends with.
pub const SOURCES_ID: &str = "sources-and-further-reading";

/// A chapter names what it draws on (#28): its last `##` section is "Sources
/// and further reading" (`{#sources-and-further-reading}` in Chinese); each
/// of the phrases by which the English text refers to a document ("the
/// source", "the analysis", "the article") is declared in that section in
/// quotes (“the source”), and the text links to the section on or before the
/// line where it first uses the phrase. `file` names the text in messages;
/// a text that does not parse is left to the checks that report it.
#[cfg(feature = "render")]
pub fn sources_problems(file: &str, text: &str, lang: chapters::Lang) -> Vec<String> {
    let Ok(doc) = chapters::doc::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let h2: Vec<&chapters::doc::Heading> = doc.headings.iter().filter(|h| h.level == 2).collect();
    let Some(heading) = h2.iter().find(|h| h.id == SOURCES_ID) else {
        out.push(format!(
            "{file}: no \"Sources and further reading\" section (`{{#{SOURCES_ID}}}`): every chapter ends by naming its sources"
        ));
        return out;
    };
    if h2.last().map(|h| h.id.as_str()) != Some(SOURCES_ID) {
        out.push(format!(
            "{file}: \"{}\": the sources section must be the chapter's last `##` section",
            heading.text
        ));
    }
    if lang != chapters::Lang::En {
        return out;
    }
    // The text before the section's heading line, and the section.
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| {
            l.strip_prefix("## ")
                .is_some_and(|t| t.trim_start().starts_with(&heading.text))
        })
        .unwrap_or(lines.len());
    let (body, section) = lines.split_at(start);
    let section = section.join("\n").to_lowercase();
    let link = format!("](#{SOURCES_ID})");
    let first_link = body.iter().position(|l| l.contains(&link));
    for phrase in ["the source", "the analysis", "the article"] {
        let first = body.iter().position(|l| {
            let l = l.to_lowercase();
            l.match_indices(phrase).any(|(i, _)| {
                // A whole phrase: not "the sources" or "the analysis's" mid-word.
                !l[i + phrase.len()..].starts_with(|c: char| c.is_alphabetic())
            })
        });
        let Some(first) = first else { continue };
        if !section.contains(&format!("“{phrase}”")) {
            out.push(format!(
                "{file} line {}: the text says \"{phrase}\" but the sources section does not say which document that is (an entry with “{phrase}” in it)",
                first + 1
            ));
        }
        if first_link.is_none_or(|l| l > first) {
            out.push(format!(
                "{file} line {}: the first \"{phrase}\" comes before any link to the sources section (`[...](#{SOURCES_ID})`)",
                first + 1
            ));
        }
    }
    out
}

/// Where a chapter's text in `lang` lives, for messages.
#[cfg(feature = "render")]
fn source_path(ch: &chapters::Chapter, lang: chapters::Lang) -> String {
    match lang {
        chapters::Lang::En => ch.repo_path.to_owned(),
        chapters::Lang::Zh => ch.repo_path.replace("chapter.md", "chapter.zh.md"),
    }
}

/// The `{{name}}` placeholders of a text, sorted and without repeats.
#[cfg(feature = "render")]
fn placeholders(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split("{{")
        .skip(1)
        .filter_map(|p| {
            p.split_once("}}")
                .map(|(name, _)| name.split_whitespace().collect::<String>())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The figures among `names` that none of `texts` quotes (`{{name}}`), each
/// as a problem of the chapter at `path`.
#[cfg(feature = "render")]
fn unquoted_figures(path: &str, names: &[&str], texts: &[&str]) -> Vec<String> {
    let quoted: std::collections::BTreeSet<String> =
        texts.iter().flat_map(|t| placeholders(t)).collect();
    names
        .iter()
        // `name@zh` is the form the Chinese page shows for `{{name}}`.
        .filter(|n| !quoted.contains(n.split('@').next().unwrap_or(n)))
        .map(|n| {
            format!(
                "{path}: the figure `{n}` is quoted by no text of the chapter or its exercises; quote it or leave it out of the figures (a cell's output is pinned by the parity fixtures)"
            )
        })
        .collect()
}

/// What a block is, for comparing the two languages: cells, exercises, the
/// self-test's length and the scratch cell's code without its comments.
#[cfg(feature = "render")]
fn skeleton(blocks: &[chapters::doc::Block]) -> Vec<String> {
    use chapters::doc::Block;
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Html(_) => None,
            Block::Cell { id, .. } => Some(format!("cell {id}")),
            Block::Exercise { id, .. } => Some(format!("exercise {id}")),
            Block::SelfTest(items) => Some(format!("self-test with {} questions", items.len())),
            Block::Scratch { code } => Some(format!(
                "scratch `{}`",
                code.lines()
                    .map(|l| l.split("//").next().unwrap_or("").trim())
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
        })
        .collect()
}

/// The structure two texts of one chapter must share: directives in order,
/// heading anchors, figures. `file` is the Chinese text's path, `en_path` the
/// English one's, for messages.
#[cfg(feature = "render")]
fn text_parity(
    file: &str,
    en_path: &str,
    (en_doc, en_src): (&chapters::doc::Doc, &str),
    (zh_doc, zh_src): (&chapters::doc::Doc, &str),
) -> Vec<String> {
    let mut out = Vec::new();
    let (en_sk, zh_sk) = (skeleton(&en_doc.blocks), skeleton(&zh_doc.blocks));
    if en_sk != zh_sk {
        let first = en_sk
            .iter()
            .zip(&zh_sk)
            .position(|(a, b)| a != b)
            .unwrap_or(en_sk.len().min(zh_sk.len()));
        out.push(format!(
            "{file}: its cells, exercises, self-test and scratch cell differ from {en_path}'s from number {} on: English has {}, Chinese has {}",
            first + 1,
            en_sk.get(first).map_or("nothing more", String::as_str),
            zh_sk.get(first).map_or("nothing more", String::as_str),
        ));
    }
    let ids = |d: &chapters::doc::Doc| -> Vec<String> {
        let mut v: Vec<String> = d
            .headings
            .iter()
            .filter(|h| h.level > 1)
            .map(|h| h.id.clone())
            .collect();
        v.sort();
        v
    };
    let (en_ids, zh_ids) = (ids(en_doc), ids(zh_doc));
    for id in en_ids.iter().filter(|i| !zh_ids.contains(i)) {
        out.push(format!(
            "{file}: no heading with the anchor `{id}` (write the translated heading as `## … {{#{id}}}`)"
        ));
    }
    for id in zh_ids.iter().filter(|i| !en_ids.contains(i)) {
        out.push(format!(
            "{file}: the heading anchor `{id}` is not one of {en_path}'s"
        ));
    }
    let (en_f, zh_f) = (placeholders(en_src), placeholders(zh_src));
    for f in en_f.iter().filter(|f| !zh_f.contains(f)) {
        out.push(format!(
            "{file}: the figure `{{{{{f}}}}}` of the English text is missing"
        ));
    }
    for f in zh_f.iter().filter(|f| !en_f.contains(f)) {
        out.push(format!(
            "{file}: the figure `{{{{{f}}}}}` is not in the English text"
        ));
    }
    out
}

/// The Chinese edition against the English one (#12). A chapter's Chinese
/// text, when it has one, must have the same cells, exercises, self-test and
/// scratch cell in the same order, the same heading anchors and the same
/// figures; each of its exercises then needs a Chinese statement with the same
/// worked examples (its title and hints are checked when the folder is read).
#[cfg(feature = "render")]
fn language_problems(ch: &chapters::Chapter) -> Vec<String> {
    use chapters::Lang;
    let mut out = Vec::new();
    let Some(zh) = ch.source_in(Lang::Zh) else {
        return out;
    };
    let file = source_path(ch, Lang::Zh);
    let (en_doc, zh_doc) = match (ch.doc(), ch.doc_in(Lang::Zh)) {
        (Ok(e), Some(Ok(z))) => (e, z),
        (_, Some(Err(e))) => {
            out.push(format!("{file} {e}"));
            return out;
        }
        _ => return out,
    };
    out.extend(text_parity(
        &file,
        ch.repo_path,
        (&en_doc, ch.source),
        (&zh_doc, zh),
    ));
    for ex in crate::for_chapter(ch.id) {
        match ex.zh {
            None => out.push(format!(
                "{}: the chapter has a Chinese text but this exercise has no statement.zh.md and exercise.zh.toml",
                ex.id
            )),
            Some(z) => {
                if placeholders(z.statement) != placeholders(ex.statement) {
                    out.push(format!(
                        "{}/statement.zh.md: its worked examples ({{{{call(…)}}}}) differ from statement.md's",
                        ex.id
                    ));
                }
                if let Err(e) = ex.statement_markdown_in(Lang::Zh) {
                    out.push(e);
                }
                if code_lines(ex.starter_rhai_in(Lang::Zh)) != code_lines(ex.starter_rhai) {
                    out.push(format!(
                        "{}/starter.zh.rhai: its code differs from starter.rhai's (only the comments may)",
                        ex.id
                    ));
                }
                if python_code_lines(ex.starter_python_in(Lang::Zh))
                    != python_code_lines(ex.starter_python)
                {
                    out.push(format!(
                        "{}/starter.zh.py: its code differs from starter.py's (only the docstring and comments may)",
                        ex.id
                    ));
                }
            }
        }
    }
    out.extend(link_problems(ch, Lang::Zh));
    out
}

/// The lines of Rhai code that are not comments, trimmed.
fn code_lines(source: &str) -> Vec<&str> {
    source
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect()
}

/// A Python starter's lines without its docstrings and `#` comments.
fn python_code_lines(source: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_doc = false;
    for l in source.lines().map(str::trim) {
        let quotes = l.matches("\"\"\"").count();
        if in_doc || quotes > 0 {
            // A docstring's lines: the opening one, the middle ones, the closing one.
            in_doc = if in_doc { quotes == 0 } else { quotes == 1 };
            continue;
        }
        let code = l.split(" #").next().unwrap_or(l).trim_end();
        if !code.is_empty() && !code.starts_with('#') {
            out.push(code);
        }
    }
    out
}

/// Each `(chapter, name)` whose name an earlier entry already has, with that
/// entry's chapter: `(chapter, name, other chapter)`.
fn duplicates<'a>(items: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str, &'a str)> {
    let mut out = Vec::new();
    for (i, (ch, name)) in items.iter().enumerate() {
        if let Some((other, _)) = items[..i].iter().find(|(_, n)| n == name) {
            out.push((*ch, *name, *other));
        }
    }
    out
}

/// The directives of chapter `chapter`'s text (`path`, parsed into `blocks`): every
/// cell names a demo of this chapter (`demos` holds `(chapter, demo id)` for the
/// whole book), every exercise directive names one of `exercises` (the chapter's
/// exercise ids), and each of those is placed exactly once.
#[cfg(any(test, feature = "render"))]
pub(crate) fn directive_problems(
    chapter: &str,
    path: &str,
    blocks: &[chapters::doc::Block],
    demos: &[(&str, &str)],
    exercises: &[&str],
) -> Vec<String> {
    use chapters::doc::Block;
    let mut out = Vec::new();
    let mut placed: Vec<(&str, usize)> = Vec::new();
    for b in blocks {
        match b {
            Block::Cell { id, line } => match demos.iter().find(|(_, d)| d == id) {
                Some((ch, _)) if *ch == chapter => {}
                Some((ch, _)) => out.push(format!(
                    "{path} line {line}: cell `{id}` is a demo of chapter {ch}; a chapter's cells run its own demos"
                )),
                None => out.push(format!("{path} line {line}: unknown cell `{id}`")),
            },
            Block::Exercise { id, line } => {
                let owner = id.split('/').next().unwrap_or_default();
                if exercises.contains(&id.as_str()) {
                    if let Some((_, first)) = placed.iter().find(|(p, _)| p == id) {
                        out.push(format!(
                            "{path} line {line}: exercise `{id}` is already placed at line {first}; each exercise is placed once"
                        ));
                    } else {
                        placed.push((id, *line));
                    }
                } else if owner != chapter && id.contains('/') {
                    out.push(format!(
                        "{path} line {line}: exercise `{id}` belongs to chapter {owner}; a chapter places only its own exercises"
                    ));
                } else {
                    out.push(format!("{path} line {line}: unknown exercise `{id}`"));
                }
            }
            _ => {}
        }
    }
    for id in exercises {
        if !placed.iter().any(|(p, _)| p == id) {
            out.push(format!(
                "{path}: exercise `{id}` is not placed; put ```exercise {id}``` where the text asks for it"
            ));
        }
    }
    out
}

/// What the parity fixtures miss: for every chapter, each exercise without a line in
/// `verdicts` (`tests/fixtures/verdicts.jsonl`) and each demo without a line in
/// `demos` (`tests/fixtures/demos.jsonl`).
#[cfg(test)]
fn fixture_gaps(verdicts: &str, demos: &str) -> Vec<String> {
    let ids = |text: &str, key: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v.get(key).and_then(|x| x.as_str()).map(str::to_owned))
            .collect()
    };
    let (verdicts, demos) = (ids(verdicts, "exercise"), ids(demos, "demo"));
    let mut out = Vec::new();
    for ch in chapters::all() {
        for ex in crate::for_chapter(ch.id) {
            if !verdicts.iter().any(|v| v == ex.id) {
                out.push(format!(
                    "{}: exercise {} has no line in tests/fixtures/verdicts.jsonl (record it: UPDATE_VERDICTS=1 cargo test -p exercises --test parity)",
                    ch.id, ex.id
                ));
            }
        }
        for d in (ch.demos)() {
            if !demos.iter().any(|x| x == d.id) {
                out.push(format!(
                    "{}: demo {} has no line in tests/fixtures/demos.jsonl (give it three parameter sets in tests/fixtures/demos.rs, then UPDATE_DEMOS=1 cargo test -p exercises --test parity)",
                    ch.id, d.id
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chinese_python_starter_may_change_only_the_docstring() {
        let en = "def f(x: int) -> int:\n    \"\"\"Entries a query\n    attends to.\"\"\"\n    raise NotImplementedError  # your code here\n";
        let zh = "def f(x: int) -> int:\n    \"\"\"查询关注的条目数。\"\"\"\n    raise NotImplementedError  # 在这里写你的代码\n";
        assert_eq!(
            python_code_lines(en),
            ["def f(x: int) -> int:", "raise NotImplementedError"]
        );
        assert_eq!(python_code_lines(en), python_code_lines(zh));
        let other =
            "def f(y: int) -> int:\n    \"\"\"查询。\"\"\"\n    raise NotImplementedError\n";
        assert_ne!(python_code_lines(en), python_code_lines(other));
        for ex in crate::all() {
            if let Some(zh) = ex.starter_python_zh {
                assert_eq!(
                    python_code_lines(zh),
                    python_code_lines(ex.starter_python),
                    "{}",
                    ex.id
                );
                assert_ne!(
                    zh, ex.starter_python,
                    "{}: the docstring is translated",
                    ex.id
                );
            }
            assert!(
                ex.starter_python.contains(&format!("def {}(", ex.function)),
                "{}: starter.py defines {}",
                ex.id,
                ex.function
            );
        }
    }

    #[test]
    fn a_chinese_starter_may_change_only_comments() {
        let en = "// Entries a query attends to.\nfn f(x) {\n    todo()\n}\n";
        let zh = "// 查询要关注的条目数。\n// 第二行注释。\nfn f(x) {\n    todo()\n}\n";
        assert_eq!(code_lines(en), code_lines(zh));
        assert_ne!(
            code_lines(en),
            code_lines("// 注释\nfn f(y) {\n    todo()\n}\n")
        );
        // Every exercise's Chinese starter passes the check.
        for ex in crate::all()
            .iter()
            .filter_map(|e| e.starter_rhai_zh.map(|z| (e, z)))
        {
            assert_eq!(
                code_lines(ex.1),
                code_lines(ex.0.starter_rhai),
                "{}",
                ex.0.id
            );
            assert_ne!(
                ex.1, ex.0.starter_rhai,
                "{}: the comments are translated",
                ex.0.id
            );
            let (v, _) = crate::grade_rhai(ex.0, ex.1, judge::script::Limits::default(), None);
            assert_eq!(
                v.status,
                judge::Status::NotAttempted,
                "{}: the untouched Chinese starter",
                ex.0.id
            );
            assert!(
                v.cases.is_empty(),
                "{}: recognised as the starter, not run",
                ex.0.id
            );
        }
    }

    #[test]
    fn a_figure_no_text_quotes_is_a_problem() {
        let texts = ["It holds {{a.x}} bytes.", "它占 {{ a.x }} 字节，{{b.y}}。"];
        assert!(unquoted_figures("c.md", &["a.x", "b.y", "a.x@zh"], &texts).is_empty());
        let p = unquoted_figures("c.md", &["a.x", "a.z"], &texts);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with("c.md: the figure `a.z` is quoted by no text"),
            "{p:?}"
        );
    }

    #[test]
    fn zh_parity_catches_a_missing_cell_anchor_and_figure() {
        let en = "# T\n\n## Self-test\n\nA {{a.x}} and {{a.y}}.\n\n```cell one\n```\n\n## Two words\n\n```cell two\n```\n";
        let good = "# 题\n\n## 自测 {#self-test}\n\n{{a.y}} 与 {{a.x}}。\n\n```cell one\n```\n\n## 两个词 {#two-words}\n\n```cell two\n```\n";
        let bad = "# 题\n\n## 自测 {#self-test}\n\n{{a.x}} 与 {{a.z}}。\n\n```cell one\n```\n\n## 两个词 {#two}\n\n";
        let parse = |s: &str| chapters::doc::parse(s).unwrap();
        let (e, g, b) = (parse(en), parse(good), parse(bad));
        assert_eq!(
            text_parity("zh", "en", (&e, en), (&g, good)),
            Vec::<String>::new()
        );
        let p = text_parity("zh", "en", (&e, en), (&b, bad));
        let all = p.join("\n");
        for needle in [
            "English has cell two, Chinese has nothing more",
            "no heading with the anchor `two-words`",
            "`two` is not one of en's",
            "`{{a.y}}` of the English text is missing",
            "`{{a.z}}` is not in the English text",
        ] {
            assert!(all.contains(needle), "{needle} not in:\n{all}");
        }
        assert_eq!(p.len(), 5, "{all}");
    }

    #[test]
    fn the_content_is_sound() {
        let p = problems();
        assert!(p.is_empty(), "content problems:\n{}", p.join("\n"));
    }

    /// The parity fixtures that the browser must reproduce cover every chapter's
    /// exercises and demos.
    #[test]
    fn the_parity_fixtures_cover_every_exercise_and_demo() {
        let verdicts = include_str!("../tests/fixtures/verdicts.jsonl");
        let demos = include_str!("../tests/fixtures/demos.jsonl");
        let gaps = fixture_gaps(verdicts, demos);
        assert!(gaps.is_empty(), "fixtures missing:\n{}", gaps.join("\n"));
        // Without one exercise's and one demo's lines, both are named.
        let ex = crate::all().into_iter().next().expect("an exercise");
        let demo = chapters::all_demos().into_iter().next().expect("a demo");
        let strip = |text: &str, key: &str, id: &str| -> String {
            text.lines()
                .filter(|l| !l.contains(&format!("\"{key}\":\"{id}\"")))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        let gaps = fixture_gaps(
            &strip(verdicts, "exercise", ex.id),
            &strip(demos, "demo", demo.id),
        );
        assert_eq!(gaps.len(), 2, "{gaps:?}");
        assert!(gaps[0].contains(&format!("exercise {} has no line", ex.id)));
        assert!(gaps[1].contains(&format!("demo {} has no line", demo.id)));
    }

    /// The cell texts' check passes on the real files in both languages, and
    /// fails on a copy of the real data with a demo's texts missing, a
    /// parameter missing, and a parameter and a demo that do not exist.
    #[test]
    #[cfg(feature = "render")]
    fn cell_texts_must_cover_every_demo_and_name_only_real_ones() {
        use chapters::cells::{CellTexts, ParamTexts, all_cell_texts};
        let demos: Vec<(&str, chapters::demo::Demo)> = chapters::all()
            .iter()
            .flat_map(|c| (c.demos)().into_iter().map(move |d| (c.id, d)))
            .collect();
        let real = all_cell_texts(chapters::Lang::Zh);
        // The chapters with a Chinese text (a new one may have none yet).
        let ids: Vec<&str> = chapters::all()
            .iter()
            .filter(|c| c.source_in(chapters::Lang::Zh).is_some())
            .map(|c| c.id)
            .collect();
        assert!(ids.contains(&"ch_newmodels"));
        let zh = chapters::Lang::Zh;
        assert!(cell_text_problems(&demos, &ids, zh, real).is_empty());
        let every: Vec<&str> = chapters::all().iter().map(|c| c.id).collect();
        let en = all_cell_texts(chapters::Lang::En);
        assert!(cell_text_problems(&demos, &every, chapters::Lang::En, en).is_empty());
        let fewer: Vec<CellTexts> = en.iter().filter(|t| t.demo != "mhc").copied().collect();
        let p = cell_text_problems(&demos, &every, chapters::Lang::En, &fewer);
        assert_eq!(
            p,
            [
                "chapters/src/ch_newmodels/cells.en.toml: demo `mhc` has no English texts (`[mhc]` with a `title`)"
            ]
        );

        static UNITS_ONLY: [ParamTexts; 2] = [
            ParamTexts {
                name: "units",
                label: "单位",
                help: "binary 或 decimal",
                full: true,
            },
            ParamTexts {
                name: "no_such_param",
                label: "无",
                help: "无",
                full: true,
            },
        ];
        let mut copy: Vec<CellTexts> = real
            .iter()
            .filter(|t| t.demo != "attended")
            .copied()
            .collect();
        for t in &mut copy {
            if t.demo == "ledger" {
                t.params = &UNITS_ONLY;
            }
        }
        copy.push(CellTexts {
            chapter: "ch_newmodels",
            demo: "no_such_demo",
            title: "不存在",
            params: &[],
        });
        let p = cell_text_problems(&demos, &ids, zh, &copy);
        let has = |text: &str| p.iter().any(|x| x.contains(text));
        assert!(has("demo `attended` has no Chinese texts"), "{p:#?}");
        assert!(
            has("parameter `models` of demo `ledger` has no Chinese label and help"),
            "{p:#?}"
        );
        assert!(
            has("`[ledger.no_such_param]`: demo `ledger` has no parameter"),
            "{p:#?}"
        );
        assert!(has("`[no_such_demo]` names no demo of the book"), "{p:#?}");
        assert_eq!(p.len(), 4, "{p:#?}");
        // A chapter without a Chinese text needs no Chinese cells, but its
        // file, if any, still names only real demos and parameters.
        let others: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|c| *c != "ch_newmodels")
            .collect();
        let p = cell_text_problems(&demos, &others, zh, &copy);
        assert_eq!(p.len(), 2, "{p:#?}");
        assert!(p.iter().all(|x| x.contains("no_such")), "{p:#?}");
    }

    #[test]
    fn names_are_unique_across_the_book() {
        let items = [("ch_a", "x"), ("ch_a", "y"), ("ch_b", "x"), ("ch_c", "y")];
        assert_eq!(
            duplicates(&items),
            [("ch_b", "x", "ch_a"), ("ch_c", "y", "ch_a")]
        );
        assert!(duplicates(&items[..2]).is_empty());
    }

    /// The checker's rules for a chapter's directives, on a made-up chapter.
    #[test]
    fn directives_must_place_the_chapters_own_exercises_once() {
        use chapters::doc::Block;
        let cell = |id: &str, line| Block::Cell {
            id: id.to_owned(),
            line,
        };
        let ex = |id: &str, line| Block::Exercise {
            id: id.to_owned(),
            line,
        };
        let demos = [("ch_a", "alpha"), ("ch_b", "beta")];
        let mine = ["ch_a/one", "ch_a/two", "ch_a/three"];
        let blocks = [
            cell("alpha", 1),
            cell("beta", 2),
            cell("gamma", 3),
            ex("ch_a/one", 4),
            ex("ch_a/one", 5),
            ex("ch_b/other", 6),
            ex("ch_a/nope", 7),
            ex("ch_a/two", 8),
        ];
        let p = directive_problems("ch_a", "a.md", &blocks, &demos, &mine);
        assert_eq!(
            p,
            [
                "a.md line 2: cell `beta` is a demo of chapter ch_b; a chapter's cells run its own demos",
                "a.md line 3: unknown cell `gamma`",
                "a.md line 5: exercise `ch_a/one` is already placed at line 4; each exercise is placed once",
                "a.md line 6: exercise `ch_b/other` belongs to chapter ch_b; a chapter places only its own exercises",
                "a.md line 7: unknown exercise `ch_a/nope`",
                "a.md: exercise `ch_a/three` is not placed; put ```exercise ch_a/three``` where the text asks for it",
            ]
        );
        let ok = [
            cell("alpha", 1),
            ex("ch_a/one", 2),
            ex("ch_a/two", 3),
            ex("ch_a/three", 4),
        ];
        assert!(directive_problems("ch_a", "a.md", &ok, &demos, &mine).is_empty());
    }

    /// Every statement's placeholders are computed by its reference, printed as the
    /// judge prints values; none is left behind.
    #[test]
    fn statements_substitute_their_worked_examples() {
        for ex in crate::all() {
            let md = ex.statement_markdown().unwrap_or_else(|e| panic!("{e}"));
            assert!(!md.contains("{{"), "{}: a placeholder is left", ex.id);
            assert!(
                ex.statement.contains("{{call("),
                "{}: no computed example",
                ex.id
            );
        }
        let md = |id: &str| crate::by_id(id).map(|e| e.statement_markdown());
        let has = |id: &str, text: &str| {
            let got = md(id).and_then(Result::ok).unwrap_or_default();
            assert!(got.contains(text), "{id}: `{text}` not in\n{got}");
        };
        has("ch_newmodels/attended", "is 640.");
        has("ch_newmodels/v4_kv", "`[3850.25, 15420416]`");
        has("ch_newmodels/kv_request", "`1468060672.0`");
        has(
            "ch_newmodels/compress_stream",
            "`#{entries: [[2.0]], partial: 1}`",
        );
        has(
            "ch_newmodels/hash_loads",
            "`[[2, 2, 1, 1], 1.3333333333333333]`",
        );
    }

    #[test]
    #[cfg(feature = "render")]
    fn links_must_lead_to_a_page_and_an_anchor_of_the_book() {
        let base = chapters::all()
            .into_iter()
            .find(|c| c.id == "ch_newmodels")
            .expect("ch_newmodels");
        let ch = chapters::Chapter {
            source: "# T\n\n## Here\n\n[a](/ch/nowhere) [b](/ch/newmodels#no-such) [c](#here)\n\
                     [d](/ch/newmodels#the-new-kv-ledger) [e](/ch/kvcache#cell-kv_calc) [f](#missing)\n\
                     [g](/ch/newmodels#exercise-attended) [h](https://example.com/#x) [i](/)\n\
                     [j](/glossary#no-such-term)",
            ..base
        };
        let problems = link_problems(&ch, chapters::Lang::En);
        assert_eq!(problems.len(), 4, "{problems:#?}");
        assert!(problems[3].contains("line 8: link to `/glossary#no-such-term`: no term"));
        assert!(problems[0].contains("line 5: link to `/ch/nowhere`: no such page"));
        assert!(
            problems[1].contains("`/ch/newmodels#no-such`: no heading, cell or exercise `no-such`")
        );
        assert!(problems[2].contains("line 6: link to `#missing`"));
    }

    #[test]
    #[cfg(feature = "render")]
    fn a_chapter_must_name_its_sources() {
        use chapters::Lang;
        let ok = "# T\n\nAs [the source](#sources-and-further-reading) says.\n\n## Sources and further reading\n\n- **The source** (“the source” here): a note.\n";
        assert_eq!(sources_problems("f", ok, Lang::En), Vec::<String>::new());
        let none = "# T\n\nText.\n";
        assert!(
            sources_problems("f", none, Lang::En)[0].contains("no \"Sources and further reading\"")
        );
        let bare = "# T\n\nThe article says so.\n\n## Sources and further reading\n\n- A paper.\n";
        let p = sources_problems("f", bare, Lang::En);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(
            p[0].contains("line 3: the text says \"the article\""),
            "{p:?}"
        );
        assert!(p[1].contains("before any link"), "{p:?}");
        let not_last = "# T\n\n## Sources and further reading\n\n- x\n\n## More\n";
        assert!(sources_problems("f", not_last, Lang::En)[0].contains("last `##` section"));
        // "the sources" alone is not the phrase; code blocks are not headings.
        let plural = "# T\n\nAll the sources agree.\n\n```\n## not a heading\n```\n\n## Sources and further reading\n\n- x\n";
        assert_eq!(
            sources_problems("f", plural, Lang::En),
            Vec::<String>::new()
        );
        let zh = "# T\n\n## 资料与延伸阅读 {#sources-and-further-reading}\n\n- x\n";
        assert_eq!(sources_problems("f", zh, Lang::Zh), Vec::<String>::new());
        assert_eq!(sources_problems("f", "# T\n", Lang::Zh).len(), 1);
    }

    #[test]
    fn a_bad_placeholder_names_the_file_and_line() {
        let mut ex = crate::by_id("ch_newmodels/attended").expect("exists");
        ex.statement = "Example:\n{{call(1, 2)}}";
        let e = ex.statement_markdown().unwrap_err();
        assert!(
            e.starts_with("ch_newmodels/attended/statement.md line 2:"),
            "{e}"
        );
        assert!(e.contains("takes 4 arguments, got 2"), "{e}");
        ex.statement = "{{answer}}";
        assert!(
            ex.statement_markdown()
                .unwrap_err()
                .contains("unknown placeholder")
        );
        ex.statement = "{{call(1.5, 4, 0, 128)}}";
        let e = ex.statement_markdown().unwrap_err();
        assert!(e.contains("the reference fails"), "{e}");
    }

    /// Every exercise's known-wrong solutions (`wrong/*.rhai`) fail on a case, so
    /// weak tests are noticed.
    #[cfg(feature = "script")]
    #[test]
    fn known_wrong_solutions_fail() {
        for ex in crate::all() {
            let wrong = known_wrong(ex.id);
            assert!(!wrong.is_empty(), "{}: no wrong/*.rhai", ex.id);
            for (file, src) in wrong {
                let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
                // A wrong value, or an error raised while running a case: never code that
                // does not even load (a typo in the wrong solution would prove nothing).
                let ran = v.status == Status::Failed
                    || (v.status == Status::Error && v.message.starts_with("case "));
                assert!(
                    ran,
                    "{}/{file}: a wrong solution should fail on a case ({}: {})",
                    ex.id,
                    v.status.label(),
                    v.message
                );
                println!("{}/{file}: {}", ex.id, v.message);
            }
        }
    }

    /// The recording of the known-wrong Rhai solutions' outputs
    /// (`wrong_outputs.jsonl`, see [`crate::mistakes`]) is current;
    /// `UPDATE_WRONG_OUTPUTS=1` rewrites its Rhai lines.
    #[cfg(feature = "script")]
    #[test]
    fn the_wrong_rhai_outputs_are_recorded() {
        use crate::mistakes;
        let now = mistakes::record_rhai();
        if std::env::var_os("UPDATE_WRONG_OUTPUTS").is_some() {
            let old = std::fs::read_to_string(mistakes::RECORDED_PATH).unwrap_or_default();
            std::fs::write(
                mistakes::RECORDED_PATH,
                mistakes::merged(&old, ".rhai", &now),
            )
            .expect("writes wrong_outputs.jsonl");
            return;
        }
        let stale = mistakes::stale(".rhai", &now);
        assert!(
            stale.is_empty(),
            "wrong_outputs.jsonl is stale (re-record with UPDATE_WRONG_OUTPUTS=1 cargo test -p exercises):\n{}",
            stale.join("\n")
        );
    }

    /// Every known-wrong Rhai solution is named in both languages, and is
    /// recognised from its own verdict: the verdict names it, or one whose
    /// results on the failing cases are the same (said here); a correct
    /// solution never is.
    #[cfg(feature = "script")]
    #[test]
    fn known_mistakes_are_recognised_from_their_own_verdicts() {
        let (mut recognised, mut total, mut own) = (0, 0, 0);
        let mut alike = Vec::new();
        for ex in crate::all() {
            for (file, src) in known_wrong(ex.id) {
                total += 1;
                let stem = file.trim_start_matches("wrong/").trim_end_matches(".rhai");
                assert!(
                    ex.mistake_in(stem, chapters::Lang::En).is_some(),
                    "{}/{file}: no English line",
                    ex.id
                );
                assert!(
                    ex.mistake_in(stem, chapters::Lang::Zh).is_some(),
                    "{}/{file}: no Chinese line",
                    ex.id
                );
                let (v, outcomes) = crate::grade_rhai_recorded(
                    &ex,
                    src,
                    judge::script::Limits::default(),
                    None,
                    None,
                );
                let named = v.misconception.as_ref().map(|m| m.id.as_str());
                let candidates =
                    crate::mistakes::candidates(&ex, &v, &outcomes, judge::Answer::Rhai);
                if candidates.iter().any(|c| c == stem) {
                    recognised += 1;
                }
                if named == Some(stem) {
                    own += 1;
                }
                // Others whose results on these failing cases are the same.
                if candidates.len() > 1 {
                    alike.push(format!(
                        "{}: {stem} is told as {} (the same results: {})",
                        ex.id,
                        named.unwrap_or_default(),
                        candidates.join(", ")
                    ));
                }
                assert!(
                    candidates.iter().any(|c| c == stem) && named.is_some(),
                    "{}/{file}: not recognised from its verdict ({:?})",
                    ex.id,
                    v.misconception
                );
            }
            let good = known_good(ex.id).expect("solution.rhai");
            let (v, _) = crate::grade_rhai(&ex, good, judge::script::Limits::default(), None);
            assert_eq!(v.misconception, None, "{}: solution.rhai", ex.id);
        }
        println!(
            "recognised {recognised} of {total} known-wrong Rhai solutions from their verdicts ({own} by their own name)"
        );
        for a in &alike {
            println!("  indistinguishable: {a}");
        }
        assert_eq!(recognised, total);
    }

    /// Every exercise's known-good solution (`solution.rhai`) passes every case,
    /// and its starter is "not attempted".
    #[cfg(feature = "script")]
    #[test]
    fn known_good_solutions_pass_and_starters_are_not_attempted() {
        for ex in crate::all() {
            let src = known_good(ex.id).unwrap_or_else(|| panic!("{}: no solution.rhai", ex.id));
            let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
            assert_eq!(v.status, Status::Passed, "{}: {}", ex.id, v.message);
            assert_eq!(v.passed, v.total, "{}", ex.id);
            let (v, _) =
                crate::grade_rhai(&ex, ex.starter_rhai, judge::script::Limits::default(), None);
            assert_eq!(v.status, Status::NotAttempted, "{}: starter", ex.id);
        }
        assert_eq!(crate::KNOWN.len(), crate::all().len());
    }

    /// Every chapter's practice folder offers its exercises with the same starters as
    /// the book.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_practice_folder_matches_the_starters() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for ch in chapters::all().iter().map(|c| c.id) {
            let dir = root.join("practice").join(ch);
            let read = |p: std::path::PathBuf| {
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            };
            let lib = read(dir.join("src/lib.rs"));
            let main = read(dir.join("src/main.rs"));
            let readme = read(dir.join("README.md"));
            for ex in crate::for_chapter(ch) {
                let slug = ex.slug();
                assert_eq!(
                    read(dir.join(format!("{slug}.rhai"))),
                    ex.starter_rhai,
                    "{slug}.rhai"
                );
                assert_eq!(
                    read(dir.join(format!("src/{slug}.rs"))),
                    ex.starter_rust,
                    "src/{slug}.rs"
                );
                assert!(
                    lib.contains(&format!("pub mod {slug};")),
                    "src/lib.rs: {slug}"
                );
                assert!(
                    main.contains(&format!("(\"{}\", ", ex.function)),
                    "src/main.rs: {slug}"
                );
                assert!(
                    readme.contains(&format!("| {} |", ex.id)),
                    "README.md: {slug}"
                );
            }
        }
    }
}
