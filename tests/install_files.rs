//! `chess960 manpage` and `chess960 completions`: the files the Debian
//! package installs and `cargo install` users generate. The expected
//! subcommands and options come from the program's `--help` text, which a
//! person reads, and the pages are rendered by `man` and the completions
//! run by `bash` when those are installed (CI sets CHESS960_REQUIRE_MAN
//! and CHESS960_REQUIRE_BASH).

mod support;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// The subcommands `chess960 PATH... --help` lists (without clap's
/// `help`); none where it has no Commands section.
fn commands_under(path: &[String]) -> Vec<String> {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let help = support::stdout(&args);
    let Some(list) = help.split("Commands:\n").nth(1) else {
        return Vec::new();
    };
    list.lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_owned)
        .collect()
}

/// The subcommands `chess960 --help` lists.
fn subcommands() -> Vec<String> {
    let names = commands_under(&[]);
    assert!(names.len() >= 10, "{names:?}");
    names
}

/// Every subcommand at any depth as the words that call it (`event new`).
fn command_paths() -> Vec<Vec<String>> {
    let mut paths: Vec<Vec<String>> = Vec::new();
    let mut todo: Vec<Vec<String>> = subcommands().into_iter().map(|s| vec![s]).collect();
    while let Some(path) = todo.pop() {
        for sub in commands_under(&path) {
            let mut deeper = path.clone();
            deeper.push(sub);
            todo.push(deeper);
        }
        paths.push(path);
    }
    paths
}

/// The option lines of `chess960 PATH... --help` (`  -o, --output <FILE>  ...`),
/// their indentation removed.
fn option_lines(path: &[String]) -> Vec<String> {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    support::stdout(&args)
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .map(str::to_owned)
        .collect()
}

/// The long options `chess960 PATH... --help` shows.
fn long_options(path: &[String]) -> BTreeSet<String> {
    option_lines(path)
        .iter()
        .flat_map(|l| l.split([' ', ',', '=', '<', '[']).map(str::to_owned))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .collect()
}

/// The options `chess960 PATH... --help` shows with a value, as the man
/// page's synopsis should write them: `--html FILE.html`.
fn valued_options(path: &[String]) -> BTreeSet<String> {
    option_lines(path)
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split([' ', ',']).filter(|w| !w.is_empty()).collect();
            let at = words.iter().position(|w| w.starts_with("--"))?;
            let value = words.get(at + 1)?.strip_prefix('<')?.strip_suffix('>')?;
            Some(format!("{} {value}", words[at]))
        })
        .collect()
}

/// The SYNOPSIS line of a page, as typed.
fn synopsis_line(roff: &str) -> String {
    let plain = plain(roff);
    let mut lines = plain.lines().skip_while(|l| *l != ".SH SYNOPSIS").skip(1);
    lines
        .next()
        .unwrap_or_default()
        .replace("\\fB", "")
        .replace("\\fR", "")
}

/// roff text with its escaped dashes as typed.
fn plain(roff: &str) -> String {
    roff.replace("\\-", "-")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chess960-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn man_pages_cover_every_subcommand_and_option() {
    let subs = subcommands();
    let main = support::stdout(&["manpage"]);
    assert!(main.contains(".TH chess960 6 "), "{main}");
    assert!(main.contains(".SH \"EXIT STATUS\""), "{main}");
    // VERSION says what `--version` prints.
    let version = support::stdout(&["--version"]);
    assert!(
        main.contains(&format!(".SH VERSION\n{}", version.trim_end())),
        "{main}"
    );
    let main_text = plain(&main);
    for sub in &subs {
        assert!(
            main_text.contains(&format!("chess960-{sub}(6)")),
            "main page lacks {sub}"
        );
    }
    let dir = scratch("man");
    let listed = support::stdout(&["manpage", "--dir", dir.to_str().expect("utf-8 path")]);
    // Every page a page refers to is there: `event`'s subcommands too.
    let paths = command_paths();
    assert!(
        paths.iter().any(|p| p.len() == 2 && p[0] == "event"),
        "{paths:?}"
    );
    let mut want: BTreeSet<String> = paths
        .iter()
        .map(|p| format!("chess960-{}.6", p.join("-")))
        .collect();
    want.insert("chess960.6".to_owned());
    let written: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("pages written")
        .map(|e| e.expect("entry").file_name().into_string().expect("name"))
        .collect();
    assert_eq!(written, want);
    assert_eq!(listed.lines().count(), want.len(), "{listed}");
    let from_dir = std::fs::read_to_string(dir.join("chess960.6")).expect("main page");
    assert_eq!(from_dir, main, "--dir and stdout give different main pages");
    for path in &paths {
        let name = format!("chess960-{}", path.join("-"));
        let page = plain(&std::fs::read_to_string(dir.join(format!("{name}.6"))).expect("page"));
        assert!(page.contains(&format!(".TH {name} 6 ")), "{name}");
        for opt in long_options(path) {
            assert!(page.contains(&opt), "{name}.6 lacks {opt}");
        }
        // The synopsis names each option's value as --help does.
        let synopsis = synopsis_line(&page);
        assert!(
            synopsis.starts_with(&format!("chess960 {} ", path.join(" "))),
            "{name}: {synopsis}"
        );
        for opt in valued_options(path) {
            assert!(
                synopsis.contains(&opt),
                "{name}.6 synopsis lacks {opt}: {synopsis}"
            );
        }
    }
    let man = Command::new("man").arg("--version").output();
    if support::tool_present(
        man.is_ok_and(|o| o.status.success()),
        "man",
        "CHESS960_REQUIRE_MAN",
        "apt-get install man-db",
    ) {
        let o = Command::new("man")
            .arg("-l")
            .arg(dir.join("chess960-perft.6"))
            .env("MANWIDTH", "80")
            .output()
            .expect("run man");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{o:?}");
        for heading in ["NAME", "SYNOPSIS", "OPTIONS", "--engine"] {
            assert!(text.contains(heading), "man -l lacks {heading}: {text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn manpage_into_an_unusable_directory_fails_with_one_line() {
    let dir = scratch("man-file");
    std::fs::write(&dir, "a file, not a directory").expect("write");
    let o = support::run(&["manpage", "--dir", dir.to_str().expect("utf-8 path")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(dir.to_str().expect("utf-8 path")), "{err}");
    let _ = std::fs::remove_file(&dir);
    // A device is named as no directory, not as a file that "exists".
    let o = support::run(&["manpage", "--dir", "/dev/null"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(err.contains("/dev/null: not a directory"), "{err}");
}

#[test]
fn completions_name_the_subcommands_in_every_shell() {
    let subs = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = support::stdout(&["completions", shell]);
        for sub in &subs {
            assert!(script.contains(sub.as_str()), "{shell} lacks {sub}");
        }
        // Bash and zsh offer argument values too: the procedures `roll`
        // and `analyze` take (clap_complete gives the other shells none
        // for a positional argument).
        if ["bash", "zsh"].contains(&shell) {
            assert!(script.contains("ten-flips"), "{shell} lacks the procedures");
        }
    }
    let o = support::run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("'tcsh'"));
}

/// Bash really completes with the script: `chess960 per<TAB>` offers the
/// two perft subcommands, `chess960 openings --for<TAB>` the option.
#[test]
fn bash_completes_subcommands_and_options() {
    let bash = Command::new("bash").arg("--version").output();
    if !support::tool_present(
        bash.is_ok_and(|o| o.status.success()),
        "bash",
        "CHESS960_REQUIRE_BASH",
        "apt-get install bash",
    ) {
        return;
    }
    let dir = scratch("bash");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let script = dir.join("chess960.bash");
    std::fs::write(&script, support::stdout(&["completions", "bash"])).expect("write");
    let probe = r#"source "$1" || exit 3
complete -p chess960 || exit 4
ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
  COMPREPLY=(); _chess960 chess960 "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
  echo "${COMPREPLY[*]}"; }
ask chess960 per
ask chess960 openings --for
ask chess960 completions f
"#;
    let o = Command::new("bash")
        .args(["-c", probe, "probe"])
        .arg(&script)
        .output()
        .expect("run bash");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{o:?}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "complete -o bashdefault -o default -o nosort -F _chess960 chess960",
            "perft perft-merge",
            "--format",
            "fish",
        ],
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `chess960 uci --help` and the `uci` man page describe the UCI side for a
/// user without README: every option the engine declares after `uci` (read
/// from the handshake itself) and the start-position commands.
#[test]
fn the_uci_page_lists_every_option_and_the_start_commands() {
    let handshake = {
        let mut e = support::Engine::start();
        e.ask("uci")
    };
    let names: Vec<String> = handshake
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter_map(|l| l.split(" type ").next())
        .map(str::to_owned)
        .collect();
    assert!(names.len() >= 10, "{handshake:?}");
    let help = support::stdout(&["uci", "--help"]);
    let dir = scratch("man-uci");
    support::stdout(&["manpage", "--dir", dir.to_str().expect("utf-8 path")]);
    let page = plain(&std::fs::read_to_string(dir.join("chess960-uci.6")).expect("uci page"));
    for text in [&help, &page] {
        for name in &names {
            assert!(
                text.contains(&format!("{name} (")),
                "{name} missing: {text}"
            );
        }
        for command in [
            "position startpos960",
            "position dfrc",
            "go perft",
            "UCI_Chess960",
        ] {
            assert!(text.contains(command), "{command} missing: {text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
