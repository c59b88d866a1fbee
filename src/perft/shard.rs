//! Splitting a perft run into parts that may run at different times or on
//! different machines, and putting the parts back together.
//!
//! A run is a list of *units*: the positions of a suite (`--all`,
//! `--epd`), or the root moves of one position (sorted by their UCI text)
//! when a single deep position is split. Part `K` of `N` takes the units
//! whose index `i` has `i % N == K - 1`: round robin, so that every part
//! gets a fair mix of big and small units, and deterministic, so that a
//! part can be rerun anywhere with the same command.
//!
//! Every part's report names its run: kind, depth, number of units and a
//! checksum of all the units (not only its own), so that parts of two
//! different runs are never merged. [`merge`] checks that each part of one
//! run is there exactly once and that each part holds exactly its units.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::checksum::Fnv1a;
use crate::whole_number::{self, WholeError};

/// Which part of how many: `K/N`, `1 <= K <= N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based part number `K`.
    pub part: usize,
    /// Number of parts `N`.
    pub parts: usize,
}

/// Most parts a run may be split into: far more than any cluster runs at
/// once, small enough that a typo (`1/10000000`) is caught.
pub const MAX_PARTS: usize = 1_000_000;

impl Shard {
    /// Whether unit `index` (0-based) belongs to this part.
    pub fn owns(&self, index: usize) -> bool {
        index % self.parts == self.part - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.part, self.parts)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with `1 <= K <= N <= MAX_PARTS`; the message names what is wrong.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not K/N (e.g. 3/8: part 3 of 8)"))?;
        // A whole number too large to hold is out of range like any other
        // over the limit, and told so with the range.
        let number = |w: &str| {
            let w = w.trim();
            match whole_number::parse::<usize>(w) {
                Ok(n) => Ok(n),
                Err(WholeError::TooLarge) => Ok(usize::MAX),
                Err(WholeError::NotANumber) => Err(format!("'{w}' in '{s}' is not a whole number")),
            }
        };
        let (part, parts) = (number(k)?, number(n)?);
        if parts == 0 || parts > MAX_PARTS {
            return Err(format!("'{s}': the number of parts must be 1..{MAX_PARTS}"));
        }
        if part == 0 || part > parts {
            return Err(format!("'{s}': the part must be 1..{parts}"));
        }
        Ok(Shard { part, parts })
    }
}

/// What the units of a run are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunKind {
    /// Positions of a suite, in file order.
    Suite,
    /// Root moves of one position, sorted by UCI text.
    RootMoves,
}

/// The identity of a run, the same in every part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunId {
    /// What the units are.
    pub kind: RunKind,
    /// Depth asked for on the command line.
    pub depth: u32,
    /// Units in the whole run.
    pub units: usize,
    /// [`checksum`] of every unit of the run.
    pub checksum: String,
}

impl fmt::Display for RunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            RunKind::Suite => "positions",
            RunKind::RootMoves => "root moves",
        };
        write!(
            f,
            "depth {}, {} {what}, checksum {}",
            self.depth, self.units, self.checksum
        )
    }
}

/// FNV-1a (64 bits) of the unit descriptions, each followed by a newline,
/// written `fnv1a64:<16 hex digits>`. Not a defence against forgery, a
/// guard against mixing up honest runs: any change of a FEN, a depth or
/// the order changes it.
pub fn checksum<I, S>(units: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut h = Fnv1a::new();
    for unit in units {
        h.write(unit.as_ref().as_bytes());
        h.write(b"\n");
    }
    format!("fnv1a64:{:016x}", h.finish())
}

/// How a suite position is described to [`checksum`]: its name, the depth
/// it is counted to and its FEN.
pub fn suite_unit(id: &str, depth: u32, fen: &str) -> String {
    format!("{id} {depth} {fen}")
}

/// How a root-move run is described to [`checksum`]: the depth and the root
/// position first, then each root move's UCI text, in run order.
pub fn root_move_units<'a>(
    depth: u32,
    fen: &str,
    moves: impl IntoIterator<Item = &'a str>,
) -> impl Iterator<Item = String> {
    std::iter::once(format!("{depth} {fen}")).chain(moves.into_iter().map(str::to_owned))
}

/// One counted unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitResult {
    /// Index of the unit in the whole run (0-based).
    pub unit: usize,
    /// The position's name, or the root move in UCI (castles king-takes-rook).
    pub id: String,
    /// The position (for root moves: the root position), Shredder-FEN.
    pub fen: String,
    /// Plies counted from `fen`.
    pub depth: u32,
    /// Leaves counted.
    pub nodes: u64,
    /// The reference count, when the suite has one.
    pub expected: Option<u64>,
}

/// The `--json` report of one part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartReport {
    /// The run this part belongs to.
    pub run: RunId,
    /// This part's number `K` (1-based).
    pub part: usize,
    /// Number of parts `N` of the run.
    pub parts: usize,
    /// Threads this part counted with.
    pub threads: usize,
    /// Wall time of this part.
    pub seconds: f64,
    /// Sum of this part's counts.
    pub nodes: u64,
    /// This part's units, in run order.
    pub results: Vec<UnitResult>,
    /// The program that counted this part, with its build
    /// (`chess960 0.1.0 (9ea83ba)`): a count that disagrees with a reference
    /// is then traced to the build that made it. Absent in parts written
    /// before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// [`units_checksum`] of this part's results as counted: a unit edited
    /// afterwards (its name, FEN, depth or count, even with the total
    /// mended) names its part, where the run's checksum only says that
    /// some part was edited. Absent in parts written before it was
    /// recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units_checksum: Option<String>,
}

/// The [`checksum`] of a part's results: every field of every unit, in
/// order.
pub fn units_checksum(results: &[UnitResult]) -> String {
    checksum(results.iter().map(|r| {
        let expected = r.expected.map_or_else(|| "-".to_owned(), |e| e.to_string());
        format!(
            "{} {} {} {} {} {expected}",
            r.unit, r.depth, r.nodes, r.id, r.fen
        )
    }))
}

/// The `program` a part written by this build records.
pub fn this_program() -> String {
    format!("chess960 {}", crate::VERSION)
}

/// Why parts cannot be merged. Each names the part (by the name it was
/// given, usually a file name) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No part at all.
    #[error("no parts to merge")]
    Empty,
    /// A part of another run than the first part.
    #[error("{name} is part of another run ({theirs}; {first} is {ours}, {first_parts} parts)")]
    Foreign {
        /// The foreign part.
        name: String,
        /// Its run and part count.
        theirs: String,
        /// The first part's name.
        first: String,
        /// The first part's run.
        ours: String,
        /// The first part's part count.
        first_parts: usize,
    },
    /// The same part twice.
    #[error("part {part}/{parts} is given twice: {first} and {second}")]
    Doubled {
        /// The part number.
        part: usize,
        /// Number of parts.
        parts: usize,
        /// Where it was seen first.
        first: String,
        /// Where it was seen again.
        second: String,
    },
    /// Parts not given.
    #[error("{count} of {parts} parts missing: {}", list(first, *count, *parts))]
    Missing {
        /// How many parts are missing.
        count: usize,
        /// The first missing part numbers (at most eleven).
        first: Vec<usize>,
        /// Number of parts.
        parts: usize,
    },
    /// The units of the parts together do not describe the run their
    /// reports name: a name, FEN or depth was edited, or rows were swapped.
    #[error("the parts' units do not make the run they name (their checksum is {computed}, the run's {run}): a part was edited{culprit}")]
    Checksum {
        /// The checksum of the merged units.
        computed: String,
        /// The run's checksum, as every part gives it.
        run: String,
        /// `; first suspect: NAME (...)` when one part can be named.
        culprit: String,
    },
    /// The parts' counts add up to more than 64 bits hold (a damaged part).
    #[error("the parts' counts add up to more than 2^64")]
    TooLarge,
    /// A part whose units are not exactly the ones its number owns, or
    /// whose totals do not add up (edited or cut short).
    #[error("{name} (part {part}/{parts}) is damaged: {reason}")]
    Damaged {
        /// The part.
        name: String,
        /// Its number.
        part: usize,
        /// Number of parts.
        parts: usize,
        /// What does not fit.
        reason: String,
    },
}

/// The sum of `results`' counts; `None` past 64 bits (a damaged part: a
/// wrapped sum could agree with a damaged total).
fn total(results: &[UnitResult]) -> Option<u64> {
    results
        .iter()
        .try_fold(0u64, |sum, r| sum.checked_add(r.nodes))
}

/// How many missing parts an error names.
const SHOWN: usize = 10;

/// `2/8, 5/8`: the first of `count` missing parts (at most ten, then `...`).
fn list(parts: &[usize], count: usize, n: usize) -> String {
    let mut words: Vec<String> = parts
        .iter()
        .take(SHOWN)
        .map(|k| format!("{k}/{n}"))
        .collect();
    if count > SHOWN {
        words.push("...".into());
    }
    words.join(", ")
}

/// A whole run put back together.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The run.
    pub run: RunId,
    /// Number of parts merged.
    pub parts: usize,
    /// Every unit, in run order.
    pub results: Vec<UnitResult>,
    /// Sum of all counts.
    pub nodes: u64,
    /// Sum of the parts' wall times (the work, not the elapsed time).
    pub seconds: f64,
    /// The builds that counted the parts, each once, in part order; parts
    /// that name none are left out.
    pub programs: Vec<String>,
}

/// Check that `parts` (each with the name to report it by) are every part
/// of one run exactly once, each holding exactly its units, and merge them.
///
/// # Errors
/// The first problem found, as a [`MergeError`].
pub fn merge(parts: &[(String, PartReport)]) -> Result<Merged, MergeError> {
    let (first_name, first) = majority(parts).ok_or(MergeError::Empty)?;
    let mut seen: BTreeMap<usize, &str> = BTreeMap::new();
    for (name, p) in parts {
        if p.run != first.run || p.parts != first.parts {
            return Err(MergeError::Foreign {
                name: name.clone(),
                theirs: format!("{}, {} parts", p.run, p.parts),
                first: first_name.clone(),
                ours: first.run.to_string(),
                first_parts: first.parts,
            });
        }
        let damaged = |reason: String| MergeError::Damaged {
            name: name.clone(),
            part: p.part,
            parts: p.parts,
            reason,
        };
        let shard = Shard {
            part: p.part,
            parts: p.parts,
        };
        if p.parts == 0 || p.part == 0 || p.part > p.parts {
            return Err(damaged(format!("no part {}/{} exists", p.part, p.parts)));
        }
        if let Some(before) = seen.insert(p.part, name) {
            return Err(MergeError::Doubled {
                part: p.part,
                parts: p.parts,
                first: before.to_owned(),
                second: name.clone(),
            });
        }
        // The units it owns are part-1, part-1+parts, ... below the run's
        // units; they are walked, never listed: a damaged file's numbers
        // (a trillion units) must not become a trillion-entry list.
        let mut owned = (p.part - 1..p.run.units).step_by(p.parts);
        for r in &p.results {
            let expected = owned.next();
            if expected == Some(r.unit) {
                continue;
            }
            let reason = if !shard.owns(r.unit) || r.unit >= p.run.units {
                format!("unit {} does not belong to it", r.unit)
            } else if let Some(i) = expected.filter(|&i| r.unit > i) {
                format!("unit {i} is not in it")
            } else {
                "its units are out of order".to_owned()
            };
            return Err(damaged(reason));
        }
        if let Some(i) = owned.next() {
            return Err(damaged(format!("unit {i} is not in it")));
        }
        // A time no counting takes (negative, not a number, past what a
        // duration holds: about 585 billion years) is a damaged part, not a
        // figure to add up and print.
        if !(0.0..=MAX_PART_SECONDS).contains(&p.seconds) {
            return Err(damaged(format!(
                "its seconds ({}) are no counting time",
                p.seconds
            )));
        }
        if let Some(recorded) = &p.units_checksum {
            let computed = units_checksum(&p.results);
            if &computed != recorded {
                return Err(damaged(format!(
                    "its units were edited after counting (their checksum is {computed}, the part's {recorded})"
                )));
            }
        }
        let sum = total(&p.results);
        if sum != Some(p.nodes) {
            return Err(damaged(match sum {
                Some(sum) => format!("its counts add up to {sum}, its total says {}", p.nodes),
                None => "its counts add up to more than 2^64".to_owned(),
            }));
        }
    }
    // Every part seen is a distinct number in 1..=parts: the rest are
    // missing, and only the first few are looked for (a damaged count of
    // parts must not list them all).
    let count = first.parts - seen.len();
    if count > 0 {
        return Err(MergeError::Missing {
            count,
            first: (1..=first.parts)
                .filter(|k| !seen.contains_key(k))
                .take(SHOWN + 1)
                .collect(),
            parts: first.parts,
        });
    }
    let mut results: Vec<UnitResult> = parts
        .iter()
        .flat_map(|(_, p)| p.results.iter().cloned())
        .collect();
    results.sort_by_key(|r| r.unit);
    check_units(&first.run, &results, parts)?;
    let mut in_order: Vec<&PartReport> = parts.iter().map(|(_, p)| p).collect();
    in_order.sort_by_key(|p| p.part);
    let mut programs: Vec<String> = Vec::new();
    for p in in_order {
        if let Some(program) = &p.program {
            if !programs.contains(program) {
                programs.push(program.clone());
            }
        }
    }
    Ok(Merged {
        run: first.run.clone(),
        parts: first.parts,
        nodes: total(&results).ok_or(MergeError::TooLarge)?,
        seconds: parts.iter().map(|(_, p)| p.seconds).sum(),
        results,
        programs,
    })
}

/// The most seconds a part may say it counted: a thousand years, far past
/// any count and far below what a `Duration` holds, so that the sum over
/// every part stays one.
pub const MAX_PART_SECONDS: f64 = 1000.0 * 365.25 * 86_400.0;

/// The first part of the run most parts name: a stale part of another run
/// (a leftover file a glob picked up) is then the one named as foreign,
/// wherever it comes in the list.
fn majority(parts: &[(String, PartReport)]) -> Option<&(String, PartReport)> {
    let mut counts: std::collections::HashMap<(String, usize), (usize, usize)> =
        std::collections::HashMap::new();
    for (i, (_, p)) in parts.iter().enumerate() {
        let entry = counts.entry((p.run.to_string(), p.parts)).or_insert((0, i));
        entry.0 += 1;
    }
    let best = counts
        .values()
        .max_by_key(|&&(count, first)| (count, std::cmp::Reverse(first)))?;
    parts.get(best.1)
}

/// The root position of a root-move run: the FEN most units give (an
/// edited unit, even the first, is then the odd one out).
fn root_fen(results: &[UnitResult]) -> Option<&str> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for r in results {
        *counts.entry(r.fen.as_str()).or_insert(0) += 1;
    }
    results
        .iter()
        .map(|r| r.fen.as_str())
        .max_by_key(|f| counts.get(f).copied().unwrap_or(0))
}

/// The merged units must describe the run every part names: recomputed,
/// their checksum is the run's. A root-move run's units must also all be of
/// its one root position and depth (the checksum holds the root once).
fn check_units(
    run: &RunId,
    results: &[UnitResult],
    parts: &[(String, PartReport)],
) -> Result<(), MergeError> {
    let (computed, suspect) = match run.kind {
        RunKind::Suite => (
            checksum(results.iter().map(|r| suite_unit(&r.id, r.depth, &r.fen))),
            None,
        ),
        RunKind::RootMoves => {
            // A position with no legal move has no unit to take the root from.
            let Some(root) = root_fen(results) else {
                return Ok(());
            };
            let computed = checksum(root_move_units(
                run.depth,
                root,
                results.iter().map(|r| r.id.as_str()),
            ));
            let suspect = results
                .iter()
                .find(|r| r.fen != root || r.depth != run.depth)
                .map(|r| r.unit);
            (computed, suspect)
        }
    };
    if computed == run.checksum && suspect.is_none() {
        return Ok(());
    }
    let culprit = suspect
        .and_then(|unit| {
            parts
                .iter()
                .find(|(_, p)| p.results.iter().any(|r| r.unit == unit))
                .map(|(name, _)| format!("; unit {unit} of {name} is of another position or depth"))
        })
        .unwrap_or_default();
    Err(MergeError::Checksum {
        computed,
        run: run.checksum.clone(),
        culprit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_text_is_checked() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { part: 3, parts: 8 }));
        for bad in ["0/8", "9/8", "1/0", "3", "a/8", "3/b", "-1/8", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert!("1/1000001".parse::<Shard>().is_err());
        // Too large to hold is out of range, not "no number".
        assert_eq!(
            "1/99999999999999999999".parse::<Shard>(),
            Err("'1/99999999999999999999': the number of parts must be 1..1000000".to_owned())
        );
        assert_eq!(
            "99999999999999999999/8".parse::<Shard>(),
            Err("'99999999999999999999/8': the part must be 1..8".to_owned())
        );
    }

    #[test]
    fn every_unit_has_exactly_one_part() {
        for parts in 1..=7 {
            for unit in 0..50 {
                let owners = (1..=parts)
                    .filter(|&part| Shard { part, parts }.owns(unit))
                    .count();
                assert_eq!(owners, 1, "unit {unit} of {parts} parts");
            }
        }
    }

    #[test]
    fn checksum_sees_every_change() {
        let a = checksum(["5 fen-a", "5 fen-b"]);
        assert_eq!(
            a,
            checksum(vec!["5 fen-a".to_owned(), "5 fen-b".to_owned()])
        );
        assert_ne!(a, checksum(["5 fen-b", "5 fen-a"]), "order");
        assert_ne!(a, checksum(["6 fen-a", "5 fen-b"]), "depth");
        assert_ne!(a, checksum(["5 fen-a5 fen-b"]), "unit boundaries");
        assert!(a.starts_with("fnv1a64:") && a.len() == 8 + 16);
    }

    /// Parts of a made-up run of 5 units whose counts are 10 * unit.
    fn parts_of(n: usize) -> Vec<(String, PartReport)> {
        let run = RunId {
            kind: RunKind::Suite,
            depth: 3,
            units: 5,
            checksum: checksum((0..5).map(|i| suite_unit(&i.to_string(), 3, ""))),
        };
        (1..=n)
            .map(|part| {
                let shard = Shard { part, parts: n };
                let results: Vec<UnitResult> = (0..5)
                    .filter(|&i| shard.owns(i))
                    .map(|i| UnitResult {
                        unit: i,
                        id: i.to_string(),
                        fen: String::new(),
                        depth: 3,
                        nodes: 10 * i as u64,
                        expected: None,
                    })
                    .collect();
                let report = PartReport {
                    run: run.clone(),
                    part,
                    parts: n,
                    threads: 1,
                    seconds: 1.0,
                    nodes: results.iter().map(|r| r.nodes).sum(),
                    results,
                    program: Some(format!("build {}", part % 2)),
                    units_checksum: None,
                };
                (format!("p{part}"), report)
            })
            .collect()
    }

    #[test]
    fn complete_parts_merge_in_run_order() {
        let mut parts = parts_of(3);
        parts.reverse();
        let m = merge(&parts).expect("complete");
        assert_eq!(m.nodes, 100);
        assert_eq!(
            m.results.iter().map(|r| r.unit).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(m.parts, 3);
        // The builds that counted, each once, in part order (parts 1, 2, 3
        // were counted by builds 1, 0, 1).
        assert_eq!(m.programs, ["build 1", "build 0"]);
        // A part from before builds were recorded names none, and reads.
        let mut old = parts_of(1);
        let text = serde_json::to_string(&old[0].1).expect("json");
        assert!(text.contains("\"program\":\"build 1\""), "{text}");
        old[0].1.program = None;
        let text = serde_json::to_string(&old[0].1).expect("json");
        assert!(!text.contains("program"), "{text}");
        let back: PartReport = serde_json::from_str(&text).expect("an old part reads");
        assert_eq!(
            merge(&[("old".into(), back)]).expect("merges").programs,
            Vec::<String>::new()
        );
    }

    #[test]
    fn missing_doubled_foreign_and_damaged_parts_are_named() {
        assert_eq!(merge(&[]), Err(MergeError::Empty));
        let parts = parts_of(3);
        let e = merge(&parts[..2]).expect_err("one missing");
        assert_eq!(e.to_string(), "1 of 3 parts missing: 3/3");
        let mut doubled = parts.clone();
        doubled.push(("again".into(), parts[1].1.clone()));
        assert_eq!(
            merge(&doubled).expect_err("doubled").to_string(),
            "part 2/3 is given twice: p2 and again"
        );
        let mut foreign = parts.clone();
        foreign[2].1.run.depth = 4;
        let e = merge(&foreign).expect_err("foreign").to_string();
        assert!(e.starts_with("p3 is part of another run (depth 4"), "{e}");
        // A stale part first in the list: the odd one is still named.
        let mut stale_first = vec![("stale".to_owned(), parts_of(4).remove(0).1)];
        stale_first.extend(parts.iter().cloned());
        let e = merge(&stale_first).expect_err("stale").to_string();
        assert!(e.starts_with("stale is part of another run"), "{e}");
        let mut other_split = parts.clone();
        other_split.push(("x".into(), parts_of(4).remove(0).1));
        assert!(merge(&other_split)
            .expect_err("other split")
            .to_string()
            .contains("4 parts"));
        let mut cut = parts.clone();
        cut[0].1.results.pop();
        let e = merge(&cut).expect_err("cut").to_string();
        assert_eq!(e, "p1 (part 1/3) is damaged: unit 3 is not in it");
        // A counting time no run takes: named, not added up (printed as a
        // duration, past 2^64 seconds, it panicked).
        for bad in [1e20, -5.0, f64::NAN, f64::INFINITY] {
            let mut slow = parts.clone();
            slow[0].1.seconds = bad;
            let e = merge(&slow).expect_err("seconds").to_string();
            assert!(
                e.starts_with("p1 (part 1/3) is damaged: its seconds ("),
                "{e}"
            );
        }
        let mut edited = parts.clone();
        edited[1].1.results[0].nodes += 1;
        let e = merge(&edited).expect_err("edited").to_string();
        assert!(e.contains("add up to 51, its total says 50"), "{e}");
        // A unit that is not its part's, one out of order, one beyond the run.
        let mut wrong = parts.clone();
        wrong[0].1.results[1].unit = 2;
        let e = merge(&wrong).expect_err("not owned").to_string();
        assert_eq!(e, "p1 (part 1/3) is damaged: unit 2 does not belong to it");
        let mut swapped = parts.clone();
        swapped[0].1.results.swap(0, 1);
        let e = merge(&swapped).expect_err("order").to_string();
        assert!(e.contains("is damaged"), "{e}");
        let mut beyond = parts.clone();
        let extra = UnitResult {
            unit: 6,
            ..beyond[0].1.results[0].clone()
        };
        beyond[0].1.results.push(extra);
        let e = merge(&beyond).expect_err("beyond").to_string();
        assert_eq!(e, "p1 (part 1/3) is damaged: unit 6 does not belong to it");
        // Rows edited or swapped between parts: every total still adds up,
        // but the units no longer make the run.
        let mut renamed = parts.clone();
        renamed[1].1.results[0].id = "bogus".into();
        let e = merge(&renamed).expect_err("renamed").to_string();
        assert!(e.starts_with("the parts' units do not make the run"), "{e}");
        let mut deeper = parts.clone();
        deeper[2].1.results[0].depth = 9;
        assert!(matches!(merge(&deeper), Err(MergeError::Checksum { .. })));
        let mut moved = parts.clone();
        moved[0].1.results[0].fen = "8/8/8/8/8/8/8/K6k w - - 0 1".into();
        assert!(matches!(merge(&moved), Err(MergeError::Checksum { .. })));
        // Parts that record their units' checksum name the edited one.
        let mut sealed = parts.clone();
        for (_, p) in &mut sealed {
            p.units_checksum = Some(units_checksum(&p.results));
        }
        assert!(merge(&sealed).is_ok());
        for edit in 0..4 {
            let mut edited = sealed.clone();
            let r = &mut edited[1].1.results[0];
            match edit {
                0 => r.id = "bogus".into(),
                1 => r.depth = 9,
                2 => r.fen = "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
                _ => {
                    // A count edited with its total mended.
                    r.nodes += 1;
                    edited[1].1.nodes += 1;
                }
            }
            let e = merge(&edited).expect_err("edited").to_string();
            assert!(
                e.starts_with("p2 (part 2/3) is damaged: its units were edited after counting"),
                "{edit}: {e}"
            );
        }
        // A root-move run whose first unit's root was edited: that part is
        // the one named, not the next.
        let root = "7k/8/8/8/8/8/8/K7 w - - 0 1";
        let moves = ["a1a2", "a1b1", "a1b2"];
        let run = RunId {
            kind: RunKind::RootMoves,
            depth: 2,
            units: 3,
            checksum: checksum(root_move_units(2, root, moves)),
        };
        let mut roots: Vec<(String, PartReport)> = (0..3)
            .map(|i| {
                let result = UnitResult {
                    unit: i,
                    id: moves[i].into(),
                    fen: root.into(),
                    depth: 2,
                    nodes: 3,
                    expected: None,
                };
                let report = PartReport {
                    run: run.clone(),
                    part: i + 1,
                    parts: 3,
                    threads: 1,
                    seconds: 1.0,
                    nodes: 3,
                    results: vec![result],
                    program: None,
                    units_checksum: None,
                };
                (format!("r{}", i + 1), report)
            })
            .collect();
        assert!(merge(&roots).is_ok());
        roots[0].1.results[0].fen = "7k/8/8/8/8/8/8/1K6 w - - 0 1".into();
        let e = merge(&roots).expect_err("edited root").to_string();
        assert!(
            e.ends_with("unit 0 of r1 is of another position or depth"),
            "{e}"
        );
        // Counts that overflow 64 bits.
        let mut huge = parts;
        huge[0].1.results[0].nodes = u64::MAX;
        huge[0].1.results[1].nodes = 2;
        let e = merge(&huge).expect_err("overflow").to_string();
        assert!(e.contains("more than 2^64"), "{e}");
    }

    /// A damaged file's run or part count (a trillion) is refused at once,
    /// without a list of a trillion units or parts.
    #[test]
    fn huge_damaged_counts_are_refused_without_listing_them() {
        let mut units = parts_of(3);
        for (_, p) in &mut units {
            p.run.units = 1_000_000_000_000;
        }
        let e = merge(&units).expect_err("units").to_string();
        assert!(e.ends_with("is damaged: unit 6 is not in it"), "{e}");
        let mut count = parts_of(3);
        for (_, p) in &mut count {
            p.parts = 1_000_000_000_000;
        }
        let e = merge(&count[..1]).expect_err("parts").to_string();
        assert!(e.contains("is damaged"), "{e}");
        let one = parts_of(1);
        let mut lone = one.clone();
        lone[0].1.parts = 1_000_000_000_000;
        lone[0].1.results.truncate(1);
        lone[0].1.results[0].unit = 0;
        lone[0].1.nodes = 0;
        let e = merge(&lone).expect_err("missing parts").to_string();
        assert!(
            e.starts_with("999999999999 of 1000000000000 parts missing: 2/1000000000000, "),
            "{e}"
        );
        assert!(e.ends_with(", ..."), "{e}");
    }
}
