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
        let number = |w: &str| {
            w.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{w}' in '{s}' is not a whole number"))
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
    #[error("{} of {parts} parts missing: {}", missing.len(), list(missing, *parts))]
    Missing {
        /// The missing part numbers.
        missing: Vec<usize>,
        /// Number of parts.
        parts: usize,
    },
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

/// `2/8, 5/8` (at most ten, then `...`).
fn list(parts: &[usize], n: usize) -> String {
    const SHOWN: usize = 10;
    let mut words: Vec<String> = parts
        .iter()
        .take(SHOWN)
        .map(|k| format!("{k}/{n}"))
        .collect();
    if parts.len() > SHOWN {
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
}

/// Check that `parts` (each with the name to report it by) are every part
/// of one run exactly once, each holding exactly its units, and merge them.
///
/// # Errors
/// The first problem found, as a [`MergeError`].
pub fn merge(parts: &[(String, PartReport)]) -> Result<Merged, MergeError> {
    let (first_name, first) = parts.first().ok_or(MergeError::Empty)?;
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
        let owned: Vec<usize> = (0..p.run.units).filter(|&i| shard.owns(i)).collect();
        let held: Vec<usize> = p.results.iter().map(|r| r.unit).collect();
        if owned != held {
            let missing = owned.iter().find(|i| !held.contains(i));
            let extra = held.iter().find(|i| !owned.contains(i));
            let reason = match (missing, extra) {
                (Some(i), _) => format!("unit {i} is not in it"),
                (None, Some(i)) => format!("unit {i} does not belong to it"),
                (None, None) => "its units are out of order".to_owned(),
            };
            return Err(damaged(reason));
        }
        let sum: u64 = p.results.iter().map(|r| r.nodes).sum();
        if sum != p.nodes {
            return Err(damaged(format!(
                "its counts add up to {sum}, its total says {}",
                p.nodes
            )));
        }
    }
    let missing: Vec<usize> = (1..=first.parts)
        .filter(|k| !seen.contains_key(k))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing,
            parts: first.parts,
        });
    }
    let mut results: Vec<UnitResult> = parts
        .iter()
        .flat_map(|(_, p)| p.results.iter().cloned())
        .collect();
    results.sort_by_key(|r| r.unit);
    Ok(Merged {
        run: first.run.clone(),
        parts: first.parts,
        nodes: results.iter().map(|r| r.nodes).sum(),
        seconds: parts.iter().map(|(_, p)| p.seconds).sum(),
        results,
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
            checksum: checksum(["u"]),
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
        let mut edited = parts;
        edited[1].1.results[0].nodes += 1;
        let e = merge(&edited).expect_err("edited").to_string();
        assert!(e.contains("add up to 51, its total says 50"), "{e}");
    }
}
