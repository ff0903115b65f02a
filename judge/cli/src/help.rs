//! The command line's own texts (what each command and argument is for), from
//! the catalogs' `[help]` (`words::help`), keyed by the command's or argument's
//! name: `hint_n` is the argument `n` of `hint`, and `language` the argument
//! `lang` (a name the catalogs keep for themselves). clap takes no help from doc
//! comments here: every language's texts are set from its catalog, and
//! `frame::command` then words what clap adds itself.

use clap::Command;
use judge::Lang;

use crate::words::help;

/// The `[help]` key of a command or argument: `hint.n` is `hint_n`, `lang`
/// is `language`.
fn key(name: &str) -> String {
    match name {
        "lang" => "language".to_owned(),
        _ => name.replace('.', "_"),
    }
}

/// The `[help]` text of `name` (`hint.n`), in `lang`. A key that the catalog
/// lacks panics, which the tests below catch.
fn text(name: &str, lang: Lang) -> String {
    match help::get(&key(name)) {
        Some(m) => m.text(lang),
        None => panic!("judge/cli/say.*.toml: no `[help]` text `{}`", key(name)),
    }
}

/// `cmd` with every command's and argument's text in `lang`. A key that the
/// catalog lacks, or an argument the command lacks, panics (clap's `mut_arg`),
/// which the tests below catch.
pub fn texts(cmd: Command, lang: Lang) -> Command {
    let w = |key: &str| text(key, lang);
    // The grading arguments: the folder's command line and `grade`'s.
    let grade_args = |c: Command| {
        ["folder", "json", "watch", "timeout", "memory"]
            .into_iter()
            .fold(c, |c, arg| c.mut_arg(arg, |a| a.help(w(arg))))
    };
    let sub = |cmd: Command, name: &'static str, args: &[&'static str]| {
        let about = w(name);
        let helps: Vec<(&'static str, String)> = args
            .iter()
            .map(|&arg| (arg, w(&format!("{name}.{arg}"))))
            .collect();
        cmd.mut_subcommand(name, |c| {
            helps.into_iter().fold(c.about(about), |c, (arg, help)| {
                c.mut_arg(arg, |a| a.help(help))
            })
        })
    };
    let cmd = grade_args(cmd)
        .about(w("about"))
        .after_help(w("after_help"))
        .mut_arg("lang", |a| a.help(w("lang")))
        .mut_subcommand("grade", |c| grade_args(c).about(w("grade")));
    let cmd = sub(cmd, "list", &["folder"]);
    let cmd = sub(cmd, "show", &["id"]);
    let cmd = sub(cmd, "hint", &["id", "n"]);
    let cmd = sub(cmd, "eval", &["list", "source"]);
    let cmd = sub(
        cmd,
        "class",
        &["folder", "jobs", "csv", "json", "timeout", "memory"],
    );
    let cmd = sub(cmd, "verify", &["file", "json", "timeout", "memory"]);
    sub(cmd, "completions", &["shell"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every command and argument the CLI shows, as (catalog key, its help).
    fn shown(cmd: &Command, prefix: &str, out: &mut Vec<(String, String)>) {
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            if a.is_hide_set() || ["help", "version"].contains(&id) {
                continue;
            }
            // `grade` shares the top level's arguments, and their keys.
            let key = if prefix.is_empty() || prefix == "grade" {
                key(id)
            } else {
                key(&format!("{prefix}.{id}"))
            };
            out.push((key, a.get_help().map(|h| h.to_string()).unwrap_or_default()));
        }
        for c in cmd.get_subcommands() {
            let name = c.get_name();
            out.push((
                name.to_owned(),
                c.get_about().map(|h| h.to_string()).unwrap_or_default(),
            ));
            shown(c, name, out);
        }
    }

    #[test]
    fn texts_name_every_command_and_argument() {
        // (Both languages having the same keys is checked by the build.)
        for lang in [Lang::En, Lang::Zh] {
            let words = |key: &str| help::get(key).map(|m| m.text(lang));
            let cmd = texts(crate::Cli::command(), lang);
            let mut seen = vec![
                (
                    "about".to_owned(),
                    cmd.get_about().map(|h| h.to_string()).unwrap_or_default(),
                ),
                (
                    "after_help".to_owned(),
                    cmd.get_after_help()
                        .map(|h| h.to_string())
                        .unwrap_or_default(),
                ),
            ];
            shown(&cmd, "", &mut seen);
            for (key, help) in &seen {
                assert_eq!(
                    Some(help),
                    words(key).as_ref(),
                    "{}: `{key}` shows another text than its catalog's",
                    lang.code()
                );
            }
            // No key the command does not show.
            for key in crate::words::HELP_KEYS {
                assert!(
                    seen.iter().any(|(k, _)| k == key),
                    "{}: `{key}` names nothing in the command",
                    lang.code()
                );
            }
        }
    }
}
