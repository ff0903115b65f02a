//! Reading the replies of a process that speaks the [`crate::harness`] protocol:
//! the Rust practice package's binary, or Python running `python/harness.py`
//! ([`crate::python::HARNESS`]). One reply is a JSON object per case:
//! `{"case": i, "ok": value}` or one of the errors below.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::harness::case_marker;
use crate::{Answer, CodeError, LimitHit, SolverError, Value};

/// What a reply's words refer to.
#[derive(Debug, Clone)]
pub struct About {
    /// The learner's file, e.g. `attended.py`.
    pub file: String,
    /// The function to write.
    pub function: String,
    /// Its number of parameters.
    pub arity: usize,
    /// The memory limit of the process, in MiB.
    pub memory_mib: u64,
}

/// Reads one reply line's JSON: the value, or the error it reports. `case` is
/// the reply's case number (0 for the loading of the code).
pub fn parse(v: &serde_json::Value, case: usize, ctx: &About) -> Result<Value, SolverError> {
    if let Some(ok) = v.get("ok") {
        return Ok(Value::from_wire(ok));
    }
    if v.get("todo").is_some() {
        return Err(SolverError::NotAttempted);
    }
    let text = |key: &str| v[key].as_str().unwrap_or_default().to_owned();
    let at = v["at"].as_str().filter(|a| !a.is_empty());
    if let Some(p) = v.get("panic").and_then(|p| p.as_str()) {
        return Err(SolverError::Code(CodeError::Panicked {
            at: at.map(str::to_owned),
            message: p.to_owned(),
        }));
    }
    // Python's replies (see `python/harness.py`).
    let code = |e: CodeError| Err(SolverError::Code(e));
    if let Some(r) = v.get("raised") {
        let s = |key: &str| r[key].as_str().unwrap_or_default().to_owned();
        return code(CodeError::Exception {
            kind: s("kind"),
            message: s("message"),
            line: r["line"].as_u64().map(|l| l as usize),
        });
    }
    if v.get("syntax").is_some() {
        let n = |key: &str| v[key].as_u64().unwrap_or(1) as usize;
        return code(CodeError::PythonSyntax {
            file: ctx.file.to_owned(),
            line: n("line"),
            column: n("column"),
            message: text("syntax"),
        });
    }
    if v.get("missing").is_some() {
        return code(CodeError::MissingDef {
            function: ctx.function.to_owned(),
            arity: ctx.arity,
        });
    }
    if let Some(found) = v["arity"].as_u64() {
        return code(CodeError::WrongArity {
            function: ctx.function.to_owned(),
            arity: ctx.arity,
            found: found as usize,
        });
    }
    if v.get("exit").is_some() {
        return code(CodeError::SysExit {
            status: text("exit"),
        });
    }
    if v.get("bigint").is_some() {
        return code(CodeError::IntTooBig {
            digits: text("bigint"),
        });
    }
    if v.get("unsupported").is_some() {
        return code(CodeError::Unsupported {
            type_name: text("unsupported"),
        });
    }
    if v.get("python").is_some() {
        return code(CodeError::OldPython {
            version: text("python"),
        });
    }
    match v["limit"].as_str() {
        Some("recursion") => return Err(SolverError::Sandbox(LimitHit::CallDepth)),
        Some("memory") => {
            return Err(SolverError::Sandbox(LimitHit::Memory {
                mib: ctx.memory_mib,
                case,
            }));
        }
        _ => {}
    }
    let e = v["error"].as_str().unwrap_or("unknown reply");
    Err(SolverError::Runtime(e.to_owned()))
}

/// Bytes of output kept per case: its head and its tail; the middle is counted
/// and dropped.
pub const KEEP_PER_CASE: usize = 4096;
/// Lines of output a verdict keeps per case.
const LINES_PER_CASE: usize = 20;
/// Characters kept of one printed line.
const LINE_CHARS: usize = 200;
/// What the process printed, split at the case markers: the head and the tail
/// of each case's output and how many bytes it printed in all.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Printed {
    /// Index 0 is before the first case; index i is case i.
    pub cases: Vec<CaseOutput>,
}

/// What one case printed: the first [`KEEP_PER_CASE`] bytes, the last ones (up
/// to twice as many), and how many it printed in all.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CaseOutput {
    /// The first bytes.
    pub head: Vec<u8>,
    /// The last bytes after the head, at most `2 * KEEP_PER_CASE`.
    pub tail: Vec<u8>,
    /// Bytes printed in all.
    pub total: usize,
}

impl Printed {
    /// Adds `bytes` to the current case's output.
    pub fn push(&mut self, mut bytes: &[u8]) {
        if self.cases.is_empty() {
            self.cases.push(CaseOutput::default());
        }
        let Some(c) = self.cases.last_mut() else {
            return;
        };
        c.total += bytes.len();
        let room = KEEP_PER_CASE.saturating_sub(c.head.len());
        let (h, rest) = bytes.split_at(room.min(bytes.len()));
        c.head.extend_from_slice(h);
        bytes = rest;
        c.tail.extend_from_slice(bytes);
        if c.tail.len() > 2 * KEEP_PER_CASE {
            c.tail.drain(..c.tail.len() - KEEP_PER_CASE);
        }
    }

    /// Starts the next case's output.
    pub fn next_case(&mut self) {
        self.cases.push(CaseOutput::default());
    }

    /// Reads `r` to its end, splitting at the markers.
    pub fn read_all(mut r: impl std::io::Read) -> Printed {
        let mut p = Printed::default();
        p.push(&[]);
        let mut pending: Vec<u8> = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            pending.extend_from_slice(&buf[..n]);
            loop {
                let marker = case_marker(p.cases.len());
                match find(&pending, marker.as_bytes()) {
                    Some(at) => {
                        p.push(&pending[..at]);
                        p.next_case();
                        pending.drain(..at + marker.len());
                    }
                    None => {
                        // Keep what could be the start of a marker.
                        let keep = pending.len().min(marker.len() - 1);
                        let cut = pending.len() - keep;
                        p.push(&pending[..cut]);
                        pending.drain(..cut);
                        break;
                    }
                }
            }
        }
        p.push(&pending);
        p
    }

    /// The lines case `index` printed: all of them, or when there are many, the
    /// first and the last ones with a line that says how much was cut.
    pub fn lines(&self, index: usize) -> Vec<String> {
        let Some(c) = self.cases.get(index) else {
            return Vec::new();
        };
        let half = LINES_PER_CASE / 2;
        let kept = c.head.len() + c.tail.len();
        let whole = kept == c.total;
        let text = |b: &[u8]| -> Vec<String> {
            String::from_utf8_lossy(b).lines().map(cut_line).collect()
        };
        if whole {
            let mut all = c.head.clone();
            all.extend_from_slice(&c.tail);
            let lines = text(&all);
            if lines.len() <= LINES_PER_CASE {
                return lines;
            }
            let mut out = lines[..half].to_vec();
            out.push(format!(
                "(… {} lines, {} bytes printed in all; the last {half}:)",
                lines.len(),
                c.total
            ));
            out.extend_from_slice(&lines[lines.len() - half..]);
            return out;
        }
        let head = text(&c.head);
        let tail = text(&c.tail);
        let mut out: Vec<String> = head.into_iter().take(half).collect();
        out.push(format!(
            "(… {} bytes printed in all; the last lines:)",
            c.total
        ));
        out.extend(tail.iter().skip(tail.len().saturating_sub(half)).cloned());
        out
    }

    /// Everything after the last marker, as text (where a crash message lands).
    pub fn last_text(&self) -> String {
        self.cases
            .last()
            .map(|c| {
                let mut b = c.head.clone();
                b.extend_from_slice(&c.tail);
                String::from_utf8_lossy(&b).into_owned()
            })
            .unwrap_or_default()
    }
}

fn cut_line(l: &str) -> String {
    if l.chars().count() <= LINE_CHARS {
        return l.to_owned();
    }
    let s: String = l.chars().take(LINE_CHARS).collect();
    format!("{s}… (line cut)")
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Replies and printed output of one run, handed to the judge a case at a time.
pub struct Replies {
    replies: BTreeMap<usize, Result<Value, SolverError>>,
    printed: Printed,
    next: usize,
    /// Why cases without a reply have none.
    ended: SolverError,
    /// Why the code could not be loaded at all (case 0's reply), if it could not.
    pub load: Option<SolverError>,
    answer: Answer,
}

impl Replies {
    /// Reads the reply lines `text` (one JSON object each) of a run in
    /// `answer`'s language; `ended` says why cases without a reply have none
    /// (given the number of cases answered).
    pub fn read(
        text: &str,
        printed: Printed,
        about: &About,
        answer: Answer,
        ended: impl FnOnce(usize, &Printed) -> SolverError,
    ) -> Replies {
        let mut replies = BTreeMap::new();
        let mut load = None;
        for line in text.lines() {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
                && let Some(case) = v["case"].as_u64()
            {
                let reply = parse(&v, case as usize, about);
                match (case, reply) {
                    (0, Err(e)) => load = Some(e),
                    (0, Ok(_)) => {}
                    (case, reply) => {
                        replies.insert(case as usize, reply);
                    }
                }
            }
        }
        let ended = ended(replies.len(), &printed);
        Replies {
            replies,
            printed,
            next: 0,
            ended,
            load,
            answer,
        }
    }

    /// The verdict on `spec`: no case ran when the code could not be loaded.
    pub fn grade(self, spec: &crate::Spec, only: Option<usize>) -> crate::Verdict {
        self.grade_recorded(spec, only).0
    }

    /// [`Replies::grade`], and each case's reply in the order graded (see
    /// [`crate::Recorder`]).
    pub fn grade_recorded(
        mut self,
        spec: &crate::Spec,
        only: Option<usize>,
    ) -> (crate::Verdict, Vec<Result<Value, SolverError>>) {
        if let Some(e) = self.load.take() {
            return (crate::Verdict::without_cases(spec, e), Vec::new());
        }
        let mut rec = crate::Recorder::new(&mut self);
        let v = match only {
            Some(i) => crate::grade_case(spec, &mut rec, i),
            None => crate::grade(spec, &mut rec),
        };
        (v, rec.outcomes)
    }
}

impl crate::Solver for Replies {
    fn call(&mut self, _: &[Value]) -> Result<Value, SolverError> {
        self.next += 1;
        self.replies
            .remove(&self.next)
            .unwrap_or_else(|| Err(self.ended.clone()))
    }

    fn take_printed(&mut self) -> Vec<String> {
        self.printed.lines(self.next)
    }

    fn answer(&self) -> Answer {
        self.answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn about() -> About {
        About {
            file: "attended.py".into(),
            function: "attended".into(),
            arity: 4,
            memory_mib: 512,
        }
    }

    #[test]
    fn every_kind_of_reply_reads() {
        let p = |v: serde_json::Value| parse(&v, 3, &about());
        assert_eq!(p(json!({"ok": 3})), Ok(Value::Int(3)));
        assert!(matches!(p(json!({"ok": {"$float": "NaN"}})), Ok(Value::Float(f)) if f.is_nan()));
        assert_eq!(p(json!({"todo": true})), Err(SolverError::NotAttempted));
        assert_eq!(
            p(json!({"raised": {"kind": "KeyError", "message": "'x'", "line": 4}})),
            Err(SolverError::Code(CodeError::Exception {
                kind: "KeyError".into(),
                message: "'x'".into(),
                line: Some(4)
            }))
        );
        assert_eq!(
            p(json!({"syntax": "SyntaxError: invalid syntax", "line": 2, "column": 7})),
            Err(SolverError::Code(CodeError::PythonSyntax {
                file: "attended.py".into(),
                line: 2,
                column: 7,
                message: "SyntaxError: invalid syntax".into()
            }))
        );
        assert_eq!(
            p(json!({"missing": "attended"})),
            Err(SolverError::Code(CodeError::MissingDef {
                function: "attended".into(),
                arity: 4
            }))
        );
        assert_eq!(
            p(json!({"arity": 2})),
            Err(SolverError::Code(CodeError::WrongArity {
                function: "attended".into(),
                arity: 4,
                found: 2
            }))
        );
        assert_eq!(
            p(json!({"limit": "memory"})),
            Err(SolverError::Sandbox(LimitHit::Memory { mib: 512, case: 3 }))
        );
        assert_eq!(
            p(json!({"limit": "recursion"})),
            Err(SolverError::Sandbox(LimitHit::CallDepth))
        );
        assert_eq!(
            p(json!({"exit": "3"})),
            Err(SolverError::Code(CodeError::SysExit { status: "3".into() }))
        );
        assert!(matches!(
            p(json!({"bigint": "1000"})),
            Err(SolverError::Code(CodeError::IntTooBig { .. }))
        ));
        assert!(matches!(
            p(json!({"unsupported": "set"})),
            Err(SolverError::Code(CodeError::Unsupported { .. }))
        ));
        assert!(matches!(
            p(json!({"python": "3.8.0"})),
            Err(SolverError::Code(CodeError::OldPython { .. }))
        ));
        assert_eq!(
            p(json!({"something": "else"})),
            Err(SolverError::Runtime("unknown reply".into()))
        );
        assert_eq!(
            p(json!({"panic": "boom", "at": "src/a.rs:1:2"})),
            Err(SolverError::Code(CodeError::Panicked {
                at: Some("src/a.rs:1:2".into()),
                message: "boom".into()
            }))
        );
    }

    #[test]
    fn output_splits_at_markers_across_reads() {
        let text = format!(
            "boot\n{}one\n{}two\nthree\n{}",
            crate::harness::case_marker(1),
            crate::harness::case_marker(2),
            crate::harness::case_marker(3)
        );
        // One byte per read: markers straddle every boundary.
        struct Slow<'a>(&'a [u8]);
        impl std::io::Read for Slow<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let Some((first, rest)) = self.0.split_first() else {
                    return Ok(0);
                };
                buf[0] = *first;
                self.0 = rest;
                Ok(1)
            }
        }
        let p = Printed::read_all(Slow(text.as_bytes()));
        assert_eq!(p.lines(0), ["boot"]);
        assert_eq!(p.lines(1), ["one"]);
        assert_eq!(p.lines(2), ["two", "three"]);
        assert!(p.lines(3).is_empty());
    }

    #[test]
    fn long_output_keeps_a_tail() {
        let mut text = crate::harness::case_marker(1);
        for i in 0..10_000 {
            text += &format!("line {i}\n");
        }
        let p = Printed::read_all(text.as_bytes());
        let l = p.lines(1);
        assert_eq!(l.len(), LINES_PER_CASE + 1);
        assert_eq!(l[0], "line 0");
        assert!(
            l[LINES_PER_CASE / 2].contains("bytes printed in all"),
            "{l:?}"
        );
        assert_eq!(l.last().map(String::as_str), Some("line 9999"));
    }
}
