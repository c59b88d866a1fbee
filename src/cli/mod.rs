//! Command-line interface: clap definitions and dispatch only (and a check
//! of their help texts, [`rustdoc_links`]).
//!
//! Each subcommand's work lives in a submodule; handlers return
//! `Result<ExitCode, CliError>` so that `main` prints exactly one line on
//! stderr and exits with status 2 for bad input, as scripts expect.

mod bench_cmd;
mod event_cmd;
mod install_files;
mod output_file;
mod perft_cmd;
mod perft_engine;
mod perft_report;
mod perft_shard;
mod perft_source;
mod positions;
mod procedures_cmd;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The exit statuses, as `--help` states them.
const EXIT_STATUS_HELP: &str =
    "Exit status: 0 success; 1 runtime error (a file that cannot be read \
or written, a perft count that differs from the reference, a secret that does not match its \
commitment, a damaged event file or perft suite); 2 usage error (an unknown option, a \
number out of range, a position that is not a start). perft --engine answers as diff does: 1 when \
the other engine's counts differ, 2 when it cannot be run or does not count.";

/// The exit statuses of the commands that read input and write output,
/// as their own `--help` and man page state them.
const COMMAND_EXIT_STATUS: &str = "Exit status: 0 success; 1 runtime error (a file that \
cannot be read or written, or read as what it should be; standard output full or \
unwritable); 2 usage error (an unknown \
option, a number out of range, a position that is not a start). A closed pipe (`| head -1`) \
ends quietly with 0.";

/// The exit status of `uci` (and of the program run bare).
const UCI_EXIT_STATUS: &str = "Exit status: 0 at quit or the end of input (a line that cannot be \
read or obeyed is answered with info string error: and the session goes on).";

/// The exit statuses of `wrap`.
const WRAP_EXIT_STATUS: &str = "Exit status: 0 at the GUI's quit or the end of its input; 1 the \
engine cannot be started at all or the log cannot be made (one stderr line names it); 2 usage \
error. An engine that fails later is restarted or answered for, never an exit.";

/// The exit statuses of `completions` and `manpage`.
const INSTALL_EXIT_STATUS: &str = "Exit status: 0 success; 1 a file that cannot be written, or \
standard output full or unwritable; 2 usage error. A closed pipe (`| head -1`) ends quietly with 0.";

/// Top-level command line. Without a subcommand the program speaks UCI,
/// because GUIs start engines with no arguments.
#[derive(Debug, Parser)]
#[command(
    name = "chess960",
    about = "Chess960 UCI engine, start positions and perft",
    long_about = "Chess960 (Fischer Random) UCI engine, provider of the 960 start positions \
                  (Scharnagl numbering 0..959, 518 = RNBQKBNR) and perft tool.\n\
                  Without a subcommand it speaks UCI on stdin/stdout.",
    after_help = EXIT_STATUS_HELP,
    version = crate::VERSION
)]
pub struct Cli {
    /// What to do; UCI when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands. Their output formats are a contract with scripts.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Speak UCI on stdin/stdout (the default).
    #[command(after_help = format!("{}\n\n{UCI_EXIT_STATUS}", crate::uci::manual()))]
    Uci,
    /// Print the FEN of start position N (X-FEN by default).
    Fen(FenArgs),
    /// Print the Scharnagl number of a start position (FEN or back rank such as RNBQKBNR).
    Idn(IdnArgs),
    /// Show a start position for people: diagram, number, back rank, both FENs.
    Show(ShowArgs),
    /// Print K random start positions as `N FEN` lines.
    Random(RandomArgs),
    /// Write an openings file (EPD or PGN) for fastchess or cutechess-cli.
    Openings(OpeningsArgs),
    /// Count leaf nodes of the legal move tree (move generator proof).
    Perft(PerftArgs),
    /// Merge the `--json` reports of `perft --shard K/N` parts into the run's result.
    PerftMerge(PerftMergeArgs),
    /// Search a fixed set of positions and print the node count signature.
    Bench(BenchArgs),
    /// Turn dice, coins, cards or placements into a start position (or simulate a procedure).
    Roll(RollArgs),
    /// Exact fairness analysis of a manual procedure: probability of each of the 960 positions.
    Analyze(AnalyzeArgs),
    /// Front another UCI engine: Chess960 in every GUI's dialect, and a legal bestmove always.
    Wrap(WrapArgs),
    /// Print the tab-completion script for a shell (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the man page (roff), or write it and the subcommands' pages into a directory.
    Manpage(ManpageArgs),
    /// A verifiable draw of every round's start (commit and reveal) and its printable pack.
    Event(EventArgs),
}

/// `chess960 completions SHELL`
#[derive(Debug, Args)]
#[command(
    after_help = format!("Bash: chess960 completions bash > ~/.local/share/bash-completion/completions/chess960\n\
Zsh: chess960 completions zsh > DIR/_chess960 (DIR on $fpath)\n\
Fish: chess960 completions fish > ~/.config/fish/completions/chess960.fish\n\n{INSTALL_EXIT_STATUS}")
)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `chess960 manpage [--dir DIR]`
#[derive(Debug, Args)]
#[command(after_help = INSTALL_EXIT_STATUS)]
pub struct ManpageArgs {
    /// Write chess960.6 and one page per subcommand (chess960-perft.6 ...) into DIR
    /// (e.g. ~/.local/share/man/man6) instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `chess960 wrap [OPTIONS] [--] ENGINE [ARGS...]`
#[derive(Debug, Args)]
#[command(after_help = WRAP_EXIT_STATUS)]
pub struct WrapArgs {
    /// Castling notation sent to the engine: auto (king-takes-rook with UCI_Chess960 in Chess960
    /// games), kxr (always king-takes-rook), oo (O-O / O-O-O), king (the king's destination).
    #[arg(long, value_enum, default_value_t = crate::wrap::EngineCastling::Auto)]
    pub engine_castling: crate::wrap::EngineCastling,
    /// FEN flavour sent to the engine: shredder (HAha in Chess960 games) or xfen (KQkq).
    #[arg(long, value_enum, default_value_t = crate::wrap::EngineFen::Shredder)]
    pub engine_fen: crate::wrap::EngineFen,
    /// Write every line in each of the four directions to FILE, timestamped.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Milliseconds beyond a `go movetime` (or after `stop`) the engine may take before
    /// chess960 answers with its own move.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub margin: u64,
    /// The engine's program and its arguments (wrap's own options come before it: everything
    /// after ENGINE is the engine's).
    #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
    pub engine: Vec<String>,
}

/// The names `--scheme` takes: listed in `--help`, offered by the shell
/// completions, anything else refused by the parser with the list.
fn scheme_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(crate::numbering::Scheme::ALL.map(|s| s.name()))
}

/// The procedures `roll` takes, by name: listed in `--help`, offered by
/// the shell completions, a typo refused by the parser with the list.
fn method_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(crate::procedures::Method::ALL.map(|m| m.name()))
}

/// The names `analyze` takes: every procedure, and `all`.
fn method_names_or_all() -> clap::builder::PossibleValuesParser {
    let names = crate::procedures::Method::ALL.map(|m| m.name());
    clap::builder::PossibleValuesParser::new(names.into_iter().chain(["all"]))
}

/// `chess960 fen N [--shredder]`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct FenArgs {
    /// The start's number in --scheme: Scharnagl 0..959 by default (518 = RNBQKBNR); with
    /// --dfrc 0..921599.
    #[arg(allow_negative_numbers = true, value_name = "N")]
    pub number: String,
    /// Write the castling field as Shredder-FEN (`HAha`) instead of X-FEN (`KQkq`).
    #[arg(long)]
    pub shredder: bool,
    /// Numbering scheme of N: scharnagl (0..959), scharnagl-1 (1..960: 960
    /// stands for 0, the rest as Scharnagl's) or fritz (1..960).
    #[arg(long, default_value = "scharnagl", value_parser = scheme_names(), ignore_case = true)]
    pub scheme: String,
    /// N is a Double Fischer Random start, white + 960 * black (0..921599).
    #[arg(long, conflicts_with = "scheme")]
    pub dfrc: bool,
}

/// `chess960 idn [--scheme S] POSITION`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct IdnArgs {
    /// Numbering scheme to print: scharnagl, scharnagl-1 or fritz.
    #[arg(long, default_value = "scharnagl", value_parser = scheme_names(), ignore_case = true)]
    pub scheme: String,
    /// Print the Double Fischer Random number (white + 960 * black) of a FEN
    /// or of two back ranks, White's first (`RNBQKBNR bbqnnrkr`).
    #[arg(long, conflicts_with = "scheme")]
    pub dfrc: bool,
    /// A FEN (4 or 6 fields; may be given unquoted) or an 8-letter back rank.
    #[arg(required = true, num_args = 1..)]
    pub position: Vec<String>,
}

/// `chess960 show POSITION|N`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct ShowArgs {
    /// Also write the start as an SVG diagram (the whole board, with its
    /// number and back rank above it) to this file; `-`: to stdout, in place
    /// of the description.
    #[arg(long, value_name = "FILE.svg")]
    pub svg: Option<PathBuf>,
    /// Also write a page for a projector (one landscape sheet printed) to
    /// this HTML file; `-`: to stdout, in place of the description.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// A Double Fischer Random start: a DFRC number, a FEN or two back ranks.
    #[arg(long, conflicts_with = "scheme")]
    pub dfrc: bool,
    /// Numbering scheme of a number given as POSITION: scharnagl, scharnagl-1 or fritz.
    #[arg(long, default_value = "scharnagl", value_parser = scheme_names(), ignore_case = true)]
    pub scheme: String,
    /// A number in --scheme (Scharnagl 0..959 unless told; with --dfrc 0..921599), a FEN or
    /// an 8-letter back rank.
    #[arg(required = true, num_args = 1.., allow_negative_numbers = true)]
    pub position: Vec<String>,
}

/// `chess960 random [--count K] [--seed S]`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct RandomArgs {
    /// How many positions to print.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed for a reproducible sequence.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write Shredder-FEN castling fields.
    #[arg(long)]
    pub shredder: bool,
    /// Double Fischer Random starts (each side its own back rank).
    #[arg(long)]
    pub dfrc: bool,
}

/// Openings file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OpeningsFormat {
    /// `<4 FEN fields> id "chess960 #N";` per line.
    Epd,
    /// One game per start with `Variant`, `SetUp` and `FEN` tags.
    Pgn,
}

impl OpeningsFormat {
    /// The name `--format` takes, which is also the file extension.
    pub fn name(self) -> &'static str {
        match self {
            OpeningsFormat::Epd => "epd",
            OpeningsFormat::Pgn => "pgn",
        }
    }
}

/// `chess960 openings (--all | --count K [--seed S]) [--shredder] [--format epd|pgn] [-o FILE]`
#[derive(Debug, Args)]
#[command(
    group(clap::ArgGroup::new("which").required(true).args(["all", "count"])),
    after_help = COMMAND_EXIT_STATUS
)]
pub struct OpeningsArgs {
    /// All 960 starts in Scharnagl order.
    #[arg(long, conflicts_with_all = ["count", "seed"])]
    pub all: bool,
    /// K random starts, all distinct when K <= 960 (each run of 960 is a random permutation);
    /// with --dfrc, when K <= 921600.
    #[arg(long)]
    pub count: Option<u64>,
    /// Seed for a reproducible selection (without it, a fresh seed is drawn
    /// and named on stderr, so that the file can be made again).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write Shredder-FEN castling fields.
    #[arg(long)]
    pub shredder: bool,
    /// Output format [default: from -o's name, `.pgn` for pgn, else epd].
    #[arg(long, value_enum, ignore_case = true)]
    pub format: Option<OpeningsFormat>,
    /// Output file (stdout when omitted or `-`), written whole or not at all
    /// (an existing file is replaced only once the new one is complete).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Double Fischer Random starts (with --count; `id "dfrc #N";`).
    #[arg(long, conflicts_with = "all")]
    pub dfrc: bool,
}

/// The exit statuses of `perft`, as its `--help` and man page state them.
const PERFT_EXIT_STATUS: &str = "Exit status: 0 every count checked agrees (or none had a \
reference); 1 a count differs from the reference (named on stderr as MISMATCH:), or a file \
cannot be read or written; 2 usage error. With --engine, as diff answers: 0 the engines agree, \
1 the other engine's counts differ, 2 it cannot be run or does not count. A closed pipe \
(`| head -1`) ends quietly with 0, or with 1 where a count already differed.";

/// The exit statuses of `perft-merge`.
const PERFT_MERGE_EXIT_STATUS: &str = "Exit status: 0 the parts make one run and no count differs \
from a reference; 1 a part is missing, doubled, of another run or damaged, or a count differs \
(named on stderr); 2 usage error.";

/// The exit statuses of `event verify`.
const VERIFY_EXIT_STATUS: &str = "Exit status: 0 the secret matches the commitment and every \
start given is its round's; 1 they do not (the round is named); 2 usage error (a commitment that \
is not 64 hex digits, a start that is not one).";

/// `chess960 perft DEPTH (--idn N | --fen FEN | --all | --epd FILE) [--divide]`
#[derive(Debug, Args)]
#[command(after_help = PERFT_EXIT_STATUS)]
pub struct PerftArgs {
    /// Depth in plies (required; after a quoted --fen it may come last).
    #[arg(value_parser = perft_cmd::depth_arg)]
    pub depth: Option<u32>,
    /// Start position by Scharnagl number.
    #[arg(long, group = "source", allow_negative_numbers = true)]
    pub idn: Option<String>,
    /// Double Fischer Random start by number (white + 960 * black).
    #[arg(long, group = "source", allow_negative_numbers = true)]
    pub dfrc: Option<String>,
    /// Any position as FEN (Shredder-FEN, X-FEN or plain; quoted or not).
    #[arg(long, group = "source", num_args = 1..=6, value_name = "FEN")]
    pub fen: Option<Vec<String>>,
    /// All 960 start positions, checked against the reference table where it has the depth.
    #[arg(long, group = "source")]
    pub all: bool,
    /// A suite file: `.perft` blocks, EPD with `;D1 n` fields, or the TSV table (`-`: stdin).
    #[arg(long, group = "source")]
    pub epd: Option<PathBuf>,
    /// One line per root move with its count.
    #[arg(long, conflicts_with = "engine")]
    pub divide: bool,
    /// Worker threads, 1..256 as UCI's Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=crate::uci::options::MAX_THREADS as i64))]
    pub threads: Option<u16>,
    /// Hash table size in MiB (0: none). Counts are exact either way.
    #[arg(long, value_name = "MB", default_value_t = crate::perft::DEFAULT_HASH_MB)]
    pub hash: usize,
    /// Print one JSON report on stdout instead of text lines (for CI).
    #[arg(long)]
    pub json: bool,
    /// Suites: count each position at the deepest depth up to DEPTH whose
    /// expected count is at most N (a node cap for quick checks; depth 1,
    /// said on stderr when unchecked, where none is that small). A position
    /// with no expected counts is counted at DEPTH: the cap reads them.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Check another UCI engine's `go perft` against ours (its command line,
    /// split as a shell would, without a shell); the first difference is
    /// pinned to a position and its missing and extra moves, or to a count
    /// the engine gives wrong while listing the moves right.
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// How to send FENs to --engine: shredder (HAha) or xfen (KQkq).
    #[arg(long, value_enum, default_value_t = EngineFen::Shredder, requires = "engine")]
    pub engine_fen: EngineFen,
    /// Seconds --engine may take for one answer before it counts as hung (1 to 604800, a week).
    #[arg(long, value_name = "SECS", default_value_t = perft_engine::DEFAULT_ENGINE_TIMEOUT_S, requires = "engine",
          value_parser = clap::value_parser!(u64).range(1..=perft_engine::MAX_ENGINE_TIMEOUT_S))]
    pub engine_timeout: u64,
    /// Count only part K of N of the run (suite positions, or the root moves
    /// of one position, dealt round robin) and write its --json report for
    /// `chess960 perft-merge`.
    #[arg(long, value_name = "K/N", requires = "json", conflicts_with_all = ["engine", "divide"])]
    pub shard: Option<crate::perft::shard::Shard>,
}

/// `chess960 perft-merge FILE...`
#[derive(Debug, Args)]
#[command(after_help = PERFT_MERGE_EXIT_STATUS)]
pub struct PerftMergeArgs {
    /// The parts' `--json` reports, in any order (`-` reads one from stdin).
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Print the merged report as one JSON document.
    #[arg(long)]
    pub json: bool,
}

/// FEN dialect for `perft --engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineFen {
    /// Shredder-FEN castling letters (`HAha`).
    Shredder,
    /// X-FEN (`KQkq`).
    Xfen,
}

/// `chess960 bench [DEPTH]`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct BenchArgs {
    /// Search depth per position, 1..30 (default 11).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=crate::bench::MAX_DEPTH as i64))]
    pub depth: Option<u32>,
}

/// `chess960 roll METHOD [OUTCOMES...] [--explain] [--json] [--seed S]`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct RollArgs {
    /// Procedure (docs/procedures.md: where each comes from, its figures).
    #[arg(value_parser = method_names(), ignore_case = true)]
    pub method: String,
    /// Outcomes in the order they happened (die faces, H/T, card numbers, pieces, Q@d1 ...).
    /// Without outcomes the procedure is simulated.
    #[arg(num_args = 0.., allow_negative_numbers = true)]
    pub outcomes: Vec<String>,
    /// Print the procedure as a step-by-step card to take to the table.
    #[arg(long, conflicts_with_all = ["outcomes", "json", "seed"])]
    pub explain: bool,
    /// With --explain: also write the card as an HTML page to print (`-`: to
    /// stdout, in place of the card's text).
    #[arg(long, value_name = "FILE.html", requires = "explain")]
    pub html: Option<PathBuf>,
    /// Print one JSON object: `scharnagl` and `fen` when complete, `next` when not.
    #[arg(long)]
    pub json: bool,
    /// Seed for a reproducible simulation (only without outcomes).
    #[arg(long, conflicts_with = "outcomes")]
    pub seed: Option<u64>,
}

/// `chess960 analyze METHOD|all [--json] [--plot FILE.svg]`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct AnalyzeArgs {
    /// Procedure, or `all` for the summary table of every procedure.
    #[arg(value_parser = method_names_or_all(), ignore_case = true)]
    pub method: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the 960 probabilities as an SVG bar chart (`-`: to stdout, in
    /// place of the summary).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// `chess960 event new|draw|pack|reveal|verify`
#[derive(Debug, Args)]
pub struct EventArgs {
    /// What to do with the event.
    #[command(subcommand)]
    pub command: EventCommand,
}

/// The steps of a verifiable event draw, in the order an organiser uses them.
#[derive(Debug, Subcommand)]
pub enum EventCommand {
    /// Make an event file with a new secret and print the commitment to publish.
    New(EventNewArgs),
    /// Print the start of one round, or of every round.
    Draw(EventDrawArgs),
    /// Write the printable pack: one HTML page per round.
    Pack(EventPackArgs),
    /// Print the commitment again (the line `event new` printed), to publish; the secret stays private.
    Commitment(EventFileArgs),
    /// Record the public part of an event made with --public-part, once it is drawn in public.
    Public(EventPublicArgs),
    /// Change the number of rounds (a tiebreak round added, an event cut short); every round kept keeps its start.
    Rounds(EventRoundsArgs),
    /// After the event: print the secret, every round's start and the command that checks them.
    Reveal(EventFileArgs),
    /// Check published rounds against the commitment and the revealed secret.
    Verify(EventVerifyArgs),
}

/// `chess960 event new --rounds K [--dfrc] [--name NAME] [--secret S] -o FILE`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct EventNewArgs {
    /// Number of rounds, 1..999.
    #[arg(long, value_parser = rounds_arg, allow_negative_numbers = true)]
    pub rounds: u32,
    /// Draw Double Fischer Random starts (921,600) instead of Chess960 (960).
    #[arg(long)]
    pub dfrc: bool,
    /// The event's name, printed on every page.
    #[arg(long, default_value = "", hide_default_value = true)]
    pub name: String,
    /// Your own secret (at least 16 bytes, hashed as UTF-8) instead of 32 random bytes from the system.
    /// It may begin with '-'.
    #[arg(long, allow_hyphen_values = true)]
    pub secret: Option<String>,
    /// The event file to write (JSON; keep it private until the event is over).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Replace an existing event file (its secret is lost).
    #[arg(long)]
    pub force: bool,
    /// The starts will also depend on a public part drawn after the commitment is published
    /// (dice rolled by players at the opening), recorded with `event public`: then nobody, the
    /// organiser included, can choose them by trying secrets. Announce it with the commitment.
    #[arg(long)]
    pub public_part: bool,
}

/// `chess960 event public FILE TEXT`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct EventPublicArgs {
    /// The event file of `event new --public-part`.
    pub file: PathBuf,
    /// The public part as drawn and published, exactly (e.g. "4 2 6 6 1 3 5 2 2 4"; quote it).
    #[arg(allow_hyphen_values = true)]
    pub text: String,
}

/// `chess960 event rounds FILE N`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct EventRoundsArgs {
    /// The event file of `event new`.
    pub file: PathBuf,
    /// The new number of rounds, 1..999.
    #[arg(value_parser = rounds_arg, allow_negative_numbers = true)]
    pub rounds: u32,
}

/// `--rounds`: a whole number, its range (1..[`crate::event::MAX_ROUNDS`])
/// checked with the event; one no `u32` holds is named by that range, not
/// by clap's own for a `u32` (0..=4294967295).
fn rounds_arg(text: &str) -> Result<u32, String> {
    let max = crate::event::MAX_ROUNDS;
    match text.trim().parse::<i128>() {
        Ok(n) => u32::try_from(n).map_err(|_| format!("an event has 1..{max} rounds")),
        Err(_) => Err(format!("the number of rounds is a whole number, 1..{max}")),
    }
}

/// `--round`: a whole number, checked against the event's rounds when its
/// file is read. A negative one is named as such, not taken for an option
/// (clap's tip then made it a second file); one no `u32` holds is above
/// any event's rounds.
fn round_arg(text: &str) -> Result<u32, String> {
    let max = crate::event::MAX_ROUNDS;
    match text.trim().parse::<i128>() {
        Ok(n) if n < 0 => Err("rounds are numbered from 1".into()),
        Ok(n) => u32::try_from(n).map_err(|_| format!("an event has at most {max} rounds")),
        Err(_) => Err("a round is a whole number from 1".into()),
    }
}

/// `chess960 event draw FILE [--round R]`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct EventDrawArgs {
    /// The event file of `event new` (`-`: standard input).
    pub file: PathBuf,
    /// Show this round (1..rounds) in full; without it, one line per round: `ROUND NUMBER X-FEN`.
    #[arg(long, value_parser = round_arg, allow_negative_numbers = true)]
    pub round: Option<u32>,
}

/// `chess960 event pack FILE [-o FILE.html] [--paper a4|letter] [--round R]`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct EventPackArgs {
    /// The event file of `event new` (`-`: standard input).
    pub file: PathBuf,
    /// The HTML file to write (stdout when omitted or `-`).
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    pub output: Option<PathBuf>,
    /// The paper the pages are laid out for (each fits both).
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
    /// Only this round's page (1..rounds): printed just before it is played, it gives no later
    /// round away.
    #[arg(long, value_parser = round_arg, allow_negative_numbers = true)]
    pub round: Option<u32>,
}

/// Paper sizes of printed pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PaperArg {
    /// ISO A4.
    A4,
    /// US Letter.
    Letter,
}

/// `chess960 event commitment FILE`, `chess960 event reveal FILE`
#[derive(Debug, Args)]
#[command(after_help = COMMAND_EXIT_STATUS)]
pub struct EventFileArgs {
    /// The event file of `event new` (`-`: standard input).
    pub file: PathBuf,
}

/// `chess960 event verify --commitment HEX --secret S (--round R --start N | --starts N1,N2,...)`
#[derive(Debug, Args)]
#[command(
    group(clap::ArgGroup::new("claim").required(true).args(["round", "starts"])),
    after_help = VERIFY_EXIT_STATUS
)]
pub struct EventVerifyArgs {
    /// The commitment published before the event (64 hex digits).
    #[arg(long)]
    pub commitment: String,
    /// The secret published after the event, exactly as published (it may begin with '-').
    #[arg(long, allow_hyphen_values = true)]
    pub secret: String,
    /// The starts are Double Fischer Random numbers (white + 960 * black).
    #[arg(long)]
    pub dfrc: bool,
    /// The event's public part, exactly as published (for an event that has one).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub public: Option<String>,
    /// The round to check (with --start).
    #[arg(long, requires = "start", value_parser = round_arg, allow_negative_numbers = true)]
    pub round: Option<u32>,
    /// The start played in --round: a number, a back rank or a FEN.
    #[arg(long, requires = "round", allow_negative_numbers = true)]
    pub start: Option<String>,
    /// The starts of rounds 1, 2, 3... separated by commas (numbers, back ranks or FENs): every
    /// round in one command.
    #[arg(long, value_name = "N1,N2,...", conflicts_with_all = ["round", "start"])]
    pub starts: Option<String>,
}

/// An error that ends a CLI command: printed as one line on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input (a number out of range, a FEN that is not a start, an
    /// option combination): exit status 2, as for clap's usage errors.
    #[error("{0}")]
    Usage(String),
    /// A file that cannot be read (or read as what it should be: a perft
    /// suite with a line that is not one) or written: exit status 1.
    #[error("{0}")]
    Io(String),
    /// Input that is well formed but does not add up (perft parts missing,
    /// doubled or of another run): exit status 1.
    #[error("{0}")]
    Mismatch(String),
    /// Standard output was closed by the reader (`| head -1`): the command
    /// ends quietly with status 0.
    #[error("standard output closed")]
    Closed,
}

impl CliError {
    /// The exit status of this error.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Io(_) | CliError::Mismatch(_) => ExitCode::from(1),
            CliError::Closed => ExitCode::SUCCESS,
        }
    }
}

/// Whether a file argument means stdout: `-`, as everywhere in this
/// program, or a name of the very file standard output is (`/dev/stdout`,
/// `/proc/self/fd/1`, the file the shell redirected it to). Written through
/// a name of its own, it would be opened again from its start: a `>>` log
/// lost what it held, and what the command then printed on stdout was
/// written over the file's first bytes.
fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-" || output_file::is_standard_output(path)
}

/// The text of an input file, or of stdin for `-` (as everywhere in this
/// program), the message naming it when it cannot be read.
fn read_input(path: &Path) -> Result<String, CliError> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| CliError::Io(format!("cannot read stdin: {e}")))?;
        return Ok(s);
    }
    std::fs::read_to_string(path)
        .map_err(|e| CliError::Io(format!("cannot read {}: {e}", path.display())))
}

/// Write a page (or chart) to `path`, or to stdout for `-`, naming the file
/// on failure. `true` when it went to stdout: the command then prints
/// nothing else there, so that `> page.html` keeps the page alone.
fn write_file(path: &Path, text: &str) -> Result<bool, CliError> {
    write_file_as(path, text, output_file::Access::Usual)
}

/// [`write_file`] with the file's `access`; written whole or not at all
/// ([`output_file`]).
fn write_file_as(path: &Path, text: &str, access: output_file::Access) -> Result<bool, CliError> {
    if is_stdout(path) {
        if access == output_file::Access::Private {
            output_file::restrict_standard_output();
        }
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
        return Ok(true);
    }
    output_file::write_whole(path, access, |w| {
        w.write_all(text.as_bytes())
            .map_err(|e| output_file::cannot_write(path, &e))
    })?;
    Ok(false)
}

/// An i/o error with no file named is one of standard output's (every
/// file read or written names its path in its own message).
impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::Closed
        } else {
            CliError::Io(format!("cannot write standard output: {e}"))
        }
    }
}

/// The one stderr line of an error that ends a command. A line break in
/// it (a file name with one, an engine's words) is written as `\n`: a
/// script reads one line.
fn say_error(e: &CliError) {
    let text = e.to_string().replace('\r', "\\r").replace('\n', "\\n");
    eprintln!("error: {text}");
}

/// Print clap's answer to a command line it did not run: `--help` and
/// `--version` on stdout (status 0, or 1 with the write's error when
/// stdout cannot take them, as every command's output), a usage error on
/// stderr (status 2).
fn clap_exit(e: &clap::Error) -> ExitCode {
    let printed = e.print().and_then(|()| io::stdout().flush());
    match printed {
        Err(err) if !e.use_stderr() => match CliError::from(err) {
            CliError::Closed => ExitCode::SUCCESS,
            other => {
                say_error(&other);
                other.exit_code()
            }
        },
        _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)),
    }
}

/// Parse the command line and run it. Usage errors are clap's own (the
/// message, a suggestion for a misspelt option, the usage line, "try
/// '--help'") with status 2.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let result = match cli.command {
        None | Some(Command::Uci) => crate::uci::run_stdio()
            .map(|()| ExitCode::SUCCESS)
            .map_err(CliError::from),
        Some(Command::Fen(a)) => positions::fen(&a),
        Some(Command::Idn(a)) => positions::idn(&a),
        Some(Command::Show(a)) => positions::show(&a),
        Some(Command::Random(a)) => positions::random(&a),
        Some(Command::Openings(a)) => positions::openings(&a),
        Some(Command::Perft(a)) => perft_cmd::perft(&a),
        Some(Command::PerftMerge(a)) => perft_shard::merge(&a),
        Some(Command::Bench(a)) => bench_cmd::bench(a.depth),
        Some(Command::Roll(a)) => procedures_cmd::roll(&a),
        Some(Command::Analyze(a)) => procedures_cmd::analyze(&a),
        Some(Command::Wrap(a)) => crate::wrap::run(crate::wrap::Config {
            command: a.engine,
            castling: a.engine_castling,
            fen: a.engine_fen,
            log: a.log,
            margin_ms: a.margin,
        })
        .map(|()| ExitCode::SUCCESS)
        .map_err(|e| CliError::Io(e.to_string())),
        Some(Command::Completions(a)) => install_files::completions(a.shell),
        Some(Command::Manpage(a)) => install_files::manpage(a.dir.as_deref()),
        Some(Command::Event(a)) => event_cmd::event(&a),
    };
    match result {
        Ok(code) => code,
        // A closed pipe ends quietly, but not a check already failed.
        Err(CliError::Closed) if perft_report::difference_found() => ExitCode::from(1),
        Err(CliError::Closed) => ExitCode::SUCCESS,
        Err(e) => {
            say_error(&e);
            e.exit_code()
        }
    }
}

/// Every text `cmd` and its subcommands show (about, argument help) that
/// holds a rustdoc link, `[`name`]`, as `command: text`. Why: clap prints
/// a doc comment as it is, so a link written for rustdoc reaches `--help`
/// and the man pages as brackets around a name the reader cannot look up.
/// It reads the about texts and the arguments' help, where doc comments
/// become help; not the help of a value list or `after_help`, which are
/// written by hand. The tests of this program's and the tuner's command
/// lines call it.
pub fn rustdoc_links(cmd: &clap::Command) -> Vec<String> {
    let texts = [cmd.get_about(), cmd.get_long_about()]
        .into_iter()
        .chain(
            cmd.get_arguments()
                .flat_map(|a| [a.get_help(), a.get_long_help()]),
        )
        .flatten()
        .map(ToString::to_string)
        .filter(|text| text.contains("[`"))
        .map(|text| format!("{}: {text}", cmd.get_name()));
    texts
        .chain(cmd.get_subcommands().flat_map(rustdoc_links))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{rustdoc_links, Cli};
    use clap::CommandFactory;

    #[test]
    fn help_texts_hold_no_rustdoc_links() {
        let found = rustdoc_links(&Cli::command());
        assert!(found.is_empty(), "{found:#?}");
    }
}
