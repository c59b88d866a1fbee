//! Checking another engine's move generation against ours.
//!
//! For each position the other engine's divide (`go perft`) is compared
//! with ours, move by move. On the first difference the checker descends:
//! it plays the move whose count differs and asks for the divide one ply
//! shallower, until the move lists themselves differ. What is reported is
//! the shortest line from the suite position to a position where the two
//! generators disagree about which moves are legal, with the moves the
//! engine lacks and the ones it adds.
//!
//! An engine can also agree on every move and still count wrong: its own
//! total (`Nodes searched`) need not be the sum of its lines, and a count
//! it gives for a move need not be what its divide after that move adds up
//! to (a perft hash table that keeps a wrong entry, or state left from the
//! search before). Both are reported as a [`Miscount`] at the position
//! whose count is wrong, with the right count beside the engine's.
//!
//! Moves are compared in one encoding: castling as king-takes-rook, read
//! from either encoding the engine writes (shakmaty decides which move a
//! text means; nothing is rewritten by hand).

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use serde::Serialize;
use shakmaty::{Chess, Position};

use super::Perft;
use crate::notation::{parse_uci_move, shredder_fen, uci_move, xfen, CastlingStyle};
use crate::uci_client::{ClientError, UciClient};

/// How the engine wants its FENs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenStyle {
    /// Shredder-FEN castling letters (`HAha`).
    Shredder,
    /// X-FEN (`KQkq` for outermost rooks).
    XFen,
}

/// Where the two generators first disagree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The suite position (Shredder-FEN).
    pub root_fen: String,
    /// Moves from it to the position where the move lists differ.
    pub moves: Vec<String>,
    /// That position (Shredder-FEN).
    pub fen: String,
    /// Legal moves the engine does not list.
    pub missing: Vec<String>,
    /// Moves the engine lists that are not legal.
    pub extra: Vec<String>,
    /// Legal moves the engine lists more than once (in one encoding or in
    /// both: a castle written king-takes-rook and as the king's
    /// destination is a classic Chess960 generator bug).
    pub twice: Vec<String>,
    /// A count of this position the engine gives wrong while listing its
    /// moves right (then `missing`, `extra` and `twice` are empty).
    pub miscount: Option<Miscount>,
}

/// A wrong count of a position whose moves the engine lists right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Miscount {
    /// Where the engine gave the wrong count.
    pub said_in: SaidIn,
    /// The depth the count is for (the position's own).
    pub depth: u32,
    /// The engine's count.
    pub said: u64,
    /// The right count: ours, and the sum of the engine's own divide of
    /// the position wherever it was asked for one (at depth 1 it is not:
    /// a move is one leaf).
    pub right: u64,
}

/// Which of the engine's lines gave a wrong count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SaidIn {
    /// Its `Nodes searched` total for the position.
    Total,
    /// Its line for the last move in the divide one ply up.
    DivideAbove,
}

/// A divide in our encoding: move text (castling king-takes-rook) to count.
type Counts = BTreeMap<String, u64>;

/// Compares one engine with our generator.
pub struct Checker<'a> {
    /// The other engine.
    pub client: &'a mut UciClient,
    /// Our counter.
    pub perft: &'a Perft,
    /// The FEN style the engine reads.
    pub style: FenStyle,
}

impl Checker<'_> {
    /// Compare the divides of `root` at `depth`; `Ok(None)` when they
    /// agree, else the first difference, found by descending.
    ///
    /// # Errors
    /// A [`ClientError`] when the engine fails to answer a divide.
    pub fn check(&mut self, root: &Chess, depth: u32) -> Result<Option<Difference>, ClientError> {
        let mut pos = root.clone();
        let mut line: Vec<String> = Vec::new();
        let mut depth = depth;
        // The engine's count for the move that led here, in the divide
        // one ply up (none at the root).
        let mut said_above: Option<u64> = None;
        loop {
            let ours = self.ours(&pos, depth);
            let theirs = self.theirs(root, &line, &pos, depth)?;
            let missing: Vec<String> = ours
                .keys()
                .filter(|m| !theirs.counts.contains_key(*m))
                .cloned()
                .collect();
            let extra: Vec<String> = theirs
                .counts
                .keys()
                .filter(|m| !ours.contains_key(*m))
                .cloned()
                .collect();
            if !missing.is_empty() || !extra.is_empty() || !theirs.twice.is_empty() {
                return Ok(Some(Difference {
                    root_fen: shredder_fen(root),
                    moves: line,
                    fen: shredder_fen(&pos),
                    missing,
                    extra,
                    twice: theirs.twice,
                    miscount: None,
                }));
            }
            let counted_apart = ours
                .iter()
                .find_map(|(m, n)| theirs.counts.get(m).filter(|t| *t != n).map(|t| (m, *t)));
            if let Some((m, said)) = counted_apart {
                let mv = parse_uci_move(&pos, m).map_err(|e| ClientError::Unexpected {
                    command: String::new(),
                    line: e.to_string(),
                    doing: "replaying our own move".into(),
                })?;
                pos.play_unchecked(mv);
                line.push(m.clone());
                depth -= 1;
                if depth == 0 {
                    // Same moves, a count other than 1 at depth 1: the
                    // move is one leaf, whatever the engine says.
                    let miscount = Miscount {
                        said_in: SaidIn::DivideAbove,
                        depth,
                        said,
                        right: 1,
                    };
                    return Ok(Some(miscounted(root, line, &pos, miscount)));
                }
                said_above = Some(said);
                continue;
            }
            // Every line agrees with ours, so the sum is right whoever
            // counted it.
            let right = ours.values().fold(0u64, |a, n| a.saturating_add(*n));
            let wrong = [
                (SaidIn::Total, theirs.total),
                (SaidIn::DivideAbove, said_above),
            ]
            .into_iter()
            .find_map(|(said_in, said)| said.filter(|n| *n != right).map(|n| (said_in, n)));
            return Ok(wrong.map(|(said_in, said)| {
                let miscount = Miscount {
                    said_in,
                    depth,
                    said,
                    right,
                };
                miscounted(root, line, &pos, miscount)
            }));
        }
    }

    fn ours(&self, pos: &Chess, depth: u32) -> Counts {
        let never = AtomicBool::new(false);
        self.perft
            .divide(pos, depth, &never)
            .unwrap_or_default()
            .into_iter()
            .map(|(m, n)| (uci_move(m, CastlingStyle::KingTakesRook), n))
            .collect()
    }

    /// The engine's divide of `pos` (reached from `root` by `line`), with
    /// its moves read in either castling encoding and written ours.
    fn theirs(
        &mut self,
        root: &Chess,
        line: &[String],
        pos: &Chess,
        depth: u32,
    ) -> Result<Theirs, ClientError> {
        let fen = match self.style {
            FenStyle::Shredder => shredder_fen(root),
            FenStyle::XFen => xfen(root),
        };
        let setup = if line.is_empty() {
            format!("fen {fen}")
        } else {
            format!("fen {fen} moves {}", line.join(" "))
        };
        let mut out = Counts::new();
        let mut twice = Vec::new();
        let divide = self.client.divide(&setup, depth)?;
        for (text, n) in divide.moves {
            // A move we cannot read is not legal here: it is kept as the
            // engine wrote it, and reported as extra.
            let key = parse_uci_move(pos, &text)
                .map_or(text, |m| uci_move(m, CastlingStyle::KingTakesRook));
            match out.entry(key) {
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(n);
                }
                std::collections::btree_map::Entry::Occupied(e) => {
                    if !twice.contains(e.key()) {
                        twice.push(e.key().clone());
                    }
                }
            }
        }
        twice.sort();
        Ok(Theirs {
            counts: out,
            twice,
            total: divide.total,
        })
    }
}

/// A miscount at `pos`, reached from `root` by `moves`.
fn miscounted(root: &Chess, moves: Vec<String>, pos: &Chess, miscount: Miscount) -> Difference {
    Difference {
        root_fen: shredder_fen(root),
        moves,
        fen: shredder_fen(pos),
        missing: Vec::new(),
        extra: Vec::new(),
        twice: Vec::new(),
        miscount: Some(miscount),
    }
}

/// The engine's divide of one position, read.
struct Theirs {
    /// Its counts, in our encoding (a move listed twice keeps its first
    /// line's count: added up, the move was reported missing at depth 1).
    counts: Counts,
    /// The moves it lists more than once.
    twice: Vec<String>,
    /// Its own total, when it gave one as a number.
    total: Option<u64>,
}
