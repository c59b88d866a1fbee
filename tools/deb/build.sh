#!/usr/bin/env bash
# Build the Debian package of chess960 with cargo-deb
# (`cargo install cargo-deb --version 3.8.0 --locked`).
#
#   tools/deb/build.sh              # -> target/debian/chess960_<version>-1_<arch>.deb
#
# The man pages and completions are written by the release binary itself
# (`chess960 manpage --dir`, `chess960 completions SHELL`) into
# target/release/assets, where [package.metadata.deb] in Cargo.toml takes
# them from; then cargo-deb packs the binary built here without rebuilding.
# Extra arguments go to `cargo deb` (e.g. --output DIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}

if ! cargo deb --version >/dev/null 2>&1; then
  echo "error: cargo-deb is not installed: cargo install cargo-deb --version 3.8.0 --locked" >&2
  exit 1
fi
cargo build --release --locked --bin chess960
bin=$target/release/chess960
assets=$target/release/assets
rm -rf "$assets"
mkdir -p "$assets/man" "$assets/completions" "$assets/doc"
"$bin" manpage --dir "$assets/man" >/dev/null
gzip -9n "$assets"/man/*.6 # compressed, as Debian policy has man pages
# and the documents in /usr/share/doc above 4 kB
for doc in README.md CHANGELOG.md; do gzip -9n -c "$doc" >"$assets/doc/$doc.gz"; done
"$bin" completions bash >"$assets/completions/chess960.bash"
"$bin" completions zsh >"$assets/completions/_chess960"
"$bin" completions fish >"$assets/completions/chess960.fish"
cargo deb --no-build --locked "$@"
