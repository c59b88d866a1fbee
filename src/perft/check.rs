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
        loop {
            let ours = self.ours(&pos, depth);
            let (theirs, twice) = self.theirs(root, &line, &pos, depth)?;
            let missing: Vec<String> = ours
                .keys()
                .filter(|m| !theirs.contains_key(*m))
                .cloned()
                .collect();
            let extra: Vec<String> = theirs
                .keys()
                .filter(|m| !ours.contains_key(*m))
                .cloned()
                .collect();
            if !missing.is_empty() || !extra.is_empty() || !twice.is_empty() {
                return Ok(Some(Difference {
                    root_fen: shredder_fen(root),
                    moves: line,
                    fen: shredder_fen(&pos),
                    missing,
                    extra,
                    twice,
                }));
            }
            let Some((m, _)) = ours.iter().find(|(m, n)| theirs.get(*m) != Some(n)) else {
                return Ok(None);
            };
            if depth <= 1 {
                // Same moves, different counts at depth 1: impossible for a
                // divide (each move counts 1); report the counts' moves.
                return Ok(Some(Difference {
                    root_fen: shredder_fen(root),
                    moves: line,
                    fen: shredder_fen(&pos),
                    missing: vec![m.clone()],
                    extra: Vec::new(),
                    twice: Vec::new(),
                }));
            }
            let mv = parse_uci_move(&pos, m).map_err(|e| ClientError::Unexpected {
                command: String::new(),
                line: e.to_string(),
                doing: "replaying our own move".into(),
            })?;
            pos.play_unchecked(mv);
            line.push(m.clone());
            depth -= 1;
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
    /// its moves read in either castling encoding and written ours, and
    /// the moves it lists more than once (their counts are then its
    /// first line's: added up, the move was reported missing at depth 1).
    fn theirs(
        &mut self,
        root: &Chess,
        line: &[String],
        pos: &Chess,
        depth: u32,
    ) -> Result<(Counts, Vec<String>), ClientError> {
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
        for (text, n) in self.client.divide(&setup, depth)? {
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
        Ok((out, twice))
    }
}
