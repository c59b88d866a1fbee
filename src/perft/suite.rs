//! Perft suite files: positions with expected leaf counts per depth.
//!
//! Three formats are read, the ones in `perft/` and the common EPD one, so
//! that reference data can be used as published:
//!
//! * `.perft` blocks: `id NAME`, `epd FEN`, then `perft DEPTH NODES` lines;
//! * EPD lines: `FEN ;D1 20 ;D2 400` (an `id "NAME"` operation is used as
//!   the name; other operations are ignored);
//! * the TSV table: a header naming the columns (`sp` or `id`, `fen`,
//!   `d1`, `d2`, ...) and one tab-separated row per position.
//!
//! `#` starts a comment line; blank lines are ignored. The format is
//! recognised from the content, not the file name.

use std::collections::BTreeMap;

use shakmaty::Chess;

use crate::notation::parse_fen;

/// The reference table of all 960 start positions (perft/chess960_startpos.tsv),
/// built into the binary so that `perft --all` needs no file.
pub const STARTPOS_TSV: &str = include_str!("../../perft/chess960_startpos.tsv");

/// One position of a suite.
#[derive(Debug, Clone)]
pub struct SuiteEntry {
    /// Name from the file (`id` line, `sp` column, EPD `id`), or the
    /// 1-based position index in the file when it has none.
    pub id: String,
    /// The FEN as written in the file.
    pub fen: String,
    /// The parsed position (castling read in Chess960 mode).
    pub position: Chess,
    /// Expected leaf count per depth.
    pub expected: BTreeMap<u32, u64>,
    /// Line of the file where the position was given (1-based).
    pub line: usize,
}

impl SuiteEntry {
    /// The expected count at `depth`, if the file has one.
    pub fn expected_at(&self, depth: u32) -> Option<u64> {
        self.expected.get(&depth).copied()
    }
}

/// Why a suite file could not be read. Always names the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    /// A line that does not fit the detected format.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file contains no position at all.
    #[error("no positions found")]
    Empty,
}

fn err(line: usize, reason: impl Into<String>) -> SuiteError {
    SuiteError::Line {
        line,
        reason: reason.into(),
    }
}

/// Parse a suite in any of the supported formats.
///
/// # Errors
/// [`SuiteError::Line`] naming the first bad line (bad FEN, bad number,
/// a depth given twice with different counts, ...), [`SuiteError::Empty`]
/// when there is no position.
pub fn parse(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    // A byte-order mark (an editor that saved the file) is no keyword.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let content = || {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    };
    let first = content().next().ok_or(SuiteError::Empty)?.1;
    // A TSV header names its columns, `fen` among them, between tabs; it may
    // begin with `id`, a `.perft` file's keyword, so it is recognised first.
    let is_tsv = first.contains('\t')
        && first
            .split('\t')
            .any(|c| c.trim().eq_ignore_ascii_case("fen"));
    let is_perft_block = !is_tsv
        && content().any(|(_, l)| {
            let word = l.split_whitespace().next().unwrap_or("");
            matches!(word, "id" | "epd" | "perft")
        });
    let entries = if is_perft_block {
        parse_perft_blocks(content())?
    } else if first.contains('\t') {
        parse_tsv(content())?
    } else {
        parse_epd(content())?
    };
    if entries.is_empty() {
        return Err(SuiteError::Empty);
    }
    Ok(entries)
}

/// The built-in table of the 960 start positions, in Scharnagl order.
///
/// # Errors
/// Only if the embedded table were corrupt, which the tests rule out.
pub fn startpos_table() -> Result<Vec<SuiteEntry>, SuiteError> {
    parse(STARTPOS_TSV)
}

fn position(line: usize, fen: &str) -> Result<Chess, SuiteError> {
    parse_fen(fen).map_err(|e| err(line, e.to_string()))
}

fn number<T: std::str::FromStr>(line: usize, what: &str, text: &str) -> Result<T, SuiteError> {
    text.trim()
        .replace('_', "")
        .parse()
        .map_err(|_| err(line, format!("{what} '{text}' is not a number")))
}

fn add_expectation(
    entry: &mut SuiteEntry,
    line: usize,
    depth: u32,
    nodes: u64,
) -> Result<(), SuiteError> {
    if depth == 0 {
        return Err(err(line, "depth 0 in a suite file"));
    }
    match entry.expected.insert(depth, nodes) {
        Some(old) if old != nodes => Err(err(
            line,
            format!("depth {depth} given twice with different counts ({old} and {nodes})"),
        )),
        _ => Ok(()),
    }
}

fn parse_perft_blocks<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    for (n, l) in lines {
        let (word, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let rest = rest.trim();
        match word {
            "id" => {
                if rest.is_empty() {
                    return Err(err(n, "'id' without a name"));
                }
                pending_id = Some(rest.to_owned());
            }
            "epd" => {
                let fen = rest.to_owned();
                let position = position(n, &fen)?;
                let id = pending_id
                    .take()
                    .unwrap_or_else(|| (entries.len() + 1).to_string());
                entries.push(SuiteEntry {
                    id,
                    fen,
                    position,
                    expected: BTreeMap::new(),
                    line: n,
                });
            }
            "perft" => {
                let entry = entries
                    .last_mut()
                    .ok_or_else(|| err(n, "'perft' line before any 'epd' line"))?;
                let mut f = rest.split_whitespace();
                let (Some(d), Some(c), None) = (f.next(), f.next(), f.next()) else {
                    return Err(err(n, "expected 'perft DEPTH NODES'"));
                };
                let depth = number(n, "depth", d)?;
                let nodes = number(n, "node count", c)?;
                add_expectation(entry, n, depth, nodes)?;
            }
            other => {
                return Err(err(
                    n,
                    format!("unknown keyword '{other}' (expected id, epd or perft)"),
                ))
            }
        }
    }
    Ok(entries)
}

fn parse_tsv<'a>(
    mut lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<Vec<SuiteEntry>, SuiteError> {
    let Some((hn, header)) = lines.next() else {
        return Ok(Vec::new());
    };
    let columns: Vec<String> = header
        .split('\t')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let fen_col = columns
        .iter()
        .position(|c| c == "fen")
        .ok_or_else(|| err(hn, "TSV header has no 'fen' column"))?;
    let id_col = columns.iter().position(|c| c == "sp" || c == "id");
    let mut depth_cols = Vec::new();
    for (i, c) in columns.iter().enumerate() {
        if let Some(d) = c.strip_prefix('d') {
            if let Ok(depth) = d.parse::<u32>() {
                depth_cols.push((i, depth));
            }
        }
    }
    let mut entries = Vec::new();
    for (n, l) in lines {
        let cells: Vec<&str> = l.split('\t').map(str::trim).collect();
        if cells.len() != columns.len() {
            return Err(err(
                n,
                format!("{} columns, the header has {}", cells.len(), columns.len()),
            ));
        }
        let fen = cells[fen_col].to_owned();
        let mut entry = SuiteEntry {
            id: id_col.map_or_else(|| (entries.len() + 1).to_string(), |i| cells[i].to_owned()),
            position: position(n, &fen)?,
            fen,
            expected: BTreeMap::new(),
            line: n,
        };
        for &(i, depth) in &depth_cols {
            if !cells[i].is_empty() && cells[i] != "-" {
                let nodes = number(n, "node count", cells[i])?;
                add_expectation(&mut entry, n, depth, nodes)?;
            }
        }
        entries.push(entry);
    }
    Ok(entries)
}

fn parse_epd<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries = Vec::new();
    for (n, l) in lines {
        let (head, ops) = l.split_once(';').unwrap_or((l, ""));
        let fields: Vec<&str> = head.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(err(
                n,
                "expected a FEN (at least 4 fields) at the start of the line",
            ));
        }
        // Fields 5 and 6 are the move counters when numeric; anything else
        // after the 4 FEN fields is the first EPD operation.
        let counters = fields[4..]
            .iter()
            .take(2)
            .take_while(|f| f.parse::<u32>().is_ok())
            .count();
        let fen = fields[..4 + counters].join(" ");
        let first_op = fields[4 + counters..].join(" ");
        let mut entry = SuiteEntry {
            id: (entries.len() + 1).to_string(),
            position: position(n, &fen)?,
            fen,
            expected: BTreeMap::new(),
            line: n,
        };
        for op in std::iter::once(first_op.as_str()).chain(ops.split(';')) {
            let op = op.trim();
            if op.is_empty() {
                continue;
            }
            let (code, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            let operand = operand.trim();
            if code == "id" {
                entry.id = operand.trim_matches('"').to_owned();
            } else if let Some(d) = code
                .strip_prefix(['D', 'd'])
                .filter(|d| crate::whole_number::digits_only(d))
            {
                // `D5` is a depth; other operations (`dm 3`, `draw_offer`)
                // are not this file's business and are skipped.
                let depth = number(n, "depth", d)?;
                let nodes = number(n, "node count", operand)?;
                add_expectation(&mut entry, n, depth, nodes)?;
            }
        }
        entries.push(entry);
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    #[test]
    fn perft_blocks() {
        let text = format!(
            "# comment\n\nid first\nepd {START}\nperft 1 20\nperft 2 400\n\n\
             epd bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -\nperft 3 12189\n"
        );
        let s = parse(&text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].id, "first");
        assert_eq!(s[0].line, 4);
        assert_eq!(s[0].expected_at(2), Some(400));
        assert_eq!(s[0].expected_at(3), None);
        assert_eq!(s[1].id, "2");
        assert_eq!(s[1].expected.len(), 1);
        assert_eq!(s[1].expected_at(3), Some(12189));
        // As an editor saved it, with a byte-order mark.
        let marked = parse(&format!("\u{feff}{text}")).unwrap();
        assert_eq!(marked[0].id, "first");
        assert_eq!(marked.len(), 2);
    }

    #[test]
    fn epd_with_depth_operations() {
        let text = format!(
            "{START} ;D1 20 ;D2 400\n{START} 0 1 ;D3 8902\n{START} id \"named\"; D1 20;\n{START}\n"
        );
        let s = parse(&text).unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].expected_at(1), Some(20));
        assert_eq!(s[0].expected_at(2), Some(400));
        assert_eq!(s[1].fen, format!("{START} 0 1"));
        assert_eq!(s[1].expected_at(3), Some(8902));
        assert_eq!(s[2].id, "named");
        assert_eq!(s[2].expected_at(1), Some(20));
        assert!(s[3].expected.is_empty());
        assert_eq!(s[3].id, "4");
        // Other operations beginning with 'd' are skipped, not read as depths.
        let s = parse(&format!("{START} ;D1 20 ;dm 3; draw_offer; D2 400\n")).unwrap();
        assert_eq!(s[0].expected.len(), 2, "{:?}", s[0].expected);
    }

    #[test]
    fn tsv_table() {
        let text = format!("# c\nsp\tfen\td1\td2\n7\t{START} 0 1\t20\t400\nx\t{START}\t20\t-\n");
        let s = parse(&text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].id, "7");
        assert_eq!(s[0].expected_at(2), Some(400));
        assert_eq!(s[1].id, "x");
        assert_eq!(s[1].expected_at(2), None);
        assert_eq!(s[1].line, 4);
        // A header may name the ids `id`, a `.perft` file's keyword too.
        let s = parse(&format!("id\tfen\td1\nstart\t{START}\t20\n")).unwrap();
        assert_eq!((s[0].id.as_str(), s[0].expected_at(1)), ("start", Some(20)));
    }

    #[test]
    fn builtin_table_has_all_960() {
        let t = startpos_table().unwrap();
        assert_eq!(t.len(), 960);
        for (i, e) in t.iter().enumerate() {
            assert_eq!(e.id, i.to_string());
            assert_eq!(
                e.expected.keys().copied().collect::<Vec<_>>(),
                [1, 2, 3, 4, 5, 6]
            );
        }
    }

    #[test]
    fn errors_name_the_line() {
        let bad = |text: &str, line: usize, needle: &str| match parse(text) {
            Err(SuiteError::Line { line: l, reason }) => {
                assert_eq!(l, line, "{text}: {reason}");
                assert!(reason.contains(needle), "{text}: {reason}");
            }
            other => panic!("{text}: {other:?}"),
        };
        bad(&format!("epd {START}\nperft 1 x\n"), 2, "not a number");
        bad(&format!("epd {START}\nperft 1\n"), 2, "perft DEPTH NODES");
        bad("perft 1 20\n", 1, "before any 'epd'");
        bad("id a\nepd not/a/fen w - -\n", 2, "FEN");
        bad(&format!("epd {START}\nfoo 1\n"), 2, "unknown keyword");
        bad(
            &format!("epd {START}\nperft 1 20\nperft 1 21\n"),
            3,
            "twice",
        );
        bad(&format!("epd {START}\nperft 0 1\n"), 2, "depth 0");
        bad(&format!("{START} ;D1 twenty\n"), 1, "not a number");
        bad("hello world\n", 1, "at least 4 fields");
        bad(&format!("sp\tfen\td1\n1\t{START}\n"), 2, "columns");
        bad("sp\tx\td1\n", 1, "no 'fen' column");
        assert_eq!(
            parse("# only a comment\n\n").unwrap_err(),
            SuiteError::Empty
        );
        assert_eq!(parse("sp\tfen\td1\n").unwrap_err(), SuiteError::Empty);
    }
}
