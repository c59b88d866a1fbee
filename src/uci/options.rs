//! The engine's UCI options, declared once.
//!
//! [`TABLE`] holds each option's name, type, default, range and a line on
//! what it does. The `option` lines sent after `uci`, the validation of
//! `setoption`, the defaults of [`Options`] and the option table in
//! README.md (checked by a test) all come from it, so a range or default
//! cannot disagree between them.

use vampirc_uci::UciOptionConfig;

use super::output::option_line;

/// What kind of value an option takes, with its default and range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Value before any `setoption`.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// Value before any `setoption`.
        default: bool,
    },
    /// An action without a value.
    Button,
    /// Free text (a path); `<empty>` stands for the empty string.
    Text,
}

/// Which option a [`Spec`] describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Id {
    /// `Hash`.
    Hash,
    /// `Clear Hash`.
    ClearHash,
    /// `Threads`.
    Threads,
    /// `MultiPV`.
    MultiPv,
    /// `Move Overhead`.
    MoveOverhead,
    /// `Ponder`.
    Ponder,
    /// `UCI_Chess960`.
    Chess960,
    /// `UCI_Chess960_Arena`.
    Chess960Arena,
    /// `Debug Log File`.
    DebugLogFile,
    /// `UCI_LimitStrength`.
    LimitStrength,
    /// `UCI_Elo`.
    Elo,
    /// A search number of a `tune` build (named as in
    /// `crate::search::params::TUNABLE`).
    #[cfg(feature = "tune")]
    SearchParam,
}

/// One option: everything the engine says or checks about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Which option.
    pub id: Id,
    /// The name as declared (matched case-insensitively on `setoption`).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: Kind,
    /// What it does, for people (README's table).
    pub what: &'static str,
}

impl Spec {
    /// The default of a spin option.
    const fn spin_default(&self) -> i64 {
        match self.kind {
            Kind::Spin { default, .. } => default,
            _ => 0,
        }
    }

    /// The default of a check option.
    const fn check_default(&self) -> bool {
        match self.kind {
            Kind::Check { default } => default,
            _ => false,
        }
    }

    /// The `option` line sent after `uci`. vampirc-uci writes it; our own
    /// rendering is the fallback when its text is not one clean line.
    pub fn declaration(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { default, min, max } => option_line(
                UciOptionConfig::Spin {
                    name: name.into(),
                    default: Some(default),
                    min: Some(min),
                    max: Some(max),
                },
                format!("option name {name} type spin default {default} min {min} max {max}"),
            ),
            Kind::Check { default } => option_line(
                UciOptionConfig::Check {
                    name: name.into(),
                    default: Some(default),
                },
                format!("option name {name} type check default {default}"),
            ),
            Kind::Button => option_line(
                UciOptionConfig::Button { name: name.into() },
                format!("option name {name} type button"),
            ),
            // vampirc-uci writes an empty string default as nothing; GUIs
            // want the `<empty>` convention Stockfish uses.
            Kind::Text => format!("option name {name} type string default <empty>"),
        }
    }

    /// Check a `setoption` value against the type and range.
    fn read(&self, value: Option<&str>) -> Result<Value, String> {
        read_value(self.name, self.kind, value)
    }
}

/// Read a `setoption` value for the option `name` of `kind`: its value, or
/// the message naming what is wrong with it.
fn read_value(name: &str, kind: Kind, value: Option<&str>) -> Result<Value, String> {
    match kind {
        Kind::Spin { min, max, .. } => {
            let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
            let n: i64 = v.trim().parse().map_err(|_| {
                let t = v.trim();
                if crate::whole_number::digits_only(t.strip_prefix(['+', '-']).unwrap_or(t)) {
                    // A whole number all the same, beyond what any spin holds.
                    format!("option {name}: {t} out of range {min}..{max}")
                } else {
                    format!("option {name}: '{v}' is not an integer")
                }
            })?;
            if n < min || n > max {
                return Err(format!("option {name}: {n} out of range {min}..{max}"));
            }
            Ok(Value::Int(n))
        }
        Kind::Check { .. } => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            Some(v) => Err(format!("option {name}: '{v}' is not true or false")),
            None => Err(format!("option {name} needs true or false")),
        },
        Kind::Button => Ok(Value::None),
        Kind::Text => {
            let v = value.unwrap_or("").trim();
            Ok(Value::Text(if v == "<empty>" { "" } else { v }.to_owned()))
        }
    }
}

/// Check a `setoption` value for `name` against the option another engine
/// declared under that name (its `option` lines, read by vampirc-uci
/// behind a panic guard), with the messages this engine gives for its own
/// options. `chess960 wrap` names a value the engine cannot read rather
/// than passing it on: Stockfish 15.1 exits on `setoption name Hash value
/// lots`, and the value, replayed at every restart, lost the engine for the
/// whole session.
///
/// `Ok(Some(value))`: the value as the engine reads it, to be sent in place
/// of the one written: `true` or `false` for a `check` (this engine reads
/// `TRUE` too, Stockfish 15.1 ignores it without a word), a `combo`'s `var`
/// as declared, a `spin`'s number as read (`+64` as `64`). `Ok(None)` where
/// there is nothing to check against: an option not declared (an engine
/// may take hidden ones), a string, a button, a declaration that is not
/// read.
///
/// # Errors
/// The message naming the option and the value.
pub fn check_declared(
    declarations: &[String],
    name: &str,
    value: Option<&str>,
) -> Result<Option<String>, String> {
    let name = name.trim();
    for line in declarations {
        let owned = line.clone();
        let Ok(vampirc_uci::UciMessage::Option(config)) =
            std::panic::catch_unwind(move || vampirc_uci::parse_one(&owned))
        else {
            continue;
        };
        if !config.get_name().trim().eq_ignore_ascii_case(name) {
            continue;
        }
        return match config {
            UciOptionConfig::Spin { min, max, .. } => {
                let kind = Kind::Spin {
                    default: 0,
                    min: min.unwrap_or(i64::MIN),
                    max: max.unwrap_or(i64::MAX),
                };
                match read_value(name, kind, value)? {
                    Value::Int(n) => Ok(Some(n.to_string())),
                    _ => Ok(None),
                }
            }
            UciOptionConfig::Check { .. } => {
                match read_value(name, Kind::Check { default: false }, value)? {
                    Value::Bool(b) => Ok(Some(b.to_string())),
                    _ => Ok(None),
                }
            }
            UciOptionConfig::Combo { var, .. } => {
                let v = value.map_or("", str::trim);
                if var.is_empty() {
                    return Ok(None);
                }
                match var.iter().find(|o| o.eq_ignore_ascii_case(v)) {
                    Some(declared) => Ok(Some(declared.clone())),
                    None => Err(format!(
                        "option {name}: '{v}' is not one of {}",
                        var.join(", ")
                    )),
                }
            }
            _ => Ok(None),
        };
    }
    Ok(None)
}

/// A value that passed [`Spec::read`].
enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
    None,
}

/// Largest accepted `Hash` (MB).
pub const MAX_HASH_MB: usize = 65_536;
/// Largest accepted `Threads`.
pub const MAX_THREADS: usize = 256;

/// `Hash`: transposition table size.
pub const HASH: Spec = Spec {
    id: Id::Hash,
    name: "Hash",
    kind: Kind::Spin {
        default: 16,
        min: 1,
        max: MAX_HASH_MB as i64,
    },
    what: "transposition table size in MB (refused beyond the memory the system has free)",
};
/// `Threads`: search threads (Lazy SMP).
pub const THREADS: Spec = Spec {
    id: Id::Threads,
    name: "Threads",
    kind: Kind::Spin {
        default: 1,
        min: 1,
        max: MAX_THREADS as i64,
    },
    what: "search threads; also used by go perft",
};
/// `MultiPV`: lines reported.
pub const MULTIPV: Spec = Spec {
    id: Id::MultiPv,
    name: "MultiPV",
    kind: Kind::Spin {
        default: 1,
        min: 1,
        max: 256,
    },
    what: "number of best lines reported while analysing",
};
/// `Move Overhead`: time kept back per move.
pub const MOVE_OVERHEAD: Spec = Spec {
    id: Id::MoveOverhead,
    name: "Move Overhead",
    kind: Kind::Spin {
        // 100 ms: three flag falls in 121 games at 5+0.05 with 30 ms on a
        // loaded 2-core machine (overruns of 6-96 ms); GUIs rarely add less.
        default: 100,
        min: 0,
        max: 5000,
    },
    what: "ms kept back per move for GUI and system latency (at most 5% of a go movetime)",
};
/// `Ponder`: the GUI may send `go ponder`.
pub const PONDER: Spec = Spec {
    id: Id::Ponder,
    name: "Ponder",
    kind: Kind::Check { default: false },
    what: "tells the engine the GUI may send go ponder",
};
/// `UCI_Chess960`: castles written king-takes-rook.
pub const CHESS960: Spec = Spec {
    id: Id::Chess960,
    name: "UCI_Chess960",
    kind: Kind::Check { default: false },
    what: "castles written king-takes-own-rook (always so from a Chess960 start other than the classical 518)",
};
/// `UCI_Chess960_Arena`: castles written `O-O`/`O-O-O`, the name several
/// engines give this option for Arena's Chess960 dialect.
pub const CHESS960_ARENA: Spec = Spec {
    id: Id::Chess960Arena,
    name: "UCI_Chess960_Arena",
    kind: Kind::Check { default: false },
    what: "castles written O-O / O-O-O in Chess960 games (Arena's dialect; in any game once the GUI sends a castle that way)",
};

/// `UCI_LimitStrength`: play at `UCI_Elo`.
pub const LIMIT_STRENGTH: Spec = Spec {
    id: Id::LimitStrength,
    name: "UCI_LimitStrength",
    kind: Kind::Check { default: false },
    what: "play at the level UCI_Elo sets instead of full strength",
};
/// `UCI_Elo`: the level of `UCI_LimitStrength`.
pub const ELO: Spec = Spec {
    id: Id::Elo,
    name: "UCI_Elo",
    kind: Kind::Spin {
        default: crate::strength::ELO_DEFAULT,
        min: crate::strength::ELO_MIN,
        max: crate::strength::ELO_MAX,
    },
    what: "level with UCI_LimitStrength, calibrated against Stockfish 15.1's UCI_Elo",
};

/// Every option, in the order they are declared after `uci`.
pub const TABLE: &[Spec] = &[
    HASH,
    Spec {
        id: Id::ClearHash,
        name: "Clear Hash",
        kind: Kind::Button,
        what: "empties the transposition table",
    },
    THREADS,
    MULTIPV,
    MOVE_OVERHEAD,
    PONDER,
    CHESS960,
    CHESS960_ARENA,
    LIMIT_STRENGTH,
    ELO,
    Spec {
        id: Id::DebugLogFile,
        name: "Debug Log File",
        kind: Kind::Text,
        what: "file that receives every line in and out, timestamped (`<` in, `>` out, `#` the end of input; empty: off)",
    },
];

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
    /// `UCI_Chess960_Arena`: castling written `O-O`/`O-O-O`.
    pub chess960_arena: bool,
    /// `Ponder` (only tells us the GUI may send `go ponder`).
    pub ponder: bool,
    /// `Debug Log File` (empty: off).
    pub debug_log_file: String,
    /// `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH.spin_default() as usize,
            threads: THREADS.spin_default() as usize,
            multipv: MULTIPV.spin_default() as usize,
            move_overhead: MOVE_OVERHEAD.spin_default() as u64,
            chess960: CHESS960.check_default(),
            chess960_arena: CHESS960_ARENA.check_default(),
            ponder: PONDER.check_default(),
            debug_log_file: String::new(),
            limit_strength: LIMIT_STRENGTH.check_default(),
            elo: ELO.spin_default(),
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
    /// Arena's castling notation.
    Chess960Arena(bool),
    /// Pondering allowed.
    Ponder(bool),
    /// Debug log path.
    DebugLogFile(String),
    /// Strength limit on or off.
    LimitStrength(bool),
    /// Level of the strength limit.
    Elo(i64),
    /// A search number of a `tune` build: its name and new value.
    #[cfg(feature = "tune")]
    SearchParam(&'static str, i32),
}

/// Read a `setoption` (names are case-insensitive, as the UCI spec says).
///
/// # Errors
/// Unknown option, missing or malformed value, value out of range.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Change, String> {
    let name = name.trim();
    let spec = all_specs()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let value = spec.read(value)?;
    // Ranges were checked by `read`, so the conversions below are exact.
    Ok(match (spec.id, value) {
        (Id::Hash, Value::Int(n)) => Change::Hash(n as usize),
        (Id::ClearHash, _) => Change::ClearHash,
        (Id::Threads, Value::Int(n)) => Change::Threads(n as usize),
        (Id::MultiPv, Value::Int(n)) => Change::MultiPv(n as usize),
        (Id::MoveOverhead, Value::Int(n)) => Change::MoveOverhead(n as u64),
        (Id::Chess960, Value::Bool(b)) => Change::Chess960(b),
        (Id::Chess960Arena, Value::Bool(b)) => Change::Chess960Arena(b),
        (Id::Ponder, Value::Bool(b)) => Change::Ponder(b),
        (Id::DebugLogFile, Value::Text(path)) => Change::DebugLogFile(path),
        (Id::LimitStrength, Value::Bool(b)) => Change::LimitStrength(b),
        (Id::Elo, Value::Int(n)) => Change::Elo(n),
        #[cfg(feature = "tune")]
        (Id::SearchParam, Value::Int(n)) => Change::SearchParam(spec.name, n as i32),
        (id, _) => unreachable!("option {id:?} read as another kind"),
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
            Change::Chess960Arena(b) => self.chess960_arena = *b,
            Change::Ponder(b) => self.ponder = *b,
            Change::DebugLogFile(p) => self.debug_log_file = p.clone(),
            Change::LimitStrength(b) => self.limit_strength = *b,
            Change::Elo(n) => self.elo = *n,
            // Held by the search itself (see `crate::search::params`).
            #[cfg(feature = "tune")]
            Change::SearchParam(..) => {}
        }
    }
}

/// The options for people, one line each (`chess960 uci --help` and its
/// man page, where a `cargo install` user without README reads them):
/// name, type and range, default, what it does.
pub fn described() -> Vec<String> {
    TABLE
        .iter()
        .map(|s| {
            let kind = match s.kind {
                Kind::Spin { default, min, max } => {
                    format!("integer {min}..{max}, default {default}")
                }
                Kind::Check { default } => format!("true or false, default {default}"),
                Kind::Button => "button".to_owned(),
                Kind::Text => "text, default empty".to_owned(),
            };
            format!("{} ({kind}): {}", s.name, s.what)
        })
        .collect()
}

/// The `option` lines sent after `uci`.
pub fn declarations() -> Vec<String> {
    all_specs().map(|s| s.declaration()).collect()
}

/// [`TABLE`], and in a `tune` build one spin option per tunable search
/// number after it.
fn all_specs() -> impl Iterator<Item = Spec> {
    let tunables = {
        #[cfg(feature = "tune")]
        {
            crate::search::params::TUNABLE.iter().map(|&(name, p)| {
                let (min, max) = p.range();
                Spec {
                    id: Id::SearchParam,
                    name,
                    kind: Kind::Spin {
                        default: i64::from(p.default_value()),
                        min: i64::from(min),
                        max: i64::from(max),
                    },
                    what: "a search number (tune build only)",
                }
            })
        }
        #[cfg(not(feature = "tune"))]
        {
            std::iter::empty()
        }
    };
    TABLE.iter().copied().chain(tunables)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_engine_s_declared_options_check_values() {
        // Stockfish 15.1's and Ethereal 12's lines as they print them, and
        // a combo.
        let declared: Vec<String> = [
            "option name Debug Log File type string default ",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Clear Hash type button",
            "option name Ponder type check default false",
            "option name ContemptDrawPenalty type spin default 12 min -300 max 300",
            "option name Style type combo default Normal var Solid var Normal var Risky",
        ]
        .map(String::from)
        .into();
        let check = |name: &str, value: Option<&str>| check_declared(&declared, name, value);
        assert_eq!(check("Hash", Some("64")), Ok(Some("64".to_owned())));
        assert_eq!(check("Hash", Some(" +64 ")), Ok(Some("64".to_owned())));
        assert_eq!(
            check("hash", Some("lots")),
            Err("option hash: 'lots' is not an integer".to_owned())
        );
        assert_eq!(
            check("Hash", Some("0")),
            Err("option Hash: 0 out of range 1..33554432".to_owned())
        );
        assert_eq!(
            check("ContemptDrawPenalty", Some("-300")),
            Ok(Some("-300".to_owned()))
        );
        assert_eq!(
            check("Ponder", Some("yes")),
            Err("option Ponder: 'yes' is not true or false".to_owned())
        );
        assert_eq!(check("Ponder", Some("true")), Ok(Some("true".to_owned())));
        assert_eq!(check("ponder", Some("TRUE")), Ok(Some("true".to_owned())));
        assert_eq!(check("style", Some("risky")), Ok(Some("Risky".to_owned())));
        assert_eq!(
            check("Style", Some("Wild")),
            Err("option Style: 'Wild' is not one of Solid, Normal, Risky".to_owned())
        );
        // Nothing to check against: a string, a button, an option not
        // declared (an engine may take hidden ones).
        assert_eq!(check("Debug Log File", Some("/tmp/x y")), Ok(None));
        assert_eq!(check("Clear Hash", None), Ok(None));
        assert_eq!(check("Secret", Some("lots")), Ok(None));
    }

    #[test]
    fn declarations_are_well_formed() {
        let lines = declarations();
        assert_eq!(lines.len(), all_specs().count());
        assert!(lines.len() >= TABLE.len());
        assert!(lines
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"));
        assert!(lines
            .iter()
            .any(|l| l == "option name Hash type spin default 16 min 1 max 65536"));
        assert!(lines
            .iter()
            .any(|l| l == "option name Threads type spin default 1 min 1 max 256"));
        assert!(lines
            .iter()
            .any(|l| l == "option name Debug Log File type string default <empty>"));
        for l in &lines {
            assert!(l.starts_with("option name "), "{l}");
        }
    }

    #[test]
    fn every_declared_option_is_accepted_at_its_default_and_bounds() {
        for spec in TABLE {
            let values: Vec<Option<String>> = match spec.kind {
                Kind::Spin { default, min, max } => vec![default, min, max]
                    .into_iter()
                    .map(|v| Some(v.to_string()))
                    .collect(),
                Kind::Check { default } => vec![Some(default.to_string())],
                Kind::Button => vec![None],
                Kind::Text => vec![Some("<empty>".into())],
            };
            for v in values {
                assert!(
                    parse_change(&spec.name.to_ascii_uppercase(), v.as_deref()).is_ok(),
                    "{} {v:?}",
                    spec.name
                );
            }
            if let Kind::Spin { min, max, .. } = spec.kind {
                for v in [min - 1, max + 1] {
                    let e = parse_change(spec.name, Some(&v.to_string())).unwrap_err();
                    assert!(e.contains("range") && e.contains(spec.name), "{e}");
                }
            }
        }
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tune_build_declares_and_reads_the_search_numbers() {
        let lines = declarations();
        for (name, p) in crate::search::params::TUNABLE {
            let d = p.default_value();
            assert!(
                lines
                    .iter()
                    .any(|l| l
                        .starts_with(&format!("option name {name} type spin default {d} min "))),
                "{name}"
            );
        }
        assert_eq!(
            parse_change("rfp_margin_per_depth", Some("85")),
            Ok(Change::SearchParam("RFP_MARGIN_PER_DEPTH", 85))
        );
        assert!(parse_change("RFP_MARGIN_PER_DEPTH", Some("100000"))
            .unwrap_err()
            .contains("range"));
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
        assert!(parse_change("Hash", Some("lots"))
            .unwrap_err()
            .contains("'lots' is not an integer"));
        // A whole number beyond i64 is out of range, not "not an integer".
        assert_eq!(
            parse_change("Hash", Some("9223372036854775808")).unwrap_err(),
            "option Hash: 9223372036854775808 out of range 1..65536"
        );
        assert!(parse_change("Hash", None).is_err());
        assert!(parse_change("Threads", Some("100000")).is_err());
        assert!(parse_change("UCI_Chess960", Some("maybe")).is_err());
        assert!(parse_change("Colour", Some("red"))
            .unwrap_err()
            .contains("unknown"));
        assert_eq!(parse_change("Clear Hash", None), Ok(Change::ClearHash));
        assert_eq!(
            parse_change("Debug Log File", Some("<empty>")),
            Ok(Change::DebugLogFile(String::new()))
        );
    }
}
