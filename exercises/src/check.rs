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

/// The correct Rhai solutions the end-to-end test types into the browser
/// (`e2e/solutions.mjs`), as `(exercise id, source)`.
pub fn e2e_solutions() -> Vec<(&'static str, &'static str)> {
    let text = include_str!("../../e2e/solutions.mjs");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("': `") {
        let id = &rest[rest[..at].rfind('\'').map_or(0, |i| i + 1)..at];
        let body = &rest[at + 4..];
        let Some(end) = body.find('`') else { break };
        out.push((id, &body[..end]));
        rest = &body[end + 1..];
    }
    out
}

/// Every problem found in the book's content; empty when all is well.
pub fn problems() -> Vec<String> {
    let mut out = Vec::new();
    let all = crate::all();
    for (i, ex) in all.iter().enumerate() {
        if all[..i].iter().any(|e| e.id == ex.id) {
            out.push(format!("{}: duplicate id", ex.id));
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
    for ch in chapters::all() {
        let doc = match ch.doc() {
            Ok(d) => d,
            Err(e) => {
                out.push(format!("{} {e}", ch.repo_path));
                continue;
            }
        };
        for b in &doc.blocks {
            match b {
                chapters::doc::Block::Cell { id, line } if chapters::demo(id).is_none() => {
                    out.push(format!("{} line {line}: unknown cell `{id}`", ch.repo_path));
                }
                chapters::doc::Block::Exercise { id, line } if crate::by_id(id).is_none() => {
                    out.push(format!(
                        "{} line {line}: unknown exercise `{id}`",
                        ch.repo_path
                    ));
                }
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_is_sound() {
        let p = problems();
        assert!(p.is_empty(), "content problems:\n{}", p.join("\n"));
    }

    /// Plausible wrong answers that the cases must catch (so weak tests are noticed).
    #[cfg(feature = "script")]
    #[test]
    fn known_wrong_solutions_fail() {
        let wrong: &[(&str, &str)] = &[
            (
                "ch_newmodels/attended",
                "fn attended(pos, ratio, topk, window) { window + (pos + 1) / ratio }",
            ),
            (
                "ch_newmodels/attended",
                "fn attended(pos, ratio, topk, window) { let w = if pos + 1 < window { pos + 1 } else { window }; if ratio <= 1 { return w; } w + (pos + 1) / ratio }",
            ),
            (
                "ch_newmodels/attended",
                "fn attended(pos, ratio, topk, window) { let w = if pos < window { pos } else { window }; if ratio <= 1 { return w; } let d = pos / ratio; w + if topk > 0 && d > topk { topk } else { d } }",
            ),
            // compress_stream: exp without subtracting the max (overflows at scores ~1000).
            (
                "ch_newmodels/compress_stream",
                "fn compress_stream(kv, score, ratio) { let entries = []; let n = kv.len() / ratio;
                 for b in 0..n { let entry = []; for d in 0..kv[0].len() { let t = 0.0; let a = 0.0;
                   for i in b * ratio..(b + 1) * ratio { let w = exp(score[i][d]); t += w; a += w * kv[i][d]; }
                   entry.push(a / t); } entries.push(entry); }
                 #{entries: entries, partial: kv.len() % ratio} }",
            ),
            // compress_stream: the unfinished block is pooled too, as if it were complete.
            (
                "ch_newmodels/compress_stream",
                "fn compress_stream(kv, score, ratio) { let entries = []; let start = 0;
                 while start < kv.len() { let end = if start + ratio < kv.len() { start + ratio } else { kv.len() };
                   let entry = []; for d in 0..kv[0].len() { let m = score[start][d];
                     for i in start..end { if score[i][d] > m { m = score[i][d]; } }
                     let t = 0.0; let a = 0.0; for i in start..end { let w = exp(score[i][d] - m); t += w; a += w * kv[i][d]; }
                     entry.push(a / t); } entries.push(entry); start = end; }
                 #{entries: entries, partial: 0} }",
            ),
            // compress_stream: a plain mean, ignoring the scores.
            (
                "ch_newmodels/compress_stream",
                "fn compress_stream(kv, score, ratio) { let entries = []; let n = kv.len() / ratio;
                 for b in 0..n { let entry = []; for d in 0..kv[0].len() { let a = 0.0;
                   for i in b * ratio..(b + 1) * ratio { a += kv[i][d]; } entry.push(a / ratio); } entries.push(entry); }
                 #{entries: entries, partial: kv.len() % ratio} }",
            ),
            // compress_stream: the softmax runs over a token's dimensions, not over the block's tokens.
            (
                "ch_newmodels/compress_stream",
                "fn compress_stream(kv, score, ratio) { let entries = []; let n = kv.len() / ratio;
                 for b in 0..n { let entry = []; for d in 0..kv[0].len() { entry.push(0.0); }
                   for i in b * ratio..(b + 1) * ratio { let m = score[i][0]; for s in score[i] { if s > m { m = s; } }
                     let t = 0.0; for s in score[i] { t += exp(s - m); }
                     for d in 0..kv[0].len() { entry[d] += exp(score[i][d] - m) / t * kv[i][d]; } }
                   entries.push(entry); }
                 #{entries: entries, partial: kv.len() % ratio} }",
            ),
            // v4_kv: integer division drops the fraction of a byte per token.
            (
                "ch_newmodels/v4_kv",
                "fn v4_kv(c4, c128, swa_only, idx_bytes) { [c4 * (584 + idx_bytes) / 4 + c128 * 584 / 128,
                 (c4 + c128 + swa_only) * 128 * 584 + c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4] }",
            ),
            // v4_kv: the window-only layers' windows are forgotten.
            (
                "ch_newmodels/v4_kv",
                "fn v4_kv(c4, c128, swa_only, idx_bytes) { [c4 * (584 + idx_bytes) / 4.0 + c128 * 584 / 128.0,
                 (c4 + c128) * 128 * 584 + c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4] }",
            ),
            // v4_kv: the compressor state counted in 2-byte values.
            (
                "ch_newmodels/v4_kv",
                "fn v4_kv(c4, c128, swa_only, idx_bytes) { [c4 * (584 + idx_bytes) / 4.0 + c128 * 584 / 128.0,
                 (c4 + c128 + swa_only) * 128 * 584 + c4 * 8 * 2560 * 2 + c128 * 128 * 1024 * 2] }",
            ),
            // v4_kv: the indexer keys are forgotten.
            (
                "ch_newmodels/v4_kv",
                "fn v4_kv(c4, c128, swa_only, idx_bytes) { [c4 * 584 / 4.0 + c128 * 584 / 128.0,
                 (c4 + c128 + swa_only) * 128 * 584 + c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4] }",
            ),
            // v4_kv: the fixed bytes returned as a float.
            (
                "ch_newmodels/v4_kv",
                "fn v4_kv(c4, c128, swa_only, idx_bytes) { [c4 * (584 + idx_bytes) / 4.0 + c128 * 584 / 128.0,
                 (c4 + c128 + swa_only) * 128 * 584 + c4 * 8 * 2560 * 4.0 + c128 * 128 * 1024 * 4.0] }",
            ),
            // kv_request: the fixed bytes are forgotten.
            (
                "ch_newmodels/kv_request",
                "fn kv_request(c4, c128, swa_only, idx_bytes, tokens) { (c4 * (584 + idx_bytes) / 4.0 + c128 * 584 / 128.0) * tokens }",
            ),
            // kv_request: whole compressed entries instead of the ledger's average.
            (
                "ch_newmodels/kv_request",
                "fn kv_request(c4, c128, swa_only, idx_bytes, tokens) { (c4 * (584 + idx_bytes) * (tokens / 4) + c128 * 584 * (tokens / 128)).to_float()
                 + (c4 + c128 + swa_only) * 128 * 584 + c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4 }",
            ),
            // kv_request: windows only in the compressed layers.
            (
                "ch_newmodels/kv_request",
                "fn kv_request(c4, c128, swa_only, idx_bytes, tokens) { (c4 * (584 + idx_bytes) / 4.0 + c128 * 584 / 128.0) * tokens
                 + (c4 + c128) * 128 * 584 + c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4 }",
            ),
            // sinkhorn: no eps anywhere.
            (
                "ch_newmodels/sinkhorn",
                &SINKHORN_TEMPLATE.replace("EPS", "0.0").replace("MX", "mx"),
            ),
            // sinkhorn: exp without subtracting the row's max (overflows at logits ~1000).
            (
                "ch_newmodels/sinkhorn",
                &SINKHORN_TEMPLATE.replace("EPS", "0.000001").replace("MX", "0.0"),
            ),
            // sinkhorn: each round normalises the columns, then the rows (so it ends on rows).
            (
                "ch_newmodels/sinkhorn",
                "fn sinkhorn(m, iters) {
                    let rows = m.len(); let cols = m[0].len(); let out = [];
                    for row in m { let mx = row[0]; for x in row { if x > mx { mx = x; } }
                        let e = []; let s = 0.0; for x in row { let v = exp(x - mx); e.push(v); s += v; }
                        let r = []; for v in e { r.push(v / s + 0.000001); } out.push(r); }
                    for it in 0..iters {
                        for j in 0..cols { let s = 0.0; for i in 0..rows { s += out[i][j]; }
                            for i in 0..rows { out[i][j] = out[i][j] / (s + 0.000001); } }
                        for i in 0..rows { let s = 0.0; for j in 0..cols { s += out[i][j]; }
                            for j in 0..cols { out[i][j] = out[i][j] / (s + 0.000001); } }
                    }
                    out
                }",
            ),
            // sinkhorn: one round too many (iters rounds after the first column step).
            (
                "ch_newmodels/sinkhorn",
                &SINKHORN_TEMPLATE
                    .replace("EPS", "0.000001")
                    .replace("MX", "mx")
                    .replace("0..iters", "0..iters + 1"),
            ),
            // hash_loads: integer division for the imbalance.
            (
                "ch_newmodels/hash_loads",
                &HASH_LOADS_TEMPLATE.replace("IMBALANCE", "busiest * experts / total"),
            ),
            // hash_loads: the mean taken over tokens instead of expert assignments.
            (
                "ch_newmodels/hash_loads",
                &HASH_LOADS_TEMPLATE.replace("IMBALANCE", "busiest.to_float() / (ids.len().to_float() / experts)"),
            ),
            // hash_loads: no guard for an empty batch (0 / 0).
            (
                "ch_newmodels/hash_loads",
                "fn hash_loads(table, ids, experts) { let loads = []; loads.pad(experts, 0);
                 for id in ids { for e in table[id] { loads[e] += 1; } }
                 let total = 0; let busiest = 0; for l in loads { total += l; if l > busiest { busiest = l; } }
                 [loads, busiest.to_float() * experts / total] }",
            ),
            // hash_loads: every distinct token id counted once.
            (
                "ch_newmodels/hash_loads",
                "fn hash_loads(table, ids, experts) { let loads = []; loads.pad(experts, 0); let seen = [];
                 for id in ids { if !seen.contains(id) { seen.push(id); for e in table[id] { loads[e] += 1; } } }
                 let total = 0; let busiest = 0; for l in loads { total += l; if l > busiest { busiest = l; } }
                 [loads, if total == 0 { 0.0 } else { busiest.to_float() * experts / total }] }",
            ),
            // dispatch_bytes: the latent projection is ignored.
            (
                "ch_newmodels/dispatch_bytes",
                "fn dispatch_bytes(hidden, topk, bytes_per_elem, latent) { hidden * topk * bytes_per_elem }",
            ),
            // dispatch_bytes: the latent taken to be half the hidden size.
            (
                "ch_newmodels/dispatch_bytes",
                "fn dispatch_bytes(hidden, topk, bytes_per_elem, latent) { let d = if latent > 0 { hidden / 2 } else { hidden }; d * topk * bytes_per_elem }",
            ),
            // dispatch_bytes: always the latent size, even when there is none.
            (
                "ch_newmodels/dispatch_bytes",
                "fn dispatch_bytes(hidden, topk, bytes_per_elem, latent) { latent * topk * bytes_per_elem }",
            ),
            // prefix_reuse: an unfinished block counted as an entry (ceiling division).
            (
                "ch_newmodels/prefix_reuse",
                "fn prefix_reuse(prefix_len, ratio) { let e = (prefix_len + ratio - 1) / ratio; [e, e * ratio, prefix_len - e * ratio] }",
            ),
            // prefix_reuse: the tail as the tokens missing from the last block.
            (
                "ch_newmodels/prefix_reuse",
                "fn prefix_reuse(prefix_len, ratio) { let e = prefix_len / ratio; [e, e * ratio, ratio - prefix_len % ratio] }",
            ),
            // prefix_reuse: float division.
            (
                "ch_newmodels/prefix_reuse",
                "fn prefix_reuse(prefix_len, ratio) { let e = prefix_len / ratio.to_float(); [e, e * ratio, prefix_len - e * ratio] }",
            ),
        ];
        for (id, src) in wrong {
            let ex = crate::by_id(id).unwrap();
            let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
            // A wrong value, or an error raised while running a case: never code that
            // does not even load (a typo in the wrong solution would prove nothing).
            let ran = v.status == Status::Failed
                || (v.status == Status::Error && v.message.starts_with("case "));
            assert!(
                ran,
                "{id}: a wrong solution should fail on a case ({}: {}):\n{src}",
                v.status.label(),
                v.message
            );
            println!("{id}: {}", v.message);
        }
    }

    /// Sinkhorn with placeholders: `EPS` and `MX` (the value subtracted before exp).
    #[cfg(feature = "script")]
    const SINKHORN_TEMPLATE: &str = "fn sinkhorn(m, iters) {
        let rows = m.len(); let cols = m[0].len(); let out = [];
        for row in m { let mx = row[0]; for x in row { if x > mx { mx = x; } }
            let e = []; let s = 0.0; for x in row { let v = exp(x - MX); e.push(v); s += v; }
            let r = []; for v in e { r.push(v / s + EPS); } out.push(r); }
        for it in 0..iters {
            if it > 0 { for i in 0..rows { let s = 0.0; for j in 0..cols { s += out[i][j]; }
                for j in 0..cols { out[i][j] = out[i][j] / (s + EPS); } } }
            for j in 0..cols { let s = 0.0; for i in 0..rows { s += out[i][j]; }
                for i in 0..rows { out[i][j] = out[i][j] / (s + EPS); } }
        }
        out
    }";

    /// Hash loads with the imbalance left as `IMBALANCE` (nonzero batches only).
    #[cfg(feature = "script")]
    const HASH_LOADS_TEMPLATE: &str = "fn hash_loads(table, ids, experts) {
        let loads = []; loads.pad(experts, 0);
        for id in ids { for e in table[id] { loads[e] += 1; } }
        let total = 0; let busiest = 0; for l in loads { total += l; if l > busiest { busiest = l; } }
        [loads, if total == 0 { 0.0 } else { IMBALANCE }]
    }";

    #[cfg(feature = "script")]
    #[test]
    fn correct_rhai_solutions_pass() {
        let solutions = e2e_solutions();
        for ex in crate::all() {
            let found: Vec<&str> = solutions
                .iter()
                .filter(|(id, _)| *id == ex.id)
                .map(|(_, src)| *src)
                .collect();
            assert_eq!(
                found.len(),
                1,
                "{}: one solution in e2e/solutions.mjs",
                ex.id
            );
            let src = found[0];
            assert!(
                !src.contains("${") && !src.contains('\\'),
                "{}: keep the solution a plain JS template literal",
                ex.id
            );
            let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
            assert_eq!(v.status, Status::Passed, "{}: {}", ex.id, v.message);
        }
        for (id, _) in &solutions {
            assert!(
                crate::by_id(id).is_some(),
                "e2e/solutions.mjs: unknown exercise {id}"
            );
        }
    }

    /// The practice folder offers every exercise with the same starters as the book.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_practice_folder_matches_the_starters() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut chapters: Vec<&str> = crate::all().iter().map(|e| e.chapter()).collect();
        chapters.dedup();
        for ch in chapters {
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
