//! Handlers for `completions` and `manpage`: the files a package installs
//! next to the binary, generated from the clap definitions ([`super::Cli`]).
//!
//! They are subcommands of the binary itself, not a build step, so that
//! they always describe the binary that prints them: `cargo install` users
//! get them from the program they installed, and the Debian package build
//! (`tools/deb/build.sh`) runs the release binary to write its assets.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::CommandFactory;

use super::{Cli, CliError};

/// The man page section: 6, games, where Debian's chess engines
/// (stockfish, ethereal-chess) have theirs.
pub const MAN_SECTION: &str = "6";

/// The command tree for the man pages, built (so subcommands know their
/// full names, `chess960 perft`, and their page names, `chess960-perft`),
/// without clap's `help` subcommand, which needs no page.
fn man_command() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// Run `chess960 completions SHELL`: the completion script on stdout.
///
/// # Errors
/// Standard output that cannot be written.
pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode, CliError> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "chess960", &mut out);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// One page in roff, its footer naming the program and version.
/// clap_mangen heads the `after_help` text `EXTRA`: exit statuses get the
/// customary `EXIT STATUS` heading (without the help's own "Exit status:"
/// words), other text `NOTES`; and its lines stay lines (roff would fill
/// them into one paragraph: the completions' one command per shell). Its
/// `VERSION` section (`v0.1.0 (...)`) reads as `--version` prints it.
fn render(cmd: clap::Command) -> Result<Vec<u8>, CliError> {
    let mut page = Vec::new();
    let synopsis = synopsis(&cmd);
    let shown = format!("chess960 {}", crate::VERSION);
    clap_mangen::Man::new(cmd.override_usage(synopsis))
        .section(MAN_SECTION)
        .manual("Games Manual")
        .source(shown.clone())
        .render(&mut page)?;
    let page = String::from_utf8_lossy(&page).into_owned().replace(
        &format!("\n.SH VERSION\nv{}\n", crate::VERSION),
        &format!("\n.SH VERSION\n{shown}\n"),
    );
    let Some(at) = page.find("\n.SH EXTRA\n") else {
        return Ok(page.into_bytes());
    };
    let body_start = at + "\n.SH EXTRA\n".len();
    let body_end = page[body_start..]
        .find("\n.SH ")
        .map_or(page.len(), |i| body_start + i + 1);
    let body = &page[body_start..body_end];
    let (heading, body) = match body.strip_prefix("Exit status: ") {
        Some(rest) => ("\"EXIT STATUS\"", rest.to_owned()),
        None => ("NOTES", body.to_owned()),
    };
    let lines: Vec<&str> = body.lines().collect();
    let mut out = String::with_capacity(page.len() + 64);
    out.push_str(&page[..at]);
    out.push_str(&format!("\n.SH {heading}\n"));
    out.push_str(&lines.join("\n.br\n"));
    out.push('\n');
    out.push_str(&page[body_end..]);
    Ok(out.into_bytes())
}

/// The SYNOPSIS line of `cmd`'s page, with each option's value named as in
/// `--help` (`[--html FILE.html]`, `-o|--output FILE`): clap_mangen's own
/// lists the options bare (`[--html]`, `<-o|--output>`), so a reader
/// could not tell which take a value.
fn synopsis(cmd: &clap::Command) -> String {
    let value = |arg: &clap::Arg| match arg.get_value_names() {
        Some(names) => names
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        None => arg.get_id().as_str().to_uppercase(),
    };
    let mut words = vec![cmd
        .get_bin_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_owned()];
    let options = cmd
        .get_arguments()
        .filter(|a| !a.is_positional() && !a.is_hide_set());
    let (required, optional): (Vec<_>, Vec<_>) = options.partition(|a| a.is_required_set());
    for (arg, required) in optional
        .iter()
        .map(|a| (a, false))
        .chain(required.iter().map(|a| (a, true)))
    {
        let mut word = match (arg.get_short(), arg.get_long()) {
            (Some(s), Some(l)) => format!("-{s}|--{l}"),
            (Some(s), None) => format!("-{s}"),
            (None, Some(l)) => format!("--{l}"),
            (None, None) => continue,
        };
        if arg.get_action().takes_values() {
            word = format!("{word} {}", value(arg));
        }
        words.push(if required { word } else { format!("[{word}]") });
    }
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        let name = format!("{}{}", value(arg), if many { "..." } else { "" });
        words.push(if arg.is_required_set() {
            name
        } else {
            format!("[{name}]")
        });
    }
    if cmd.has_subcommands() {
        words.push(if cmd.is_subcommand_required_set() {
            "COMMAND".to_owned()
        } else {
            "[COMMAND]".to_owned()
        });
    }
    words.join(" ")
}

/// Every visible subcommand of `cmd` and theirs (`chess960 event new`),
/// depth first: each page lists its own subcommands' pages, which must be
/// there to read.
fn add_subcommand_pages(cmd: &clap::Command, pages: &mut Vec<clap::Command>) {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.push(sub.clone());
        add_subcommand_pages(sub, pages);
    }
}

/// Run `chess960 manpage [--dir DIR]`: the main page on stdout, or, with
/// `dir`, `chess960.6` and one page per subcommand (`chess960-perft.6`,
/// `chess960-event-new.6`: the pages the others refer to) written into
/// `dir`, their names on stdout.
///
/// # Errors
/// A directory or file that cannot be created or written.
pub fn manpage(dir: Option<&Path>) -> Result<ExitCode, CliError> {
    let cmd = man_command();
    let mut stdout = std::io::stdout().lock();
    let Some(dir) = dir else {
        stdout.write_all(&render(cmd)?)?;
        stdout.flush()?;
        return Ok(ExitCode::SUCCESS);
    };
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::Io(format!(
            "cannot write pages into {}: not a directory",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let mut pages = vec![cmd.clone()];
    add_subcommand_pages(&cmd, &mut pages);
    // Every page is written before the list is printed: a list that cannot
    // be printed leaves no page out.
    let mut written = Vec::with_capacity(pages.len());
    for page in pages {
        let name = page
            .get_display_name()
            .unwrap_or_else(|| page.get_name())
            .to_owned();
        let path = dir.join(format!("{name}.{MAN_SECTION}"));
        std::fs::write(&path, render(page)?)
            .map_err(|e| CliError::Io(format!("cannot write {}: {e}", path.display())))?;
        written.push(path);
    }
    for path in written {
        writeln!(stdout, "{}", path.display())?;
    }
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}
