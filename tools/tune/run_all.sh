#!/usr/bin/env bash
# run_all.sh ENGINE [DATA_DIR]
#
# The whole tuning pipeline, start to finish, with the seeds and sizes used
# for the committed weights (see README.md). ENGINE is the chess960 binary
# that plays the self-play games (the committed data came from the engine
# before tuning). Writes the data under DATA_DIR (default /work/tune-data)
# and rewrites src/eval/weights.rs; run from the repository root.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENGINE="${1:?engine binary}"; DATA="${2:-/work/tune-data}"
GAMES="${GAMES:-2400}"; NODES="${NODES:-6000}"; SEED="${SEED:-1}"
SF_NODES="${SF_NODES:-1000}"; LAMBDA="${LAMBDA:-0.5}"
mkdir -p "$DATA"
"$HERE/gen_games.sh" "$ENGINE" "$DATA/games" "$GAMES" "$NODES" "$SEED"
python3 "$HERE/extract.py" "$DATA/games/games.pgn" "$DATA/positions.txt" --skip 8
cargo build --release --bin tune
./target/release/tune quiet "$DATA/positions.txt" "$DATA/quiet.txt"
python3 "$HERE/label.py" "$DATA/quiet.txt" "$DATA/labelled.txt" --nodes "$SF_NODES"
./target/release/tune fit "$DATA/labelled.txt" --lambda "$LAMBDA" \
  ${FIT_ARGS:---epochs 2000 --freeze psqt --l2 1e-8} --write src/eval/weights.rs
