//! The reading order, `chapters/SUMMARY.md`: one line `- <folder>` per chapter
//! folder of `chapters/src/`, in reading order (headings, blank lines and HTML
//! comments are ignored). Read by `chapters/build.rs`, which generates the chapter
//! modules and `chapters::all()` from it, and by `exercises/build.rs`, which orders
//! the exercises and the scripting API by it.

use std::path::Path;

/// Every directory directly under `src` is a chapter folder.
fn folders(src: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(src).map_err(|e| format!("{}: {e}", src.display()))? {
        let p = e.map_err(|e| format!("{}: {e}", src.display()))?.path();
        if p.is_dir() {
            out.push(
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
        }
    }
    out.sort();
    Ok(out)
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some('a'..='z' | '_'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
}

/// The chapter folders in reading order, read from `<crate_dir>/SUMMARY.md` and
/// checked against `<crate_dir>/src/`: every problem, each naming the file, line
/// or folder.
pub fn read(crate_dir: &Path) -> Result<Vec<String>, Vec<String>> {
    let path = crate_dir.join("SUMMARY.md");
    let text =
        std::fs::read_to_string(&path).map_err(|e| vec![format!("{}: {e}", path.display())])?;
    parse_and_check(&text, &path.display().to_string(), &crate_dir.join("src"))
}

/// [`read`] on the text of the list; `shown` is its path in messages.
pub fn parse_and_check(text: &str, shown: &str, src: &Path) -> Result<Vec<String>, Vec<String>> {
    let mut order: Vec<String> = Vec::new();
    let mut errors = Vec::new();
    let mut in_comment = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let n = i + 1;
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(name) = line.strip_prefix("- ").map(str::trim) else {
            errors.push(format!(
                "{shown} line {n}: `{line}`: a chapter line is `- <folder>`"
            ));
            continue;
        };
        let name = name.trim_end_matches('/');
        if !is_ident(name) {
            errors.push(format!(
                "{shown} line {n}: `{name}` is not a chapter folder's name (an identifier)"
            ));
        } else if order.iter().any(|o| o == name) {
            errors.push(format!("{shown} line {n}: `{name}` is listed twice"));
        } else {
            let dir = src.join(name);
            if !dir.is_dir() {
                errors.push(format!(
                    "{shown} line {n}: chapter `{name}` is listed but {} is missing",
                    dir.display()
                ));
            } else if !dir.join("mod.rs").is_file() {
                errors.push(format!(
                    "{shown} line {n}: chapter `{name}` has no {}",
                    dir.join("mod.rs").display()
                ));
            }
            order.push(name.to_owned());
        }
    }
    match folders(src) {
        Err(e) => errors.push(e),
        Ok(found) => {
            for f in found {
                if !order.contains(&f) {
                    errors.push(format!(
                        "{}: a chapter folder that {shown} does not list (add `- {f}` where it belongs in the reading order)",
                        src.join(&f).display()
                    ));
                }
            }
        }
    }
    if order.is_empty() && errors.is_empty() {
        errors.push(format!("{shown}: no chapter listed"));
    }
    if errors.is_empty() {
        Ok(order)
    } else {
        Err(errors)
    }
}
