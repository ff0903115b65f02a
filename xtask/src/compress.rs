//! Precompressed copies of what the book ships (issue #24): `cargo xtask
//! build` ends by writing `<file>.br` (brotli, quality 11) and `<file>.gz`
//! (gzip, level 9) beside each text and wasm file of `dist/`, so a static host
//! sends them as they are (nginx's `brotli_static` and `gzip_static`, the
//! `.br`/`.gz` convention of most hosts) and `cargo xtask serve` does the same
//! by the request's `Accept-Encoding` (`serve.rs`).
//!
//! Copies that still match their file are kept (its gzip copy decodes to its
//! bytes, and its brotli copy is there): a build that changed one page
//! compresses one page, not the 3 MB of wasm and plotly.js again, even though
//! every build rewrites them. A copy whose file is gone is removed.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The two encodings, as (`Content-Encoding` token, file suffix).
pub const ENCODINGS: [(&str, &str); 2] = [("br", ".br"), ("gzip", ".gz")];

/// Whether a file of `dist/` is worth compressing: text and wasm. Images are
/// compressed already, and so are Pagefind's index files (gzip inside).
pub fn compressible(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("html" | "js" | "mjs" | "css" | "wasm" | "json" | "svg" | "webmanifest" | "ipynb")
    )
}

/// Whether `path` is one of the copies this module writes.
pub fn is_copy(path: &Path) -> bool {
    let name = path.to_string_lossy();
    ENCODINGS.iter().any(|(_, suffix)| {
        name.strip_suffix(suffix)
            .is_some_and(|orig| compressible(Path::new(orig)))
    })
}

/// Removes every copy under `dist/` (a `serve`-profile build writes none);
/// returns how many there were.
pub fn remove_copies(dist: &Path) -> Result<usize, String> {
    let copies: Vec<PathBuf> = crate::site::files_under(dist)
        .into_iter()
        .filter(|f| is_copy(f))
        .collect();
    for f in &copies {
        std::fs::remove_file(f).map_err(|e| format!("{}: {e}", f.display()))?;
    }
    Ok(copies.len())
}

/// Writes the missing or outdated copies under `dist/`, removes orphaned
/// ones; returns (files compressed now, files whose copies were current).
pub fn precompress(dist: &Path) -> Result<(usize, usize), String> {
    let files = crate::site::files_under(dist);
    let mut todo: Vec<PathBuf> = Vec::new();
    let mut current = 0;
    for f in &files {
        if is_copy(f) {
            let orig = PathBuf::from(f.to_string_lossy().rsplit_once('.').map_or("", |p| p.0));
            if !orig.is_file() {
                std::fs::remove_file(f).map_err(|e| format!("{}: {e}", f.display()))?;
            }
            continue;
        }
        if !compressible(f) {
            continue;
        }
        if current_copies(f) {
            current += 1;
        } else {
            todo.push(f.clone());
        }
    }
    // Brotli at quality 11 is slow (about 1 MB/s): both cores take a share.
    let shares = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    let chunks: Vec<Vec<PathBuf>> = (0..shares)
        .map(|i| todo.iter().skip(i).step_by(shares).cloned().collect())
        .collect();
    let results: Vec<Result<(), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| s.spawn(move || chunk.iter().try_for_each(|f| write_copies(f))))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a compression thread panicked".into()))
            })
            .collect()
    });
    results.into_iter().collect::<Result<Vec<()>, String>>()?;
    Ok((todo.len(), current))
}

/// Whether `file`'s copies are there and its gzip copy decodes to its bytes
/// (gzip decodes at hundreds of MB/s: far cheaper than brotli's quality 11).
fn current_copies(file: &Path) -> bool {
    let br = PathBuf::from(format!("{}.br", file.display()));
    let gz = PathBuf::from(format!("{}.gz", file.display()));
    let (Ok(bytes), Ok(packed)) = (std::fs::read(file), std::fs::read(&gz)) else {
        return false;
    };
    let mut back = Vec::with_capacity(bytes.len());
    br.is_file()
        && std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&packed[..]), &mut back)
            .is_ok()
        && back == bytes
}

fn write_copies(file: &Path) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let put = |suffix: &str, body: Vec<u8>| {
        let copy = format!("{}{suffix}", file.display());
        std::fs::write(&copy, body).map_err(|e| format!("{copy}: {e}"))
    };
    put(".br", brotli_bytes(&bytes)?)?;
    put(".gz", gzip_bytes(&bytes)?)
}

/// `bytes` compressed by brotli at its best quality.
pub fn brotli_bytes(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len() / 3);
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).map_err(|e| e.to_string())?;
    Ok(out)
}

/// `bytes` compressed by gzip at level 9.
pub fn gzip_bytes(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).map_err(|e| e.to_string())?;
    enc.finish().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn copies_decode_to_their_file_and_follow_it() {
        let dist = std::env::temp_dir().join(format!("ih-compress-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dist);
        std::fs::create_dir_all(dist.join("pkg")).unwrap();
        let page = "<p>a page of the book</p>\n".repeat(200);
        std::fs::write(dist.join("index.html"), &page).unwrap();
        std::fs::write(
            dist.join("pkg/app_bg.wasm"),
            [0u8, 97, 115, 109].repeat(500),
        )
        .unwrap();
        std::fs::write(dist.join("icon.png"), b"png").unwrap();
        std::fs::write(dist.join("gone.js.br"), b"old").unwrap();
        assert_eq!(precompress(&dist).unwrap(), (2, 0));
        assert!(
            !dist.join("gone.js.br").exists(),
            "an orphaned copy is removed"
        );
        assert!(!dist.join("icon.png.br").exists(), "images are left alone");
        let br = std::fs::read(dist.join("index.html.br")).unwrap();
        let mut back = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut back).unwrap();
        assert_eq!(back, page.as_bytes());
        let gz = std::fs::read(dist.join("index.html.gz")).unwrap();
        let mut back = String::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, page);
        assert!(br.len() < page.len() / 10, "{} B", br.len());
        // Nothing changed: nothing is compressed again.
        assert_eq!(precompress(&dist).unwrap(), (0, 2));
        // Rewritten with the same bytes, a file keeps its copies; changed, it
        // gets new ones.
        std::fs::write(dist.join("index.html"), &page).unwrap();
        assert_eq!(precompress(&dist).unwrap(), (0, 2));
        std::fs::write(dist.join("index.html"), "<p>changed</p>").unwrap();
        assert_eq!(precompress(&dist).unwrap(), (1, 1));
        let mut back = Vec::new();
        brotli::BrotliDecompress(
            &mut &std::fs::read(dist.join("index.html.br")).unwrap()[..],
            &mut back,
        )
        .unwrap();
        assert_eq!(back, b"<p>changed</p>");
        // A `serve`-profile build removes every copy, and only copies.
        assert_eq!(remove_copies(&dist).unwrap(), 4);
        assert!(dist.join("index.html").is_file() && dist.join("icon.png").is_file());
        assert_eq!(remove_copies(&dist).unwrap(), 0);
        assert!(is_copy(Path::new("dist/pkg/app.js.gz")));
        assert!(!is_copy(Path::new(
            "dist/pagefind/fragment/en_1.pf_fragment"
        )));
        let _ = std::fs::remove_dir_all(&dist);
    }
}
