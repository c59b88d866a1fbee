//! Perft: counting the leaves of the legal move tree, the standard proof that
//! a move generator (here shakmaty's, castling included) is right.
//!
//! One engine serves `chess960 perft` and UCI `go perft`:
//!
//! * [`perft`] and [`divide`] use the default [`PerftConfig`];
//! * [`perft_with`] and [`divide_with`] take an explicit configuration
//!   (threads, hash size: what UCI's `Threads` and `Hash` options set);
//! * [`Perft`] keeps the thread pool and the hash table alive across many
//!   calls, which is what suite runs ([`runner`]) do;
//! * [`suite`] reads the reference files in `perft/`.
//!
//! Speed comes from three things, each of which keeps counts exact:
//!
//! * bulk counting: one ply above the leaves the answer is the length of
//!   the legal move list (engine in `count`);
//! * a hash table of (position, depth) -> count for depths 2 and up, whose
//!   keys are the complete position, so a hit can never be another
//!   position (`key`, `table`), and beside it each thread's small cache of
//!   legal-move counts at the last ply, looked up in batches (`leaf`);
//! * rayon threads over positions and the first plies; counts are sums of
//!   exact parts, hence identical for every thread count and schedule.

pub mod check;
mod count;
mod key;
mod leaf;
pub mod runner;
pub mod shard;
pub mod suite;
mod table;

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move};

use count::Walk;
use key::Packer;
use table::Table;

/// Default size of the perft hash table in MiB: ample for depth 6 from any
/// start position (a few hundred thousand distinct interior positions).
pub const DEFAULT_HASH_MB: usize = 64;

/// How a perft run may use the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftConfig {
    /// Worker threads; `0` means one per available core.
    pub threads: usize,
    /// Size of the hash table in MiB (what UCI's `Hash` option sets); `0`
    /// disables it. Counts are exact either way: the table stores whole
    /// positions, not hashes of them.
    pub hash_mb: usize,
}

impl Default for PerftConfig {
    /// All cores and a [`DEFAULT_HASH_MB`] table.
    fn default() -> Self {
        PerftConfig {
            threads: 0,
            hash_mb: DEFAULT_HASH_MB,
        }
    }
}

impl PerftConfig {
    /// The thread count this configuration resolves to on this machine
    /// (at least 1).
    pub fn effective_threads(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            self.threads
        }
    }
}

/// A perft engine: the resources of a [`PerftConfig`] (thread pool, hash
/// table), kept so that many counts (a suite, repeated `go perft`) share
/// them. Entries stay valid across positions and calls, since they are
/// exact.
pub struct Perft {
    /// `None` for a single thread: then everything runs on the caller's thread.
    pool: Option<rayon::ThreadPool>,
    table: Option<Table>,
    packer: Packer,
}

impl Perft {
    /// Build the engine. A thread pool that the system refuses to create
    /// degrades to single-threaded counting, and a table that cannot be
    /// allocated to counting without one, rather than failing.
    pub fn new(config: &PerftConfig) -> Perft {
        let threads = config.effective_threads();
        let pool = if threads > 1 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("perft-{i}"))
                .build()
                .map_err(|e| log::warn!("perft: no thread pool ({e}); counting on one thread"))
                .ok()
        } else {
            None
        };
        let table = Table::new(config.hash_mb);
        if table.is_none() && config.hash_mb > 0 {
            // The CLI says so in its own words; the log keeps a trace.
            log::debug!(
                "perft: cannot allocate {} MiB; counting without a table",
                config.hash_mb
            );
        }
        Perft {
            pool,
            table,
            packer: Packer::detect(),
        }
    }

    /// Map the whole hash table into memory now (one write per page), so
    /// that the next counts are timed without the system's page faults.
    /// The cost is the same as the run would pay at its first stores.
    pub fn touch_table(&self) {
        if let Some(table) = &self.table {
            table.touch();
        }
    }

    /// Size of the hash table in bytes (0 without one).
    pub fn hash_bytes(&self) -> usize {
        self.table.as_ref().map_or(0, Table::bytes)
    }

    fn walk<'a>(&'a self, stop: &'a AtomicBool) -> Walk<'a> {
        Walk {
            stop,
            table: self.table.as_ref(),
            packer: self.packer,
        }
    }

    /// Number of threads this engine counts with.
    pub fn threads(&self) -> usize {
        self.pool
            .as_ref()
            .map_or(1, rayon::ThreadPool::current_num_threads)
    }

    /// Leaves at `depth` plies below `pos`, or `None` if `stop` was raised
    /// before the count finished.
    pub fn count(&self, pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<u64> {
        let walk = self.walk(stop);
        // `install` runs inline when called from one of the pool's own
        // threads, as suite runs do for each position.
        let nodes = match &self.pool {
            Some(pool) => pool.install(|| walk.count_parallel(pos, depth)),
            None => walk.count(pos, depth),
        };
        (!stop.load(Ordering::Relaxed)).then_some(nodes)
    }

    /// Leaves per root move at `depth` plies (each move's subtree has
    /// `depth - 1`), in shakmaty's move generation order; an empty list
    /// for depth 0 or when there is no legal move. `None` if `stop` was
    /// raised before the end.
    pub fn divide(&self, pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
        if depth == 0 {
            return Some(Vec::new());
        }
        let walk = self.walk(stop);
        let out = match &self.pool {
            Some(pool) => pool.install(|| walk.divide_parallel(pos, depth)),
            None => walk.divide(pos, depth),
        };
        (!stop.load(Ordering::Relaxed)).then_some(out)
    }

    /// The engine's thread pool; `None` when it counts on the caller's
    /// thread alone. Rayon work meant for the engine's threads must run
    /// inside it: outside, it would land on rayon's global pool (every core).
    pub(crate) fn pool(&self) -> Option<&rayon::ThreadPool> {
        self.pool.as_ref()
    }
}

/// Count the leaves of the legal move tree of `pos` at `depth` plies
/// (`perft(pos, 0) == 1`), with the default configuration (all cores).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    perft_with(pos, depth, &PerftConfig::default())
}

/// [`perft`] with an explicit configuration.
pub fn perft_with(pos: &Chess, depth: u32, config: &PerftConfig) -> u64 {
    let never = AtomicBool::new(false);
    // Without a stop request the count always completes.
    Perft::new(&for_depth(config, depth))
        .count(pos, depth, &never)
        .unwrap_or(0)
}

/// Below this depth a one-off count is over in microseconds: starting
/// threads and mapping a table would cost more than they save.
const SMALL_DEPTH: u32 = 4;

fn for_depth(config: &PerftConfig, depth: u32) -> PerftConfig {
    if depth < SMALL_DEPTH {
        PerftConfig {
            threads: 1,
            hash_mb: 0,
        }
    } else {
        config.clone()
    }
}

/// Count per root move, with the default configuration. Returns `None` if
/// `stop` was raised before the end, so that UCI `go perft` can be
/// interrupted by `stop` or `quit`. Moves come in shakmaty's generation
/// order; callers that print them sort as they see fit.
pub fn divide(pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    divide_with(pos, depth, &PerftConfig::default(), stop)
}

/// [`divide`] with an explicit configuration.
pub fn divide_with(
    pos: &Chess,
    depth: u32,
    config: &PerftConfig,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    Perft::new(&for_depth(config, depth)).divide(pos, depth, stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_zero_and_one() {
        let pos = Chess::default();
        assert_eq!(perft(&pos, 0), 1);
        // 20 legal first moves in chess is a fact of the rules.
        assert_eq!(perft(&pos, 1), 20);
        let never = AtomicBool::new(false);
        assert_eq!(divide(&pos, 0, &never), Some(Vec::new()));
    }

    #[test]
    fn raised_stop_gives_none() {
        let stop = AtomicBool::new(true);
        assert_eq!(divide(&Chess::default(), 5, &stop), None);
        let engine = Perft::new(&PerftConfig {
            threads: 1,
            hash_mb: 0,
        });
        assert_eq!(engine.count(&Chess::default(), 5, &stop), None);
    }

    #[test]
    fn thread_counts_agree_with_reference() {
        let pos = Chess::default();
        // perft/chess960_castling.perft, id sf-960-1 (RNBQKBNR), depth 4.
        let reference = 197_281;
        for threads in [1, 2, 3] {
            let cfg = PerftConfig {
                threads,
                hash_mb: 1,
            };
            assert_eq!(perft_with(&pos, 4, &cfg), reference, "{threads} threads");
            let never = AtomicBool::new(false);
            let div = divide_with(&pos, 4, &cfg, &never).expect("not stopped");
            assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), reference);
        }
    }

    /// Tiny tables force every kind of index collision and replacement;
    /// exact keys must keep every count right. Expectations: perft/.
    #[test]
    fn tiny_tables_stay_exact() {
        let entries = suite::parse(include_str!("../../perft/chess960_castling.perft"))
            .expect("castling list parses");
        for (buckets, threads) in [(1, 1), (3, 2), (1024, 2)] {
            let pool = (threads > 1).then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("pool")
            });
            let engine = Perft {
                pool,
                table: Table::with_buckets(buckets),
                packer: Packer::detect(),
            };
            let never = AtomicBool::new(false);
            for e in &entries {
                for (&depth, &nodes) in e.expected.range(..=4) {
                    if nodes <= 300_000 {
                        let got = engine.count(&e.position, depth, &never);
                        assert_eq!(got, Some(nodes), "{} d{depth} {buckets} buckets", e.id);
                    }
                }
            }
        }
    }

    #[test]
    fn a_stopped_run_leaves_no_partial_counts() {
        let engine = Perft::new(&PerftConfig {
            threads: 2,
            hash_mb: 1,
        });
        let pos = Chess::default();
        // perft/chess960_castling.perft, id sf-960-1, depths 5 and 6.
        let (d5, d6) = (4_865_609, 119_060_324);
        let stop = AtomicBool::new(true);
        assert_eq!(engine.count(&pos, 5, &stop), None);
        // Raise stop in the middle of a count; whatever it returns, the
        // table must not have kept partial sums.
        let stop = AtomicBool::new(false);
        let interrupted = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                stop.store(true, Ordering::Relaxed);
            });
            engine.count(&pos, 6, &stop)
        });
        assert!(interrupted.is_none() || interrupted == Some(d6));
        let never = AtomicBool::new(false);
        assert_eq!(engine.count(&pos, 5, &never), Some(d5));
        assert_eq!(engine.count(&pos, 6, &never), Some(d6));
    }
}
