//! The work the page hands to its Web Worker, and the replies: demo runs,
//! grading and scratch evaluation, as JSON-serialisable messages. Pure: the host
//! supplies the clock, so the same code runs in the worker and in native tests.
//! The messages are in every build (the page sends and reads them); serving
//! them ([`handle`]) needs the `script` feature, which only the workers have.

use std::collections::BTreeMap;

use chapters::demo::{Output, ParamError};
use judge::{Value, Verdict};
use serde::{Deserialize, Serialize};

/// Wall-clock budget for one grading run or one scratch run, in milliseconds.
pub const CODE_DEADLINE_MS: f64 = 2_000.0;

/// A request: an id the reply echoes, and the job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Chosen by the page; echoed in the reply.
    pub id: u64,
    /// What to do.
    pub job: Job,
}

/// One piece of work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Job {
    /// Run a cell's demo on the reader's raw parameter text.
    Demo {
        /// The demo's id.
        demo: String,
        /// Parameter name → the text the reader typed.
        params: BTreeMap<String, String>,
        /// The language of the output's words (the page's); English when absent.
        #[serde(default)]
        lang: chapters::Lang,
    },
    /// Grade Rhai source for an exercise.
    Grade {
        /// `chapter/slug`.
        exercise: String,
        /// The learner's code.
        source: String,
        /// Grade this case alone (1-based), not all of them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        case: Option<usize>,
    },
    /// Evaluate scratch Rhai with the scripting API.
    Eval {
        /// The reader's code.
        source: String,
        /// The language of an error's words (the page's); English when absent.
        #[serde(default)]
        lang: chapters::Lang,
    },
    /// The arguments of every case of an exercise, for a Python answer that
    /// runs in a worker of its own: no expected value goes with them.
    Cases {
        /// `chapter/slug`.
        exercise: String,
    },
    /// Grade the replies of a Python answer (`judge/core/python/harness.py`
    /// run on [`Reply::Cases`]'s arguments, case by case): the same verdict
    /// the CLI gives for the same replies.
    GradeReplies {
        /// `chapter/slug`.
        exercise: String,
        /// One JSON reply per line, numbered from 1 (0: the file did not load).
        replies: String,
        /// What each case printed.
        printed: judge::replies::Printed,
        /// Why the cases without a reply have none (the worker was stopped);
        /// none when every case was answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ended: Option<judge::SolverError>,
        /// The one case (1-based) the replies answer, when it was run alone.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        case: Option<usize>,
    },
    /// One round of shrinking a Python answer's failing generated case
    /// (#29; [`judge::shrink::Rounds`]): with no `search`, start one from
    /// case `from`; with one, give it `replies` (the answer's replies to the
    /// inputs its last round asked). The reply is the next round's inputs
    /// ([`Reply::ShrinkAsk`]) or the result ([`Reply::Shrunk`]).
    Shrink {
        /// `chapter/slug`.
        exercise: String,
        /// The generated case to start from (with no `search`): its number
        /// (1-based) and seed ([`judge::shrink::first_failing_generated`]).
        /// Not the verdict: the worker never reads one, which keeps a
        /// verdict's reader out of its wasm.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<(usize, u64)>,
        /// The search so far.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        search: Option<Box<judge::shrink::Rounds>>,
        /// One JSON reply per line, as in [`Job::GradeReplies`].
        #[serde(default)]
        replies: String,
        /// Why the round ended before every input had a reply.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ended: Option<judge::SolverError>,
    },
    /// Panic inside the worker: the hostile-input suite uses it to prove that a
    /// trap in one run is contained (the page replaces the worker).
    Trap,
}

/// A reply: the request's id and what came of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// The request's id.
    pub id: u64,
    /// The outcome.
    pub reply: Reply,
}

/// What came of a job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// A demo's output, or the parameters it refused.
    Demo {
        /// The output, or one error per bad parameter.
        result: Result<Output, Vec<ParamError>>,
        /// Run time in milliseconds.
        ms: f64,
    },
    /// A verdict and what the code printed (hidden cases withheld).
    Grade {
        /// The verdict.
        verdict: Verdict,
        /// Printed lines, per case.
        printed: Vec<String>,
        /// Grading time in milliseconds.
        ms: f64,
    },
    /// A scratch run's value or error, and what it printed.
    Eval {
        /// The value, or the error.
        value: Result<Value, String>,
        /// Printed lines.
        printed: Vec<String>,
        /// Run time in milliseconds.
        ms: f64,
    },
    /// An exercise's cases, as [`Job::Cases`] asks.
    Cases {
        /// The function to write.
        function: String,
        /// Its number of parameters.
        arity: usize,
        /// Each case's arguments: a JSON array in the wire encoding
        /// ([`judge::Value::to_wire`]), one per case, in order.
        cases: Vec<String>,
    },
    /// A shrink's next round: the inputs to run (as [`Reply::Cases`] gives
    /// them), the search to send back with their replies, and the smallest
    /// failing input so far (for a page that must stop here).
    ShrinkAsk {
        /// The search.
        search: Box<judge::shrink::Rounds>,
        /// Each input, a JSON array in the wire encoding.
        cases: Vec<String>,
        /// What the search has found so far.
        so_far: Option<Box<judge::shrink::Shrunk>>,
    },
    /// A shrink's result: the smallest failing input found, if any.
    Shrunk {
        /// The result.
        shrunk: Option<Box<judge::shrink::Shrunk>>,
    },
    /// The request could not be served (unknown demo or exercise, bad JSON).
    Refused {
        /// Why.
        message: String,
    },
}

/// Serves one request given as JSON; `now` is a millisecond clock.
#[cfg(feature = "script")]
pub fn handle(request: &str, now: &std::rc::Rc<dyn Fn() -> f64>) -> String {
    let response = match serde_json::from_str::<Request>(request) {
        Ok(r) => Response {
            id: r.id,
            reply: run(&r.job, now),
        },
        Err(e) => Response {
            id: 0,
            reply: Reply::Refused {
                message: format!("bad request: {e}"),
            },
        },
    };
    serde_json::to_string(&response).unwrap_or_else(|e| {
        format!(
            r#"{{"id":{},"reply":{{"kind":"refused","message":"{e}"}}}}"#,
            response.id
        )
    })
}

/// Runs one job.
#[cfg(feature = "script")]
pub fn run(job: &Job, now: &std::rc::Rc<dyn Fn() -> f64>) -> Reply {
    let t0 = now();
    let clock = now.clone();
    let deadline: judge::script::Deadline =
        std::rc::Rc::new(move || clock() - t0 > CODE_DEADLINE_MS);
    match job {
        Job::Demo { demo, params, lang } => match chapters::demo(demo) {
            None => Reply::Refused {
                message: format!("no demo `{demo}`"),
            },
            Some(d) => {
                let result = (d.run)(params, *lang);
                Reply::Demo {
                    result,
                    ms: now() - t0,
                }
            }
        },
        Job::Grade {
            exercise,
            source,
            case,
        } => match crate::by_id(exercise) {
            None => Reply::Refused {
                message: format!("no exercise `{exercise}`"),
            },
            Some(ex) => {
                let (verdict, printed) = crate::grade_rhai_case(
                    &ex,
                    source,
                    judge::script::Limits::default(),
                    Some(deadline),
                    *case,
                );
                Reply::Grade {
                    verdict,
                    printed,
                    ms: now() - t0,
                }
            }
        },
        Job::Cases { exercise } => match crate::by_id(exercise) {
            None => Reply::Refused {
                message: format!("no exercise `{exercise}`"),
            },
            Some(ex) => Reply::Cases {
                function: ex.function.to_owned(),
                arity: ex.params.len(),
                cases: python_cases(&ex),
            },
        },
        Job::GradeReplies {
            exercise,
            replies,
            printed,
            ended,
            case,
        } => match crate::by_id(exercise) {
            None => Reply::Refused {
                message: format!("no exercise `{exercise}`"),
            },
            Some(ex) => {
                let verdict =
                    grade_python_replies(&ex, replies, printed.clone(), ended.clone(), *case);
                Reply::Grade {
                    printed: crate::printed_by_case(&verdict),
                    verdict,
                    ms: now() - t0,
                }
            }
        },
        Job::Shrink {
            exercise,
            from,
            search,
            replies,
            ended,
        } => match crate::by_id(exercise) {
            None => Reply::Refused {
                message: format!("no exercise `{exercise}`"),
            },
            Some(ex) => shrink_python_round(
                &ex,
                *from,
                search.as_deref().cloned(),
                replies,
                ended.clone(),
            ),
        },
        Job::Trap => panic!("a trap the page asked for (worker self-test)"),
        Job::Eval { source, lang } => {
            let (value, printed) = crate::api::eval(
                source,
                judge::script::Limits::default(),
                Some(deadline),
                *lang,
            );
            Reply::Eval {
                value,
                printed,
                ms: now() - t0,
            }
        }
    }
}

/// Memory a Python answer may use in the browser, in MiB: Pyodide's heap is
/// a 32-bit wasm memory (the CLI's default is the same).
pub const PYTHON_MEMORY_MIB: u64 = 2048;

/// Each case's arguments in the wire encoding, one JSON array per case.
#[cfg(feature = "script")]
pub fn python_cases(ex: &crate::Exercise) -> Vec<String> {
    (ex.cases)()
        .iter()
        .map(|c| serde_json::Value::Array(c.args.iter().map(Value::to_wire).collect()).to_string())
        .collect()
}

/// The verdict on a Python answer's `replies` (see [`Job::GradeReplies`]).
#[cfg(feature = "script")]
pub fn grade_python_replies(
    ex: &crate::Exercise,
    replies: &str,
    printed: judge::replies::Printed,
    ended: Option<judge::SolverError>,
    case: Option<usize>,
) -> Verdict {
    let about = judge::replies::About {
        file: format!("{}.py", ex.slug()),
        function: ex.function.to_owned(),
        arity: ex.params.len(),
        memory_mib: PYTHON_MEMORY_MIB,
    };
    let ended = move |answered: usize, _: &judge::replies::Printed| {
        ended.unwrap_or(judge::SolverError::Code(judge::CodeError::Lost {
            case: answered + 1,
        }))
    };
    let replies =
        judge::replies::Replies::read(replies, printed, &about, judge::Answer::Python, ended);
    let (mut v, outcomes) = replies.grade_recorded(&ex.spec(), case);
    crate::mistakes::name(ex, &mut v, &outcomes, judge::Answer::Python);
    v
}

/// One round of shrinking a Python answer (see [`Job::Shrink`]): the
/// search started from case `from` (no `search`), or given `replies`; then
/// its next inputs, or its result.
#[cfg(feature = "script")]
pub fn shrink_python_round(
    ex: &crate::Exercise,
    from: Option<(usize, u64)>,
    search: Option<judge::shrink::Rounds>,
    replies: &str,
    ended: Option<judge::SolverError>,
) -> Reply {
    let spec = ex.spec();
    let mut search = match (search, from) {
        (Some(mut s), _) => {
            let n = s.ask(&spec).len();
            let about = judge::replies::About {
                file: format!("{}.py", ex.slug()),
                function: ex.function.to_owned(),
                arity: ex.params.len(),
                memory_mib: PYTHON_MEMORY_MIB,
            };
            // An input without a reply (the round was cut short) counts as
            // not failing the same way, as a cut-off run's does in the CLI.
            let why = move |_: usize, _: &judge::replies::Printed| {
                judge::SolverError::Limit(
                    ended
                        .map(|e| e.message_in(judge::Lang::En))
                        .unwrap_or_default(),
                )
            };
            let mut r = judge::replies::Replies::read(
                replies,
                judge::replies::Printed::default(),
                &about,
                judge::Answer::Python,
                why,
            );
            if r.load.is_some() {
                s.stop();
            } else {
                let outs = (0..n).map(|_| judge::Solver::call(&mut r, &[])).collect();
                s.answer(&spec, outs);
            }
            s
        }
        (None, Some((index, seed))) => match judge::shrink::Rounds::from_case(&spec, index, seed) {
            Some(s) => s,
            None => return Reply::Shrunk { shrunk: None },
        },
        (None, None) => return Reply::Shrunk { shrunk: None },
    };
    let next = search.ask(&spec);
    if next.is_empty() {
        return Reply::Shrunk {
            shrunk: search.finish().map(Box::new),
        };
    }
    Reply::ShrinkAsk {
        so_far: search.clone().finish().map(Box::new),
        cases: next
            .iter()
            .map(|args| {
                serde_json::Value::Array(args.iter().map(Value::to_wire).collect()).to_string()
            })
            .collect(),
        search: Box::new(search),
    }
}

#[cfg(test)]
#[cfg(feature = "script")]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn clock() -> Rc<dyn Fn() -> f64> {
        let t0 = std::time::Instant::now();
        Rc::new(move || t0.elapsed().as_secs_f64() * 1000.0)
    }

    fn ask(job: Job) -> Reply {
        let req = serde_json::to_string(&Request { id: 7, job }).unwrap();
        let resp: Response = serde_json::from_str(&handle(&req, &clock())).unwrap();
        assert_eq!(resp.id, 7);
        resp.reply
    }

    /// The page's shrink of a Python answer, round by round through the
    /// worker's JSON (a Rhai solver stands in for Pyodide, its values sent
    /// as the harness's `ok` replies), ends on the input the one-by-one
    /// search of a Rhai answer finds; a round cut short stops nothing it
    /// already found.
    #[test]
    fn shrink_rounds_through_the_worker_find_what_the_rhai_search_finds() {
        let ex = crate::by_id("ch_newmodels/attended").unwrap();
        let wrong = crate::KNOWN
            .iter()
            .find(|k| k.id == ex.id)
            .unwrap()
            .wrong
            .iter()
            .find(|(name, _)| name.ends_with("no_topk_cap.rhai"))
            .unwrap()
            .1;
        let (verdict, _) = crate::grade_rhai(&ex, wrong, judge::script::Limits::default(), None);
        let want = verdict.shrunk.clone().expect("the Rhai search shrinks it");
        let mut solver = judge::script::RhaiSolver::new(
            wrong,
            ex.function,
            ex.params.len(),
            judge::script::Limits::default(),
            None,
        )
        .unwrap();
        let mut reply = ask(Job::Shrink {
            exercise: ex.id.into(),
            from: judge::shrink::first_failing_generated(&verdict),
            search: None,
            replies: String::new(),
            ended: None,
        });
        let mut rounds = 0;
        let got = loop {
            match reply {
                Reply::ShrinkAsk { search, cases, .. } => {
                    rounds += 1;
                    let replies: String = cases
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            let wire: serde_json::Value = serde_json::from_str(c).unwrap();
                            let args: Vec<Value> = wire
                                .as_array()
                                .unwrap()
                                .iter()
                                .map(Value::from_wire)
                                .collect();
                            let out = judge::Solver::call(&mut solver, &args).unwrap();
                            format!(
                                "{}\n",
                                serde_json::json!({"case": i + 1, "ok": out.to_wire()})
                            )
                        })
                        .collect();
                    reply = ask(Job::Shrink {
                        exercise: ex.id.into(),
                        from: None,
                        search: Some(search),
                        replies,
                        ended: None,
                    });
                }
                Reply::Shrunk { shrunk } => break shrunk,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(got.as_deref(), Some(want.as_ref()), "after {rounds} rounds");
        assert!(rounds > 1);
        // A passing verdict has nothing to shrink; a case that is not a
        // generated one (case 1 is public) is not shrunk.
        let (passed, _) = crate::grade_rhai(
            &ex,
            crate::KNOWN
                .iter()
                .find(|k| k.id == ex.id)
                .unwrap()
                .solution,
            judge::script::Limits::default(),
            None,
        );
        assert_eq!(judge::shrink::first_failing_generated(&passed), None);
        assert_eq!(
            ask(Job::Shrink {
                exercise: ex.id.into(),
                from: Some((1, 0)),
                search: None,
                replies: String::new(),
                ended: None,
            }),
            Reply::Shrunk { shrunk: None }
        );
    }

    #[test]
    fn a_demo_runs_and_bad_parameters_come_back_as_errors() {
        let d = chapters::demo("attended").unwrap();
        let Reply::Demo {
            result: Ok(out), ..
        } = ask(Job::Demo {
            demo: "attended".into(),
            params: chapters::demo::defaults(d.params),
            lang: chapters::Lang::En,
        })
        else {
            panic!()
        };
        assert_eq!(
            Ok(out),
            (d.run)(&chapters::demo::defaults(d.params), chapters::Lang::En)
        );
        let mut bad = chapters::demo::defaults(d.params);
        for v in bad.values_mut() {
            *v = "zzz".into();
        }
        assert!(matches!(
            ask(Job::Demo {
                demo: "attended".into(),
                params: bad,
                lang: chapters::Lang::En,
            }),
            Reply::Demo { result: Err(_), .. }
        ));
    }

    /// The page's language crosses to the worker; a request without one (an
    /// older page) gets English.
    #[test]
    fn a_demo_runs_in_the_language_asked() {
        let d = chapters::demo("attended").unwrap();
        let params = serde_json::to_string(&chapters::demo::defaults(d.params)).unwrap();
        let reply = |job: &str| {
            let req = format!(r#"{{"id":1,"job":{{"demo":{job}}}}}"#);
            let resp: Response = serde_json::from_str(&handle(&req, &clock())).unwrap();
            let Reply::Demo {
                result: Ok(out), ..
            } = resp.reply
            else {
                panic!("{job}")
            };
            out
        };
        let raw = chapters::demo::defaults(d.params);
        let en = reply(&format!(r#"{{"demo":"attended","params":{params}}}"#));
        assert_eq!(Ok(en), (d.run)(&raw, chapters::Lang::En));
        let zh = reply(&format!(
            r#"{{"demo":"attended","params":{params},"lang":"zh"}}"#
        ));
        assert_eq!(Ok(zh.clone()), (d.run)(&raw, chapters::Lang::Zh));
        assert_ne!(Ok(zh), (d.run)(&raw, chapters::Lang::En));
    }

    #[test]
    fn grading_and_eval_cross_as_json() {
        let Reply::Grade { verdict, .. } = ask(Job::Grade {
            exercise: "ch_newmodels/attended".into(),
            source: "fn attended(pos, ratio, topk, window) { loop {} }".into(),
            case: None,
        }) else {
            panic!()
        };
        assert_eq!(verdict.status, judge::Status::LimitExceeded);
        // One case alone: graded under its own number, counted alone.
        let Reply::Grade { verdict, .. } = ask(Job::Grade {
            exercise: "ch_newmodels/attended".into(),
            source: crate::known::known_good("ch_newmodels/attended")
                .unwrap()
                .into(),
            case: Some(2),
        }) else {
            panic!()
        };
        assert_eq!(
            (verdict.passed, verdict.total, verdict.cases[0].index),
            (1, 1, 2)
        );
        let Reply::Eval { value, printed, .. } = ask(Job::Eval {
            source: "print(\"hi\"); dispatch_bytes(7168, 6, 1, 0)".into(),
            lang: chapters::Lang::Zh,
        }) else {
            panic!()
        };
        assert_eq!(value, Ok(Value::Int(43_008)));
        assert_eq!(printed, ["hi"]);
        assert!(matches!(
            ask(Job::Demo {
                demo: "nope".into(),
                params: BTreeMap::new(),
                lang: chapters::Lang::En,
            }),
            Reply::Refused { .. }
        ));
        let resp: Response = serde_json::from_str(&handle("{", &clock())).unwrap();
        assert!(matches!(resp.reply, Reply::Refused { .. }));
    }
}
