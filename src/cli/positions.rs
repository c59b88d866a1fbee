//! Handlers for `fen`, `idn`, `show`, `random` and `openings`.
//!
//! Output goes through a locked, buffered stdout and every write error is
//! returned, never unwrapped: a closed pipe (`chess960 random --count 9 |
//! head -1`) ends the command quietly instead of panicking like `println!`.
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use shakmaty::Position;

use crate::numbering::{self, Scheme};

use super::output_file;
use super::{CliError, FenArgs, IdnArgs, OpeningsArgs, OpeningsFormat, RandomArgs, ShowArgs};
use crate::openings::{self, Format, OpeningsError};
use crate::startpos::{self, CastlingNotation, Numbered, StartError};

impl From<StartError> for CliError {
    fn from(e: StartError) -> Self {
        CliError::Usage(e.to_string())
    }
}

impl From<OpeningsError> for CliError {
    fn from(e: OpeningsError) -> Self {
        match e {
            OpeningsError::Io(io) => io.into(),
            OpeningsError::Start(start) => start.into(),
        }
    }
}

fn notation(shredder: bool) -> CastlingNotation {
    if shredder {
        CastlingNotation::Shredder
    } else {
        CastlingNotation::XFen
    }
}

/// `--count` must name at least one position.
fn check_count(count: u64) -> Result<(), CliError> {
    if count == 0 {
        return Err(CliError::Usage("--count must be at least 1".into()));
    }
    Ok(())
}

fn parse_scheme(text: &str) -> Result<Scheme, CliError> {
    text.parse::<Scheme>()
        .map_err(|e| CliError::Usage(e.to_string()))
}

/// The Scharnagl number of `text`, a number in the scheme named `scheme`.
fn scheme_number(text: &str, scheme: &str) -> Result<u32, CliError> {
    let scheme = parse_scheme(scheme)?;
    if scheme == Scheme::Scharnagl {
        return Ok(startpos::parse_number(text)?);
    }
    // Read as the Scharnagl numbers are (digits only, a number too large for
    // any integer named as typed), then range-checked in the scheme.
    let (lo, hi) = scheme.range();
    let k = startpos::number_below(text, hi.saturating_add(1)).map_err(|e| {
        CliError::Usage(match e {
            startpos::NumberError::NotANumber(t) => {
                format!("'{t}' is not a start number in the {scheme} scheme: valid numbers are {lo}..{hi}")
            }
            startpos::NumberError::TooLarge(t) => {
                format!("{scheme} number {t} out of range: valid numbers are {lo}..{hi}")
            }
        })
    })?;
    numbering::from_scheme(i64::from(k), scheme).map_err(|e| CliError::Usage(e.to_string()))
}

/// A Chess960 start given as a FEN or back rank. A Double Fischer Random
/// start (its ranks do not mirror) is named as such, with the option that
/// reads it.
pub(super) fn parse_start(text: &str) -> Result<u32, CliError> {
    startpos::parse(text).map_err(|e| match e {
        // Its own message says so already.
        StartError::TwoRanks(_) => e.into(),
        _ if startpos::parse_dfrc(text).is_ok() => {
            CliError::Usage(format!("{e} (a Double Fischer Random start? add --dfrc)"))
        }
        _ => e.into(),
    })
}

/// `chess960 fen N [--shredder]`: the FEN of start N on one line.
pub fn fen(a: &FenArgs) -> Result<ExitCode, CliError> {
    if a.dfrc {
        let n = startpos::parse_dfrc_number(&a.number)?;
        let mut out = io::stdout().lock();
        writeln!(out, "{}", Numbered::Dfrc(n).fen(notation(a.shredder))?)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let n = scheme_number(&a.number, &a.scheme)?;
    let mut out = io::stdout().lock();
    writeln!(out, "{}", startpos::fen(n, notation(a.shredder))?)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `chess960 idn POSITION`: the Scharnagl number of a FEN or back rank.
pub fn idn(a: &IdnArgs) -> Result<ExitCode, CliError> {
    let text = a.position.join(" ");
    let n = if a.dfrc {
        startpos::parse_dfrc(&text)?
    } else {
        let scheme = parse_scheme(&a.scheme)?;
        let n = parse_start(&text)?;
        numbering::to_scheme(n, scheme).map_err(|e| CliError::Usage(e.to_string()))?
    };
    let mut out = io::stdout().lock();
    writeln!(out, "{n}")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `chess960 show POSITION|N`: a diagram and every name of one start.
pub fn show(a: &ShowArgs) -> Result<ExitCode, CliError> {
    // The scheme is checked even where the position is not a number (and it
    // is not used): a misspelt name is an error, not a silent default.
    parse_scheme(&a.scheme)?;
    let text = a.position.join(" ");
    let t = text.trim();
    // A word with a digit or a sign and no rank separator is meant as a
    // number (`-1`, `1e3`): it is named as a number that is not one, not
    // as a FEN.
    let number = !t.is_empty()
        && !t.contains(['/', ' '])
        && t.bytes()
            .any(|b| b.is_ascii_digit() || b == b'-' || b == b'+');
    if a.dfrc {
        let n = if number {
            startpos::parse_dfrc_number(t)?
        } else {
            startpos::parse_dfrc(t)?
        };
        let start = crate::backrank::DfrcStart::from_index(n)
            .ok_or(StartError::DfrcOutOfRange(n.to_string()))?;
        let svg = || crate::procedures::svg::diagram(&start.board(), &dfrc_caption(n, &start));
        if write_pages(a, svg, || crate::html::start_page(Numbered::Dfrc(n)))? {
            return Ok(ExitCode::SUCCESS);
        }
        let mut out = BufWriter::new(io::stdout().lock());
        out.write_all(describe_dfrc(n)?.as_bytes())?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let n = if number {
        scheme_number(t, &a.scheme)?
    } else {
        parse_start(t)?
    };
    let rank = crate::numbering::back_rank(n).map_err(|e| CliError::Usage(e.to_string()))?;
    let svg = || crate::procedures::svg::board(&rank);
    if write_pages(a, svg, || crate::html::start_page(Numbered::Chess960(n)))? {
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = BufWriter::new(io::stdout().lock());
    out.write_all(describe(n)?.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `show`'s `--svg` and `--html` files; `true` when one went to stdout (`-`),
/// in place of the description.
fn write_pages(
    a: &ShowArgs,
    svg: impl FnOnce() -> String,
    html: impl FnOnce() -> Result<String, StartError>,
) -> Result<bool, CliError> {
    use super::{is_stdout, write_file};
    if let (Some(s), Some(h)) = (&a.svg, &a.html) {
        if is_stdout(s) && is_stdout(h) {
            return Err(CliError::Usage(format!(
                "--svg '{}' and --html '{}' both ask for stdout: give one of them a file",
                s.display(),
                h.display()
            )));
        }
        // The same file by two names too (a link, `./a.svg`): the page
        // would replace the picture without a word.
        if output_file::same_place(s, h) {
            return Err(CliError::Usage(format!(
                "--svg and --html name the same file '{}': give each its own",
                h.display()
            )));
        }
    }
    let mut to_stdout = false;
    if let Some(path) = &a.svg {
        to_stdout |= write_file(path, &svg())?;
    }
    if let Some(path) = &a.html {
        to_stdout |= write_file(path, &html()?)?;
    }
    Ok(to_stdout)
}

/// The text `show` prints for a start of either family.
pub(super) fn describe_numbered(start: Numbered) -> Result<String, StartError> {
    match start {
        Numbered::Chess960(n) => describe(n),
        Numbered::Dfrc(n) => describe_dfrc(n),
    }
}

/// The text `show` prints for start `n`.
fn describe(n: u32) -> Result<String, StartError> {
    let pos = startpos::position(n)?;
    let mut s = format!("Chess960 start position {n}\n\n");
    s.push_str(&crate::notation::diagram(pos.board()));
    s.push('\n');
    s.push_str(&format!("Number:       {n}\n"));
    let numbers: Vec<String> = Scheme::ALL
        .iter()
        .filter_map(|&sc| {
            numbering::to_scheme(n, sc)
                .ok()
                .map(|k| format!("{sc} {k}"))
        })
        .collect();
    s.push_str(&format!("Schemes:      {}\n", numbers.join(", ")));
    s.push_str(&format!("Back rank:    {}\n", startpos::back_rank(n)));
    s.push_str(&format!("X-FEN:        {}\n", startpos::xfen(n)?));
    s.push_str(&format!("Shredder-FEN: {}\n", startpos::shredder_fen(n)?));
    Ok(s)
}

/// The caption over a DFRC start's printed board: its number and both ranks.
fn dfrc_caption(n: u32, start: &crate::backrank::DfrcStart) -> String {
    format!(
        "DFRC {n}\nWhite {} (Chess960 {})\nBlack {} (Chess960 {})",
        start.white,
        start.white.scharnagl(),
        start.black,
        start.black.scharnagl()
    )
}

/// The text `show --dfrc` prints for DFRC start `n`.
fn describe_dfrc(n: u32) -> Result<String, StartError> {
    let start = crate::backrank::DfrcStart::from_index(n)
        .ok_or(StartError::DfrcOutOfRange(n.to_string()))?;
    let pos = startpos::dfrc_position(n)?;
    let mut s = format!("Double Fischer Random start position {n}\n\n");
    s.push_str(&crate::notation::diagram(pos.board()));
    s.push('\n');
    s.push_str(&format!(
        "Number:       {n} = {} + 960 * {}\n",
        start.white.scharnagl(),
        start.black.scharnagl()
    ));
    s.push_str(&format!(
        "White:        {} (Chess960 #{})\n",
        start.white,
        start.white.scharnagl()
    ));
    s.push_str(&format!(
        "Black:        {} (Chess960 #{})\n",
        start.black,
        start.black.scharnagl()
    ));
    s.push_str(&format!(
        "X-FEN:        {}\n",
        Numbered::Dfrc(n).fen(CastlingNotation::XFen)?
    ));
    s.push_str(&format!(
        "Shredder-FEN: {}\n",
        Numbered::Dfrc(n).fen(CastlingNotation::Shredder)?
    ));
    Ok(s)
}

/// `chess960 random [--count K] [--seed S] [--shredder]`: K lines `N FEN`,
/// each start drawn independently and uniformly (repeats possible).
pub fn random(a: &RandomArgs) -> Result<ExitCode, CliError> {
    check_count(a.count)?;
    let mut rng = startpos::rng(a.seed);
    let style = notation(a.shredder);
    let mut out = BufWriter::new(io::stdout().lock());
    for _ in 0..a.count {
        let start = if a.dfrc {
            Numbered::Dfrc(startpos::random_dfrc_number(&mut rng))
        } else {
            Numbered::Chess960(startpos::random_number(&mut rng))
        };
        writeln!(out, "{} {}", start.number(), start.fen(style)?)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The openings file's format: `--format`, else the output file's
/// extension (`.pgn`), else EPD. A `--format` the file name contradicts
/// (`--format pgn -o book.epd`) is refused: a match runner told the
/// extension's format would fail on the file.
fn openings_format(a: &OpeningsArgs) -> Result<OpeningsFormat, CliError> {
    // A name that is all extension (`.pgn`) has none for the standard
    // library; its letters after the dot are still the format asked for.
    let extension = a
        .output
        .as_ref()
        .and_then(|p| {
            p.extension().or_else(|| {
                let name = p.file_name()?.to_str()?;
                name.strip_prefix('.').map(std::ffi::OsStr::new)
            })
        })
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let named = match extension.as_deref() {
        Some("pgn") => Some(OpeningsFormat::Pgn),
        Some("epd") => Some(OpeningsFormat::Epd),
        _ => None,
    };
    match (a.format, named) {
        (Some(f), Some(n)) if f != n => Err(CliError::Usage(format!(
            "--format {} and the file name '{}' disagree: give the file a .{} name or drop --format",
            f.name(),
            a.output.as_ref().map_or(String::new(), |p| p.display().to_string()),
            f.name()
        ))),
        (Some(f), _) | (None, Some(f)) => Ok(f),
        (None, None) => Ok(OpeningsFormat::Epd),
    }
}

/// `chess960 openings (--all | --count K [--seed S]) [--shredder]
/// [--format epd|pgn] [-o FILE]`: an openings file for match runners.
pub fn openings(a: &OpeningsArgs) -> Result<ExitCode, CliError> {
    // A draw without --seed gets a fresh seed, named once the file is
    // written: the file can then be made again (a match's record).
    let drawn = (a.seed.is_none() && !a.all).then(startpos::fresh_seed);
    let rng = || startpos::rng(a.seed.or(drawn));
    let numbers: Box<dyn Iterator<Item = Numbered>> = match (a.all, a.count) {
        (true, _) => Box::new((0..startpos::COUNT).map(Numbered::Chess960)),
        (false, Some(k)) if a.dfrc => {
            check_count(k)?;
            Box::new(openings::random_dfrc_starts(rng(), k).map(Numbered::Dfrc))
        }
        (false, Some(k)) => {
            check_count(k)?;
            Box::new(openings::random_starts(rng(), k).map(Numbered::Chess960))
        }
        (false, None) => return Err(CliError::Usage("give --all or --count K".into())),
    };
    let format = match openings_format(a)? {
        OpeningsFormat::Epd => Format::Epd,
        OpeningsFormat::Pgn => Format::Pgn,
    };
    let style = notation(a.shredder);
    // `-o -` is standard output, as for most Unix tools.
    match a.output.as_deref().filter(|p| !super::is_stdout(p)) {
        Some(path) => {
            // Whole or not at all: a failure (a full disk) leaves the book
            // that was there, not half of a new one a match runner would
            // take for whole.
            output_file::write_whole(path, output_file::Access::Usual, |out| {
                openings::write(out, numbers, format, style).map_err(|e| match e {
                    OpeningsError::Io(io) => output_file::cannot_write(path, &io),
                    other => other.into(),
                })
            })?;
        }
        None => {
            let mut out = BufWriter::new(io::stdout().lock());
            openings::write(&mut out, numbers, format, style)?;
            out.flush()?;
        }
    }
    if let Some(seed) = drawn {
        eprintln!("seed {seed} drew these starts: give --seed {seed} to make the same file again");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_shows_diagram_and_both_fens() {
        let text = describe(518).unwrap();
        assert!(text.contains("8 | r n b q k b n r |\n"));
        assert!(text.contains("2 | P P P P P P P P |\n"));
        assert!(text.contains("1 | R N B Q K B N R |\n"));
        assert!(text.contains("3 | . . . . . . . . |\n"));
        assert!(text.contains("Number:       518\n"));
        assert!(text.contains("Back rank:    RNBQKBNR\n"));
        assert!(text
            .contains("X-FEN:        rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"));
        assert!(text
            .contains("Shredder-FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n"));
        assert!(describe(960).is_err());
    }
}
