#!/usr/bin/env bash
# own_data.sh DATA_DIR [GAMES_PER_HALF] [NODES] [LABEL_NODES]
#
# A network from this repository's own data alone, in two halves side by side
# (one per core): self-play games of ENGINE at NODES per move from random
# Chess960 openings, DFRC_SHARE of them from Double Fischer Random starts
# (tools/tune/gen_games.sh), every position from ply 8 on plus up to three
# quiet positions one random move away (`tune quiet`), each labelled by
# ENGINE's own search at LABEL_NODES (tools/tune/label.py --engine), then
# `tune nnue --residual` with RESULT_WEIGHT of each target taken from the game
# result. No Stockfish anywhere. Writes DATA_DIR/net.bin and prints the time
# of each step.
#
# Environment: ENGINE (default target/release/chess960), FASTCHESS=/path/to/fastchess,
#              DFRC_SHARE=0.25, RESULT_WEIGHT=0 (a share of 0.25 lost 295 Elo, docs/strength.md), EPOCHS=20, SEED=1,
#              LR=<Adam's first step; tune's default when unset>, INIT=<net.bin> (fine-tune that network instead of starting from random weights),
#              EXTRA=<labelled file> (more labelled positions to train on with this run's own)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/../.."
D="${1:?data directory}"; GAMES="${2:-2000}"; NODES="${3:-2000}"; LABEL_NODES="${4:-5000}"
ENGINE="${ENGINE:-$ROOT/target/release/chess960}"
TUNE="${TUNE:-$ROOT/target/release/tune}"
SEED="${SEED:-1}"
[ -x "$ENGINE" ] || { echo "engine not found: $ENGINE (cargo build --release, or set ENGINE)" >&2; exit 2; }
[ -x "$TUNE" ] || { echo "tune not found: $TUNE (cargo build --release -p chess960-tune, or set TUNE)" >&2; exit 2; }
mkdir -p "$D"
stamp() { echo "$(date -Is) $*" >&2; }
half() {
  local n="$1"
  stamp "half $n: games"
  DFRC_SHARE="${DFRC_SHARE:-0.25}" PLIES=8 "$ROOT/tools/tune/gen_games.sh" "$ENGINE" "$D/g$n" "$GAMES" "$NODES" "$SEED$n"
  stamp "half $n: positions"
  "$ROOT/tools/tune/positions.sh" "$TUNE" "$D/g$n/games.pgn" "$D/pos$n.txt" "$D/quiet$n.txt" 3 "$SEED$n"
  stamp "half $n: labels by our own search ($LABEL_NODES nodes)"
  python3 "$ROOT/tools/tune/label.py" "$D/quiet$n.txt" "$D/labelled$n.txt" --engine "$ENGINE" --nodes "$LABEL_NODES"
  stamp "half $n: done"
}
# Both halves at once; each is waited for by itself, since a bare `wait` returns 0 whatever they
# did, and a half that failed would leave a partial file to be trained on.
half 1 & first=$!
half 2 & second=$!
failed=0
wait "$first" || failed=1
wait "$second" || failed=1
[ "$failed" = 0 ] || { echo "a half failed (see above); nothing trained" >&2; exit 1; }
cat "$D/labelled1.txt" "$D/labelled2.txt" ${EXTRA:+"$EXTRA"} > "$D/labelled.txt"
stamp "training on $(wc -l < "$D/labelled.txt") positions"
"$TUNE" nnue "$D/labelled.txt" --out "$D/net.bin" --residual \
  --result-weight "${RESULT_WEIGHT:-0}" --epochs "${EPOCHS:-20}" \
  ${LR:+--lr "$LR"} ${INIT:+--init "$INIT"}
stamp "network written: $D/net.bin"
