#!/usr/bin/env bash
# static_set.sh DATA_DIR SET [PART...]
#
# Makes a training file of static_sets.tsv (beside this script): the quiet positions of the own-data
# campaign's chunks and passes (tools/nnue/campaign), labelled by a teacher's static evaluation
# (`label.py --static`), put together in the row's order and checked against the row's line count
# and SHA-256. What is missing is made, what is on disk is kept, so a lost set is made again from
# the campaign's recipes with one command and proved the same by its checksum:
#
#   DATA/chunks/ID/quiet.txt   the quiet positions (`campaign.sh DATA quiet ID`: a chunk's games and
#                              `tune quiet`, a pass's neighbours; not the chunk's own labels)
#   DATA/static/TEACHER/ID.txt the teacher's labels of one part (written whole, or not at all;
#                              TEACHER is the name with "-" for spaces and the like)
#   DATA/static/SET.txt        the set
#
# With PARTs, only those parts are labelled (and made first where missing) and the set is not put
# together: two runs, one per core, share the work on different parts; a last run without PARTs
# finds them all and writes the set. A row whose checksum is `-` is new: the set is written and the
# row gets its count and checksum (commit static_sets.tsv).
#
# The row's teacher is the name the engine gives in its `id name` line (`Stockfish 15.1`): labels
# from another version are other labels, so the engine is refused before it labels anything.
#
# Environment: FASTCHESS=/path/to/fastchess (to play a chunk's games where they are missing),
#   TEACHER=/usr/games/stockfish (the engine that labels).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CAMPAIGN="$HERE/campaign/campaign.sh"
SETS="$HERE/static_sets.tsv"
die() { echo "static_set: $*" >&2; exit 1; }
stamp() { echo "$(date -Is) $*" >&2; }
[ $# -ge 2 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 2; }
D="$1"; SET="$2"; shift 2
TEACHER="${TEACHER:-/usr/games/stockfish}"

row="$(awk -F'\t' -v k="$SET" '$0 !~ /^#/ && NF && $1 == k' "$SETS")"
[ -n "$row" ] || die "no set '$SET' in static_sets.tsv"
IFS=$'\t' read -r _ teacher parts lines sum <<<"$row"
IFS=',' read -r -a all <<<"$parts"
for p in "$@"; do
  [[ ",$parts," == *",$p,"* ]] || die "set $SET has no part '$p' (its parts: $parts)"
done

[ -x "$TEACHER" ] || die "no teacher engine at $TEACHER (set TEACHER)"
name="$(printf 'uci\nquit\n' | "$TEACHER" 2>/dev/null | sed -n 's/^id name //p' | head -n 1)"
[ "$name" = "$teacher" ] || die "the teacher at $TEACHER is '$name'; set $SET is labelled by '$teacher'"

dir="$D/static/$(printf %s "$teacher" | tr -c "A-Za-z0-9._-" "-")"
mkdir -p "$dir" "$D/locks"
# Each part: its quiet positions (made first where missing), labelled whole into a temporary
# file, then moved in place, under a lock so that two runs never label one part.
todo=("$@") busy=()
[ $# -gt 0 ] || todo=("${all[@]}")
for id in "${todo[@]}"; do
  out="$dir/$id.txt"
  if [ -e "$out" ]; then
    stamp "part $id: labels on disk"
    continue
  fi
  lock="$D/locks/static-$id"
  if ! mkdir "$lock" 2>/dev/null; then
    # A lock whose run is gone (killed, or the machine restarted) is taken over: it holds the
    # run's process id, and no process has it any more.
    holder="$(cat "$lock/pid" 2>/dev/null || true)"
    if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
      stamp "part $id: the lock of run $holder, which is gone, taken over"
      rm -rf "$lock"
      mkdir "$lock"
    else
      stamp "part $id: being labelled by another run${holder:+ (process $holder)}, skipped (a lock with no run: remove $lock)"
      busy+=("$id")
      continue
    fi
  fi
  echo $$ > "$lock/pid"
  trap 'rm -rf "$lock" 2>/dev/null || true' EXIT
  quiet="$D/chunks/$id/quiet.txt"
  # A pass's quiet positions are written whole (so on disk means complete); a chunk's `quiet` is
  # a no-op when they are there.
  if awk -F'\t' -v k="$id" '$0 !~ /^#/ && $1 == k {found = 1} END {exit !found}' "$HERE/campaign/passes.tsv" \
    && [ -e "$quiet" ]; then
    stamp "part $id: quiet positions on disk"
  else
    "$CAMPAIGN" "$D" quiet "$id"
  fi
  stamp "part $id: $(wc -l < "$quiet") positions labelled by $teacher's static evaluation"
  python3 "$ROOT/tools/tune/label.py" "$quiet" "$out.tmp" --static --stockfish "$TEACHER"
  mv "$out.tmp" "$out"
  rm -rf "$lock"
  trap - EXIT
done
[ ${#busy[@]} -eq 0 ] || die "parts ${busy[*]} are being labelled by another run; run this again once it ends"
[ $# -eq 0 ] || exit 0

file="$D/static/$SET.txt"
for id in "${all[@]}"; do cat "$dir/$id.txt"; done > "$file.tmp"
n="$(wc -l < "$file.tmp")"
got="$(sha256sum < "$file.tmp" | cut -c1-64)"
if [ "$sum" = - ]; then
  awk -F'\t' -v OFS='\t' -v k="$SET" -v n="$n" -v s="$got" \
    '$0 !~ /^#/ && NF && $1 == k {$(NF - 1) = n; $NF = s} {print}' "$SETS" > "$SETS.tmp.$$"
  mv "$SETS.tmp.$$" "$SETS"
  mv "$file.tmp" "$file"
  stamp "set $SET: $n lines, sha256 $got (written into static_sets.tsv)"
elif [ "$n" != "$lines" ] || [ "$got" != "$sum" ]; then
  die "set $SET made with $n lines, sha256 $got; static_sets.tsv says $lines, $sum (kept as $file.tmp)"
else
  mv "$file.tmp" "$file"
  stamp "set $SET: $file, $n lines, checksum matches"
fi
