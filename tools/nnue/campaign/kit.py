#!/usr/bin/env python3
"""Make chunks on another machine, many cores at once.

A chunk's two long steps split. Labelling: label.py labels every N-th line of a file (`--part K
--parts N`) with each label searched from a cleared table, so parts labelled on any machine, in
any order, put back together give the file one run would have made. Playing: every game is
played from its own opening at fixed nodes by engines whose tables `ucinewgame` clears, so a
slice of a chunk's openings played by itself (gen_games.sh with OPENINGS) gives the same games as
the whole file, and the slices' games put back together in order are the games of one run. This
tool packs what such a machine needs, runs the pieces there and brings back only what cannot be
made again here cheaply, small enough for a narrow link:

  kit.py pack DATA KIT ID...   rows of relabels.tsv, passes.tsv or chunks.tsv (one engine, built
                               in DATA by `campaign.sh DATA build`) into KIT: the engine, label.py
                               and this script, compressed; for a relabelled chunk the quiet
                               positions of its source; for a pass its quiet positions, made
                               here first (`campaign.sh DATA quiet ID`); for a chunk to play
                               its openings (drawn here from its seed, as gen_games.sh would),
                               the engine's tuner, gen_games.sh, positions.sh and extract.py,
                               the match runner (FASTCHESS; it must run there: build it static,
                               as `make build=release` does fastchess) and the python-chess
                               that extract.py imports (the one installed here). The kit's
                               manifest carries each chunk's row as it stands in its recipe file
  kit.py run KIT OUT [--seconds S] [--parts N] [--jobs J] [--only ID...]
                               on the machine: J pieces at once (default: one a core), stopping
                               at S seconds, chunk after chunk in the kit's order: a chunk to
                               play in N slices of games, then its positions (positions.sh, as
                               `campaign.sh make` runs it), then its labels in N parts.
                               Each chunk whose pieces all finished goes into OUT/labels.tar
                               as soon as they have, the tar flushed after each: its labels
                               (one token a quiet line: the label, or x where the search found
                               a mate and label.py drops it) and, for a played chunk, its
                               games. The deadline stops the pieces, not the packing of the
                               last chunks or the cleaning up: leave the machine's limit a
                               minute past S; a run cut off there still leaves, in the tar, the
                               chunks packed before. --only: just these chunks of the kit (a
                               second call on a machine still warm, for what the first left)
  kit.py unpack DATA TAR       back here: a played chunk's positions made again from its games
                               (positions.sh with the engine's tuner), then each chunk's file
                               from its quiet positions and the tokens, then `campaign.sh DATA
                               settle`: its count and checksum written into its row (a `-` row)
                               or checked against it. A tar cut off is read up to the cut.

Nothing in the kit is trusted blindly: `unpack` refuses a played chunk whose games are not as many
as its row says, labels made for other quiet positions than those here (the kit brings back their
checksum) or not as many, and a row that already has a checksum must be met byte for byte. It
holds the chunk's lock, as `make` does, while it writes.
"""
import argparse
import hashlib
import io
import lzma
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TUNE = os.path.join(HERE, "..", "..", "tune")
MANIFEST = "manifest.tsv"
DROPPED = "x"
RELABELS, PASSES, CHUNKS = "relabels.tsv", "passes.tsv", "chunks.tsv"


def die(msg, code=1):
    print(f"kit: {msg}", file=sys.stderr)
    sys.exit(code)


def recipe_rows(name):
    """The rows of a recipe file of this directory by chunk id (the fields after the id)."""
    rows = {}
    if not os.path.exists(os.path.join(HERE, name)):
        return rows
    with open(os.path.join(HERE, name)) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            k, *rest = line.rstrip("\n").split("\t")
            rows[k] = rest
    return rows


class Chunk:
    """A row to make elsewhere, read from its recipe file: relabelled (relabels.tsv: source,
    engine, label nodes, ...), a pass (passes.tsv: source, children, seed, engine, label nodes,
    ...) or played (chunks.tsv: engine, seed, games, nodes, label nodes, DFRC share, plies,
    children, ...). The kit's manifest carries the rows themselves, so the machine that runs it
    reads them the way this one does."""

    def __init__(self, cid, recipe, fields):
        self.id, self.recipe, self.fields = cid, recipe, fields
        self.played = recipe == CHUNKS
        if self.played:
            (self.engine, self.seed, self.games, self.nodes, self.label_nodes, self.dfrc,
             self.plies, self.children) = fields[:8]
        elif recipe == PASSES:
            self.source, self.children, self.seed, self.engine, self.label_nodes = fields[:5]
        else:
            self.source, self.engine, self.label_nodes = fields[:3]
        # The chunk whose quiet positions are labelled: a relabelled chunk's source; a pass and a
        # played chunk have their own.
        self.quiet_of = self.source if recipe == RELABELS else cid

    @staticmethod
    def of(cid, recipes):
        """Chunk cid of the recipe files' rows (recipe file -> rows by id), or a usage error."""
        for recipe, rows in recipes.items():
            if cid in rows:
                return Chunk(cid, recipe, rows[cid])
        die(f"not a row of {', '.join(recipes)}: {cid}", 2)

    def labelled(self):
        return self.label_nodes != "0"

    def manifest_line(self):
        """The line of the kit's manifest: the recipe file, then the row as it stands there."""
        return "\t".join([self.recipe, self.id, *self.fields])

    @staticmethod
    def from_manifest(line):
        recipe, cid, *fields = line.rstrip("\n").split("\t")
        if recipe not in (RELABELS, PASSES, CHUNKS):
            die(f"{MANIFEST}: not a line a kit writes: {line.strip()}")
        return Chunk(cid, recipe, fields)


def xz_file(src, dst):
    with open(src, "rb") as s, lzma.open(dst, "wb", preset=6) as d:
        shutil.copyfileobj(s, d)


def unxz_file(src, dst, mode=None):
    with lzma.open(src) as s, open(dst, "wb") as d:
        shutil.copyfileobj(s, d)
    if mode is not None:
        os.chmod(dst, mode)


def python_chess():
    """The directory of the python-chess package installed here."""
    try:
        import chess
    except ImportError:
        die("python-chess is not installed here (pip install chess); a kit with games needs it")
    return os.path.dirname(os.path.abspath(chess.__file__))


def all_rows():
    return {r: recipe_rows(r) for r in (RELABELS, PASSES, CHUNKS)}


def pack(a):
    recipes = all_rows()
    todo = [Chunk.of(i, recipes) for i in a.ids]
    for c in todo:
        # A played chunk's games are made there; a relabelled chunk or a pass has only labels to
        # be made there, and one of label nodes 0 none: campaign.sh makes it here in seconds.
        if not c.played and not c.labelled():
            die(f"{c.id}: no labels to make elsewhere (label nodes 0): campaign.sh DATA make {c.id} makes it here", 2)
    engines = {c.engine for c in todo}
    if len(engines) != 1:
        die(f"one engine a kit, these rows name {' '.join(sorted(engines))}", 2)
    edir = os.path.join(a.data, "engines", engines.pop())
    engine = os.path.join(edir, "chess960")
    if not all(os.path.exists(os.path.join(edir, f)) for f in ["chess960", "tune", "BUILT"]):
        die(f"no engine built in {edir} (campaign.sh DATA build NAME first)")
    played = [c for c in todo if c.played]
    fastchess = os.environ.get("FASTCHESS", "")
    if played and not os.access(fastchess, os.X_OK):
        die("set FASTCHESS to the match runner the kit carries (a static build)", 2)
    os.makedirs(os.path.join(a.kit, "inputs"), exist_ok=True)
    xz_file(engine, os.path.join(a.kit, "engine.xz"))
    shutil.copy(os.path.join(TUNE, "label.py"), os.path.join(a.kit, "label.py"))
    shutil.copy(os.path.abspath(__file__), os.path.join(a.kit, "kit.py"))
    if played:
        xz_file(os.path.join(edir, "tune"), os.path.join(a.kit, "tune.xz"))
        xz_file(fastchess, os.path.join(a.kit, "fastchess.xz"))
        for f in ["gen_games.sh", "positions.sh", "extract.py"]:
            shutil.copy(os.path.join(TUNE, f), os.path.join(a.kit, f))
        with tarfile.open(os.path.join(a.kit, "pylib.tar.xz"), "w:xz") as t:
            t.add(python_chess(), arcname="chess",
                  filter=lambda i: None if "__pycache__" in i.name else i)
    packed = set()
    with open(os.path.join(a.kit, MANIFEST), "w") as m:
        for c in todo:
            if c.played:
                epd = os.path.join(a.kit, "inputs", f"{c.id}.epd")
                subprocess.run([sys.executable, os.path.join(TUNE, "gen_openings.py"), epd,
                                "--count", c.games, "--plies", c.plies, "--seed", c.seed,
                                "--dfrc-share", c.dfrc], check=True, stdout=subprocess.DEVNULL)
                xz_file(epd, epd + ".xz")
                os.remove(epd)
            else:
                if c.recipe == PASSES:
                    # Made here (seconds, once its source is here), and kept here for unpack to
                    # check the labels against.
                    subprocess.run(["bash", os.path.join(HERE, "campaign.sh"), a.data, "quiet",
                                    c.id], check=True)
                quiet = os.path.join(a.data, "chunks", c.quiet_of, "quiet.txt")
                if not os.path.exists(quiet):
                    die(f"chunk {c.id}: no quiet positions in {quiet} (campaign.sh DATA make {c.source})")
                if c.quiet_of not in packed:
                    xz_file(quiet, os.path.join(a.kit, "inputs", f"{c.quiet_of}.xz"))
                    packed.add(c.quiet_of)
            m.write(c.manifest_line() + "\n")
    print(f"kit: {len(todo)} chunks packed into {a.kit}")


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


class Jobs:
    """Pieces of work with the pieces each waits for, taken by worker threads in their order as
    soon as what they wait for is done, until a deadline. A piece that fails or runs out of time
    takes with it every piece that waits for it."""

    def __init__(self, deadline, logs):
        self.deadline = deadline
        self.logs = logs  # each piece's stderr goes to a file here, named after its key
        self.pending = []  # (key, waits_for, command, environment), in order
        self.done, self.failed = set(), set()
        self.running = 0
        self.cond = threading.Condition()

    def add(self, key, waits_for, cmd, env=None):
        self.pending.append((key, set(waits_for), cmd, env))

    def _take(self):
        """The first piece ready to run, or None when no piece can run any more."""
        with self.cond:
            while True:
                for job in [j for j in self.pending if j[1] & self.failed]:
                    self.pending.remove(job)
                    self.failed.add(job[0])
                ready = next((j for j in self.pending if j[1] <= self.done), None)
                if ready is not None and time.time() < self.deadline:
                    self.pending.remove(ready)
                    self.running += 1
                    return ready
                if ready is not None or not self.pending or self.running == 0:
                    return None
                self.cond.wait(timeout=1)

    def _worker(self):
        while True:
            job = self._take()
            if job is None:
                return
            key, _, cmd, env = job
            ok = False
            try:
                left = self.deadline - time.time()
                if left > 0:
                    log = os.path.join(self.logs, ".".join(map(str, key)) + ".log")
                    with open(log, "w") as err:
                        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err,
                                                start_new_session=True, env=env)
                        try:
                            ok = proc.wait(timeout=left) == 0
                        except subprocess.TimeoutExpired:
                            os.killpg(proc.pid, signal.SIGKILL)
                            proc.wait()
                            err.write("kit: stopped at the deadline\n")
            except OSError as e:
                print(f"{key}: {e}", file=sys.stderr)
            finally:
                # Whatever happened, the piece is over: the others must not wait for it.
                with self.cond:
                    self.running -= 1
                    (self.done if ok else self.failed).add(key)
                    self.cond.notify_all()

    def run(self, workers):
        threads = [threading.Thread(target=self._worker) for _ in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def slices(lines, n):
    """Lines cut into at most n contiguous, nearly equal, non-empty slices, in order."""
    n = max(1, min(n, len(lines)))
    cuts = [len(lines) * k // n for k in range(n + 1)]
    return [lines[cuts[k]:cuts[k + 1]] for k in range(n)]


def run(a):
    kit = os.path.abspath(a.kit)
    work = tempfile.mkdtemp(prefix="kit-")
    engine = os.path.join(work, "chess960")
    unxz_file(os.path.join(kit, "engine.xz"), engine, 0o755)
    chunks = [Chunk.from_manifest(l) for l in open(os.path.join(kit, MANIFEST)) if l.strip()]
    if a.only:
        # A later call on a machine still warm: the chunks a first call did not finish, without
        # a new kit (packing and carrying it again would cost more than the labels).
        held = [c.id for c in chunks]
        unknown = [cid for cid in a.only if cid not in held]
        if unknown:
            die(f"not in {a.kit}: {' '.join(unknown)} (it holds {' '.join(held)})", 2)
        chunks = [c for c in chunks if c.id in a.only]
    env = dict(os.environ, POSITIONS_PYTHON=sys.executable)
    if any(c.played for c in chunks):
        for name in ["tune", "fastchess"]:
            unxz_file(os.path.join(kit, f"{name}.xz"), os.path.join(work, name), 0o755)
        with tarfile.open(os.path.join(kit, "pylib.tar.xz")) as t:
            t.extractall(os.path.join(work, "pylib"))
        env["PYTHONPATH"] = os.path.join(work, "pylib")
        env["FASTCHESS"] = os.path.join(work, "fastchess")
    logs = os.path.join(work, "logs")
    os.makedirs(logs)
    jobs = Jobs(time.time() + a.seconds, logs)
    quiet_of, finish = {}, {}
    for c in chunks:
        cid = c.id
        if c.played:
            d = os.path.join(work, cid)
            os.makedirs(d)
            with lzma.open(os.path.join(kit, "inputs", f"{cid}.epd.xz"), "rt") as f:
                openings = f.readlines()
            waits = []
            for k, part in enumerate(slices(openings, a.parts)):
                epd = os.path.join(d, f"slice{k}.epd")
                with open(epd, "w") as f:
                    f.writelines(part)
                cmd = ["bash", os.path.join(kit, "gen_games.sh"), engine, os.path.join(d, f"s{k}"),
                       str(len(part)), c.nodes, c.seed]
                jobs.add((cid, "slice", k), [], cmd, dict(env, OPENINGS=epd))
                waits.append((cid, "slice", k))
            # The slices' games in order, then the positions as `campaign.sh make` takes them
            # (positions.sh checks that no game is missing).
            q = shlex.quote
            pgns = " ".join(q(os.path.join(d, f"s{k}", "games.pgn")) for k in range(len(waits)))
            games = os.path.join(d, "games.pgn")
            script = f"cat {pgns} > {q(games)} && " + shlex.join([
                "bash", os.path.join(kit, "positions.sh"), os.path.join(work, "tune"), games,
                os.path.join(d, "positions.txt"), os.path.join(d, "quiet.txt"), c.children,
                c.seed, str(len(openings))])
            jobs.add((cid, "positions"), waits, ["bash", "-c", script], env)
            quiet_of[cid] = os.path.join(d, "quiet.txt")
            first = [(cid, "positions")]
        else:
            quiet_of[cid] = os.path.join(work, f"{c.quiet_of}.txt")
            if not os.path.exists(quiet_of[cid]):
                unxz_file(os.path.join(kit, "inputs", f"{c.quiet_of}.xz"), quiet_of[cid])
            first = []
        labels = []
        if c.labelled():
            for p in range(a.parts):
                out = os.path.join(work, f"{cid}.{p}")
                cmd = [sys.executable, os.path.join(kit, "label.py"), quiet_of[cid], out,
                       "--engine", engine, "--nodes", c.label_nodes, "--part", str(p),
                       "--parts", str(a.parts)]
                jobs.add((cid, "label", p), first, cmd, env)
                labels.append((cid, "label", p))
        finish[cid] = first + labels
    # The pieces run in a thread of their own while this one packs each chunk as soon as all its
    # pieces are done, flushing the tar after each: a run cut off by its machine's limit (the
    # deadline stops the pieces, not what comes after) still leaves the chunks it finished.
    runner = threading.Thread(target=jobs.run, args=(a.jobs,))
    runner.start()
    os.makedirs(a.out, exist_ok=True)
    finished, packed = 0, set()

    def add(tar, name, data):
        blob = lzma.compress(data)
        info = tarfile.TarInfo(name)
        info.size = len(blob)
        tar.addfile(info, io.BytesIO(blob))

    def pack_chunk(tar, c):
        """Chunk c's members into the tar; whether it went in."""
        cid = c.id
        with open(quiet_of[cid], "rb") as f:
            raw = f.read()
        quiet = [l.strip() for l in raw.decode().splitlines()]
        parts = [k for k in finish[cid] if k[1] == "label"]
        members = [(f"{cid}.quiet.sha256.xz", hashlib.sha256(raw).hexdigest().encode())]
        if parts:
            tokens = merge(quiet, [[l.rstrip("\n") for l in open(os.path.join(work, f"{cid}.{p}"))]
                                   for _, _, p in parts])
            if tokens is None:
                print(f"{cid}: its parts do not fit its quiet lines, left out", flush=True)
                return False
            members.append((f"{cid}.labels.xz", ("\n".join(tokens) + "\n").encode()))
            labelled = len(quiet) - tokens.count(DROPPED)
        else:
            labelled = 0
        if c.played:
            with open(os.path.join(work, cid, "games.pgn"), "rb") as f:
                members.append((f"{cid}.pgn.xz", f.read()))
        for name, data in members:
            add(tar, name, data)
        tar.fileobj.flush()
        print(f"{cid}: {len(quiet)} quiet lines, {labelled} labelled", flush=True)
        return True

    with tarfile.open(os.path.join(a.out, "labels.tar"), "w") as tar:
        while True:
            with jobs.cond:
                # Read before the chunks: once the runner has ended, `done` is final.
                running = runner.is_alive()
                ready = [c for c in chunks if c.id not in packed
                         and all(k in jobs.done for k in finish[c.id])]
                if not ready:
                    if not running:
                        break
                    jobs.cond.wait(timeout=1)
                    continue
            for c in ready:
                packed.add(c.id)
                finished += pack_chunk(tar, c)
        runner.join()
    for c in chunks:
        cid = c.id
        if cid in packed:
            continue
        # The end of the stderr of each piece that ran and failed (or met the deadline).
        failed = [k for k in jobs.failed if k[0] == cid]
        name = lambda k: ".".join(map(str, k)) + ".log"
        ran = [k for k in failed if os.path.exists(os.path.join(logs, name(k)))]
        print(f"{cid}: not finished ({len(ran)} pieces failed or stopped, logs in "
              f"{os.path.join(a.out, 'logs')}; {len(failed) - len(ran)} waited for them)")
        os.makedirs(os.path.join(a.out, "logs"), exist_ok=True)
        for k in ran:
            path = os.path.join(logs, name(k))
            with open(path, "rb") as f:
                f.seek(max(0, os.path.getsize(path) - 4096))
                tail = f.read()
            with open(os.path.join(a.out, "logs", name(k)), "wb") as f:
                f.write(tail)
    shutil.rmtree(work, ignore_errors=True)
    print(f"kit: {finished} of {len(chunks)} chunks finished")


SUFFIXES = (".labels.xz", ".pgn.xz", ".quiet.sha256.xz")


def unpack_one(a, tar, members, c):
    """Chunk c's file made here from the tar's members, or a reason why not. Nothing on disk is
    touched before every member the chunk needs is found."""
    read = lambda name: lzma.decompress(tar.extractfile(members[name]).read())
    need = [f"{c.id}.quiet.sha256.xz"]
    need += [f"{c.id}.pgn.xz"] if c.played else []
    need += [f"{c.id}.labels.xz"] if c.labelled() else []
    missing = [n for n in need if n not in members]
    if missing:
        return f"not in {a.tar}: {' '.join(missing)}"
    d = os.path.join(a.data, "chunks", c.id)
    if c.played:
        games = read(f"{c.id}.pgn.xz")
        n = games.count(b"\n[Result ") + games.startswith(b"[Result ")
        if n != int(c.games):
            return f"{n} games, its row says {c.games}"
        # Its positions made again here, as `campaign.sh make` makes them (the games counted
        # above, before anything on disk was touched).
        subprocess.run(["bash", os.path.join(HERE, "campaign.sh"), a.data, "build", c.engine],
                       check=True)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(d, "games"))
        pgn = os.path.join(d, "games", "games.pgn")
        with open(pgn, "wb") as f:
            f.write(games)
        made = subprocess.run(["bash", os.path.join(TUNE, "positions.sh"),
                               os.path.join(a.data, "engines", c.engine, "tune"), pgn,
                               os.path.join(d, "positions.txt"), os.path.join(d, "quiet.txt"),
                               c.children, c.seed], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True,
                              env=dict(os.environ, POSITIONS_PYTHON=sys.executable))
        if made.returncode != 0:
            last = (made.stderr.strip().splitlines() or ["no message"])[-1]
            return f"its positions could not be made from its games: {last}"
        quiet_path = os.path.join(d, "quiet.txt")
    else:
        # A relabelled chunk's source, or a pass's own (made when it was packed).
        quiet_path = os.path.join(a.data, "chunks", c.quiet_of, "quiet.txt")
        if not os.path.exists(quiet_path):
            return f"no quiet positions in {quiet_path}"
    # The labels belong to the quiet lines they were made for, not just to as many lines.
    with open(quiet_path, "rb") as f:
        raw = f.read()
    here = hashlib.sha256(raw).hexdigest()
    there = read(f"{c.id}.quiet.sha256.xz").decode().strip()
    if here != there:
        return f"its quiet positions here (sha256 {here}) are not those labelled there ({there})"
    if c.labelled():
        tokens = read(f"{c.id}.labels.xz").decode().split()
        quiet = [l.strip() for l in raw.decode().splitlines()]
        if len(tokens) != len(quiet):
            return f"{len(tokens)} labels for {len(quiet)} quiet positions"
        if any(t != DROPPED and not t.lstrip("-").isdigit() for t in tokens):
            return "a label that is not a whole number of centipawns"
        os.makedirs(d, exist_ok=True)
        tmp = os.path.join(d, "labelled.txt.tmp")
        with open(tmp, "w") as f:
            for line, t in zip(quiet, tokens):
                if t != DROPPED:
                    f.write(f"{line};{t}\n")
        os.replace(tmp, os.path.join(d, "labelled.txt"))
    # The row is recorded or checked by campaign.sh, as a chunk made there would be.
    settled = subprocess.run(["bash", os.path.join(HERE, "campaign.sh"), a.data, "settle", c.id])
    return None if settled.returncode == 0 else "settle failed"


def read_members(path, tar):
    """The tar's members by name, up to where it is cut off: a run stopped by its machine's limit
    leaves the chunks it packed before the cut (a member whose data the cut shortened is left
    out, and its chunk with it, since unpack needs all of a chunk's members)."""
    members = {}
    last = None
    try:
        for m in tar:
            members[m.name] = last = m
    except tarfile.ReadError as e:
        # Raised on the way to the member after `last`: `last`'s data is cut short.
        if last is not None:
            del members[last.name]
        print(f"kit: {path} is cut off ({e}); the members before the cut are read, "
              f"{last.name if last else 'none'} is not", file=sys.stderr)
    return members


def unpack(a):
    recipes = all_rows()
    failed = 0
    with tarfile.open(a.tar) as tar:
        members = read_members(a.tar, tar)
        ids = []
        for name in members:
            cid = next((name.removesuffix(x) for x in SUFFIXES if name.endswith(x)), None)
            if cid is None:
                die(f"{name}: not a member a kit writes")
            if cid not in ids:
                ids.append(cid)
        for cid in ids:
            c = Chunk.of(cid, recipes)
            # The chunk's lock, as `campaign.sh make` takes it: no make writes it meanwhile.
            lock = os.path.join(a.data, "locks", cid)
            os.makedirs(os.path.dirname(lock), exist_ok=True)
            try:
                os.mkdir(lock)
            except FileExistsError:
                print(f"kit: chunk {cid}: being made by another run, left", file=sys.stderr)
                failed += 1
                continue
            try:
                why = unpack_one(a, tar, members, c)
            finally:
                os.rmdir(lock)
            if why is not None:
                print(f"kit: chunk {cid}: {why}", file=sys.stderr)
                failed += 1
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
    r.add_argument("--only", nargs="+", metavar="ID", help="just these of the kit's chunks")
    u = sub.add_parser("unpack")
    u.add_argument("data")
    u.add_argument("tar")
    a = ap.parse_args()
    {"pack": pack, "run": run, "unpack": unpack}[a.cmd](a)


if __name__ == "__main__":
    main()
