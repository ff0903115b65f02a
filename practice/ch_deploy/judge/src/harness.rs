//! Calling Rust functions with judge values, and the protocol a practice crate's
//! binary speaks with the CLI.
//!
//! Protocol: the CLI starts `<binary> <function>` with two environment variables,
//! [`CASES_ENV`] (a file with one JSON array of arguments per line, in the
//! [`Value::to_wire`] encoding) and [`REPLIES_ENV`] (a file the binary writes
//! one JSON object per case to, flushed after each: `{"case": i, "ok": value}`,
//! `{"case": i, "error": message}` for bad arguments, `{"case": i, "todo": true}`
//! for a `todo!()`, or `{"case": i, "panic": message, "at": "src/x.rs:3:5"}`).
//! Standard input is empty. Before case `i` runs, the binary writes
//! [`case_marker`]`(i)` to standard output, so the CLI can tell which case
//! printed what; the learner's `println!` and `eprintln!` can never be mistaken
//! for a reply, since replies travel in their own file.

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

    /// Argument `i` as an array; `what` names the expected elements in the error.
    fn array(&self, i: usize, what: &str) -> Result<&[Value], String> {
        match self.get(i)? {
            Value::Array(a) => Ok(a),
            v => Err(format!(
                "argument {} must be an array of {what}, got {}",
                i + 1,
                v.type_name()
            )),
        }
    }

    /// Argument `i` as an array of integers.
    pub fn ints(&self, i: usize) -> Result<Vec<i64>, String> {
        let a = self.array(i, "ints")?;
        a.iter()
            .enumerate()
            .map(|(j, v)| {
                v.as_int().ok_or_else(|| {
                    format!(
                        "argument {}: element [{j}] must be an int, got {}",
                        i + 1,
                        v.type_name()
                    )
                })
            })
            .collect()
    }

    /// Argument `i` as an array of floats (ints convert).
    pub fn floats(&self, i: usize) -> Result<Vec<f64>, String> {
        let a = self.array(i, "numbers")?;
        a.iter()
            .enumerate()
            .map(|(j, v)| {
                v.as_float().ok_or_else(|| {
                    format!(
                        "argument {}: element [{j}] must be a number, got {}",
                        i + 1,
                        v.type_name()
                    )
                })
            })
            .collect()
    }

    /// Argument `i` as an array of rows of numbers, all rows the same length
    /// (ints convert). An empty array is a matrix with no rows.
    pub fn matrix(&self, i: usize) -> Result<Vec<Vec<f64>>, String> {
        self.rows(i, "numbers", Value::as_float, "a number")
    }

    /// Argument `i` as an array of rows of integers, all rows the same length.
    pub fn int_matrix(&self, i: usize) -> Result<Vec<Vec<i64>>, String> {
        self.rows(i, "ints", Value::as_int, "an int")
    }

    fn rows<T>(
        &self,
        i: usize,
        what: &str,
        conv: fn(&Value) -> Option<T>,
        one: &str,
    ) -> Result<Vec<Vec<T>>, String> {
        let rows = self.array(i, &format!("arrays of {what}"))?;
        let mut out: Vec<Vec<T>> = Vec::with_capacity(rows.len());
        for (r, row) in rows.iter().enumerate() {
            let Value::Array(row) = row else {
                return Err(format!(
                    "argument {}: row [{r}] must be an array of {what}, got {}",
                    i + 1,
                    row.type_name()
                ));
            };
            if let Some(first) = out.first()
                && first.len() != row.len()
            {
                return Err(format!(
                    "argument {}: row [{r}] has {} elements, row [0] has {} (rows must have the same length)",
                    i + 1,
                    row.len(),
                    first.len()
                ));
            }
            let row = row
                .iter()
                .enumerate()
                .map(|(c, v)| {
                    conv(v).ok_or_else(|| {
                        format!(
                            "argument {}: element [{r}][{c}] must be {one}, got {}",
                            i + 1,
                            v.type_name()
                        )
                    })
                })
                .collect::<Result<Vec<T>, String>>()?;
            out.push(row);
        }
        Ok(out)
    }
}

/// A function callable by the harness.
pub type Entry<'a> = (&'a str, &'a dyn Fn(Args) -> Result<Value, String>);

/// Names the file of cases the binary reads.
pub const CASES_ENV: &str = "JUDGE_CASES";
/// Names the file the binary writes its replies to.
pub const REPLIES_ENV: &str = "JUDGE_REPLIES";

/// What the binary writes to standard output before running case `index`
/// (1-based); the bytes are unlikely in anything a learner prints.
pub fn case_marker(index: usize) -> String {
    format!("\u{1e}[judge case {index}]\u{1e}")
}

thread_local! {
    /// The message and location of the last panic on this thread.
    static LAST_PANIC: std::cell::RefCell<(String, String)> = const {
        std::cell::RefCell::new((String::new(), String::new()))
    };
}

/// Serves the calls listed in the cases file for the function named by the first
/// command-line argument. Used by practice crates' `main`; exits with status 2 on
/// a usage error (unknown function, missing files).
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
    let open = |var: &str, write: bool| {
        let path = std::env::var_os(var).unwrap_or_default();
        let file = if write {
            std::fs::File::create(&path)
        } else {
            std::fs::File::open(&path)
        };
        file.unwrap_or_else(|e| {
            eprintln!("the judge starts this binary: {var} ({path:?}): {e}");
            std::process::exit(2);
        })
    };
    let cases = std::io::BufReader::new(open(CASES_ENV, false));
    let mut replies = std::io::BufWriter::new(open(REPLIES_ENV, true));
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panicked".to_owned());
        let at = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = (msg, at));
    }));
    for (i, line) in cases.lines().enumerate() {
        let Ok(line) = line else { break };
        let case = i + 1;
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{}", case_marker(case)).and_then(|()| out.flush());
        drop(out);
        let reply = match serde_json::from_str::<serde_json::Value>(&line) {
            Ok(serde_json::Value::Array(a)) => {
                let args: Vec<Value> = a.iter().map(Value::from_wire).collect();
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(Args(&args)))) {
                    Ok(Ok(v)) => serde_json::json!({ "case": case, "ok": v.to_wire() }),
                    Ok(Err(e)) => serde_json::json!({ "case": case, "error": e }),
                    Err(_) => {
                        let (msg, at) = LAST_PANIC.with(|p| p.take());
                        if msg.starts_with("not yet implemented") {
                            serde_json::json!({ "case": case, "todo": true, "at": at })
                        } else {
                            serde_json::json!({ "case": case, "panic": msg, "at": at })
                        }
                    }
                }
            }
            _ => serde_json::json!({ "case": case, "error": "bad request from the judge" }),
        };
        let _ = std::io::stdout().flush();
        if writeln!(replies, "{reply}")
            .and_then(|()| replies.flush())
            .is_err()
        {
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

    #[test]
    fn array_accessors_check_every_element() {
        let v = [
            Value::from(vec![1, 2]),
            Value::Array(vec![Value::Float(0.5), Value::Int(2)]),
            Value::Array(vec![Value::Int(1), Value::from("x")]),
            Value::Int(4),
        ];
        let a = Args(&v);
        assert_eq!(a.ints(0), Ok(vec![1, 2]));
        assert_eq!(a.floats(0), Ok(vec![1.0, 2.0]));
        assert_eq!(a.floats(1), Ok(vec![0.5, 2.0]));
        assert_eq!(
            a.ints(1),
            Err("argument 2: element [0] must be an int, got float".to_owned())
        );
        assert_eq!(
            a.floats(2),
            Err("argument 3: element [1] must be a number, got string".to_owned())
        );
        assert_eq!(
            a.ints(3),
            Err("argument 4 must be an array of ints, got int".to_owned())
        );
        assert_eq!(a.floats(4), Err("argument 5 is missing".to_owned()));
    }

    #[test]
    fn matrices_must_be_rectangular() {
        let m = |rows: Vec<Value>| Value::Array(rows);
        let v = [
            m(vec![Value::from(vec![1.5, 2.0]), Value::from(vec![3, 4])]),
            m(vec![Value::from(vec![1, 2]), Value::from(vec![3])]),
            m(vec![]),
            m(vec![Value::from(vec![1, 2]), Value::Int(3)]),
            m(vec![Value::from(vec![1.0])]),
        ];
        let a = Args(&v);
        assert_eq!(a.matrix(0), Ok(vec![vec![1.5, 2.0], vec![3.0, 4.0]]));
        assert_eq!(
            a.int_matrix(0),
            Err("argument 1: element [0][0] must be an int, got float".to_owned())
        );
        assert_eq!(a.int_matrix(1).err(), a.matrix(1).err());
        assert_eq!(
            a.matrix(1),
            Err(
                "argument 2: row [1] has 1 elements, row [0] has 2 (rows must have the same length)"
                    .to_owned()
            )
        );
        assert_eq!(a.matrix(2), Ok(vec![]));
        assert_eq!(
            a.int_matrix(3),
            Err("argument 4: row [1] must be an array of ints, got int".to_owned())
        );
        assert_eq!(a.matrix(5), Err("argument 6 is missing".to_owned()));
        assert_eq!(
            Args(&[Value::Int(1)]).matrix(0),
            Err("argument 1 must be an array of arrays of numbers, got int".to_owned())
        );
        assert_eq!(a.matrix(4), Ok(vec![vec![1.0]]));
    }
}
