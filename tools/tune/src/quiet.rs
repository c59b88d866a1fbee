//! Selecting quiet positions: not in check, and a capture-only search
//! cannot improve on the static evaluation.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use chess960::eval::handmade::evaluate;
use chess960::eval::PIECE_VALUE;
use chess960::notation::{parse_fen, shredder_fen};
use shakmaty::{Chess, Move, Position};

/// Captures-and-promotions search (fail-hard alpha-beta with stand pat),
/// deep enough for realistic exchanges.
fn qsearch(pos: &Chess, mut alpha: i32, beta: i32, depth: u32) -> i32 {
    let stand = evaluate(pos);
    if stand >= beta {
        return beta;
    }
    alpha = alpha.max(stand);
    if depth == 0 {
        return alpha;
    }
    let mut moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_capture() || m.is_promotion())
        .collect();
    // Most valuable victim first, least valuable attacker next.
    moves.sort_by_key(|m| {
        let victim = m.capture().map_or(0, |r| PIECE_VALUE[r as usize - 1]);
        -(victim * 16 - m.role() as i32)
    });
    for m in moves {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let score = -qsearch(&next, -beta, -alpha, depth - 1);
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// True if `pos` is not in check and no capture sequence changes its
/// static evaluation.
pub fn is_quiet(pos: &Chess) -> bool {
    if pos.is_check() || pos.is_game_over() {
        return false;
    }
    let stand = evaluate(pos);
    qsearch(pos, -30_000, 30_000, 12) == stand
}

/// Refuses an `output` that is the `input` itself (the same file once
/// both paths are made canonical). Why: the output is created, that is
/// emptied, before the input is read, so `tune quiet X X` would destroy
/// X. A path that cannot be made canonical (an output not there yet, an
/// input missing, which [`run`] then reports) is no such file.
///
/// # Errors
/// The two paths, when they name one file.
pub fn check(input: &Path, output: &Path) -> Result<(), String> {
    match (input.canonicalize(), output.canonicalize()) {
        (Ok(a), Ok(b)) if a == b => Err(format!(
            "{}: the output is the input {} (writing it would empty it first)",
            output.display(),
            input.display()
        )),
        _ => Ok(()),
    }
}

/// Filter `input` into `output`, keeping quiet positions once each (by
/// board, side to move, castling and en passant fields).
///
/// # Errors
/// An output that is the input ([`check`]), I/O errors and unparsable
/// FENs (with their line number).
pub fn run(input: &Path, output: &Path, children: usize, seed: u64) -> Result<(), String> {
    use rand::{Rng, SeedableRng};
    check(input, output)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let file = File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let out = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
    let mut out = BufWriter::new(out);
    let mut seen = HashSet::new();
    let (mut total, mut kept) = (0u64, 0u64);
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", input.display()))?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        total += 1;
        let fen = line.split(';').next().unwrap_or("").trim();
        let pos =
            parse_fen(fen).map_err(|e| format!("{}:{}: {e}: {fen}", input.display(), i + 1))?;
        let rest = line.split_once(';').map_or("", |(_, r)| r);
        // The position itself, then up to `children` positions one random
        // legal move away (`--children`; the rest of the line is copied).
        let mut candidates = vec![(fen.to_string(), pos.clone())];
        let moves = pos.legal_moves();
        for _ in 0..children.min(moves.len()) {
            let mut child = pos.clone();
            child.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            candidates.push((shredder_fen(&child), child));
        }
        for (fen, pos) in candidates {
            let key: String = fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            if !seen.insert(key) || !is_quiet(&pos) {
                continue;
            }
            kept += 1;
            let sep = if rest.is_empty() { "" } else { ";" };
            writeln!(out, "{fen}{sep}{rest}").map_err(|e| format!("{}: {e}", output.display()))?;
        }
    }
    out.flush()
        .map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!("quiet: kept {kept} of {total} positions");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hanging_piece_is_not_quiet() {
        // White to move can take the undefended rook on d5.
        let hanging = parse_fen("4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1").unwrap();
        assert!(!is_quiet(&hanging));
        let calm = parse_fen("4k3/8/8/7r/8/8/3Q4/4K3 w - - 0 1").unwrap();
        assert!(is_quiet(&calm));
        let check = parse_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        assert!(!is_quiet(&check));
    }

    /// An output that is the input, by another spelling of its path too,
    /// is refused and the input left whole; another output is not.
    #[test]
    fn the_input_is_not_its_own_output() {
        let dir = std::env::temp_dir().join(format!("c960-tune-quiet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let input = dir.join("in.txt");
        let text = "4k3/8/8/7r/8/8/3Q4/4K3 w - - 0 1;1;0\n";
        std::fs::write(&input, text).expect("input");
        let again = dir.join(".").join("in.txt");
        let err = run(&input, &again, 0, 1).expect_err("refused");
        assert!(err.contains("the output is the input"), "{err}");
        assert_eq!(std::fs::read_to_string(&input).expect("input"), text);
        run(&input, &dir.join("out.txt"), 0, 1).expect("another output");
        assert_eq!(
            std::fs::read_to_string(dir.join("out.txt")).expect("output"),
            text
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
