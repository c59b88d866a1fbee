//! FEN in and out, for any position (not only start positions).
//!
//! Reading accepts every castling notation a GUI sends (plain FEN, X-FEN and
//! Shredder-FEN) because shakmaty's FEN parser understands all three and we
//! always build the position in [`CastlingMode::Chess960`], which is a
//! superset of standard castling. Writing offers both X-FEN (what shakmaty
//! prints) and Shredder-FEN (file letters, what cutechess and fastchess send).

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN syntax.
    #[error("bad FEN '{fen}': {reason}")]
    Syntax { fen: String, reason: String },
    /// The FEN is well-formed but describes an impossible or unsupported position.
    #[error("illegal position '{fen}': {reason}")]
    Position { fen: String, reason: String },
}

/// Parse a FEN (4 to 6 space-separated fields) into a position, reading the
/// castling field as plain FEN, X-FEN or Shredder-FEN.
///
/// # Errors
/// [`FenError::Syntax`] when the text is not a FEN, [`FenError::Position`]
/// when the position is illegal (e.g. side not to move in check, castling
/// rights without a rook, too many kings).
pub fn parse_fen(text: &str) -> Result<Chess, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let fen = fields.join(" ");
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::Syntax {
            fen,
            reason: format!("expected 4 to 6 fields, found {}", fields.len()),
        });
    }
    if let Err(e) = check_board_field(fields[0]) {
        let reason = e.to_string();
        return Err(FenError::Syntax { fen, reason });
    }
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| FenError::Syntax {
        fen: fen.clone(),
        reason: e.to_string(),
    })?;
    if parsed.as_setup().remaining_checks.is_some() || parsed.as_setup().pockets.is_some() {
        return Err(FenError::Syntax {
            fen,
            reason: "variant fields (pockets, remaining checks) are not chess".into(),
        });
    }
    parsed.into_position(CastlingMode::Chess960).map_err(|e| {
        // shakmaty says "invalid castling rights"; say which one (worked
        // out on this error path only, from the text read again).
        let culprit = Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| castling_culprit(f.as_setup(), fields[2]));
        let reason = match culprit {
            Some(c) if e.to_string().contains("castling") => c,
            _ => e.to_string(),
        };
        FenError::Position { fen, reason }
    })
}

/// Why the board field of a FEN is not eight ranks of eight squares.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not 8 ranks.
    #[error("the board has {0} ranks separated by '/', a FEN board has 8")]
    Ranks(usize),
    /// A character that is neither a piece letter nor a digit.
    #[error("rank {number} ('{text}') has '{found}', which is not a piece letter or a digit 1-8")]
    Character {
        /// Rank number, 8 first as in the FEN.
        number: usize,
        /// The rank's text.
        text: String,
        /// The character.
        found: char,
    },
    /// A rank of more or fewer than 8 squares.
    #[error("rank {number} ('{text}') covers {squares} squares, a rank has 8")]
    Width {
        /// Rank number.
        number: usize,
        /// The rank's text.
        text: String,
        /// Squares it covers.
        squares: u32,
    },
}

/// Why a move given in UCI notation cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not UCI move syntax at all.
    #[error("'{0}' is not a UCI move")]
    NotUci(String),
    /// Well formed, not legal here.
    #[error("illegal move '{text}' in {fen}")]
    Illegal {
        /// The move as given.
        text: String,
        /// The position, Shredder-FEN.
        fen: String,
    },
}

/// Check the board field of a FEN the way a person reads it: eight ranks,
/// eight squares each, piece letters and digits only. shakmaty's reader
/// would call a ninth rank a crazyhouse pocket.
///
/// # Errors
/// A [`BoardError`] naming the culprit: how many ranks, which rank is too
/// wide or short, which character is not a piece.
pub fn check_board_field(board: &str) -> Result<(), BoardError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(BoardError::Ranks(ranks.len()));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let number = 8 - i;
        let mut squares = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => squares += c.to_digit(10).unwrap_or(0),
                _ if "pnbrqkPNBRQK".contains(c) => squares += 1,
                // shakmaty's promoted-piece marker (crazyhouse).
                '~' => {}
                _ => {
                    return Err(BoardError::Character {
                        number,
                        text: (*rank).to_owned(),
                        found: c,
                    })
                }
            }
        }
        if squares != 8 {
            return Err(BoardError::Width {
                number,
                text: (*rank).to_owned(),
                squares,
            });
        }
    }
    Ok(())
}

/// The first castling right of `field` that has no rook to castle with
/// (or no king on its back rank), named; `None` when every right has one.
fn castling_culprit(setup: &shakmaty::Setup, field: &str) -> Option<String> {
    use shakmaty::{File, Rank, Square};
    if field == "-" {
        return None;
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let side = if color.is_white() { "white" } else { "black" };
        let rank = color.fold_wb(Rank::First, Rank::Eighth);
        let rook_at = |f: File| {
            setup.board.piece_at(Square::from_coords(f, rank)) == Some(Role::Rook.of(color))
        };
        let king = File::ALL.into_iter().find(|&f| {
            setup.board.piece_at(Square::from_coords(f, rank)) == Some(Role::King.of(color))
        });
        let Some(king) = king else {
            return Some(format!(
                "castling right '{c}' but the {side} king is not on rank {}",
                rank.char()
            ));
        };
        let ok = match c.to_ascii_lowercase() {
            'k' => File::ALL.into_iter().any(|f| f > king && rook_at(f)),
            'q' => File::ALL.into_iter().any(|f| f < king && rook_at(f)),
            l @ 'a'..='h' => rook_at(File::from_char(l).unwrap_or(File::A)),
            _ => true,
        };
        if !ok {
            let place = match c.to_ascii_lowercase() {
                'k' => format!("between the king and the h-file on rank {}", rank.char()),
                'q' => format!("between the a-file and the king on rank {}", rank.char()),
                l => format!("on {l}{}", rank.char()),
            };
            return Some(format!("castling right '{c}' has no {side} rook {place}"));
        }
    }
    None
}

/// The position as X-FEN: castling rights as `KQkq` where the rook is the
/// outermost one on its side, file letters otherwise.
pub fn xfen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The position as Shredder-FEN: castling rights always as rook file
/// letters, white's (upper case) first, each colour from the h-file down.
pub fn shredder_fen(pos: &Chess) -> String {
    let x = xfen(pos);
    let mut fields: Vec<String> = x.split(' ').map(str::to_owned).collect();
    if fields.len() >= 3 {
        fields[2] = shredder_castling(pos);
    }
    fields.join(" ")
}

/// The castling field alone in Shredder-FEN form (`-` when no rights).
pub fn shredder_castling(pos: &Chess) -> String {
    let rights = pos.castles().castling_rights();
    let mut s = String::new();
    for color in Color::ALL {
        for sq in (rights & color.backrank()).into_iter().rev() {
            let c = sq.file().char();
            s.push(if color.is_white() {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// True when the castling rights of `pos` can only be expressed in
/// Chess960 terms (king off the e-file or a castling rook off a/h), i.e.
/// when UCI castling moves must be written king-takes-rook.
pub fn needs_chess960(pos: &Chess) -> bool {
    let setup = pos.to_setup(EnPassantMode::Legal);
    CastlingMode::detect(&setup) == CastlingMode::Chess960
}

/// A board for people: rank 8 on top, white in upper case, `.` for an
/// empty square, files and ranks labelled. Used by `show`, UCI `d` and the
/// other human-facing outputs so that they all look alike.
pub fn diagram(board: &shakmaty::Board) -> String {
    use shakmaty::{File, Rank, Square};
    let mut s = String::from("  +-----------------+\n");
    for rank in Rank::ALL.into_iter().rev() {
        s.push(rank.char());
        s.push_str(" |");
        for file in File::ALL {
            s.push(' ');
            s.push(
                board
                    .piece_at(Square::from_coords(file, rank))
                    .map_or('.', |p| p.char()),
            );
        }
        s.push_str(" |\n");
    }
    s.push_str("  +-----------------+\n    a b c d e f g h\n");
    s
}

/// Read a move in UCI notation against `pos`.
///
/// Castling is accepted in both forms GUIs send: king-takes-own-rook
/// (`e1h1`, the Chess960 convention, and what shakmaty reads natively) and
/// the king's move to its castling destination (`e1g1`; in Chess960 e.g.
/// `b1g1`), the latter only when it is unambiguous: no ordinary legal move
/// has the same squares and exactly one castling move puts the king there.
/// The destination comes from shakmaty (`CastlingSide::king_to`), never
/// from hand-written square arithmetic.
///
/// # Errors
/// A [`MoveError`] naming the move when it is not UCI syntax or not legal.
pub fn parse_uci_move(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let uci: UciMove = text
        .parse()
        .map_err(|_| MoveError::NotUci(text.to_owned()))?;
    if let Ok(m) = uci.to_move(pos) {
        return Ok(m);
    }
    if let UciMove::Normal {
        from,
        to,
        promotion: None,
    } = uci
    {
        if pos.board().role_at(from) == Some(Role::King)
            && pos.board().color_at(from) == Some(pos.turn())
        {
            let mut candidates = pos.legal_moves();
            candidates.retain(|m| {
                m.is_castle()
                    && m.from() == Some(from)
                    && m.castling_side()
                        .is_some_and(|side| side.king_to(pos.turn()) == to)
            });
            if candidates.len() == 1 {
                return Ok(candidates[0]);
            }
        }
    }
    Err(MoveError::Illegal {
        text: text.to_owned(),
        fen: shredder_fen(pos),
    })
}

/// Write a move in UCI notation: castling as king-takes-rook when
/// `chess960`, as the king's two-square move otherwise.
pub fn uci_move(m: Move, chess960: bool) -> String {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    m.to_uci(mode).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_in_both_encodings() {
        // Start 0: BBQNNRKR, king g1, rooks f1 and h1. Clear the way first.
        let pos = parse_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQ4K1R w H - 0 1");
        assert!(pos.is_err(), "king must stand between the rooks for H");
        let pos = parse_fen("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
        // King g1, rook h1: king-side castling leaves the king on g1, so it
        // can only be written king-takes-rook.
        let oo = parse_uci_move(&pos, "g1h1").unwrap();
        assert!(oo.is_castle());
        assert_eq!(uci_move(oo, true), "g1h1");
        // Queen-side: king g1 -> c1, rook b1 -> d1; both encodings work.
        let ooo = parse_uci_move(&pos, "g1b1").unwrap();
        assert!(ooo.is_castle());
        assert_eq!(parse_uci_move(&pos, "g1c1").unwrap(), ooo);
        // Standard start: e1g1 and e1h1 are the same castle.
        let std = parse_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").unwrap();
        let a = parse_uci_move(&std, "e1g1").unwrap();
        let b = parse_uci_move(&std, "e1h1").unwrap();
        assert_eq!(a, b);
        assert_eq!(uci_move(a, false), "e1g1");
        assert_eq!(uci_move(a, true), "e1h1");
    }

    #[test]
    fn ordinary_king_move_wins_over_castling_reading() {
        // King f1, rook h1 (right H): f1g1 is an ordinary legal king step;
        // castling would also put the king on g1, so f1g1 must stay a step.
        let pos = parse_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        let m = parse_uci_move(&pos, "f1g1").unwrap();
        assert!(!m.is_castle());
        assert!(parse_uci_move(&pos, "f1h1").unwrap().is_castle());
    }

    #[test]
    fn illegal_moves_are_named() {
        let pos = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(matches!(
            parse_uci_move(&pos, "e1e3"),
            Err(MoveError::Illegal { text, .. }) if text == "e1e3"
        ));
        assert_eq!(
            parse_uci_move(&pos, "zz"),
            Err(MoveError::NotUci("zz".into()))
        );
    }

    #[test]
    fn all_castling_notations_give_the_same_position() {
        let shredder =
            parse_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .expect("shredder");
        let xfen_pos =
            parse_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
                .expect("x-fen");
        assert_eq!(shredder_fen(&shredder), shredder_fen(&xfen_pos));
        assert_eq!(
            shredder_fen(&shredder),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
        assert_eq!(
            xfen(&shredder),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
    }

    #[test]
    fn inner_rook_needs_a_file_letter_in_xfen() {
        // Rooks on a1 and b1 (queenside) with the king on c1: castling with the
        // inner b-rook must be written B in X-FEN.
        let pos = parse_fen("rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1").expect("fen");
        assert_eq!(xfen(&pos).split(' ').nth(2), Some("Bb"));
        assert_eq!(shredder_castling(&pos), "Bb");
    }

    #[test]
    fn refuses_garbage_and_illegal_positions() {
        assert!(matches!(parse_fen("hello"), Err(FenError::Syntax { .. })));
        assert!(matches!(
            parse_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(FenError::Position { .. })
        ));
        assert!(matches!(
            parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"),
            Err(FenError::Syntax { .. })
        ));
    }

    #[test]
    fn standard_rights_do_not_need_chess960() {
        let std = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(!needs_chess960(&std));
        let frc = parse_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        assert!(needs_chess960(&frc));
    }
}
