//! Handlers for `roll` and `analyze`: replay, simulate, explain and analyse
//! the manual procedures of [`crate::procedures`].

use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::process::ExitCode;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::{AnalyzeArgs, CliError, RollArgs};
use crate::numbering::{BackRank, Scheme};
use crate::procedures::analysis::{frac, frac_short, summarize, to_f64, Spread, Summary};
use crate::procedures::{svg, EventKind, Method, Replay, Status};

/// Writes a command's whole output to standard output. A reader that closed
/// the pipe (`| head -1`) ends the command quietly, a full disk gets one
/// error line, as in the other subcommands; `print!` would panic on both.
fn emit(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

fn method(name: &str) -> Result<Method, CliError> {
    name.parse::<Method>()
        .map_err(|e| CliError::Usage(e.to_string()))
}

/// X-FEN of a back rank's start position.
fn fen_of(rank: &BackRank) -> Result<String, CliError> {
    let pos =
        crate::startpos::position(rank.scharnagl()).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(crate::notation::xfen(&pos))
}

/// Text diagram, rank 8 at the top (the project's one diagram format).
fn diagram(rank: &BackRank) -> String {
    crate::notation::diagram(&rank.board())
}

fn numbers_json(rank: &BackRank) -> Value {
    let mut m = serde_json::Map::new();
    for sc in Scheme::ALL {
        m.insert(sc.name().to_string(), json!(rank.number_in(sc)));
    }
    Value::Object(m)
}

fn events_json(r: &Replay) -> Value {
    Value::Array(
        r.events
            .iter()
            .map(|e| {
                json!({
                    "outcome": e.outcome,
                    "effect": match e.kind {
                        EventKind::Used => "used",
                        EventKind::Reroll => "roll again",
                        EventKind::Restart => "start over",
                    },
                    "note": e.note,
                })
            })
            .collect(),
    )
}

fn print_replay(m: Method, r: &Replay, simulated: bool, json_out: bool) -> Result<(), CliError> {
    let outcomes: Vec<&str> = r.events.iter().map(|e| e.outcome.as_str()).collect();
    if json_out {
        let mut obj = json!({
            "method": m.name(),
            "simulated": simulated,
            "outcomes": outcomes,
            "events": events_json(r),
        });
        match &r.status {
            Status::Done(rank) => {
                obj["complete"] = json!(true);
                obj["scharnagl"] = json!(rank.scharnagl());
                obj["back_rank"] = json!(rank.to_string());
                obj["numbers"] = numbers_json(rank);
                obj["fen"] = json!(fen_of(rank)?);
            }
            Status::Need(req) => {
                obj["complete"] = json!(false);
                obj["next"] = json!({ "action": req.action, "decides": req.decides });
            }
        }
        return emit(&format!("{obj}\n"));
    }
    let mut out = String::new();
    if simulated {
        let _ = writeln!(out, "{} (simulated): {}", m.name(), outcomes.join(" "));
    } else {
        let _ = writeln!(out, "{}:", m.name());
    }
    for (i, e) in r.events.iter().enumerate() {
        let tag = match e.kind {
            EventKind::Used => "",
            EventKind::Reroll => "ROLL AGAIN: ",
            EventKind::Restart => "START OVER: ",
        };
        let _ = writeln!(out, "  {:>2}. {:<9} {tag}{}", i + 1, e.outcome, e.note);
    }
    match &r.status {
        Status::Done(rank) => {
            let _ = writeln!(out, "position: {rank}");
            for sc in Scheme::ALL {
                let _ = writeln!(out, "  {:<12} {}", sc.name(), rank.number_in(sc));
            }
            let _ = writeln!(out, "fen: {}", fen_of(rank)?);
            out.push_str(&diagram(rank));
        }
        Status::Need(req) => {
            let _ = writeln!(out, "next: {}", req.action);
            let _ = writeln!(out, "  decides: {}", req.decides);
        }
    }
    emit(&out)
}

/// `chess960 roll METHOD [OUTCOMES...] [--explain] [--json] [--seed S]`
///
/// # Errors
/// Unknown method, unreadable or impossible outcomes, leftovers.
pub fn roll(a: &RollArgs) -> Result<ExitCode, CliError> {
    let m = method(&a.method)?;
    // clap's `requires` does not hold beside outcomes, --json or --seed
    // (which conflict with --explain): the page was silently not written.
    if a.html.is_some() && !a.explain {
        return Err(CliError::Usage(
            "--html writes the card, which only --explain prints: it takes no outcomes, --json or --seed"
                .into(),
        ));
    }
    if a.explain {
        if let Some(path) = &a.html {
            if super::write_file(path, &crate::html::card_page(m))? {
                return Ok(ExitCode::SUCCESS);
            }
        }
        emit(&format!("{}\n{}", m.explain(), m.typing()))?;
        return Ok(ExitCode::SUCCESS);
    }
    if a.outcomes.is_empty() {
        let mut rng = match a.seed {
            Some(s) => ChaCha8Rng::seed_from_u64(s),
            None => ChaCha8Rng::from_entropy(),
        };
        let r = m.simulate(&mut rng);
        print_replay(m, &r, true, a.json)?;
    } else {
        let r = m
            .replay(&a.outcomes)
            .map_err(|e| CliError::Usage(format!("{}: {e}", m.name())))?;
        print_replay(m, &r, false, a.json)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn ratio_text(s: &Summary) -> String {
    match &s.ratio {
        Some(r) => exact_and_decimal(r),
        None => "infinite (some position is unreachable)".into(),
    }
}

fn summary_json(s: &Summary, with_positions: bool) -> Value {
    let (_, unit) = s.method.unit();
    let mut obj = json!({
        "method": s.method.name(),
        "random": s.method.is_random(),
        "uniform": s.uniform,
        "reachable": s.reachable,
        "min_probability": frac(&s.min),
        "max_probability": frac(&s.max),
        "ratio": s.ratio.as_ref().map(to_f64),
        "ratio_exact": s.ratio.as_ref().map(frac),
        "expected_draws": to_f64(&s.expected),
        "expected_draws_exact": frac(&s.expected),
        "unit": unit,
        "restart_probability": frac(&s.restart),
        "classes": s.classes.iter().map(|c| json!({
            "probability": frac(&c.probability),
            "count": c.positions.len(),
            "positions": c.positions,
        })).collect::<Vec<_>>(),
        "favoured": if s.uniform { Vec::new() } else { s.classes[0].positions.clone() },
    });
    if with_positions {
        let ranks = crate::numbering::all_back_ranks();
        obj["positions"] = Value::Array(
            s.probabilities
                .iter()
                .enumerate()
                .map(|(n, p)| json!({ "scharnagl": n, "back_rank": ranks[n].to_string(), "probability": frac(p) }))
                .collect(),
        );
    }
    obj
}

/// Whether a procedure's draw is uniform, for the table and the text.
fn uniform_word(s: &Summary) -> &'static str {
    match s.spread() {
        Spread::Chosen => "not random (players choose)",
        Spread::Uniform => "yes",
        Spread::Uneven => "no",
    }
}

fn summary_text(s: &Summary) -> String {
    let ranks = crate::numbering::all_back_ranks();
    let (_, unit) = s.method.unit();
    let mut out = String::new();
    let _ = writeln!(out, "method: {}", s.method.name());
    if !s.method.is_random() {
        let _ = writeln!(
            out,
            "note: players choose; figures below assume every legal placement equally likely (reference only)"
        );
    }
    let _ = writeln!(out, "uniform: {}", uniform_word(s));
    let _ = writeln!(out, "reachable positions: {} of 960", s.reachable);
    let _ = writeln!(
        out,
        "min probability: {} ({:.6})",
        frac(&s.min),
        to_f64(&s.min)
    );
    let _ = writeln!(
        out,
        "max probability: {} ({:.6})",
        frac(&s.max),
        to_f64(&s.max)
    );
    let _ = writeln!(out, "max/min ratio: {}", ratio_text(s));
    let _ = writeln!(out, "expected {unit}: {}", exact_and_decimal(&s.expected));
    if !num_traits::Zero::is_zero(&s.restart) {
        let _ = writeln!(
            out,
            "start-over probability per attempt: {}",
            frac(&s.restart)
        );
    }
    let _ = writeln!(out, "positions by probability (likeliest first):");
    // One column as wide as the longest fraction (the placement's run to
    // 7 digits over 10), so the counts stay aligned.
    let width = s
        .classes
        .iter()
        .map(|c| frac(&c.probability).len())
        .max()
        .unwrap_or(0)
        .max(PROBABILITY_COLUMN);
    for (i, c) in s.classes.iter().enumerate() {
        let examples: Vec<String> = c
            .positions
            .iter()
            .take(6)
            .map(|&n| format!("{n} {}", ranks[n as usize]))
            .collect();
        let more = if c.positions.len() > 6 { ", ..." } else { "" };
        let tag = if i == 0 && !s.uniform {
            "  <- favoured"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {:<width$} x {:>3}  e.g. {}{more}{tag}",
            frac(&c.probability),
            c.positions.len(),
            examples.join(", ")
        );
    }
    out
}

/// The narrowest probability column of `analyze METHOD`'s classes: room for
/// the dice and cards' fractions (`1/5832`, `1/5040`) with space to spare.
const PROBABILITY_COLUMN: usize = 14;

/// `67/10 = 6.7000`, or just `8` for a whole number.
fn exact_and_decimal(p: &crate::procedures::framework::Prob) -> String {
    if p.is_integer() {
        frac_short(p)
    } else {
        format!("{} = {:.4}", frac(p), to_f64(p))
    }
}

/// One Markdown table row per method: the README's summary table.
fn table_text(all: &[Summary]) -> String {
    let mut out = String::from(
        "| method | uniform | average physical actions (exact = decimal) | max/min probability |\n|---|---|---|---|\n",
    );
    for s in all {
        let (_, unit) = s.method.unit();
        let _ = writeln!(
            out,
            "| {} | {} | {} {unit} | {} |",
            s.method.name(),
            uniform_word(s),
            exact_and_decimal(&s.expected),
            s.ratio
                .as_ref()
                .map_or("unreachable positions".into(), exact_and_decimal)
        );
    }
    out
}

/// `chess960 analyze METHOD|all [--json] [--plot FILE.svg]`
///
/// # Errors
/// Unknown method; `--plot` with `all`; the chart file cannot be written.
pub fn analyze(a: &AnalyzeArgs) -> Result<ExitCode, CliError> {
    if a.method.trim().eq_ignore_ascii_case("all") {
        if a.plot.is_some() {
            return Err(CliError::Usage(
                "--plot needs a single method, not 'all'".into(),
            ));
        }
        let all: Vec<Summary> = Method::ALL.iter().map(|&m| summarize(m)).collect();
        if a.json {
            let list: Vec<Value> = all.iter().map(|s| summary_json(s, false)).collect();
            emit(&format!("{}\n", json!({ "methods": list })))?;
        } else {
            emit(&table_text(&all))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let m = method(&a.method)?;
    if let Some(plot) = a.plot.as_deref().filter(|p| a.json && super::is_stdout(p)) {
        return Err(CliError::Usage(format!(
            "--plot '{}' and --json both ask for stdout: give the chart a file",
            plot.display()
        )));
    }
    let s = summarize(m);
    if let Some(path) = &a.plot {
        if super::write_file(path, &svg::chart(&s))? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    if a.json {
        emit(&format!("{}\n", summary_json(&s, true)))?;
    } else {
        let mut text = summary_text(&s);
        if let Some(path) = &a.plot {
            let _ = writeln!(text, "chart written to {}", path.display());
        }
        emit(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}
