//! Records the git commit of the build, so that `chess960 --version` and
//! the UCI `id name` say exactly which code a report came from. A crate
//! made by `cargo package` (what `cargo install chess960` builds) has no
//! `.git` but carries the commit it was packaged from in
//! `.cargo_vcs_info.json`; that is read first, since the unpacked crate
//! may sit inside some other git repository. Without either the commit
//! reads `unknown`.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// The commit `cargo package` recorded: `"sha1": "<40 hex digits>"` in
/// `.cargo_vcs_info.json` (read by hand: a build script has no JSON
/// parser without a build dependency).
fn packaged_commit() -> Option<String> {
    let info = std::fs::read_to_string(".cargo_vcs_info.json").ok()?;
    let after = info.split("\"sha1\"").nth(1)?;
    let sha: String = after
        .trim_start_matches([' ', ':', '"'])
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (sha.len() >= 7).then(|| sha[..7].to_owned())
}

fn main() {
    if let Some(commit) = packaged_commit() {
        println!("cargo:rustc-env=CHESS960_COMMIT={commit}");
        println!("cargo:rerun-if-changed=.cargo_vcs_info.json");
        return;
    }
    let commit = git(&["rev-parse", "--short=7", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=CHESS960_COMMIT={commit}");
    // Rebuild the version when HEAD moves: HEAD itself (a branch switch)
    // and the file of the branch it points to (a commit). A worktree has
    // its own HEAD but shares the branches (`--git-common-dir`).
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let common = git(&["rev-parse", "--git-common-dir"]).unwrap_or_else(|| dir.clone());
        watch(&Path::new(&dir).join("HEAD"));
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            // A packed branch has no file of its own until its next
            // commit writes one: its folder changes then.
            let file = Path::new(&common).join(branch);
            if let Some(there) = file.ancestors().find(|p| p.exists()) {
                watch(there);
            }
        }
        watch(&Path::new(&common).join("packed-refs"));
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// Rebuild when `path` changes, where it exists: Cargo takes a path that
/// does not exist for one that changed, and would build the crate again at
/// every build (a repository whose refs are not packed has no
/// `packed-refs`). A branch packed later loses its loose file, which is a
/// change of a watched path.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
