//! The own-data campaign's recipes (tools/nnue/campaign): the root it starts
//! from owes nothing to Stockfish, and every chunk and engine row names
//! what makes it again.
//!
//! The chunks themselves are minutes of self-play each and stay outside the
//! repository; these checks read only the committed recipes and run
//! `make_root.py` on a copy of the evaluation's files.

mod support;

use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use chess960::eval::nnue::{NetFile, Network};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn campaign(file: &str) -> PathBuf {
    repo().join("tools/nnue/campaign").join(file)
}

/// The rows of a TSV recipe: comment and blank lines skipped, fields split.
fn rows(file: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(campaign(file)).expect("recipe file");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// The first field of every row of a TSV recipe: its names.
fn names(file: &str) -> HashSet<String> {
    rows(file).into_iter().map(|r| r[0].clone()).collect()
}

/// The weight pairs of a weights.rs file, by group name, in file order.
fn groups(text: &str) -> Vec<(String, Vec<(i32, i32)>)> {
    let mut out: Vec<(String, Vec<(i32, i32)>)> = Vec::new();
    let body = &text[text.find("pub const WEIGHTS").expect("WEIGHTS")..];
    for line in body.lines() {
        let t = line.trim();
        // A comment names the group whose pairs follow (the piece-square
        // groups add a note in brackets after the name).
        if let Some(name) = t.strip_prefix("// ") {
            out.push((
                name.split_whitespace().next().unwrap_or("").to_owned(),
                vec![],
            ));
            continue;
        }
        for pair in t.split("),").filter(|p| p.contains('(')) {
            let nums: Vec<i32> = pair
                .trim_matches(|c: char| c == '(' || c == ')' || c == ',' || c.is_whitespace())
                .split(',')
                .map(|n| n.trim().parse().expect("weight"))
                .collect();
            out.last_mut().expect("a group").1.push((nums[0], nums[1]));
        }
    }
    out
}

const HAND_SET: [&str; 5] = [
    "outpost_knight",
    "outpost_bishop",
    "rook_seventh",
    "backward",
    "safe_check",
];

#[test]
fn the_root_has_no_fitted_weight_and_a_silent_network() {
    if !support::python3_present() {
        return;
    }
    let dir = support::temp_dir("campaign-root");
    let eval = dir.join("src/eval");
    std::fs::create_dir_all(eval.join("handmade")).unwrap();
    let weights = repo().join("src/eval/handmade/weights.rs");
    std::fs::copy(&weights, eval.join("handmade/weights.rs")).unwrap();
    std::fs::copy(repo().join("src/eval/net.bin"), eval.join("net.bin")).unwrap();
    let status = Command::new("python3")
        .arg(campaign("make_root.py"))
        .arg(&dir)
        .status()
        .expect("python3");
    assert!(status.success());

    let before = groups(&std::fs::read_to_string(&weights).unwrap());
    let after = groups(&std::fs::read_to_string(eval.join("handmade/weights.rs")).unwrap());
    assert_eq!(before.len(), after.len(), "the same groups");
    let mut fitted_nonzero = 0;
    for ((name, old), (name2, new)) in before.iter().zip(&after) {
        assert_eq!(name, name2);
        assert_eq!(old.len(), new.len(), "group {name} keeps its length");
        if HAND_SET.contains(&name.as_str()) {
            assert_eq!(old, new, "hand-set group {name} keeps its values");
        } else {
            fitted_nonzero += old.iter().filter(|w| **w != (0, 0)).count();
            assert!(
                new.iter().all(|w| *w == (0, 0)),
                "fitted group {name} is zero"
            );
        }
    }
    // The committed weights are fitted: the root really takes something out.
    assert!(fitted_nonzero > 100, "{fitted_nonzero} fitted weights");

    let net = Network::from_bytes(&std::fs::read(eval.join("net.bin")).unwrap()).expect("net");
    assert!(net.residual(), "a correction to the hand-made evaluation");
    for fen in [
        "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        let acc = net.refresh(pos.board());
        let pieces = pos.board().occupied().count();
        assert_eq!(net.evaluate(&acc, Color::White, pieces), 0);
        assert_eq!(net.evaluate(&acc, Color::Black, pieces), 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_engine_names_what_builds_it() {
    let lineage = rows("lineage.tsv");
    assert!(!lineage.is_empty());
    let mut names = HashSet::new();
    for r in &lineage {
        assert_eq!(r.len(), 6, "six fields: {r:?}");
        assert!(names.insert(r[0].clone()), "engine {} twice", r[0]);
        assert!(
            r[1].len() >= 7 && r[1].chars().all(|c| c.is_ascii_hexdigit()),
            "commit of {}",
            r[0]
        );
        for (field, none) in [(&r[2], "root"), (&r[3], "zero")] {
            assert!(
                field == none || repo().join(field).is_file(),
                "{}: {field} is neither {none} nor a file of the repository",
                r[0]
            );
        }
        assert!(r[4].parse::<u64>().is_ok(), "bench signature of {}", r[0]);
    }
    // The first engine is the root itself.
    assert_eq!(
        (lineage[0][2].as_str(), lineage[0][3].as_str()),
        ("root", "zero")
    );
}

/// The two fields every recipe row ends with (chunks.tsv, relabels.tsv, passes.tsv): a position
/// count above zero and a SHA-256 in hex.
fn assert_count_and_checksum(id: &str, row: &[String]) {
    let [.., positions, sum] = row else {
        panic!("{id}: no count and checksum: {row:?}");
    };
    assert!(
        positions.parse::<u64>().is_ok_and(|n| n > 0),
        "{id}: positions"
    );
    assert!(
        sum.len() == 64 && sum.chars().all(|c| c.is_ascii_hexdigit()),
        "{id}: sha256"
    );
}

#[test]
fn every_chunk_has_a_complete_recipe_and_a_checksum() {
    let engines = names("lineage.tsv");
    let mut ids = HashSet::new();
    let mut seeds = HashSet::new();
    for r in rows("chunks.tsv") {
        assert_eq!(r.len(), 11, "eleven fields: {r:?}");
        let id = &r[0];
        assert!(ids.insert(id.clone()), "chunk {id} twice");
        assert!(
            engines.contains(&r[1]),
            "chunk {id}: engine {} unknown",
            r[1]
        );
        assert!(
            seeds.insert(r[2].clone()),
            "chunk {id}: seed {} used twice",
            r[2]
        );
        for (i, what) in [
            (3, "games"),
            (4, "nodes"),
            (5, "label nodes"),
            (7, "plies"),
            (8, "children"),
        ] {
            assert!(r[i].parse::<u64>().is_ok(), "chunk {id}: {what}");
        }
        let share: f64 = r[6].parse().expect("DFRC share");
        assert!((0.0..=1.0).contains(&share));
        assert_count_and_checksum(&format!("chunk {id}"), &r);
    }
}

/// The part of `text` after the first `start`, up to the next `end` (or
/// its end); `None` when `start` is not in it.
fn between<'a>(text: &'a str, start: &str, end: char) -> Option<&'a str> {
    let (_, rest) = text.split_once(start)?;
    rest.split(end).next()
}

#[test]
fn fitted_weights_come_from_the_campaign_and_keep_their_frozen_groups() {
    // Every weights file an engine takes from the repository was fitted by
    // the tuner of an engine of the lineage to chunks of the campaign (its
    // header says which), and the groups its command froze are the root's:
    // the PeSTO corrections at zero, the hand-set rows as main has them.
    let root =
        groups(&std::fs::read_to_string(repo().join("src/eval/handmade/weights.rs")).unwrap());
    let engines = names("lineage.tsv");
    let chunks = names("chunks.tsv");
    // Many engines share one weights file: each file is checked once.
    let files: std::collections::BTreeSet<String> = rows("lineage.tsv")
        .into_iter()
        .map(|r| r[2].clone())
        .filter(|w| w != "root")
        .collect();
    for file in &files {
        let text = std::fs::read_to_string(repo().join(file)).unwrap();
        let header: String = text
            .lines()
            .filter_map(|l| l.strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join(" ");
        let tuner = between(&header, "with the tuner of engine `", '`')
            .unwrap_or_else(|| panic!("{file}: its header names the tuner"));
        assert!(engines.contains(tuner), "{file}: tuner {tuner} unknown");
        let range = between(&header, " is chunks ", ' ')
            .unwrap_or_else(|| panic!("{file}: its header names the chunks"));
        for id in range.split('-') {
            assert!(chunks.contains(id), "{file}: chunk {id} unknown");
        }
        let command = between(&header, "Command: `", '`')
            .unwrap_or_else(|| panic!("{file}: its header gives the command"));
        let frozen: Vec<&str> = between(command, "--freeze ", ' ')
            .map(|f| f.split(',').collect())
            .unwrap_or_default();
        let fitted = groups(&text);
        assert_eq!(fitted.len(), root.len(), "{file}: same groups");
        let mut checked = 0;
        for ((name, old), (_, new)) in root.iter().zip(&fitted) {
            if !frozen.iter().any(|f| name.starts_with(f)) {
                continue;
            }
            checked += 1;
            if name.starts_with("psqt") {
                assert!(
                    new.iter().all(|w| *w == (0, 0)),
                    "{file}: {name} is PeSTO's"
                );
            } else if HAND_SET.contains(&name.as_str()) {
                assert_eq!(old, new, "{file}: hand-set {name}");
            }
        }
        assert!(
            frozen.is_empty() || checked > 0,
            "{file}: the frozen groups exist"
        );
    }
}

#[test]
fn every_network_is_the_one_its_recipe_made() {
    let engines = names("lineage.tsv");
    let chunks: HashSet<String> = ["chunks.tsv", "relabels.tsv", "passes.tsv"]
        .into_iter()
        .flat_map(names)
        .collect();
    let nets = rows("nets.tsv");
    let mut named = HashSet::new();
    for r in &nets {
        assert_eq!(r.len(), 5, "five fields: {r:?}");
        assert!(named.insert(r[0].clone()), "network {} twice", r[0]);
        assert!(engines.contains(&r[1]), "{}: tuner {} unknown", r[0], r[1]);
        for id in r[2].split(',') {
            assert!(chunks.contains(id), "{}: chunk {id} unknown", r[0]);
        }
        // A fine-tune starts from a network of the lineage made before it (never from the
        // committed, Stockfish-taught one), so the chain of recipes ends at the root.
        let args: Vec<&str> = r[3].split_whitespace().collect();
        for pair in args.windows(2).filter(|w| w[0] == "--init") {
            assert!(
                named.contains(pair[1]) && pair[1] != r[0],
                "{}: --init {} is not an earlier network of nets.tsv",
                r[0],
                pair[1]
            );
        }
        let bytes = std::fs::read(repo().join(&r[0])).expect("the network file");
        let sum = sha256_hex(&bytes);
        assert_eq!(
            sum, r[4],
            "{}: the committed file is not the recorded one",
            r[0]
        );
        let net = NetFile::parse(&bytes).expect("a network file (of any width)");
        // The file is the kind of network its recipe asked for: a
        // correction to the hand-made weights with `--residual`, a whole
        // evaluation without.
        assert_eq!(
            net.residual,
            args.contains(&"--residual"),
            "{}: the network's kind is not its recipe's",
            r[0]
        );
    }
    // Every network an engine plays with has its recipe.
    for r in rows("lineage.tsv") {
        assert!(
            r[3] == "zero" || named.contains(&r[3]),
            "{}: network {} has no row in nets.tsv",
            r[0],
            r[3]
        );
    }
}

#[test]
fn every_relabelled_chunk_names_its_source_and_engine() {
    let engines = names("lineage.tsv");
    let chunks = names("chunks.tsv");
    let sources: HashSet<String> = chunks.union(&names("passes.tsv")).cloned().collect();
    let mut ids = HashSet::new();
    for r in rows("relabels.tsv") {
        assert_eq!(r.len(), 6, "six fields: {r:?}");
        let id = &r[0];
        assert!(ids.insert(id.clone()), "relabelled chunk {id} twice");
        assert!(!chunks.contains(id), "{id} is also a chunk of chunks.tsv");
        assert!(sources.contains(&r[1]), "{id}: source {} unknown", r[1]);
        assert!(engines.contains(&r[2]), "{id}: engine {} unknown", r[2]);
        assert!(
            r[3].parse::<u64>().is_ok_and(|n| n > 0),
            "{id}: label nodes"
        );
        assert_count_and_checksum(id, &r);
    }
}

#[test]
fn every_pass_names_its_source_engine_and_seed() {
    let engines = names("lineage.tsv");
    let chunks = rows("chunks.tsv");
    let others: HashSet<String> = names("chunks.tsv")
        .union(&names("relabels.tsv"))
        .cloned()
        .collect();
    let mut ids = HashSet::new();
    for r in rows("passes.tsv") {
        assert_eq!(r.len(), 8, "eight fields: {r:?}");
        let id = &r[0];
        assert!(ids.insert(id.clone()), "pass {id} twice");
        assert!(
            !others.contains(id),
            "{id} is also a chunk of another recipe file"
        );
        let source = chunks
            .iter()
            .find(|c| c[0] == r[1])
            .unwrap_or_else(|| panic!("{id}: source {} is not a chunk of chunks.tsv", r[1]));
        // Another seed than the source's, or its neighbours would be the source's again.
        assert_ne!(source[2], r[3], "{id}: the source's seed");
        assert!(r[2].parse::<u64>().is_ok_and(|n| n > 0), "{id}: children");
        assert!(r[3].parse::<u64>().is_ok(), "{id}: seed");
        assert!(engines.contains(&r[4]), "{id}: engine {} unknown", r[4]);
        // 0: the pass's quiet positions alone, for another teacher.
        assert!(r[5].parse::<u64>().is_ok(), "{id}: label nodes");
        assert_count_and_checksum(id, &r);
    }
}

/// Every set of tools/nnue/static_sets.tsv names a teacher and parts that are chunks of
/// chunks.tsv or passes of passes.tsv, each once, with its line count and checksum; a set that
/// begins with another's parts has at least its lines; and tools/nnue/README.md, which gives the
/// recipes in words, states the same checksum for each set it names.
#[test]
fn every_static_set_names_campaign_parts_and_a_checksum() {
    let text = std::fs::read_to_string(repo().join("tools/nnue/static_sets.tsv")).unwrap();
    let sets: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert!(!sets.is_empty());
    let known: HashSet<String> = names("chunks.tsv")
        .union(&names("passes.tsv"))
        .cloned()
        .collect();
    let readme = std::fs::read_to_string(repo().join("tools/nnue/README.md")).unwrap();
    for set in &sets {
        let [id, teacher, parts, lines, sum] = set[..] else {
            panic!("five fields: {set:?}");
        };
        assert!(!teacher.is_empty(), "{id}: a teacher");
        let parts: Vec<&str> = parts.split(',').collect();
        let mut seen = HashSet::new();
        for p in &parts {
            assert!(known.contains(*p), "{id}: part {p} is no chunk or pass");
            assert!(seen.insert(*p), "{id}: part {p} twice");
        }
        let row: Vec<String> = set.iter().map(|f| f.to_string()).collect();
        assert_count_and_checksum(id, &row);
        if readme.contains(&format!("`{id}.txt`")) {
            assert!(
                readme.contains(&format!("SHA-256 `{sum}`")),
                "README states {id}'s checksum {sum}"
            );
        }
        for other in &sets {
            let other_parts: Vec<&str> = other[2].split(',').collect();
            if other[0] != id && parts.starts_with(&other_parts) {
                let n: u64 = lines.parse().unwrap();
                assert!(
                    n >= other[3].parse::<u64>().unwrap(),
                    "{id} holds {}",
                    other[0]
                );
            }
        }
    }
}

/// The SHA-256 of `bytes` in hex, as the recipes record it.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// campaign.sh and kit.py copied into `dir`'s copy of the repository's layout, with these scripts
/// of tools/tune beside them; the copy's campaign directory.
fn copy_scripts(dir: &Path, tune_files: &[&str]) -> PathBuf {
    let here = dir.join("repo/tools/nnue/campaign");
    let tune = dir.join("repo/tools/tune");
    std::fs::create_dir_all(&here).unwrap();
    std::fs::create_dir_all(&tune).unwrap();
    for f in ["campaign.sh", "kit.py"] {
        std::fs::copy(campaign(f), here.join(f)).unwrap();
    }
    for f in tune_files {
        std::fs::copy(repo().join("tools/tune").join(f), tune.join(f)).unwrap();
    }
    here
}

/// A copy of the campaign's layout in a temporary directory: campaign.sh, kit.py and label.py,
/// a source chunk `s1` of the given quiet positions (FEN;result;game lines) already on disk with
/// its checksum, this build as engine `e`, and a row `s1@e` of relabels.tsv (300 nodes) with `-`
/// for its count and checksum. None where bash, flock or python3 is missing (and not required).
struct Layout {
    dir: PathBuf,
    here: PathBuf,
    data: PathBuf,
    relabels: PathBuf,
}

const RELABEL_HEADER: &str = "# chunk\tsource\tengine\tlabel_nodes\tpositions\tsha256\n";
const CHUNKS_HEADER: &str = "# chunk\tengine\tseed\tgames\tnodes\tlabel_nodes\tdfrc_share\tplies\tchildren\tpositions\tsha256\n";

/// Whether bash, flock and python3 are here for a copy of the campaign's scripts to run (a
/// notice where not, a failure where CHESS960_REQUIRE_BASH asks for them).
fn campaign_tools_present() -> bool {
    let tools = support::find_tool("bash").is_some() && support::find_tool("flock").is_some();
    support::python3_present()
        && support::tool_present(
            tools,
            "bash and flock",
            "CHESS960_REQUIRE_BASH",
            "apt-get install bash util-linux",
        )
}

/// Engine `e` of a copied layout, already "built" in `data`: this build plays and labels (and
/// stands in as its tuner, which only has to exist), in a lineage.tsv of that one row in `here`.
fn stand_in_engine(here: &Path, data: &Path) -> PathBuf {
    std::fs::write(
        here.join("lineage.tsv"),
        "# name\tcommit\tweights\tnet\tbench\tplays and labels\ne\t0000000\troot\tzero\t1\ta stand-in\n",
    )
    .unwrap();
    let engine = data.join("engines/e");
    std::fs::create_dir_all(&engine).unwrap();
    std::fs::copy(support::binary(), engine.join("chess960")).unwrap();
    std::fs::copy(support::binary(), engine.join("tune")).unwrap();
    std::fs::write(engine.join("BUILT"), "").unwrap();
    engine
}

/// Source chunk `s1` of a copied layout whose campaign directory is `here`: `games` games by
/// engine `e` and no labels, so its file is its quiet positions `quiet`, on disk in `data` with
/// its row of chunks.tsv (count and checksum recorded).
fn source_chunk(here: &Path, data: &Path, games: usize, quiet: &str) {
    std::fs::create_dir_all(data.join("chunks/s1")).unwrap();
    std::fs::write(data.join("chunks/s1/quiet.txt"), quiet).unwrap();
    std::fs::write(
        here.join("chunks.tsv"),
        format!(
            "{CHUNKS_HEADER}s1\te\t1\t{games}\t100\t0\t0\t0\t0\t{}\t{}\n",
            quiet.lines().count(),
            sha256_hex(quiet.as_bytes())
        ),
    )
    .unwrap();
}

/// A stand-in tuner at `path` whose `quiet IN OUT ...` keeps every position (a copy), for the
/// tests of the steps around `tune quiet` (the same program here and on any other machine). It
/// writes each call's arguments after the first two files, one line a call, to `path.args`.
fn copying_tuner(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::remove_file(path);
    std::fs::write(
        path,
        "#!/bin/sh\nout=\"$3\"; cp \"$2\" \"$out\"; shift 3; echo \"$*\" >> \"$0.args\"\n",
    )
    .unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The arguments the copying tuner at `path` was called with after its files, one line a call.
fn tuner_calls(path: &Path) -> String {
    std::fs::read_to_string(path.with_extension("args")).unwrap_or_default()
}

/// `campaign.sh DATA make ID` in a copied layout, with this match runner.
fn campaign_make(here: &Path, data: &Path, id: &str, fastchess: &Path) -> std::process::Output {
    Command::new("bash")
        .arg(here.join("campaign.sh"))
        .arg(data)
        .args(["make", id])
        .env("FASTCHESS", fastchess)
        .output()
        .expect("bash")
}

impl Layout {
    fn new(tag: &str, quiet_lines: &[&str]) -> Option<Layout> {
        if !campaign_tools_present() {
            return None;
        }
        let dir = support::temp_dir(tag);
        let here = copy_scripts(&dir, &["label.py"]);

        let quiet: String = quiet_lines.iter().map(|l| format!("{l}\n")).collect();
        let data = dir.join("data");
        source_chunk(&here, &data, quiet_lines.len(), &quiet);
        let relabels = here.join("relabels.tsv");
        std::fs::write(
            &relabels,
            format!("{RELABEL_HEADER}s1@e\ts1\te\t300\t-\t-\n"),
        )
        .unwrap();
        stand_in_engine(&here, &data);
        Some(Layout {
            dir,
            here,
            data,
            relabels,
        })
    }

    /// `campaign.sh DATA make s1@e`.
    fn make(&self) -> std::process::Output {
        campaign_make(&self.here, &self.data, "s1@e", Path::new(support::binary()))
    }

    /// Row s1@e with this count and checksum.
    fn set_row(&self, positions: usize, sum: &str) {
        std::fs::write(
            &self.relabels,
            format!("{RELABEL_HEADER}s1@e\ts1\te\t300\t{positions}\t{sum}\n"),
        )
        .unwrap();
    }

    /// The made file of s1@e.
    fn labelled(&self) -> String {
        std::fs::read_to_string(self.data.join("chunks/s1@e/labelled.txt")).unwrap()
    }

    fn remove_made(&self) {
        std::fs::remove_dir_all(self.data.join("chunks/s1@e")).unwrap();
    }

    /// Row s1@e holds the count and checksum of the made file.
    fn assert_recorded(&self, positions: usize) {
        let labelled = self.labelled();
        let row = format!(
            "s1@e\ts1\te\t300\t{positions}\t{}",
            sha256_hex(labelled.as_bytes())
        );
        let recipe = std::fs::read_to_string(&self.relabels).unwrap();
        assert!(
            recipe.contains(&row),
            "count and checksum recorded: {recipe}"
        );
    }

    /// The made file removed and made again from the recorded row, in one run of campaign.sh:
    /// the same checksum.
    fn assert_made_again(&self) {
        self.remove_made();
        let out = self.make();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "make again failed: {err}");
        assert!(err.contains("made again, checksum matches"), "{err}");
    }
}

impl Drop for Layout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `campaign.sh make` on a relabelled chunk: the source's quiet positions are labelled by the
/// engine's search, the count and checksum go into the row, a second make must match them, and a
/// row whose checksum differs stops the run. Everything runs in a copy of the campaign's layout
/// with a tiny source chunk already on disk and this build as the labelling engine.
#[test]
fn a_relabelled_chunk_is_made_recorded_and_checked() {
    let quiet = [
        "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1;0.5;1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1;1;2",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w HAha - 2 3;0;3",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1;4",
    ];
    let Some(layout) = Layout::new("campaign-relabel", &quiet) else {
        return;
    };
    let out = layout.make();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "make failed: {err}");
    let labelled = layout.labelled();
    let lines: Vec<&str> = labelled.lines().collect();
    assert_eq!(lines.len(), 4, "{labelled}");
    for (line, source) in lines.iter().zip(quiet) {
        let (head, cp) = line.rsplit_once(';').expect("a label");
        assert_eq!(head, source, "the source line, then the label");
        assert!(cp.parse::<i32>().is_ok(), "a centipawn label: {line}");
    }
    layout.assert_recorded(4);
    layout.assert_made_again();

    // A row whose checksum is not the file's stops the run.
    layout.set_row(4, &"0".repeat(64));
    layout.remove_made();
    let out = layout.make();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("its recipe says 4,"), "{err}");
    assert!(
        !layout.data.join("locks/s1@e").exists(),
        "a run that stops on an error leaves no lock behind"
    );

    // While another run holds the source's lock and its file is not yet there, the relabelled
    // chunk waits for it.
    layout.remove_made();
    std::fs::create_dir_all(layout.data.join("locks/s1")).unwrap();
    std::fs::remove_file(layout.data.join("chunks/s1/quiet.txt")).unwrap();
    let out = layout.make();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("its source s1 is being made by another run, skipped"),
        "{err}"
    );
    assert!(!layout.data.join("chunks/s1@e").exists(), "{err}");
}

/// Where each member of a tar ends (its data padded to the 512-byte block), in order: the
/// lengths at which a tar cut off between members still holds every member before the cut.
fn tar_member_ends(bytes: &[u8]) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut at = 0;
    while at + 512 <= bytes.len() && bytes[at] != 0 {
        let field = std::str::from_utf8(&bytes[at + 124..at + 136]).unwrap();
        let size =
            usize::from_str_radix(field.trim_matches(|c: char| c == '\0' || c == ' '), 8).unwrap();
        at += 512 + size.div_ceil(512) * 512;
        ends.push(at);
    }
    ends
}

/// `python3 kit.py ARGS` in a copied layout whose campaign directory is `here`, with `FASTCHESS`
/// where given: its exit status and its output.
fn kit(here: &Path, fastchess: Option<&Path>, args: &[&OsStr]) -> (Option<i32>, String) {
    let mut command = Command::new("python3");
    command.arg(here.join("kit.py")).args(args);
    if let Some(f) = fastchess {
        command.env("FASTCHESS", f);
    }
    let out = command.output().expect("python3");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// Chunk `id` packed from `data` into a kit under `dir`, run there in three parts on two cores,
/// and unpacked into `data` again: each step must succeed and the chunk finish. The tar the run
/// brought back.
fn kit_round_trip(
    here: &Path,
    fastchess: Option<&Path>,
    data: &Path,
    dir: &Path,
    id: &str,
) -> PathBuf {
    let (kit_dir, out_dir) = (dir.join("kit"), dir.join("out"));
    let (code, text) = kit(
        here,
        fastchess,
        &[
            "pack".as_ref(),
            data.as_os_str(),
            kit_dir.as_os_str(),
            id.as_ref(),
        ],
    );
    assert_eq!(code, Some(0), "{text}");
    let run: [&OsStr; 7] = [
        "run".as_ref(),
        kit_dir.as_os_str(),
        out_dir.as_os_str(),
        "--parts".as_ref(),
        "3".as_ref(),
        "--jobs".as_ref(),
        "2".as_ref(),
    ];
    let (code, text) = kit(here, fastchess, &run);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("1 of 1 chunks finished"), "{text}");
    let tar = out_dir.join("labels.tar");
    let (code, text) = kit(
        here,
        fastchess,
        &["unpack".as_ref(), data.as_os_str(), tar.as_os_str()],
    );
    assert_eq!(code, Some(0), "{text}");
    tar
}

/// `kit.py`: chunks labelled elsewhere in parts come back as the file one `campaign.sh make`
/// makes. The kit is packed, run in three parts (a mate line among the positions, which
/// label.py drops, so the parts have holes to fit), unpacked into a `-` row, and then
/// `campaign.sh make` on the same row, made again in one piece, must find the same checksum. A
/// row with another checksum makes `unpack` fail.
#[test]
fn a_kit_made_in_parts_gives_the_file_of_one_run() {
    let quiet = [
        "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1;0.5;1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1;1;2",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1;1;3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w HAha - 2 3;0;4",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1;5",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1;1;2",
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1;0.5;6",
    ];
    let Some(layout) = Layout::new("campaign-kit", &quiet) else {
        return;
    };
    let kit = |args: &[&OsStr]| kit(&layout.here, None, args);
    let data = layout.data.as_os_str();
    let tar = kit_round_trip(&layout.here, None, &layout.data, &layout.dir, "s1@e");
    let labelled = layout.labelled();
    assert_eq!(
        labelled.lines().count(),
        6,
        "the mate-in-one line is dropped: {labelled}"
    );
    layout.assert_recorded(6);
    // One run of campaign.sh on the recorded row makes the same file.
    layout.assert_made_again();

    // A tar cut off by the machine's limit: without its closing blocks (cut after its last
    // member) it unpacks whole; cut inside a member's data, that member is not read, its chunk
    // is not unpacked, and unpack says where the tar ends.
    let bytes = std::fs::read(&tar).unwrap();
    let ends = tar_member_ends(&bytes);
    assert_eq!(
        ends.len(),
        2,
        "the sha256 of the quiet lines and the labels"
    );
    let cut = layout.dir.join("cut.tar");
    std::fs::write(&cut, &bytes[..ends[1]]).unwrap();
    let (code, text) = kit(&["unpack".as_ref(), data, cut.as_os_str()]);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("cut off"), "{text}");
    std::fs::write(&cut, &bytes[..ends[1] - 100]).unwrap();
    let before = layout.labelled();
    let (code, text) = kit(&["unpack".as_ref(), data, cut.as_os_str()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("is cut off") && text.contains("s1@e.labels.xz is not"),
        "{text}"
    );
    assert!(
        text.contains("not in") && text.contains("s1@e.labels.xz"),
        "{text}"
    );
    assert_eq!(
        layout.labelled(),
        before,
        "the chunk's file is left as it was"
    );

    // `run --only`: a chunk the kit does not hold is refused by name; one it holds is run alone.
    let (kit_dir, again) = (layout.dir.join("kit"), layout.dir.join("again"));
    let run_only = |id: &str| {
        kit(&[
            "run".as_ref(),
            kit_dir.as_os_str(),
            again.as_os_str(),
            "--jobs".as_ref(),
            "2".as_ref(),
            "--only".as_ref(),
            id.as_ref(),
        ])
    };
    let (code, text) = run_only("s9@e");
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("not in") && text.contains("s9@e"), "{text}");
    assert!(text.contains("it holds s1@e"), "{text}");
    assert!(!again.join("labels.tar").exists(), "{text}");
    let (code, text) = run_only("s1@e");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("1 of 1 chunks finished"), "{text}");

    // A row with another checksum: unpack fails and says so.
    layout.set_row(6, &"0".repeat(64));
    let (code, text) = kit(&["unpack".as_ref(), data, tar.as_os_str()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("its recipe says 6,"), "{text}");

    // Labels made for other positions than the source's here (two lines swapped, the count
    // the same) are refused before anything is written.
    layout.set_row(6, "-");
    let source = layout.data.join("chunks/s1/quiet.txt");
    let mut lines: Vec<String> = std::fs::read_to_string(&source)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    lines.swap(0, 1);
    std::fs::write(&source, lines.join("\n") + "\n").unwrap();
    let before = layout.labelled();
    let (code, text) = kit(&["unpack".as_ref(), data, tar.as_os_str()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("are not those labelled there"), "{text}");
    assert_eq!(
        layout.labelled(),
        before,
        "the chunk's file is left as it was"
    );
}

/// `kit.py` on a chunk to play: its games are played in slices (each slice of its openings by
/// a match of its own), its positions are taken from the slices' games put back in order, its
/// labels are made in parts, and `unpack` makes the chunk's file here and records its row. Then
/// `campaign.sh make`, playing the chunk in one match, must find the same checksum: the slices'
/// games are the games of one run. A row with another checksum makes `unpack` fail.
///
/// The engine is this build; its tuner is a stand-in whose `quiet` keeps every position (what
/// is under test is the games and the labels, and `tune quiet` is the same program here and
/// there).
#[test]
fn a_chunk_played_in_slices_gives_the_file_of_one_run() {
    let Some(fastchess) = support::fastchess() else {
        return;
    };
    if !campaign_tools_present() {
        return;
    }
    let dir = support::temp_dir("campaign-played-kit");
    let here = copy_scripts(
        &dir,
        &[
            "label.py",
            "gen_games.sh",
            "gen_openings.py",
            "positions.sh",
            "extract.py",
        ],
    );
    let chunks = here.join("chunks.tsv");
    let set_row = |tail: &str| {
        std::fs::write(
            &chunks,
            format!("{CHUNKS_HEADER}p1\te\t5\t6\t200\t100\t0.5\t4\t0\t{tail}\n"),
        )
        .unwrap();
    };
    set_row("-\t-");
    std::fs::write(here.join("relabels.tsv"), RELABEL_HEADER).unwrap();
    let data = dir.join("data");
    let engine = stand_in_engine(&here, &data);
    copying_tuner(&engine.join("tune"));

    let tar = kit_round_trip(&here, Some(&fastchess), &data, &dir, "p1");

    let games = std::fs::read_to_string(data.join("chunks/p1/games/games.pgn")).unwrap();
    assert_eq!(games.matches("[Result ").count(), 6, "six games: {games}");
    let labelled = std::fs::read_to_string(data.join("chunks/p1/labelled.txt")).unwrap();
    assert!(
        labelled.lines().count() > 20,
        "positions labelled: {labelled}"
    );
    for line in labelled.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 4, "FEN;result;game;cp: {line}");
        assert!(
            fields[3].parse::<i32>().is_ok(),
            "a centipawn label: {line}"
        );
    }
    let recorded = format!(
        "p1\te\t5\t6\t200\t100\t0.5\t4\t0\t{}\t{}",
        labelled.lines().count(),
        sha256_hex(labelled.as_bytes())
    );
    let recipe = std::fs::read_to_string(&chunks).unwrap();
    assert!(
        recipe.contains(&recorded),
        "count and checksum recorded: {recipe}"
    );

    // The same chunk made in one run: the same file.
    std::fs::remove_dir_all(data.join("chunks/p1")).unwrap();
    let out = campaign_make(&here, &data, "p1", &fastchess);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "make failed: {err}");
    assert!(err.contains("made again, checksum matches"), "{err}");

    // `quiet` makes the games and quiet positions only (what another teacher labels); `make`
    // then labels them without playing again, and the file is the one of one run.
    let quiet = std::fs::read_to_string(data.join("chunks/p1/quiet.txt")).unwrap();
    std::fs::remove_dir_all(data.join("chunks/p1")).unwrap();
    let out = Command::new("bash")
        .arg(here.join("campaign.sh"))
        .arg(&data)
        .args(["quiet", "p1"])
        .env("FASTCHESS", &fastchess)
        .output()
        .expect("bash");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "quiet failed: {err}");
    assert_eq!(
        std::fs::read_to_string(data.join("chunks/p1/quiet.txt")).unwrap(),
        quiet
    );
    assert!(!data.join("chunks/p1/labelled.txt").exists(), "{err}");
    let out = campaign_make(&here, &data, "p1", &fastchess);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "make failed: {err}");
    assert!(err.contains("made by quiet"), "{err}");
    assert!(!err.contains("games of e"), "not played again: {err}");
    assert!(err.contains("made again, checksum matches"), "{err}");

    // A row with another checksum: unpack fails and says so.
    set_row(&format!("{}\t{}", labelled.lines().count(), "0".repeat(64)));
    let (code, text) = kit(
        &here,
        Some(&fastchess),
        &["unpack".as_ref(), data.as_os_str(), tar.as_os_str()],
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("its recipe says"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tools/tune/positions.sh`, the one step from games to training positions that `campaign.sh
/// make` and kit.py share: the game positions after the first eight plies go into the first
/// file, `tune quiet`'s choice of them into the second, and a file short of the games asked for
/// is refused, naming both counts, before anything is written.
#[test]
fn positions_come_from_every_game_and_a_short_file_is_refused() {
    if !campaign_tools_present()
        || !support::tool_present(
            support::python_imports("chess.pgn"),
            "python-chess",
            "CHESS960_REQUIRE_PYTHON_CHESS",
            "pip install chess",
        )
    {
        return;
    }
    let dir = support::temp_dir("campaign-positions");
    let here = copy_scripts(&dir, &["positions.sh", "extract.py"]);
    let script = here.join("../../tune/positions.sh");
    let tune = dir.join("tune");
    copying_tuner(&tune);
    let game = |result: &str| {
        format!(
            "[Event \"t\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
             [FEN \"bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1\"]\n\
             [Result \"{result}\"]\n\n1. a3 a6 2. b3 b6 3. c3 c6 4. d3 d6 \
             5. g3 g6 6. h3 h6 {result}\n\n"
        )
    };
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, game("1-0") + &game("1/2-1/2")).unwrap();
    let (positions, quiet) = (dir.join("positions.txt"), dir.join("quiet.txt"));
    let run = |games: &str| {
        Command::new("bash")
            .arg(&script)
            .arg(&tune)
            .arg(&pgn)
            .arg(&positions)
            .arg(&quiet)
            .args(["3", "7", games])
            .output()
            .expect("bash")
    };

    let out = run("3");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds 2 games, not 3"), "{err}");
    assert!(!positions.exists() && !quiet.exists(), "nothing written");

    let out = run("2");
    assert!(out.status.success(), "{out:?}");
    let lines = std::fs::read_to_string(&positions).unwrap();
    // Four positions a game (plies 9 to 12), with each game's result and number.
    let fields: Vec<Vec<&str>> = lines.lines().map(|l| l.split(';').collect()).collect();
    assert_eq!(fields.len(), 8, "{lines}");
    assert!(fields[..4].iter().all(|f| f[1..] == ["1", "0"]), "{lines}");
    assert!(
        fields[4..].iter().all(|f| f[1..] == ["0.5", "1"]),
        "{lines}"
    );
    assert_eq!(std::fs::read_to_string(&quiet).unwrap(), lines);
    assert_eq!(tuner_calls(&tune), "--children 3 --seed 7\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game positions of a source chunk `s1` (its labels: none, so its file is its quiet
/// positions): a pass of it keeps those of `PASS_NEW`.
const PASS_POSITIONS: [&str; 5] = [
    "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1;0.5;1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1;1;2",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w HAha - 2 3;0;3",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1;4",
    "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1;1;4",
];
const PASS_NEW: std::ops::Range<usize> = 2..5;
const PASSES_HEADER: &str =
    "# chunk\tsource\tchildren\tseed\tengine\tlabel_nodes\tpositions\tsha256\n";

/// A copy of the campaign's layout with source chunk `s1` on disk (its game positions
/// `PASS_POSITIONS`, its quiet positions the first two of them, the second with other move
/// counters), engine `e` (this build, with a tuner whose `quiet` keeps every line) and a row
/// `s1+6` of passes.tsv with `-` for its count and checksum.
struct PassLayout {
    dir: PathBuf,
    here: PathBuf,
    data: PathBuf,
}

impl PassLayout {
    fn new(tag: &str) -> Option<PassLayout> {
        if !campaign_tools_present() {
            return None;
        }
        let dir = support::temp_dir(tag);
        let here = copy_scripts(&dir, &["label.py"]);
        let data = dir.join("data");
        copying_tuner(&stand_in_engine(&here, &data).join("tune"));
        let lines =
            |lines: &[String]| -> String { lines.iter().map(|l| format!("{l}\n")).collect() };
        let quiet = lines(&[
            PASS_POSITIONS[0].to_owned(),
            PASS_POSITIONS[1].replace(" 0 1;", " 3 9;"),
        ]);
        source_chunk(&here, &data, PASS_POSITIONS.len(), &quiet);
        std::fs::write(
            data.join("chunks/s1/positions.txt"),
            lines(&PASS_POSITIONS.map(str::to_owned)),
        )
        .unwrap();
        std::fs::write(here.join("relabels.tsv"), RELABEL_HEADER).unwrap();
        let layout = PassLayout { dir, here, data };
        layout.set_row("-\t-");
        Some(layout)
    }

    /// Row s1+6 (children 6, seed 101, engine e, 300 nodes) ending in `tail`.
    fn set_row(&self, tail: &str) {
        std::fs::write(
            self.here.join("passes.tsv"),
            format!("{PASSES_HEADER}s1+6\ts1\t6\t101\te\t300\t{tail}\n"),
        )
        .unwrap();
    }

    fn make(&self) -> (Option<i32>, String) {
        self.make_id("s1+6")
    }

    /// `campaign.sh DATA make ID`: its exit status and stderr.
    fn make_id(&self, id: &str) -> (Option<i32>, String) {
        let out = campaign_make(&self.here, &self.data, id, Path::new(support::binary()));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Pass `id` of source s1 waits while another run holds what it needs: `make` skips it
    /// (nothing made), `quiet` refuses it with status 75 (busy, not failed).
    fn assert_pass_waits(&self, id: &str) {
        let (code, err) = self.make_id(id);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.contains(
                "its source s1 or a pass of it above is being made by another run, skipped"
            ),
            "{err}"
        );
        assert!(!self.data.join("chunks").join(id).exists(), "{err}");
        let (code, err) = self.campaign(&["quiet", id]);
        assert_eq!(code, Some(75), "busy, not failed: {err}");
        assert!(
            err.contains("its source or a pass of it above is being made"),
            "{err}"
        );
    }

    /// `campaign.sh DATA ARGS`: its exit status and stderr.
    fn campaign(&self, args: &[&str]) -> (Option<i32>, String) {
        let out = Command::new("bash")
            .arg(self.here.join("campaign.sh"))
            .arg(&self.data)
            .args(args)
            .output()
            .expect("bash");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// The made file of s1+6.
    fn labelled(&self) -> String {
        std::fs::read_to_string(self.data.join("chunks/s1+6/labelled.txt")).unwrap()
    }

    fn remove_made(&self) {
        std::fs::remove_dir_all(self.data.join("chunks/s1+6")).unwrap();
    }

    /// The made file holds the positions s1 lacks, in order, each with a label, and the row its
    /// count and checksum.
    fn assert_made_and_recorded(&self) {
        self.assert_made_and_recorded_from(PASS_NEW);
    }

    /// The made file holds `PASS_POSITIONS[new]`, in order, each with a label, and the row its
    /// count and checksum.
    fn assert_made_and_recorded_from(&self, new: std::ops::Range<usize>) {
        let labelled = self.labelled();
        let heads: Vec<&str> = labelled
            .lines()
            .map(|l| l.rsplit_once(';').expect("a label").0)
            .collect();
        assert_eq!(
            heads,
            PASS_POSITIONS[new.clone()],
            "the new positions, in order"
        );
        let recorded = format!(
            "s1+6\ts1\t6\t101\te\t300\t{}\t{}",
            new.len(),
            sha256_hex(labelled.as_bytes())
        );
        let recipe = std::fs::read_to_string(self.here.join("passes.tsv")).unwrap();
        assert!(recipe.contains(&recorded), "{recipe}");
    }
}

impl Drop for PassLayout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `campaign.sh make` on a pass: the source's game positions go through the engine's `tune
/// quiet` again, every position the source already holds is left out (by board, side to move,
/// castling and en passant, whatever the move counters), the rest are labelled, the row gets its
/// count and checksum, a second make must match them, and one whose checksum differs stops.
#[test]
fn a_pass_adds_only_positions_its_source_lacks() {
    let Some(layout) = PassLayout::new("campaign-pass") else {
        return;
    };
    let (code, err) = layout.make();
    assert_eq!(code, Some(0), "{err}");
    layout.assert_made_and_recorded();
    assert_eq!(
        tuner_calls(&layout.data.join("engines/e/tune")),
        "--children 6 --seed 101\n",
        "the row's neighbours and seed"
    );
    // Its quiet positions are not made again over the made pass.
    let quiet = layout.campaign(&["quiet", "s1+6"]);
    assert_eq!(quiet.0, Some(1), "{}", quiet.1);
    assert!(quiet.1.contains("already made"), "{}", quiet.1);

    layout.remove_made();
    let (code, err) = layout.make();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("made again, checksum matches"), "{err}");

    // While another run holds the source's lock (it is being made), the pass waits for it:
    // skipped by `make`, refused by `quiet`.
    layout.remove_made();
    std::fs::create_dir_all(layout.data.join("locks/s1")).unwrap();
    let moved = layout.data.join("s1.quiet.txt");
    std::fs::rename(layout.data.join("chunks/s1/quiet.txt"), &moved).unwrap();
    layout.assert_pass_waits("s1+6");
    std::fs::rename(&moved, layout.data.join("chunks/s1/quiet.txt")).unwrap();
    std::fs::remove_dir(layout.data.join("locks/s1")).unwrap();

    layout.set_row(&format!("{}\t{}", PASS_NEW.len(), "0".repeat(64)));
    let (code, err) = layout.make();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("its recipe says 3,"), "{err}");
}

/// A pass whose row asks for no labels (label nodes 0) is its quiet positions alone, positions
/// for another teacher: `make` writes no labelled file and calls no search, its row gets the
/// count and checksum of its quiet positions, a second make must match them, and a kit refuses
/// it, since it has nothing to make elsewhere.
#[test]
fn a_pass_without_labels_is_its_quiet_positions() {
    let Some(layout) = PassLayout::new("campaign-pass-quiet") else {
        return;
    };
    let row = |tail: &str| format!("s1+6\ts1\t6\t101\te\t0\t{tail}");
    std::fs::write(
        layout.here.join("passes.tsv"),
        format!("{PASSES_HEADER}{}\n", row("-\t-")),
    )
    .unwrap();
    let (code, err) = layout.make();
    assert_eq!(code, Some(0), "{err}");
    let made = layout.data.join("chunks/s1+6");
    assert!(!made.join("labelled.txt").exists(), "{err}");
    let quiet = std::fs::read_to_string(made.join("quiet.txt")).unwrap();
    let lines: Vec<&str> = quiet.lines().collect();
    assert_eq!(
        lines, PASS_POSITIONS[PASS_NEW],
        "the positions s1 lacks, unlabelled"
    );
    let recorded = row(&format!(
        "{}\t{}",
        PASS_NEW.len(),
        sha256_hex(quiet.as_bytes())
    ));
    let recipe = std::fs::read_to_string(layout.here.join("passes.tsv")).unwrap();
    assert!(recipe.contains(&recorded), "{recipe}");
    assert!(!err.contains("labels by"), "no search: {err}");

    layout.remove_made();
    let (code, err) = layout.make();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("made again, checksum matches"), "{err}");

    let kit_dir = layout.dir.join("kit");
    let (code, err) = kit(
        &layout.here,
        None,
        &[
            OsStr::new("pack"),
            layout.data.as_os_str(),
            kit_dir.as_os_str(),
            OsStr::new("s1+6"),
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("s1+6: no labels to make elsewhere"), "{err}");
}

/// A pass reads its source's game and quiet positions, never its labels: a source whose row asks
/// for labels that are not on disk, with its games and quiet positions complete (as `quiet`
/// leaves them), gives its pass without being labelled first.
#[test]
fn a_pass_does_not_wait_for_its_sources_labels() {
    let Some(layout) = PassLayout::new("campaign-pass-unlabelled-source") else {
        return;
    };
    // s1 now asks for labels at 300 nodes, recorded with a checksum no labels of this build
    // could match: labelling it would stop the make.
    std::fs::write(
        layout.here.join("chunks.tsv"),
        format!(
            "{CHUNKS_HEADER}s1\te\t1\t{}\t100\t300\t0\t0\t0\t2\t{}\n",
            PASS_POSITIONS.len(),
            "0".repeat(64)
        ),
    )
    .unwrap();
    std::fs::write(layout.data.join("chunks/s1/QUIET"), "").unwrap();
    let (code, err) = layout.make();
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("chunk s1: labels"), "{err}");
    assert!(
        !layout.data.join("chunks/s1/labelled.txt").exists(),
        "{err}"
    );
    layout.assert_made_and_recorded();
}

/// A further pass of the same source leaves out what the passes of that source above it in
/// passes.tsv hold, not only its source's positions: `s1+6b` (another seed, no labels) below
/// `s1+6` and below a pass of another source (never made, as it is no pass of s1), with a
/// stand-in tuner whose `quiet` keeps the first four game positions under seed 101 and all five
/// under any other. Making `s1+6b` first makes `s1+6`'s quiet positions (not its labels) and
/// keeps only the fifth position; `s1+6`, made after, is what it is alone (a row below it takes
/// nothing from it); while another run holds `s1+6`, `s1+6b` waits (`quiet` says so with status
/// 75); a made `s1+6` whose quiet positions are gone has them made again.
#[test]
fn a_further_pass_leaves_out_the_passes_above_it() {
    use std::os::unix::fs::PermissionsExt;
    let Some(layout) = PassLayout::new("campaign-further-pass") else {
        return;
    };
    let tune = layout.data.join("engines/e/tune");
    std::fs::write(
        &tune,
        "#!/bin/sh\nin=\"$2\"; out=\"$3\"; shift 3; echo \"$*\" >> \"$0.args\"\n\
         case \" $* \" in *\" --seed 101 \"*) head -n 4 \"$in\" > \"$out\" ;; \
         *) cp \"$in\" \"$out\" ;; esac\n",
    )
    .unwrap();
    std::fs::set_permissions(&tune, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        layout.here.join("passes.tsv"),
        format!(
            "{PASSES_HEADER}s1+6\ts1\t6\t101\te\t300\t-\t-\n\
             x+6\tx\t6\t101\te\t0\t-\t-\n\
             s1+6b\ts1\t6\t202\te\t0\t-\t-\n"
        ),
    )
    .unwrap();
    let make = |id: &str| layout.make_id(id);
    let (code, err) = make("s1+6b");
    assert_eq!(code, Some(0), "{err}");
    let first = layout.data.join("chunks/s1+6");
    assert_eq!(
        std::fs::read_to_string(first.join("quiet.txt")).unwrap(),
        PASS_POSITIONS[2..4]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
        "the pass above, as far as its quiet positions"
    );
    assert!(!first.join("labelled.txt").exists(), "{err}");
    let further = std::fs::read_to_string(layout.data.join("chunks/s1+6b/quiet.txt")).unwrap();
    assert_eq!(
        further.lines().collect::<Vec<_>>(),
        [PASS_POSITIONS[4]],
        "what neither s1 nor s1+6 holds"
    );
    assert_eq!(
        tuner_calls(&tune),
        "--children 6 --seed 101\n--children 6 --seed 202\n"
    );
    let recipe = std::fs::read_to_string(layout.here.join("passes.tsv")).unwrap();
    assert!(
        recipe.contains(&format!(
            "s1+6b\ts1\t6\t202\te\t0\t1\t{}",
            sha256_hex(further.as_bytes())
        )),
        "{recipe}"
    );

    let (code, err) = make("s1+6");
    assert_eq!(code, Some(0), "{err}");
    layout.assert_made_and_recorded_from(2..4);

    // Made again while another run holds the pass above: skipped by `make`, refused by `quiet`.
    std::fs::remove_dir_all(layout.data.join("chunks/s1+6b")).unwrap();
    std::fs::create_dir_all(layout.data.join("locks/s1+6")).unwrap();
    layout.assert_pass_waits("s1+6b");
    std::fs::remove_dir(layout.data.join("locks/s1+6")).unwrap();

    // s1+6 made, its quiet positions gone: made again (its labels kept) for s1+6b.
    let labels = std::fs::read(first.join("labelled.txt")).unwrap();
    std::fs::remove_file(first.join("quiet.txt")).unwrap();
    let (code, err) = make("s1+6b");
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("made again, checksum matches"), "{err}");
    assert_eq!(std::fs::read(first.join("labelled.txt")).unwrap(), labels);
    assert!(first.join("quiet.txt").exists(), "{err}");
    assert!(!layout.data.join("chunks/x+6").exists(), "{err}");
}

/// `static_set.sh` in a copied layout of a pass's: set `t` of static_sets.tsv is the quiet
/// positions of chunk `s1` and of its pass `s1+6` (made first, as it is missing), labelled by
/// this build's static evaluation as the teacher (the name its `id name` gives). A part named
/// alone is labelled without the set being written; the whole set goes together in the row's
/// order, a new row gets its count and checksum, a set made again from the parts' quiet
/// positions must match them, a row whose checksum differs is refused, and so is a teacher of
/// another name, before it labels anything.
#[test]
fn a_static_set_is_made_recorded_and_checked() {
    let Some(layout) = PassLayout::new("campaign-static-set") else {
        return;
    };
    let nnue = layout.here.parent().unwrap().to_path_buf();
    std::fs::copy(
        repo().join("tools/nnue/static_set.sh"),
        nnue.join("static_set.sh"),
    )
    .unwrap();
    let mut engine = support::Engine::start();
    engine.send("uci");
    let name = engine
        .expect("uciok", support::REPLY)
        .iter()
        .find_map(|l| l.strip_prefix("id name ").map(str::to_owned))
        .expect("an id name");
    engine.send("quit");
    let sets = nnue.join("static_sets.tsv");
    let set_row = |teacher: &str, tail: &str| {
        std::fs::write(
            &sets,
            format!("# set\tteacher\tparts\tlines\tsha256\nt\t{teacher}\ts1,s1+6\t{tail}\n"),
        )
        .unwrap();
    };
    let run = |args: &[&str]| -> (Option<i32>, String) {
        let out = Command::new("bash")
            .arg(nnue.join("static_set.sh"))
            .arg(&layout.data)
            .args(args)
            .env("TEACHER", support::binary())
            .output()
            .expect("bash");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let static_dir = layout.data.join("static");

    set_row("Stockfish 15.1", "-\t-");
    let (code, err) = run(&["t"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("is labelled by 'Stockfish 15.1'"), "{err}");
    assert!(!layout.data.join("chunks/s1+6").exists(), "{err}");

    set_row(&name, "-\t-");
    let (code, err) = run(&["t", "s1+6"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        layout.data.join("chunks/s1+6/quiet.txt").exists(),
        "the pass's quiet positions made first: {err}"
    );
    assert!(!static_dir.join("t.txt").exists(), "{err}");

    let (code, err) = run(&["t"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("part s1+6: labels on disk"), "{err}");
    let set = std::fs::read_to_string(static_dir.join("t.txt")).unwrap();
    let heads: Vec<&str> = set
        .lines()
        .map(|l| l.rsplit_once(';').expect("a label").0)
        .collect();
    let s1_quiet = std::fs::read_to_string(layout.data.join("chunks/s1/quiet.txt")).unwrap();
    let expected: Vec<&str> = s1_quiet
        .lines()
        .chain(PASS_POSITIONS[PASS_NEW].iter().copied())
        .collect();
    assert_eq!(heads, expected, "s1's positions, then the pass's, in order");
    for line in set.lines() {
        let cp = line.rsplit_once(';').unwrap().1;
        assert!(cp.parse::<i32>().is_ok(), "a centipawn label: {line}");
    }
    let recorded = format!(
        "t\t{name}\ts1,s1+6\t{}\t{}",
        set.lines().count(),
        sha256_hex(set.as_bytes())
    );
    let recipe = std::fs::read_to_string(&sets).unwrap();
    assert!(recipe.contains(&recorded), "{recipe}");

    std::fs::remove_dir_all(&static_dir).unwrap();
    let (code, err) = run(&["t"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("checksum matches"), "{err}");

    // A part's lock held by a live run is left alone; one whose run is
    // gone (killed) is taken over.
    std::fs::remove_dir_all(&static_dir).unwrap();
    let lock = layout.data.join("locks/static-s1");
    std::fs::create_dir_all(&lock).unwrap();
    std::fs::write(lock.join("pid"), format!("{}\n", std::process::id())).unwrap();
    let (code, err) = run(&["t"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "part s1: being labelled by another run (process {})",
            std::process::id()
        )),
        "{err}"
    );
    let mut gone = Command::new("true").spawn().expect("true");
    let gone_pid = gone.id();
    gone.wait().unwrap();
    std::fs::write(lock.join("pid"), format!("{gone_pid}\n")).unwrap();
    let (code, err) = run(&["t"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "part s1: the lock of run {gone_pid}, which is gone, taken over"
        )),
        "{err}"
    );
    assert!(err.contains("checksum matches"), "{err}");
    assert!(!lock.exists(), "the lock is removed after the part: {err}");

    std::fs::remove_file(static_dir.join("t.txt")).unwrap();
    set_row(
        &name,
        &format!("{}\t{}", set.lines().count(), "0".repeat(64)),
    );
    let (code, err) = run(&["t"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("static_sets.tsv says"), "{err}");
    assert!(!static_dir.join("t.txt").exists(), "{err}");
}

/// `kit.py` on a pass: its quiet positions are made here when it is packed, labelled there in
/// parts, and `unpack` writes the file one `campaign.sh make` makes and records its row; made
/// again in one run, the checksum matches.
#[test]
fn a_pass_labelled_by_a_kit_gives_the_file_of_one_run() {
    let Some(layout) = PassLayout::new("campaign-pass-kit") else {
        return;
    };
    kit_round_trip(&layout.here, None, &layout.data, &layout.dir, "s1+6");
    layout.assert_made_and_recorded();
    layout.remove_made();
    let (code, err) = layout.make();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("made again, checksum matches"), "{err}");
}

/// `scale_by_stage.py` finds the scale each stage's results were drawn
/// with: labels whose results follow `sigmoid(k * cp / 400)` with k = 0.8
/// in a rook ending and k = 1.6 at the start (either side to move) are
/// read back as 0.80 and 1.60.
#[test]
fn scale_by_stage_reads_each_stage_scale() {
    if !support::python3_present() {
        return;
    }
    let dir = support::temp_dir("scale-by-stage");
    let mut data = String::new();
    let stages = [
        ("8/8/4k3/8/8/3K4/8/R7", 0.8),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 1.6),
    ];
    for (board, k) in stages {
        for (i, cp) in (-300..=300).step_by(20).enumerate() {
            let turn = if i % 2 == 0 { "w" } else { "b" };
            // Result and label from White's side, as the campaign's files hold them.
            let white_cp = f64::from(cp);
            let result = 1.0 / (1.0 + (-k * white_cp / 400.0).exp());
            data.push_str(&format!("{board} {turn} - - 0 1;{result:.6};0;{cp}\n"));
        }
    }
    let file = dir.join("labelled.txt");
    std::fs::write(&file, data).unwrap();
    let out = support::python3_ok(&[
        campaign("scale_by_stage.py").as_os_str(),
        file.as_os_str(),
        OsStr::new("--every"),
        OsStr::new("1"),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let k_of = |band: &str| {
        let line = text
            .lines()
            .find(|l| l.starts_with(band))
            .unwrap_or_else(|| panic!("no row {band}:\n{text}"));
        line.split_whitespace()
            .find_map(|w| w.strip_prefix("k="))
            .and_then(|k| k.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no k in {line}"))
    };
    assert!((k_of(" 2- 8") - 0.8).abs() < 0.011, "{text}");
    assert!((k_of("29-32") - 1.6).abs() < 0.011, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `screen.py` tells the score the games' results were drawn from from a noisier one: 600
/// games whose results follow `sigmoid(cp / 400)` of a true score, two positions each (one per
/// side to move), with that score in one column and the score plus up to 500 centipawns of
/// noise in another. Against the true score as the base the noisy one is worse, with the whole
/// interval above zero; with the bases swapped the difference changes sign. A column that is
/// not in the file is named in the error.
#[test]
fn screen_prefers_the_score_the_results_follow() {
    if !support::python3_present() {
        return;
    }
    let dir = support::temp_dir("screen");
    // A small linear congruential generator: the same data on every run and platform.
    let mut state: u64 = 12345;
    let mut uniform = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let boards = [
        "8/8/4k3/8/8/3K4/8/R7",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    ];
    let mut data = String::new();
    for game in 0..600 {
        let truth = (uniform() * 1200.0 - 600.0).round();
        let result = if uniform() < 1.0 / (1.0 + (-truth / 400.0).exp()) {
            1
        } else {
            0
        };
        let noisy = (truth + uniform() * 1000.0 - 500.0).round();
        let board = boards[game % 2];
        for turn in ["w", "b"] {
            data.push_str(&format!(
                "{board} {turn} - - 0 1;{result};{game};{truth};{noisy}\n"
            ));
        }
    }
    let file = dir.join("games.txt");
    std::fs::write(&file, data).unwrap();
    let screen = |base: &str, other: &str| -> (f64, f64, f64) {
        let out = support::python3_ok(&[
            campaign("screen.py").as_os_str(),
            file.as_os_str(),
            OsStr::new(base),
            OsStr::new(other),
            OsStr::new("--boot"),
            OsStr::new("300"),
        ]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let name = other
            .trim_start_matches("--column=")
            .split('=')
            .next()
            .unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{text}"));
        let numbers: Vec<f64> = line
            .split(|c: char| c.is_whitespace() || c == '[' || c == ']' || c == ',')
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 4, "{line}");
        (numbers[1], numbers[2], numbers[3])
    };
    let (diff, lo, hi) = screen("--column=truth=3", "--column=noisy=4");
    assert!(diff > 0.0 && lo > 0.0 && hi >= diff, "{diff} [{lo}, {hi}]");
    let (diff, lo, hi) = screen("--column=noisy=4", "--column=truth=3");
    assert!(diff < 0.0 && hi < 0.0 && lo <= diff, "{diff} [{lo}, {hi}]");

    let out = Command::new("python3")
        .arg(campaign("screen.py"))
        .arg(&file)
        .args(["--column", "truth=3", "--column", "missing=7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--column missing=7"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The static evaluation this project's binary prints for `fen` (`eval`), from White's side.
fn own_static_eval(fen: &str) -> i32 {
    let mut e = support::Engine::start();
    e.send("uci");
    e.expect("uciok", support::REPLY);
    e.ask(&format!("position fen {fen}"));
    let lines = e.ask("eval");
    let cp: i32 = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string eval "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no eval line for {fen}: {lines:?}"));
    if fen.split_whitespace().nth(1) == Some("w") {
        cp
    } else {
        -cp
    }
}

/// `label.py --static --engine <this project's binary>` labels each position with the engine's
/// static evaluation from White's side (the engine prints it for the side to move), and drops a
/// position the engine refuses instead of giving it the score of the position before.
#[test]
fn label_py_reads_our_engines_static_evaluation() {
    if !support::python3_present() {
        return;
    }
    let dir = support::temp_dir("label-own-static");
    let legal = [
        "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3r4/4K3 b - - 0 1",
        "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1",
    ];
    // White in check with Black to move: no legal position, refused by the engine.
    let refused = "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1";
    let input: String = [legal[0], legal[1], refused, legal[2]]
        .iter()
        .map(|fen| format!("{fen};0.5;0\n"))
        .collect();
    std::fs::write(dir.join("in.txt"), input).unwrap();
    support::python3_ok(&[
        repo().join("tools/tune/label.py").as_os_str(),
        dir.join("in.txt").as_os_str(),
        dir.join("out.txt").as_os_str(),
        OsStr::new("--static"),
        OsStr::new("--engine"),
        OsStr::new(support::binary()),
    ]);
    let labelled = std::fs::read_to_string(dir.join("out.txt")).unwrap();
    let evals: Vec<i32> = legal.iter().map(|fen| own_static_eval(fen)).collect();
    let expected: String = legal
        .iter()
        .zip(&evals)
        .map(|(fen, cp)| format!("{fen};0.5;0;{cp}\n"))
        .collect();
    assert_eq!(labelled, expected);
    assert_ne!(evals[0], 0, "a rook up must not evaluate as level");
}
