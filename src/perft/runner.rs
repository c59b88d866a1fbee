//! Suite runs: many positions counted in parallel and checked against their
//! expected counts.
//!
//! Positions are independent rayon tasks (and each position splits its own
//! first plies), so two threads stay busy whether the suite has 960 small
//! positions or one big one. Results come back through a callback as each
//! position finishes, in completion order; the caller decides how to print
//! them.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use shakmaty::Chess;

use super::suite::SuiteEntry;
use super::Perft;

/// One position to count at one depth.
#[derive(Debug, Clone)]
pub struct Job {
    /// Name to print (from the suite file).
    pub id: String,
    /// FEN to print.
    pub fen: String,
    /// Where to count from.
    pub position: Chess,
    /// Plies to count.
    pub depth: u32,
    /// What the reference says, when it has this depth.
    pub expected: Option<u64>,
}

impl Job {
    /// The job for `entry` at `depth`, or with a node cap at the deepest
    /// depth up to `depth` whose expected count is at most `max_nodes`
    /// (depth 1 if none is: the cap is a promise of a quick run, so a
    /// position whose references are all larger is counted at depth 1,
    /// checked only where the file lists it; the command says how many
    /// went unchecked). Entries without any expectation are counted at
    /// `depth` regardless of the cap: their size is unknown.
    pub fn from_entry(entry: &SuiteEntry, depth: u32, max_nodes: Option<u64>) -> Job {
        let depth = match max_nodes {
            Some(cap) if !entry.expected.is_empty() => entry
                .expected
                .range(1..=depth)
                .filter(|&(_, &n)| n <= cap)
                .map(|(&d, _)| d)
                .next_back()
                .unwrap_or(1),
            _ => depth,
        };
        Job {
            id: entry.id.clone(),
            fen: entry.fen.clone(),
            position: entry.position.clone(),
            depth,
            expected: entry.expected_at(depth),
        }
    }

    /// True when a node cap left this job of `entry` unchecked: the entry
    /// lists counts, none at the depth the cap chose.
    pub fn unchecked_by_cap(&self, entry: &SuiteEntry) -> bool {
        !entry.expected.is_empty() && self.expected.is_none()
    }
}

/// The outcome of one [`Job`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JobResult {
    /// Leaves counted.
    pub nodes: u64,
    /// The job's expectation, copied for convenience.
    pub expected: Option<u64>,
    /// Wall time of this position (overlaps with others when parallel).
    pub elapsed: Duration,
}

impl JobResult {
    /// `Some(true)` when the count matches the reference, `Some(false)` on a
    /// mismatch, `None` when there was nothing to compare with.
    pub fn matches(&self) -> Option<bool> {
        self.expected.map(|e| e == self.nodes)
    }
}

/// Totals of a suite run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Positions counted.
    pub positions: usize,
    /// Positions that had an expectation to compare with.
    pub checked: usize,
    /// Positions whose count differs from the expectation.
    pub mismatches: usize,
    /// Sum of all counts.
    pub nodes: u64,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

impl Summary {
    /// Leaves per second of wall time (0 for an instant run).
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// Count every job with `engine`, calling `on_done(index, result)` from a
/// worker thread as each finishes. Returns the results in job order and the
/// totals, or `None` if `stop` was raised before the end.
pub fn run(
    engine: &Perft,
    jobs: &[Job],
    stop: &AtomicBool,
    on_done: impl Fn(usize, &JobResult) + Sync,
) -> Option<(Vec<JobResult>, Summary)> {
    let start = Instant::now();
    let one = |(i, job): (usize, &Job)| -> Option<JobResult> {
        let t = Instant::now();
        let nodes = engine.count(&job.position, job.depth, stop)?;
        let r = JobResult {
            nodes,
            expected: job.expected,
            elapsed: t.elapsed(),
        };
        on_done(i, &r);
        Some(r)
    };
    let results: Option<Vec<JobResult>> = match engine.pool() {
        // Single-threaded: serially on the caller's thread.
        None => jobs.iter().enumerate().map(one).collect(),
        Some(pool) => pool.install(|| {
            // One position per task: positions vary a lot in size.
            jobs.par_iter()
                .enumerate()
                .with_max_len(1)
                .map(one)
                .collect()
        }),
    };
    let results = results?;
    let summary = Summary {
        positions: results.len(),
        checked: results.iter().filter(|r| r.expected.is_some()).count(),
        mismatches: results
            .iter()
            .filter(|r| r.matches() == Some(false))
            .count(),
        nodes: results.iter().map(|r| r.nodes).sum(),
        elapsed: start.elapsed(),
    };
    Some((results, summary))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::PerftConfig;
    use std::sync::Mutex;

    /// `--threads 1` must mean one thread: every position is counted (and
    /// reported) on the caller's own thread, not on rayon's global pool.
    #[test]
    fn one_thread_runs_on_the_callers_thread() {
        let engine = Perft::new(&PerftConfig {
            threads: 1,
            hash_mb: 0,
        });
        let jobs: Vec<Job> = (0..8)
            .map(|i| Job {
                id: i.to_string(),
                fen: String::new(),
                position: Chess::default(),
                depth: 3,
                expected: None,
            })
            .collect();
        let me = std::thread::current().id();
        let seen = Mutex::new(Vec::new());
        let never = AtomicBool::new(false);
        let (results, summary) = run(&engine, &jobs, &never, |_, _| {
            seen.lock()
                .expect("not poisoned")
                .push(std::thread::current().id());
        })
        .expect("not stopped");
        assert_eq!(results.len(), 8);
        assert_eq!(summary.positions, 8);
        let seen = seen.into_inner().expect("not poisoned");
        assert_eq!(seen.len(), 8);
        assert!(
            seen.iter().all(|&t| t == me),
            "a position ran on another thread"
        );
    }

    /// The node cap picks the deepest listed depth under it, else depth 1
    /// (checked where it is listed): never a count above the cap.
    #[test]
    fn a_node_cap_is_a_cap() {
        let entry = |listed: &[(u32, u64)]| SuiteEntry {
            id: "x".into(),
            fen: String::new(),
            position: Chess::default(),
            expected: listed.iter().copied().collect(),
            line: 1,
        };
        let full = entry(&[(1, 20), (2, 400), (3, 8902), (4, 197_281)]);
        let pick = |e: &SuiteEntry, depth, cap| {
            let job = Job::from_entry(e, depth, cap);
            (job.depth, job.expected)
        };
        assert_eq!(pick(&full, 4, Some(10_000)), (3, Some(8902)));
        assert_eq!(pick(&full, 2, Some(10_000)), (2, Some(400)));
        assert_eq!(pick(&full, 4, None), (4, Some(197_281)));
        assert_eq!(pick(&full, 4, Some(5)), (1, Some(20)));
        let deep = entry(&[(3, 8902), (4, 197_281)]);
        assert_eq!(pick(&deep, 4, Some(10_000)), (3, Some(8902)));
        assert_eq!(pick(&deep, 4, Some(1000)), (1, None));
        assert_eq!(pick(&deep, 2, Some(1000)), (1, None));
        assert_eq!(pick(&entry(&[]), 4, Some(1000)), (4, None));
    }
}
