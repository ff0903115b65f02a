//! Calling Rust functions with judge values, and the protocol a practice crate's
//! binary speaks with the CLI.
//!
//! Protocol: the CLI starts `<binary> <function>`, writes one JSON array of
//! arguments per line to its stdin, and reads one JSON object per line back:
//! `{"ok": value}`, `{"error": message}` (bad arguments) or `{"panic": message}`.
//! `todo!()` panics with "not yet implemented", which the CLI reports as
//! "not attempted".

use std::io::{BufRead, Write};

use crate::Value;

/// Arguments of one call, with typed accessors whose errors name the argument.
#[derive(Debug, Clone, Copy)]
pub struct Args<'a>(pub &'a [Value]);

impl Args<'_> {
    fn get(&self, i: usize) -> Result<&Value, String> {
        self.0
            .get(i)
            .ok_or_else(|| format!("argument {} is missing", i + 1))
    }

    /// Argument `i` as an integer.
    pub fn int(&self, i: usize) -> Result<i64, String> {
        let v = self.get(i)?;
        v.as_int()
            .ok_or_else(|| format!("argument {} must be an int, got {}", i + 1, v.type_name()))
    }

    /// Argument `i` as a float (an int converts).
    pub fn float(&self, i: usize) -> Result<f64, String> {
        let v = self.get(i)?;
        v.as_float()
            .ok_or_else(|| format!("argument {} must be a number, got {}", i + 1, v.type_name()))
    }
}

/// A function callable by the harness.
pub type Entry<'a> = (&'a str, &'a dyn Fn(Args) -> Result<Value, String>);

/// Serves calls on stdin/stdout for the function named by the first command-line
/// argument, until stdin closes. Used by practice crates' `main`.
pub fn serve(functions: &[Entry]) {
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some((_, f)) = functions.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = functions.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "unknown function `{name}`; this binary serves: {}",
            names.join(", ")
        );
        std::process::exit(2);
    };
    std::panic::set_hook(Box::new(|_| {}));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = match serde_json::from_str::<Vec<Value>>(&line) {
            Err(e) => serde_json::json!({ "error": format!("bad request: {e}") }),
            Ok(args) => {
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(Args(&args)))) {
                    Ok(Ok(v)) => serde_json::json!({ "ok": v }),
                    Ok(Err(e)) => serde_json::json!({ "error": e }),
                    Err(p) => {
                        let msg = p
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| p.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "panicked".to_owned());
                        serde_json::json!({ "panic": msg })
                    }
                }
            }
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_name_the_argument() {
        let v = [Value::Int(3), Value::from("x")];
        let a = Args(&v);
        assert_eq!(a.int(0), Ok(3));
        assert_eq!(a.float(0), Ok(3.0));
        assert_eq!(
            a.int(1),
            Err("argument 2 must be an int, got string".to_owned())
        );
        assert_eq!(a.int(2), Err("argument 3 is missing".to_owned()));
    }
}
