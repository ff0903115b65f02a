//! A small static server for `dist/` that answers as the static hosts the book
//! is published on do (nginx with `web/nginx.conf`, GitHub Pages, Netlify):
//! `/ch/newmodels` serves `ch/newmodels.html`; a folder with its slash serves
//! its `index.html`, and without it (`/zh`) is redirected there (301); anything
//! else gets `404.html` with status 404. A file goes out precompressed
//! (`<file>.br`, `<file>.gz`, written by `compress.rs`) when the request
//! accepts it; pages and the book's own files are revalidated (`no-cache`,
//! with an `ETag`), the search index's content-named files cached for a year.
//! `e2e/hosts.mjs` holds its answers to nginx's.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

use crate::root;

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("webmanifest") => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// How long a browser may keep a file of `dist/` without asking again: a
/// year for files named by their content (the search index's fragments and
/// index parts), otherwise revalidate each time (pages, the wasm modules and
/// scripts keep their names from one build to the next). `web/nginx.conf`
/// says the same.
pub fn cache_control(rel: &str) -> &'static str {
    if rel.starts_with("pagefind/fragment/") || rel.starts_with("pagefind/index/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

/// What a request path is in `dist/`.
#[derive(Debug, PartialEq)]
pub(crate) enum Found {
    /// This file answers it.
    File(PathBuf),
    /// A folder named without its slash: the path to redirect to.
    Redirect(String),
    /// Nothing: the 404 page.
    Missing,
}

/// Maps a request path to what answers it in `dist`.
pub(crate) fn resolve(dist: &Path, url_path: &str) -> Found {
    let url_path = url_path.split('#').next().unwrap_or("/");
    let (path, query) = url_path.split_once('?').unwrap_or((url_path, ""));
    let rel = Path::new(path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Found::Missing;
    }
    let file = dist.join(rel);
    if file.is_file() {
        return Found::File(file);
    }
    if file.join("index.html").is_file() {
        if path.ends_with('/') {
            return Found::File(file.join("index.html"));
        }
        let query = if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        };
        return Found::Redirect(format!("{path}/{query}"));
    }
    let page = file.with_extension("html");
    if rel.extension().is_none() && !path.ends_with('/') && page.is_file() {
        return Found::File(page);
    }
    Found::Missing
}

/// The request's headers this server reads.
#[derive(Default)]
struct Asked {
    /// `Accept-Encoding`'s tokens, lowercase, those with `q=0` left out.
    encodings: Vec<String>,
    /// `If-None-Match`, as sent.
    if_none_match: Option<String>,
}

impl Asked {
    fn header(&mut self, line: &str) {
        let Some((name, value)) = line.split_once(':') else {
            return;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("accept-encoding") {
            self.encodings = value
                .split(',')
                .filter(|t| !t.replace(' ', "").ends_with(";q=0"))
                .filter_map(|t| t.split(';').next())
                .map(|t| t.trim().to_ascii_lowercase())
                .collect();
        } else if name.eq_ignore_ascii_case("if-none-match") {
            self.if_none_match = Some(value.to_owned());
        }
    }
}

/// The file to send for `file` and its `Content-Encoding`: its precompressed
/// copy in the first encoding the request accepts, else itself.
fn encoded(file: &Path, asked: &Asked) -> (PathBuf, Option<&'static str>) {
    // While watching, files change under their precompressed copies.
    if crate::compress::compressible(file) && !crate::watch::watching() {
        for (token, suffix) in crate::compress::ENCODINGS {
            let copy = PathBuf::from(format!("{}{suffix}", file.display()));
            if asked.encodings.iter().any(|e| e == token) && copy.is_file() {
                return (copy, Some(token));
            }
        }
    }
    (file.to_path_buf(), None)
}

/// A validator for what is sent: its size and modification time, and its encoding.
fn etag(sent: &Path, encoding: Option<&str>) -> Option<String> {
    let meta = std::fs::metadata(sent).ok()?;
    let t = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "\"{:x}-{:x}{}\"",
        meta.len(),
        t.as_nanos(),
        encoding.map(|e| format!("-{e}")).unwrap_or_default()
    ))
}

fn handle(mut stream: TcpStream, dist: &Path, log: bool) {
    let mut line = String::new();
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut asked = Asked::default();
    loop {
        let mut h = String::new();
        match reader.read_line(&mut h) {
            Ok(0) | Err(_) => break,
            Ok(_) if h == "\r\n" || h == "\n" => break,
            Ok(_) => asked.header(h.trim_end()),
        }
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let found = if method == "GET" || method == "HEAD" {
        resolve(dist, path)
    } else {
        Found::Missing
    };
    let mut head = Vec::new();
    let changes = path
        .strip_prefix("/__book/changes")
        .filter(|_| crate::watch::watching());
    let (status, body) = match found {
        _ if changes.is_some() => {
            let query = changes.unwrap_or_default().trim_start_matches('?');
            head.push("Content-Type: application/json".to_owned());
            head.push("Cache-Control: no-store".to_owned());
            ("200 OK", crate::watch::answer(query).into_bytes())
        }
        // While watching, the service worker (cache first) would show an
        // author the pages of an older build: this one removes itself.
        Found::File(file) if crate::watch::watching() && file == dist.join("sw.js") => {
            head.push("Content-Type: text/javascript; charset=utf-8".to_owned());
            head.push("Cache-Control: no-store".to_owned());
            ("200 OK", crate::watch::NO_WORKER.as_bytes().to_vec())
        }
        // While watching, a page goes out with the script that reloads it.
        Found::File(file)
            if crate::watch::watching() && file.extension().is_some_and(|e| e == "html") =>
        {
            head.push("Content-Type: text/html; charset=utf-8".to_owned());
            head.push("Cache-Control: no-store".to_owned());
            let page = std::fs::read_to_string(&file).unwrap_or_default();
            let at = page.rfind("</body>").unwrap_or(page.len());
            let page = format!("{}{}{}", &page[..at], crate::watch::SCRIPT, &page[at..]);
            ("200 OK", page.into_bytes())
        }
        Found::Redirect(to) => {
            head.push(format!("Location: {to}"));
            head.push("Content-Type: text/html; charset=utf-8".to_owned());
            head.push("Cache-Control: no-cache".to_owned());
            (
                "301 Moved Permanently",
                format!("<a href=\"{to}\">{to}</a>\n").into_bytes(),
            )
        }
        Found::File(file) => {
            let rel = file
                .strip_prefix(dist)
                .map(|r| r.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            let (sent, encoding) = encoded(&file, &asked);
            head.push(format!("Content-Type: {}", content_type(&file)));
            head.push(format!("Cache-Control: {}", cache_control(&rel)));
            if crate::compress::compressible(&file) {
                head.push("Vary: Accept-Encoding".to_owned());
            }
            if let Some(e) = encoding {
                head.push(format!("Content-Encoding: {e}"));
            }
            let tag = etag(&sent, encoding);
            if let Some(t) = &tag {
                head.push(format!("ETag: {t}"));
            }
            if tag.is_some() && tag == asked.if_none_match {
                ("304 Not Modified", Vec::new())
            } else {
                match std::fs::read(&sent) {
                    Ok(b) => ("200 OK", b),
                    Err(_) => {
                        head.clear();
                        head.push("Content-Type: text/plain".to_owned());
                        ("500 Internal Server Error", b"unreadable\n".to_vec())
                    }
                }
            }
        }
        Found::Missing => {
            let page = dist.join("404.html");
            let (sent, encoding) = encoded(&page, &asked);
            head.push("Cache-Control: no-cache".to_owned());
            match std::fs::read(&sent) {
                Ok(b) => {
                    head.push("Content-Type: text/html; charset=utf-8".to_owned());
                    head.push("Vary: Accept-Encoding".to_owned());
                    if let Some(e) = encoding {
                        head.push(format!("Content-Encoding: {e}"));
                    }
                    ("404 Not Found", b)
                }
                Err(_) => {
                    head.push("Content-Type: text/plain".to_owned());
                    ("404 Not Found", b"not found\n".to_vec())
                }
            }
        }
    };
    if log {
        println!("{method} {path} -> {status}");
    }
    let mut text = format!("HTTP/1.1 {status}\r\n");
    for h in &head {
        text.push_str(h);
        text.push_str("\r\n");
    }
    text.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let _ = stream.write_all(text.as_bytes());
    if method != "HEAD" {
        let _ = stream.write_all(&body);
    }
}

/// Serves `dist/` on 127.0.0.1:`port` until killed.
pub fn serve(port: u16, log: bool) -> Result<(), String> {
    let listener =
        TcpListener::bind(("127.0.0.1", port)).map_err(|e| format!("port {port}: {e}"))?;
    accept(listener, log);
    Ok(())
}

fn accept(listener: TcpListener, log: bool) {
    let dist = root().join("dist");
    for stream in listener.incoming().flatten() {
        let dist = dist.clone();
        std::thread::spawn(move || handle(stream, &dist, log));
    }
}

/// Serves `dist/` on a free port in a background thread; returns the port.
pub fn spawn_background() -> Result<u16, String> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    std::thread::spawn(move || accept(listener, false));
    Ok(port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_folders_and_traversal() {
        let dist = std::env::temp_dir().join(format!("ih-serve-{}", std::process::id()));
        std::fs::create_dir_all(dist.join("ch")).unwrap();
        std::fs::create_dir_all(dist.join("zh")).unwrap();
        for f in ["index.html", "zh/index.html", "ch/newmodels.html", "app.js"] {
            std::fs::write(dist.join(f), "x").unwrap();
        }
        let file = |f: &str| Found::File(dist.join(f));
        assert_eq!(resolve(&dist, "/"), file("index.html"));
        assert_eq!(resolve(&dist, "/zh/"), file("zh/index.html"));
        assert_eq!(resolve(&dist, "/zh/index.html"), file("zh/index.html"));
        assert_eq!(resolve(&dist, "/zh"), Found::Redirect("/zh/".into()));
        assert_eq!(
            resolve(&dist, "/zh?x=1"),
            Found::Redirect("/zh/?x=1".into())
        );
        assert_eq!(resolve(&dist, "/app.js?v=1"), file("app.js"));
        assert_eq!(
            resolve(&dist, "/ch/newmodels#exercise-v4-kv"),
            file("ch/newmodels.html")
        );
        assert_eq!(
            resolve(&dist, "/ch/newmodels.html"),
            file("ch/newmodels.html")
        );
        assert_eq!(resolve(&dist, "/ch/newmodels/"), Found::Missing);
        assert_eq!(resolve(&dist, "/ch/nothing"), Found::Missing);
        assert_eq!(resolve(&dist, "/missing.js"), Found::Missing);
        assert_eq!(resolve(&dist, "/../Cargo.toml"), Found::Missing);
        let _ = std::fs::remove_dir_all(&dist);
    }

    #[test]
    fn encodings_the_request_accepts() {
        let dist = std::env::temp_dir().join(format!("ih-serve-enc-{}", std::process::id()));
        std::fs::create_dir_all(&dist).unwrap();
        for f in ["a.js", "a.js.br", "a.js.gz", "b.css", "b.css.gz", "c.png"] {
            std::fs::write(dist.join(f), "x").unwrap();
        }
        let ask = |value: &str| {
            let mut a = Asked::default();
            a.header(&format!("Accept-Encoding: {value}"));
            a
        };
        let got = |f: &str, a: &Asked| {
            let (p, e) = encoded(&dist.join(f), a);
            (p.file_name().unwrap().to_string_lossy().into_owned(), e)
        };
        let all = ask("gzip, deflate, br, zstd");
        assert_eq!(got("a.js", &all), ("a.js.br".into(), Some("br")));
        assert_eq!(got("b.css", &all), ("b.css.gz".into(), Some("gzip")));
        assert_eq!(got("c.png", &all), ("c.png".into(), None));
        assert_eq!(got("a.js", &ask("gzip")), ("a.js.gz".into(), Some("gzip")));
        assert_eq!(
            got("a.js", &ask("br;q=0, gzip")),
            ("a.js.gz".into(), Some("gzip"))
        );
        assert_eq!(got("a.js", &Asked::default()), ("a.js".into(), None));
        assert_eq!(
            cache_control("pagefind/fragment/en_1.pf_fragment"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(cache_control("pkg/app_bg.wasm"), "no-cache");
        let _ = std::fs::remove_dir_all(&dist);
    }
}
