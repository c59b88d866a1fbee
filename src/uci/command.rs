//! Typed UCI commands, parsed from one line of GUI input.
//!
//! Parsing is pure and total: every line yields either a [`Command`] or a
//! [`ParseError`] naming the culprit, never a panic. `position` and `go` are
//! read here rather than by vampirc-uci because that crate cannot read
//! Shredder-FEN, reads `position startpos960 518` as plain `startpos`, drops
//! unknown trailing tokens and panics on `go depth 300`.
//!
//! Moves inside `position ... moves` are kept as text here: how they read
//! (every castling dialect) and whether they are legal depends on the
//! position, and is checked when the command is applied (see [`crate::uci`]).

use std::fmt;

use crate::whole_number::digits_only;

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: must always be answered with `readyok`.
    IsReady,
    /// `setoption name <id> [value <x>]`; the name may contain spaces.
    SetOption {
        /// Option name as sent (matched case-insensitively).
        name: String,
        /// Value, if any (buttons have none).
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored (the engine is free).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position ...`.
    Position(PositionCommand),
    /// `go ...`.
    Go(GoCommand),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: print the board (a debugging extension, as in Stockfish).
    Display,
    /// `eval`: print the static evaluation (debugging extension).
    Eval,
    /// `help`: list the commands, for a person typing at the engine.
    Help,
}

/// Where a `position` command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartSpec {
    /// `startpos`: the classical start position.
    StartPos,
    /// `fen <4 to 6 fields>`, kept as text; validated when applied.
    Fen(String),
    /// `startpos960 <n>`: Chess960 start by Scharnagl number (0..959).
    Start960(u32),
    /// `startpos960 random`: a uniformly random Chess960 start.
    Start960Random,
    /// `dfrc <n>`: Double Fischer Random start `white + 960 * black`
    /// (0..921599).
    Dfrc(u32),
    /// `dfrc random`: a uniformly random DFRC start.
    DfrcRandom,
}

/// A parsed `position` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionCommand {
    /// The starting point.
    pub start: StartSpec,
    /// Moves as sent, read against the position when applied.
    pub moves: Vec<String>,
}

/// Limits of a `go` command. Times are in milliseconds and may be negative
/// (some GUIs send a negative remaining time after a flag); the time manager
/// clamps them. A time with a fraction (`wtime 2000.5`, from GUIs that keep
/// their clocks in floating point) is read as its whole milliseconds, as
/// Stockfish reads it; counts (`depth`, `nodes`, `mate`, `movestogo`,
/// `perft`) are whole numbers only.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// `searchmoves`: restrict the root to these moves (UCI text).
    pub searchmoves: Vec<String>,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `wtime`.
    pub wtime: Option<i64>,
    /// `btime`.
    pub btime: Option<i64>,
    /// `winc`.
    pub winc: Option<i64>,
    /// `binc`.
    pub binc: Option<i64>,
    /// `movestogo`.
    pub movestogo: Option<u32>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate` in moves.
    pub mate: Option<u32>,
    /// `movetime`.
    pub movetime: Option<i64>,
    /// `infinite`.
    pub infinite: bool,
    /// `perft <depth>`: count leaves per root move instead of searching.
    pub perft: Option<u32>,
    /// Words that were not understood and were skipped (an unknown token,
    /// a key without a value, a key with a malformed value), as written.
    pub ignored: Vec<String>,
    /// The keys among these words that were sent without a readable value
    /// (`wtime 2e3`, `btime` at the end of the line), so that a clock that
    /// was sent but could not be read is not taken for no clock at all.
    pub unread_keys: Vec<&'static str>,
}

/// A `go` as it is searched, once what could not be read in it is read as
/// below: the clock of the side to move, the depth, and what the GUI is
/// told. The engine and `chess960 wrap` (for the engine behind it) read a
/// `go` so alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoReading {
    /// The side to move's clock (ms): as sent, or 0 where it was sent but
    /// cannot be read, or only the other side's was sent.
    pub time: Option<i64>,
    /// The depth: as sent, or 1 where a limit was sent that cannot be read
    /// and nothing else ends the search.
    pub depth: Option<u32>,
    /// The searchmoves legal in the position (none for a `go perft`, which
    /// counts every move).
    pub searchmoves: Vec<shakmaty::Move>,
    /// For the GUI (`info string error: ...`): what was ignored and how
    /// the rest is searched.
    pub notices: Vec<String>,
}

impl GoCommand {
    /// Read this `go` in `pos`: every word skipped is named in the
    /// notices, [`GoCommand::ignored`] quoted and the searchmoves not legal
    /// there.
    pub fn reading(&self, pos: &shakmaty::Chess) -> GoReading {
        use shakmaty::Position;
        let mut ignored: Vec<String> = self.ignored.iter().map(|w| format!("'{w}'")).collect();
        let mut searchmoves = Vec::new();
        // A `go perft` names all its searchmoves as ignored, below.
        if self.perft.is_none() {
            for m in &self.searchmoves {
                match crate::notation::parse_uci_move(pos, m) {
                    Ok(mv) => searchmoves.push(mv),
                    Err(e) => ignored.push(format!("searchmoves {e}")),
                }
            }
        }
        let white = pos.turn().is_white();
        let (our_time, their_time, our_key, their_key) = if white {
            (self.wtime, self.btime, "wtime", "btime")
        } else {
            (self.btime, self.wtime, "btime", "wtime")
        };
        // The side to move's clock was sent but could not be read (`wtime
        // 2e3`), or only the other side's was sent (`go wtime 1000` with
        // Black to move, as python-chess writes a limit on White's clock):
        // that is a timed game, not an unlimited search (the GUI's flag
        // would fall). It counts as 0 ms: the move of the first iteration,
        // at once (Stockfish also manages time once either clock is given).
        let clock_unread = our_time.is_none()
            && self.movetime.is_none()
            && !self.infinite
            && self.unread_keys.contains(&our_key);
        let clock_missing = our_time.is_none()
            && self.movetime.is_none()
            && !self.infinite
            && !clock_unread
            && (their_time.is_some() || self.unread_keys.contains(&their_key));
        let time = if clock_unread || clock_missing {
            Some(0)
        } else {
            our_time
        };
        // A limit that was sent but cannot be read (`movetime 2e2`, `depth
        // 5.5`, `perft -1`) or is misspelt (`movetim 100`, `Depth 2`) with
        // nothing else to end the search: not an unlimited search either
        // (no `stop` would come), but the shortest one, depth 1. A pondering
        // one is still held until `ponderhit` or `stop`, then answered at
        // once (after `ponderhit` nothing else would end it).
        let limit_unread = time.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && !self.infinite
            && (!self.ignored.is_empty()
                || self
                    .unread_keys
                    .iter()
                    .any(|k| matches!(*k, "movetime" | "depth" | "nodes" | "mate" | "perft")));
        let depth = if limit_unread { Some(1) } else { self.depth };
        let mut notices = Vec::new();
        if !ignored.is_empty() {
            let rest = if self.perft.is_some() {
                "counting with the rest".to_owned()
            } else if clock_unread {
                format!("searching with the rest, {our_key} as 0 (moving at once)")
            } else if limit_unread {
                "searching with the rest, to depth 1 (moving at once)".to_owned()
            } else {
                "searching with the rest".to_owned()
            };
            notices.push(format!("go: ignored {}; {rest}", ignored.join(", ")));
        }
        if clock_missing && self.perft.is_none() {
            let side = if white { "White" } else { "Black" };
            notices.push(format!(
                "go: no {our_key} for {side} to move, only {their_key}; {our_key} as 0 (moving at once)"
            ));
        }
        if self.perft.is_some() && !self.searchmoves.is_empty() {
            // Said, not done silently: a count of some moves only would be
            // read as the position's.
            notices.push(format!(
                "go perft counts every legal move: searchmoves {} ignored",
                self.searchmoves
                    .iter()
                    .map(|m| shorten(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        GoReading {
            time,
            depth,
            searchmoves,
            notices,
        }
    }
}

/// Why a line was refused. The message names the culprit token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

/// Command words, used to find the command in a line that starts with
/// unknown tokens (the UCI specification asks engines to skip those).
const COMMAND_WORDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "help",
];

/// The outcome of reading one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The command, or `None` for a blank line.
    pub command: Option<Command>,
    /// Leading tokens that were skipped because they are not commands.
    pub skipped: Vec<String>,
    /// Tokens after a command that takes none (`stop now`): skipped too,
    /// so that the command still runs (a `stop` refused left its search
    /// running, and the GUI without its `bestmove`).
    pub trailing: Vec<String>,
}

/// The commands that take no arguments.
const NO_ARGUMENTS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
];

/// Parse one line of GUI input.
///
/// Leading unknown tokens are skipped as the UCI specification asks
/// (`joho debug on` reads as `debug on`) and reported in
/// [`Parsed::skipped`] so the caller can say so, as are tokens after a
/// command that takes none ([`Parsed::trailing`]); a line with no command
/// word at all is an error.
///
/// # Errors
/// A [`ParseError`] naming the first token that cannot be read.
pub fn parse_line(line: &str) -> Result<Parsed, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok(Parsed {
            command: None,
            skipped: Vec::new(),
            trailing: Vec::new(),
        });
    }
    let Some(start) = tokens.iter().position(|t| COMMAND_WORDS.contains(t)) else {
        return err(format!("unknown command '{}'", shorten(tokens[0])));
    };
    let skipped = tokens[..start].iter().map(|t| shorten(t)).collect();
    let (words, trailing) = if NO_ARGUMENTS.contains(&tokens[start]) {
        let trailing = tokens[start + 1..].iter().map(|t| shorten(t)).collect();
        (&tokens[start..=start], trailing)
    } else {
        (&tokens[start..], Vec::new())
    };
    let mut command = parse_tokens(words)?;
    if let Command::SetOption { value: Some(v), .. } = &mut command {
        *v = value_as_written(line, words).unwrap_or(std::mem::take(v));
    }
    Ok(Parsed {
        command: Some(command),
        skipped,
        trailing,
    })
}

/// A `setoption` value as the line has it, from its first word to its
/// last, the spaces between them kept: a path (`Debug Log File`) may hold
/// two in a row, and joining the words with one space named another file.
/// `words` are slices of `line`.
fn value_as_written(line: &str, words: &[&str]) -> Option<String> {
    let at = words.iter().position(|t| *t == "value")?;
    let (first, last) = (words.get(at + 1)?, words.last()?);
    let offset = |t: &str| (t.as_ptr() as usize).checked_sub(line.as_ptr() as usize);
    let (from, to) = (offset(first)?, offset(last)? + last.len());
    line.get(from..to).map(str::to_owned)
}

/// The command word of a line (the first token that is one), if any:
/// which command a line that cannot be read was meant to be.
pub fn command_word(line: &str) -> Option<&str> {
    line.split_whitespace().find(|t| COMMAND_WORDS.contains(t))
}

/// Cut very long tokens so an error message stays one readable line.
pub fn shorten(token: &str) -> String {
    const MAX: usize = 40;
    if token.chars().count() <= MAX {
        token.to_owned()
    } else {
        let head: String = token.chars().take(MAX).collect();
        format!("{head}...")
    }
}

fn parse_tokens(tokens: &[&str]) -> Result<Command, ParseError> {
    let (word, rest) = match tokens.split_first() {
        Some((w, r)) => (*w, r),
        None => return err("empty command"),
    };
    let no_args = |cmd: Command| -> Result<Command, ParseError> {
        match rest.first() {
            None => Ok(cmd),
            Some(t) => err(format!("unexpected token '{}' after '{word}'", shorten(t))),
        }
    };
    match word {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "help" => Ok(Command::Help),
        "register" => Ok(Command::Register),
        "debug" => match rest {
            ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            [] => err("debug needs 'on' or 'off'"),
            ["on" | "off", t, ..] => err(format!("unexpected token '{}' after debug", shorten(t))),
            [t, ..] => err(format!("debug needs 'on' or 'off', not '{}'", shorten(t))),
        },
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest).map(Command::Position),
        "go" => Ok(Command::Go(parse_go(rest))),
        other => err(format!("unknown command '{}'", shorten(other))),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    if rest.first() != Some(&"name") {
        return err("setoption needs 'name <id> [value <x>]'");
    }
    let rest = &rest[1..];
    let value_at = rest.iter().position(|t| *t == "value");
    let (name_tokens, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name_tokens.is_empty() {
        return err("setoption has an empty option name");
    }
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

/// A start number below `count` after `word` (`startpos960`, `frc`,
/// `dfrc`), or an error naming the number as typed.
fn start_number(word: &str, arg: &str, count: u32) -> Result<u32, ParseError> {
    use crate::startpos::{number_below, NumberError};
    number_below(arg, count).or_else(|e| match e {
        NumberError::TooLarge(t) => err(format!(
            "{word} number {t} out of range: valid numbers are 0..{}",
            count - 1
        )),
        NumberError::NotANumber(t) => err(format!(
            "{word} needs a number 0..{} or 'random', not '{}'",
            count - 1,
            shorten(&t)
        )),
    })
}

fn parse_position(rest: &[&str]) -> Result<PositionCommand, ParseError> {
    let (start, after) = match rest {
        [] => return err(
            "position needs 'startpos', 'fen <FEN>', 'startpos960 <n|random>' or 'dfrc <n|random>'",
        ),
        ["startpos", after @ ..] => (StartSpec::StartPos, after),
        // `frc N` is the spelling some engines read (Viridithas).
        [word @ ("startpos960" | "frc"), arg, after @ ..] => {
            let spec = if *arg == "random" {
                StartSpec::Start960Random
            } else {
                StartSpec::Start960(start_number(word, arg, crate::startpos::COUNT)?)
            };
            (spec, after)
        }
        ["dfrc", arg, after @ ..] => {
            let spec = if *arg == "random" {
                StartSpec::DfrcRandom
            } else {
                StartSpec::Dfrc(start_number("dfrc", arg, crate::startpos::DFRC_COUNT)?)
            };
            (spec, after)
        }
        [word @ ("startpos960" | "frc" | "dfrc")] => {
            return err(format!(
                "{word} needs a number 0..{} or 'random'",
                if *word == "dfrc" {
                    crate::startpos::DFRC_COUNT - 1
                } else {
                    crate::startpos::COUNT - 1
                }
            ))
        }
        ["fen", after @ ..] => {
            let end = after
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(after.len());
            if end == 0 {
                return err("position fen needs a FEN");
            }
            if end > 6 {
                return err(format!(
                    "position fen has {end} fields, a FEN has at most 6 (unexpected token '{}')",
                    shorten(after[6])
                ));
            }
            (StartSpec::Fen(after[..end].join(" ")), &after[end..])
        }
        [t, ..] => {
            return err(format!(
                "position needs 'startpos', 'fen', 'startpos960' or 'dfrc', not '{}'",
                shorten(t)
            ))
        }
    };
    let moves = match after {
        [] => Vec::new(),
        // The moves are read against the position when the command is
        // applied, so that one that cannot be read is named with its place
        // and the moves before it still count.
        ["moves", moves @ ..] => moves.iter().map(|m| (*m).to_owned()).collect(),
        [t, ..] => {
            return err(format!(
                "unexpected token '{}' in position command (expected 'moves')",
                shorten(t)
            ))
        }
    };
    Ok(PositionCommand { start, moves })
}

/// The `go` keywords: a value that is one of these is never taken as the
/// value of the key before it (`go wtime btime 900` ignores `wtime` only).
const GO_KEYS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "perft",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Read the value of `key` with `read`. `Ok(None)` when there is no value
/// to take (the line ends, or the next token is another keyword): only the
/// key is ignored. `Err` with the ignored words when the value is there but
/// `read` cannot read it: key and value are ignored together.
fn read_value<T>(
    key: &str,
    value: Option<&&str>,
    read: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, String> {
    match value {
        None => Ok(None),
        Some(v) if GO_KEYS.contains(v) => Ok(None),
        Some(v) => read(v)
            .map(Some)
            .ok_or_else(|| format!("{key} {}", shorten(v))),
    }
}

/// The unsigned types a `go` count is read into.
trait Count: std::str::FromStr {
    const MAX: Self;
}

impl Count for u32 {
    const MAX: Self = u32::MAX;
}

impl Count for u64 {
    const MAX: Self = u64::MAX;
}

/// A count: a whole number, read as `T`'s largest where it is beyond it
/// (`go depth 4294967296` is a very deep search, capped where the search
/// caps it; read as unreadable, it searched to depth 1). A sign, a
/// fraction or anything but digits is not read.
fn count<T: Count>(text: &str) -> Option<T> {
    text.parse()
        .ok()
        .or_else(|| digits_only(text.strip_prefix('+').unwrap_or(text)).then_some(T::MAX))
}

/// A time in milliseconds: a whole number, or a decimal one (`2000.5`,
/// `-12.75`, `2000.`) read as its whole milliseconds, the fraction dropped
/// (towards zero) as Stockfish's reading of a clock drops it. Digits are
/// needed before the point; exponents (`2e3`), `inf` and `nan` are not
/// read. A time beyond the range of `i64` is read as its end: a clock of
/// 10^30 ms (python-chess writes `Limit(white_clock=1e30)` so) is a very
/// long one, where reading it as missing had the engine move at once.
fn millis(text: &str) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = whole.strip_prefix(['+', '-']).unwrap_or(whole);
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if digits.is_empty() || !all_digits(digits) || !all_digits(fraction) {
        return None;
    }
    Some(whole.parse().unwrap_or(if whole.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

/// Read a `go` line. Never refused: the UCI protocol asks an engine to
/// ignore what it does not understand and use the rest, and a GUI that
/// sent `go` waits for a `bestmove`. Everything skipped is listed in
/// [`GoCommand::ignored`] so the session can say so.
fn parse_go(rest: &[&str]) -> GoCommand {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let value = rest.get(i + 1);
        macro_rules! take {
            ($key:literal, $field:ident, $read:expr) => {
                match read_value($key, value, $read) {
                    Ok(Some(n)) => {
                        go.$field = Some(n);
                        2
                    }
                    Ok(None) => {
                        go.ignored.push(format!("{key} (no value)"));
                        go.unread_keys.push($key);
                        1
                    }
                    Err(words) => {
                        go.ignored.push(words);
                        go.unread_keys.push($key);
                        2
                    }
                }
            };
        }
        let step = match key {
            "wtime" => take!("wtime", wtime, millis),
            "btime" => take!("btime", btime, millis),
            "winc" => take!("winc", winc, millis),
            "binc" => take!("binc", binc, millis),
            "movetime" => take!("movetime", movetime, millis),
            "movestogo" => take!("movestogo", movestogo, count),
            "depth" => take!("depth", depth, count),
            "nodes" => take!("nodes", nodes, count),
            "mate" => take!("mate", mate, count),
            "perft" => take!("perft", perft, count),
            "infinite" => {
                go.infinite = true;
                1
            }
            "ponder" => {
                go.ponder = true;
                1
            }
            "searchmoves" => {
                // searchmoves takes every following token that reads as a move.
                let mut j = i + 1;
                while let Some(t) = rest.get(j) {
                    if !crate::notation::is_move_text(t) {
                        break;
                    }
                    go.searchmoves.push((*t).to_owned());
                    j += 1;
                }
                if j == i + 1 {
                    go.ignored.push("searchmoves (no move)".to_owned());
                }
                j - i
            }
            other => {
                go.ignored.push(shorten(other));
                1
            }
        };
        i += step;
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        parse_line(line)
            .expect("parses")
            .command
            .expect("has a command")
    }

    fn refused(line: &str) -> String {
        parse_line(line).expect_err("must be refused").0
    }

    #[test]
    fn simple_commands() {
        assert_eq!(cmd("uci"), Command::Uci);
        assert_eq!(cmd("  isready  "), Command::IsReady);
        assert_eq!(cmd("debug on"), Command::Debug(true));
        assert_eq!(cmd("quit"), Command::Quit);
        assert_eq!(parse_line("").unwrap().command, None);
        assert_eq!(parse_line(" \t ").unwrap().command, None);
    }

    #[test]
    fn leading_unknown_tokens_are_skipped_and_reported() {
        let p = parse_line("joho debug on").unwrap();
        assert_eq!(p.command, Some(Command::Debug(true)));
        assert_eq!(p.skipped, vec!["joho".to_owned()]);
        assert!(refused("hello world").contains("unknown command 'hello'"));
        // Tokens after a command that takes none: skipped, the command runs.
        for (line, command) in [
            ("isready now", Command::IsReady),
            ("stop please", Command::Stop),
        ] {
            let p = parse_line(line).unwrap();
            assert_eq!(p.command, Some(command), "{line}");
            assert_eq!(p.trailing.len(), 1, "{line}");
        }
    }

    #[test]
    fn startpos960_is_not_read_as_startpos() {
        let Command::Position(p) = cmd("position startpos960 518") else {
            panic!("not a position")
        };
        assert_eq!(p.start, StartSpec::Start960(518));
        let Command::Position(p) = cmd("position startpos960 random moves e2e4") else {
            panic!("not a position")
        };
        assert_eq!(p.start, StartSpec::Start960Random);
        assert_eq!(p.moves, vec!["e2e4".to_owned()]);
        assert!(refused("position startpos960 960").contains("out of range"));
        assert!(refused("position startpos960 -1").contains("'-1'"));
        assert!(refused("position startpos960").contains("needs"));
    }

    #[test]
    fn shredder_fen_and_moves() {
        let Command::Position(p) =
            cmd("position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g1h1")
        else {
            panic!("not a position")
        };
        assert_eq!(
            p.start,
            StartSpec::Fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1".into())
        );
        assert_eq!(p.moves, vec!["g1h1".to_owned()]);
    }

    #[test]
    fn position_errors_name_the_culprit() {
        assert!(refused("position startpos e2e4").contains("'e2e4'"));
        assert!(refused("position fen").contains("needs a FEN"));
        assert!(refused("position banana").contains("'banana'"));
        assert!(refused("position fen a b c d e f g").contains("'g'"));
    }

    #[test]
    fn position_moves_are_kept_as_text_in_every_dialect() {
        let Command::Position(p) = cmd("position startpos moves e2e4 O-O 0-0-0 xyz 0000") else {
            panic!("not a position");
        };
        assert_eq!(p.moves, ["e2e4", "O-O", "0-0-0", "xyz", "0000"]);
        assert_eq!(command_word("joho position banana"), Some("position"));
        assert_eq!(command_word("banana"), None);
    }

    #[test]
    fn a_setoption_value_keeps_its_inner_spaces() {
        let parsed = parse_line("setoption  name Debug Log File value  /tmp/a  b.log ").unwrap();
        assert_eq!(
            parsed.command,
            Some(Command::SetOption {
                name: "Debug Log File".into(),
                value: Some("/tmp/a  b.log".into()),
            })
        );
        let Some(Command::SetOption { value, .. }) =
            parse_line("setoption name Hash value").unwrap().command
        else {
            panic!()
        };
        assert_eq!(value, Some(String::new()));
    }

    #[test]
    fn go_limits() {
        let Command::Go(g) = cmd("go wtime 1000 btime -20 winc 10 binc 10 movestogo 5") else {
            panic!()
        };
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(-20));
        assert_eq!(g.movestogo, Some(5));
        let Command::Go(g) = cmd("go depth 300") else {
            panic!()
        };
        assert_eq!(g.depth, Some(300));
        let Command::Go(g) = cmd("go infinite searchmoves e2e4 d2d4") else {
            panic!()
        };
        assert!(g.infinite);
        assert_eq!(g.searchmoves, vec!["e2e4".to_owned(), "d2d4".to_owned()]);
        let Command::Go(g) = cmd("go searchmoves e2e4 ponder movetime 50") else {
            panic!()
        };
        assert!(g.ponder);
        assert_eq!(g.movetime, Some(50));
        let Command::Go(g) = cmd("go perft 3") else {
            panic!()
        };
        assert_eq!(g.perft, Some(3));
        assert_eq!(cmd("go"), Command::Go(GoCommand::default()));
    }

    fn go(line: &str) -> GoCommand {
        match cmd(line) {
            Command::Go(g) => g,
            other => panic!("'{line}' read as {other:?}"),
        }
    }

    #[test]
    fn go_ignores_what_it_cannot_read_and_keeps_the_rest() {
        let g = go("go depth");
        assert_eq!(
            (g.depth, g.ignored),
            (None, vec!["depth (no value)".to_owned()])
        );
        let g = go("go depth x movetime 50");
        assert_eq!(g.depth, None);
        assert_eq!(g.movetime, Some(50));
        assert_eq!(g.ignored, vec!["depth x".to_owned()]);
        // A whole number beyond its type is its type's largest, never
        // unreadable (which searched to depth 1); a sign or fraction is.
        let g = go("go depth 99999999999999999999 nodes 184467440737095516160");
        assert_eq!((g.depth, g.nodes), (Some(u32::MAX), Some(u64::MAX)));
        assert!(g.ignored.is_empty(), "{:?}", g.ignored);
        let g = go("go depth -5 mate 2.5 movestogo +7");
        assert_eq!((g.depth, g.mate, g.movestogo), (None, None, Some(7)));
        assert_eq!(
            g.ignored,
            vec!["depth -5".to_owned(), "mate 2.5".to_owned()]
        );
        let g = go("go fast");
        assert_eq!(g.ignored, vec!["fast".to_owned()]);
        let g = go("go wtime 2e3 btime 2000");
        assert_eq!((g.wtime, g.btime), (None, Some(2000)));
        assert_eq!(g.ignored, vec!["wtime 2e3".to_owned()]);
        assert_eq!(g.unread_keys, vec!["wtime"]);
        let g = go("go depth 3 foo");
        assert_eq!((g.depth, g.ignored), (Some(3), vec!["foo".to_owned()]));
        let g = go("go movetime 200 nodes");
        assert_eq!(g.movetime, Some(200));
        assert_eq!(g.ignored, vec!["nodes (no value)".to_owned()]);
        // A keyword is never read as the value of the key before it.
        let g = go("go wtime btime 900");
        assert_eq!((g.wtime, g.btime), (None, Some(900)));
        assert_eq!(g.ignored, vec!["wtime (no value)".to_owned()]);
        let g = go("go searchmoves e2e4 depth 3 searchmoves");
        assert_eq!(g.searchmoves, vec!["e2e4".to_owned()]);
        assert_eq!(g.ignored, vec!["searchmoves (no move)".to_owned()]);
        assert!(go("go depth 3 movetime 9").ignored.is_empty());
    }

    #[test]
    fn times_with_a_fraction_are_read_as_whole_milliseconds() {
        let g = go("go wtime 2000.5 btime 2000 winc 10.25 binc 0.999 movetime 100.");
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc, g.movetime),
            (Some(2000), Some(2000), Some(10), Some(0), Some(100))
        );
        assert!(g.ignored.is_empty(), "{:?}", g.ignored);
        // Negative clocks (after a flag) keep their sign; the fraction goes
        // towards zero.
        let g = go("go wtime -12.75 btime +7.5");
        assert_eq!((g.wtime, g.btime), (Some(-12), Some(7)));
        // Beyond i64: its end, either way.
        let g = go("go wtime 9223372036854775808.5 btime -99999999999999999999");
        assert_eq!((g.wtime, g.btime), (Some(i64::MAX), Some(i64::MIN)));
        assert!(g.ignored.is_empty(), "{:?}", g.ignored);
        // Not times: exponents, a point without digits before it, two
        // points, words.
        for v in ["2e3", ".5", "1.2.3", "1.5e2", "inf", "NaN", "0x10", "-"] {
            let g = go(&format!("go wtime {v} btime 1"));
            assert_eq!(g.wtime, None, "wtime {v}");
            assert_eq!(g.ignored, vec![format!("wtime {v}")], "wtime {v}");
        }
        // Counts stay whole numbers.
        let g = go("go depth 5.5 nodes 100.0 movestogo 3.5 wtime 10");
        assert_eq!((g.depth, g.nodes, g.movestogo), (None, None, None));
        assert_eq!(g.unread_keys, vec!["depth", "nodes", "movestogo"]);
        assert_eq!(g.wtime, Some(10));
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            cmd("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            cmd("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(refused("setoption Hash 3").contains("name"));
    }

    #[test]
    fn long_tokens_are_shortened() {
        let long = "x".repeat(10_000);
        let msg = refused(&long);
        assert!(msg.len() < 100, "{msg}");
    }
}
