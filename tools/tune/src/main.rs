//! `tune`: fits the evaluation weights of `chess960` to labelled positions
//! (Texel's method), so that the hand-set terms become measured ones.
//!
//! Two steps, both deterministic:
//!
//! * `tune quiet IN OUT` keeps the positions whose quiescence value equals
//!   their static evaluation (no capture sequence changes the score) and
//!   that are not in check: only there does a static evaluation have a
//!   right answer to be fitted to.
//! * `tune fit DATA` fits the sigmoid scale K, then minimises the mean
//!   squared error between `sigmoid(K * eval)` and each position's label
//!   (a blend of the game result and a Stockfish score) with Adam on the
//!   linear feature traces from `chess960::eval::trace`, and can write the
//!   rounded weights to `src/eval/handmade/weights.rs`.
//!
//! The data pipeline (games, extraction, labels) lives in `tools/tune/`;
//! its README documents the method and the commands.

mod data;
mod fit;
mod nnue;
mod quiet;
mod write;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Command line of the tuner.
#[derive(Debug, Parser)]
#[command(
    name = "tune",
    about = "Texel tuning of the chess960 evaluation weights"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Keep quiet positions (not in check, quiescence value = static eval), one per distinct position.
    Quiet {
        /// Input lines `FEN;...` (anything after the first `;` is copied).
        input: PathBuf,
        /// Output file.
        output: PathBuf,
        /// Also try this many positions one random legal move away from
        /// each input position (more varied data for the network).
        #[arg(long, default_value_t = 0)]
        children: usize,
        /// Seed of the random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Fit K and the weights to labelled positions.
    Fit(fit::FitArgs),
    /// Train the evaluation network on positions labelled with scores.
    Nnue(nnue::NnueArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // Each command's own check of its command line (what clap cannot
    // see: two paths that are one file, an --out that cannot be written)
    // before it runs.
    let result = match cli.command {
        Command::Quiet {
            input,
            output,
            children,
            seed,
        } => quiet::check(&input, &output)
            .map_err(Failure::Usage)
            .and_then(|()| quiet::run(&input, &output, children, seed).map_err(Failure::Run)),
        Command::Fit(args) => fit::run(&args).map_err(Failure::Run),
        Command::Nnue(args) => nnue::check(&args)
            .map_err(Failure::Usage)
            .and_then(|()| nnue::run(&args).map_err(Failure::Run)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A command line that asks for the impossible: 2, as for one clap
        // refuses.
        Err(Failure::Usage(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        // A run that cannot be done (unreadable or malformed data, an
        // unwritable output): 1, as for the engine's commands.
        Err(Failure::Run(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Why a command did not finish, which its exit status tells apart.
enum Failure {
    /// The command line cannot work (exit 2).
    Usage(String),
    /// The run failed (exit 1).
    Run(String),
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// The tuner's `--help` shows no rustdoc link
    /// ([`chess960::cli::rustdoc_links`]).
    #[test]
    fn help_texts_hold_no_rustdoc_links() {
        let found = chess960::cli::rustdoc_links(&Cli::command());
        assert!(found.is_empty(), "{found:#?}");
    }
}
