//! Pre-rendering: the HTML of every route, written natively at build time from
//! the `chapters` and `exercises` crates.
//!
//! A chapter page carries its whole text, tables, math, highlighted code, the
//! self-test, and every cell with the output of its default parameters (the
//! same demo code the browser runs). The page's wasm then mounts the live parts
//! (`data-island` elements) in place: cells, exercises, the scratch cell,
//! progress marks, the header's tools. With JavaScript off the book still reads.

use chapters::demo::{self, Block as OutBlock, Demo, Output};
use chapters::doc::{Block, escape};
use chapters::highlight::highlight_rust;

/// One file of the site: its path under `dist/`, its `<title>`, its `<body>`.
pub struct Page {
    /// Path under `dist/`, e.g. `ch/newmodels.html`.
    pub file: String,
    /// The document title.
    pub title: String,
    /// One-line description (`<meta name="description">`).
    pub description: String,
    /// The body's HTML.
    pub body: String,
}

/// Every page of the site: the home page, one per chapter, and the 404 page.
pub fn pages() -> Result<Vec<Page>, String> {
    let mut out = vec![home(), not_found()];
    let all = chapters::all();
    for (i, ch) in all.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| &all[j]);
        out.push(chapter(ch, prev, all.get(i + 1))?);
    }
    Ok(out)
}

/// Fills the page template (`index.html`): `<!--ih:title-->`,
/// `<!--ih:description-->` and `<!--ih:body-->`.
pub fn fill(template: &str, page: &Page) -> Result<String, String> {
    for marker in ["<!--ih:title-->", "<!--ih:description-->", "<!--ih:body-->"] {
        if !template.contains(marker) {
            return Err(format!("index.html has no {marker} marker"));
        }
    }
    Ok(template
        .replace("<!--ih:title-->", &escape(&page.title))
        .replace("<!--ih:description-->", &escape(&page.description))
        .replace("<!--ih:body-->", &page.body))
}

const BOOK: &str = "Inference Handbook";

fn header() -> String {
    format!(
        "<header class=\"site-header\"><a href=\"/\" class=\"brand\">{BOOK}</a>\
         <button type=\"button\" class=\"search-open secondary\" aria-keyshortcuts=\"/ Control+K Meta+K\" \
         title=\"Search the book (/ or Ctrl+K)\">Search <kbd>/</kbd></button>\
         <div class=\"header-tools\" data-island=\"header\"></div></header>\n\
         <div class=\"notices\" data-island=\"notices\"></div>\n"
    )
}

fn home() -> Page {
    let cards: String = chapters::all()
        .iter()
        .map(|c| {
            let exs = exercises::for_chapter(c.id);
            let list: String = exs
                .iter()
                .map(|e| {
                    format!(
                        "<li data-progress=\"{}\"><span class=\"mark\" aria-hidden=\"true\">·</span> {} — <span class=\"status\">not attempted</span></li>",
                        e.id,
                        escape(e.title)
                    )
                })
                .collect();
            format!(
                "<li class=\"chapter-card\"><a href=\"/ch/{}\">{}</a><p>{}</p>\
                 <details><summary class=\"muted\">Exercises: {}</summary><ul class=\"progress-list\">{list}</ul></details></li>",
                c.slug,
                escape(c.title),
                escape(c.summary),
                exs.len()
            )
        })
        .collect();
    let body = format!(
        "{}<div class=\"island\" data-island=\"home\"><main class=\"page home\"><h1>{BOOK}</h1>\
         <p class=\"lede\">A book about LLM inference systems that you read, run and practise in the browser. \
         Every demo is Rust compiled to WebAssembly; every exercise is graded on your machine.</p>\
         <h2>Chapters</h2><ol class=\"chapters\">{cards}</ol></main></div>\n",
        header()
    );
    Page {
        file: "index.html".to_owned(),
        title: BOOK.to_owned(),
        description:
            "A book about LLM inference systems that you read, run and practise in the browser."
                .to_owned(),
        body,
    }
}

fn not_found() -> Page {
    let list: String = chapters::all()
        .iter()
        .map(|c| {
            format!(
                "<li><a href=\"/ch/{}\">{}</a></li>",
                c.slug,
                escape(c.title)
            )
        })
        .collect();
    Page {
        file: "404.html".to_owned(),
        title: format!("Page not found — {BOOK}"),
        description: "There is no page at this address.".to_owned(),
        body: format!(
            "{}<main class=\"page not-found\"><h1>Page not found</h1>\
             <p>There is no page at this address. <a href=\"/\">Back to the contents</a>, or open a chapter:</p>\
             <ul>{list}</ul></main>\n",
            header()
        ),
    }
}

fn chapter(
    ch: &chapters::Chapter,
    prev: Option<&chapters::Chapter>,
    next: Option<&chapters::Chapter>,
) -> Result<Page, String> {
    let doc = ch.doc().map_err(|e| format!("{} {e}", ch.repo_path))?;
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
                "<li data-progress=\"{id}\"><span class=\"mark\" data-island=\"mark\" data-exercise=\"{id}\" title=\"not attempted\">·</span>\
                 <a href=\"#exercise-{}\">{}</a></li>",
                e.slug(),
                escape(e.title),
                id = e.id,
            )
        })
        .collect();
    let mut main = String::new();
    for b in &doc.blocks {
        match b {
            Block::Html(h) => {
                main.push_str("<div class=\"prose\">");
                main.push_str(h);
                main.push_str("</div>\n");
            }
            Block::SelfTest(items) => {
                main.push_str("<ol class=\"selftest\">");
                for (q, a) in items {
                    main.push_str(&format!(
                        "<li><div class=\"prose\">{q}</div><details><summary>Show the answer</summary><div class=\"prose\">{a}</div></details></li>"
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
                main.push_str(&cell(&demo, answers.as_ref())?);
            }
            Block::Exercise { id, line } => {
                let ex = exercises::by_id(id).ok_or_else(|| {
                    format!("{} line {line}: unknown exercise `{id}`", ch.repo_path)
                })?;
                main.push_str(&exercise(&ex)?);
            }
            Block::Scratch { code } => main.push_str(&scratch(ch.id, code)),
        }
    }
    // The chapter as a notebook (issue #11 §2): under the title, and in the footer.
    let main = main.replacen(
        "</h1>\n",
        &format!("</h1>\n{}", crate::notebook::download_link(ch.slug, "top")),
        1,
    );
    let nav = |c: Option<&chapters::Chapter>, rel: &str, arrow: &str| {
        c.map(|c| {
            format!(
                "<a href=\"/ch/{}\" rel=\"{rel}\">{arrow} {}</a>",
                c.slug,
                escape(c.title)
            )
        })
        .unwrap_or_default()
    };
    let contents: String = chapters::all()
        .iter()
        .map(|c| {
            let progress = format!(
                "<span class=\"chapter-progress muted\" data-island=\"chapter-progress\" data-chapter=\"{}\" title=\"exercises passed\">0/{}</span>",
                c.id,
                exercises::for_chapter(c.id).len()
            );
            if c.id == ch.id {
                format!(
                    "<li class=\"toc-chapter current\"><a href=\"/ch/{}\" aria-current=\"page\">{}</a> {progress}\
                     <ol>{toc}</ol><p class=\"toc-title toc-exercises\">Exercises</p><ul class=\"progress-list\">{marks}</ul></li>",
                    c.slug,
                    escape(c.title)
                )
            } else {
                format!(
                    "<li class=\"toc-chapter\"><a href=\"/ch/{}\">{}</a> {progress}</li>",
                    c.slug,
                    escape(c.title)
                )
            }
        })
        .collect();
    let body = format!(
        "{header}<div class=\"chapter-layout\">\
         <nav class=\"toc\" aria-label=\"Contents\"><details open><summary class=\"toc-title\">Contents</summary>\
         <ol class=\"book-toc\">{contents}</ol><p class=\"toc-home\"><a href=\"/\">Home: all chapters, saved work</a></p></details></nav>\n\
         <main class=\"page chapter\" id=\"chapter\" data-chapter=\"{id}\" data-pagefind-body>\n{main}\
         <footer class=\"chapter-footer\"><nav class=\"prev-next\" aria-label=\"Chapters\">{prev}<a href=\"/\">Contents</a>{next}</nav>\
         {notebook}<a class=\"edit-link\" href=\"{edit}{path}\">Edit this page</a></footer></main></div>\n\
         <script>if (innerWidth <= 860) document.querySelector(\".toc details\").removeAttribute(\"open\");</script>\n",
        header = header(),
        id = ch.id,
        prev = nav(prev, "prev", "←"),
        next = nav(next, "next", "→"),
        edit = EDIT_BASE_URL,
        path = ch.repo_path,
        notebook = crate::notebook::download_link(ch.slug, "footer"),
    );
    Ok(Page {
        file: format!("ch/{}.html", ch.slug),
        title: format!("{} — {BOOK}", ch.title),
        description: ch.summary.to_owned(),
        body,
    })
}

/// Where "edit this page" links point: the repository's file view.
pub const EDIT_BASE_URL: &str =
    "https://github.com/inference-handbook/inference-handbook/blob/main/";

/// A table as the page's cell renders it.
fn table_html(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = String::from("<div class=\"table-wrap\"><table class=\"cell-table\"><thead><tr>");
    for h in header {
        s.push_str(&format!("<th>{}</th>", escape(h)));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            s.push_str(&format!("<td>{}</td>", escape(c)));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
    s
}

/// A demo's output as HTML: the same markup the page's cell renders.
pub fn output_html(o: &Output) -> String {
    let mut s = String::new();
    for b in &o.blocks {
        match b {
            OutBlock::Text(t) => s.push_str(&format!(
                "<pre class=\"cell-text\" tabindex=\"0\">{}</pre>",
                escape(t)
            )),
            OutBlock::Table { header, rows } => s.push_str(&table_html(header, rows)),
            OutBlock::Plot(p) => {
                let (header, rows) = p.data_table();
                s.push_str(&format!(
                    "<figure class=\"chart-figure\"><div class=\"chart{}\" style=\"height:{}px\" role=\"img\" aria-label=\"{}\"><p class=\"chart-pending muted small\">Chart: {} (drawn by the page’s script)</p></div><details class=\"chart-data\"><summary>{}</summary>",
                    if p.heatmap.is_some() { " heatmap" } else { "" },
                    p.height(),
                    escape(&p.title),
                    escape(&p.title),
                    escape(&p.data_summary(rows.len())),
                ));
                s.push_str(&table_html(&header, &rows));
                s.push_str("</details></figure>");
            }
        }
    }
    s
}

fn cell(d: &Demo, answers: Option<&exercises::Exercise>) -> Result<String, String> {
    let defaults = demo::defaults(d.params);
    let out = (d.run)(&defaults).map_err(|e| {
        format!(
            "cell `{}`: its defaults do not run: {}",
            d.id,
            e.iter()
                .map(|e| format!("{}: {}", e.param, e.message))
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    let params: String = d
        .params
        .iter()
        .map(|p| {
            let input_id = format!("cell-{}-{}", d.id, p.name);
            let control = if !p.choices.is_empty() {
                let opts: String = p
                    .choices
                    .iter()
                    .map(|c| {
                        let sel = if *c == p.default { " selected" } else { "" };
                        format!("<option value=\"{0}\"{sel}>{0}</option>", escape(c))
                    })
                    .collect();
                format!("<select id=\"{input_id}\" name=\"{}\">{opts}</select>", p.name)
            } else if p.multiline {
                let rows = p.default.lines().count().max(3);
                format!(
                    "<textarea id=\"{input_id}\" name=\"{}\" rows=\"{rows}\" spellcheck=\"false\" autocomplete=\"off\">{}</textarea>",
                    p.name,
                    escape(p.default)
                )
            } else {
                format!(
                    "<input id=\"{input_id}\" name=\"{}\" type=\"text\" autocomplete=\"off\" spellcheck=\"false\" value=\"{}\">",
                    p.name,
                    escape(p.default)
                )
            };
            format!(
                "<div class=\"param{}\"><label for=\"{input_id}\">{}</label>{control}<span class=\"param-help\">{}</span><span class=\"param-error\" role=\"alert\"></span></div>",
                if p.multiline { " wide" } else { "" },
                escape(p.label),
                escape(p.help)
            )
        })
        .collect();
    Ok(format!(
        "<div class=\"island\" data-island=\"cell\" data-id=\"{id}\"{answers_attr}><section class=\"cell\" id=\"cell-{id}\" data-cell=\"{id}\">\
         <header class=\"cell-head\"><span class=\"cell-kind\">Run it</span><h3 class=\"cell-title\" id=\"h-cell-{id}\">{title}{anchor}</h3></header>\
         <details class=\"cell-source{spoiler}\" data-pagefind-ignore><summary>{summary}</summary><pre class=\"code\"><code class=\"rust\">{source}</code></pre></details>\
         <form class=\"params\" data-pagefind-ignore>{params}<div class=\"cell-actions\"><button type=\"submit\" class=\"run\">Run</button>\
         <button type=\"button\" class=\"secondary\">Reset to defaults</button><span class=\"timing\" aria-live=\"polite\"></span></div></form>\
         <div class=\"cell-output\" aria-live=\"polite\" data-pagefind-ignore><div class=\"prerendered\">{output}</div></div></section></div>\n",
        id = d.id,
        anchor = permalink(&format!("cell-{}", d.id), "link to this cell"),
        title = escape(d.title),
        answers_attr = answers.map_or_else(String::new, |e| format!(
            " data-answers=\"{}\" data-answers-title=\"{}\"",
            escape(e.id),
            escape(e.title)
        )),
        spoiler = if answers.is_some() { " spoiler" } else { "" },
        summary = escape(&demo::source_summary(
            d.source.lines().count(),
            answers.map(|e| e.title)
        )),
        source = highlight_rust(d.source),
        output = output_html(&out),
    ))
}

fn exercise(ex: &exercises::Exercise) -> Result<String, String> {
    let md = ex.statement_markdown()?;
    let statement =
        chapters::doc::fragment(&md, 1).map_err(|e| format!("{}: statement {e}", ex.id))?;
    let signature = format!(
        "fn {}({}) -> {}",
        ex.function,
        ex.params.join(", "),
        ex.returns
    );
    Ok(format!(
        "<div class=\"island\" data-island=\"exercise\" data-id=\"{id}\"><section class=\"exercise\" id=\"exercise-{slug}\" data-exercise=\"{id}\">\
         <header class=\"cell-head\"><span class=\"cell-kind\">Exercise</span><h3 class=\"cell-title\" id=\"h-exercise-{slug}\">{title}{anchor}</h3></header>\
         <div class=\"prose statement\">{statement}</div>\
         <p class=\"signature\"><code>{signature}</code> — in Rhai, a small Rust-like language.</p>\
         <pre class=\"code starter\" aria-label=\"starter code\" data-pagefind-ignore><code>{starter}</code></pre>\
         <template class=\"reference\" data-pagefind-ignore>{reference}</template></section></div>\n",
        id = ex.id,
        slug = ex.slug(),
        anchor = permalink(&format!("exercise-{}", ex.slug()), "link to this exercise"),
        title = escape(ex.title),
        signature = escape(&signature),
        starter = escape(ex.starter_rhai),
        reference = highlight_rust(ex.reference_source),
    ))
}

fn scratch(chapter: &str, code: &str) -> String {
    // The chapter's own scripting functions, in the HTML so that search finds
    // them; the live cell lists the whole book's.
    let own: String = exercises::api::by_chapter()
        .into_iter()
        .filter(|(ch, _)| *ch == chapter)
        .flat_map(|(_, fns)| fns)
        .map(|f| {
            format!(
                "<li><code>{}</code> — {}</li>",
                escape(&f.signature()),
                escape(f.doc)
            )
        })
        .collect();
    format!(
        "<div class=\"island\" data-island=\"scratch\" data-chapter=\"{chapter}\"><section class=\"cell scratch\" id=\"scratch\">\
         <header class=\"cell-head\"><span class=\"cell-kind\">Scratch</span><h3 class=\"cell-title\" id=\"h-scratch\">Call the book’s functions in Rhai{anchor}</h3></header>\
         <details class=\"cell-source\"><summary>The functions this chapter adds</summary><ul class=\"api-list\">{own}</ul></details>\
         <pre class=\"code scratch-starter\" data-pagefind-ignore><code>{}</code></pre></section></div>\n",
        escape(code),
        anchor = permalink("scratch", "link to the scratch cell"),
    )
}

/// The `#` link after a heading: where the reader copies a permalink from.
/// Search leaves it out of headings and snippets.
pub fn permalink(id: &str, label: &str) -> String {
    format!("<a class=\"anchor\" href=\"#{id}\" aria-label=\"{label}\" data-pagefind-ignore>#</a>")
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
        assert!(ch.body.contains("<pre class=\"cell-text\" tabindex=\"0\">"));
        assert!(ch.body.contains("class=\"selftest\""));
        assert!(pages.iter().any(|p| p.file == "404.html"));
        assert!(pages.iter().any(|p| p.file == "index.html"));
    }

    #[test]
    fn the_template_needs_its_markers() {
        let p = Page {
            file: "x.html".into(),
            title: "a < b".into(),
            description: "d".into(),
            body: "<p>B</p>".into(),
        };
        let t = "<title><!--ih:title--></title><meta content=\"<!--ih:description-->\"><body><!--ih:body--></body>";
        assert_eq!(
            fill(t, &p).unwrap(),
            "<title>a &lt; b</title><meta content=\"d\"><body><p>B</p></body>"
        );
        assert!(fill("<body></body>", &p).is_err());
    }
}
