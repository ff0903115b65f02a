//! The book's exercises: statements, starters, hints, test cases and the Rust
//! reference solutions that compute every expected output.
//!
//! Pipeline: each exercise is a folder in its chapter's folder,
//! `chapters/src/<chapter>/exercises/<slug>/` (`exercise.toml` manifest,
//! `statement.md`, `starter.rhai`, `starter.py`, `starter.rs`, `reference.rs` with
//! the cases and the reference solution, `solution.rhai`, `solution.py`,
//! `wrong/*.rhai`, `wrong/*.py`); the
//! build script (`build.rs`) checks the folders and generates the registry
//! ([`all`]) and a module per exercise (`ch_newmodels::attended`, ...);
//! [`Exercise::spec`] hands the judge what it grades; [`grade_rhai`] grades a
//! learner's Rhai source in the sandbox.

// Without `grade`, the references and the scripting functions' code are
// reached from nowhere: the page's module leaves them out.
#![cfg_attr(not(feature = "grade"), allow(dead_code, unused_imports))]

pub mod api;
#[cfg(feature = "render")]
pub mod check;
pub mod jobs;
pub mod known;
#[cfg(feature = "grade")]
pub mod mistakes;
// The mutation check's mutants (`tests/mutants.rs`): native only.
#[cfg(not(target_arch = "wasm32"))]
pub mod mutate;
pub mod panel;

use judge::{Case, Spec, Tolerance, Value};

// The chapter modules (`pub mod ch_newmodels { pub mod attended; ... }`),
// `generated()` and `KNOWN`, derived from the exercise folders by build.rs.
include!(concat!(env!("OUT_DIR"), "/exercises.rs"));

/// One exercise.
#[derive(Debug, Clone)]
pub struct Exercise {
    /// `chapter/slug`.
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// Statement, Markdown, as written: worked examples' outputs are
    /// `{{call(...)}}` placeholders; [`Exercise::statement_markdown`] fills them in.
    #[cfg(feature = "render")]
    pub statement: &'static str,
    /// Function name the learner writes.
    pub function: &'static str,
    /// Parameter names, in order.
    pub params: &'static [&'static str],
    /// Parameter types, for people (`int`, `[[float]]`), in the same order.
    pub param_types: &'static [&'static str],
    /// What the function returns, for people (e.g. `int`).
    pub returns: &'static str,
    /// How the Rust practice crate's dispatch turns the result `r` of the
    /// learner's function into a judge value (`r.into()` unless the manifest's
    /// `[rust] result` says otherwise).
    pub rust_result: &'static str,
    /// Rhai starter code.
    pub starter_rhai: &'static str,
    /// The same code with its comments in Chinese (`starter.zh.rhai`), when the
    /// folder has a Chinese text.
    pub starter_rhai_zh: Option<&'static str>,
    /// Python starter code (`starter.py`): the signature, a docstring, and
    /// `raise NotImplementedError`.
    pub starter_python: &'static str,
    /// The same code with its docstring in Chinese (`starter.zh.py`), when the
    /// folder has a Chinese text.
    pub starter_python_zh: Option<&'static str>,
    /// Rust starter code (the function as it stands in the practice crate).
    #[cfg(feature = "render")]
    pub starter_rust: &'static str,
    /// Hints: guiding questions first, answers last.
    pub hints: &'static [&'static str],
    /// The known mistakes (`[mistakes]`): each known-wrong solution's stem
    /// and its misconception in one line, by stem.
    pub mistakes: &'static [(&'static str, &'static str)],
    /// A hash of what a verdict depends on (statements, manifest with the
    /// cases, reference), for receipts (#29): `fnv1a128:<hex>`.
    pub content: &'static str,
    /// Float tolerance.
    pub tolerance: Tolerance,
    /// Test cases (generated ones already expanded); with `grade`.
    #[cfg(feature = "grade")]
    pub cases: fn() -> Vec<Case>,
    /// The reference solution, called with judge values; with `grade`.
    #[cfg(feature = "grade")]
    pub reference: fn(&[Value]) -> Result<Value, String>,
    /// The reference solution's Rust source, revealed after a pass.
    #[cfg(feature = "render")]
    pub reference_source: &'static str,
    /// A cell of the same chapter whose source answers this exercise (kept
    /// folded with a note until the exercise is passed).
    #[cfg(feature = "render")]
    pub answered_by_cell: Option<&'static str>,
    /// The Chinese edition's title, statement and hints (`exercise.zh.toml`,
    /// `statement.zh.md`), when the folder has them.
    #[cfg(feature = "render")]
    pub zh: Option<ZhText>,
}

/// An exercise's text in Chinese (#12).
#[cfg(feature = "render")]
#[derive(Clone, Copy, Debug)]
pub struct ZhText {
    /// Short title.
    pub title: &'static str,
    /// Statement, Markdown, with the same `{{call(...)}}` placeholders as the English one.
    pub statement: &'static str,
    /// Hints, as many as the English ones, in the same order.
    pub hints: &'static [&'static str],
    /// The known mistakes, the same ids as the English ones.
    pub mistakes: &'static [(&'static str, &'static str)],
}

impl Exercise {
    /// The Rhai starter in `lang`: the Chinese one's comments are Chinese
    /// (the English one when there is no Chinese text).
    pub fn starter_rhai_in(&self, lang: chapters::Lang) -> &'static str {
        match (lang, self.starter_rhai_zh) {
            (chapters::Lang::Zh, Some(zh)) => zh,
            _ => self.starter_rhai,
        }
    }

    /// The Python starter in `lang` (the English one when there is no Chinese text).
    pub fn starter_python_in(&self, lang: chapters::Lang) -> &'static str {
        match (lang, self.starter_python_zh) {
            (chapters::Lang::Zh, Some(zh)) => zh,
            _ => self.starter_python,
        }
    }

    /// The title in `lang` (the English one when there is no Chinese text).
    #[cfg(feature = "render")]
    pub fn title_in(&self, lang: chapters::Lang) -> &'static str {
        match (lang, self.zh) {
            (chapters::Lang::Zh, Some(zh)) => zh.title,
            _ => self.title,
        }
    }

    /// The hints in `lang` (the English ones when there is no Chinese text).
    #[cfg(feature = "render")]
    pub fn hints_in(&self, lang: chapters::Lang) -> &'static [&'static str] {
        match (lang, self.zh) {
            (chapters::Lang::Zh, Some(zh)) => zh.hints,
            _ => self.hints,
        }
    }

    /// The known mistakes in `lang` (the English ones when there is no Chinese text).
    #[cfg(feature = "render")]
    pub fn mistakes_in(&self, lang: chapters::Lang) -> &'static [(&'static str, &'static str)] {
        match (lang, self.zh) {
            (chapters::Lang::Zh, Some(zh)) => zh.mistakes,
            _ => self.mistakes,
        }
    }

    /// The known mistake `id`'s line in `lang`.
    #[cfg(feature = "render")]
    pub fn mistake_in(&self, id: &str, lang: chapters::Lang) -> Option<&'static str> {
        self.mistakes_in(lang)
            .iter()
            .find(|(k, _)| *k == id)
            .map(|(_, t)| *t)
    }

    /// What the judge needs to grade this exercise.
    #[cfg(feature = "grade")]
    pub fn spec(&self) -> Spec {
        Spec {
            id: self.id.to_owned(),
            function: self.function.to_owned(),
            params: self.params.iter().map(|p| p.to_string()).collect(),
            cases: (self.cases)(),
            tolerance: self.tolerance,
            reference: self.reference,
        }
    }

    /// The statement with its worked examples computed: every `{{call(a, b, ...)}}`
    /// becomes the reference solution's output for those arguments (written as
    /// JSON: ints, floats with a point, arrays, strings), printed as the judge
    /// prints values (`640`, `[3850.25, 15420416]`, `#{entries: [[2.0]], partial: 1}`).
    /// An unknown placeholder, bad arguments or a reference error is an error
    /// naming the exercise's `statement.md` and the line.
    #[cfg(feature = "render")]
    pub fn statement_markdown(&self) -> Result<String, String> {
        self.statement_markdown_in(chapters::Lang::En)
    }

    /// [`Exercise::statement_markdown`] in `lang`; the Chinese statement
    /// (`statement.zh.md`) when asked for and present, else the English one.
    #[cfg(feature = "render")]
    pub fn statement_markdown_in(&self, lang: chapters::Lang) -> Result<String, String> {
        let (text, file) = match (lang, self.zh) {
            (chapters::Lang::Zh, Some(zh)) => (zh.statement, "statement.zh.md"),
            _ => (self.statement, "statement.md"),
        };
        let failure = std::cell::RefCell::new(None);
        chapters::doc::substitute(text, &|name| {
            self.example(name)
                .map_err(|e| *failure.borrow_mut() = Some(e))
                .ok()
        })
        .map_err(|e| {
            format!(
                "{}/{file} line {}: {}",
                self.id,
                e.line,
                failure.take().unwrap_or(e.message)
            )
        })
    }

    /// The value of one placeholder, `call(args)`.
    #[cfg(feature = "render")]
    fn example(&self, placeholder: &str) -> Result<String, String> {
        let args = placeholder
            .strip_prefix("call(")
            .and_then(|a| a.strip_suffix(')'))
            .ok_or_else(|| {
                format!("unknown placeholder `{{{{{placeholder}}}}}`; the statement can use `{{{{call(arguments)}}}}`")
            })?;
        let args: Vec<serde_json::Value> =
            serde_json::from_str(&format!("[{args}]")).map_err(|e| {
                format!("`{{{{{placeholder}}}}}`: the arguments are not JSON values: {e}")
            })?;
        if args.len() != self.params.len() {
            return Err(format!(
                "`{{{{{placeholder}}}}}`: {} takes {} arguments, got {}",
                self.function,
                self.params.len(),
                args.len()
            ));
        }
        let args: Vec<Value> = args.iter().map(Value::from_json).collect();
        (self.reference)(&args)
            .map(|v| v.to_string())
            .map_err(|e| format!("`{{{{{placeholder}}}}}`: the reference fails: {e}"))
    }

    /// The chapter id (`ch_newmodels` for `ch_newmodels/attended`).
    pub fn chapter(&self) -> &'static str {
        self.id.split('/').next().unwrap_or(self.id)
    }

    /// The slug (`attended`).
    pub fn slug(&self) -> &'static str {
        self.id.split('/').nth(1).unwrap_or(self.id)
    }
}

/// Every exercise of the book.
pub fn all() -> Vec<Exercise> {
    generated()
}

/// The exercise with this id.
pub fn by_id(id: &str) -> Option<Exercise> {
    all().into_iter().find(|e| e.id == id)
}

/// The exercises of one chapter, in order.
pub fn for_chapter(chapter: &str) -> Vec<Exercise> {
    all()
        .into_iter()
        .filter(|e| e.chapter() == chapter)
        .collect()
}

/// Grades a learner's Rhai source for `ex`. Untouched starter code is "not attempted".
///
/// Also returns what the code printed, case by case under a `case N:` heading;
/// output printed during hidden cases is withheld, and a line says so.
#[cfg(feature = "script")]
pub fn grade_rhai(
    ex: &Exercise,
    source: &str,
    limits: judge::script::Limits,
    deadline: Option<judge::script::Deadline>,
) -> (judge::Verdict, Vec<String>) {
    grade_rhai_case(ex, source, limits, deadline, None)
}

/// [`grade_rhai`] on one case only (1-based `case`), or on all with `None`.
#[cfg(feature = "script")]
pub fn grade_rhai_case(
    ex: &Exercise,
    source: &str,
    limits: judge::script::Limits,
    deadline: Option<judge::script::Deadline>,
    case: Option<usize>,
) -> (judge::Verdict, Vec<String>) {
    let (v, _) = grade_rhai_recorded(ex, source, limits, deadline, case);
    let out = printed_by_case(&v);
    (v, out)
}

/// [`grade_rhai_case`]'s verdict, which names the known mistake the results
/// match ([`mistakes`]), and the code's outcome on each case graded, in order.
#[cfg(feature = "script")]
pub fn grade_rhai_recorded(
    ex: &Exercise,
    source: &str,
    limits: judge::script::Limits,
    deadline: Option<judge::script::Deadline>,
    case: Option<usize>,
) -> (
    judge::Verdict,
    Vec<Result<judge::Value, judge::SolverError>>,
) {
    let spec = ex.spec();
    let starters = std::iter::once(ex.starter_rhai).chain(ex.starter_rhai_zh);
    if starters.map(normalize).any(|s| s == normalize(source)) {
        return (
            judge::Verdict::without_cases(&spec, judge::SolverError::NotAttempted),
            Vec::new(),
        );
    }
    let late = deadline.clone();
    match judge::script::RhaiSolver::new(source, ex.function, ex.params.len(), limits, deadline) {
        Err(e) => (judge::Verdict::without_cases(&spec, e), Vec::new()),
        Ok(mut solver) => {
            let mut rec = judge::Recorder::new(&mut solver);
            let mut v = match case {
                Some(i) => judge::grade_case(&spec, &mut rec, i),
                None => judge::grade(&spec, &mut rec),
            };
            let outcomes = rec.outcomes;
            mistakes::name(ex, &mut v, &outcomes, judge::Answer::Rhai);
            // The smallest failing input, searched for with the same solver:
            // bounded by calls (the same answer in the browser and the CLI)
            // and by the grading's own deadline.
            let out_of_time = move || late.as_ref().is_some_and(|d| d());
            let budget = judge::shrink::Budget {
                out_of_time: &out_of_time,
                ..Default::default()
            };
            v.shrunk = judge::shrink::shrink(&spec, &mut solver, &v, &budget).map(Box::new);
            (v, outcomes)
        }
    }
}

/// What a verdict's cases printed, one `case N:` heading per case that printed.
pub fn printed_by_case(v: &judge::Verdict) -> Vec<String> {
    let mut out = Vec::new();
    for c in &v.cases {
        if !c.printed.is_empty() {
            out.push(format!("case {}:", c.index));
            out.extend(c.printed.iter().map(|l| format!("  {l}")));
        }
        if c.printed_withheld > 0 {
            out.push(format!(
                "case {} (hidden): {} printed line(s) withheld",
                c.index, c.printed_withheld
            ));
        }
    }
    out
}

#[cfg(feature = "script")]
fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
