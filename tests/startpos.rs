//! Start positions: the Scharnagl mapping both ways for all 960, checked
//! against the independent table in perft/chess960_startpos.tsv, and every
//! reason for refusing user input.

use chess960::backrank::{BackRank, RankError};
use chess960::notation;
use chess960::startpos::{self, StartError, COUNT};

const TSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess960_startpos.tsv");

/// `(sp, fen)` rows of the reference table.
fn table() -> Vec<(u32, String)> {
    let text = std::fs::read_to_string(TSV).expect("perft/chess960_startpos.tsv is readable");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    assert_eq!(&header[..2], ["sp", "fen"], "table columns changed");
    lines
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[0].parse().expect("sp is a number"), cols[1].to_owned())
        })
        .collect()
}

#[test]
fn anchors() {
    assert_eq!(startpos::back_rank(518), "RNBQKBNR");
    assert_eq!(startpos::back_rank(0), "BBQNNRKR");
    assert_eq!(startpos::back_rank(959), "RKRNNQBB");
    assert_eq!(startpos::STANDARD, 518);
    assert_eq!(
        startpos::xfen(518).unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn all_960_both_ways() {
    let mut seen = std::collections::HashSet::new();
    for n in 0..COUNT {
        let rank = startpos::back_rank(n);
        assert!(seen.insert(rank.clone()), "{rank} named twice");
        let roles = BackRank::from_scharnagl(n).unwrap();
        assert_eq!(roles.scharnagl(), n, "{rank}");
        assert_eq!(roles.to_string(), rank);
        let pos = startpos::position(n).unwrap();
        assert_eq!(startpos::number(&pos), Some(n), "{rank}");
        assert_eq!(startpos::parse(&rank), Ok(n), "{rank}");
        assert_eq!(startpos::parse(&rank.to_ascii_lowercase()), Ok(n), "{rank}");
        let x = startpos::xfen(n).unwrap();
        let s = startpos::shredder_fen(n).unwrap();
        assert_eq!(startpos::parse(&x), Ok(n), "{x}");
        assert_eq!(startpos::parse(&s), Ok(n), "{s}");
        let four: Vec<&str> = s.split(' ').take(4).collect();
        assert_eq!(startpos::parse(&four.join(" ")), Ok(n), "{s}");
        // The writers agree with notation.rs on the same position.
        assert_eq!(x, notation::xfen(&pos));
        assert_eq!(s, notation::shredder_fen(&pos));
    }
    assert_eq!(seen.len(), 960);
    assert!(startpos::position(COUNT).is_err());
    assert!(BackRank::from_scharnagl(COUNT).is_none());
}

#[test]
fn matches_the_independent_table() {
    let rows = table();
    assert_eq!(rows.len(), 960);
    for (i, (sp, fen)) in rows.iter().enumerate() {
        assert_eq!(*sp as usize, i, "table out of order");
        // Number -> position: our Shredder-FEN is the table's text.
        assert_eq!(&startpos::shredder_fen(*sp).unwrap(), fen, "sp {sp}");
        // Position -> number, from the table's own FEN and its back rank.
        assert_eq!(startpos::parse(fen), Ok(*sp), "{fen}");
        let white_rank = fen.split(['/', ' ']).nth(7).unwrap();
        assert_eq!(startpos::parse(white_rank), Ok(*sp), "{fen}");
        // X-FEN of the table's position, as notation.rs writes it.
        let pos = notation::parse_fen(fen).unwrap();
        assert_eq!(startpos::xfen(*sp).unwrap(), notation::xfen(&pos));
        assert_eq!(startpos::number(&pos), Some(*sp));
    }
}

#[test]
fn number_is_none_after_a_move() {
    use shakmaty::{Position, Role, Square};
    let pos = startpos::position(518).unwrap();
    let mv = pos
        .legal_moves()
        .into_iter()
        .find(|m| m.role() == Role::Knight && m.to() == Square::F3)
        .unwrap();
    assert_eq!(startpos::number(&pos.play(mv).unwrap()), None);
}

/// Parse `text`, expect a refusal, check the message is one line and return it.
fn refused(text: &str) -> StartError {
    let err = startpos::parse(text).expect_err(text);
    let msg = err.to_string();
    assert!(
        !msg.contains('\n'),
        "multi-line message for {text:?}: {msg}"
    );
    assert!(!msg.is_empty());
    err
}

const STD_BOARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

#[test]
fn refuses_empty_and_non_positions() {
    assert_eq!(refused(""), StartError::Empty);
    assert_eq!(refused("   "), StartError::Empty);
    assert!(matches!(refused("518"), StartError::NotAPosition(_)));
    assert!(matches!(refused("hello!"), StartError::NotAPosition(_)));
}

#[test]
fn refuses_bad_back_rank_length() {
    assert_eq!(
        refused("RNBQKBN"),
        StartError::Rank(RankError::Length {
            text: "RNBQKBN".into(),
            len: 7
        })
    );
    assert!(matches!(
        refused("RNBQKBNRR"),
        StartError::Rank(RankError::Length { len: 9, .. })
    ));
}

#[test]
fn refuses_bad_back_rank_letters() {
    assert!(matches!(
        refused("RNBQKBNP"),
        StartError::Rank(RankError::Letter { letter: 'P', .. })
    ));
    assert!(matches!(
        refused("RNBQKBN1"),
        StartError::Rank(RankError::Letter { letter: '1', .. })
    ));
    assert!(matches!(
        refused("RNBXKBNR"),
        StartError::Rank(RankError::Letter { letter: 'X', .. })
    ));
}

#[test]
fn refuses_wrong_pieces() {
    let e = refused("RNBQKBNN");
    assert!(
        matches!(&e, StartError::Rank(RankError::WrongPieces { detail, .. }) if detail.contains("3 knights") && detail.contains("1 rook")),
        "{e}"
    );
    let e = refused("RNBQQBNR");
    assert!(
        matches!(&e, StartError::Rank(RankError::WrongPieces { detail, .. }) if detail.contains("2 queens") && detail.contains("0 kings")),
        "{e}"
    );
    // Same on the first rank of a FEN.
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNN w KQkq -"),
        StartError::Rank(RankError::WrongPieces { .. })
    ));
}

#[test]
fn refuses_bishops_on_one_colour() {
    assert!(matches!(
        refused("RBQBKNNR"),
        StartError::Rank(RankError::BishopsSameColour {
            colour: "light",
            ..
        })
    ));
    assert!(matches!(
        refused("brbqknnr"),
        StartError::Rank(RankError::BishopsSameColour { colour: "dark", .. })
    ));
    assert!(matches!(
        refused("rbqbknnr/pppppppp/8/8/8/8/PPPPPPPP/RBQBKNNR w KQkq - 0 1"),
        StartError::Rank(RankError::BishopsSameColour { .. })
    ));
}

#[test]
fn refuses_king_outside_the_rooks() {
    assert!(matches!(
        refused("KRBQRBNN"),
        StartError::Rank(RankError::KingNotBetweenRooks { .. })
    ));
    assert!(matches!(
        refused("RNBQRBNK"),
        StartError::Rank(RankError::KingNotBetweenRooks { .. })
    ));
    assert!(matches!(
        refused("rnbqrbnk/pppppppp/8/8/8/8/PPPPPPPP/RNBQRBNK w Qq - 0 1"),
        StartError::Rank(RankError::KingNotBetweenRooks { .. })
    ));
}

#[test]
fn refuses_wrong_field_counts() {
    assert_eq!(refused(STD_BOARD), StartError::FieldCount(1));
    assert_eq!(
        refused(&format!("{STD_BOARD} w")),
        StartError::FieldCount(2)
    );
    assert_eq!(
        refused(&format!("{STD_BOARD} w KQkq")),
        StartError::FieldCount(3)
    );
    assert_eq!(
        refused(&format!("{STD_BOARD} w KQkq - 0")),
        StartError::FieldCount(5)
    );
    assert_eq!(
        refused(&format!("{STD_BOARD} w KQkq - 0 1 extra")),
        StartError::FieldCount(7)
    );
}

#[test]
fn refuses_fen_syntax_and_variant_parts() {
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq -"),
        StartError::Fen { .. }
    ));
    assert!(matches!(
        refused(&format!("{STD_BOARD} x KQkq -")),
        StartError::Fen { .. }
    ));
    assert!(matches!(
        refused(&format!("{STD_BOARD} w KQkq z9")),
        StartError::Fen { .. }
    ));
    assert!(matches!(
        refused(&format!("{STD_BOARD}[] w KQkq -")),
        StartError::Fen { .. }
    ));
    assert!(matches!(
        refused(&format!("{STD_BOARD} w KQkq - 3+3 0")),
        StartError::Fen { .. }
    ));
}

#[test]
fn refuses_a_first_rank_that_is_not_eight_white_pieces() {
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq -"),
        StartError::WhiteRank { found } if found == "RNBQKBN."
    ));
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNr w KQkq -"),
        StartError::WhiteRank { .. }
    ));
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/RNBQKBNR/PPPPPPPP w - -"),
        StartError::WhiteRank { .. }
    ));
}

#[test]
fn refuses_pawns_not_home() {
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"),
        StartError::PawnsNotHome { side: "white", rank: 2, found, .. } if found == "PPPP.PPP"
    ));
    assert!(matches!(
        refused("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        StartError::PawnsNotHome {
            side: "black",
            rank: 7,
            ..
        }
    ));
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPp/RNBQKBNR w KQkq -"),
        StartError::PawnsNotHome { side: "white", .. }
    ));
}

#[test]
fn refuses_extra_pieces() {
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        StartError::ExtraPieces { squares } if squares == "e4"
    ));
    assert!(matches!(
        refused("rnbqkbnr/pppppppp/p7/8/8/7P/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        StartError::ExtraPieces { squares } if squares == "h3, a6"
    ));
}

#[test]
fn refuses_black_not_mirroring_white() {
    assert!(matches!(
        refused("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        StartError::NotMirrored { expected, .. } if expected == "rnbqkbnr"
    ));
    assert!(matches!(
        refused("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq -"),
        StartError::NotMirrored { black, .. } if black == "rnbqkbn."
    ));
    assert!(matches!(
        refused("RNBQKBNR/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ -"),
        StartError::NotMirrored { .. }
    ));
}

#[test]
fn refuses_black_to_move() {
    assert_eq!(
        refused(&format!("{STD_BOARD} b KQkq - 0 1")),
        StartError::BlackToMove
    );
}

#[test]
fn refuses_missing_castling_rights() {
    let e = refused(&format!("{STD_BOARD} w KQk - 0 1"));
    assert!(
        matches!(&e, StartError::CastlingMissing { missing, .. } if missing == "a8"),
        "{e}"
    );
    assert!(matches!(
        refused(&format!("{STD_BOARD} w - -")),
        StartError::CastlingMissing { missing, .. } if missing == "a1, h1, a8, h8"
    ));
    // Duplicates do not make up for a missing right.
    assert!(matches!(
        refused("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HHhf -"),
        StartError::CastlingMissing { missing, .. } if missing == "f1"
    ));
}

#[test]
fn refuses_wrong_castling_rights() {
    // Start 0 has its rooks on f and h: A names a bishop's square.
    let e = refused("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HAha - 0 1");
    assert!(
        matches!(&e, StartError::CastlingWrong { squares, shredder, xfen }
        if squares == "a1, a8" && shredder == "HFhf" && xfen == "KQkq"),
        "{e}"
    );
    assert!(e.to_string().contains("HFhf"));
    assert!(matches!(
        refused("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhg -"),
        StartError::CastlingWrong { squares, .. } if squares == "g8"
    ));
}

#[test]
fn refuses_en_passant() {
    assert_eq!(
        refused(&format!("{STD_BOARD} w KQkq e3 0 1")),
        StartError::EnPassant("e3".into())
    );
}

#[test]
fn refuses_move_counters_that_are_not_initial() {
    assert_eq!(
        refused(&format!("{STD_BOARD} w KQkq - 1 1")),
        StartError::Halfmove("1".into())
    );
    assert_eq!(
        refused(&format!("{STD_BOARD} w KQkq - 0 2")),
        StartError::Fullmove("2".into())
    );
    // shakmaty reads fullmove 0 as 1; a start position still says 1.
    assert_eq!(
        refused(&format!("{STD_BOARD} w KQkq - 0 0")),
        StartError::Fullmove("0".into())
    );
}

#[test]
fn accepts_every_castling_notation_and_spacing() {
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ -",
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w AHah  -  0  1 ",
        "RnBqKbNr",
    ] {
        assert_eq!(startpos::parse(text), Ok(518), "{text}");
    }
    assert_eq!(
        startpos::parse("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"),
        Ok(0)
    );
    assert_eq!(
        startpos::parse("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"),
        Ok(959)
    );
}

#[test]
fn validate_refuses_positions_built_in_code() {
    use shakmaty::{EnPassantMode, Position};
    let mut setup = startpos::position(7)
        .unwrap()
        .to_setup(EnPassantMode::Legal);
    assert_eq!(startpos::validate(&setup), Ok(7));
    setup.fullmoves = std::num::NonZeroU32::new(3).unwrap();
    assert_eq!(
        startpos::validate(&setup),
        Err(StartError::Fullmove("3".into()))
    );
}
