//! Handlers for `event new|draw|pack|reveal|verify`: the verifiable draw
//! of [`crate::event`] and the printable pack of [`crate::html`].

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use super::{
    write_file, CliError, EventArgs, EventCommand, EventDrawArgs, EventFileArgs, EventNewArgs,
    EventPackArgs, EventVerifyArgs, PaperArg,
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
            | EventError::Random(_) => CliError::Mismatch(e.to_string()),
            EventError::SecretTooShort(_)
            | EventError::SecretNotPrintable
            | EventError::BadCommitment(_)
            | EventError::RoundOutOfRange { .. }
            | EventError::RoundCount(_)
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

/// Read and check an event file; the message names the file.
fn load(path: &Path) -> Result<Event, CliError> {
    let text = fs::read_to_string(path)
        .map_err(|e| CliError::Io(format!("cannot read event file '{}': {e}", path.display())))?;
    Event::from_file(&text).map_err(|e| CliError::Mismatch(format!("{}: {e}", path.display())))
}

/// `event new`: write the event file (never over an existing one unless
/// `--force`: its commitment may already be published) and print the
/// commitment.
fn new(a: &EventNewArgs) -> Result<ExitCode, CliError> {
    let secret = match &a.secret {
        Some(s) => s.clone(),
        None => event::new_secret()?,
    };
    let e = Event::new(&a.name, kind(a.dfrc), a.rounds, secret)?;
    let mut options = fs::OpenOptions::new();
    options.write(true);
    if a.force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let path = &a.output;
    let mut file = options.open(path).map_err(|err| {
        if err.kind() == io::ErrorKind::AlreadyExists {
            CliError::Io(format!(
                "'{}' exists: an event file holds a secret that may already be committed to; \
                 choose another name or add --force",
                path.display()
            ))
        } else {
            CliError::Io(format!("cannot create '{}': {err}", path.display()))
        }
    })?;
    file.write_all(e.to_file().as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|err| CliError::Io(format!("cannot write '{}': {err}", path.display())))?;
    let mut out = io::stdout().lock();
    writeln!(out, "{}", e.commitment())?;
    out.flush()?;
    eprintln!(
        "publish the commitment above now; keep '{}' private until the last round is played \
         (it holds the secret)",
        path.display()
    );
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
            for (i, start) in e.all_rounds().into_iter().enumerate() {
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
    let page = html::event_pack(&e, paper)?;
    write_file(a.output.as_deref().unwrap_or(Path::new("-")), &page)?;
    Ok(ExitCode::SUCCESS)
}

/// `event reveal`: what to publish after the event.
fn reveal(a: &EventFileArgs) -> Result<ExitCode, CliError> {
    let e = load(&a.file)?;
    let starts: Vec<String> = e
        .all_rounds()
        .iter()
        .map(|s| s.number().to_string())
        .collect();
    let secret = shlex::try_quote(&e.secret).map_err(|err| {
        CliError::Usage(format!("the secret cannot be quoted for a shell: {err}"))
    })?;
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "secret: {}", e.secret)?;
    writeln!(out, "commitment: {}", e.commitment())?;
    for (i, s) in starts.iter().enumerate() {
        writeln!(out, "round {}: {s}", i + 1)?;
    }
    writeln!(
        out,
        "check: chess960 event verify{} --commitment {} --secret={secret} --starts {}",
        if e.kind == Kind::Dfrc { " --dfrc" } else { "" },
        e.commitment(),
        starts.join(",")
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// A claimed start as typed: a number, or a back rank or FEN.
fn claimed(text: &str, kind: Kind) -> Result<u32, CliError> {
    let t = text.trim();
    let number = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    Ok(match (kind, number) {
        (Kind::Chess960, true) => startpos::parse_number(t)?,
        (Kind::Chess960, false) => startpos::parse(t)?,
        (Kind::Dfrc, true) => startpos::parse_dfrc_number(t)?,
        (Kind::Dfrc, false) => startpos::parse_dfrc(t)?,
    })
}

/// `event verify`: the secret against the commitment, then each claimed
/// round against the derivation.
fn verify(a: &EventVerifyArgs) -> Result<ExitCode, CliError> {
    let commitment = event::parse_commitment(&a.commitment)?;
    let kind = kind(a.dfrc);
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
    event::check_commitment(&a.secret, &commitment)?;
    // Every round is checked before anything is printed: a failed check
    // leaves standard output empty and its one error line names the round.
    let starts: Vec<(u32, Numbered)> = claims
        .iter()
        .map(|&(round, n)| {
            event::verify(&commitment, &a.secret, round, kind, n).map(|s| (round, s))
        })
        .collect::<Result<_, _>>()?;
    let mut out = BufWriter::new(io::stdout().lock());
    for (round, start) in &starts {
        writeln!(out, "round {round}: {start} matches")?;
    }
    writeln!(
        out,
        "ok: the secret matches commitment {commitment}; {} round{} checked",
        claims.len(),
        if claims.len() == 1 { "" } else { "s" }
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
