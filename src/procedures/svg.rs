//! Hand-written SVG: the probability chart of `analyze --plot` and a
//! printable board diagram.
//!
//! Why by hand rather than a plotting crate: the chart is 960 bars, two axes
//! and a reference line, and the diagram is 64 squares and 32 glyphs. Writing
//! the elements directly is about as long as configuring a plotting library,
//! adds no dependency tree to the build, and gives byte-for-byte
//! deterministic output that tests can check.

use std::fmt::Write as _;

use shakmaty::{Board, Color, File, Rank, Role, Square};

use super::analysis::{frac_short, to_f64, Spread, Summary};
use crate::numbering::{BackRank, Scheme};

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The 960 probabilities as a bar chart, Scharnagl number on the x axis, with
/// a dashed line at the uniform 1/960.
pub fn chart(summary: &Summary) -> String {
    const LEFT: f64 = 80.0;
    const TOP: f64 = 50.0;
    const PLOT_W: f64 = 960.0;
    const PLOT_H: f64 = 300.0;
    let width = LEFT + PLOT_W + 30.0;
    let height = TOP + PLOT_H + 70.0;
    let uniform = 1.0 / 960.0;
    let ymax = to_f64(&summary.max).max(uniform) * 1.1;
    let y = |p: f64| TOP + PLOT_H - p / ymax * PLOT_H;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    let title = format!(
        "{}: probability of each start position ({}; max/min = {})",
        summary.method.name(),
        match summary.spread() {
            Spread::Chosen => "players choose: reference only",
            Spread::Uniform => "uniform",
            Spread::Uneven => "not uniform",
        },
        summary
            .ratio
            .as_ref()
            .map_or("infinite".to_string(), frac_short)
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="25" text-anchor="middle" font-size="15">{}</text>"#,
        LEFT + PLOT_W / 2.0,
        escape(&title)
    );
    // Bars, merging runs of equal probability into one rectangle.
    let probs: Vec<f64> = summary.probabilities.iter().map(to_f64).collect();
    let mut i = 0;
    while i < probs.len() {
        let mut j = i + 1;
        while j < probs.len() && summary.probabilities[j] == summary.probabilities[i] {
            j += 1;
        }
        let top = y(probs[i]);
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{:.2}" width="{}" height="{:.2}" fill="#4a78b0"/>"##,
            LEFT + i as f64,
            top,
            j - i,
            TOP + PLOT_H - top
        );
        i = j;
    }
    // Axes and ticks.
    let _ = writeln!(
        s,
        r#"<path d="M{LEFT} {TOP} V{} H{}" fill="none" stroke="black"/>"#,
        TOP + PLOT_H,
        LEFT + PLOT_W
    );
    for n in (0..=960).step_by(120) {
        let x = LEFT + n as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="black"/><text x="{x}" y="{}" text-anchor="middle">{n}</text>"#,
            TOP + PLOT_H,
            TOP + PLOT_H + 5.0,
            TOP + PLOT_H + 20.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">start position (Scharnagl number)</text>"#,
        LEFT + PLOT_W / 2.0,
        TOP + PLOT_H + 45.0
    );
    for k in 0..=4 {
        let p = ymax * f64::from(k) / 4.0;
        let yy = y(p);
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{yy:.2}" x2="{LEFT}" y2="{yy:.2}" stroke="black"/><text x="{}" y="{:.2}" text-anchor="end">{:.5}</text>"#,
            LEFT - 5.0,
            LEFT - 8.0,
            yy + 4.0,
            p
        );
    }
    let yu = y(uniform);
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{yu:.2}" x2="{}" y2="{yu:.2}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6 4"/>"##,
        LEFT + PLOT_W
    );
    // Legend above the plot, right-aligned, clear of the bars.
    let lx = LEFT + PLOT_W - 150.0;
    let _ = writeln!(
        s,
        r##"<line x1="{lx}" y1="40" x2="{}" y2="40" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6 4"/><text x="{}" y="44" fill="#c0392b">uniform 1/960</text>"##,
        lx + 30.0,
        lx + 36.0
    );
    s.push_str("</svg>\n");
    s
}

/// Fonts that carry the chess symbols, named so that a browser takes one of
/// them rather than whatever its fallback finds (or nothing): DejaVu Sans on
/// Linux, Segoe UI Symbol on Windows, Apple Symbols on macOS, Noto's symbol
/// set where it is installed.
pub const PIECE_FONTS: &str =
    "'DejaVu Sans', 'Segoe UI Symbol', 'Apple Symbols', 'Noto Sans Symbols 2', 'Arial Unicode MS', sans-serif";

/// The chess glyph of a role (the filled set; the diagram colours it).
pub fn glyph(role: Role) -> char {
    match role {
        Role::King => '\u{265A}',
        Role::Queen => '\u{265B}',
        Role::Rook => '\u{265C}',
        Role::Bishop => '\u{265D}',
        Role::Knight => '\u{265E}',
        Role::Pawn => '\u{265F}',
    }
}

/// A printable diagram of a start position: the board from White's side,
/// pieces as chess glyphs, coordinates, and a caption with the back rank and
/// its number in every scheme.
pub fn board(rank: &BackRank) -> String {
    let numbers: Vec<String> = Scheme::ALL
        .iter()
        .map(|&sc| format!("{} {}", sc.name(), rank.number_in(sc)))
        .collect();
    diagram(&rank.board(), &format!("{} — {}", rank, numbers.join(", ")))
}

/// A printable diagram of any board (a Double Fischer Random start too),
/// White at the bottom, with `caption` above it (none when empty; one line
/// of text for each line of the caption, since SVG text does not wrap and a
/// line wider than the board is cut at both ends).
pub fn diagram(b: &Board, caption: &str) -> String {
    const SQ: f64 = 60.0;
    const LEFT: f64 = 30.0;
    const CAPTION_LINE: f64 = 22.0;
    let lines: Vec<&str> = caption.lines().collect();
    let top: f64 = if lines.is_empty() {
        10.0
    } else {
        28.0 + CAPTION_LINE * lines.len() as f64
    };
    let size = 8.0 * SQ;
    let width = LEFT + size + 20.0;
    let height = top + size + 40.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{PIECE_FONTS}">"#
    );
    let _ = writeln!(
        s,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="16">{}</text>"#,
            LEFT + size / 2.0,
            30.0 + CAPTION_LINE * i as f64,
            escape(line)
        );
    }
    for row in 0..8u32 {
        for col in 0..8u32 {
            let x = LEFT + f64::from(col) * SQ;
            let y = top + f64::from(row) * SQ;
            // Row 0 is rank 8; a1 (col 0, row 7) is dark.
            let dark = (col + row) % 2 == 1;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#
            );
            let sq = Square::from_coords(File::new(col), Rank::new(7 - row));
            if let Some(piece) = b.piece_at(sq) {
                let (fill, stroke) = match piece.color {
                    Color::White => ("white", "black"),
                    Color::Black => ("black", "black"),
                };
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" font-size="48" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="1.2">{}</text>"#,
                    x + SQ / 2.0,
                    y + SQ * 0.8,
                    glyph(piece.role)
                );
            }
        }
    }
    for i in 0..8u32 {
        let file = (b'a' + i as u8) as char;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="14" text-anchor="middle">{file}</text>"#,
            LEFT + f64::from(i) * SQ + SQ / 2.0,
            top + size + 20.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="14" text-anchor="middle">{}</text>"#,
            LEFT / 2.0,
            top + f64::from(i) * SQ + SQ / 2.0 + 5.0,
            8 - i
        );
    }
    s.push_str("</svg>\n");
    s
}
