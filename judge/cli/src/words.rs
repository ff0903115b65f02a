//! The command line's own texts (what each command and argument is for), one
//! catalog per language: `locales/en.json` and `locales/zh.json`, keyed by the
//! command's or argument's name (`hint.n` is the argument `n` of `hint`). clap
//! takes no help from doc comments here: both languages are set from their
//! catalog, and `zh::command` then words what clap adds itself.

use std::collections::BTreeMap;

use clap::Command;
use judge::Lang;

/// `lang`'s catalog.
fn catalog(lang: Lang) -> BTreeMap<String, String> {
    let text = match lang {
        Lang::En => include_str!("../locales/en.json"),
        Lang::Zh => include_str!("../locales/zh.json"),
    };
    // A broken catalog fails `texts_name_every_command_and_argument`.
    serde_json::from_str(text).expect("judge/cli/locales: a JSON object of strings")
}

/// `cmd` with every command's and argument's text in `lang`. A key that the
/// catalog lacks, or an argument the command lacks, panics (clap's `mut_arg`),
/// which the tests below catch.
pub fn texts(cmd: Command, lang: Lang) -> Command {
    let words = catalog(lang);
    let w = |key: &str| -> String {
        match words.get(key) {
            Some(text) => text.clone(),
            None => panic!("judge/cli/locales/{}.json has no `{key}`", lang.code()),
        }
    };
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
                id.to_owned()
            } else {
                format!("{prefix}.{id}")
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
        let en = catalog(Lang::En);
        let zh = catalog(Lang::Zh);
        assert_eq!(
            en.keys().collect::<Vec<_>>(),
            zh.keys().collect::<Vec<_>>(),
            "the two catalogs' keys"
        );
        for lang in [Lang::En, Lang::Zh] {
            let words = catalog(lang);
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
                    words.get(key),
                    "{}: `{key}` shows another text than its catalog's",
                    lang.code()
                );
            }
            // No key the command does not show.
            for key in words.keys() {
                assert!(
                    seen.iter().any(|(k, _)| k == key),
                    "{}: `{key}` names nothing in the command",
                    lang.code()
                );
            }
        }
    }
}
