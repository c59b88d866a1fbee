//! The printable pages seen as people see them: Chromium (headless) prints
//! them to PDF and takes screenshots, poppler reads the PDF back
//! (`pdfinfo`, `pdftotext`, `pdftoppm`), and the checks are what a reader
//! would check: how many pages, on which paper, what each page says, and
//! which piece stands on each of the diagram's 64 squares.
//!
//! The expected starts come from outside the program: the rounds of
//! docs/event.md's worked example (recomputed by Python's hashlib in
//! tests/event.rs) and the FENs of perft/chess960_startpos.tsv.
//!
//! Skipped with a notice when Chromium or poppler-utils is missing, unless
//! CHESS960_REQUIRE_CHROMIUM is set (CI sets it).

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const SECRET: &str = "example-secret-for-the-docs-2026";
const COMMITMENT: &str = "0e63e106a2b5e032260d8ae8b799b4d3917a747c83dce93c0c95230f67b0f163";
/// Rounds 1 to 3 of the worked example, as Chess960 and as DFRC starts.
const CHESS960_ROUNDS: [u32; 3] = [630, 632, 519];
const DFRC_ROUNDS: [u32; 2] = [479_670, 501_752];

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn poppler() -> bool {
    ["pdftotext", "pdftoppm", "pdfinfo"].iter().all(|t| {
        Command::new(t)
            .arg("-v")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The browser, when it and poppler are installed.
fn tools() -> Option<&'static str> {
    let browser = chromium();
    let present = browser.is_some() && poppler();
    support::tool_present(
        present,
        "chromium and poppler-utils",
        "CHESS960_REQUIRE_CHROMIUM",
        "apt-get install chromium poppler-utils",
    )
    .then_some(browser)
    .flatten()
}

/// Run headless Chromium on `html` with `action` (`--print-to-pdf=...` or
/// `--screenshot=...`), isolated: a fresh profile, no network services.
fn browser(chromium: &str, html: &Path, action: &[String]) {
    let profile = html.with_extension("profile");
    support::output_ok(
        Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--no-pdf-header-footer",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(action)
            .arg(format!("file://{}", html.display())),
        "chromium",
    );
    let _ = std::fs::remove_dir_all(profile);
}

fn print_pdf(chromium: &str, html: &Path) -> PathBuf {
    let pdf = html.with_extension("pdf");
    browser(
        chromium,
        html,
        &[format!("--print-to-pdf={}", pdf.display())],
    );
    assert!(pdf.exists(), "no PDF from {}", html.display());
    pdf
}

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name).args(args).output().expect(name);
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// (pages, width, height in points) of a PDF.
fn pdf_pages(pdf: &Path) -> (usize, f64, f64) {
    let info = tool("pdfinfo", &[pdf.to_str().expect("path")]);
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .unwrap_or_else(|| panic!("pdfinfo without {name}: {info}"))
            .to_string()
    };
    let pages = field("Pages:").parse().expect("page count");
    let size = field("Page size:");
    let w: Vec<f64> = size
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    (pages, w[0], w[1])
}

/// The text of page `page`, one trimmed line per entry, in reading order
/// (columns apart).
fn page_lines(pdf: &Path, page: usize) -> Vec<String> {
    page_text(pdf, page, &[])
}

/// The text of page `page` with `pdftotext` options (`-layout` keeps a
/// table's rows together).
fn page_text(pdf: &Path, page: usize, options: &[&str]) -> Vec<String> {
    let p = page.to_string();
    let mut args = options.to_vec();
    args.extend(["-f", &p, "-l", &p, pdf.to_str().expect("path"), "-"]);
    tool("pdftotext", &args)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// An RGB image.
struct Image {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

fn read_png(path: &Path) -> Image {
    let file = std::fs::File::open(path).expect("open PNG");
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| match channels {
            1 | 2 => [p[0], p[0], p[0]],
            _ => [p[0], p[1], p[2]],
        })
        .collect();
    Image {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

/// A square's content as the eye sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Empty,
    White,
    Black,
}

/// The board in an image: the box of the diagram's two square colours
/// (light #f0d9b5, dark #b58863; nothing else on the pages uses them),
/// then each square read as empty, a white piece (white fill) or a black
/// piece (black fill). Returns the box (x, y, square size) and the squares,
/// a8 first, row by row.
fn read_board(img: &Image) -> ((f64, f64, f64), Vec<Seen>) {
    let near = |p: [u8; 3], q: [u8; 3]| p.iter().zip(q).all(|(a, b)| a.abs_diff(b) <= 6);
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..img.height {
        for x in 0..img.width {
            let p = img.rgb[y * img.width + x];
            if near(p, [0xf0, 0xd9, 0xb5]) || near(p, [0xb5, 0x88, 0x63]) {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
        }
    }
    assert!(x1 > x0 && y1 > y0, "no board in the image");
    let (w, h) = ((x1 - x0 + 1) as f64, (y1 - y0 + 1) as f64);
    assert!(
        (w - h).abs() <= w * 0.02,
        "the board is not square: {w} x {h}"
    );
    let sq = w / 8.0;
    assert!(sq >= 16.0, "squares of {sq} pixels are too small to read");
    let mut seen = Vec::new();
    for row in 0..8 {
        for col in 0..8 {
            let (mut white, mut black, mut all) = (0u32, 0u32, 0u32);
            // The middle of the square, clear of its neighbours.
            let (cx, cy) = (
                x0 as f64 + (col as f64 + 0.5) * sq,
                y0 as f64 + (row as f64 + 0.5) * sq,
            );
            let r = sq * 0.4;
            for y in (cy - r) as usize..(cy + r) as usize {
                for x in (cx - r) as usize..(cx + r) as usize {
                    let p = img.rgb[y * img.width + x];
                    all += 1;
                    if p.iter().all(|&c| c >= 235) {
                        white += 1;
                    } else if p.iter().all(|&c| c <= 70) {
                        black += 1;
                    }
                }
            }
            let (wf, bf) = (
                f64::from(white) / f64::from(all),
                f64::from(black) / f64::from(all),
            );
            let s = if wf > 0.04 {
                Seen::White
            } else if bf > 0.08 {
                Seen::Black
            } else if wf < 0.005 && bf < 0.005 {
                Seen::Empty
            } else {
                panic!("square {row},{col} unreadable: {wf:.3} white, {bf:.3} black");
            };
            seen.push(s);
        }
    }
    ((x0 as f64, y0 as f64, sq), seen)
}

/// The 64 squares of a FEN's board field, a8 first: (seen colour, role letter).
fn fen_squares(fen: &str) -> Vec<(Seen, Option<char>)> {
    let mut out = Vec::new();
    for c in fen.split(' ').next().expect("board").chars() {
        match c {
            '/' => {}
            '1'..='8' => {
                for _ in 0..c.to_digit(10).expect("digit") {
                    out.push((Seen::Empty, None));
                }
            }
            _ if c.is_ascii_uppercase() => out.push((Seen::White, Some(c))),
            _ => out.push((Seen::Black, Some(c.to_ascii_uppercase()))),
        }
    }
    assert_eq!(out.len(), 64, "{fen}");
    out
}

/// The role letter of a chess glyph as `pdftotext` reads it back.
fn role_of_glyph(g: &str) -> Option<char> {
    Some(match g {
        "\u{265A}" | "\u{2654}" => 'K',
        "\u{265B}" | "\u{2655}" => 'Q',
        "\u{265C}" | "\u{2656}" => 'R',
        "\u{265D}" | "\u{2657}" => 'B',
        "\u{265E}" | "\u{2658}" => 'N',
        "\u{265F}" | "\u{2659}" => 'P',
        _ => return None,
    })
}

/// Check the diagram of page `page` against `fen`: colours from the
/// rendered pixels (pdftoppm at 144 dpi), roles from the glyphs' places in
/// the PDF's text layer.
fn check_diagram(pdf: &Path, page: usize, fen: &str) {
    let p = page.to_string();
    let stem = pdf.with_extension(format!("p{page}"));
    tool(
        "pdftoppm",
        &[
            "-r",
            "144",
            "-f",
            &p,
            "-l",
            &p,
            "-singlefile",
            "-png",
            pdf.to_str().expect("path"),
            stem.to_str().expect("path"),
        ],
    );
    let img = read_png(&stem.with_extension(format!("p{page}.png")));
    let ((x0, y0, sq), seen) = read_board(&img);
    let want = fen_squares(fen);
    let names = |i: usize| format!("{}{}", (b'a' + (i % 8) as u8) as char, 8 - i / 8);
    for (i, (s, (w, _))) in seen.iter().zip(&want).enumerate() {
        assert_eq!(
            s,
            w,
            "page {page}: square {} looks {s:?}, the FEN has {w:?} ({fen})",
            names(i)
        );
    }
    // Glyph boxes in points; 144 dpi is two pixels a point.
    let bbox = tool(
        "pdftotext",
        &[
            "-bbox",
            "-f",
            &p,
            "-l",
            &p,
            pdf.to_str().expect("path"),
            "-",
        ],
    );
    let mut roles: BTreeMap<usize, BTreeSet<char>> = BTreeMap::new();
    for line in bbox
        .lines()
        .filter(|l| l.trim_start().starts_with("<word "))
    {
        let attr = |name: &str| -> f64 {
            let at = line.find(&format!("{name}=\"")).expect("attribute") + name.len() + 2;
            line[at..at + line[at..].find('"').expect("quote")]
                .parse()
                .expect("number")
        };
        let text =
            line[line.find('>').expect(">") + 1..line.rfind("</word>").expect("</word>")].trim();
        let Some(role) = role_of_glyph(text) else {
            continue;
        };
        let cx = (attr("xMin") + attr("xMax")) / 2.0 * 2.0;
        let cy = (attr("yMin") + attr("yMax")) / 2.0 * 2.0;
        let (col, row) = ((cx - x0) / sq, (cy - y0) / sq);
        if (0.0..8.0).contains(&col) && (0.0..8.0).contains(&row) {
            roles
                .entry(row as usize * 8 + col as usize)
                .or_default()
                .insert(role);
        }
    }
    for (i, (_, role)) in want.iter().enumerate() {
        let got: Vec<char> = roles
            .get(&i)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default();
        assert_eq!(
            got,
            role.iter().copied().collect::<Vec<_>>(),
            "page {page}: square {} ({fen})",
            names(i)
        );
    }
}

/// The FEN of Chess960 start `n` from the reference table.
fn table_fen(n: u32) -> String {
    support::startpos_table()
        .into_iter()
        .find(|(k, _, _)| *k == n)
        .map(|(_, fen, _)| fen)
        .expect("start in the table")
}

/// The board field of DFRC start `n`: White's rank of `n mod 960`, Black's
/// of `n div 960`, from the reference table.
fn dfrc_board(n: u32) -> String {
    let white = table_fen(n % 960);
    let black = table_fen(n / 960);
    let rank = |fen: &str, i: usize| fen.split(['/', ' ']).nth(i).expect("rank").to_string();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{}",
        rank(&black, 0),
        rank(&white, 7)
    )
}

/// The castling lines a page must print for a board field, worked out from
/// the rules alone: the king goes to the g- or c-file, the rook to the f- or
/// d-file; every square either crosses must be empty but the two's own; the
/// king's squares from start to end must not be attacked.
fn castling_lines(board: &str) -> Vec<String> {
    let ranks: Vec<&str> = board.split('/').collect();
    let mut lines = Vec::new();
    for (side, letters, digit) in [("White", ranks[7], '1'), ("Black", ranks[0], '8')] {
        let files: Vec<char> = letters.to_ascii_uppercase().chars().collect();
        let k = files.iter().position(|&c| c == 'K').expect("king");
        let rooks: Vec<usize> = (0..8).filter(|&i| files[i] == 'R').collect();
        let sq = |f: usize| format!("{}{digit}", (b'a' + f as u8) as char);
        let span = |a: usize, b: usize| a.min(b)..=a.max(b);
        for (name, rook_side, r, kto, rto) in [
            ("O-O", "h-side", rooks[1], 6, 5),
            ("O-O-O", "a-side", rooks[0], 2, 3),
        ] {
            lines.push(format!(
                "{side} {name} ({rook_side} rook): king {} → {}, rook {} → {}",
                sq(k),
                sq(kto),
                sq(r),
                sq(rto)
            ));
            let empty: BTreeSet<usize> = span(k, kto)
                .chain(span(r, rto))
                .filter(|&f| f != k && f != r)
                .collect();
            let list = |s: &BTreeSet<usize>| {
                if s.is_empty() {
                    "none".to_string()
                } else {
                    s.iter().map(|&f| sq(f)).collect::<Vec<_>>().join(", ")
                }
            };
            lines.push(format!("Must be empty: {}", list(&empty)));
            lines.push(format!(
                "Must not be attacked: {}",
                list(&span(k, kto).collect())
            ));
        }
    }
    lines
}

fn assert_has(lines: &[String], want: &str, what: &str) {
    assert!(
        lines.iter().any(|l| l == want),
        "{what}: no line {want:?} in {lines:#?}"
    );
}

/// A pack of `rounds` printed on both papers: one page per round, each
/// page with its round, start, FENs, castling, commitment and diagram.
fn check_pack(chromium: &str, dfrc: bool, starts: &[u32]) {
    let tag = if dfrc { "dfrc" } else { "chess960" };
    let dir = support::temp_dir(&format!("pages-{tag}"));
    let event = dir.join("event.json");
    let e = event.to_str().expect("path");
    // The docs' example secret, whose starts are printed there: `event new`
    // refuses it, so the file is written as `event new` writes it.
    let kind = if dfrc {
        chess960::event::Kind::Dfrc
    } else {
        chess960::event::Kind::Chess960
    };
    let rounds = u32::try_from(starts.len()).expect("rounds");
    let file = chess960::event::Event::new("Club rapid", kind, rounds, SECRET.to_owned())
        .expect("the example event");
    std::fs::write(&event, file.to_file()).expect("event file");
    for (paper, (w, h)) in [("a4", (595.0, 842.0)), ("letter", (612.0, 792.0))] {
        let html = dir.join(format!("pack-{paper}.html"));
        support::stdout(&[
            "event",
            "pack",
            e,
            "--paper",
            paper,
            "-o",
            html.to_str().expect("path"),
        ]);
        let pdf = print_pdf(chromium, &html);
        let (pages, pw, ph) = pdf_pages(&pdf);
        assert_eq!(pages, starts.len(), "{paper}: one page per round");
        assert!(
            (pw - w).abs() < 2.0 && (ph - h).abs() < 2.0,
            "{paper}: page {pw} x {ph}"
        );
        for (i, &n) in starts.iter().enumerate() {
            let page = i + 1;
            let lines = page_lines(&pdf, page);
            let what = format!("{paper} page {page}");
            assert_has(&lines, "Club rapid", &what);
            assert_has(&lines, &format!("Round {page} of {}", starts.len()), &what);
            let board = if dfrc {
                assert!(
                    lines.iter().any(|l| l.starts_with(&format!(
                        "Double Fischer Random start {n} = {} + 960 × {}",
                        n % 960,
                        n / 960
                    ))),
                    "{what}: {lines:#?}"
                );
                dfrc_board(n)
            } else {
                let fen = table_fen(n);
                assert!(
                    lines.iter().any(|l| l.starts_with(&format!(
                        "Chess960 start {n} — scharnagl {n} · scharnagl-1 "
                    ))),
                    "{what}: {lines:#?}"
                );
                let rank1 = fen.split(['/', ' ']).nth(7).expect("rank 1").to_string();
                assert_has(&lines, &rank1, &what);
                fen.split(' ').next().expect("board").to_string()
            };
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("X-FEN: {board} w "))),
                "{what}: X-FEN of {board}"
            );
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("Shredder-FEN: {board} w "))),
                "{what}: Shredder-FEN of {board}"
            );
            for want in castling_lines(&board) {
                assert_has(&lines, &want, &what);
            }
            assert_has(
                &lines,
                &format!("Commitment (SHA-256 of the secret): {COMMITMENT}"),
                &what,
            );
            let text = lines.join(" ");
            assert!(
                text.contains(&format!("--round {page} --start {n}")),
                "{what}: the check command"
            );
            check_diagram(&pdf, page, &board);
        }
        // The check can fail: the first page against another start's FEN,
        // and against its own with the colours swapped.
        let own = if dfrc {
            dfrc_board(starts[0])
        } else {
            table_fen(starts[0])
        };
        let swapped: String = own
            .split(' ')
            .next()
            .expect("board")
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        for wrong in [table_fen(518), swapped] {
            let caught = std::panic::catch_unwind(|| check_diagram(&pdf, 1, &wrong));
            assert!(caught.is_err(), "{paper}: page 1 passed as {wrong}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The command at a sheet's foot is typed from paper: with a public part
/// (the docs' ten dice, and the longest `event public` records) it stays
/// on the sheet, and no line of it ends inside an option (a browser breaks
/// after a hyphen: `--` at one line's end, `round 1` at the next's).
#[test]
fn the_pack_s_check_command_fits_and_never_breaks_inside_an_option() {
    let Some(chromium) = tools() else {
        return;
    };
    let dir = support::temp_dir("pages-public");
    let longest = vec!["6"; 100].join(" ");
    assert_eq!(longest.len(), chess960::event::MAX_PUBLIC_CHARS - 1);
    for (i, public) in ["4 2 6 6 1 3 5 2 2 4", longest.as_str()]
        .into_iter()
        .enumerate()
    {
        let mut file = chess960::event::Event::new(
            "Club rapid",
            chess960::event::Kind::Chess960,
            1,
            SECRET.to_owned(),
        )
        .expect("the example event")
        .with_public_part();
        file.record_public(public).expect("public part");
        let start = file.draw(1).expect("round 1").number();
        let event = dir.join(format!("event-{i}.json"));
        std::fs::write(&event, file.to_file()).expect("event file");
        for paper in ["a4", "letter"] {
            let html = dir.join(format!("pack-{i}-{paper}.html"));
            support::stdout(&[
                "event",
                "pack",
                event.to_str().expect("path"),
                "--paper",
                paper,
                "-o",
                html.to_str().expect("path"),
            ]);
            let pdf = print_pdf(chromium, &html);
            assert_eq!(pdf_pages(&pdf).0, 1, "{paper}, public part {i}");
            let lines = page_lines(&pdf, 1);
            let at = lines
                .iter()
                .position(|l| l.contains("check this round"))
                .unwrap_or_else(|| panic!("{paper}, public part {i}: {lines:#?}"));
            let command = &lines[at..];
            assert!(
                command
                    .join(" ")
                    .contains(&format!("--round 1 --start {start}")),
                "{paper}, public part {i}: {command:#?}"
            );
            for l in command {
                assert!(!l.ends_with('-'), "{paper}, public part {i}: {command:#?}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_chess960_pack_prints_one_page_per_round_on_a4_and_letter() {
    if let Some(c) = tools() {
        check_pack(c, false, &CHESS960_ROUNDS);
    }
}

#[test]
fn the_dfrc_pack_shows_each_sides_own_rank() {
    if let Some(c) = tools() {
        check_pack(c, true, &DFRC_ROUNDS);
    }
}

/// The projector page: the screenshot at a projector's resolution shows the
/// start's squares, and printed it is one landscape page with its names.
#[test]
fn the_projector_page_shows_the_start_on_screen_and_on_one_sheet() {
    let Some(c) = tools() else {
        return;
    };
    let dir = support::temp_dir("pages-show");
    for (args, fen) in [
        (vec!["show", "959"], table_fen(959)),
        (vec!["show", "--dfrc", "479670"], dfrc_board(479_670)),
    ] {
        let html = dir.join("start.html");
        let mut a = args.clone();
        let h = html.to_str().expect("path").to_string();
        a.extend(["--html", &h]);
        support::stdout(&a);
        let png = dir.join("start.png");
        browser(
            c,
            &html,
            &[
                format!("--screenshot={}", png.display()),
                "--window-size=1600,900".into(),
            ],
        );
        let img = read_png(&png);
        assert_eq!((img.width, img.height), (1600, 900));
        let ((_, y0, sq), seen) = read_board(&img);
        assert!(
            sq * 8.0 > 700.0 && y0 < 60.0,
            "the board fills the screen's height: {sq}, top {y0}"
        );
        let want: Vec<Seen> = fen_squares(&fen).into_iter().map(|(s, _)| s).collect();
        assert_eq!(seen, want, "{args:?} on screen");
        let pdf = print_pdf(c, &html);
        let (pages, w, h) = pdf_pages(&pdf);
        assert_eq!(pages, 1, "{args:?}");
        assert!(w > h, "{args:?}: landscape, {w} x {h}");
        let lines = page_lines(&pdf, 1);
        let board = fen.split(' ').next().expect("board");
        assert!(
            lines.iter().any(|l| l.contains(board)),
            "{args:?}: {lines:#?}"
        );
        check_diagram(&pdf, 1, board);
        // A 4:3 and a 5:4 projector, and a screen higher than wide: the
        // whole board is seen, and nothing runs into the right edge (the
        // back rank in big letters did, past a scroll bar, with the board
        // sized from the height alone).
        for size in ["1024,768", "1280,1024", "768,1024"] {
            browser(
                c,
                &html,
                &[
                    format!("--screenshot={}", png.display()),
                    format!("--window-size={size}"),
                ],
            );
            let img = read_png(&png);
            let (_, seen) = read_board(&img);
            assert_eq!(seen, want, "{args:?} at {size}");
            let edge =
                (0..img.height).flat_map(|y| (img.width - 12..img.width).map(move |x| (x, y)));
            let marked = edge
                .filter(|&(x, y)| img.rgb[y * img.width + x] != [255, 255, 255])
                .count();
            assert_eq!(
                marked, 0,
                "{args:?} at {size}: something reaches the right edge"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each procedure card prints on one page with its heading and its steps.
#[test]
fn every_procedure_card_prints_on_one_page() {
    let Some(c) = tools() else {
        return;
    };
    let dir = support::temp_dir("pages-cards");
    for m in chess960::procedures::Method::ALL {
        let html = dir.join(format!("{}.html", m.name()));
        support::stdout(&[
            "roll",
            m.name(),
            "--explain",
            "--html",
            html.to_str().expect("path"),
        ]);
        let pdf = print_pdf(c, &html);
        let (pages, _, _) = pdf_pages(&pdf);
        assert_eq!(pages, 1, "{m}: one page");
        let text = page_text(&pdf, 1, &["-layout"]).join(" ");
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        // Every line of the card, as printed words (the heading may wrap).
        for line in m.explain().lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                words(&text).contains(&words(line)),
                "{m}: {line:?} not on the page"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
