//! Openings files (EPD, PGN) of Chess960 and Double Fischer Random start
//! positions for match runners.
//!
//! fastchess and cutechess-cli play Chess960 from an openings file: each
//! entry is a start position, games start from it with no book moves. Both
//! formats carry the full FEN so the tools need no numbering of their own.
//!
//! * EPD: one line per start, `<4 FEN fields> id "chess960 #N";` (or
//!   `id "dfrc #N";`).
//! * PGN: one game per start with the Seven Tag Roster, then
//!   `[Variant "fischerandom"]`, `[SetUp "1"]`, `[FEN "..."]` and the
//!   movetext `*`.
//!
//! The `Variant` value is `fischerandom` because that is the only name
//! cutechess-cli accepts (it looks the lower-cased tag up among its board
//! names, and its Chess960 board is called `fischerandom`) and the name it
//! and fastchess's cutechess-compatible build write into their own PGNs;
//! fastchess reads only the `FEN` tag of opening games, and python-chess
//! (`Headers.is_chess960`) accepts `fischerandom` as well.

use std::io::{self, Write};

use rand::RngCore;

use crate::startpos::{CastlingNotation, Deck, Numbered, StartError};

/// The `Variant` tag value for Chess960 games (see the module docs).
pub const PGN_VARIANT: &str = "fischerandom";

/// Openings file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// One EPD line per start.
    #[default]
    Epd,
    /// One PGN game (tags only, no moves) per start.
    Pgn,
}

/// Why an openings file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// A start number outside 0..959.
    #[error(transparent)]
    Start(#[from] StartError),
    /// Writing failed (disk full, closed pipe, ...).
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

/// The EPD line of a start (no line break):
/// `<placement> w <castling> - id "chess960 #N";`.
///
/// # Errors
/// A number out of its family's range.
pub fn epd_line(start: Numbered, notation: CastlingNotation) -> Result<String, StartError> {
    let fen = start.fen(notation)?;
    let four: Vec<&str> = fen.split(' ').take(4).collect();
    Ok(format!("{} id \"{start}\";", four.join(" ")))
}

/// The PGN game for a start as the `round`-th entry of the file, ending
/// with a blank line so that games can be concatenated.
///
/// # Errors
/// A number out of its family's range.
pub fn pgn_game(
    start: Numbered,
    round: u64,
    notation: CastlingNotation,
) -> Result<String, StartError> {
    let fen = start.fen(notation)?;
    let event = match start {
        Numbered::Chess960(n) => format!("Chess960 start position {n}"),
        Numbered::Dfrc(n) => format!("Double Fischer Random start position {n}"),
    };
    Ok(format!(
        "[Event \"{event}\"]\n\
         [Site \"?\"]\n\
         [Date \"????.??.??\"]\n\
         [Round \"{round}\"]\n\
         [White \"?\"]\n\
         [Black \"?\"]\n\
         [Result \"*\"]\n\
         [Variant \"{PGN_VARIANT}\"]\n\
         [SetUp \"1\"]\n\
         [FEN \"{fen}\"]\n\
         \n\
         *\n\
         \n"
    ))
}

/// Write the openings file for `numbers`, in the given order.
///
/// # Errors
/// [`OpeningsError::Start`] for a number outside 0..959,
/// [`OpeningsError::Io`] when writing fails.
pub fn write<W, I>(
    out: &mut W,
    numbers: I,
    format: Format,
    notation: CastlingNotation,
) -> Result<(), OpeningsError>
where
    W: Write + ?Sized,
    I: IntoIterator<Item = Numbered>,
{
    for (i, n) in numbers.into_iter().enumerate() {
        match format {
            Format::Epd => writeln!(out, "{}", epd_line(n, notation)?)?,
            Format::Pgn => write!(out, "{}", pgn_game(n, i as u64 + 1, notation)?)?,
        }
    }
    out.flush()?;
    Ok(())
}

/// `count` random Chess960 start numbers for an openings file: distinct
/// when `count <= 960` (drawn without replacement, in the random order
/// drawn); beyond 960 each further run of 960 is a fresh permutation, so
/// every start appears as evenly as possible.
pub fn random_starts<R: RngCore>(mut rng: R, count: u64) -> impl Iterator<Item = u32> {
    let mut deck = Deck::new();
    (0..count).map(move |_| deck.draw(&mut rng))
}

/// `count` random DFRC starts, drawn the same way from the 921,600.
pub fn random_dfrc_starts<R: RngCore>(mut rng: R, count: u64) -> impl Iterator<Item = u32> {
    let mut deck = Deck::of(crate::startpos::DFRC_COUNT);
    (0..count).map(move |_| deck.draw(&mut rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::startpos;

    #[test]
    fn epd_line_has_four_fields_and_the_id() {
        assert_eq!(
            epd_line(Numbered::Chess960(518), CastlingNotation::XFen).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"chess960 #518\";"
        );
        assert_eq!(
            epd_line(Numbered::Chess960(0), CastlingNotation::Shredder).unwrap(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - id \"chess960 #0\";"
        );
        assert!(epd_line(Numbered::Chess960(960), CastlingNotation::XFen).is_err());
    }

    #[test]
    fn dfrc_lines_say_dfrc() {
        assert_eq!(
            epd_line(Numbered::Dfrc(518), CastlingNotation::Shredder).unwrap(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhf - id \"dfrc #518\";"
        );
        let g = pgn_game(Numbered::Dfrc(960), 1, CastlingNotation::Shredder).unwrap();
        assert!(g.starts_with("[Event \"Double Fischer Random start position 960\"]\n"));
        assert!(epd_line(Numbered::Dfrc(921_600), CastlingNotation::XFen).is_err());
        let v: Vec<u32> = random_dfrc_starts(startpos::rng(Some(1)), 1000).collect();
        let distinct: std::collections::HashSet<u32> = v.iter().copied().collect();
        assert_eq!(distinct.len(), 1000);
        assert!(v.iter().all(|&n| n < startpos::DFRC_COUNT));
    }

    #[test]
    fn pgn_game_has_the_chess960_tags() {
        let g = pgn_game(Numbered::Chess960(959), 3, CastlingNotation::Shredder).unwrap();
        assert!(g.starts_with("[Event \"Chess960 start position 959\"]\n"));
        assert!(g.contains("[Round \"3\"]\n"));
        assert!(g.contains("[Result \"*\"]\n"));
        assert!(g.contains("[Variant \"fischerandom\"]\n[SetUp \"1\"]\n"));
        assert!(g.contains("[FEN \"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1\"]\n"));
        assert!(g.ends_with("]\n\n*\n\n"));
    }

    #[test]
    fn random_starts_are_distinct_up_to_960() {
        let v: Vec<u32> = random_starts(startpos::rng(Some(5)), 960).collect();
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..960).collect::<Vec<_>>());
        assert_ne!(v, sorted, "a seeded draw should not come out sorted");
        let again: Vec<u32> = random_starts(startpos::rng(Some(5)), 10).collect();
        assert_eq!(&v[..10], &again[..]);
    }

    #[test]
    fn write_streams_in_order() {
        let mut buf = Vec::new();
        write(
            &mut buf,
            [Numbered::Chess960(2), Numbered::Chess960(1)],
            Format::Epd,
            CastlingNotation::XFen,
        )
        .unwrap();
        let text = String::from_utf8(buf).unwrap();
        let ids: Vec<&str> = text
            .lines()
            .map(|l| l.rsplit('#').next().unwrap())
            .collect();
        assert_eq!(ids, ["2\";", "1\";"]);
    }
}
