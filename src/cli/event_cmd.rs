//! Handlers for `event new|draw|pack|reveal|verify`: the verifiable draw
//! of [`crate::event`] and the printable pack of [`crate::html`].

use std::fs;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use super::output_file::{self, Access};
use super::{
    CliError, EventArgs, EventCommand, EventDrawArgs, EventFileArgs, EventNewArgs, EventPackArgs,
    EventPublicArgs, EventRoundsArgs, EventVerifyArgs, PaperArg,
};
use crate::event::{self, Event, EventError, Kind};
use crate::html::{self, Paper};
use crate::startpos::{self, CastlingNotation, Numbered};

impl From<EventError> for CliError {
    fn from(e: EventError) -> Self {
        match e {
            EventError::WrongSecret { .. }
            | EventError::WrongStart { .. }
            | EventError::Damaged(_)
            | EventError::PublicAwaited
            | EventError::PublicRefused(_)
            | EventError::Random(_) => CliError::Mismatch(e.to_string()),
            EventError::SecretTooShort(_)
            | EventError::SecretNotPrintable
            | EventError::SecretInvisible(_)
            | EventError::BadCommitment(_)
            | EventError::RoundOutOfRange { .. }
            | EventError::RoundCount(_)
            | EventError::BadPublic(_)
            | EventError::NameTooLong(_)
            | EventError::NameNotPrintable(_) => CliError::Usage(e.to_string()),
        }
    }
}

/// `chess960 event ...`
pub fn event(a: &EventArgs) -> Result<ExitCode, CliError> {
    match &a.command {
        EventCommand::New(a) => new(a),
        EventCommand::Draw(a) => draw(a),
        EventCommand::Pack(a) => pack(a),
        EventCommand::Commitment(a) => commitment(a),
        EventCommand::Public(a) => public(a),
        EventCommand::Rounds(a) => rounds(a),
        EventCommand::Reveal(a) => reveal(a),
        EventCommand::Verify(a) => verify(a),
    }
}

fn kind(dfrc: bool) -> Kind {
    if dfrc {
        Kind::Dfrc
    } else {
        Kind::Chess960
    }
}

/// The most an event file is read: one holds a name of at most 70
/// characters, a commitment and a secret (at most 128 KiB, the longest
/// word a command line passes on Linux), a few hundred bytes as a rule.
const EVENT_FILE_LIMIT: u64 = 1024 * 1024;

/// Read and check an event file; the message names the file.
fn load(path: &Path) -> Result<Event, CliError> {
    let cannot =
        |e: io::Error| CliError::Io(format!("cannot read event file '{}': {e}", path.display()));
    let mut text = String::new();
    // At most a little more than any event file: a path mistyped to a
    // device (/dev/zero, /dev/urandom) or a big file is refused at once,
    // not read until memory runs out. `-` is standard input, as everywhere
    // in this program (an event file kept encrypted: `gpg -d ... | chess960
    // event draw -`).
    let from_stdin = path.as_os_str() == "-";
    let source: io::Result<Box<dyn Read>> = if from_stdin {
        Ok(Box::new(io::stdin().lock()))
    } else {
        fs::File::open(path).map(|f| Box::new(f) as Box<dyn Read>)
    };
    source
        .and_then(|r| r.take(EVENT_FILE_LIMIT + 1).read_to_string(&mut text))
        .map_err(|e| {
            if from_stdin {
                CliError::Io(format!("cannot read the event file from stdin: {e}"))
            } else {
                cannot(e)
            }
        })?;
    if text.len() as u64 > EVENT_FILE_LIMIT {
        return Err(CliError::Mismatch(format!(
            "{}: not an event file (larger than {} KiB)",
            path.display(),
            EVENT_FILE_LIMIT / 1024
        )));
    }
    // A byte-order mark (an editor that saved the file) changes nothing
    // the file says.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if !text.trim_start().starts_with('{') {
        return Err(CliError::Mismatch(format!(
            "{}: not an event file (an event file is the JSON `event new` writes)",
            path.display()
        )));
    }
    Event::from_file(text).map_err(|e| CliError::Mismatch(format!("{}: {e}", path.display())))
}

/// `event new`: write the event file (never over an existing one unless
/// `--force`: its commitment may already be published) and print the
/// commitment.
fn new(a: &EventNewArgs) -> Result<ExitCode, CliError> {
    let secret = match &a.secret {
        Some(s) if s == event::EXAMPLE_SECRET => {
            return Err(CliError::Usage(format!(
                "'{s}' is the documentation's example secret: everyone can derive its rounds; \
                 leave out --secret for a random one"
            )))
        }
        Some(s) => s.clone(),
        None => event::new_secret()?,
    };
    let path = &a.output;
    // Standard output by any name, and the other descriptors too
    // (`/dev/stderr` is the terminal): the secret would be shown, and no
    // file kept to draw from.
    if super::is_stdout(path) || output_file::names_a_descriptor(path) {
        return Err(CliError::Usage(format!(
            "the event file holds the secret: give it a file name (-o FILE), not standard output or another descriptor ('{}')",
            path.display()
        )));
    }
    let mut e = Event::new(&a.name, kind(a.dfrc), a.rounds, secret)?;
    if a.public_part {
        e = e.with_public_part();
    }
    let text = e.to_file();
    let write = |w: &mut dyn Write| {
        w.write_all(text.as_bytes())
            .map_err(|err| output_file::cannot_write(path, &err))
    };
    if path.is_dir() {
        return Err(CliError::Io(format!(
            "'{}' is a folder: give the event file a name (-o {})",
            path.display(),
            path.join("event.json").display()
        )));
    }
    // A device or a pipe by any name (`/dev/null`, a FIFO another program
    // reads): the secret would be lost or handed on, and the commitment
    // printed could never be revealed.
    if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(CliError::Usage(format!(
            "the event file holds the secret: '{}' is not a regular file (a device or a pipe \
             keeps nothing); give it a file name",
            path.display()
        )));
    }
    if a.force {
        // Readable by its owner alone (the secret is private until the
        // end: a club's shared computer has other users), and replaced
        // whole or not at all.
        output_file::write_whole(path, Access::Private, write)?;
    } else {
        // Made here and never committed to when the write fails: the same
        // command can be run again, not refused as if the file held a secret.
        let exists = || {
            CliError::Io(format!(
                "'{}' exists: event new never writes over a file (an event file's secret may \
                 already be committed to); choose another name or add --force",
                path.display()
            ))
        };
        output_file::write_new(path, Access::Private, exists, write)?;
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{}", e.commitment())
        .and_then(|()| out.flush())
        .map_err(|err| match CliError::from(err) {
            CliError::Io(why) => CliError::Io(format!(
                "'{}' is written, but its commitment was not printed ({why}): \
                 `chess960 event commitment {}` prints it",
                path.display(),
                path.display()
            )),
            other => other,
        })?;
    let public_step = if a.public_part {
        format!(
            ", and how the public part will be drawn after it; then record it with \
             `chess960 event public {} TEXT`",
            path.display()
        )
    } else {
        String::new()
    };
    eprintln!(
        "publish the commitment above now{public_step}; keep '{}' private until the last round \
         is played (it holds the secret)",
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `event public`: record the public part of an event that awaits one,
/// the file replaced whole (and kept private) or not at all.
fn public(a: &EventPublicArgs) -> Result<ExitCode, CliError> {
    let (_held, mut e) = load_to_change("event public writes the public part into", &a.file)?;
    let already = e.public == event::Public::Given(a.text.clone());
    e.record_public(&a.text)?;
    if !already {
        write_back(&a.file, &e)?;
    }
    eprintln!(
        "public part {}: publish it beside the commitment; the starts are fixed now",
        if already {
            "already recorded, the same"
        } else {
            "recorded"
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// An event file that a command changes in place (`event public`,
/// `event rounds`) must be one: standard input, another descriptor, a
/// pipe or a device would be read, written back into nothing (or block
/// the command), and the change reported though none was kept.
fn rewritable(what: &str, path: &Path) -> Result<(), CliError> {
    let named = path.as_os_str() == "-" || output_file::names_a_descriptor(path);
    // A folder is left to the reading, which names it as one.
    if named || fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Err(CliError::Usage(format!(
            "{what} the event file, which must be a regular file: '{}' is standard input, \
             a descriptor, a pipe or a device, where nothing would be kept; give the file's name",
            path.display()
        )));
    }
    Ok(())
}

/// The event file a command changes in place: checked to be one
/// ([`rewritable`]), held against another change ([`hold`]) for as long
/// as the returned file lives, and read.
fn load_to_change(what: &str, path: &Path) -> Result<(Option<fs::File>, Event), CliError> {
    rewritable(what, path)?;
    let held = hold(path);
    Ok((held, load(path)?))
}

/// Write a changed event back to its file, replaced whole (and kept
/// private: it holds the secret) or not at all, so that a failed write
/// leaves the file as it was.
fn write_back(path: &Path, e: &Event) -> Result<(), CliError> {
    let text = e.to_file();
    output_file::write_whole(path, Access::Private, |w: &mut dyn Write| {
        w.write_all(text.as_bytes())
            .map_err(|err| output_file::cannot_write(path, &err))
    })
}

/// Hold an event file that a command is about to change (`event public`,
/// `event rounds`) until it has replaced it: a second command run at the
/// same moment waits, then reads the file the first one wrote, and its
/// change is made on top of it. Without this each read the same file and
/// the last to write lost the other's change, though both said it was
/// made. The lock is the operating system's advisory one on the file
/// itself (no lock file is left behind); the replacement is a new file
/// under the same name, so a command that waited on the one replaced
/// takes the lock again on the new one. `None` where the file cannot be
/// opened or locked (the reading then names what is wrong, or the change
/// is made unheld on a file system without locks).
fn hold(path: &Path) -> Option<fs::File> {
    loop {
        let file = fs::File::open(path).ok()?;
        file.lock().ok()?;
        if same_file(&file.metadata().ok()?, &fs::metadata(path).ok()?) {
            return Some(file);
        }
        // Replaced while this command waited: the change is in the file
        // now under the name.
    }
}

/// Whether two metadata are of one file (device and inode).
#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// Elsewhere the file is taken as the one held.
#[cfg(not(unix))]
fn same_file(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    true
}

/// `event rounds`: change the number of rounds, the file replaced whole
/// (and kept private) or not at all. A round's start depends on the secret,
/// the round and the kind alone, not on how many rounds there are, so every
/// round kept keeps its start, and the commitment stays valid.
fn rounds(a: &EventRoundsArgs) -> Result<ExitCode, CliError> {
    let (_held, mut e) = load_to_change("event rounds writes the number of rounds into", &a.file)?;
    let was = e.rounds;
    e.set_rounds(a.rounds)?;
    if was != a.rounds {
        write_back(&a.file, &e)?;
    }
    // "round 8" or "rounds 8-9", and the verb that agrees with it.
    let span = |from: u32, to: u32| {
        if from == to {
            (format!("round {from}"), "keeps its start")
        } else {
            (format!("rounds {from}-{to}"), "keep their starts")
        }
    };
    let announce = "announce the new number of rounds beside the commitment";
    let change = match a.rounds.cmp(&was) {
        std::cmp::Ordering::Equal => format!(
            "the event has {was} round{} already: nothing changed",
            if was == 1 { "" } else { "s" }
        ),
        std::cmp::Ordering::Greater => {
            let (added, _) = span(was + 1, a.rounds);
            let (kept, keeps) = span(1, was);
            format!("{added} added; {kept} {keeps}; {announce}")
        }
        std::cmp::Ordering::Less => {
            let (removed, _) = span(a.rounds + 1, was);
            let (kept, keeps) = span(1, a.rounds);
            format!("{removed} removed; {kept} {keeps}; {announce}")
        }
    };
    eprintln!("{change}");
    Ok(ExitCode::SUCCESS)
}

/// `event draw`: one round in full, or a line per round.
fn draw(a: &EventDrawArgs) -> Result<ExitCode, CliError> {
    let e = load(&a.file)?;
    let mut out = BufWriter::new(io::stdout().lock());
    match a.round {
        Some(r) => {
            let start = e.draw(r)?;
            writeln!(out, "Round {r} of {}", e.rounds)?;
            out.write_all(super::positions::describe_numbered(start)?.as_bytes())?;
        }
        None => {
            for (i, start) in e.all_rounds()?.into_iter().enumerate() {
                writeln!(
                    out,
                    "{} {} {}",
                    i + 1,
                    start.number(),
                    start.fen(CastlingNotation::XFen)?
                )?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `event pack`: the HTML pack to a file or stdout.
fn pack(a: &EventPackArgs) -> Result<ExitCode, CliError> {
    let e = load(&a.file)?;
    let paper = match a.paper {
        PaperArg::A4 => Paper::A4,
        PaperArg::Letter => Paper::Letter,
    };
    let starts: Vec<(u32, Numbered)> = match a.round {
        Some(r) => vec![(r, e.draw(r)?)],
        None => (1..).zip(e.all_rounds()?).collect(),
    };
    let page = html::event_pack(&e, &starts, paper)?;
    let output = a.output.as_deref().unwrap_or(Path::new("-"));
    refuse_event_file(output)?;
    // Every round's start is in it: its owner's alone, as the event file,
    // until the rounds are played, from its first byte on.
    super::write_file_as(output, &page, Access::Private)?;
    Ok(ExitCode::SUCCESS)
}

/// The pack is never written over an event file (its own, by a slip of
/// `-o`, or another): the secret under a published commitment would be
/// lost, and the event could never be verified.
fn refuse_event_file(output: &Path) -> Result<(), CliError> {
    // Standard output too, by whatever name: `>> ev.json` would add the
    // pack to the event file (the shell has emptied a file under `>`).
    let file = if output.as_os_str() == "-" {
        Path::new("/dev/stdout")
    } else {
        output
    };
    // Regular files of an event file's size only: a device (`-o
    // /dev/stdout` on a terminal) must not be read.
    let small_file = fs::metadata(file).is_ok_and(|m| m.is_file() && m.len() < 1 << 20);
    // Any version's event file, or one whose `format` was lost: a JSON
    // object that names a secret or an event format.
    let is_event = small_file
        && fs::read_to_string(file).is_ok_and(|text| {
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            text.trim_start().starts_with('{')
                && (text.contains("\"secret\"") || text.contains(event::FORMAT_FAMILY))
        });
    if is_event {
        let name = if output.as_os_str() == "-" {
            "standard output".to_owned()
        } else {
            format!("'{}'", output.display())
        };
        return Err(CliError::Io(format!(
            "{name} is an event file (it holds a secret): write the pack to another name"
        )));
    }
    Ok(())
}

/// `event commitment`: the commitment alone, as `event new` printed it,
/// for an organiser who did not keep that line (the pack's foot has it
/// too, but the pack shows every round). The file is checked as every
/// command checks it, so the line is the hash of the secret it holds.
fn commitment(a: &EventFileArgs) -> Result<ExitCode, CliError> {
    let e = load(&a.file)?;
    let mut out = io::stdout().lock();
    writeln!(out, "{}", e.commitment())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `event reveal`: what to publish after the event.
fn reveal(a: &EventFileArgs) -> Result<ExitCode, CliError> {
    let e = load(&a.file)?;
    let starts: Vec<String> = e
        .all_rounds()?
        .iter()
        .map(|s| s.number().to_string())
        .collect();
    let secret = shlex::try_quote(&e.secret).map_err(|err| {
        CliError::Usage(format!("the secret cannot be quoted for a shell: {err}"))
    })?;
    let public = match &e.public {
        event::Public::Given(p) => {
            let quoted = shlex::try_quote(p).map_err(|err| {
                CliError::Usage(format!(
                    "the public part cannot be quoted for a shell: {err}"
                ))
            })?;
            format!(" --public={quoted}")
        }
        _ => String::new(),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "secret: {}", e.secret)?;
    writeln!(out, "commitment: {}", e.commitment())?;
    if let event::Public::Given(p) = &e.public {
        writeln!(out, "public part: {p}")?;
    }
    for (i, s) in starts.iter().enumerate() {
        writeln!(out, "round {}: {s}", i + 1)?;
    }
    writeln!(
        out,
        "check: chess960 event verify{} --commitment {}{public} --secret={secret} --starts {}",
        if e.kind == Kind::Dfrc { " --dfrc" } else { "" },
        e.commitment(),
        starts.join(",")
    )?;
    // The line above checks this file against itself, which proves
    // nothing to a player: the proof is the commitment they saw before the
    // event and the starts they played.
    writeln!(
        out,
        "players: run the check with the commitment published before the event and the starts \
         of their own pairing sheets or games"
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// A claimed start as typed: a number, or a back rank or FEN.
fn claimed(text: &str, kind: Kind) -> Result<u32, CliError> {
    let t = text.trim();
    let number = crate::whole_number::digits_only(t);
    Ok(match (kind, number) {
        (Kind::Chess960, true) => startpos::parse_number(t).map_err(|e| {
            // A DFRC number checked as Chess960: say what is missing.
            match t.parse::<u32>() {
                Ok(n) if n < startpos::DFRC_COUNT => CliError::Usage(format!(
                    "{e} (a Double Fischer Random number: add --dfrc if the event was \
                     announced as Double Fischer Random)"
                )),
                _ => e.into(),
            }
        })?,
        (Kind::Chess960, false) => super::positions::parse_start(t)?,
        (Kind::Dfrc, true) => startpos::parse_dfrc_number(t)?,
        (Kind::Dfrc, false) => startpos::parse_dfrc(t)?,
    })
}

/// `event verify`: the secret against the commitment, then each claimed
/// round against the derivation.
fn verify(a: &EventVerifyArgs) -> Result<ExitCode, CliError> {
    let commitment = event::parse_commitment(&a.commitment)?;
    let kind = kind(a.dfrc);
    if let Some(p) = &a.public {
        event::check_public(p)?;
    }
    let public = a.public.as_deref();
    let claims: Vec<(u32, u32)> = match (&a.starts, a.round, &a.start) {
        (Some(list), _, _) => list
            .split(',')
            .enumerate()
            .map(|(i, s)| {
                let round = u32::try_from(i + 1).unwrap_or(u32::MAX);
                claimed(s, kind)
                    .map(|n| (round, n))
                    .map_err(|e| CliError::Usage(format!("--starts, round {round}: {e}")))
            })
            .collect::<Result<_, _>>()?,
        (None, Some(round), Some(start)) => vec![(round, claimed(start, kind)?)],
        _ => {
            return Err(CliError::Usage(
                "give --round R --start N, or --starts N1,N2,...".into(),
            ))
        }
    };
    event::check_commitment(&a.secret, &commitment).map_err(|e| {
        // A secret pasted with a space or a line end: a typo, not a cheat.
        let padded = a.secret.trim() != a.secret;
        let fits = event::check_commitment(a.secret.trim(), &commitment).is_ok();
        // Hex typed in capitals: the program's secrets are lower case.
        let lower = a.secret.trim().to_ascii_lowercase();
        let fits_lower = lower != a.secret && event::check_commitment(&lower, &commitment).is_ok();
        match e {
            EventError::WrongSecret { .. } if fits_lower && !fits => CliError::Mismatch(format!(
                "{e} (in lower case, without white space at its ends, it matches: the secrets \
                 of `event new` are lower-case hex, and the exact bytes are hashed)"
            )),
            EventError::WrongSecret { .. } if padded && fits => CliError::Mismatch(format!(
                "{e} (the secret has white space at an end; without it, it matches: \
                 secrets never end in white space)"
            )),
            EventError::WrongSecret { .. } if padded => CliError::Mismatch(format!(
                "{e} (the secret has white space at an end, which no secret of `event new` has)"
            )),
            // Letters that look alike may be other bytes: an accented letter
            // composed (one character) or decomposed (a letter and a
            // combining accent), as keyboards, systems and copies differ.
            EventError::WrongSecret { .. } if !a.secret.is_ascii() => CliError::Mismatch(format!(
                "{e} (the secret has characters beyond ASCII, and its exact bytes are hashed: \
                 an accented letter typed as one character or as a letter and an accent looks \
                 the same but is other bytes; copy the secret as it was published)"
            )),
            other => other.into(),
        }
    })?;
    // Every round is checked before anything is printed: a failed check
    // leaves standard output empty and its one error line names the round.
    let starts: Vec<(u32, Numbered)> = claims
        .iter()
        .map(|&(round, n)| {
            event::verify(&commitment, &a.secret, public, round, kind, n)
                .map(|s| (round, s))
                .map_err(|e| {
                    // White's side alone of the round's DFRC start,
                    // typed as a number below 960 or as a back rank or FEN
                    // (both sides alike): the same word gives a Chess960
                    // event's start, so this is not a hint to drop --dfrc,
                    // which would check an event of another kind.
                    let count = startpos::COUNT;
                    let white = if n < count { n } else { n % count };
                    let alike = n < count || n / count == n % count;
                    match (kind, &e) {
                        (Kind::Dfrc, EventError::WrongStart { derived, .. })
                            if alike && derived % count == white =>
                        {
                            CliError::Mismatch(format!(
                                "{e} ({white} is White's side of it alone: the start is \
                                 {derived}, White {white} and Black {}; give the whole number)",
                                derived / count
                            ))
                        }
                        // An event with a public part checked without it
                        // gives other starts: the likeliest slip.
                        (_, EventError::WrongStart { .. }) if public.is_none() => {
                            CliError::Mismatch(format!(
                                "{e} (if the event had a public part, drawn after its \
                                 commitment, add --public 'TEXT' as it was published)"
                            ))
                        }
                        _ => e.into(),
                    }
                })
        })
        .collect::<Result<_, _>>()?;
    if a.secret.len() < event::MIN_SECRET_LEN {
        eprintln!(
            "note: the secret has {} bytes, fewer than {}: a commitment to so short a secret \
             can be matched by trying secrets, so it proves less",
            a.secret.len(),
            event::MIN_SECRET_LEN
        );
    }
    let mut out = BufWriter::new(io::stdout().lock());
    for (round, start) in &starts {
        writeln!(out, "round {round}: {start} matches")?;
    }
    writeln!(
        out,
        "ok: the secret matches commitment {commitment}; {} round{} checked{}",
        claims.len(),
        if claims.len() == 1 { "" } else { "s" },
        match public {
            Some(p) => format!(" with the public part '{p}'"),
            None => String::new(),
        }
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
