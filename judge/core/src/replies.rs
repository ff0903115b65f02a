//! Reading the replies of a process that speaks the [`crate::harness`] protocol:
//! the Rust practice package's binary, or Python running `python/harness.py`
//! ([`crate::python::HARNESS`]). One reply is a JSON object per case:
//! `{"case": i, "ok": value}` or one of the errors below.

use crate::{CodeError, LimitHit, SolverError, Value};

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
}
