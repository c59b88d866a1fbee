//! The state of a network training between two epochs, kept in a file so
//! that a training longer than one sitting runs in pieces.
//!
//! What a later piece needs to go on exactly as one uninterrupted run
//! would: the weights, Adam's two moments and step count, and how many
//! epochs are done. The order of the positions is not stored: it is made
//! again by replaying the seeded shuffles of the epochs done (a second or
//! so each for tens of millions of positions), which keeps the file to
//! three copies of the weights.
//!
//! The file also names the run it belongs to ([`Checkpoint::run`]): the
//! options that shape the training, the network's shape, the number of
//! training and validation positions with a checksum of their targets,
//! and a checksum of the starting weights (the seed or `--init`). A piece
//! started with anything else is refused, naming what differs, rather
//! than silently continuing another training.
//!
//! Layout: `C960TC01`, the run's description (a little-endian `u32`
//! length, then UTF-8), the epochs done (`u64`), Adam's step count
//! (`i32`), then the weights, the first and the second moments, each as
//! its six groups in [`Params::groups`] order (a `u64` length, then that
//! many little-endian `f32`).

use std::path::Path;

use chess960::checksum::Fnv1a;

use super::{Adam, Params};

const MAGIC: &[u8; 8] = b"C960TC01";

/// A training's state after `done` epochs.
pub(super) struct Checkpoint {
    /// What run this is (see [`describe`]).
    pub run: String,
    /// Epochs finished.
    pub done: usize,
    pub params: Params,
    pub adam: Adam,
}

/// The file's bytes for the state of run `run` after `done` epochs.
fn to_bytes(run: &str, done: usize, params: &Params, adam: &Adam) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    let run = run.as_bytes();
    out.extend_from_slice(&(run.len() as u32).to_le_bytes());
    out.extend_from_slice(run);
    out.extend_from_slice(&(done as u64).to_le_bytes());
    out.extend_from_slice(&adam.t.to_le_bytes());
    for p in [params, &adam.m, &adam.v] {
        for group in p.groups() {
            out.extend_from_slice(&(group.len() as u64).to_le_bytes());
            for w in group {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
    }
    out
}

/// Write the state of run `run` after `done` epochs to `path`, whole or
/// not at all: to a temporary file beside it, then renamed over it, so
/// that a run stopped while writing leaves the previous checkpoint
/// intact.
pub(super) fn save(
    path: &Path,
    run: &str,
    done: usize,
    params: &Params,
    adam: &Adam,
) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, to_bytes(run, done, params, adam))
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// FNV-1a (64 bits) over `f32` bit patterns: a guard against resuming
/// with other data or other starting weights, not against forgery.
pub(super) fn fnv_f32<'a>(values: impl IntoIterator<Item = &'a f32>) -> u64 {
    let mut h = Fnv1a::new();
    for v in values {
        h.write(&v.to_le_bytes());
    }
    h.finish()
}

/// The description of a run: `name value` pairs separated by spaces, in
/// a fixed order, so that two runs are the same run exactly when their
/// descriptions are equal, and a difference can be named.
pub(super) fn describe(fields: &[(&str, String)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Fields of a description that are checksums of what other fields
/// cause (the starting weights follow from `--seed`, the shape and the
/// king layout): named only where nothing else differs.
const CHECKSUMS: [&str; 2] = ["data", "start"];

/// The field in which two descriptions differ, as
/// `name: its A, this run's B` (`(none)` for a field one of them lacks):
/// the first in this run's order that is not a checksum, else the first
/// checksum.
fn difference(theirs: &str, ours: &str) -> String {
    let split = |s: &str| -> Vec<(String, String)> {
        let words: Vec<&str> = s.split(' ').collect();
        words
            .chunks(2)
            .map(|c| (c[0].to_owned(), c.get(1).copied().unwrap_or("").to_owned()))
            .collect()
    };
    let (a, b) = (split(theirs), split(ours));
    let value = |set: &[(String, String)], name: &str| {
        set.iter()
            .find(|(n, _)| n == name)
            .map_or_else(|| "(none)".to_owned(), |(_, v)| v.clone())
    };
    let mut names: Vec<&str> = b.iter().map(|(n, _)| n.as_str()).collect();
    for (n, _) in &a {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    let differing: Vec<&str> = names
        .into_iter()
        .filter(|n| value(&a, n) != value(&b, n))
        .collect();
    match differing
        .iter()
        .find(|n| !CHECKSUMS.contains(n))
        .or(differing.first())
    {
        Some(n) => format!("{n}: its {}, this run's {}", value(&a, n), value(&b, n)),
        None => format!("its description {theirs:?}, this run's {ours:?}"),
    }
}

impl Checkpoint {
    /// Read the checkpoint of the run described by `run`, whose weights
    /// have the shape of `shape`; `None` when there is no file yet. The
    /// file's description, put in today's form by `upgrade`, must be
    /// `run`; the returned [`Checkpoint::run`] is the file's own. The
    /// descriptions are compared before the weights are read, so that a
    /// checkpoint of another shape (`--hidden`, `--kings`, ...) is named
    /// by the option that differs, not taken for a damaged file.
    ///
    /// # Errors
    /// An unreadable or damaged file, or one of another run.
    pub fn load(
        path: &Path,
        run: &str,
        upgrade: impl Fn(&str) -> String,
        shape: &Params,
    ) -> Result<Option<Checkpoint>, String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let damaged = |e: String| format!("{}: not a training checkpoint ({e})", path.display());
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
        };
        let theirs = read_run(&mut r).map_err(damaged)?;
        let current = upgrade(&theirs);
        if current != run {
            return Err(format!(
                "{}: the checkpoint of another training ({}); remove it to start afresh",
                path.display(),
                difference(&current, run)
            ));
        }
        Checkpoint::parse_state(r, theirs, shape)
            .map(Some)
            .map_err(damaged)
    }

    /// The state after the run's description (read by [`read_run`]).
    fn parse_state(mut r: Reader, run: String, shape: &Params) -> Result<Checkpoint, String> {
        let bytes = r.bytes;
        let done = u64::from_le_bytes(r.array()?) as usize;
        let t = i32::from_le_bytes(r.array()?);
        let mut read = || -> Result<Params, String> {
            let mut p = shape.zeros_like();
            for group in p.groups_mut() {
                let n = u64::from_le_bytes(r.array()?) as usize;
                if n != group.len() {
                    return Err(format!("a group of {n} weights where {} fit", group.len()));
                }
                for w in group.iter_mut() {
                    *w = f32::from_le_bytes(r.array()?);
                }
            }
            Ok(p)
        };
        let params = read()?;
        let m = read()?;
        let v = read()?;
        if r.at != bytes.len() {
            return Err(format!("{} bytes too many", bytes.len() - r.at));
        }
        Ok(Checkpoint {
            run,
            done,
            params,
            adam: Adam { m, v, t },
        })
    }
}

/// The header: the magic bytes and the run's description.
fn read_run(r: &mut Reader) -> Result<String, String> {
    if r.take(MAGIC.len())? != MAGIC {
        return Err("no C960TC01 header".into());
    }
    let len = u32::from_le_bytes(r.array()?) as usize;
    String::from_utf8(r.take(len)?.to_vec()).map_err(|e| e.to_string())
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or("cut short")?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
}
