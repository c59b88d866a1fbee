//! Printable HTML pages: the event pack (one page per round), the
//! projector page of one start, and the procedure cards.
//!
//! Why plain HTML with inline SVG: every computer has a browser that prints
//! it, the file needs no network, font files or scripts (the pieces are the
//! chess symbols of the fonts every desktop system has, named in
//! [`PIECE_FONTS`]), and the layout fits the printable area that A4 and US
//! Letter share (186 x 250 mm inside 12 mm margins, 255 x 186 mm turned), so
//! one round is one sheet on either paper. The event pack's `@page` size
//! names the paper the printer dialog starts with; the other pages leave the
//! paper to the printer. The pages are light only: a browser's forced dark
//! mode would turn the castling strips' labels black on black.

use std::fmt::Write as _;

use shakmaty::{CastlingSide, Color, File, Position, Role, Square};

use crate::backrank::{BackRank, DfrcStart};
use crate::event::Event;
use crate::numbering::Scheme;
use crate::procedures::svg::{diagram, escape, glyph, PIECE_FONTS};
use crate::procedures::Method;
use crate::startpos::{self, CastlingNotation, Numbered, StartError};

/// The paper an HTML page is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// The CSS `@page` size keyword.
    fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

/// Styles shared by every page. Sizes are in millimetres so that print
/// and screen agree; the sheet is the area A4 and Letter share.
const STYLE: &str = r#"
* { box-sizing: border-box; }
html { color-scheme: only light; }
html, body { margin: 0; padding: 0; background: white; color: black; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; }
.mono { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; }
.sheet { width: 186mm; height: 250mm; overflow: hidden; display: flex; flex-direction: column;
  break-after: page; page-break-after: always; }
.sheet:last-child { break-after: auto; page-break-after: auto; }
h1 { font-size: 20pt; margin: 0 0 1mm; }
.event { font-size: 12pt; line-height: 1.2; margin: 0; max-height: 2.4em; overflow: hidden;
  overflow-wrap: anywhere; }
h2 { font-size: 11pt; margin: 2mm 0 1mm; }
.numbers { font-size: 10.5pt; margin: 0 0 1mm; }
.rank { font-family: "DejaVu Sans Mono", monospace; font-weight: bold; font-size: 40pt;
  letter-spacing: 4mm; line-height: 1.1; margin: 0 0 2mm; }
.rank.two { font-size: 26pt; letter-spacing: 2mm; }
.rank small { font-size: 11pt; letter-spacing: 0; font-weight: normal; }
.row { display: flex; gap: 5mm; align-items: flex-start; }
.board svg { width: 92mm; height: auto; display: block; }
.fen { font-size: 9pt; margin: 1mm 0; overflow-wrap: anywhere; }
.castle { width: 88mm; margin: 0 0 1.5mm; font-size: 8.5pt; line-height: 1.25; }
.castle svg { width: 88mm; height: auto; display: block; }
.castle b { font-size: 9.5pt; }
.legend { font-size: 8.5pt; margin: 0 0 1mm; }
.commit { margin-top: auto; border-top: 0.3mm solid black; padding-top: 1mm; font-size: 7.5pt;
  overflow-wrap: anywhere; white-space: pre-wrap; }
.commit .nb { white-space: nowrap; }
"#;

/// A whole HTML document.
fn document(title: &str, page_css: &str, style: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"color-scheme\" content=\"only light\">\n<title>{}</title>\n<style>{STYLE}{style}\n@page {{ {page_css} }}\n</style>\n</head>\n\
         <body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// `scharnagl 518 · scharnagl-1 518 · fritz 359`: a rank's number in every scheme.
fn schemes(rank: &BackRank) -> String {
    Scheme::ALL
        .iter()
        .map(|&sc| format!("{} {}", sc.name(), rank.number_in(sc)))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn square_list(squares: &[Square]) -> String {
    if squares.is_empty() {
        return "none".into();
    }
    squares
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One castling move drawn on its rank, before (king and rook at home, the
/// squares that must be empty framed in blue, those the king must not pass
/// attacked marked with a red dot) and after.
fn castling_strip(c: &startpos::Castling) -> String {
    const SQ: f64 = 36.0;
    const LEFT: f64 = 62.0;
    const GAP: f64 = 8.0;
    let width = LEFT + 8.0 * SQ + 4.0;
    let height = 2.0 * SQ + GAP + 22.0;
    let rank = Square::rank(c.king_from);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="{PIECE_FONTS}">"#
    );
    // Its own white ground, like the board's: the labels are black.
    let _ = writeln!(
        s,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    let (fill, stroke) = match c.color {
        Color::White => ("white", "black"),
        Color::Black => ("black", "black"),
    };
    for (row, label, king, rook) in [
        (0.0, "before", c.king_from, c.rook_from),
        (1.0, "after", c.king_to, c.rook_to),
    ] {
        let y = row * (SQ + GAP);
        let _ = writeln!(
            s,
            r#"<text x="0" y="{}" font-size="13">{label}</text>"#,
            y + SQ * 0.62
        );
        for f in File::ALL {
            let x = LEFT + f64::from(u32::from(f)) * SQ;
            let sq = Square::from_coords(f, rank);
            // The strip's own greys, so that it never looks like the board.
            let dark = (u32::from(f) + u32::from(rank)) % 2 == 0;
            let shade = if dark { "#b4b4b4" } else { "#e6e6e6" };
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{shade}"/>"#
            );
            if row == 0.0 && c.empty.contains(&sq) {
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#1f5fbf" stroke-width="3"/>"##,
                    x + 2.0,
                    y + 2.0,
                    SQ - 4.0,
                    SQ - 4.0
                );
            }
            if row == 0.0 && c.unattacked.contains(&sq) {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{}" cy="{}" r="4.5" fill="#d0312d"/>"##,
                    x + SQ - 8.0,
                    y + SQ - 8.0
                );
            }
            let role = if sq == king {
                Some(Role::King)
            } else if sq == rook {
                Some(Role::Rook)
            } else {
                None
            };
            if let Some(role) = role {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" font-size="28" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="0.8">{}</text>"#,
                    x + SQ / 2.0,
                    y + SQ * 0.78,
                    glyph(role)
                );
            }
        }
    }
    for f in File::ALL {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}{}</text>"#,
            LEFT + f64::from(u32::from(f)) * SQ + SQ / 2.0,
            height - 5.0,
            f.char(),
            rank.char()
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The castling block of one move: heading, drawing, and the same in words.
fn castling_block(c: &startpos::Castling) -> String {
    let (name, rook_side) = match c.side {
        CastlingSide::KingSide => ("O-O", "h-side rook"),
        CastlingSide::QueenSide => ("O-O-O", "a-side rook"),
    };
    format!(
        "<div class=\"castle\"><b>{} {name}</b> ({rook_side}): king {} → {}, rook {} → {}\n{}\
         Must be empty: {}<br>\nMust not be attacked: {}</div>\n",
        side_name(c.color),
        c.king_from,
        c.king_to,
        c.rook_from,
        c.rook_to,
        castling_strip(c),
        square_list(&c.empty),
        square_list(&c.unattacked)
    )
}

/// The body of one start's sheet: numbers, back rank in big letters, the
/// diagram, both FENs and the four castling moves.
fn start_body(start: Numbered) -> Result<String, StartError> {
    let pos = start.position()?;
    let mut s = String::new();
    match start {
        Numbered::Chess960(n) => {
            let rank = BackRank::from_scharnagl(n).ok_or(StartError::OutOfRange(n.to_string()))?;
            let _ = writeln!(
                s,
                "<p class=\"numbers\">Chess960 start {n} — {}</p>\n<p class=\"rank\">{rank}</p>",
                schemes(&rank)
            );
        }
        Numbered::Dfrc(n) => {
            let d = DfrcStart::from_index(n).ok_or(StartError::DfrcOutOfRange(n.to_string()))?;
            let _ = writeln!(
                s,
                "<p class=\"numbers\">Double Fischer Random start {n} = {} + 960 × {}<br>\
                 White: {}<br>Black: {}</p>\n<p class=\"rank two\"><small>White</small> {}<br>\
                 <small>Black</small> {}</p>",
                d.white.scharnagl(),
                d.black.scharnagl(),
                schemes(&d.white),
                schemes(&d.black),
                d.white,
                d.black
            );
        }
    }
    let castling = startpos::castling(&pos);
    let of = |color| castling.iter().filter(move |c| c.color == color);
    let _ = writeln!(
        s,
        "<div class=\"row\"><div class=\"board\">{}</div><div>\
         <p class=\"legend\">Castling: blue frame = must be empty, red dot = must not be attacked.</p>",
        diagram(pos.board(), "")
    );
    for c in of(Color::White) {
        s.push_str(&castling_block(c));
    }
    s.push_str("</div></div>\n");
    let _ = writeln!(
        s,
        "<p class=\"fen mono\">X-FEN: {}<br>Shredder-FEN: {}</p>",
        start.fen(CastlingNotation::XFen)?,
        start.fen(CastlingNotation::Shredder)?
    );
    s.push_str("<div class=\"row\">");
    for c in of(Color::Black) {
        s.push_str(&castling_block(c));
    }
    s.push_str("</div>\n");
    Ok(s)
}

/// The longest word (in characters) of a command kept from breaking
/// across lines: a longer one (a public part with no space) may break
/// where it must.
const UNBROKEN_MAX: usize = 40;

/// `text`, escaped, in a span that is never broken across lines: a
/// browser breaks after a hyphen, and a command printed as `--` at a line's
/// end and `round 1` at the next's start is typed wrong from paper.
fn unbroken(text: &str) -> String {
    format!("<span class=\"nb\">{}</span>", escape(text))
}

/// The event pack: one sheet per round of `starts` (round number and
/// start: every round, or the one an organiser prints before it is
/// played), each with the commitment, the public part where the event has
/// one, and the command that checks the round once the secret is out.
///
/// # Errors
/// None in practice: every derived start is valid; the type is shared
/// with the other start pages.
pub fn event_pack(
    event: &Event,
    starts: &[(u32, Numbered)],
    paper: Paper,
) -> Result<String, StartError> {
    let commitment = event.commitment();
    let (public_said, public_option) = match &event.public {
        crate::event::Public::Given(p) => (
            format!("; public part: {}", escape(p)),
            format!(
                " {} {}",
                unbroken("--public"),
                shlex::try_quote(p)
                    .map_or_else(|_| p.clone(), |q| q.into_owned())
                    .split(' ')
                    .map(|word| if word.is_empty() {
                        String::new()
                    } else if word.chars().count() > UNBROKEN_MAX {
                        escape(word)
                    } else {
                        unbroken(word)
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        ),
        _ => (String::new(), String::new()),
    };
    let title = if event.name.is_empty() {
        match event.kind {
            crate::event::Kind::Chess960 => "Chess960 event".to_string(),
            crate::event::Kind::Dfrc => "Double Fischer Random event".to_string(),
        }
    } else {
        event.name.clone()
    };
    let dfrc = if event.kind == crate::event::Kind::Dfrc {
        format!(" {}", unbroken("--dfrc"))
    } else {
        String::new()
    };
    let mut body = String::new();
    for &(round, start) in starts {
        let _ = writeln!(
            body,
            "<section class=\"sheet\">\n<p class=\"event\">{}</p>\n<h1>Round {round} of {}</h1>",
            escape(&title),
            event.rounds
        );
        body.push_str(&start_body(start)?);
        let _ = writeln!(
            body,
            "<p class=\"commit mono\">Commitment (SHA-256 of the secret): {commitment}{public_said}<br>\
             After the event, check this round: {}{dfrc} {}{public_option} {} {} {}</p>\n</section>",
            unbroken("chess960 event verify"),
            unbroken(&format!("--commitment {commitment}")),
            unbroken("--secret SECRET"),
            unbroken(&format!("--round {round}")),
            unbroken(&format!("--start {}", start.number())),
        );
    }
    Ok(document(
        &match (starts, event.rounds) {
            (_, 1) => format!("{title}: the start of its round"),
            ([(round, _)], _) => format!("{title}: the start of round {round}"),
            (_, n) => format!("{title}: the starts of {n} rounds"),
        },
        &format!("size: {}; margin: 12mm;", paper.css()),
        "",
        &body,
    ))
}

/// Styles of the projector page: the board as high as the screen allows
/// with the names beside it (sized by the screen's width too, so that a 4:3
/// projector shows the whole back rank), below it on a screen higher than
/// wide; printed, one landscape sheet of the area A4 and Letter share.
const PROJECTOR_STYLE: &str = r#"
.projector { display: flex; gap: 3vw; align-items: center; width: 100vw; height: 100vh; padding: 3vh 3vw; }
.projector .board svg { height: min(92vh, 56vw); width: auto; }
.projector .names { flex: 1; min-width: 0; }
.projector h1 { font-size: min(6vh, 3.4vw); }
.projector .numbers { font-size: min(2.6vh, 1.5vw); }
.projector .rank { font-size: min(9vh, 4.4vw); letter-spacing: min(1.2vh, 0.6vw); }
.projector .rank.two { font-size: min(6vh, 3vw); }
.projector .rank small { font-size: min(2.6vh, 1.5vw); }
.projector .fen { font-size: min(2vh, 1.2vw); }
@media screen and (max-aspect-ratio: 1/1) {
  .projector { flex-direction: column; justify-content: center; gap: 2vh; }
  .projector .board svg { height: auto; width: min(94vw, 62vh); }
  .projector .names { flex: none; width: 94vw; }
  .projector h1 { font-size: 5vw; }
  .projector .numbers { font-size: 2.4vw; }
  .projector .rank { font-size: 7vw; letter-spacing: 1vw; }
  .projector .rank.two { font-size: 5vw; }
  .projector .rank small { font-size: 2.4vw; }
  .projector .fen { font-size: 1.9vw; }
}
@media print {
  .projector { width: 255mm; height: 180mm; padding: 0; gap: 8mm; }
  .projector .board svg { height: 160mm; }
  .projector h1 { font-size: 22pt; }
  .projector .numbers { font-size: 10pt; }
  .projector .rank { font-size: 32pt; letter-spacing: 2mm; }
  .projector .rank.two { font-size: 22pt; }
  .projector .rank small { font-size: 10pt; }
  .projector .fen { font-size: 7.5pt; }
}
"#;

/// One start for a projector (or one landscape sheet): the diagram as high
/// as the screen, the number, the back rank in big letters and both FENs.
///
/// # Errors
/// [`StartError`] for a number out of range.
pub fn start_page(start: Numbered) -> Result<String, StartError> {
    let pos = start.position()?;
    let (title, names) = match start {
        Numbered::Chess960(n) => {
            let rank = BackRank::from_scharnagl(n).ok_or(StartError::OutOfRange(n.to_string()))?;
            (
                format!("Chess960 start {n}"),
                format!(
                    "<p class=\"rank\">{rank}</p>\n<p class=\"numbers\">{}</p>",
                    schemes(&rank)
                ),
            )
        }
        Numbered::Dfrc(n) => {
            let d = DfrcStart::from_index(n).ok_or(StartError::DfrcOutOfRange(n.to_string()))?;
            (
                format!("Double Fischer Random start {n}"),
                format!(
                    "<p class=\"rank two\"><small>White</small> {}<br><small>Black</small> {}</p>\n\
                     <p class=\"numbers\">{n} = {} + 960 × {}<br>White: {}<br>Black: {}</p>",
                    d.white,
                    d.black,
                    d.white.scharnagl(),
                    d.black.scharnagl(),
                    schemes(&d.white),
                    schemes(&d.black)
                ),
            )
        }
    };
    let body = format!(
        "<section class=\"projector\"><div class=\"board\">{}</div><div class=\"names\">\n<h1>{title}</h1>\n{names}\n\
         <p class=\"fen mono\">X-FEN: {}<br>Shredder-FEN: {}</p></div></section>\n",
        diagram(pos.board(), ""),
        start.fen(CastlingNotation::XFen)?,
        start.fen(CastlingNotation::Shredder)?
    );
    Ok(document(
        &title,
        "size: landscape; margin: 12mm;",
        PROJECTOR_STYLE,
        &body,
    ))
}

/// Styles of a procedure card: the card's text as written, tables aligned.
const CARD_STYLE: &str = r#"
.card { width: 186mm; }
.card h1 { font-size: 15pt; }
.card pre { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 10pt;
  line-height: 1.35; white-space: pre-wrap; margin: 4mm 0 0; }
"#;

/// The `roll METHOD --explain` card as a page to print: its first line as
/// the heading, the steps and tables in a fixed-width font.
pub fn card_page(method: Method) -> String {
    let text = method.explain();
    let (head, rest) = text.split_once('\n').unwrap_or((text, ""));
    let body = format!(
        "<section class=\"card\"><h1>{}</h1>\n<pre>{}</pre></section>\n",
        escape(head.trim()),
        escape(rest.trim_end())
    );
    document(
        &format!("Chess960 procedure card: {}", method.name()),
        "size: portrait; margin: 12mm;",
        CARD_STYLE,
        &body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_has_one_sheet_per_round_and_the_commitment_on_each() {
        let e = Event::new(
            "Club <rapid>",
            crate::event::Kind::Chess960,
            3,
            "correct horse battery staple".into(),
        )
        .expect("valid");
        let starts: Vec<(u32, Numbered)> = (1..)
            .zip(e.all_rounds().expect("no public part awaited"))
            .collect();
        let html = event_pack(&e, &starts, Paper::Letter).expect("pack");
        assert_eq!(html.matches("<section class=\"sheet\">").count(), 3);
        assert_eq!(html.matches(&e.commitment()).count(), 6);
        assert!(html.contains("size: letter;"));
        assert!(html.contains("<p class=\"event\">Club &lt;rapid&gt;</p>\n<h1>Round 3 of 3</h1>"));
        // Nothing is fetched: no links, scripts, images or fonts by address.
        for outside in ["<link", "<script", "src=", "url(", "@import"] {
            assert!(!html.contains(outside), "{outside}");
        }
    }
}
