#!/usr/bin/env python3
"""Relabel chunks of relabels.tsv on another machine, many cores at once.

Labelling is the campaign's long step, and it splits: label.py labels every N-th line of a file
(`--part K --parts N`) with each label searched from a cleared table, so parts labelled on any
machine, in any order, put back together give the file one run would have made. This tool packs
what such a machine needs, runs the parts there and brings back only the labels, small enough for
a narrow link:

  kit.py pack DATA KIT ID...   the engine of the rows ID... of relabels.tsv (one engine, built
                               in DATA by `campaign.sh DATA build`), label.py, this script and
                               the quiet positions of each row's source, compressed, into KIT
  kit.py run KIT OUT [--seconds S] [--parts N] [--jobs J]
                               on the machine: every chunk in N parts, J at once (default: one
                               a core), stopping at S seconds; each chunk whose parts all
                               finished goes into OUT/labels.tar (one token a quiet line: the
                               label, or x where the search found a mate and label.py drops it)
  kit.py unpack DATA TAR       back here: each chunk's labelled.txt made from its source's
                               quiet positions and the tokens, then `campaign.sh DATA settle`:
                               its count and checksum written into its row (a `-` row) or
                               checked against it

Nothing in the kit is trusted blindly: `unpack` refuses tokens that do not match the source's
line count, and a row that already has a checksum must be met byte for byte.
"""
import argparse
import io
import lzma
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LABEL = os.path.join(HERE, "..", "..", "tune", "label.py")
MANIFEST = "manifest.tsv"
DROPPED = "x"


def die(msg, code=1):
    print(f"kit: {msg}", file=sys.stderr)
    sys.exit(code)


def relabel_rows():
    """The rows of relabels.tsv by chunk id: (source, engine, label_nodes, positions, sha256)."""
    rows = {}
    with open(os.path.join(HERE, "relabels.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            k, *rest = line.rstrip("\n").split("\t")
            rows[k] = rest
    return rows


def pack(a):
    rows = relabel_rows()
    missing = [i for i in a.ids if i not in rows]
    if missing:
        die(f"not rows of relabels.tsv: {' '.join(missing)}", 2)
    engines = {rows[i][1] for i in a.ids}
    if len(engines) != 1:
        die(f"one engine a kit, these rows name {' '.join(sorted(engines))}", 2)
    engine = os.path.join(a.data, "engines", engines.pop(), "chess960")
    if not os.path.exists(engine):
        die(f"no engine at {engine} (campaign.sh DATA build NAME first)")
    os.makedirs(os.path.join(a.kit, "quiet"), exist_ok=True)
    with open(engine, "rb") as src, lzma.open(os.path.join(a.kit, "engine.xz"), "wb") as dst:
        shutil.copyfileobj(src, dst)
    shutil.copy(LABEL, os.path.join(a.kit, "label.py"))
    shutil.copy(os.path.abspath(__file__), os.path.join(a.kit, "kit.py"))
    with open(os.path.join(a.kit, MANIFEST), "w") as m:
        for i in a.ids:
            source, _, nodes = rows[i][:3]
            quiet = os.path.join(a.data, "chunks", source, "quiet.txt")
            if not os.path.exists(quiet):
                die(f"chunk {i}: no quiet positions in {quiet} (campaign.sh DATA make {source})")
            with open(quiet, "rb") as src, lzma.open(
                os.path.join(a.kit, "quiet", f"{source}.xz"), "wb", preset=6
            ) as dst:
                shutil.copyfileobj(src, dst)
            m.write(f"{i}\t{source}\t{nodes}\n")
    print(f"kit: {len(a.ids)} chunks packed into {a.kit}")


def merge(quiet, parts):
    """One token a line of quiet: the label its part gave it, or DROPPED. None if the parts do
    not fit the lines (a line dropped in one place and labelled in another cannot happen when
    each label depends on its position only; it is checked all the same)."""
    pos = [0] * len(parts)
    kept, dropped = set(), set()
    tokens = []
    for i, line in enumerate(quiet):
        p = i % len(parts)
        head = parts[p][pos[p]] if pos[p] < len(parts[p]) else None
        if head is not None and head.rsplit(";", 1)[0] == line:
            tokens.append(head.rsplit(";", 1)[1])
            pos[p] += 1
            kept.add(line)
        else:
            tokens.append(DROPPED)
            dropped.add(line)
    if any(pos[p] != len(parts[p]) for p in range(len(parts))) or kept & dropped:
        return None
    return tokens


def run(a):
    kit = os.path.abspath(a.kit)
    work = tempfile.mkdtemp(prefix="kit-")
    engine = os.path.join(work, "chess960")
    with lzma.open(os.path.join(kit, "engine.xz")) as src, open(engine, "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.chmod(engine, 0o755)
    chunks = [l.rstrip("\n").split("\t") for l in open(os.path.join(kit, MANIFEST)) if l.strip()]
    for _, source, _ in chunks:
        path = os.path.join(work, f"{source}.txt")
        if not os.path.exists(path):
            with lzma.open(os.path.join(kit, "quiet", f"{source}.xz")) as src, open(path, "wb") as dst:
                shutil.copyfileobj(src, dst)
    jobs = [(i, s, n, p) for i, s, n in chunks for p in range(a.parts)]
    deadline = time.time() + a.seconds
    done, lock = set(), threading.Lock()

    def worker():
        while True:
            with lock:
                if not jobs:
                    return
                i, source, nodes, p = jobs.pop(0)
            left = deadline - time.time()
            if left <= 0:
                return
            out = os.path.join(work, f"{i}.{p}")
            cmd = [sys.executable, os.path.join(kit, "label.py"), os.path.join(work, f"{source}.txt"),
                   out, "--engine", engine, "--nodes", nodes, "--part", str(p), "--parts", str(a.parts)]
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True)
            try:
                ok = proc.wait(timeout=left) == 0
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                ok = False
            if ok:
                with lock:
                    done.add((i, p))

    threads = [threading.Thread(target=worker) for _ in range(a.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    os.makedirs(a.out, exist_ok=True)
    finished = 0
    with tarfile.open(os.path.join(a.out, "labels.tar"), "w") as tar:
        for i, source, _ in chunks:
            if not all((i, p) in done for p in range(a.parts)):
                print(f"{i}: not finished")
                continue
            quiet = [l.strip() for l in open(os.path.join(work, f"{source}.txt"))]
            parts = [[l.rstrip("\n") for l in open(os.path.join(work, f"{i}.{p}"))]
                     for p in range(a.parts)]
            tokens = merge(quiet, parts)
            if tokens is None:
                print(f"{i}: its parts do not fit its source's lines, left out")
                continue
            blob = lzma.compress(("\n".join(tokens) + "\n").encode())
            info = tarfile.TarInfo(f"{i}.labels.xz")
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
            finished += 1
            print(f"{i}: {len(quiet)} lines, {len(quiet) - tokens.count(DROPPED)} labelled")
    shutil.rmtree(work, ignore_errors=True)
    print(f"kit: {finished} of {len(chunks)} chunks finished")


def unpack(a):
    rows = relabel_rows()
    failed = 0
    with tarfile.open(a.tar) as tar:
        for member in tar.getmembers():
            i = member.name.removesuffix(".labels.xz")
            if i not in rows:
                die(f"{member.name}: not a row of relabels.tsv")
            source = rows[i][0]
            tokens = lzma.decompress(tar.extractfile(member).read()).decode().split()
            quiet = [l.strip() for l in open(os.path.join(a.data, "chunks", source, "quiet.txt"))]
            if len(tokens) != len(quiet):
                die(f"chunk {i}: {len(tokens)} labels for {len(quiet)} positions of {source}")
            c = os.path.join(a.data, "chunks", i)
            os.makedirs(c, exist_ok=True)
            tmp = os.path.join(c, "labelled.txt.tmp")
            with open(tmp, "w") as f:
                for line, t in zip(quiet, tokens):
                    if t == DROPPED:
                        continue
                    int(t)
                    f.write(f"{line};{t}\n")
            os.replace(tmp, os.path.join(c, "labelled.txt"))
            # The row is recorded or checked by campaign.sh, as a chunk made there would be.
            settled = subprocess.run(["bash", os.path.join(HERE, "campaign.sh"), a.data, "settle", i])
            failed += settled.returncode != 0
    if failed:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack")
    p.add_argument("data")
    p.add_argument("kit")
    p.add_argument("ids", nargs="+")
    r = sub.add_parser("run")
    r.add_argument("kit")
    r.add_argument("out")
    r.add_argument("--seconds", type=float, default=540)
    r.add_argument("--parts", type=int, default=4)
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    u = sub.add_parser("unpack")
    u.add_argument("data")
    u.add_argument("tar")
    a = ap.parse_args()
    {"pack": pack, "run": run, "unpack": unpack}[a.cmd](a)


if __name__ == "__main__":
    main()
