//! The words clap adds itself, in the reader's language: `command` words a
//! help page's frame ("Usage:", the headings, the help and version flags, the
//! `help` command, possible values and defaults) from the catalogs' `[clap]`,
//! and `error` clap's errors about a command line from `[clap_error]`. clap
//! writes English itself, and the English texts of `[clap]` are its own, so an
//! English help page reads exactly as clap writes it. The command line's own
//! texts come from `[help]` (see `help`).

use clap::builder::styling::Style;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Command};
use judge::Lang;

use crate::words::{Message, cause, clap as w, clap_error as e, errors};

/// The language clap writes in itself.
const CLAPS: Lang = Lang::En;

/// The command (its own texts already in `lang`) built as parsing builds it,
/// with clap's words in `lang` too (clap adds its flags and the `help` command
/// while building, and `frame` words those too).
pub fn command(mut cmd: Command, lang: Lang) -> Command {
    frame(&mut cmd, lang);
    cmd
}

/// The same, built for a completion script: clap's `build` copies every
/// command under `help`, so that `judge help <TAB>` completes too.
pub fn completions_command(mut cmd: Command, lang: Lang) -> Command {
    cmd.build();
    frame(&mut cmd, lang);
    cmd
}

/// `text` in `style`, as clap writes a heading (the styles are left out where
/// the output has no colours).
fn styled(style: &Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// Words what clap adds itself, in this command and every one below it. The
/// template writes the headings (clap's `{all-args}` would write "Commands:",
/// "Arguments:" and "Options:" in English), only those of the parts the
/// command has, in clap's order and styles.
fn frame(cmd: &mut Command, lang: Lang) {
    // Builds the command (not its subcommands) as parsing does, which adds
    // clap's flags and `help` command; a built command is kept as it is.
    let _ = cmd.render_usage();
    let styles = cmd.get_styles();
    let (usage, header) = (*styles.get_usage(), *styles.get_header());
    let mut template = String::from("{before-help}{about-with-newline}\n");
    template += &w::usage_line {
        heading: styled(&usage, w::usage_heading.as_str(lang)),
        usage: "{usage}",
    }
    .text(lang);
    let shown = |a: &&Arg| !a.is_hide_set();
    for (has, heading, part) in [
        (
            cmd.get_subcommands().any(|c| !c.is_hide_set()),
            w::commands.as_str(lang),
            "{subcommands}",
        ),
        (
            cmd.get_positionals().any(|a| shown(&a)),
            w::arguments.as_str(lang),
            "{positionals}",
        ),
        (
            cmd.get_arguments().any(|a| !a.is_positional() && shown(&a)),
            w::options.as_str(lang),
            "{options}",
        ),
    ] {
        if has {
            template += "\n\n";
            template += &styled(&header, heading);
            template += "\n";
            template += part;
        }
    }
    template += "{after-help}";
    let worded = std::mem::take(cmd)
        .help_template(template)
        .mut_args(|a| frame_arg(a, lang));
    *cmd = worded;
    for sub in cmd.get_subcommands_mut() {
        if sub.get_name() == "help" {
            *sub = std::mem::take(sub).about(w::help_command.as_str(lang));
        }
        frame(sub, lang);
    }
}

/// clap's own help texts of an argument in `lang`, and its possible values and
/// default written into its help when `lang` words them otherwise than clap
/// ("[默认：10]" for "[default: 10]"; in English clap writes them itself).
fn frame_arg(a: Arg, lang: Lang) -> Arg {
    let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
    let claps = [
        w::print_help.as_str(CLAPS),
        w::print_help_more.as_str(CLAPS),
        w::print_version.as_str(CLAPS),
        w::print_help_subcommands.as_str(CLAPS),
    ];
    let ours = [
        w::print_help.as_str(lang),
        w::print_help_more.as_str(lang),
        w::print_version.as_str(lang),
        w::print_help_subcommands.as_str(lang),
    ];
    let mut help = match claps.iter().position(|&c| c == help) {
        Some(i) => ours[i].to_owned(),
        None => help,
    };
    let mut a = a;
    // clap's order: the default, then the possible values.
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && !a.is_hide_default_value_set() && a.get_action().takes_values() {
        let said = |lang| {
            w::default_value {
                values: defaults.join(w::defaults_sep.as_str(lang)),
            }
            .text(lang)
        };
        if said(lang) != said(CLAPS) {
            help = format!("{help} {}", said(lang));
            a = a.hide_default_value(true);
        }
    }
    let possible: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect();
    if !possible.is_empty() && !a.is_hide_possible_values_set() {
        let said = |lang| {
            w::possible_values {
                values: possible.join(w::values_sep.as_str(lang)),
            }
            .text(lang)
        };
        if said(lang) != said(CLAPS) {
            help = format!("{help} {}", said(lang));
            a = a.hide_possible_values(true);
        }
    }
    a.help(help)
}

/// clap's error about a command line, in `lang`; `None` in clap's own
/// language (clap writes it), for help and version output (not errors) and for
/// the rare kinds not worded here, which keep clap's English.
pub fn error(err: &clap::Error, lang: Lang) -> Option<String> {
    if lang == CLAPS {
        return None;
    }
    let text = |k| err.get(k).map(value);
    let quoted = |k| text(k).map(|v| format!("'{v}'")).unwrap_or_default();
    let arg = || quoted(ContextKind::InvalidArg);
    let head = match err.kind() {
        ErrorKind::UnknownArgument => e::unknown_argument { arg: arg() }.text(lang),
        ErrorKind::InvalidSubcommand => e::invalid_subcommand {
            command: quoted(ContextKind::InvalidSubcommand),
        }
        .text(lang),
        ErrorKind::MissingRequiredArgument => e::missing_arguments {
            args: text(ContextKind::InvalidArg).unwrap_or_default(),
        }
        .text(lang),
        ErrorKind::ArgumentConflict => match text(ContextKind::PriorArg) {
            Some(prior) if prior == text(ContextKind::InvalidArg).unwrap_or_default() => {
                e::given_twice { arg: prior }.text(lang)
            }
            Some(prior) => e::conflict { arg: arg(), prior }.text(lang),
            None => e::conflict_others { arg: arg() }.text(lang),
        },
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
            let why = match err.kind() {
                ErrorKind::ValueValidation => std::error::Error::source(err)
                    .map(|s| {
                        let said = s.to_string();
                        let value = text(ContextKind::InvalidValue).unwrap_or_default();
                        e::why {
                            cause: worded_cause(&said, &value, lang),
                        }
                        .text(lang)
                    })
                    .unwrap_or_default(),
                _ => String::new(),
            };
            e::invalid_value {
                arg: arg(),
                value: quoted(ContextKind::InvalidValue),
                why,
            }
            .text(lang)
        }
        ErrorKind::NoEquals => e::no_equals { arg: arg() }.text(lang),
        ErrorKind::MissingSubcommand => e::missing_subcommand.text(lang),
        _ => return None,
    };
    let mut out = errors::error { message: head }.text(lang) + "\n";
    if let Some(valid) = text(ContextKind::ValidValue) {
        out += &format!("  {}\n", w::possible_values { values: valid }.text(lang));
    }
    for k in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ] {
        if let Some(s) = text(k) {
            out += &format!("\n  {}\n", e::suggestion { suggestion: s }.text(lang));
        }
    }
    if let Some(usage) = text(ContextKind::Usage) {
        // clap's usage comes with its English heading.
        let usage = usage.trim();
        let usage = usage
            .strip_prefix(w::usage_heading.as_str(CLAPS))
            .unwrap_or(usage)
            .trim();
        let line = w::usage_line {
            heading: w::usage_heading.as_str(lang),
            usage,
        };
        out += &format!("\n{}\n", line.text(lang));
    }
    out += &format!("\n{}\n", e::more_info.as_str(lang));
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

/// What a value parser said about `value` (in English: the standard library's
/// number errors, the `lang` crate's), in `lang` where it is one of `[cause]`,
/// else as it said it.
fn worded_cause(said: &str, value: &str, lang: Lang) -> String {
    let known: [&dyn Message; 6] = [
        &cause::not_a_number,
        &cause::not_an_integer,
        &cause::empty_integer,
        &cause::empty_float,
        &cause::too_large,
        &cause::unknown_language { tag: value },
    ];
    match known.iter().find(|m| m.text(CLAPS) == said) {
        Some(m) => m.text(lang),
        None => said.to_owned(),
    }
}
