//! What the judge tells people, kept as structure and written out in either
//! language: a verdict's [`Finding`], a mismatch's [`Reason`], a sandbox's
//! [`LimitHit`], the judge's own account of an error ([`CodeError`]). The English texts are the ones [`Verdict::message`] and
//! [`CaseResult::error`] carry; the Chinese ones are written from the same
//! structure, never translated from the English after the fact. Texts that come
//! from elsewhere (Rhai's or the compiler's own messages) are kept verbatim.

use serde::{Deserialize, Serialize};

use crate::{Answer, CaseResult, Lang, Mismatch, SolverError, Status, Value, Verdict};

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
        match (self, lang) {
            (F::AllPassed { total }, Lang::En) => format!("all {total} cases passed"),
            (F::AllPassed { total }, Lang::Zh) => format!("全部 {total} 个用例通过"),
            (F::CasePassed { case }, Lang::En) => format!("case {case} passed"),
            (F::CasePassed { case }, Lang::Zh) => format!("第 {case} 个用例通过"),
            (F::NotAttempted, _) => SolverError::NotAttempted.message_in(lang),
            (
                F::WrongValue {
                    case,
                    call,
                    got,
                    expected,
                    path,
                    reason,
                },
                Lang::En,
            ) => {
                let at = if path.is_empty() {
                    String::new()
                } else {
                    format!(" at {path}")
                };
                format!(
                    "case {case}: {call} returned {got}, expected {expected}{at} ({})",
                    reason.text_in(lang)
                )
            }
            (
                F::WrongValue {
                    case,
                    call,
                    got,
                    expected,
                    path,
                    reason,
                },
                Lang::Zh,
            ) => {
                let at = if path.is_empty() {
                    String::new()
                } else {
                    format!("，差异在 {path}")
                };
                format!(
                    "第 {case} 个用例：{call} 返回 {got}，应为 {expected}{at}（{}）",
                    reason.text_in(lang)
                )
            }
            (F::HiddenWrong { case }, Lang::En) => {
                format!("case {case} (hidden) gave a wrong value")
            }
            (F::HiddenWrong { case }, Lang::Zh) => format!("第 {case} 个用例（隐藏）结果错误"),
            (
                F::WrongType {
                    case,
                    function,
                    expected,
                    got,
                    answer,
                },
                Lang::En,
            ) => format!(
                "case {case}: wrong return type: `{function}` must return {}, yours returned {}{}",
                answer.type_word(expected),
                answer.type_word(got),
                conversion_tip(expected, got, *answer, lang)
            ),
            (
                F::WrongType {
                    case,
                    function,
                    expected,
                    got,
                    answer,
                },
                Lang::Zh,
            ) => format!(
                "第 {case} 个用例：返回类型不对：`{function}` 应当返回 {}，你的代码返回了 {}{}",
                answer.type_word(expected),
                answer.type_word(got),
                conversion_tip(expected, got, *answer, lang)
            ),
            (F::Raised { case: None, error }, _) => error.message_in(lang),
            (
                F::Raised {
                    case: Some(case),
                    error,
                },
                Lang::En,
            ) => format!("case {case}: {}", error.message_in(lang)),
            (
                F::Raised {
                    case: Some(case),
                    error,
                },
                Lang::Zh,
            ) => format!("第 {case} 个用例：{}", error.message_in(lang)),
            (F::HiddenError { case }, Lang::En) => format!(
                "case {case} (hidden): the code raised an error (its message is withheld, as it could reveal the hidden input)"
            ),
            (F::HiddenError { case }, Lang::Zh) => format!(
                "第 {case} 个用例（隐藏）：代码出错了（错误信息不予显示，因为它可能透露隐藏的输入）"
            ),
            (F::Todo { case }, Lang::En) => {
                format!("case {case}: reached todo(): this case is not handled yet")
            }
            (F::Todo { case }, Lang::Zh) => {
                format!("第 {case} 个用例：执行到了 todo()，这个用例还没有处理")
            }
            (F::ReferenceFailed { case, error }, Lang::En) => {
                format!("reference solution failed on case {case}: {error}")
            }
            (F::ReferenceFailed { case, error }, Lang::Zh) => {
                format!("参考解在第 {case} 个用例上出错：{error}")
            }
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
        match (self, lang) {
            (R::Length { expected, got }, Lang::En) => {
                format!("expected {expected} elements, got {got}")
            }
            (R::Length { expected, got }, Lang::Zh) => {
                format!("应有 {expected} 个元素，实际有 {got} 个")
            }
            (R::MissingKey { key }, Lang::En) => format!("missing key `{key}`"),
            (R::MissingKey { key }, Lang::Zh) => format!("缺少键 `{key}`"),
            (R::UnexpectedKey { key }, Lang::En) => format!("unexpected key `{key}`"),
            (R::UnexpectedKey { key }, Lang::Zh) => format!("多出了键 `{key}`"),
            (R::Type { expected, got }, Lang::En) => format!("expected {expected}, got {got}"),
            (R::Type { expected, got }, Lang::Zh) => format!("应为 {expected} 类型，实际是 {got}"),
            (R::NumbersDiffer | R::ValuesDiffer, Lang::En) => "values differ".to_owned(),
            (R::NumbersDiffer, Lang::Zh) => "数值不同".to_owned(),
            (R::ValuesDiffer, Lang::Zh) => "值不同".to_owned(),
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
        match (self, lang) {
            (L::Time, Lang::En) => "time limit exceeded (the code ran too long)".to_owned(),
            (L::Time, Lang::Zh) => "超出时间限制（代码运行得太久）".to_owned(),
            (L::Operations, Lang::En) => "operation limit exceeded (an endless loop?)".to_owned(),
            (L::Operations, Lang::Zh) => "超出运算次数限制（是不是写成了死循环？）".to_owned(),
            (L::CallDepth, Lang::En) => "call depth limit exceeded (endless recursion?)".to_owned(),
            (L::CallDepth, Lang::Zh) => "超出调用深度限制（是不是无穷递归？）".to_owned(),
            (L::Size { what }, Lang::En) => format!("size limit exceeded: {what}"),
            (L::Size { what }, Lang::Zh) => format!("超出大小限制：{what}"),
            (L::Source { bytes, limit }, Lang::En) => {
                format!("source too large: {bytes} bytes, the limit is {limit} bytes")
            }
            (L::Source { bytes, limit }, Lang::Zh) => {
                format!("代码太长：{bytes} 字节，上限是 {limit} 字节")
            }
            (L::File { file, bytes, limit }, Lang::En) => {
                format!("{file} is too large: {bytes} bytes, the limit is {limit} bytes")
            }
            (L::File { file, bytes, limit }, Lang::Zh) => {
                format!("{file} 太大：{bytes} 字节，上限是 {limit} 字节")
            }
            (L::Functions { limit }, Lang::En) => {
                format!("too many functions: a script may define at most {limit}")
            }
            (L::Functions { limit }, Lang::Zh) => {
                format!("函数太多：一个脚本最多只能定义 {limit} 个函数")
            }
            (L::ExprDepth { at, limit }, Lang::En) => {
                let at = at.map_or(String::new(), |(l, c)| format!(" at line {l}, column {c}"));
                format!("expression nested too deeply{at} (the limit is {limit} levels)")
            }
            (L::ExprDepth { at, limit }, Lang::Zh) => {
                let at = at.map_or(String::new(), |(l, c)| format!("（第 {l} 行第 {c} 列）"));
                format!("表达式嵌套太深{at}，最多只能嵌套 {limit} 层")
            }
            (
                L::Work {
                    function,
                    used,
                    limit,
                },
                Lang::En,
            ) => format!(
                "work limit exceeded: calls to `{function}` and others asked for {used} units of work, the limit is {limit} per run"
            ),
            (
                L::Work {
                    function,
                    used,
                    limit,
                },
                Lang::Zh,
            ) => format!(
                "超出工作量限制：对 `{function}` 等函数的调用共需要 {used} 个单位的工作量，每次运行的上限是 {limit}"
            ),
            (L::ProcessTime { seconds, case }, Lang::En) => format!(
                "time limit exceeded ({seconds} s for all cases; case {case} was still running)"
            ),
            (L::ProcessTime { seconds, case }, Lang::Zh) => {
                format!("超出时间限制（所有用例共 {seconds} 秒；第 {case} 个用例仍在运行）")
            }
            (L::Memory { mib, case }, Lang::En) => {
                format!("memory limit exceeded ({mib} MiB) in case {case}")
            }
            (L::Memory { mib, case }, Lang::Zh) => {
                format!("第 {case} 个用例超出内存限制（{mib} MiB）")
            }
            (L::StackOverflow { case }, Lang::En) => {
                format!("stack overflow in case {case} (endless recursion?)")
            }
            (L::StackOverflow { case }, Lang::Zh) => {
                format!("第 {case} 个用例栈溢出（是不是无穷递归？）")
            }
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
        let zh = lang == Lang::Zh;
        match self {
            Tip::Python { name } => {
                let (en, cn) = python_names(name);
                if zh { cn.to_owned() } else { en.to_owned() }
            }
            Tip::Similar { name: _, names } => {
                let list = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>();
                if zh {
                    format!("是不是想用 {}？", list.join("、"))
                } else {
                    format!("Did you mean {}?", list.join(" or "))
                }
            }
            Tip::SlashComment { line } => {
                if zh {
                    format!(
                        "第 {line} 行的 `//` 在 Rhai 里是注释的开头，这一行其后的内容都被忽略了。Rhai 没有 `//` 运算符：整数相除直接写 `a / b`（两个整数相除会向零截断）。"
                    )
                } else {
                    format!(
                        "On line {line}, `//` starts a comment in Rhai, so the rest of that line is ignored. Rhai has no `//` operator: write `a / b` (between two ints it truncates toward zero)."
                    )
                }
            }
        }
    }
}

/// After a wrong return type, the conversion a Rhai learner most likely
/// missed (#27): a float where an int is due, or an int where a float is.
fn conversion_tip(expected: &str, got: &str, answer: Answer, lang: Lang) -> &'static str {
    match answer {
        Answer::Rhai => rhai_conversion_tip(expected, got, lang),
        Answer::Python => python_conversion_tip(expected, got, lang),
        // Rust's types are checked by its compiler; nothing to teach here.
        Answer::Rust => "",
    }
}

/// [`conversion_tip`] for a Python answer.
fn python_conversion_tip(expected: &str, got: &str, lang: Lang) -> &'static str {
    match (expected, got, lang) {
        ("int", "float", Lang::En) => {
            ". In Python `/` always gives a float (`6 / 3` is 2.0): divide whole numbers with `//`, or end with `math.floor(x)` or `math.ceil(x)`, which return ints."
        }
        ("int", "float", Lang::Zh) => {
            "。Python 的 `/` 总是得到浮点数（`6 / 3` 是 2.0）：整数相除用 `//`，或者最后用 `math.floor(x)`、`math.ceil(x)`，它们返回整数。"
        }
        ("float", "int", Lang::En) => ". Return `float(x)`.",
        ("float", "int", Lang::Zh) => "。返回 `float(x)`。",
        _ => "",
    }
}

/// [`conversion_tip`] for a Rhai answer.
fn rhai_conversion_tip(expected: &str, got: &str, lang: Lang) -> &'static str {
    match (expected, got, lang) {
        ("int", "float", Lang::En) => {
            ". In Rhai, `floor()`, `ceiling()`, `round()` and `int()` return floats: end with `.to_int()`, as in `x.floor().to_int()`."
        }
        ("int", "float", Lang::Zh) => {
            "。Rhai 的 `floor()`、`ceiling()`、`round()`、`int()` 返回的都是浮点数：最后加上 `.to_int()`，例如 `x.floor().to_int()`。"
        }
        ("float", "int", Lang::En) => {
            ". Convert with `.to_float()`. In Rhai `/` between two ints truncates (`7 / 2` is 3), so convert before you divide: `a.to_float() / b`."
        }
        ("float", "int", Lang::Zh) => {
            "。用 `.to_float()` 转换。Rhai 里两个整数相除会截断（`7 / 2` 得 3），所以要先转换再除：`a.to_float() / b`。"
        }
        _ => "",
    }
}

/// What Rhai writes for Python's `name`: (English, Chinese). Empty for a name
/// not in `script::PYTHON_NAMES`.
pub fn python_names(name: &str) -> (&'static str, &'static str) {
    match name {
        "range" => (
            "Rhai writes Python's `range(n)` as `0..n` (`for i in 0..n { … }`), and `range(a, b)` as `a..b`.",
            "Python 的 `range(n)` 在 Rhai 里写作 `0..n`（`for i in 0..n { … }`），`range(a, b)` 写作 `a..b`。",
        ),
        "float" => (
            "Rhai has no `float(x)`: write `x.to_float()`.",
            "Rhai 没有 `float(x)`：写 `x.to_float()`。",
        ),
        "ceil" => (
            "Rhai calls it `ceiling`: `x.ceiling()`, which returns a float (`x.ceiling().to_int()` for an int).",
            "Rhai 里叫 `ceiling`：`x.ceiling()`，返回浮点数（要整数就写 `x.ceiling().to_int()`）。",
        ),
        "sum" => (
            "Rhai has no `sum`: add in a loop (`let s = 0; for v in a { s += v; }`) or write `a.reduce(|s, v| s + v, 0)`.",
            "Rhai 没有 `sum`：用循环累加（`let s = 0; for v in a { s += v; }`），或写 `a.reduce(|s, v| s + v, 0)`。",
        ),
        "append" => (
            "To add one element to an array, write `a.push(x)`; `a.append(b)` appends a whole array `b`.",
            "往数组里加一个元素写 `a.push(x)`；`a.append(b)` 是把整个数组 `b` 接在后面。",
        ),
        "max" | "min" => (
            "Rhai's `max(a, b)` and `min(a, b)` take two numbers of the same type; for an array, loop over it or write `a.reduce(|m, v| max(m, v), a[0])`.",
            "Rhai 的 `max(a, b)`、`min(a, b)` 接受两个同类型的数；数组的最大最小值要用循环，或写 `a.reduce(|m, v| max(m, v), a[0])`。",
        ),
        "pow" => (
            "Rhai writes a power as `x ** y` (both ints, or both floats).",
            "Rhai 的乘方写作 `x ** y`（两边同为整数或同为浮点数）。",
        ),
        "str" => (
            "Rhai has no `str(x)`: write `x.to_string()`, or `` `${x}` `` in a string.",
            "Rhai 没有 `str(x)`：写 `x.to_string()`，或在字符串里写 `` `${x}` ``。",
        ),
        "enumerate" => (
            "Rhai has no `enumerate`: `for (v, i) in a { … }` gives each element with its index.",
            "Rhai 没有 `enumerate`：`for (v, i) in a { … }` 同时给出元素和下标。",
        ),
        "zip" => (
            "Rhai has no `zip`: loop over the indices, `for i in 0..a.len() { … a[i] … b[i] … }`.",
            "Rhai 没有 `zip`：按下标循环，`for i in 0..a.len() { … a[i] … b[i] … }`。",
        ),
        _ => ("", ""),
    }
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
    /// The message in `lang`: in English [`ScriptFault::english`], then the
    /// tip if there is one.
    pub fn text_in(&self, lang: Lang) -> String {
        let tip = self
            .tip
            .as_ref()
            .map_or_else(String::new, |t| format!(" {}", t.text_in(lang)));
        if lang == Lang::En {
            return format!("{}{tip}", self.english);
        }
        let kind = if self.parse {
            "语法错误"
        } else {
            "运行出错"
        };
        let at = match self.at {
            Some((line, col)) => format!("（第 {line} 行第 {col} 列）"),
            None => String::new(),
        };
        format!("{kind}{at}：{}{tip}", self.fault.text_zh())
    }
}

impl Fault {
    fn text_zh(&self) -> String {
        match self {
            Fault::Incomplete => "代码不完整（是不是少了右括号或右花括号？）".to_owned(),
            Fault::Expected { token } => format!("这里缺少 '{token}'"),
            Fault::ExpressionExpected => "这里缺少一个表达式".to_owned(),
            Fault::BadInput { input } => format!("这里不应出现 '{input}'"),
            Fault::UnterminatedString => "字符串缺少结尾的引号".to_owned(),
            Fault::Reserved { word } => format!("'{word}' 是保留字，不能用作名字"),
            Fault::NestedFunction => {
                "函数只能定义在最外层，不能写在代码块或另一个函数里".to_owned()
            }
            Fault::DuplicateFunction { function, params } => {
                format!("带 {params} 个参数的函数 {function} 已经定义过了")
            }
            Fault::BreakOutsideLoop => "break 和 continue 只能用在循环里".to_owned(),
            Fault::UnknownVariable { name } => format!("变量 {name} 没有定义"),
            Fault::UnknownFunction { call } => {
                format!("找不到函数 {call}（函数名、参数个数或参数类型不对？）")
            }
            Fault::ConstantAssigned { name } if name.is_empty() => "不能给常量赋值".to_owned(),
            Fault::ConstantAssigned { name } => format!("不能给常量 {name} 赋值"),
            Fault::DivisionByZero => "除数为零".to_owned(),
            Fault::OutOfBounds { len, index } => {
                format!("下标越界：长度为 {len} 的值没有下标 {index}")
            }
            Fault::WrongType { expected, actual } => {
                format!("类型不对：需要 {expected}，得到的是 {actual}")
            }
            Fault::NotIndexable { type_name } => format!("{type_name} 类型的值不能用下标访问"),
            Fault::NotIterable => "for 循环需要可以遍历的值（数组、区间或字符串）".to_owned(),
            Fault::NoProperty { name } => format!("没有属性 {name}"),
            Fault::Thrown { value } => format!("抛出了错误：{value}"),
            Fault::Uncomparable { type_name } if type_name == "range" => {
                "返回了一个区间（`a..b`），评测无法比较它：把它变成数组，\
                 `let a = []; for i in 0..3 { a.push(i); } a`"
                    .to_owned()
            }
            Fault::Uncomparable { type_name } => {
                format!("返回了 `{type_name}` 类型的值，评测无法比较它")
            }
            Fault::Other { text } => format!("{text}（Rhai 的原话）"),
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
        match (self, lang) {
            (C::MissingFunction { function, arity }, Lang::En) => format!(
                "no function `{function}` found: define `fn {function}(...)` with {arity} parameters"
            ),
            (C::MissingFunction { function, arity }, Lang::Zh) => {
                format!("找不到函数 `{function}`：请定义带 {arity} 个参数的 `fn {function}(...)`")
            }
            (
                C::WrongArity {
                    function,
                    arity,
                    found,
                },
                Lang::En,
            ) => format!("`{function}` must take {arity} parameters, yours takes {found}"),
            (
                C::WrongArity {
                    function,
                    arity,
                    found,
                },
                Lang::Zh,
            ) => format!("`{function}` 应当有 {arity} 个参数，你写的有 {found} 个"),
            (C::NotUtf8 { file, offset, line }, Lang::En) => format!(
                "{file} is not UTF-8 text (invalid byte at offset {offset}, line {line}); save it as UTF-8"
            ),
            (C::NotUtf8 { file, offset, line }, Lang::Zh) => format!(
                "{file} 不是 UTF-8 文本（第 {line} 行、偏移 {offset} 处有无效字节）；请用 UTF-8 编码保存"
            ),
            (C::PackageBroken { first }, Lang::En) => format!(
                "the practice package does not compile ({first}); its errors are shown once above"
            ),
            (C::PackageBroken { first }, Lang::Zh) => {
                format!("练习包无法编译（{first}）；编译器的报错已在上方列出一次")
            }
            (C::ModuleBroken { slug, errors }, Lang::En) => format!(
                "src/{slug}.rs does not compile (the other exercises were graded without it):\n{errors}"
            ),
            (C::ModuleBroken { slug, errors }, Lang::Zh) => {
                format!("src/{slug}.rs 无法编译（其余练习已撇开它单独评测）：\n{errors}")
            }
            (
                C::Panicked {
                    at: Some(at),
                    message,
                },
                Lang::En,
            ) => {
                format!("panicked at {at}: {message}")
            }
            (C::Panicked { at: None, message }, Lang::En) => format!("panicked: {message}"),
            (
                C::Panicked {
                    at: Some(at),
                    message,
                },
                Lang::Zh,
            ) => {
                format!("在 {at} 处 panic：{message}")
            }
            (C::Panicked { at: None, message }, Lang::Zh) => format!("panic：{message}"),
            (C::Signal { signal, case }, Lang::En) => {
                let why = match signal.as_str() {
                    "SIGABRT" => {
                        "the process aborted (std::process::abort, or a failed allocation?)"
                    }
                    "SIGSEGV" => "the process crashed (segmentation fault)",
                    "SIGKILL" => "the process was killed",
                    _ => "the process was stopped by a signal",
                };
                format!("{why} ({signal}) in case {case}")
            }
            (C::Signal { signal, case }, Lang::Zh) => {
                let why = match signal.as_str() {
                    "SIGABRT" => "进程中止了（调用了 std::process::abort，还是内存分配失败？）",
                    "SIGSEGV" => "进程崩溃了（段错误）",
                    "SIGKILL" => "进程被杀掉了",
                    _ => "进程被信号终止了",
                };
                format!("第 {case} 个用例：{why}（{signal}）")
            }
            (C::Exited { code, case }, Lang::En) => format!(
                "the process exited with status {code} before answering case {case} (does the code call std::process::exit?)"
            ),
            (C::Exited { code, case }, Lang::Zh) => format!(
                "进程在回答第 {case} 个用例之前就以状态 {code} 退出了（代码里调用了 std::process::exit 吗？）"
            ),
            (C::Ended { case }, Lang::En) => {
                format!("the process ended before answering case {case}")
            }
            (C::Ended { case }, Lang::Zh) => format!("进程在回答第 {case} 个用例之前就结束了"),
            (C::Lost { case }, Lang::En) => format!("the process was lost before case {case}"),
            (C::Lost { case }, Lang::Zh) => format!("在第 {case} 个用例之前失去了进程的踪迹"),
            (
                C::PythonSyntax {
                    file,
                    line,
                    column,
                    message,
                },
                Lang::En,
            ) => format!("{file}, line {line}, column {column}: {message}"),
            (
                C::PythonSyntax {
                    file,
                    line,
                    column,
                    message,
                },
                Lang::Zh,
            ) => format!("{file} 第 {line} 行第 {column} 列有语法错误：{message}"),
            (C::MissingDef { function, arity }, Lang::En) => format!(
                "no function `{function}` found: define `def {function}(...)` with {arity} parameters"
            ),
            (C::MissingDef { function, arity }, Lang::Zh) => {
                format!("找不到函数 `{function}`：请定义带 {arity} 个参数的 `def {function}(...)`")
            }
            (
                C::Exception {
                    kind,
                    message,
                    line,
                },
                _,
            ) => {
                let what = if message.is_empty() {
                    kind.clone()
                } else {
                    match lang {
                        Lang::En => format!("{kind}: {message}"),
                        Lang::Zh => format!("{kind}：{message}"),
                    }
                };
                match (line, lang) {
                    (Some(l), Lang::En) => format!("line {l}: {what}"),
                    (Some(l), Lang::Zh) => format!("第 {l} 行抛出了 {what}"),
                    (None, Lang::En) => format!("raised {what}"),
                    (None, Lang::Zh) => format!("抛出了 {what}"),
                }
            }
            (C::SysExit { status }, Lang::En) => {
                format!("the code called sys.exit({status}): return the value instead")
            }
            (C::SysExit { status }, Lang::Zh) => {
                format!("代码调用了 sys.exit({status})：请改为返回结果")
            }
            (C::Unsupported { type_name }, Lang::En) => {
                let fix = if type_name == "generator" {
                    " (for a generator, return `list(...)` of it)"
                } else {
                    ""
                };
                format!(
                    "returned a {type_name}, which the judge cannot compare: return an int, float, bool, str, list, dict with str keys, or None{fix}"
                )
            }
            (C::Unsupported { type_name }, Lang::Zh) => {
                let fix = if type_name == "generator" {
                    "（生成器请用 `list(...)` 转成列表再返回）"
                } else {
                    ""
                };
                format!(
                    "返回了 {type_name}，评测无法比较它：请返回 int、float、bool、str、list、键为 str 的 dict 或 None{fix}"
                )
            }
            (C::IntTooBig { digits }, Lang::En) => format!(
                "returned the int {digits}, which does not fit in 64 bits (the judge compares ints from -2^63 to 2^63 - 1)"
            ),
            (C::IntTooBig { digits }, Lang::Zh) => format!(
                "返回的整数 {digits} 超出了 64 位（评测比较的整数范围是 -2^63 到 2^63 - 1）"
            ),
            (C::NoPython { tried, reason }, Lang::En) => format!(
                "could not run `{tried}` to grade the .py files ({reason}): install Python 3.9 or newer, or name it in JUDGE_PYTHON"
            ),
            (C::NoPython { tried, reason }, Lang::Zh) => format!(
                "无法运行 `{tried}` 来评测 .py 文件（{reason}）：请安装 Python 3.9 或更新的版本，或用 JUDGE_PYTHON 指定"
            ),
            (C::OldPython { version }, Lang::En) => format!(
                "Python {version} is too old to grade .py files: the judge needs 3.9 or newer (JUDGE_PYTHON names another)"
            ),
            (C::OldPython { version }, Lang::Zh) => format!(
                "Python {version} 版本太旧，无法评测 .py 文件：评测需要 3.9 或更新的版本（可用 JUDGE_PYTHON 指定别的）"
            ),
        }
    }
}

impl SolverError {
    /// The error for people in `lang`. The engine's or compiler's own text is
    /// kept verbatim; in Chinese a few words before it say what kind of error
    /// it is. In English this is the text the verdict carries.
    pub fn message_in(&self, lang: Lang) -> String {
        match (self, lang) {
            (SolverError::NotAttempted, Lang::En) => "not attempted yet".to_owned(),
            (SolverError::NotAttempted, Lang::Zh) => "尚未作答".to_owned(),
            (
                SolverError::Compile(m) | SolverError::Runtime(m) | SolverError::Limit(m),
                Lang::En,
            ) => m.clone(),
            (SolverError::Compile(m), Lang::Zh) => format!("代码无法编译：{m}"),
            (SolverError::Runtime(m), Lang::Zh) => format!("运行出错：{m}"),
            (SolverError::Limit(m), Lang::Zh) => format!("超出限制：{m}"),
            (SolverError::Sandbox(hit), _) => hit.text_in(lang),
            (SolverError::Code(e), _) => e.text_in(lang),
            (SolverError::Script(f), _) => f.text_in(lang),
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
        match lang {
            Lang::En => self.label(),
            Lang::Zh => match self {
                Status::Passed => "通过",
                Status::Failed => "未通过",
                Status::Error => "出错",
                Status::LimitExceeded => "超出限制",
                Status::NotAttempted => "尚未作答",
            },
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
