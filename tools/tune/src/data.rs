//! Labelled positions: reading the `FEN;result;game;stockfish_cp` lines
//! written by `tools/tune/label.py`.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use chess960::eval::{trace, Trace};
use chess960::notation::parse_fen;

/// One training position.
pub struct Sample {
    /// Evaluation features of the position.
    pub trace: Trace,
    /// Game result from White's point of view: 1, 0.5 or 0.
    pub result: f64,
    /// Game number (positions of one game stay on one side of the
    /// training/validation split).
    pub game: u64,
    /// Stockfish's score in centipawns from White's point of view, if any.
    pub stockfish: Option<f64>,
}

fn parse_result(text: &str) -> Option<f64> {
    match text {
        "1-0" | "1" => Some(1.0),
        "0-1" | "0" => Some(0.0),
        "1/2-1/2" | "0.5" => Some(0.5),
        _ => None,
    }
}

/// Read a data file.
///
/// # Errors
/// The file cannot be read, or a line is malformed (the message names the
/// line).
pub fn load(path: &Path) -> Result<Vec<Sample>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| format!("{}:{}: {what}: {line}", path.display(), i + 1);
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        if fields.len() < 3 {
            return Err(bad("expected FEN;result;game[;stockfish_cp]"));
        }
        let pos = parse_fen(fields[0]).map_err(|e| bad(&e.to_string()))?;
        let result = parse_result(fields[1]).ok_or_else(|| bad("bad result"))?;
        let game = fields[2].parse().map_err(|_| bad("bad game number"))?;
        let stockfish = match fields.get(3) {
            None | Some(&"") => None,
            Some(t) => Some(t.parse::<f64>().map_err(|_| bad("bad stockfish score"))?),
        };
        out.push(Sample {
            trace: trace(&pos),
            result,
            game,
            stockfish,
        });
    }
    Ok(out)
}
