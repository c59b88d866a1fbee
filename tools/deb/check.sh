#!/usr/bin/env bash
# Check a built Debian package of chess960 the way a user meets it.
#
#   tools/deb/check.sh [--install] [DEB]
#
# DEB defaults to the newest target/debian/chess960_*.deb. The package is
# unpacked (dpkg -x) into a scratch root and its files are checked there,
# touching nothing else; with --install it is also installed with dpkg -i
# (root; CI does this) and the binary is run as /usr/games/chess960, found
# on PATH, and the page as `man chess960`.
#
# Checks: the package's fields and file list; `chess960 --version`; a
# quick series of Chess960 games through python-chess
# (tests/clients/python_chess_games.py, when python-chess is importable);
# the man page rendered by `man -l`; the bash completion completing a
# subcommand; `fastchess --compliance` when fastchess is on PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
install=0
if [ "${1:-}" = --install ]; then install=1; shift; fi
deb=${1:-$(ls -t "${CARGO_TARGET_DIR:-target}"/debian/chess960_*.deb 2>/dev/null | head -1)}
[ -n "$deb" ] && [ -f "$deb" ] || { echo "error: no .deb given or found (run tools/deb/build.sh)" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }
echo "== $deb ($(stat -c %s "$deb") bytes)"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = chess960 ] || fail "Package is '$(field Package)'"
[ "$(field Section)" = games ] || fail "Section is '$(field Section)'"
field Depends | grep -q 'libc6' || fail "Depends lacks libc6: '$(field Depends)'"
version=$(field Version)
echo "Package chess960 $version, Section games, Depends: $(field Depends)"
listing=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#')
for f in /usr/games/chess960 /usr/share/man/man6/chess960.6.gz /usr/share/man/man6/chess960-perft.6.gz \
         /usr/share/bash-completion/completions/chess960 /usr/share/zsh/vendor-completions/_chess960 \
         /usr/share/fish/vendor_completions.d/chess960.fish /usr/share/doc/chess960/copyright \
         /usr/share/doc/chess960/README.md.gz /usr/share/doc/chess960/CHANGELOG.md.gz; do
  grep -qx "$f" <<<"$listing" || fail "the package lacks $f"
done
echo "files: $(grep -vc '/$' <<<"$listing") (binary in /usr/games, man6 pages, 3 completions, docs)"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
bin=$root/usr/games/chess960
if [ "$install" = 1 ]; then
  dpkg -i "$deb" >/dev/null
  PATH=$PATH:/usr/games
  [ "$(command -v chess960 || true)" = /usr/games/chess960 ] \
    || fail "chess960 on PATH is '$(command -v chess960 || true)', not /usr/games/chess960"
  bin=/usr/games/chess960
  echo "installed: dpkg -s says '$(dpkg-query -W -f '${Status}' chess960)'"
fi

got=$("$bin" --version)
grep -qE "^chess960 ${version%-*} \(([0-9a-f]{7}|unknown)\)\$" <<<"$got" || fail "--version says '$got' for package version $version"
echo "--version: $got"

uci=$(printf 'uci\nisready\nposition startpos960 0\ngo depth 3\nquit\n' | timeout 20 "$bin") || fail "UCI session failed"
grep -q '^option name UCI_Chess960 type check' <<<"$uci" || fail "no UCI_Chess960 option"
grep -q '^bestmove ' <<<"$uci" || fail "no bestmove"
echo "UCI: uciok with UCI_Chess960, bestmove after go depth 3"

if python3 -c 'import chess, chess.engine' 2>/dev/null; then
  python3 tests/clients/python_chess_games.py --engine "$bin" --quick --games 1 --seed 1 --time-margin 1000 | tail -1 \
    || fail "python-chess games"
elif [ "${CHESS960_REQUIRE_PYTHON_CHESS:-}" = 1 ]; then
  fail "python-chess is not importable (pip install chess==1.11.2)"
else
  echo "skipped: python-chess games (pip install chess==1.11.2)"
fi

if command -v man >/dev/null 2>&1; then
  page=$root/usr/share/man/man6/chess960.6.gz
  text=$(MANWIDTH=80 man -l "$page" 2>&1) || fail "man -l $page: $text"
  grep -q 'chess960-perft(6)' <<<"$text" || fail "man -l shows no chess960-perft(6)"
  if [ "$install" = 1 ] && [ -f /usr/share/man/man6/chess960.6.gz ]; then
    [ "$(man -w chess960)" = /usr/share/man/man6/chess960.6.gz ] || fail "man -w chess960 is '$(man -w chess960 2>&1)'"
    MANWIDTH=80 man chess960-perft 2>/dev/null | grep -q -- '--engine' || fail "man chess960-perft lacks --engine"
    echo "man chess960 finds /usr/share/man/man6/chess960.6.gz"
  elif [ "$install" = 1 ]; then
    echo "note: dpkg did not install /usr/share/man (a path-exclude in /etc/dpkg/dpkg.cfg.d?); checked the unpacked page"
  fi
  echo "man: $(grep -m1 -A1 '^NAME' <<<"$text" | tail -1 | sed 's/^ *//')"
elif [ "${CHESS960_REQUIRE_MAN:-}" = 1 ]; then
  fail "man is not installed (apt-get install man-db)"
else
  echo "skipped: man (apt-get install man-db)"
fi

reply=$(bash -c 'source "$1" && COMP_WORDS=(chess960 per) COMP_CWORD=1 COMP_LINE="chess960 per" COMP_POINT=12 \
  && _chess960 chess960 per chess960 && echo "${COMPREPLY[*]}"' bash "$root/usr/share/bash-completion/completions/chess960")
[ "$reply" = "perft perft-merge" ] || fail "bash completes 'chess960 per' as '$reply'"
echo "bash completion: 'chess960 per<TAB>' -> $reply"

if command -v fastchess >/dev/null 2>&1; then
  fastchess --compliance "$bin" || fail "fastchess --compliance"
else
  echo "skipped: fastchess --compliance (fastchess not on PATH)"
fi
echo "deb check passed"
