//! FEN in and out, for any position (not only start positions).
//!
//! Reading accepts every castling notation a GUI sends (plain FEN, X-FEN and
//! Shredder-FEN) because shakmaty's FEN parser understands all three and we
//! always build the position in [`CastlingMode::Chess960`], which is a
//! superset of standard castling. Writing offers both X-FEN (what shakmaty
//! prints) and Shredder-FEN (file letters, what cutechess and fastchess send).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

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
    parsed
        .into_position(CastlingMode::Chess960)
        .map_err(|e| FenError::Position {
            fen,
            reason: e.to_string(),
        })
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

#[cfg(test)]
mod tests {
    use super::*;

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
