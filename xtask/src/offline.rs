//! Offline reading (issue #11 §3): after a first visit the whole book works with
//! the network off, and it installs as an app.
//!
//! [`write()`] runs last in the site build: it draws the icons (`dist/icons/`),
//! writes the web app manifest (`dist/manifest.webmanifest`), lists every file
//! this build wrote under `dist/` by its own path (`/index.html`,
//! `/ch/<slug>.html`: what every static host serves), hashes their contents into the
//! build's version, and fills the service worker's template `web/sw.js` into
//! `dist/sw.js`. The worker precaches the list into a cache named by the
//! version; a new build is a new `sw.js`, which the browser installs next to
//! the running one, and the page's script (`index.html`) offers to switch.

use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

use crate::root;

/// Sizes of the PNG icons (Chromium's installability wants 192 and 512).
const PNG_SIZES: [u32; 2] = [192, 512];

/// Writes the icons, the manifest and `dist/sw.js`; prints what is precached.
pub fn write(dist: &Path) -> Result<(), String> {
    let css_file = root().join("style/book.css");
    let css =
        std::fs::read_to_string(&css_file).map_err(|e| format!("{}: {e}", css_file.display()))?;
    let colours = Colours::from_css(&css)?;
    let icons = dist.join("icons");
    if icons.exists() {
        std::fs::remove_dir_all(&icons).map_err(|e| format!("{}: {e}", icons.display()))?;
    }
    std::fs::create_dir_all(&icons).map_err(|e| format!("{}: {e}", icons.display()))?;
    let shapes = mark(&colours);
    put(&icons.join("icon.svg"), svg(&shapes).as_bytes())?;
    for size in PNG_SIZES {
        let png = png(size, &raster(size, &shapes))?;
        put(&icons.join(format!("icon-{size}.png")), &png)?;
    }
    put(
        &dist.join("manifest.webmanifest"),
        manifest(&colours).as_bytes(),
    )?;

    let (files, stale) = precache_list(&walk(dist)?, pages_written(dist)?);
    if !stale.is_empty() {
        println!(
            "offline: left out of the precache, not written by this build: {}",
            stale.join(", ")
        );
    }
    let template_file = root().join("web/sw.js");
    let template = std::fs::read_to_string(&template_file)
        .map_err(|e| format!("{}: {e}", template_file.display()))?
        .replace("{{pyodide}}", &pyodide_version()?);
    let mut hash = Fnv::new();
    hash.update(template.as_bytes());
    let mut urls = Vec::with_capacity(files.len());
    let mut bytes = 0u64;
    for rel in &files {
        let url = url_of(rel)?;
        let body = std::fs::read(dist.join(rel)).map_err(|e| format!("dist/{rel}: {e}"))?;
        hash.update(url.as_bytes());
        hash.update(&(body.len() as u64).to_le_bytes());
        hash.update(&body);
        bytes += body.len() as u64;
        urls.push(url);
    }
    let version = format!("{:016x}", hash.finish());
    let sw = fill(&template, &version, &urls)?;
    put(&dist.join("sw.js"), sw.as_bytes())?;
    println!(
        "offline: dist/sw.js ({} B, version {version}) precaches {} files, {bytes} B",
        sw.len(),
        urls.len()
    );
    Ok(())
}

fn put(file: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))
}

/// Every file under `dist/` as (path relative to it with `/`, modification
/// time), except hidden ones (`pkg/.app.built-from`), `sw.js` itself and the
/// precompressed copies (`compress.rs`: the worker caches what the browser
/// decoded).
fn walk(dist: &Path) -> Result<Vec<(String, SystemTime)>, String> {
    fn go(dir: &Path, prefix: &str, out: &mut Vec<(String, SystemTime)>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for e in entries {
            let e = e.map_err(|e| format!("{}: {e}", dir.display()))?;
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let rel = format!("{prefix}{name}");
            let meta = e.metadata().map_err(|e| format!("dist/{rel}: {e}"))?;
            if meta.is_dir() {
                go(&e.path(), &format!("{rel}/"), out)?;
            } else if rel != "sw.js" && !crate::compress::is_copy(Path::new(&rel)) {
                let modified = meta.modified().map_err(|e| format!("dist/{rel}: {e}"))?;
                out.push((rel, modified));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    go(dist, "", &mut out)?;
    Ok(out)
}

/// When this build wrote its pages: the older of `index.html` and `404.html`,
/// the first two files the page step writes (`render::pages`), after the wasm.
fn pages_written(dist: &Path) -> Result<SystemTime, String> {
    let mut first: Option<SystemTime> = None;
    for f in ["index.html", "404.html"] {
        let t = std::fs::metadata(dist.join(f))
            .and_then(|m| m.modified())
            .map_err(|e| format!("dist/{f}: {e}"))?;
        first = Some(first.map_or(t, |m| m.min(t)));
    }
    first.ok_or_else(|| "no pages in dist/".to_owned())
}

/// Splits `files` into what this build wrote (sorted) and what an older build
/// left behind: every step after the wasm rewrites its files (or clears its
/// folder and writes it again), so a file older than this build's pages is a
/// leftover, except in `pkg/`, which is rewritten, whole, only when the app's
/// wasm changed.
fn precache_list(files: &[(String, SystemTime)], pages: SystemTime) -> (Vec<String>, Vec<String>) {
    let (mut fresh, mut stale): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for (rel, modified) in files {
        // Python (14 MB) is cached when a reader first runs it (web/sw.js).
        if rel.starts_with("pyodide/") || rel.starts_with("python/") || rel == "python-worker.js" {
            continue;
        }
        if rel.starts_with("pkg/") || *modified >= pages {
            fresh.push(rel.clone());
        } else {
            stale.push(rel.clone());
        }
    }
    fresh.sort();
    stale.sort();
    (fresh, stale)
}

/// The version of npm's `pyodide` the build copied, which names the service
/// worker's cache of Python.
fn pyodide_version() -> Result<String, String> {
    let file = root().join("node_modules/pyodide/package.json");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    json["version"]
        .as_str()
        .filter(|v| v.chars().all(|c| c.is_ascii_alphanumeric() || c == '.'))
        .map(str::to_owned)
        .ok_or_else(|| format!("{}: no version", file.display()))
}

/// The URL the service worker fetches a file of `dist/` at: its own path
/// (`/index.html`, `/zh/index.html`, `/ch/kvcache.html`, `/pkg/app.js`), which
/// every static host serves, directly or through a redirect to its pretty
/// URL, whatever its rules for routes without `.html` or a trailing slash. The
/// worker stores a page under its route (`key` in `web/sw.js`: `/`, `/zh`,
/// `/ch/kvcache`).
fn url_of(rel: &str) -> Result<String, String> {
    let ok = |c: char| c.is_ascii_alphanumeric() || "-._~/".contains(c);
    if !rel.chars().all(ok) {
        return Err(format!(
            "dist/{rel}: a file name the precache list cannot hold unescaped"
        ));
    }
    Ok(format!("/{rel}"))
}

/// Fills the template's two markers; fails if either is not there exactly once.
fn fill(template: &str, version: &str, urls: &[String]) -> Result<String, String> {
    const VERSION: &str = "\"{{version}}\"";
    const FILES: &str = "/*{{files}}*/[]";
    for marker in [VERSION, FILES] {
        if template.matches(marker).count() != 1 {
            return Err(format!("web/sw.js must hold {marker} once"));
        }
    }
    let list = serde_json::to_string_pretty(urls).map_err(|e| e.to_string())?;
    Ok(template
        .replace(VERSION, &serde_json::Value::from(version).to_string())
        .replace(FILES, &list))
}

/// 64-bit FNV-1a: enough to tell one build from the next (not a digest
/// anyone could be fooled by on purpose: it names a cache, it guards nothing).
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

/// The book's colours, read from `style/book.css` so the manifest and the
/// icons cannot drift from the theme (a test holds `index.html`'s
/// `theme-color` to the same file).
struct Colours {
    /// The light theme's page background (`--bg` in `:root`).
    bg: String,
    /// The light theme's accent (`--accent` in `:root`).
    accent: String,
}

impl Colours {
    fn from_css(css: &str) -> Result<Self, String> {
        Ok(Colours {
            bg: css_var(css, ":root", "bg")?,
            accent: css_var(css, ":root", "accent")?,
        })
    }
}

/// The `#rrggbb` value of `--name` in the first `selector { ... }` block.
fn css_var(css: &str, selector: &str, name: &str) -> Result<String, String> {
    let start = css
        .find(&format!("{selector} {{"))
        .ok_or_else(|| format!("style/book.css: no `{selector} {{` block"))?;
    let block = &css[start..];
    let block = &block[..block.find('}').unwrap_or(block.len())];
    let at = block
        .find(&format!("--{name}:"))
        .ok_or_else(|| format!("style/book.css: no --{name} in `{selector}`"))?;
    let value = block[at + name.len() + 3..]
        .split(';')
        .next()
        .unwrap_or("")
        .trim();
    let hex = value.strip_prefix('#').unwrap_or("");
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "style/book.css: --{name} is `{value}`, not #rrggbb"
        ));
    }
    Ok(value.to_ascii_lowercase())
}

fn rgb(hex: &str) -> [u8; 3] {
    let c = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0);
    [c(1), c(3), c(5)]
}

/// The web app manifest: what an installed book is called, where it starts,
/// its colours and icons.
fn manifest(c: &Colours) -> String {
    let mut icons: Vec<serde_json::Value> = PNG_SIZES
        .iter()
        .map(|s| {
            serde_json::json!({
                "src": format!("/icons/icon-{s}.png"),
                "sizes": format!("{s}x{s}"),
                "type": "image/png",
            })
        })
        .collect();
    icons.push(serde_json::json!({
        "src": "/icons/icon.svg", "sizes": "any", "type": "image/svg+xml",
    }));
    let m = serde_json::json!({
        "id": "/",
        "name": "The Inference Handbook",
        "short_name": "Inference Handbook",
        "description": "A book about LLM inference systems that you read, run and practise in the browser, online or off.",
        "lang": "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": c.bg,
        "theme_color": c.bg,
        "icons": icons,
    });
    serde_json::to_string_pretty(&m).unwrap_or_default() + "\n"
}

/// A filled polygon in the icon's 512 × 512 design square.
struct Shape {
    rgb: [u8; 3],
    points: Vec<(f64, f64)>,
}

/// The book's mark: an open book on the accent colour, text on its left page,
/// rising bars on its right.
fn mark(c: &Colours) -> Vec<Shape> {
    let (accent, paper) = (rgb(&c.accent), rgb(&c.bg));
    // A rounded square: each corner an arc of 12 segments.
    let (r, n) = (112.0, 12);
    let corners = [
        (512.0 - r, 512.0 - r),
        (r, 512.0 - r),
        (r, r),
        (512.0 - r, r),
    ];
    let mut square = Vec::new();
    for (k, (cx, cy)) in corners.iter().enumerate() {
        for i in 0..=n {
            let a = std::f64::consts::FRAC_PI_2 * (k as f64 + f64::from(i) / f64::from(n));
            square.push((cx + r * a.cos(), cy + r * a.sin()));
        }
    }
    // The pages slope up from the spine by `lift` over their width.
    let lift = 22.0 / 144.0;
    let left = vec![
        (104.0, 168.0),
        (248.0, 190.0),
        (248.0, 380.0),
        (104.0, 358.0),
    ];
    let right = vec![
        (264.0, 190.0),
        (408.0, 168.0),
        (408.0, 358.0),
        (264.0, 380.0),
    ];
    let mut shapes = vec![
        Shape {
            rgb: accent,
            points: square,
        },
        Shape {
            rgb: paper,
            points: left,
        },
        Shape {
            rgb: paper,
            points: right,
        },
    ];
    // Lines of text, parallel to the left page's top edge.
    for i in 0..4 {
        let (x0, x1) = (126.0, 226.0);
        let y0 = 206.0 + 38.0 * f64::from(i);
        let y1 = y0 + (x1 - x0) * lift;
        shapes.push(Shape {
            rgb: accent,
            points: vec![(x0, y0), (x1, y1), (x1, y1 + 14.0), (x0, y0 + 14.0)],
        });
    }
    // Bars standing on a line parallel to the right page's bottom edge.
    for (i, h) in [70.0, 110.0, 150.0].iter().enumerate() {
        let x0 = 290.0 + 40.0 * i as f64;
        let x1 = x0 + 26.0;
        let base = |x: f64| 352.0 - (x - 264.0) * lift;
        shapes.push(Shape {
            rgb: accent,
            points: vec![
                (x0, base(x0) - h),
                (x1, base(x1) - h),
                (x1, base(x1)),
                (x0, base(x0)),
            ],
        });
    }
    shapes
}

fn svg(shapes: &[Shape]) -> String {
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 512 512\" width=\"512\" height=\"512\">\n",
    );
    for s in shapes {
        let points: Vec<String> = s
            .points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let [r, g, b] = s.rgb;
        out += &format!(
            "<polygon fill=\"#{r:02x}{g:02x}{b:02x}\" points=\"{}\"/>\n",
            points.join(" ")
        );
    }
    out + "</svg>\n"
}

/// Draws `shapes` into `size` × `size` RGBA pixels, anti-aliased: each pixel
/// row is sampled on 4 lines, and each line's spans are covered exactly.
fn raster(size: u32, shapes: &[Shape]) -> Vec<u8> {
    const SUB: u32 = 4;
    let n = size as usize;
    let scale = f64::from(size) / 512.0;
    // Premultiplied RGBA, 0..1.
    let mut px = vec![[0.0f64; 4]; n * n];
    let mut cover = vec![0.0f64; n];
    for shape in shapes {
        let pts: Vec<(f64, f64)> = shape
            .points
            .iter()
            .map(|(x, y)| (x * scale, y * scale))
            .collect();
        let colour = shape.rgb.map(|c| f64::from(c) / 255.0);
        for row in 0..n {
            cover.fill(0.0);
            for s in 0..SUB {
                let y = row as f64 + (f64::from(s) + 0.5) / f64::from(SUB);
                let mut xs: Vec<f64> = pts
                    .iter()
                    .zip(pts.iter().cycle().skip(1))
                    .filter(|((_, ya), (_, yb))| (*ya <= y) != (*yb <= y))
                    .map(|((xa, ya), (xb, yb))| xa + (y - ya) * (xb - xa) / (yb - ya))
                    .collect();
                xs.sort_by(f64::total_cmp);
                for pair in xs.chunks_exact(2) {
                    add_span(&mut cover, pair[0], pair[1], 1.0 / f64::from(SUB));
                }
            }
            for (x, a) in cover.iter().enumerate() {
                let a = a.min(1.0);
                if a > 0.0 {
                    let p = &mut px[row * n + x];
                    for (d, c) in p.iter_mut().zip(colour) {
                        *d = c * a + *d * (1.0 - a);
                    }
                    p[3] = a + p[3] * (1.0 - a);
                }
            }
        }
    }
    let mut out = Vec::with_capacity(n * n * 4);
    for p in px {
        let a = p[3];
        for c in &p[..3] {
            let v = if a > 0.0 { c / a } else { 0.0 };
            out.push((v * 255.0).round().clamp(0.0, 255.0) as u8);
        }
        out.push((a * 255.0).round().clamp(0.0, 255.0) as u8);
    }
    out
}

/// Adds `weight` × the part of each pixel that `[x0, x1)` covers.
fn add_span(cover: &mut [f64], x0: f64, x1: f64, weight: f64) {
    let n = cover.len() as f64;
    let (x0, x1) = (x0.clamp(0.0, n), x1.clamp(0.0, n));
    if x1 <= x0 {
        return;
    }
    let (i0, i1) = (x0.floor() as usize, x1.floor() as usize);
    if i0 == i1 {
        cover[i0] += (x1 - x0) * weight;
        return;
    }
    cover[i0] += (i0 as f64 + 1.0 - x0) * weight;
    for c in &mut cover[i0 + 1..i1] {
        *c += weight;
    }
    if let Some(c) = cover.get_mut(i1) {
        *c += (x1 - i1 as f64) * weight;
    }
}

/// A PNG of `size` × `size` RGBA pixels: the signature, then IHDR, IDAT (the
/// rows, each after a filter byte 0, zlib-compressed) and IEND, each chunk
/// closed by the CRC-32 of its type and data.
fn png(size: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let row = size as usize * 4;
    let mut raw = Vec::with_capacity(rgba.len() + size as usize);
    for line in rgba.chunks(row) {
        raw.push(0);
        raw.extend_from_slice(line);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&raw).map_err(|e| e.to_string())?;
    let idat = z.finish().map_err(|e| e.to_string())?;
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&size.to_be_bytes());
    ihdr.extend_from_slice(&size.to_be_bytes());
    // 8 bits per channel, colour type 6 (RGBA), deflate, no filter choice, no interlace.
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [
        (b"IHDR", &ihdr[..]),
        (b"IDAT", &idat[..]),
        (b"IEND", &[][..]),
    ] {
        let len = u32::try_from(data.len()).map_err(|e| e.to_string())?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        out.extend_from_slice(&crc.sum().to_be_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::time::Duration;

    #[test]
    fn files_by_their_own_paths() {
        let url = |rel: &str| url_of(rel).unwrap();
        assert_eq!(url("index.html"), "/index.html");
        assert_eq!(url("zh/index.html"), "/zh/index.html");
        assert_eq!(url("ch/kvcache.html"), "/ch/kvcache.html");
        assert_eq!(url("pkg/app_bg.wasm"), "/pkg/app_bg.wasm");
        assert_eq!(
            url("pagefind/fragment/en_1f2e.pf_fragment"),
            "/pagefind/fragment/en_1f2e.pf_fragment"
        );
        assert!(url_of("nb/a b.ipynb").is_err());
        assert!(url_of("nb/caf\u{e9}.ipynb").is_err());
        // Every file is served at its own path, with no redirect.
        let dist = std::env::temp_dir().join(format!("ih-offline-{}", std::process::id()));
        std::fs::create_dir_all(dist.join("zh/ch")).unwrap();
        let pages = [
            "index.html",
            "404.html",
            "zh/index.html",
            "zh/ch/kvcache.html",
        ];
        for f in pages {
            std::fs::write(dist.join(f), "x").unwrap();
        }
        for f in pages {
            assert_eq!(
                crate::serve::resolve(&dist, &url(f)),
                crate::serve::Found::File(dist.join(f)),
                "{f}"
            );
        }
        let _ = std::fs::remove_dir_all(&dist);
    }

    #[test]
    fn precache_lists_this_builds_files_only() {
        let pages = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let (before, after) = (
            pages - Duration::from_secs(60),
            pages + Duration::from_millis(5),
        );
        let files: Vec<(String, SystemTime)> = [
            ("style/book.css", after),
            ("index.html", pages),
            ("pkg/app_bg.wasm", before),
            ("old-script.js", before),
            ("ch/removed.html", before),
            ("pagefind/pagefind.js", after),
            ("pyodide/pyodide.asm.wasm", after),
            ("python-worker.js", after),
        ]
        .iter()
        .map(|(f, t)| (f.to_string(), *t))
        .collect();
        let (fresh, stale) = precache_list(&files, pages);
        assert_eq!(
            fresh,
            [
                "index.html",
                "pagefind/pagefind.js",
                "pkg/app_bg.wasm",
                "style/book.css"
            ]
        );
        assert_eq!(stale, ["ch/removed.html", "old-script.js"]);
    }

    #[test]
    fn walk_skips_bookkeeping_and_the_worker() {
        let dist = std::env::temp_dir().join(format!("ih-offline-walk-{}", std::process::id()));
        std::fs::create_dir_all(dist.join("pkg")).unwrap();
        for f in [
            "index.html",
            "sw.js",
            "pkg/.app.built-from",
            "pkg/app.js",
            "pkg/app.js.br",
        ] {
            std::fs::write(dist.join(f), "x").unwrap();
        }
        let mut names: Vec<String> = walk(&dist).unwrap().into_iter().map(|(f, _)| f).collect();
        names.sort();
        assert_eq!(names, ["index.html", "pkg/app.js"]);
        let _ = std::fs::remove_dir_all(&dist);
    }

    #[test]
    fn template_markers_are_filled_once() {
        let t = "const VERSION = \"{{version}}\";\nconst FILES = /*{{files}}*/[];\n";
        let out = fill(t, "0a1b", &["/".to_owned(), "/ch/kvcache".to_owned()]).unwrap();
        assert!(out.contains("const VERSION = \"0a1b\";"), "{out}");
        assert!(out.contains("\"/ch/kvcache\""), "{out}");
        assert!(!out.contains("{{"), "{out}");
        assert!(fill("const FILES = /*{{files}}*/[];", "x", &[]).is_err());
        // The real template has both markers.
        let real = std::fs::read_to_string(root().join("web/sw.js")).unwrap();
        assert!(fill(&real, "x", &[]).is_ok());
    }

    #[test]
    fn colours_come_from_the_stylesheet_and_match_the_page() {
        let css = std::fs::read_to_string(root().join("style/book.css")).unwrap();
        let c = Colours::from_css(&css).unwrap();
        let page = std::fs::read_to_string(root().join("index.html")).unwrap();
        let dark = css_var(&css, ":root[data-theme=\"dark\"]", "bg").unwrap();
        for (bg, scheme) in [(&c.bg, "light"), (&dark, "dark")] {
            let meta = format!(
                "<meta name=\"theme-color\" content=\"{bg}\" media=\"(prefers-color-scheme: {scheme})\">"
            );
            assert!(page.contains(&meta), "index.html lacks {meta}");
        }
        let m: serde_json::Value = serde_json::from_str(&manifest(&c)).unwrap();
        assert_eq!(m["background_color"], c.bg.as_str());
        assert_eq!(m["start_url"], "/");
        assert_eq!(m["display"], "standalone");
        assert!(Colours::from_css(":root { --bg: red; }").is_err());
    }

    #[test]
    fn icons_are_valid_pngs_of_the_mark() {
        let css = std::fs::read_to_string(root().join("style/book.css")).unwrap();
        let c = Colours::from_css(&css).unwrap();
        let size = 64;
        let pixels = raster(size, &mark(&c));
        let bytes = png(size, &pixels).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // Walk the chunks: lengths, CRCs, and the pixels back out of IDAT.
        let (mut at, mut kinds, mut idat) = (8, Vec::new(), Vec::new());
        while at < bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let (kind, data) = (&bytes[at + 4..at + 8], &bytes[at + 8..at + 8 + len]);
            let mut crc = flate2::Crc::new();
            crc.update(kind);
            crc.update(data);
            assert_eq!(bytes[at + 8 + len..at + 12 + len], crc.sum().to_be_bytes());
            if kind == b"IHDR" {
                assert_eq!(data[..8], [0, 0, 0, 64, 0, 0, 0, 64]);
            }
            if kind == b"IDAT" {
                idat.extend_from_slice(data);
            }
            kinds.push(String::from_utf8_lossy(kind).into_owned());
            at += 12 + len;
        }
        assert_eq!(kinds, ["IHDR", "IDAT", "IEND"]);
        let mut raw = Vec::new();
        flate2::read::ZlibDecoder::new(&idat[..])
            .read_to_end(&mut raw)
            .unwrap();
        assert_eq!(raw.len(), 64 * (64 * 4 + 1));
        let pixel = |x: usize, y: usize| raw[y * (64 * 4 + 1) + 1 + x * 4..][..4].to_vec();
        // Rounded corners are transparent; the square's edge is the accent;
        // the middle of a page is paper.
        assert_eq!(pixel(0, 0)[3], 0);
        let [r, g, b] = rgb(&c.accent);
        assert_eq!(pixel(32, 1), [r, g, b, 255]);
        let [r, g, b] = rgb(&c.bg);
        assert_eq!(pixel(17, 43), [r, g, b, 255]);
    }
}
