#!/usr/bin/env bash
# Perft benchmark: chess960 against Stockfish's `go perft`, same positions, one run.
#
# usage: perft/bench.sh [DEPTH] [COUNT|all]
#   DEPTH  plies (default 6)
#   COUNT  how many of the 960 start positions, spread evenly over the Scharnagl
#          numbers (default 24); `all` for the full suite (depth 6: 107.6 G nodes,
#          about half an hour for the three runs on 2 cores)
# environment:
#   STOCKFISH  engine binary (default /usr/games/stockfish; Debian package `stockfish`, 15.1)
#   THREADS    threads of the full-speed run (default: all cores)
#   HASH       hash MiB of the full-speed run (default 64)
#   BIN        chess960 binary (default: build target/release/chess960)
#   CHUNK      positions per round (default 40)
#   RUNS       which of our runs to time (default "raw full"; "full" alone halves the time
#              of a full-suite rerun when only the full-speed ratio is wanted)
#
# Three timed runs over the same positions, each checked against perft/chess960_startpos.tsv:
#   stockfish  `go perft DEPTH` per position (UCI_Chess960 on; single-threaded by design)
#   raw        chess960 perft --threads 1 --hash 0
#   full       chess960 perft --threads $THREADS --hash $HASH
# The three runs take turns, CHUNK positions at a time, so that load from other processes
# hits them alike. Times are wall clock of the counting only (Stockfish's start-up and NNUE
# load excluded; ours includes process start and table allocation), and CPU time (user +
# system, all threads), which is steadier on a shared machine. Peak KB is the largest
# resident size of one of our processes (/usr/bin/time -f %M).
# The ratios are stockfish time / our time: above 1 means we are faster.
set -euo pipefail

DEPTH=${1:-6}
COUNT=${2:-24}
cd "$(dirname "$0")/.."
ROOT=$PWD
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
THREADS=${THREADS:-$(nproc)}
HASH=${HASH:-64}
TSV=$ROOT/perft/chess960_startpos.tsv

die() { echo "bench.sh: $*" >&2; exit 2; }
[[ $DEPTH =~ ^[1-6]$ ]] || die "DEPTH must be 1..6 (the reference table's depths)"
[[ $COUNT == all || $COUNT =~ ^[0-9]+$ && $COUNT -ge 1 && $COUNT -le 960 ]] || die "COUNT must be 1..960 or all"
[[ $COUNT == all ]] && COUNT=960
[[ -x $STOCKFISH ]] || die "no Stockfish at $STOCKFISH (apt-get install stockfish, or set STOCKFISH)"
if [[ -z ${BIN:-} ]]; then
    cargo build --release --quiet
    BIN=$ROOT/target/release/chess960
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The selected rows of the reference table (header kept), as a suite file.
awk -F'\t' -v n="$COUNT" '
    /^#/ { next }
    $1 == "sp" { print; next }
    { if (int(($1 * n) / 960) != int((($1 - 1) * n) / 960) || $1 == 0) print }
' "$TSV" > "$WORK/suite.tsv"
SELECTED=$(($(wc -l < "$WORK/suite.tsv") - 1))
COL=$((DEPTH + 2))
EXPECTED=$(awk -F'\t' -v c="$COL" '$1 != "sp" { s += $c } END { printf "%.0f", s }' "$WORK/suite.tsv")

now() { date +%s.%N; }
TICK=$(getconf CLK_TCK)
cpu_of() { # CPU seconds (user + system) used so far by process $1
    awk -v t="$TICK" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / t }' "/proc/$1/stat"
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

echo "perft depth $DEPTH over $SELECTED start positions ($EXPECTED nodes expected), $(nproc) cores"
echo "stockfish: $("$STOCKFISH" </dev/null 2>/dev/null | head -1)"
echo "chess960:  $BIN"
echo

# --- Stockfish, driven as a coprocess so that each `go perft` finishes before the next position.
coproc SF { exec "$STOCKFISH" 2>/dev/null; }
SFPID=$SF_PID # bash unsets SF_PID when the coprocess ends
sf_send() { printf '%s\n' "$*" >&"${SF[1]}"; }
sf_wait() { # read until a line starting with $1; echo that line
    local line
    while IFS= read -r line <&"${SF[0]}"; do
        [[ $line == "$1"* ]] && { echo "$line"; return 0; }
    done
    die "stockfish ended before '$1'"
}
sf_send uci; sf_wait uciok >/dev/null
sf_send "setoption name UCI_Chess960 value true"
sf_send isready; sf_wait readyok >/dev/null

stockfish() { # suite file; prints "wall cpu nodes"
    local t0 t1 c0 c1 nodes=0 sp fen line
    c0=$(cpu_of "$SFPID"); t0=$(now)
    while IFS=$'\t' read -r sp fen _; do
        [[ $sp == sp ]] && continue
        sf_send "position fen $fen"
        sf_send "go perft $DEPTH"
        line=$(sf_wait "Nodes searched")
        nodes=$((nodes + ${line##*: }))
    done < "$1"
    t1=$(now); c1=$(cpu_of "$SFPID")
    echo "$(secs "$t0" "$t1") $(secs "$c0" "$c1") $nodes"
}

ours() { # suite file, extra args...; prints "wall cpu nodes peak_kb"
    local file=$1; shift
    local t0 t1 out err=$WORK/err summary nodes
    t0=$(now)
    out=$(/usr/bin/time -f 'TIME %M %U %S' "$BIN" perft "$DEPTH" --epd "$file" "$@" 2>"$err") ||
        die "chess960 $* failed: $(tail -3 "$err")"
    t1=$(now)
    summary=$(tail -1 <<<"$out")
    [[ $summary == *"mismatches 0 "* ]] || echo "WARNING: chess960 $*: $summary" >&2
    nodes=$(awk '{ for (i = 1; i < NF; i++) if ($i == "nodes") { print $(i + 1); exit } }' <<<"$summary")
    echo "$(secs "$t0" "$t1") $(awk '/^TIME/ { printf "%.2f", $3 + $4 }' "$err") $nodes $(awk '/^TIME/ { print $2 }' "$err")"
}
[[ -x /usr/bin/time ]] || die "needs /usr/bin/time (Debian package time) for CPU time and peak memory"

# Interleave the three runs chunk by chunk, so that load from other processes on a shared
# machine falls on all three alike.
CHUNK=${CHUNK:-40}
RUNS=${RUNS:-raw full}
wants() { [[ " $RUNS " == *" $1 "* ]]; }
wants raw || wants full || die "RUNS must name raw, full or both"
tail -n +2 "$WORK/suite.tsv" | split -l "$CHUNK" - "$WORK/rows."
declare -A WALL CPU NODES PEAK
for r in stockfish raw full; do WALL[$r]=0; CPU[$r]=0; NODES[$r]=0; PEAK[$r]=0; done
add() { # run wall cpu nodes [peak]
    WALL[$1]=$(awk -v a="${WALL[$1]}" -v b="$2" 'BEGIN { printf "%.3f", a + b }')
    CPU[$1]=$(awk -v a="${CPU[$1]}" -v b="$3" 'BEGIN { printf "%.2f", a + b }')
    NODES[$1]=$((NODES[$1] + $4))
    [[ ${5:-0} -le ${PEAK[$1]} ]] || PEAK[$1]=$5
}
done_pos=0
for rows in "$WORK"/rows.*; do
    { head -1 "$WORK/suite.tsv"; cat "$rows"; } > "$WORK/chunk.tsv"
    add stockfish $(stockfish "$WORK/chunk.tsv")
    if wants raw; then add raw $(ours "$WORK/chunk.tsv" --threads 1 --hash 0); fi
    if wants full; then add full $(ours "$WORK/chunk.tsv" --threads "$THREADS" --hash "$HASH"); fi
    done_pos=$((done_pos + $(wc -l < "$rows")))
    printf '  %4d/%d positions, wall (cpu) seconds so far: stockfish %.1f (%.1f), raw %.1f (%.1f), full %.1f (%.1f)\n' \
        "$done_pos" "$SELECTED" "${WALL[stockfish]}" "${CPU[stockfish]}" "${WALL[raw]}" "${CPU[raw]}" \
        "${WALL[full]}" "${CPU[full]}" >&2
done
sf_send quit
wait "$SFPID" 2>/dev/null || true
for r in stockfish $RUNS; do
    [[ ${NODES[$r]} == "$EXPECTED" ]] || echo "WARNING: $r counted ${NODES[$r]}, reference says $EXPECTED"
done

row() { # run config
    awk -v n="$1" -v s="${WALL[$1]}" -v c="${CPU[$1]}" -v p="${PEAK[$1]}" -v cfg="$2" \
        -v nodes="$EXPECTED" -v sf="${WALL[stockfish]}" -v sfc="${CPU[stockfish]}" 'BEGIN {
        printf "%-9s %9.2f %9.2f %9.1f %9.2fx %9.2fx %10s  %s\n", n, s, c,
               (s > 0 ? nodes / s / 1e6 : 0), (s > 0 ? sf / s : 0), (c > 0 ? sfc / c : 0),
               (p > 0 ? p : "-"), cfg }'
}
echo
echo "wall/cpu in seconds; speed in Mnodes/s of wall time; ratio = stockfish time / this time"
printf '%-9s %9s %9s %9s %10s %10s %10s  %s\n' run wall cpu speed ratio "cpu ratio" "peak KB" config
row stockfish "go perft $DEPTH, 1 thread, UCI_Chess960"
if wants raw; then row raw "--threads 1 --hash 0"; fi
if wants full; then row full "--threads $THREADS --hash $HASH"; fi
