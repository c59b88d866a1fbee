#!/usr/bin/env python3
"""Write the starting point of the own-data lineage into a source tree.

The root engine of the campaign is this project's search with an evaluation
that owes nothing to Stockfish: the published PeSTO base (material and
piece-square tables), the terms whose values were set by hand, every fitted
weight at zero and a network whose output is zero. The weights of the
committed evaluation were fitted half to Stockfish's scores and its network
was trained on Stockfish's static evaluation, so both are taken out here.

usage: make_root.py SOURCE_TREE

Rewrites SOURCE_TREE/src/eval/handmade/weights.rs (every group but
HAND_SET to zero) and SOURCE_TREE/src/eval/net.bin (a residual network of
zeros, as wide as the file it replaces, which the build compiles for: the
evaluation is then the hand-made one alone).
"""
import re
import struct
import sys
from pathlib import Path

# Rows whose values were set by hand, not fitted (weights.rs says so in its
# header): they keep their values.
HAND_SET = {"outpost_knight", "outpost_bishop", "rook_seventh", "backward", "safe_check"}

# The network file format of src/eval/nnue/file.rs (C960NN02): the magic, then
# the width as a little-endian u32 (any later format keeps it there).
MAGIC = b"C960NN02"
INPUTS = 768


def zero_weights(text):
    out = []
    group = None
    for line in text.splitlines(keepends=True):
        m = re.match(r"\s*// (\w+)", line)
        if m and "(" not in line:
            group = m.group(1)
        elif group is not None and group not in HAND_SET and line.lstrip().startswith("("):
            line = re.sub(r"\(-?\d+, -?\d+\)", "(0, 0)", line)
        out.append(line)
    return "".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-5])
    root = Path(sys.argv[1])
    wpath = root / "src/eval/handmade/weights.rs"
    text = wpath.read_text()
    start = text.index("pub const WEIGHTS")
    body = zero_weights(text[start:])
    header = (
        "//! Evaluation weights, indexed by the constants in [`super::params`].\n"
        "//!\n"
        "//! The root of the own-data lineage (tools/nnue/campaign/make_root.py): every\n"
        "//! fitted group at zero, the hand-set rows as they were.\n\n"
        "use super::params::{NUM_PARAMS, S};\n\n"
        "/// Middlegame/endgame weight of every evaluation parameter.\n"
        "#[rustfmt::skip]\n"
    )
    wpath.write_text(header + body)
    npath = root / "src/eval/net.bin"
    (hidden,) = struct.unpack_from("<I", npath.read_bytes(), 8)
    net = bytearray(MAGIC)
    net += struct.pack("<II", hidden, 1)
    net += bytes(2 * (INPUTS * hidden + hidden))
    net += bytes(4 * (2 * hidden + 1))
    npath.write_bytes(bytes(net))


if __name__ == "__main__":
    main()
