#!/usr/bin/env bash
# campaign.sh DATA_DIR build NAME      build engine NAME of lineage.tsv (and its tuner)
# campaign.sh DATA_DIR make [ID...]    make the chunks of chunks.tsv, relabels.tsv and passes.tsv (all,
#                                       or those named)
# campaign.sh DATA_DIR check           check every chunk on disk against its checksum
# campaign.sh DATA_DIR files [ID...]   print the paths of the chunks' data files
# campaign.sh DATA_DIR train NET       train network NET of nets.tsv from its chunks (made if missing)
# campaign.sh DATA_DIR settle ID       record or check chunk ID whose file was made elsewhere
#                                       (kit.py unpack), as `make` does with its own
# campaign.sh DATA_DIR quiet ID        make the quiet positions of chunk or pass ID, not its labels
#                                       (what kit.py packs to have them labelled elsewhere, and
#                                       what another teacher labels); a pass needs only the quiet
#                                       positions of its source and of the passes of it above its
#                                       row; status 75 when another run is making what it needs
#
# The own-data campaign (README.md beside this script): self-play data made in
# deterministic chunks, each from a recipe row of chunks.tsv, by an engine of
# lineage.tsv built from a named commit. The data stays in DATA_DIR, outside
# the repository; the repository keeps the recipes and the checksums, so a
# lost chunk is made again and checked, never guessed.
#
# `make` skips a chunk whose file is on disk with the checksum of its row. A
# row whose checksum is `-` is new: it is made, and its position count and
# checksum are written into its row (commit the recipe file). A chunk made again
# that does not match its row stops the run with status 1. Two `make` runs
# (one per core) may share DATA_DIR: each chunk is locked while it is made.
#
# `train` writes the network to the path its row of nets.tsv names; a row whose checksum is `-`
# gets it (commit both), one with a checksum must be matched byte for byte (training is
# deterministic: `tune nnue` shuffles from its seed and splits its work independently of the
# thread count).
#
# A relabelled chunk (a row of relabels.tsv) is the quiet positions of a chunk of chunks.tsv
# labelled again by another engine's search: a later, stronger generation gives the old positions
# better labels for a fraction of a new chunk's cost. It is made, skipped and checked like a chunk,
# and a network's recipe names it like one.
#
# A pass (a row of passes.tsv) is more positions from a chunk's games at the cost of labels only:
# the game positions of a chunk of chunks.tsv through `tune quiet` again, with more neighbours and
# another seed, less every position the source chunk or a pass of it above this one in passes.tsv
# already holds (so a chunk passed again and again gains only new positions each time), labelled
# by an engine's search (or not labelled, its file its quiet positions, when its label nodes are
# 0: positions for another teacher, like a chunk of chunks.tsv with 0).
#
# Environment: FASTCHESS=/path/to/fastchess (required by `make` and `train`).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
TOOLS="$ROOT/tools/tune"
D="${1:?data directory}"; CMD="${2:?command: build, make, check, files, train, settle or quiet}"; shift 2
mkdir -p "$D/engines" "$D/chunks"
D="$(cd "$D" && pwd)"
stamp() { echo "$(date -Is) $*" >&2; }
# The chunk lock this run holds, if any: released when the chunk is done, and also when the run
# stops on an error or a signal, so that no stale lock makes later runs skip the chunk.
HELD=""
trap '[ -z "$HELD" ] || rmdir "$HELD" 2>/dev/null || true' EXIT
# Take the lock of chunk $1; false if another run holds it.
lock() { mkdir -p "$D/locks"; mkdir "$D/locks/$1" 2>/dev/null && HELD="$D/locks/$1"; }
unlock() { [ -z "$HELD" ] || rmdir "$HELD" 2>/dev/null || true; HELD=""; }
die() { echo "campaign: $*" >&2; exit 1; }
# Stop because another run holds what this one needs: status 75 (try again later), which a run
# that asked for it tells apart from a failure.
busy() { echo "campaign: $*" >&2; exit 75; }

# A row of a TSV file whose first column is $2 (comments and blank lines skipped; none where the
# file is missing).
row() { [ ! -e "$1" ] || awk -F'\t' -v k="$2" '$0 !~ /^#/ && NF && $1 == k' "$1"; }

engine_ok() { [ -x "$D/engines/$1/chess960" ] && [ -x "$D/engines/$1/tune" ] && [ -e "$D/engines/$1/BUILT" ]; }

build() {
  local name="$1" r commit weights net bench dir got
  r="$(row "$HERE/lineage.tsv" "$name")"
  [ -n "$r" ] || die "no engine '$name' in lineage.tsv"
  IFS=$'\t' read -r _ commit weights net bench _ <<<"$r"
  engine_ok "$name" && return 0
  # Two runs that need the same engine build it once: the second waits for the first (a lock
  # held until this run ends or the engine is built) and finds it built. Without the lock the
  # second's clean start removed the first's build under it.
  local fd
  mkdir -p "$D/locks"
  exec {fd}>"$D/locks/build-$name.lock"
  flock "$fd"
  if engine_ok "$name"; then exec {fd}>&-; return 0; fi
  dir="$D/engines/$name"
  stamp "building $name from $commit (weights: $weights, network: $net)"
  rm -rf "$dir"; mkdir -p "$dir"
  mkdir -p "$dir/src"
  git -C "$ROOT" archive "$commit" | tar -x -C "$dir/src"
  # The root's evaluation first (zero fitted weights, zero network), then
  # whatever this engine takes from the repository.
  python3 "$HERE/make_root.py" "$dir/src"
  [ "$weights" = root ] || cp "$ROOT/$weights" "$dir/src/src/eval/handmade/weights.rs"
  [ "$net" = zero ] || cp "$ROOT/$net" "$dir/src/src/eval/net.bin"
  (cd "$dir/src" && CARGO_TARGET_DIR="$dir/target" cargo build --release --quiet -p chess960 -p chess960-tune)
  cp "$dir/target/release/chess960" "$dir/target/release/tune" "$dir/"
  got="$("$dir/chess960" bench 2>&1 | awk '/^Nodes searched/ {print $3}')"
  if [ "$bench" = - ]; then
    echo "engine $name: bench $got (write it into lineage.tsv)"
  elif [ "$got" != "$bench" ]; then
    die "engine $name: bench $got, lineage.tsv says $bench"
  fi
  touch "$dir/BUILT"
  exec {fd}>&-
}

# The data file of chunk $1: labelled positions, or quiet positions with game
# results only when its row asks for no labels (label nodes 0: field 6 of a chunk or a pass).
chunk_file() {
  if [ -n "$(row "$HERE/relabels.tsv" "$1")" ]; then
    echo "$D/chunks/$1/labelled.txt"
  elif [ "$(row "$HERE/passes.tsv" "$1" | cut -f6)" = 0 ] || [ "$(row "$HERE/chunks.tsv" "$1" | cut -f6)" = 0 ]; then
    echo "$D/chunks/$1/quiet.txt"
  else
    echo "$D/chunks/$1/labelled.txt"
  fi
}

# The SHA-256 of a file, in hex.
sha256() { sha256sum < "$1" | cut -c1-64; }

# Whether file $1 is on disk with the recorded checksum $2 (never when the row is new, `-`).
intact() { [ "$2" != - ] && [ -e "$1" ] && [ "$(sha256 "$1")" = "$2" ]; }

# Label the positions of file $1 into file $2 by the search of engine binary $3 at $4 nodes (the
# output appears only once complete).
label() {
  python3 "$TOOLS/label.py" "$1" "$2.tmp" --engine "$3" --nodes "$4"
  mv "$2.tmp" "$2"
}

# The quiet positions $2 of chunk or pass $1 labelled into $3 by engine $4's search at $5 nodes,
# as its row asks; nothing where $5 is 0 (its file is then its quiet positions).
search_labels() {
  [ "$5" != 0 ] || return 0
  stamp "chunk $1: labels by $4's search at $5 nodes"
  label "$2" "$3" "$D/engines/$4/chess960" "$5"
}

# Write count $3 and checksum $4 into the last two fields of row $2 of recipe file $1, under a
# lock, so that runs finishing together do not write over each other's rows.
record() {
  (
    flock 9
    awk -F'\t' -v OFS='\t' -v k="$2" -v n="$3" -v s="$4" \
      '$0 !~ /^#/ && NF && $1 == k {$(NF - 1) = n; $NF = s} {print}' "$1" > "$1.tmp.$$"
    mv "$1.tmp.$$" "$1"
  ) 9> "$D/locks/recipes.lock"
}

make_chunk() {
  local id="$1" r engine label_nodes positions sum c file
  r="$(row "$HERE/relabels.tsv" "$id")"
  if [ -n "$r" ]; then
    make_relabelled "$r"
    return
  fi
  r="$(row "$HERE/passes.tsv" "$id")"
  if [ -n "$r" ]; then
    make_pass "$r"
    return
  fi
  r="$(row "$HERE/chunks.tsv" "$id")"
  [ -n "$r" ] || die "no chunk '$id' in chunks.tsv, relabels.tsv or passes.tsv"
  IFS=$'\t' read -r _ engine _ _ _ label_nodes _ _ _ positions sum <<<"$r"
  file="$(chunk_file "$id")"
  if intact "$file" "$sum"; then
    stamp "chunk $id: on disk, checksum matches"
    return 0
  fi
  c="$D/chunks/$id"
  lock "$id" || { stamp "chunk $id: being made by another run, skipped"; return 0; }
  trap unlock RETURN
  # Games and quiet positions that `quiet` made complete are the ones make would play again.
  if [ -e "$c/QUIET" ]; then
    stamp "chunk $id: its games and quiet positions are on disk (made by quiet)"
  else
    chunk_quiet "$id"
  fi
  search_labels "$id" "$c/quiet.txt" "$c/labelled.txt" "$engine" "$label_nodes"
  settle "$HERE/chunks.tsv" "$id" "$file" "$positions" "$sum"
}

# The games and quiet positions of chunk $1 of chunks.tsv (every step of `make` before the labels)
# into its directory, emptied first, ending with the marker QUIET once they are complete. A
# teacher other than the chunk's engine labels these positions without the chunk's own labels.
# The caller holds the chunk's lock.
chunk_quiet() {
  local id="$1" engine seed games nodes dfrc plies children c e
  IFS=$'\t' read -r _ engine seed games nodes _ dfrc plies children _ _ <<<"$(row "$HERE/chunks.tsv" "$id")"
  [ -n "${FASTCHESS:-}" ] && [ -x "$FASTCHESS" ] || die "chunk $id: its games are to be played; set FASTCHESS to the fastchess binary"
  build "$engine"
  e="$D/engines/$engine"
  c="$D/chunks/$id"
  rm -rf "$c"; mkdir -p "$c"
  stamp "chunk $id: $games games of $engine at $nodes nodes (seed $seed)"
  OPENINGS='' DFRC_SHARE="$dfrc" PLIES="$plies" "$TOOLS/gen_games.sh" "$e/chess960" "$c/games" "$games" "$nodes" "$seed" >/dev/null
  "$TOOLS/positions.sh" "$e/tune" "$c/games/games.pgn" "$c/positions.txt" "$c/quiet.txt" \
    "$children" "$seed" "$games"
  touch "$c/QUIET"
}

# Whether chunk $1 of chunks.tsv has its game and quiet positions on disk, complete: made whole
# with its checksum, or by chunk_quiet. Made now (quiet positions only) where missing; false
# where another run holds the chunk's lock.
quiet_ready() {
  intact "$(chunk_file "$1")" "$(recorded_sum "$1")" && return 0
  [ -e "$D/chunks/$1/QUIET" ] && return 0
  lock "$1" || return 1
  chunk_quiet "$1"
  unlock
}

# Chunk $2 of recipe file $1 has just been made as file $3: a new row ($5 is `-`) gets its count
# and checksum, a recorded one ($4 positions, checksum $5) must be matched.
settle() {
  local recipe="$1" id="$2" file="$3" positions="$4" sum="$5" got n
  got="$(sha256 "$file")"
  n="$(wc -l < "$file")"
  if [ "$sum" = - ]; then
    record "$recipe" "$id" "$n" "$got"
    stamp "chunk $id: made, $n positions, sha256 $got (written into $(basename "$recipe"))"
  elif [ "$got" != "$sum" ] || [ "$n" != "$positions" ]; then
    die "chunk $id: made again with $n positions, sha256 $got; its recipe says $positions, $sum"
  else
    stamp "chunk $id: made again, checksum matches"
  fi
}

# A chunk of relabels.tsv, given its row: the quiet positions of its source (a chunk of chunks.tsv
# or a pass; made first if missing), labelled by its engine's search.
make_relabelled() {
  local id source engine label_nodes positions sum c file quiet
  IFS=$'\t' read -r id source engine label_nodes positions sum <<<"$1"
  [ -n "$(row "$HERE/chunks.tsv" "$source")" ] || [ -n "$(row "$HERE/passes.tsv" "$source")" ] ||
    die "chunk $id: its source '$source' is not a chunk of chunks.tsv or passes.tsv"
  file="$D/chunks/$id/labelled.txt"
  if intact "$file" "$sum"; then
    stamp "chunk $id: on disk, checksum matches"
    return 0
  fi
  source_ready "$source" ||
    { stamp "chunk $id: its source $source is being made by another run, skipped"; return 0; }
  quiet="$D/chunks/$source/quiet.txt"
  [ -e "$quiet" ] || die "chunk $id: no quiet positions in its source $source"
  c="$D/chunks/$id"
  lock "$id" || { stamp "chunk $id: being made by another run, skipped"; return 0; }
  trap unlock RETURN
  build "$engine"
  rm -rf "$c"; mkdir -p "$c"
  stamp "chunk $id: $source's positions labelled by $engine's search at $label_nodes nodes"
  label "$quiet" "$file" "$D/engines/$engine/chess960" "$label_nodes"
  settle "$HERE/relabels.tsv" "$id" "$file" "$positions" "$sum"
}

# The lines of file $1 whose position (the first four fields of the FEN: board, side to move,
# castling, en passant) is in none of the files after it, in their order.
new_positions() {
  local candidates="$1"
  shift
  awk -F';' '
    function key(fen,   f) { split(fen, f, " "); return f[1] " " f[2] " " f[3] " " f[4] }
    FILENAME != ARGV[ARGC - 1] { seen[key($1)] = 1; next }
    !(key($1) in seen)' "$@" "$candidates"
}

# The passes of passes.tsv above pass $1's row with the same source, in their order: a pass
# leaves out their positions too, so that each further pass of a chunk's games adds only what no
# pass before it holds.
earlier_passes() {
  awk -F'\t' -v k="$1" '
    $0 ~ /^#/ || !NF { next }
    $1 == k { for (i = 1; i <= n; i++) if (src[i] == $2) print id[i]; exit }
    { n++; id[n] = $1; src[n] = $2 }' "$HERE/passes.tsv"
}

# Whether chunk $1, the source of another, is on disk, complete, with the checksum of its row:
# made first where missing, false where another run is still making it (so that a chunk made from
# it waits instead of reading it half made).
source_ready() {
  make_chunk "$1"
  intact "$(chunk_file "$1")" "$(recorded_sum "$1")"
}

# Whether pass $1's source is a chunk of chunks.tsv (dies if not) with its game and quiet
# positions on disk (quiet_ready: made where missing), all that a pass reads of it; the source's
# labels are not made for a pass.
pass_source_ready() {
  local source earlier list status
  source="$(row "$HERE/passes.tsv" "$1" | cut -f2)"
  [ -n "$(row "$HERE/chunks.tsv" "$source")" ] || die "chunk $1: its source '$source' is not a chunk of chunks.tsv"
  quiet_ready "$source" || return 1
  # The quiet positions of the passes above it (only ever replaced whole, so on disk means
  # complete), made where missing by a `quiet` run of their own (no labels: this pass reads none
  # of theirs); not ready while another run holds one of them.
  list="$(earlier_passes "$1")"
  for earlier in $list; do
    [ ! -d "$D/locks/$earlier" ] || return 1
    [ ! -e "$D/chunks/$earlier/quiet.txt" ] || continue
    status=0
    bash "${BASH_SOURCE[0]}" "$D" quiet "$earlier" || status=$?
    [ "$status" != 75 ] || return 1
    [ "$status" = 0 ] || die "chunk $1: the quiet positions of $earlier, a pass above it, could not be made"
  done
}

# The quiet positions of a pass, given its row, into its directory: the game positions of its
# source chunk through the engine's `tune quiet` with the row's neighbours and seed, less the
# positions the source and the passes of it above this row hold. The file is replaced whole (by
# `mv`), never removed first, so that a run reading it for a pass below always reads all of it
# (the same lines, made again). The caller has made the others (pass_source_ready) and holds the
# pass's lock.
pass_quiet() {
  local id source children seed engine src c earlier list known
  IFS=$'\t' read -r id source children seed engine _ <<<"$1"
  src="$D/chunks/$source"
  [ -e "$src/positions.txt" ] && [ -e "$src/quiet.txt" ] ||
    die "chunk $id: no game positions of its source in $src (remove $src and make $source again)"
  build "$engine"
  c="$D/chunks/$id"
  mkdir -p "$c"
  rm -f "$c/candidates.txt" "$c/quiet.txt.tmp"
  known=("$src/quiet.txt")
  list="$(earlier_passes "$id")"
  for earlier in $list; do
    [ -e "$D/chunks/$earlier/quiet.txt" ] || die "chunk $id: no quiet positions of $earlier, the pass before it"
    known+=("$D/chunks/$earlier/quiet.txt")
  done
  "$D/engines/$engine/tune" quiet "$src/positions.txt" "$c/candidates.txt" --children "$children" --seed "$seed"
  new_positions "$c/candidates.txt" "${known[@]}" > "$c/quiet.txt.tmp"
  rm "$c/candidates.txt"
  mv "$c/quiet.txt.tmp" "$c/quiet.txt"
}

# A chunk of passes.tsv, given its row: its quiet positions (pass_quiet), labelled by the
# engine's search unless its label nodes are 0.
make_pass() {
  local id source children seed engine label_nodes positions sum file
  IFS=$'\t' read -r id source children seed engine label_nodes positions sum <<<"$1"
  file="$(chunk_file "$id")"
  if intact "$file" "$sum"; then
    stamp "chunk $id: on disk, checksum matches"
    return 0
  fi
  pass_source_ready "$id" ||
    { stamp "chunk $id: its source $source or a pass of it above is being made by another run, skipped"; return 0; }
  lock "$id" || { stamp "chunk $id: being made by another run, skipped"; return 0; }
  trap unlock RETURN
  stamp "chunk $id: $source's game positions and up to $children neighbours each (seed $seed)"
  pass_quiet "$1"
  search_labels "$id" "$D/chunks/$id/quiet.txt" "$file" "$engine" "$label_nodes"
  settle "$HERE/passes.tsv" "$id" "$file" "$positions" "$sum"
}

RECIPES=("$HERE/chunks.tsv" "$HERE/relabels.tsv" "$HERE/passes.tsv")
ids() { for f in "${RECIPES[@]}"; do [ ! -e "$f" ] || awk -F'\t' '$0 !~ /^#/ && NF {print $1}' "$f"; done; }

# The recipe file that has a row for chunk $1 (none if no file has).
recipe_of() { local f; for f in "${RECIPES[@]}"; do [ -z "$(row "$f" "$1")" ] || echo "$f"; done; }

# The recorded checksum of chunk $1 (the last field of its row).
recorded_sum() { for f in "${RECIPES[@]}"; do row "$f" "$1"; done | awk -F'\t' '{print $NF}'; }

train() {
  local net="$1" r tuner chunks args sum got id files=()
  r="$(row "$HERE/nets.tsv" "$net")"
  [ -n "$r" ] || die "no network '$net' in nets.tsv"
  IFS=$'\t' read -r _ tuner chunks args sum <<<"$r"
  build "$tuner"
  for id in ${chunks//,/ }; do
    make_chunk "$id"
    files+=("$(chunk_file "$id")")
  done
  mkdir -p "$D/nets"
  cat "${files[@]}" > "$D/nets/train.txt"
  stamp "training $net on $(wc -l < "$D/nets/train.txt") positions of chunks $chunks"
  # shellcheck disable=SC2086 # the recorded arguments are words
  # From the repository's root: a path in the arguments (`--init` of a committed network) is
  # the repository's.
  (cd "$ROOT" && "$D/engines/$tuner/tune" nnue "$D/nets/train.txt" --out "$D/nets/net.bin" $args)
  got="$(sha256 "$D/nets/net.bin")"
  if [ "$sum" = - ]; then
    mkdir -p "$(dirname "$ROOT/$net")"
    cp "$D/nets/net.bin" "$ROOT/$net"
    awk -F'\t' -v OFS='\t' -v k="$net" -v s="$got" \
      '$0 !~ /^#/ && NF && $1 == k {$5 = s} {print}' "$HERE/nets.tsv" > "$HERE/nets.tsv.tmp.$$"
    mv "$HERE/nets.tsv.tmp.$$" "$HERE/nets.tsv"
    stamp "network $net written, sha256 $got (written into nets.tsv)"
  elif [ "$got" != "$sum" ]; then
    die "network $net trained again has sha256 $got; nets.tsv says $sum"
  else
    stamp "network $net trained again, checksum matches"
  fi
}

case "$CMD" in
  train)
    [ -n "${FASTCHESS:-}" ] && [ -x "$FASTCHESS" ] || die "set FASTCHESS to the fastchess binary"
    train "${1:?network path, as nets.tsv names it}"
    ;;
  build)
    build "${1:?engine name}"
    ;;
  make)
    [ -n "${FASTCHESS:-}" ] && [ -x "$FASTCHESS" ] || die "set FASTCHESS to the fastchess binary"
    for id in ${*:-$(ids)}; do make_chunk "$id"; done
    ;;
  check)
    bad=0
    for id in $(ids); do
      sum="$(recorded_sum "$id")"
      file="$(chunk_file "$id")"
      if [ ! -e "$file" ]; then echo "chunk $id: missing"
      elif intact "$file" "$sum"; then echo "chunk $id: ok"
      else echo "chunk $id: checksum differs"; bad=1; fi
    done
    exit "$bad"
    ;;
  files)
    for id in ${*:-$(ids)}; do chunk_file "$id"; done
    ;;
  quiet)
    id="${1:?chunk or pass id, as chunks.tsv or passes.tsv names it}"
    if [ -n "$(row "$HERE/chunks.tsv" "$id")" ]; then
      quiet_ready "$id" || busy "chunk $id: being made by another run"
      stamp "chunk $id: games and quiet positions on disk"
      exit 0
    fi
    r="$(row "$HERE/passes.tsv" "$id")"
    [ -n "$r" ] || die "no chunk or pass '$id' in chunks.tsv or passes.tsv"
    ! intact "$(chunk_file "$id")" "$(recorded_sum "$id")" || [ ! -e "$D/chunks/$id/quiet.txt" ] ||
      die "chunk $id: already made, on disk with its checksum"
    pass_source_ready "$id" || busy "chunk $id: its source or a pass of it above is being made by another run"
    lock "$id" || busy "chunk $id: being made by another run"
    pass_quiet "$r"
    unlock
    ;;
  settle)
    id="${1:?chunk id, as chunks.tsv, relabels.tsv or passes.tsv names it}"
    recipe="$(recipe_of "$id")"
    [ -n "$recipe" ] || die "no chunk '$id' in chunks.tsv, relabels.tsv or passes.tsv"
    # Every recipe file ends its rows with the count and the checksum.
    read -r positions sum < <(row "$recipe" "$id" | awk -F'\t' '{print $(NF - 1), $NF}')
    file="$(chunk_file "$id")"
    [ -e "$file" ] || die "chunk $id: no file $file"
    mkdir -p "$D/locks"
    settle "$recipe" "$id" "$file" "$positions" "$sum"
    ;;
  *)
    die "unknown command '$CMD' (build, make, check, files, train, settle or quiet)"
    ;;
esac
