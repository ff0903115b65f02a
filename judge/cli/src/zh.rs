//! The command line in Chinese (`--lang zh` or a Chinese locale): the words
//! clap adds itself (`frame`: "Usage:", the headings, the help and version
//! flags, the `help` command, defaults) and clap's errors about a command line
//! (`error`). The CLI's own texts come from `locales/zh.json` (`words`).

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Command};

/// The command (its own texts already in Chinese) built, with clap's words in
/// Chinese too (clap adds its flags and the `help` command while building, and
/// `frame` words those too).
pub fn command(mut cmd: Command) -> Command {
    cmd.build();
    frame(&mut cmd);
    cmd
}

/// Words what clap adds itself, in this command and every one below it. The
/// template writes the headings (clap's `{all-args}` would write "Commands:",
/// "Arguments:" and "Options:"), only those of the parts the command has.
fn frame(cmd: &mut Command) {
    let mut template = String::from("{before-help}{about-with-newline}\n用法：{usage}");
    let shown = |a: &&Arg| !a.is_hide_set();
    for (has, part) in [
        (
            cmd.get_subcommands().any(|c| !c.is_hide_set()),
            "命令：\n{subcommands}",
        ),
        (
            cmd.get_positionals().any(|a| shown(&a)),
            "参数：\n{positionals}",
        ),
        (
            cmd.get_arguments().any(|a| !a.is_positional() && shown(&a)),
            "选项：\n{options}",
        ),
    ] {
        if has {
            template += "\n\n";
            template += part;
        }
    }
    template += "{after-help}";
    let worded = std::mem::take(cmd)
        .help_template(template)
        .mut_args(frame_arg);
    *cmd = worded;
    for sub in cmd.get_subcommands_mut() {
        if sub.get_name() == "help" {
            *sub = std::mem::take(sub).about("显示本帮助，或所给命令的帮助");
        }
        frame(sub);
    }
}

/// clap's own help texts of an argument, and its possible values and default
/// written into its help ("[默认：10]" for "[default: 10]").
fn frame_arg(a: Arg) -> Arg {
    let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
    let help = match help.as_str() {
        "Print help" => "显示帮助".to_owned(),
        "Print help (see more with '--help')" => "显示帮助（'--help' 显示完整说明）".to_owned(),
        "Print version" => "显示版本".to_owned(),
        "Print help for the subcommand(s)" => "显示这些命令的帮助".to_owned(),
        _ => help,
    };
    let possible: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect();
    let (a, help) = if possible.is_empty() || a.is_hide_possible_values_set() {
        (a, help)
    } else {
        let help = format!("{help} [可取的值：{}]", possible.join(", "));
        (a.hide_possible_values(true), help)
    };
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if defaults.is_empty() || a.is_hide_default_value_set() || !a.get_action().takes_values() {
        return a.help(help);
    }
    a.help(format!("{help} [默认：{}]", defaults.join(", ")))
        .hide_default_value(true)
}

/// clap's error about a command line, in Chinese; `None` for help and version
/// output (not errors) and for the rare kinds not worded here, which keep
/// clap's English.
pub fn error(e: &clap::Error) -> Option<String> {
    let text = |k| e.get(k).map(value);
    let quoted = |k| text(k).map(|v| format!("'{v}'")).unwrap_or_default();
    let head = match e.kind() {
        ErrorKind::UnknownArgument => format!("不认识的参数 {}", quoted(ContextKind::InvalidArg)),
        ErrorKind::InvalidSubcommand => {
            format!("没有 {} 这个命令", quoted(ContextKind::InvalidSubcommand))
        }
        ErrorKind::MissingRequiredArgument => format!(
            "缺少必需的参数：{}",
            text(ContextKind::InvalidArg).unwrap_or_default()
        ),
        ErrorKind::ArgumentConflict => match text(ContextKind::PriorArg) {
            Some(prior) if prior == text(ContextKind::InvalidArg).unwrap_or_default() => {
                format!("参数 '{prior}' 只能给一次")
            }
            Some(prior) => format!(
                "参数 {} 不能和 '{prior}' 一起用",
                quoted(ContextKind::InvalidArg)
            ),
            None => format!("参数 {} 与其他参数冲突", quoted(ContextKind::InvalidArg)),
        },
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
            let why = match e.kind() {
                ErrorKind::ValueValidation => std::error::Error::source(e)
                    .map(|s| format!("：{}", cause(&s.to_string())))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            format!(
                "{} 的值 {} 不对{why}",
                quoted(ContextKind::InvalidArg),
                quoted(ContextKind::InvalidValue)
            )
        }
        ErrorKind::NoEquals => {
            format!("参数 {} 的值要用 '=' 连写", quoted(ContextKind::InvalidArg))
        }
        ErrorKind::MissingSubcommand => "缺少命令".to_owned(),
        _ => return None,
    };
    let mut out = format!("错误：{head}\n");
    if let Some(valid) = text(ContextKind::ValidValue) {
        out += &format!("  [可取的值：{valid}]\n");
    }
    for k in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ] {
        if let Some(s) = text(k) {
            out += &format!("\n  提示：是不是想用 '{s}'？\n");
        }
    }
    if let Some(usage) = text(ContextKind::Usage) {
        let usage = usage.trim();
        out += &format!(
            "\n用法：{}\n",
            usage.strip_prefix("Usage:").unwrap_or(usage).trim()
        );
    }
    out += "\n更多信息请看 '--help'。\n";
    Some(out)
}

/// A context value as plain text (a list joined with commas).
fn value(v: &ContextValue) -> String {
    match v {
        ContextValue::Strings(xs) => xs.join(", "),
        ContextValue::StyledStrs(xs) => xs
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// What a value parser said, in Chinese where it is one of ours or the
/// standard library's number errors.
fn cause(english: &str) -> String {
    match english {
        "invalid float literal" => "不是一个数".to_owned(),
        "invalid digit found in string" => "不是一个整数".to_owned(),
        "cannot parse integer from empty string" | "cannot parse float from empty string" => {
            "是空的".to_owned()
        }
        "number too large to fit in target type" => "太大了".to_owned(),
        _ => match english
            .strip_prefix("unknown language `")
            .and_then(|r| r.split_once('`'))
        {
            Some((tag, _)) => format!("没有 '{tag}' 这种语言（用 zh 或 en）"),
            None => english.to_owned(),
        },
    }
}
