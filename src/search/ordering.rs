//! Move ordering: static exchange evaluation, MVV-LVA, killers, history
//! and counter-moves. Good ordering is what makes alpha-beta cut.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

use super::correction::Correction;
use super::MAX_PLY;
use crate::eval::{Displacement, PIECE_VALUE};

/// The exchange value of `role` ([`PIECE_VALUE`]).
fn value(role: Role) -> i32 {
    PIECE_VALUE[role as usize - 1]
}

/// What a move starts on its destination square: where the piece moves
/// from and to, what it wins at once (the captured piece, plus
/// a promotion's gain) and what then stands there to be lost (the piece,
/// promoted or not).
#[derive(Clone, Copy)]
struct Opening {
    from: Square,
    to: Square,
    /// The square of a piece taken off another square than `to` (en
    /// passant).
    beside: Option<Square>,
    gain: i32,
    at_stake: i32,
}

/// `m`'s [`Opening`]; `None` for castling, which captures nothing and
/// leaves nothing to be taken as an exchange.
fn opening(m: Move) -> Option<Opening> {
    let d = Displacement::of(m)?;
    let mut gain = d.captured.map_or(0, |(role, _)| value(role));
    let at_stake = match d.promotion {
        Some(p) => {
            gain += value(p) - value(Role::Pawn);
            value(p)
        }
        None => value(d.role),
    };
    Some(Opening {
        from: d.from,
        to: d.to,
        beside: d.captured.map(|(_, sq)| sq).filter(|&sq| sq != d.to),
        gain,
        at_stake,
    })
}

/// Whether [`see`] of `m` is at least `threshold`, as `see(pos, m) >=
/// threshold` says, but without playing out the exchange when its first
/// step decides: the result is never more than what the move wins at once
/// (the opponent may recapture) and never less than that minus the piece
/// it puts on the square (the side that moved may stop after one
/// recapture). Most calls are settled so (a pawn's push is never a loss of
/// more than a pawn; a queen taken by a knight is never a loss at all).
pub fn see_at_least(pos: &Chess, m: Move, threshold: i32) -> bool {
    let Some(o) = opening(m) else {
        return 0 >= threshold;
    };
    if o.gain < threshold {
        return false;
    }
    if o.gain - o.at_stake >= threshold {
        return true;
    }
    exchange(pos, &o) >= threshold
}

/// Static exchange evaluation: the material balance of the capture sequence
/// on the destination square of `m`, both sides always recapturing with
/// their least valuable attacker and free to stop when it stops paying.
pub fn see(pos: &Chess, m: Move) -> i32 {
    opening(m).map_or(0, |o| exchange(pos, &o))
}

/// [`see`] from the move's first step on.
fn exchange(pos: &Chess, o: &Opening) -> i32 {
    let Opening {
        from,
        to,
        beside,
        gain,
        at_stake,
    } = *o;
    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from(from);
    if let Some(sq) = beside {
        occupied ^= Bitboard::from(sq);
    }
    let mut gains = [0i32; 40];
    gains[0] = gain;
    let mut on_square = at_stake;
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let attackers = (board.attacks_to(to, Color::White, occupied)
            | board.attacks_to(to, Color::Black, occupied))
            & occupied;
        let ours = attackers & board.by_color(side);
        let Some((sq, role)) = least_valuable(board, ours) else {
            break;
        };
        d += 1;
        if d >= gains.len() {
            break;
        }
        gains[d] = on_square - gains[d - 1];
        if (-gains[d - 1]).max(gains[d]) < 0 {
            break;
        }
        occupied ^= Bitboard::from(sq);
        on_square = value(role);
        side = !side;
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

fn least_valuable(board: &shakmaty::Board, set: Bitboard) -> Option<(Square, Role)> {
    for role in Role::ALL {
        if let Some(sq) = (set & board.by_role(role)).first() {
            return Some((sq, role));
        }
    }
    None
}

/// Ordering key for captures: most valuable victim first, then least
/// valuable attacker.
pub fn mvv_lva(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => 100,
        _ => m.capture().map_or(0, value),
    };
    let promo = m.promotion().map_or(0, value);
    victim * 10 + promo - value(m.role()) / 10
}

/// A quiet move's identity for history tables: from-square and to-square
/// (castling: king square and rook square).
pub fn from_to(m: Move) -> (usize, usize) {
    match m {
        Move::Castle { king, rook } => (usize::from(king), usize::from(rook)),
        _ => (m.from().map_or(0, usize::from), usize::from(m.to())),
    }
}

/// Number of `piece_to` indices: 12 pieces (by side) times 64 squares.
const PIECE_TO: usize = 12 * 64;

/// Index of a move's (side, piece, destination) in the continuation tables:
/// what a move "is" for the follow-up statistics, whatever square it left.
pub fn piece_to(color: Color, m: Move) -> usize {
    let piece = usize::from(color.is_black()) * 6 + (m.role() as usize - 1);
    piece * 64 + from_to(m).1
}

/// The moves that led to a node, as continuation-table indices: the
/// opponent's last move and our own move before it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context {
    /// The move just played (by the opponent), for the counter-move table.
    pub previous: Option<Move>,
    /// `piece_to` of the move just played (by the opponent).
    pub prev1: Option<usize>,
    /// `piece_to` of the move before it (by the side to move).
    pub prev2: Option<usize>,
}

/// Per-thread ordering memory.
pub struct Heuristics {
    /// Two quiet moves per ply that caused a cutoff.
    pub killers: Vec<[Option<Move>; 2]>,
    /// Butterfly history by side to move, from, to.
    history: Vec<[[Entry; 64]; 64]>,
    /// Reply that refuted the previous move, by (from, to) of that move.
    pub counter: Vec<[Option<Move>; 64]>,
    /// Continuation history: how good a quiet (piece, to) has been as the
    /// answer to a given (piece, to) one or two plies earlier. Indexed by
    /// the earlier move's `piece_to`, then this move's.
    cont: Vec<[Entry; PIECE_TO]>,
    /// Capture history by the capture's `piece_to` and captured role:
    /// orders captures of equal victims by how often they refuted.
    capture: Vec<[Entry; 6]>,
    /// Static-eval corrections by pawn structure, learnt from this
    /// thread's searches (kept here because it persists the same way).
    pub correction: Correction,
}

/// History values stay within this bound (gravity keeps them there).
const HISTORY_MAX: i32 = 16_384;

/// One history entry. [`update`]'s gravity keeps every entry within
/// `±HISTORY_MAX`, which `i16` holds, so the tables are stored at half the
/// width of the arithmetic: scoring a node's quiet moves reads scattered
/// entries of the continuation tables (1.2 MB instead of 2.4 MB a thread),
/// and those reads were the search's costliest memory traffic.
type Entry = i16;

fn victim(m: Move) -> usize {
    match m {
        Move::EnPassant { .. } => 0,
        _ => m.capture().map_or(0, |r| r as usize - 1),
    }
}

impl Heuristics {
    /// Empty tables.
    pub fn new() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![[[0; 64]; 64]; 2],
            counter: vec![[None; 64]; 64],
            cont: vec![[0; PIECE_TO]; PIECE_TO],
            capture: vec![[0; 6]; PIECE_TO],
            correction: Correction::new(),
        }
    }

    /// Record a quiet move that caused a beta cutoff, and punish the quiet
    /// moves tried before it.
    pub fn cutoff(
        &mut self,
        color: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        ctx: Context,
    ) {
        if self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        let bonus = history_bonus(depth);
        self.reward_quiet(color, best, bonus, ctx);
        for &m in tried {
            if m != best {
                self.reward_quiet(color, m, -bonus, ctx);
            }
        }
        if let Some(p) = ctx.previous {
            let (f, t) = from_to(p);
            self.counter[f][t] = Some(best);
        }
    }

    fn reward_quiet(&mut self, color: Color, m: Move, bonus: i32, ctx: Context) {
        let c = usize::from(color.is_black());
        let (f, t) = from_to(m);
        update(&mut self.history[c][f][t], bonus);
        let idx = piece_to(color, m);
        for prev in [ctx.prev1, ctx.prev2].into_iter().flatten() {
            update(&mut self.cont[prev][idx], bonus);
        }
    }

    /// Record the move that caused a cutoff (capture or not) against the
    /// captures tried before it: the cutting capture gains, the others lose.
    pub fn capture_cutoff(&mut self, color: Color, depth: i32, best: Move, tried: &[Move]) {
        let bonus = history_bonus(depth);
        if best.is_capture() {
            update(
                &mut self.capture[piece_to(color, best)][victim(best)],
                bonus,
            );
        }
        for &m in tried {
            if m != best {
                update(&mut self.capture[piece_to(color, m)][victim(m)], -bonus);
            }
        }
    }

    /// Capture-history score of a capture (or promotion).
    pub fn capture_score(&self, color: Color, m: Move) -> i32 {
        i32::from(self.capture[piece_to(color, m)][victim(m)])
    }

    /// History score of a quiet move: butterfly plus both continuations.
    pub fn quiet_score(&self, color: Color, m: Move, ctx: Context) -> i32 {
        let (f, t) = from_to(m);
        let idx = piece_to(color, m);
        let mut score = i32::from(self.history[usize::from(color.is_black())][f][t]);
        for prev in [ctx.prev1, ctx.prev2].into_iter().flatten() {
            score += i32::from(self.cont[prev][idx]);
        }
        score
    }

    /// Start loading the continuation entries that
    /// [`Heuristics::quiet_score`] will read for `color`'s quiet moves
    /// after `ctx`: two rows' worth of `color`'s pieces, 12 cache lines
    /// each. Asked for before the node's moves are generated, the loads run
    /// while they are; scoring then finds them in the cache instead of
    /// waiting for each (those waits were a tenth of the search's time). A
    /// hint only: no entry is read or changed.
    pub fn prefetch_quiet(&self, color: Color, ctx: Context) {
        const PER_LINE: usize = 64 / std::mem::size_of::<Entry>();
        let ours = usize::from(color.is_black()) * PIECE_TO / 2;
        for prev in [ctx.prev1, ctx.prev2].into_iter().flatten() {
            let row = &self.cont[prev][ours..ours + PIECE_TO / 2];
            for entry in row.iter().step_by(PER_LINE) {
                crate::memory::prefetch(entry);
            }
        }
    }

    /// The counter-move to `previous`, if any.
    pub fn counter_move(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|p| {
            let (f, t) = from_to(p);
            self.counter[f][t]
        })
    }
}

/// History reward for a cutoff at `depth` (deeper cutoffs say more).
fn history_bonus(depth: i32) -> i32 {
    (120 * depth - 80).clamp(0, 1500)
}

/// The ordering memory of every search thread, kept from one search to
/// the next: what refuted what in the last move's search is still true
/// after two plies, so each `go` starts with warm tables instead of
/// relearning them. Cleared with the hash (`ucinewgame`, `Clear Hash`).
#[derive(Default)]
pub struct Histories {
    threads: Vec<Heuristics>,
}

impl Histories {
    /// No tables yet; they are made on the first search.
    pub fn new() -> Histories {
        Histories::default()
    }

    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        self.threads.clear();
    }

    /// One table set per thread, ready for a new search: killers, which
    /// belong to plies of the last search's tree, are dropped.
    pub(super) fn for_threads(&mut self, n: usize) -> &mut [Heuristics] {
        self.threads.resize_with(n, Heuristics::new);
        for h in &mut self.threads {
            h.killers.iter_mut().for_each(|k| *k = [None; 2]);
        }
        &mut self.threads
    }
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics::new()
    }
}

/// Move `entry` toward `bonus`'s sign with gravity: the closer the entry is
/// to `±HISTORY_MAX`, the less a bonus of that sign moves it, and it never
/// passes the bound (for bonuses up to `HISTORY_MAX`; [`history_bonus`]
/// gives at most 1500), so it always fits an [`Entry`].
fn update(entry: &mut Entry, bonus: i32) {
    debug_assert!(bonus.abs() <= HISTORY_MAX);
    let old = i32::from(*entry);
    let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
    debug_assert!(new.abs() <= HISTORY_MAX);
    *entry = new as Entry;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;
    use shakmaty::uci::UciMove;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = parse_fen(fen).unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see(&pos, m)
    }

    #[test]
    fn see_values() {
        // Free pawn.
        assert_eq!(see_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100);
        // Pawn defended by pawn: knight takes, loses knight for pawn.
        assert_eq!(
            see_of("4k3/2p5/3p4/8/4N3/8/8/4K3 w - - 0 1", "e4d6"),
            100 - 320
        );
        // Rook takes a rook defended by rook and king, with a rook behind:
        // RxR RxR RxR KxR nets nothing.
        assert_eq!(see_of("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
        // Quiet move: nothing captured, square not attacked.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d5"), 0);
    }

    /// The shortcut decides as the full exchange does, for every legal
    /// move of positions with captures, promotions and en passant, at
    /// thresholds around every value the exchanges take.
    #[test]
    fn see_at_least_agrees_with_see() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let starts = [
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "1r2k2r/1P6/8/3pP3/8/8/6p1/1R2K2R w BHbh d6 0 1",
        ];
        let thresholds = [
            -20_000, -1000, -500, -330, -320, -101, -100, -99, -58, -1, 0, 1,
        ];
        let mut shortcuts = 0;
        let mut checked = 0;
        for fen in starts {
            let mut pos = crate::notation::parse_fen(fen).expect("test FEN");
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let full = see(&pos, m);
                    for t in thresholds.iter().chain(&[100, 220, 320, 500, 950, 1500]) {
                        assert_eq!(see_at_least(&pos, m, *t), full >= *t, "{m:?} {t} {full}");
                        checked += 1;
                        if let Some(o) = opening(m) {
                            shortcuts += usize::from(o.gain < *t || o.gain - o.at_stake >= *t);
                        }
                    }
                }
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(
            checked > 10_000 && shortcuts > checked / 2,
            "{shortcuts} of {checked}"
        );
    }

    #[test]
    fn gravity_keeps_every_entry_in_its_type() {
        // Every entry gravity can reach, under every bonus a cutoff gives
        // (either sign): the result stays within the bound, so the `i16`
        // tables lose nothing against `i32` arithmetic.
        let bonuses: Vec<i32> = (0..=64).map(history_bonus).collect();
        for start in -HISTORY_MAX..=HISTORY_MAX {
            for &b in &bonuses {
                for bonus in [b, -b] {
                    let old = start;
                    let exact = old + bonus - old * bonus.abs() / HISTORY_MAX;
                    let mut entry = start as Entry;
                    update(&mut entry, bonus);
                    assert_eq!(i32::from(entry), exact, "{start} {bonus}");
                    assert!(exact.abs() <= HISTORY_MAX, "{start} {bonus}");
                }
            }
        }
    }

    #[test]
    fn captures_order_by_victim() {
        let pos = parse_fen("4k3/8/8/2q1r3/3P4/8/8/7K w - - 0 1").unwrap();
        let takes_q = "d4c5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let takes_r = "d4e5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert!(mvv_lva(takes_q) > mvv_lva(takes_r));
    }
}
