//! From a GUI's `position` commands to the game, as the engine and the
//! front-end (`chess960 wrap`) both read them.
//!
//! GUIs resend the whole game with every move. [`Positions`] keeps what
//! lasts between those commands within one game: the start a `random`
//! drew, whether the GUI speaks Arena's `O-O` dialect, and why the last
//! command gave no position. What a command that cannot be fully read
//! leaves is decided here once (docs/robustness.md says why).

use rand::Rng;
use shakmaty::Chess;

use super::command::{shorten, PositionCommand, StartSpec};
use crate::engine::Game;
use crate::notation::{
    castle_word, inner_rook_readings, parse_fen_lenient, shredder_fen, CastlingStyle, MoveError,
};
use crate::startpos;

/// What lasts between the `position` commands of one game.
#[derive(Debug, Clone, Default)]
pub struct Positions {
    /// The GUI wrote a castle as `O-O` in this game: answer in its dialect
    /// (Arena sets no option for it).
    pub arena_spoken: bool,
    /// The start `startpos960 random` drew in this game.
    drawn_960: Option<u32>,
    /// The start `dfrc random` drew in this game.
    drawn_dfrc: Option<u32>,
    /// Why the last `position` gave no position at all.
    unreadable: Option<String>,
}

/// The outcome of one `position` command.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The game, or `None` when its start could not be read.
    pub game: Option<Game>,
    /// Lines for the GUI, in order: notices (`info string ...`) and at most
    /// one error (`info string error: ...`).
    pub lines: Vec<String>,
}

impl Positions {
    /// `ucinewgame`: the next `random` draws anew, the dialect is read
    /// again.
    pub fn new_game(&mut self) {
        *self = Positions::default();
    }

    /// How castles are written to the GUI: `O-O` when it spoke Arena's
    /// dialect in this game, or asked for it (`UCI_Chess960_Arena`,
    /// `arena_option`) in a Chess960 game; king-takes-rook with
    /// `UCI_Chess960` (`chess960_option`) or in a Chess960 game; the king's
    /// two-square move otherwise. Arena keeps an engine's options from game
    /// to game and wants `e1g1` in a classical one: the option turned on
    /// for Chess960 must not follow the engine there. A game whose start is
    /// a Chess960 or DFRC start other than the classical one, numbered or
    /// given as a FEN, is a Chess960 game to Arena's dialect, also where
    /// classical notation could write its castles (king on e1, rooks on a1
    /// and h1: 509, RQNBKNBR, and 16 more): no classical game starts there.
    pub fn gui_style(
        &self,
        arena_option: bool,
        chess960_option: bool,
        game: &Game,
    ) -> CastlingStyle {
        let chess960_game = chess960_option || game.is_chess960();
        let arena_game = chess960_game || game.starts_off_classical();
        if self.arena_spoken || (arena_option && arena_game) {
            CastlingStyle::Arena
        } else if chess960_game {
            CastlingStyle::KingTakesRook
        } else {
            CastlingStyle::KingToSquare
        }
    }

    /// Why the last `position` gave no position, if it did not.
    pub fn unreadable(&self) -> Option<&str> {
        self.unreadable.as_deref()
    }

    /// A `position` line that could not even be parsed: no position.
    pub fn refuse(&mut self, reason: &str) -> String {
        self.unreadable = Some(reason.to_owned());
        format!(
            "info string error: {reason}; no position until the next valid 'position' (go answers bestmove 0000)"
        )
    }

    /// Apply a `position` command. The start is read first (none readable:
    /// no position); the moves are played up to the first that cannot be
    /// read or is illegal, which is named: the game is then the GUI's own as
    /// far as it could be read (as Stockfish 15.1 keeps it), never a
    /// position from an earlier command. An X-FEN `K`/`Q` that a GUI wrote
    /// for an inner rook is read as that rook when that makes every move
    /// legal, or more of them legal than as written (the first move
    /// illegal under that reading is then named).
    pub fn apply(&mut self, p: &PositionCommand, rng: &mut impl Rng) -> Applied {
        let mut lines = Vec::new();
        let mut game = match self.start_game(&p.start, rng, &mut lines) {
            Ok(game) => game,
            Err(e) => {
                lines.push(self.refuse(&e));
                return Applied { game: None, lines };
            }
        };
        self.unreadable = None;
        if let Err((i, e)) = play_all(&mut game, &p.moves) {
            // The other readings of an X-FEN castling field: the first
            // under which every move is legal, else the one that plays the
            // most moves, if more than as written.
            struct Reading {
                game: Game,
                why: String,
                failed: Option<(usize, MoveError)>,
            }
            let mut best: Option<Reading> = None;
            if let StartSpec::Fen(fen) = &p.start {
                for (alt, why) in inner_rook_readings(fen) {
                    let Ok(read) = parse_fen_lenient(&alt) else {
                        continue;
                    };
                    let mut game = Game::new(read.position, None);
                    let failed = play_all(&mut game, &p.moves).err();
                    let beats = best.as_ref().map_or(i, |b| b.game.moves().len());
                    if game.moves().len() > beats {
                        let done = failed.is_none();
                        best = Some(Reading { game, why, failed });
                        if done {
                            break;
                        }
                    }
                }
            }
            let failure = match best {
                Some(Reading {
                    game: g,
                    why,
                    failed,
                }) => {
                    lines.push(format!(
                        "info string {why}, so that move {} '{}' is legal",
                        i + 1,
                        shorten(&p.moves[i])
                    ));
                    game = g;
                    failed
                }
                None => Some((i, e)),
            };
            if let Some((j, e)) = failure {
                lines.push(format!(
                    "info string error: move {} of the position command: {e}; the position is the one before it",
                    j + 1
                ));
            }
        }
        if p.moves[..game.moves().len()]
            .iter()
            .any(|m| castle_word(m).is_some())
        {
            self.arena_spoken = true;
        }
        Applied {
            game: Some(game),
            lines,
        }
    }

    /// The game at the start a `position` command names; notices go to
    /// `lines`.
    fn start_game(
        &mut self,
        start: &StartSpec,
        rng: &mut impl Rng,
        lines: &mut Vec<String>,
    ) -> Result<Game, String> {
        Ok(match start {
            StartSpec::StartPos => Game::named(Chess::default(), Some(startpos::STANDARD)),
            StartSpec::Fen(fen) => {
                let read = parse_fen_lenient(fen).map_err(|e| e.to_string())?;
                if !read.dropped.is_empty() {
                    lines.push(format!(
                        "info string castling rights dropped from the FEN: {}",
                        read.dropped.join("; ")
                    ));
                }
                if read.too_much_material {
                    lines.push(
                        "info string the FEN has more material than a game can reach; read as it is"
                            .to_owned(),
                    );
                }
                if let Some(sq) = read.dropped_ep {
                    lines.push(format!(
                        "info string en passant square {sq} dropped from the FEN: no pawn can have just passed over it"
                    ));
                }
                Game::new(read.position, None)
            }
            StartSpec::Start960(n) => {
                Game::named(startpos::position(*n).map_err(|e| e.to_string())?, Some(*n))
            }
            StartSpec::Start960Random => {
                let (n, fresh) = draw_once(&mut self.drawn_960, startpos::COUNT, rng);
                let pos = startpos::position(n).map_err(|e| e.to_string())?;
                if fresh {
                    lines.push(format!(
                        "info string startpos960 {n} fen {}",
                        shredder_fen(&pos)
                    ));
                }
                Game::named(pos, Some(n))
            }
            StartSpec::Dfrc(n) => Game::named(
                startpos::dfrc_position(*n).map_err(|e| e.to_string())?,
                None,
            ),
            StartSpec::DfrcRandom => {
                let (n, fresh) = draw_once(&mut self.drawn_dfrc, startpos::DFRC_COUNT, rng);
                let pos = startpos::dfrc_position(n).map_err(|e| e.to_string())?;
                if fresh {
                    lines.push(format!("info string dfrc {n} fen {}", shredder_fen(&pos)));
                }
                Game::named(pos, None)
            }
        })
    }
}

/// The number `slot` holds, drawn below `count` first if it holds none;
/// whether it was drawn now.
fn draw_once(slot: &mut Option<u32>, count: u32, rng: &mut impl Rng) -> (u32, bool) {
    let fresh = slot.is_none();
    (*slot.get_or_insert_with(|| rng.gen_range(0..count)), fresh)
}

/// Play `moves` on `game` up to the first that cannot be read or is
/// illegal; that one's index and error.
fn play_all(game: &mut Game, moves: &[String]) -> Result<(), (usize, MoveError)> {
    for (i, m) in moves.iter().enumerate() {
        game.play_uci(m).map_err(|e| (i, e))?;
    }
    Ok(())
}
