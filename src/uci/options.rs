//! The engine's UCI options: their declarations and typed values.

use vampirc_uci::UciOptionConfig;

use super::output::option_line;

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted `Hash` (MB).
pub const MAX_HASH_MB: usize = 65_536;
/// Largest accepted `Threads`.
pub const MAX_THREADS: usize = 256;

/// Current option values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `Hash` in MB.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `MultiPV`.
    pub multipv: usize,
    /// `Move Overhead` in ms.
    pub move_overhead: u64,
    /// `UCI_Chess960`: castling written king-takes-rook.
    pub chess960: bool,
    /// `Ponder` (only tells us the GUI may send `go ponder`).
    pub ponder: bool,
    /// `Debug Log File` (empty: off).
    pub debug_log_file: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            // 100 ms: three flag falls in 121 games at 5+0.05 with 30 ms on a
            // loaded 2-core machine (overruns of 6-96 ms); GUIs rarely add less.
            move_overhead: 100,
            chess960: false,
            ponder: false,
            debug_log_file: String::new(),
        }
    }
}

/// A validated `setoption`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// New hash size.
    Hash(usize),
    /// Empty the hash.
    ClearHash,
    /// Thread count.
    Threads(usize),
    /// Number of PV lines.
    MultiPv(usize),
    /// Move overhead.
    MoveOverhead(u64),
    /// Chess960 castling notation.
    Chess960(bool),
    /// Pondering allowed.
    Ponder(bool),
    /// Debug log path.
    DebugLogFile(String),
}

fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
    let n: i64 = v
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: '{v}' is not an integer"))?;
    if n < min || n > max {
        return Err(format!("option {name}: {n} out of range {min}..{max}"));
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(v) => Err(format!("option {name}: '{v}' is not true or false")),
        None => Err(format!("option {name} needs true or false")),
    }
}

/// Read a `setoption` (names are case-insensitive, as the UCI spec says).
///
/// # Errors
/// Unknown option, missing or malformed value, value out of range.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Change, String> {
    let key = name.trim().to_ascii_lowercase();
    Ok(match key.as_str() {
        "hash" => Change::Hash(spin("Hash", value, 1, MAX_HASH_MB as i64)? as usize),
        "clear hash" => Change::ClearHash,
        "threads" => Change::Threads(spin("Threads", value, 1, MAX_THREADS as i64)? as usize),
        "multipv" => Change::MultiPv(spin("MultiPV", value, 1, 256)? as usize),
        "move overhead" => Change::MoveOverhead(spin("Move Overhead", value, 0, 5000)? as u64),
        "uci_chess960" => Change::Chess960(check("UCI_Chess960", value)?),
        "ponder" => Change::Ponder(check("Ponder", value)?),
        "debug log file" => Change::DebugLogFile(value.unwrap_or("").trim().to_owned()),
        _ => return Err(format!("unknown option '{}'", name.trim())),
    })
}

impl Options {
    /// Apply a validated change to the stored values.
    pub fn apply(&mut self, change: &Change) {
        match change {
            Change::Hash(mb) => self.hash_mb = *mb,
            Change::ClearHash => {}
            Change::Threads(n) => self.threads = *n,
            Change::MultiPv(n) => self.multipv = *n,
            Change::MoveOverhead(ms) => self.move_overhead = *ms,
            Change::Chess960(b) => self.chess960 = *b,
            Change::Ponder(b) => self.ponder = *b,
            Change::DebugLogFile(p) => self.debug_log_file = p.clone(),
        }
    }
}

/// The `option` lines sent after `uci`.
pub fn declarations() -> Vec<String> {
    let d = Options::default();
    let spin = |name: &str, default: i64, min: i64, max: i64| {
        option_line(
            UciOptionConfig::Spin {
                name: name.into(),
                default: Some(default),
                min: Some(min),
                max: Some(max),
            },
            format!("option name {name} type spin default {default} min {min} max {max}"),
        )
    };
    let check = |name: &str, default: bool| {
        option_line(
            UciOptionConfig::Check {
                name: name.into(),
                default: Some(default),
            },
            format!("option name {name} type check default {default}"),
        )
    };
    vec![
        spin("Hash", d.hash_mb as i64, 1, MAX_HASH_MB as i64),
        option_line(
            UciOptionConfig::Button {
                name: "Clear Hash".into(),
            },
            "option name Clear Hash type button".into(),
        ),
        spin("Threads", 1, 1, MAX_THREADS as i64),
        spin("MultiPV", 1, 1, 256),
        spin("Move Overhead", d.move_overhead as i64, 0, 5000),
        check("Ponder", false),
        check("UCI_Chess960", false),
        // vampirc-uci writes an empty string default as nothing; GUIs want
        // the `<empty>` convention Stockfish uses.
        "option name Debug Log File type string default <empty>".into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_well_formed() {
        let lines = declarations();
        assert!(lines
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"));
        assert!(lines
            .iter()
            .any(|l| l == "option name Hash type spin default 16 min 1 max 65536"));
        for l in &lines {
            assert!(l.starts_with("option name "), "{l}");
        }
    }

    #[test]
    fn changes_are_validated() {
        assert_eq!(parse_change("hash", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(
            parse_change("UCI_Chess960", Some("true")),
            Ok(Change::Chess960(true))
        );
        assert!(parse_change("Hash", Some("0"))
            .unwrap_err()
            .contains("range"));
        assert!(parse_change("Hash", Some("lots")).is_err());
        assert!(parse_change("Hash", None).is_err());
        assert!(parse_change("Threads", Some("100000")).is_err());
        assert!(parse_change("UCI_Chess960", Some("maybe")).is_err());
        assert!(parse_change("Colour", Some("red"))
            .unwrap_err()
            .contains("unknown"));
        assert_eq!(parse_change("Clear Hash", None), Ok(Change::ClearHash));
    }
}
