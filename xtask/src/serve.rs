//! A small static server for `dist/` that behaves like the static hosts the book
//! is published on: `/ch/newmodels` serves `ch/newmodels.html`, a folder serves
//! its `index.html`, and anything else gets `404.html` with status 404.

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

/// Maps a request path to a file in `dist`, or `None` for 404.
pub(crate) fn resolve(dist: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next().unwrap_or("/");
    let rel = Path::new(path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let file = dist.join(rel);
    if file.is_file() {
        return Some(file);
    }
    if file.join("index.html").is_file() {
        return Some(file.join("index.html"));
    }
    let page = file.with_extension("html");
    (rel.extension().is_none() && page.is_file()).then_some(page)
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
    loop {
        let mut h = String::new();
        match reader.read_line(&mut h) {
            Ok(0) | Err(_) => break,
            Ok(_) if h == "\r\n" || h == "\n" => break,
            Ok(_) => {}
        }
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let found = (method == "GET" || method == "HEAD")
        .then(|| resolve(dist, path))
        .flatten();
    let (status, ctype, body) = match found.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
        Some((f, b)) => ("200 OK", content_type(&f), b),
        None => match std::fs::read(dist.join("404.html")) {
            Ok(b) => ("404 Not Found", "text/html; charset=utf-8", b),
            Err(_) => ("404 Not Found", "text/plain", b"not found\n".to_vec()),
        },
    };
    if log {
        println!("{method} {path} -> {status}");
    }
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
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
        for f in ["index.html", "ch/newmodels.html", "app.js"] {
            std::fs::write(dist.join(f), "x").unwrap();
        }
        assert_eq!(resolve(&dist, "/"), Some(dist.join("index.html")));
        assert_eq!(resolve(&dist, "/app.js?v=1"), Some(dist.join("app.js")));
        assert_eq!(
            resolve(&dist, "/ch/newmodels#exercise-v4-kv"),
            Some(dist.join("ch/newmodels.html"))
        );
        assert_eq!(resolve(&dist, "/ch/nothing"), None);
        assert_eq!(resolve(&dist, "/missing.js"), None);
        assert_eq!(resolve(&dist, "/../Cargo.toml"), None);
        let _ = std::fs::remove_dir_all(&dist);
    }
}
