#!/usr/bin/env bash
# run_all.sh [DATA_DIR] [ENGINE]
#
# The whole tuning pipeline with the seeds and sizes of the committed
# weights (see README.md). Run from the repository root. It starts from the
# hand-set weights (tools/tune/start_weights.rs is copied over
# src/eval/handmade/weights.rs), builds the engine and the tuner, plays the
# self-play games with ENGINE (default: that freshly built engine), extracts,
# filters and labels positions under DATA_DIR (required), and
# writes the fitted weights to src/eval/handmade/weights.rs; then rebuild and check
# with match.sh. Sizes and settings: GAMES NODES SEED SF_NODES LAMBDA FIT_ARGS.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="${1:?usage: run_all.sh DATA_DIR [ENGINE]}"
GAMES="${GAMES:-2400}"; NODES="${NODES:-6000}"; SEED="${SEED:-1}"
SF_NODES="${SF_NODES:-1000}"; LAMBDA="${LAMBDA:-0.5}"
FIT_ARGS="${FIT_ARGS:---epochs 2000 --freeze psqt --l2 1e-8}"
mkdir -p "$DATA"
cp "$HERE/start_weights.rs" src/eval/handmade/weights.rs
cargo build --release --workspace
cp target/release/chess960 "$DATA/chess960-start"
ENGINE="${2:-$DATA/chess960-start}"
"$HERE/gen_games.sh" "$ENGINE" "$DATA/games" "$GAMES" "$NODES" "$SEED"
python3 "$HERE/extract.py" "$DATA/games/games.pgn" "$DATA/positions.txt" --skip 8
./target/release/tune quiet "$DATA/positions.txt" "$DATA/quiet.txt"
python3 "$HERE/label.py" "$DATA/quiet.txt" "$DATA/labelled.txt" --nodes "$SF_NODES"
# shellcheck disable=SC2086
./target/release/tune fit "$DATA/labelled.txt" --lambda "$LAMBDA" $FIT_ARGS --write src/eval/handmade/weights.rs
