#!/usr/bin/env bash
# run_all.sh DATA_DIR [GAMES_PER_HALF] [NODES]
#
# The whole pipeline behind src/eval/net.bin, in two halves side by side
# (one per core): self-play games of the engine with its hand-made
# evaluation (the binary given as $ENGINE, default target/release/chess960)
# from random Chess960 openings, every position from ply 8 on, plus up to
# three positions one random move away from each, the quiet ones
# (`tune quiet`), labelled with Stockfish 15.1's static evaluation
# (`tools/tune/label.py --static`), then `tune nnue`. See README.md here for the settings of the
# committed network.
#
# Environment: ENGINE, FASTCHESS=/path/to/fastchess, EPOCHS=20
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/../.."
D="${1:?data directory}"; GAMES="${2:-6000}"; NODES="${3:-2000}"
ENGINE="${ENGINE:-$ROOT/target/release/chess960}"
TUNE="$ROOT/target/release/tune"
mkdir -p "$D"
half() {
  local n="$1"
  PLIES=8 "$ROOT/tools/tune/gen_games.sh" "$ENGINE" "$D/g$n" "$GAMES" "$NODES" "1$n"
  "$ROOT/tools/tune/positions.sh" "$TUNE" "$D/g$n/games.pgn" "$D/pos$n.txt" "$D/quiet$n.txt" 3 "$n"
  python3 "$ROOT/tools/tune/label.py" "$D/quiet$n.txt" "$D/labelled$n.txt" --static
}
# Both halves at once; each is waited for by itself, since a bare `wait` returns 0 whatever they
# did, and a half that failed would leave a partial file to be trained on.
half 1 & first=$!
half 2 & second=$!
failed=0
wait "$first" || failed=1
wait "$second" || failed=1
[ "$failed" = 0 ] || { echo "a half failed (see above); nothing trained" >&2; exit 1; }
cat "$D/labelled1.txt" "$D/labelled2.txt" > "$D/labelled.txt"
"$TUNE" nnue "$D/labelled.txt" --out "$D/net.bin" --epochs "${EPOCHS:-20}"
