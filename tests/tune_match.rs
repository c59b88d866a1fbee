//! tools/tune/match.sh hands fastchess the right command line: each side its own options
//! (`NEW_OPTIONS`, `BASE_OPTIONS`), none when they are unset. A stand-in fastchess prints its
//! arguments; real games are the script's users' business, not a test's.

mod support;

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The arguments match.sh gave the stand-in fastchess, one per line, with the given
/// environment.
fn fastchess_args(tag: &str, env: &[(&str, &str)]) -> Vec<String> {
    let dir = support::temp_dir(tag);
    let fake = dir.join("fastchess");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'Results of new vs base'\nfor a in \"$@\"; do echo \"$a\"; done\n",
    )
    .unwrap();
    let openings = dir.join("open.epd");
    std::fs::write(&openings, "").unwrap();
    let out = support::output_ok(
        Command::new("bash")
            .args([
                "-c",
                "chmod +x \"$FASTCHESS\" && exec bash \"$0\" /e/base /e/new 10 nodes=500 3",
            ])
            .arg(repo().join("tools/tune/match.sh"))
            .env("FASTCHESS", &fake)
            .env("OPENINGS", &openings)
            .env("OUT", dir.join("out"))
            .env_remove("NEW_OPTIONS")
            .env_remove("BASE_OPTIONS")
            .envs(env.iter().copied()),
        "tools/tune/match.sh",
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    text.lines().skip(1).map(str::to_owned).collect()
}

/// The arguments after `cmd=<cmd>` up to the next `-engine` or `-each`: that side's own.
fn engine_args(args: &[String], cmd: &str) -> Vec<String> {
    let at = args
        .iter()
        .position(|a| a == &format!("cmd={cmd}"))
        .unwrap_or_else(|| panic!("no cmd={cmd} in {args:?}"));
    args[at..]
        .iter()
        .skip(1)
        .take_while(|a| *a != "-engine" && *a != "-each")
        .cloned()
        .collect()
}

#[test]
fn each_side_gets_its_own_options() {
    if !support::bash_present() {
        return;
    }
    let args = fastchess_args(
        "match-opts",
        &[
            ("NEW_OPTIONS", "LmrBase=82 RfpMargin=69"),
            ("BASE_OPTIONS", "Contempt=5"),
        ],
    );
    assert_eq!(
        engine_args(&args, "/e/new"),
        ["name=new", "option.LmrBase=82", "option.RfpMargin=69"]
    );
    assert_eq!(
        engine_args(&args, "/e/base"),
        ["name=base", "option.Contempt=5"]
    );
    assert!(args.iter().any(|a| a == "nodes=500"), "{args:?}");

    let plain = fastchess_args("match-plain", &[]);
    assert_eq!(engine_args(&plain, "/e/new"), ["name=new"]);
    assert_eq!(engine_args(&plain, "/e/base"), ["name=base"]);
}
