//! What the judge tells people, kept as structure and written out in either
//! language: a verdict's [`Finding`], a mismatch's [`Reason`], a sandbox's
//! [`LimitHit`], the judge's own account of an error ([`CodeError`]). The English texts are the ones [`Verdict::message`] and
//! [`CaseResult::error`] carry; the Chinese ones are written from the same
//! structure, never translated from the English after the fact. Texts that come
//! from elsewhere (Rhai's or the compiler's own messages) are kept verbatim.

use serde::{Deserialize, Serialize};

use crate::{Answer, CaseResult, Lang, Mismatch, SolverError, Status, Value, Verdict};

/// What the judge says, one type per message: `say.<lang>.toml` compiled by
/// build.rs (the `catalog` crate).
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words.rs"));
}

/// What a verdict, or one case of it, says happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    /// Every case passed.
    AllPassed {
        /// Cases in all.
        total: usize,
    },
    /// The one case graded alone passed.
    CasePassed {
        /// Its 1-based number.
        case: usize,
    },
    /// The starter is untouched, or `todo` was reached on every case.
    NotAttempted,
    /// A shown case returned a wrong value.
    WrongValue {
        /// 1-based case number.
        case: usize,
        /// The call, e.g. `attended(4095, 4, 512, 128)`.
        call: String,
        /// What the code returned, as shown.
        got: String,
        /// What the reference returned, as shown.
        expected: String,
        /// Where inside the value they first differ (empty for the whole value).
        path: String,
        /// How they differ.
        reason: Reason,
    },
    /// A hidden case returned a wrong value.
    HiddenWrong {
        /// 1-based case number.
        case: usize,
    },
    /// The code returned a value of the wrong type.
    WrongType {
        /// 1-based case number.
        case: usize,
        /// The function's name.
        function: String,
        /// The type the reference returns.
        expected: String,
        /// The type the code returned.
        got: String,
        /// The language of the code, which the conversion tip is worded for.
        #[serde(default, skip_serializing_if = "Answer::is_rhai")]
        answer: Answer,
    },
    /// The code did not compile, raised an error or hit a limit.
    Raised {
        /// The case it happened on; none when the code could not be loaded.
        case: Option<usize>,
        /// What happened, with the engine's own text.
        error: SolverError,
    },
    /// A hidden case raised an error, whose text is withheld.
    HiddenError {
        /// 1-based case number.
        case: usize,
    },
    /// `todo` was reached on this case (and not on all of them).
    Todo {
        /// 1-based case number.
        case: usize,
    },
    /// The reference solution itself failed: a bug in the book, not the learner's.
    ReferenceFailed {
        /// 1-based case number.
        case: usize,
        /// The reference's error.
        error: String,
    },
}

impl Finding {
    /// The sentence for people in `lang`. In English it is exactly the verdict's
    /// `message` (or the case's `error`).
    pub fn text_in(&self, lang: Lang) -> String {
        use Finding as F;
        use words::finding as w;
        match self {
            F::AllPassed { total } => w::all_passed { total }.text(lang),
            F::CasePassed { case } => w::case_passed { case }.text(lang),
            F::NotAttempted => SolverError::NotAttempted.message_in(lang),
            F::WrongValue {
                case,
                call,
                got,
                expected,
                path,
                reason,
            } => {
                let at = if path.is_empty() {
                    String::new()
                } else {
                    w::at_path { path }.text(lang)
                };
                w::wrong_value {
                    case,
                    call,
                    got,
                    expected,
                    at,
                    reason: reason.text_in(lang),
                }
                .text(lang)
            }
            F::HiddenWrong { case } => w::hidden_wrong { case }.text(lang),
            F::WrongType {
                case,
                function,
                expected,
                got,
                answer,
            } => w::wrong_type {
                case,
                function,
                expected: answer.type_word(expected),
                got: answer.type_word(got),
                tip: conversion_tip(expected, got, *answer, lang),
            }
            .text(lang),
            F::Raised { case: None, error } => error.message_in(lang),
            F::Raised {
                case: Some(case),
                error,
            } => w::raised {
                case,
                error: error.message_in(lang),
            }
            .text(lang),
            F::HiddenError { case } => w::hidden_error { case }.text(lang),
            F::Todo { case } => w::todo { case }.text(lang),
            F::ReferenceFailed { case, error } => w::reference_failed { case, error }.text(lang),
        }
    }
}

/// How a value differs from the expected one, at the place a [`Mismatch`] names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Two arrays of different lengths.
    Length {
        /// Elements expected.
        expected: usize,
        /// Elements returned.
        got: usize,
    },
    /// A key of the expected map is missing.
    MissingKey {
        /// The key.
        key: String,
    },
    /// The returned map has a key the expected one has not.
    UnexpectedKey {
        /// The key.
        key: String,
    },
    /// Values of different types.
    Type {
        /// The expected type.
        expected: String,
        /// The returned type.
        got: String,
    },
    /// Two numbers differ by more than the tolerance.
    NumbersDiffer,
    /// Two values of the same type differ (strings, booleans).
    ValuesDiffer,
}

impl Reason {
    /// Why `got` does not match `want` at the place where the comparison
    /// stopped: the same rule, in the same order, as [`crate::compare`].
    pub fn of(got: &Value, want: &Value) -> Reason {
        match (want, got) {
            (Value::Int(_), Value::Int(_)) | (Value::Float(_), Value::Int(_) | Value::Float(_)) => {
                Reason::NumbersDiffer
            }
            (Value::Array(w), Value::Array(g)) if w.len() != g.len() => Reason::Length {
                expected: w.len(),
                got: g.len(),
            },
            (Value::Map(w), Value::Map(g)) => {
                if let Some(k) = w.keys().find(|k| !g.contains_key(*k)) {
                    Reason::MissingKey { key: k.clone() }
                } else if let Some(k) = g.keys().find(|k| !w.contains_key(*k)) {
                    Reason::UnexpectedKey { key: k.clone() }
                } else {
                    Reason::ValuesDiffer
                }
            }
            (w, g) if w.type_name() != g.type_name() => Reason::Type {
                expected: w.type_name().to_owned(),
                got: g.type_name().to_owned(),
            },
            _ => Reason::ValuesDiffer,
        }
    }

    /// The reason in `lang`: `values differ`, `expected 3 elements, got 2`, …
    pub fn text_in(&self, lang: Lang) -> String {
        use Reason as R;
        use words::reason as w;
        match self {
            R::Length { expected, got } => w::length { expected, got }.text(lang),
            R::MissingKey { key } => w::missing_key { key }.text(lang),
            R::UnexpectedKey { key } => w::unexpected_key { key }.text(lang),
            R::Type { expected, got } => w::wrong_type { expected, got }.text(lang),
            R::NumbersDiffer => w::numbers_differ.text(lang),
            R::ValuesDiffer => w::values_differ.text(lang),
        }
    }
}

/// A limit the book's own sandbox or the judge set, and how it was hit.
/// (Limits Rhai reports in its own words are [`SolverError::Limit`].)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitHit {
    /// The wall-clock deadline of a Rhai run passed.
    Time,
    /// Too many Rhai operations.
    Operations,
    /// Function calls nested too deeply.
    CallDepth,
    /// A string, array or map grew too large; `what` is Rhai's description.
    Size {
        /// Which value, in Rhai's words.
        what: String,
    },
    /// The script is longer than allowed.
    Source {
        /// Its size in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A solution file is larger than allowed.
    File {
        /// The file's name, e.g. `attended.rhai`.
        file: String,
        /// Its size in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// The script defines too many functions.
    Functions {
        /// How many it may define.
        limit: usize,
    },
    /// Expressions nested too deeply.
    ExprDepth {
        /// Where, when Rhai says: line and column.
        at: Option<(usize, usize)>,
        /// The deepest nesting allowed.
        limit: usize,
    },
    /// Host functions were asked for more native work than a run may do.
    Work {
        /// The function whose call went over.
        function: String,
        /// Units asked for in all.
        used: u64,
        /// The limit per run.
        limit: u64,
    },
    /// A Rust solution's process ran out of time.
    ProcessTime {
        /// The time allowed for all cases, in seconds.
        seconds: f64,
        /// The case that was running.
        case: usize,
    },
    /// A Rust solution's process ran out of memory.
    Memory {
        /// The memory allowed, in MiB.
        mib: u64,
        /// The case that was running.
        case: usize,
    },
    /// A Rust solution's process overflowed its stack.
    StackOverflow {
        /// The case that was running.
        case: usize,
    },
}

impl LimitHit {
    /// What was exceeded, in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        use LimitHit as L;
        use words::limit as w;
        match self {
            L::Time => w::time.text(lang),
            L::Operations => w::operations.text(lang),
            L::CallDepth => w::call_depth.text(lang),
            L::Size { what } => w::size { what }.text(lang),
            L::Source { bytes, limit } => w::source { bytes, limit }.text(lang),
            L::File { file, bytes, limit } => w::file { file, bytes, limit }.text(lang),
            L::Functions { limit } => w::functions { limit }.text(lang),
            L::ExprDepth { at, limit } => {
                let at = at.map_or(String::new(), |(line, column)| {
                    w::expr_at { line, column }.text(lang)
                });
                w::expr_depth { at, limit }.text(lang)
            }
            L::Work {
                function,
                used,
                limit,
            } => w::work {
                function,
                used,
                limit,
            }
            .text(lang),
            L::ProcessTime { seconds, case } => w::process_time { seconds, case }.text(lang),
            L::Memory { mib, case } => w::memory { mib, case }.text(lang),
            L::StackOverflow { case } => w::stack_overflow { case }.text(lang),
        }
    }
}

/// A Rhai error kept as data, so that each language can word it. Rhai's own
/// text is English: [`ScriptFault::english`] is the whole message as English
/// readers see it, and [`ScriptFault::fault`] the kinds a learner meets most,
/// worded in Chinese by [`ScriptFault::text_in`] (anything else keeps Rhai's
/// words behind a Chinese lead-in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptFault {
    /// Found while parsing (a syntax error), else while running.
    pub parse: bool,
    /// Line and column, when Rhai gives them.
    pub at: Option<(usize, usize)>,
    /// What went wrong.
    pub fault: Fault,
    /// The message in English, exactly as the judge has always worded it.
    pub english: String,
    /// What a Python programmer most likely meant, when the judge can tell
    /// (`script::teach`): said after the message in each language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tip: Option<Box<Tip>>,
}

/// A note for a learner who writes Rhai as they would write Python (#27).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tip {
    /// A Python function that Rhai spells otherwise: `range(n)` is `0..n`.
    Python {
        /// The name called (`range`, `float`, `ceil`, …).
        name: String,
    },
    /// Names that exist and are close to the one called.
    Similar {
        /// The name called.
        name: String,
        /// The closest names that exist, best first.
        names: Vec<String>,
    },
    /// `//` on a line with code before it: in Rhai it starts a comment.
    SlashComment {
        /// The line.
        line: usize,
    },
}

impl Tip {
    /// The note in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        use words::tip as w;
        match self {
            Tip::Python { name } => python_tip(name).map_or_else(String::new, |m| m.text(lang)),
            Tip::Similar { name: _, names } => {
                let names = names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(w::similar_sep.as_str(lang));
                w::similar { names }.text(lang)
            }
            Tip::SlashComment { line } => w::slash_comment { line }.text(lang),
        }
    }
}

/// After a wrong return type, the conversion a learner most likely missed
/// (#27): a float where an int is due, or an int where a float is.
fn conversion_tip(expected: &str, got: &str, answer: Answer, lang: Lang) -> &'static str {
    use words::tip as w;
    match (answer, expected, got) {
        (Answer::Rhai, "int", "float") => w::rhai_to_int.as_str(lang),
        (Answer::Rhai, "float", "int") => w::rhai_to_float.as_str(lang),
        (Answer::Python, "int", "float") => w::python_to_int.as_str(lang),
        (Answer::Python, "float", "int") => w::python_to_float.as_str(lang),
        // Rust's types are checked by its compiler; nothing to teach there.
        _ => "",
    }
}

/// What Rhai writes for Python's `name`, for the names of
/// `script::PYTHON_NAMES`; `None` for any other.
pub fn python_tip(name: &str) -> Option<&'static dyn words::Message> {
    use words::python as w;
    Some(match name {
        "range" => &w::range,
        "float" => &w::float,
        "ceil" => &w::ceil,
        "sum" => &w::sum,
        "append" => &w::append,
        "max" | "min" => &w::max_min,
        "pow" => &w::pow,
        "str" => &w::to_str,
        "enumerate" => &w::enumerate,
        "zip" => &w::zip,
        _ => return None,
    })
}

/// What a Rhai error says, for the kinds worded in every language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// The script ends too soon (a bracket or brace left open).
    Incomplete,
    /// A token is missing here.
    Expected {
        /// The token, as Rhai names it (`)`, `;`, `}`).
        token: String,
    },
    /// An expression is missing here.
    ExpressionExpected,
    /// A character or word that does not belong here.
    BadInput {
        /// The input.
        input: String,
    },
    /// A string with no closing quote.
    UnterminatedString,
    /// A reserved word or symbol used as a name.
    Reserved {
        /// The word.
        word: String,
    },
    /// A function defined inside a block or another function.
    NestedFunction,
    /// The same function defined twice.
    DuplicateFunction {
        /// Its name.
        function: String,
        /// Its number of parameters.
        params: usize,
    },
    /// `break` or `continue` outside a loop.
    BreakOutsideLoop,
    /// A variable used before it is defined.
    UnknownVariable {
        /// Its name.
        name: String,
    },
    /// A call that matches no function (name, number or types of arguments).
    UnknownFunction {
        /// The call as Rhai writes it (`foo (i64, f64)`).
        call: String,
    },
    /// A constant assigned to.
    ConstantAssigned {
        /// Its name (may be empty).
        name: String,
    },
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// An index past the end of an array or a string.
    OutOfBounds {
        /// The length.
        len: usize,
        /// The index used.
        index: i64,
    },
    /// A value of one type where another was needed.
    WrongType {
        /// The type needed.
        expected: String,
        /// The type found.
        actual: String,
    },
    /// Indexing a value that has no indexer.
    NotIndexable {
        /// Its type.
        type_name: String,
    },
    /// `for` over something that cannot be iterated.
    NotIterable,
    /// A property a map or value does not have.
    NoProperty {
        /// The property.
        name: String,
    },
    /// `throw` with this value.
    Thrown {
        /// The value, as Rhai prints it.
        value: String,
    },
    /// The function returned a value the judge cannot compare.
    Uncomparable {
        /// Its type.
        type_name: String,
    },
    /// Any other error: only Rhai's English words.
    Other {
        /// Rhai's description, without the position.
        text: String,
    },
}

impl ScriptFault {
    /// The message in `lang`: in English [`ScriptFault::english`] (Rhai's
    /// words), then the tip if there is one.
    pub fn text_in(&self, lang: Lang) -> String {
        use words::fault as w;
        let tip = self
            .tip
            .as_ref()
            .map_or_else(String::new, |t| format!(" {}", t.text_in(lang)));
        if lang == Lang::En {
            return format!("{}{tip}", self.english);
        }
        let kind = if self.parse {
            w::parse.text(lang)
        } else {
            w::run.text(lang)
        };
        let at = match self.at {
            Some((line, column)) => w::at { line, column }.text(lang),
            None => String::new(),
        };
        w::whole {
            kind,
            at,
            fault: self.fault.text_in(lang),
            tip,
        }
        .text(lang)
    }
}

impl Fault {
    /// The judge's wording of the fault in `lang` (English readers get Rhai's
    /// own words instead, [`ScriptFault::english`]).
    fn text_in(&self, lang: Lang) -> String {
        use words::fault as w;
        match self {
            Fault::Incomplete => w::incomplete.text(lang),
            Fault::Expected { token } => w::expected { token }.text(lang),
            Fault::ExpressionExpected => w::expression_expected.text(lang),
            Fault::BadInput { input } => w::bad_input { input }.text(lang),
            Fault::UnterminatedString => w::unterminated_string.text(lang),
            Fault::Reserved { word } => w::reserved { word }.text(lang),
            Fault::NestedFunction => w::nested_function.text(lang),
            Fault::DuplicateFunction { function, params } => {
                w::duplicate_function { function, params }.text(lang)
            }
            Fault::BreakOutsideLoop => w::break_outside_loop.text(lang),
            Fault::UnknownVariable { name } => w::unknown_variable { name }.text(lang),
            Fault::UnknownFunction { call } => w::unknown_function { call }.text(lang),
            Fault::ConstantAssigned { name } if name.is_empty() => {
                w::constant_assigned_unnamed.text(lang)
            }
            Fault::ConstantAssigned { name } => w::constant_assigned { name }.text(lang),
            Fault::DivisionByZero => w::division_by_zero.text(lang),
            Fault::OutOfBounds { len, index } => w::out_of_bounds { len, index }.text(lang),
            Fault::WrongType { expected, actual } => w::wrong_type { expected, actual }.text(lang),
            Fault::NotIndexable { type_name } => w::not_indexable { type_name }.text(lang),
            Fault::NotIterable => w::not_iterable.text(lang),
            Fault::NoProperty { name } => w::no_property { name }.text(lang),
            Fault::Thrown { value } => w::thrown { value }.text(lang),
            Fault::Uncomparable { type_name } if type_name == "range" => {
                w::uncomparable_range.text(lang)
            }
            Fault::Uncomparable { type_name } => w::uncomparable { type_name }.text(lang),
            Fault::Other { text } => w::other { text }.text(lang),
        }
    }
}

/// A compile or run error the judge itself describes (not the compiler's or the
/// engine's words, which are [`SolverError::Compile`] and [`SolverError::Runtime`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeError {
    /// The script defines no function of that name.
    MissingFunction {
        /// The function to write.
        function: String,
        /// Its number of parameters.
        arity: usize,
    },
    /// The function takes the wrong number of parameters.
    WrongArity {
        /// The function.
        function: String,
        /// The parameters it must take.
        arity: usize,
        /// The parameters it takes.
        found: usize,
    },
    /// A solution file is not UTF-8 text.
    NotUtf8 {
        /// The file's name.
        file: String,
        /// The offset of the first invalid byte.
        offset: usize,
        /// Its line (1-based).
        line: usize,
    },
    /// The Rust practice package does not compile, for reasons no single
    /// exercise owns (its errors are shown once, apart).
    PackageBroken {
        /// The compiler's first error line.
        first: String,
    },
    /// This exercise's Rust module does not compile; the others were graded
    /// without it.
    ModuleBroken {
        /// The exercise's slug (the module is `src/<slug>.rs`).
        slug: String,
        /// The compiler's errors, verbatim.
        errors: String,
    },
    /// The Rust code panicked.
    Panicked {
        /// `file:line:column`, when known.
        at: Option<String>,
        /// The panic's message, verbatim.
        message: String,
    },
    /// The process was stopped by a signal.
    Signal {
        /// The signal's name, e.g. `SIGSEGV`.
        signal: String,
        /// The case that was running.
        case: usize,
    },
    /// The process exited before answering.
    Exited {
        /// Its exit status.
        code: i32,
        /// The case it did not answer.
        case: usize,
    },
    /// The process ended (no status) before answering.
    Ended {
        /// The case it did not answer.
        case: usize,
    },
    /// The judge lost track of the process.
    Lost {
        /// The case it did not answer.
        case: usize,
    },
    /// A Python answer does not parse.
    PythonSyntax {
        /// The file, e.g. `attended.py`.
        file: String,
        /// Where: line and column (1-based).
        line: usize,
        /// The column.
        column: usize,
        /// Python's message, e.g. `SyntaxError: invalid syntax`.
        message: String,
    },
    /// A Python answer defines no function of that name.
    MissingDef {
        /// The function to write.
        function: String,
        /// Its number of parameters.
        arity: usize,
    },
    /// Python code raised an exception.
    Exception {
        /// Its type, e.g. `ZeroDivisionError`.
        kind: String,
        /// Its message, verbatim (may be empty).
        message: String,
        /// The line of the learner's file it was raised from, when it was.
        line: Option<usize>,
    },
    /// Python code called `sys.exit` (or raised `SystemExit`).
    SysExit {
        /// The status it gave, as Python shows it.
        status: String,
    },
    /// A Python answer returned a value of a type the judge cannot compare.
    Unsupported {
        /// Its type's name, e.g. `generator`.
        type_name: String,
    },
    /// A Python answer returned an int that does not fit in 64 bits.
    IntTooBig {
        /// Its digits (the start of them when there are many).
        digits: String,
    },
    /// No Python could be started to grade a `.py` file.
    NoPython {
        /// The program tried, e.g. `python3`.
        tried: String,
        /// Why it could not run.
        reason: String,
    },
    /// The Python found is older than the judge supports.
    OldPython {
        /// Its version, e.g. `3.8.10`.
        version: String,
    },
}

impl CodeError {
    /// Whether this is a compile error (else a run error).
    pub fn is_compile(&self) -> bool {
        matches!(
            self,
            CodeError::MissingFunction { .. }
                | CodeError::WrongArity { .. }
                | CodeError::NotUtf8 { .. }
                | CodeError::PackageBroken { .. }
                | CodeError::ModuleBroken { .. }
                | CodeError::PythonSyntax { .. }
                | CodeError::MissingDef { .. }
        )
    }

    /// The error in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        use CodeError as C;
        use words::code as w;
        match self {
            C::MissingFunction { function, arity } => {
                w::missing_function { function, arity }.text(lang)
            }
            C::WrongArity {
                function,
                arity,
                found,
            } => w::wrong_arity {
                function,
                arity,
                found,
            }
            .text(lang),
            C::NotUtf8 { file, offset, line } => w::not_utf8 { file, offset, line }.text(lang),
            C::PackageBroken { first } => w::package_broken { first }.text(lang),
            C::ModuleBroken { slug, errors } => w::module_broken { slug, errors }.text(lang),
            C::Panicked {
                at: Some(at),
                message,
            } => w::panicked_at { at, message }.text(lang),
            C::Panicked { at: None, message } => w::panicked { message }.text(lang),
            C::Signal { signal, case } => {
                let why = match signal.as_str() {
                    "SIGABRT" => w::signal_abort.text(lang),
                    "SIGSEGV" => w::signal_segv.text(lang),
                    "SIGKILL" => w::signal_kill.text(lang),
                    _ => w::signal_other.text(lang),
                };
                w::signal { why, signal, case }.text(lang)
            }
            C::Exited { code, case } => w::exited { code, case }.text(lang),
            C::Ended { case } => w::ended { case }.text(lang),
            C::Lost { case } => w::lost { case }.text(lang),
            C::PythonSyntax {
                file,
                line,
                column,
                message,
            } => w::python_syntax {
                file,
                line,
                column,
                message,
            }
            .text(lang),
            C::MissingDef { function, arity } => w::missing_def { function, arity }.text(lang),
            C::Exception {
                kind,
                message,
                line,
            } => {
                let what = if message.is_empty() {
                    kind.clone()
                } else {
                    w::exception_what { kind, message }.text(lang)
                };
                match line {
                    Some(line) => w::exception_line { line, what }.text(lang),
                    None => w::exception { what }.text(lang),
                }
            }
            C::SysExit { status } => w::sys_exit { status }.text(lang),
            C::Unsupported { type_name } => {
                let fix = if type_name == "generator" {
                    w::unsupported_generator.as_str(lang)
                } else {
                    ""
                };
                w::unsupported { type_name, fix }.text(lang)
            }
            C::IntTooBig { digits } => w::int_too_big { digits }.text(lang),
            C::NoPython { tried, reason } => w::no_python { tried, reason }.text(lang),
            C::OldPython { version } => w::old_python { version }.text(lang),
        }
    }
}

impl SolverError {
    /// The error for people in `lang`. The engine's or compiler's own text is
    /// kept verbatim; in Chinese a few words before it say what kind of error
    /// it is. In English this is the text the verdict carries.
    pub fn message_in(&self, lang: Lang) -> String {
        use words::solver as w;
        match self {
            SolverError::NotAttempted => w::not_attempted.text(lang),
            SolverError::Compile(message) => w::compile { message }.text(lang),
            SolverError::Runtime(message) => w::runtime { message }.text(lang),
            SolverError::Limit(message) => w::limit { message }.text(lang),
            SolverError::Sandbox(hit) => hit.text_in(lang),
            SolverError::Code(e) => e.text_in(lang),
            SolverError::Script(f) => f.text_in(lang),
        }
    }

    /// The verdict status this error gives.
    pub fn status(&self) -> Status {
        match self {
            SolverError::NotAttempted => Status::NotAttempted,
            SolverError::Compile(_)
            | SolverError::Runtime(_)
            | SolverError::Code(_)
            | SolverError::Script(_) => Status::Error,
            SolverError::Limit(_) | SolverError::Sandbox(_) => Status::LimitExceeded,
        }
    }
}

impl Status {
    /// Short label in `lang`; in English the same as [`Status::label`].
    pub fn label_in(self, lang: Lang) -> &'static str {
        use words::status as w;
        match self {
            Status::Passed => w::passed.as_str(lang),
            Status::Failed => w::failed.as_str(lang),
            Status::Error => w::error.as_str(lang),
            Status::LimitExceeded => w::limit_exceeded.as_str(lang),
            Status::NotAttempted => w::not_attempted.as_str(lang),
        }
    }
}

impl Verdict {
    /// The one line for people, in `lang`; in English exactly [`Verdict::message`].
    pub fn message_in(&self, lang: Lang) -> String {
        self.finding.text_in(lang)
    }
}

impl CaseResult {
    /// The error this case raised, in `lang`; in English exactly
    /// [`CaseResult::error`]. `None` when the case raised none.
    pub fn error_in(&self, lang: Lang) -> Option<String> {
        match &self.problem {
            Some(f) => Some(f.text_in(lang)),
            // A result built without the structure has only its English text.
            None => self.error.clone(),
        }
    }
}

impl Mismatch {
    /// How the values differ: the structure behind [`Mismatch::reason`].
    pub fn why(&self) -> Reason {
        Reason::of(&self.got, &self.want)
    }

    /// [`Mismatch::reason`] in `lang`.
    pub fn reason_in(&self, lang: Lang) -> String {
        self.why().text_in(lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The English and the Chinese text of an error.
    fn both(e: SolverError) -> (String, String) {
        (e.message_in(Lang::En), e.message_in(Lang::Zh))
    }

    #[test]
    fn the_judges_own_errors_are_told_in_both_languages() {
        let module = SolverError::Code(CodeError::ModuleBroken {
            slug: "attended".into(),
            errors: "error[E0308]: mismatched types".into(),
        });
        assert_eq!(module.status(), Status::Error);
        assert_eq!(
            both(module),
            (
                "src/attended.rs does not compile (the other exercises were graded without it):\nerror[E0308]: mismatched types".into(),
                "src/attended.rs 无法编译（其余练习已撇开它单独评测）：\nerror[E0308]: mismatched types".into()
            )
        );
        let (en, zh) = both(SolverError::Code(CodeError::Panicked {
            at: Some("src/attended.rs:3:5".into()),
            message: "boom".into(),
        }));
        assert_eq!(en, "panicked at src/attended.rs:3:5: boom");
        assert_eq!(zh, "在 src/attended.rs:3:5 处 panic：boom");
        let (en, zh) = both(SolverError::Code(CodeError::Signal {
            signal: "SIGSEGV".into(),
            case: 4,
        }));
        assert_eq!(
            en,
            "the process crashed (segmentation fault) (SIGSEGV) in case 4"
        );
        assert_eq!(zh, "第 4 个用例：进程崩溃了（段错误）（SIGSEGV）");
        let (en, zh) = both(SolverError::Code(CodeError::NotUtf8 {
            file: "attended.rhai".into(),
            offset: 7,
            line: 2,
        }));
        assert_eq!(
            en,
            "attended.rhai is not UTF-8 text (invalid byte at offset 7, line 2); save it as UTF-8"
        );
        assert_eq!(
            zh,
            "attended.rhai 不是 UTF-8 文本（第 2 行、偏移 7 处有无效字节）；请用 UTF-8 编码保存"
        );
    }

    #[test]
    fn process_limits_and_foreign_texts() {
        let (en, zh) = both(SolverError::Sandbox(LimitHit::ProcessTime {
            seconds: 2.5,
            case: 3,
        }));
        assert_eq!(
            en,
            "time limit exceeded (2.5 s for all cases; case 3 was still running)"
        );
        assert_eq!(zh, "超出时间限制（所有用例共 2.5 秒；第 3 个用例仍在运行）");
        let (en, zh) = both(SolverError::Sandbox(LimitHit::Memory { mib: 64, case: 1 }));
        assert_eq!(en, "memory limit exceeded (64 MiB) in case 1");
        assert_eq!(zh, "第 1 个用例超出内存限制（64 MiB）");
        // Someone else's words are kept, with a few of ours before them.
        let (en, zh) = both(SolverError::Limit("the worker stopped".into()));
        assert_eq!(en, "the worker stopped");
        assert_eq!(zh, "超出限制：the worker stopped");
        let json = serde_json::to_string(&SolverError::Sandbox(LimitHit::Time)).unwrap();
        assert_eq!(json, r#"{"sandbox":"time"}"#);
    }

    #[test]
    fn python_errors_are_told_in_both_languages() {
        let code = |e| both(SolverError::Code(e));
        let (en, zh) = code(CodeError::Exception {
            kind: "ZeroDivisionError".into(),
            message: "division by zero".into(),
            line: Some(3),
        });
        assert_eq!(en, "line 3: ZeroDivisionError: division by zero");
        assert_eq!(zh, "第 3 行抛出了 ZeroDivisionError：division by zero");
        let (en, zh) = code(CodeError::Exception {
            kind: "StopIteration".into(),
            message: String::new(),
            line: None,
        });
        assert_eq!(en, "raised StopIteration");
        assert_eq!(zh, "抛出了 StopIteration");
        let syntax = CodeError::PythonSyntax {
            file: "attended.py".into(),
            line: 2,
            column: 5,
            message: "SyntaxError: invalid syntax".into(),
        };
        assert!(syntax.is_compile());
        let (en, zh) = code(syntax);
        assert_eq!(
            en,
            "attended.py, line 2, column 5: SyntaxError: invalid syntax"
        );
        assert_eq!(
            zh,
            "attended.py 第 2 行第 5 列有语法错误：SyntaxError: invalid syntax"
        );
        let (en, zh) = code(CodeError::MissingDef {
            function: "attended".into(),
            arity: 4,
        });
        assert_eq!(
            en,
            "no function `attended` found: define `def attended(...)` with 4 parameters"
        );
        assert_eq!(
            zh,
            "找不到函数 `attended`：请定义带 4 个参数的 `def attended(...)`"
        );
        let (en, zh) = code(CodeError::Unsupported {
            type_name: "generator".into(),
        });
        assert!(
            en.contains("(for a generator, return `list(...)` of it)"),
            "{en}"
        );
        assert!(zh.contains("生成器请用 `list(...)`"), "{zh}");
        let (en, _) = code(CodeError::Unsupported {
            type_name: "set".into(),
        });
        assert!(!en.contains("generator"), "{en}");
        for e in [
            CodeError::SysExit { status: "3".into() },
            CodeError::IntTooBig {
                digits: "1".repeat(20),
            },
            CodeError::NoPython {
                tried: "python3".into(),
                reason: "not found".into(),
            },
            CodeError::OldPython {
                version: "3.8.1".into(),
            },
        ] {
            let (en, zh) = code(e);
            assert!(
                !en.is_empty() && zh.chars().any(|c| c > '\u{2e80}'),
                "{en} / {zh}"
            );
        }
    }

    #[test]
    fn a_wrong_return_type_is_worded_for_the_answer_language() {
        let finding = |answer| Finding::WrongType {
            case: 2,
            function: "f".into(),
            expected: "int".into(),
            got: "float".into(),
            answer,
        };
        let rhai = finding(Answer::Rhai).text_in(Lang::En);
        assert!(rhai.contains("`.to_int()`"), "{rhai}");
        let py = finding(Answer::Python).text_in(Lang::En);
        assert!(py.contains("`//`") && !py.contains("to_int"), "{py}");
        assert!(finding(Answer::Python).text_in(Lang::Zh).contains("`//`"));
        let rust = finding(Answer::Rust).text_in(Lang::En);
        assert!(rust.ends_with("yours returned float"), "{rust}");
        let none = Finding::WrongType {
            case: 1,
            function: "f".into(),
            expected: "map".into(),
            got: "()".into(),
            answer: Answer::Python,
        };
        assert!(
            none.text_in(Lang::En)
                .ends_with("must return dict, yours returned None")
        );
        // Rhai's findings serialise as they did before answers had a language.
        let json = serde_json::to_string(&finding(Answer::Rhai)).unwrap();
        assert!(!json.contains("answer"), "{json}");
        let json = serde_json::to_string(&finding(Answer::Python)).unwrap();
        assert!(json.contains(r#""answer":"python""#), "{json}");
    }
}
