#!/usr/bin/env bash
# positions.sh TUNE GAMES_PGN POSITIONS QUIET CHILDREN SEED [GAMES]
#
# The training positions of self-play games: every game position after the first SKIP plies
# (extract.py, into the file POSITIONS), then the quiet ones and up to CHILDREN of their one-move
# neighbours (`TUNE quiet`, seeded, into the file QUIET). This is the one place the step is
# written: `campaign.sh make` runs it after playing a chunk, kit.py where a chunk is played in
# slices and again here when the games come back (so the three give the same file), and the
# older pipelines of tools/nnue after their games.
#
# With GAMES, the file must hold that many games: a match runner that stopped early would shift
# the game number of every position after it, so a short file is an error, not a smaller chunk.
#
# Environment: POSITIONS_PYTHON=python3 (the Python that runs extract.py: one with python-chess).
# The plies left out at the start of every game are not a setting: the campaign's checksums
# depend on them.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TUNE="${1:?the tuner binary (tune)}"; PGN="${2:?games (PGN)}"
POSITIONS="${3:?file of the game positions}"; QUIET="${4:?file of the quiet positions}"
CHILDREN="${5:?neighbours a quiet position may add}"; SEED="${6:?seed}"; GAMES="${7:-}"
if [ -n "$GAMES" ]; then
  n="$(grep -c '^\[Result ' "$PGN" || true)"
  [ "$n" = "$GAMES" ] || { echo "positions: $PGN holds $n games, not $GAMES" >&2; exit 1; }
fi
SKIP=8
"${POSITIONS_PYTHON:-python3}" "$HERE/extract.py" "$PGN" "$POSITIONS" --skip "$SKIP"
"$TUNE" quiet "$POSITIONS" "$QUIET" --children "$CHILDREN" --seed "$SEED"
