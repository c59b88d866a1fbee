//! A draw anyone can check: the start of every round of an event, fixed in
//! advance by a secret and published as a commitment (commit and reveal).
//!
//! Before the event the organiser publishes the commitment, the SHA-256 of
//! the secret; the start of round R is derived from the secret and R alone;
//! after the event the secret is published, and anyone recomputes the
//! commitment and every round. The organiser cannot change a round once the
//! commitment is out, and nobody can foresee a round without the secret.
//!
//! The derivation (docs/event.md has it with a worked example):
//!
//! * the secret is a string of at least [`MIN_SECRET_LEN`] bytes, hashed
//!   as its UTF-8 bytes exactly (no newline, no normalisation); the
//!   program's own secrets are 64 lower-case hex digits of 32 bytes from
//!   the operating system's random source;
//! * commitment = SHA-256(secret), written as 64 lower-case hex digits;
//! * block(R, c) = SHA-256(`"chess960-event-v1"` ‖ 0x00 ‖ R as 4 bytes
//!   big-endian ‖ c as 4 bytes big-endian ‖ key), for c = 0, 1, 2, ...,
//!   where the key is the secret, or, for an event with a public part (a
//!   text drawn in public after the commitment was published, so that the
//!   organiser cannot pick starts by trying secrets), secret ‖ 0x00 ‖
//!   public part (a secret never holds a 0x00);
//! * the blocks, read in order as 32-bit big-endian words, feed
//!   [`crate::startpos::random_number`] (or
//!   [`crate::startpos::random_dfrc_number`]): the first word w below
//!   2^32 − (2^32 mod n) gives the start w mod n, where n is 960 (or
//!   921,600); words at or above it are skipped, so no start is favoured
//!   (no modulo bias).

use std::fmt::Write as _;

use rand::rngs::OsRng;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::startpos::{self, Numbered};

/// The domain-separation prefix of every derivation block; a new version
/// of the derivation gets a new prefix, so old events stay checkable.
pub const DOMAIN: &str = "chess960-event-v1";

/// The `format` field of an event file.
pub const FILE_FORMAT: &str = "chess960-event-v1";

/// What every version's `format` begins with.
pub const FORMAT_FAMILY: &str = "chess960-event";

/// The secret of docs/event.md's worked example: its rounds are published,
/// so `event new` refuses it.
pub const EXAMPLE_SECRET: &str = "example-secret-for-the-docs-2026";

/// The fewest bytes a secret may have: a short secret could be guessed
/// from the commitment by trying candidates, and then every round foreseen.
pub const MIN_SECRET_LEN: usize = 16;

/// The most rounds an event may have (a sanity bound on typing errors).
pub const MAX_ROUNDS: u32 = 999;

/// The most characters an event's name may have: what fits on one line
/// at the top of a printed page.
pub const MAX_NAME_CHARS: usize = 70;

/// The longest public part `event public` records: a pack's sheet prints
/// it twice at its foot (beside the commitment and in the command that
/// checks the round), and 200 characters leave both on an A4 or Letter
/// sheet below the diagram (900 dice, about 1,800, pushed the command off
/// the page). Twenty dice, a lottery draw or a block hash need far less.
pub const MAX_PUBLIC_CHARS: usize = 200;

/// Which starts an event draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The 960 Chess960 starts (Scharnagl numbers).
    Chess960,
    /// The 921,600 Double Fischer Random starts (white + 960 * black).
    Dfrc,
}

impl Kind {
    /// The number of starts drawn from.
    pub fn count(self) -> u32 {
        match self {
            Kind::Chess960 => startpos::COUNT,
            Kind::Dfrc => startpos::DFRC_COUNT,
        }
    }

    /// The start of number `n` of this kind.
    pub fn numbered(self, n: u32) -> Numbered {
        match self {
            Kind::Chess960 => Numbered::Chess960(n),
            Kind::Dfrc => Numbered::Dfrc(n),
        }
    }
}

/// Why an event, a secret, a commitment or a claimed round does not hold.
/// Each message is one line naming the culprit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// The secret is shorter than [`MIN_SECRET_LEN`] bytes.
    #[error("the secret has {0} bytes: it needs at least {MIN_SECRET_LEN} so that nobody can guess it from the commitment")]
    SecretTooShort(usize),
    /// Leading or trailing white space, or control characters: they would
    /// be lost or changed when the secret is copied, and the check would fail.
    #[error("the secret has white space at an end or a control character: use printable characters only, since the exact bytes are hashed")]
    SecretNotPrintable,
    /// A character that cannot be seen or is a space other than the plain
    /// one (a zero-width space, a byte-order mark, a direction override, a
    /// no-break space): a player who types the secret as printed gets other
    /// bytes, and the check fails as if the organiser had cheated.
    #[error("the secret has an invisible or unusual space character (U+{0:04X}): a player typing it as shown would get other bytes; use visible characters and plain spaces")]
    SecretInvisible(u32),
    /// A commitment that is not 64 hex digits.
    #[error("'{0}' is not a commitment: expected 64 hex digits (a SHA-256)")]
    BadCommitment(String),
    /// The secret does not hash to the commitment.
    #[error("the secret does not match the commitment: SHA-256 of the secret is {computed}, the commitment is {given}")]
    WrongSecret {
        /// SHA-256 of the secret given.
        computed: String,
        /// The commitment given.
        given: String,
    },
    /// Round 0 or a round beyond the event's last.
    #[error("round {round} out of range: valid rounds are 1..{rounds}")]
    RoundOutOfRange {
        /// The round asked for.
        round: u32,
        /// The event's number of rounds.
        rounds: u32,
    },
    /// A name too long for the pages' heading line.
    #[error("the event name has {0} characters: at most {MAX_NAME_CHARS} fit on a page")]
    NameTooLong(usize),
    /// A name with a control character (a tab, a new line, an escape): a
    /// page cannot show it, and HTML does not allow most of them.
    #[error("the event name has a control or invisible character (U+{:04X}): use printable characters only", u32::from(*.0))]
    NameNotPrintable(char),
    /// A number of rounds outside 1..[`MAX_ROUNDS`].
    #[error("{0} rounds: an event has 1..{MAX_ROUNDS} rounds")]
    RoundCount(u32),
    /// The claimed start is not the one the secret gives.
    #[error("round {round}: the secret gives start {derived}, not {claimed}")]
    WrongStart {
        /// The round.
        round: u32,
        /// The start the secret derives.
        derived: u32,
        /// The start claimed.
        claimed: u32,
    },
    /// The event file cannot be read as an event.
    #[error("damaged event file: {0}")]
    Damaged(String),
    /// A public part that cannot serve: empty, white space at an end, a
    /// control or invisible character (the message says which).
    #[error("the public part {0}")]
    BadPublic(String),
    /// The event's starts wait for its public part.
    #[error("the event's public part is not recorded yet: its starts depend on it (record it with `chess960 event public FILE TEXT` once it is drawn)")]
    PublicAwaited,
    /// `event public` for an event made without a public part, or a second,
    /// different public part.
    #[error("{0}")]
    PublicRefused(String),
    /// The operating system's random source failed.
    #[error("cannot make a secret: the operating system's random source failed: {0}")]
    Random(String),
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Check that `secret` can serve: long enough, printable, no white space
/// at its ends, nothing invisible ([`invisible`]).
///
/// # Errors
/// [`EventError::SecretTooShort`], [`EventError::SecretNotPrintable`],
/// [`EventError::SecretInvisible`].
pub fn check_secret(secret: &str) -> Result<(), EventError> {
    check_secret_bytes(secret)?;
    match secret.chars().find(|&c| invisible(c)) {
        Some(c) => Err(EventError::SecretInvisible(u32::from(c))),
        None => Ok(()),
    }
}

/// Check that `public` can serve as an event's public part: not empty,
/// printable, no white space at its ends, nothing invisible. It is typed
/// by players from a notice board, so the rules are the secret's, but for
/// the length: it is public, and its strength is the secret's.
///
/// # Errors
/// [`EventError::BadPublic`].
pub fn check_public(public: &str) -> Result<(), EventError> {
    if public.is_empty() {
        return Err(EventError::BadPublic("is empty".into()));
    }
    if loose_ends_or_controls(public) {
        return Err(EventError::BadPublic(
            "has white space at an end or a control character: use printable characters only, \
             since the exact bytes are hashed"
                .into(),
        ));
    }
    match public.chars().find(|&c| invisible(c)) {
        Some(c) => Err(EventError::BadPublic(format!(
            "has an invisible or unusual space character (U+{:04X}): use visible characters \
             and plain spaces",
            u32::from(c)
        ))),
        None => Ok(()),
    }
}

/// The checks an event file's secret must pass to be read at all: a file
/// written before invisible characters were refused keeps its secret
/// (it is under the published commitment).
fn check_secret_bytes(secret: &str) -> Result<(), EventError> {
    if secret.len() < MIN_SECRET_LEN {
        return Err(EventError::SecretTooShort(secret.len()));
    }
    if loose_ends_or_controls(secret) {
        return Err(EventError::SecretNotPrintable);
    }
    Ok(())
}

/// White space at an end or a control character: bytes that copying the
/// text (a secret, a public part) from a page loses or changes.
fn loose_ends_or_controls(text: &str) -> bool {
    text.trim() != text || text.chars().any(char::is_control)
}

/// A space wider or narrower than the plain one: shown as a space on a
/// page, so harmless in a name (not in a secret, where it is other bytes).
fn wide_space(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// A character an event name may not hold: a control character, or one a
/// page would not show (an unusual space is shown as a space, so allowed).
fn unfit_in_name(c: char) -> bool {
    c.is_control() || (invisible(c) && !wide_space(c))
}

/// A character a reader cannot see or tell from a plain space: white space
/// other than U+0020 (no-break, em, ideographic spaces, line and paragraph
/// separators) and Unicode's invisible format characters (category Cf:
/// zero-width spaces and joiners, direction marks and overrides, the
/// byte-order mark, the soft hyphen, invisible operators, tags), the other
/// characters Unicode says to show as nothing (Default_Ignorable_Code_Point:
/// the combining grapheme joiner, Hangul and Khmer fillers, variation
/// selectors, U+FE0F among them, which a phone adds to an emoji typed as
/// ♟️ and a player typing ♟ would not reproduce) and the blank Braille
/// pattern.
pub fn invisible(c: char) -> bool {
    (c.is_whitespace() && c != ' ')
        || matches!(
            u32::from(c),
            0x00AD
                | 0x034F
                | 0x0600..=0x0605
                | 0x061C
                | 0x06DD
                | 0x070F
                | 0x0890..=0x0891
                | 0x08E2
                | 0x115F..=0x1160
                | 0x17B4..=0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0x2800
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF9..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0001
                | 0xE0020..=0xE007F
                | 0xE0100..=0xE01EF
        )
}

/// A new secret: 32 bytes from the operating system's random source as 64
/// lower-case hex digits (typeable, and safe to copy).
///
/// # Errors
/// [`EventError::Random`] when the random source fails.
pub fn new_secret() -> Result<String, EventError> {
    let mut bytes = [0u8; 32];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| EventError::Random(e.to_string()))?;
    Ok(hex(&bytes))
}

/// The commitment of `secret`: SHA-256 of its UTF-8 bytes, lower-case hex.
pub fn commitment(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Read a commitment as typed: 64 hex digits, either case, spaces at the
/// ends ignored; returned in lower case.
///
/// # Errors
/// [`EventError::BadCommitment`].
pub fn parse_commitment(text: &str) -> Result<String, EventError> {
    let t = text.trim();
    if t.len() != 64 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(EventError::BadCommitment(text.to_string()));
    }
    Ok(t.to_ascii_lowercase())
}

/// Check that `secret` hashes to `commitment` (already parsed).
///
/// # Errors
/// [`EventError::WrongSecret`].
pub fn check_commitment(secret: &str, commitment_hex: &str) -> Result<(), EventError> {
    let computed = commitment(secret);
    if computed != commitment_hex {
        return Err(EventError::WrongSecret {
            computed,
            given: commitment_hex.to_string(),
        });
    }
    Ok(())
}

/// The bytes the blocks hash after the round and counter: the secret, or
/// secret ‖ 0x00 ‖ public part. A secret holds no control character, so
/// no key with a public part is the key of a secret alone.
pub fn key(secret: &str, public: Option<&str>) -> Vec<u8> {
    let mut key = secret.as_bytes().to_vec();
    if let Some(p) = public {
        key.push(0);
        key.extend_from_slice(p.as_bytes());
    }
    key
}

/// Derivation block `counter` of round `round`: SHA-256(DOMAIN ‖ 0x00 ‖
/// round (u32 BE) ‖ counter (u32 BE) ‖ key) ([`key`]).
pub fn block(key: &[u8], round: u32, counter: u32) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(DOMAIN.as_bytes());
    h.update([0u8]);
    h.update(round.to_be_bytes());
    h.update(counter.to_be_bytes());
    h.update(key);
    h.finalize().into()
}

/// The 32-bit words of the blocks of one round, in order: the random
/// stream the start of that round is drawn from. Only `next_u32` is part
/// of the documented derivation; the other methods exist for the trait.
#[derive(Debug, Clone)]
pub struct RoundStream<'a> {
    key: &'a [u8],
    round: u32,
    counter: u32,
    block: [u8; 32],
    used: usize,
}

impl<'a> RoundStream<'a> {
    /// The stream of round `round` under `key` ([`key`]).
    pub fn new(key: &'a [u8], round: u32) -> Self {
        RoundStream {
            key,
            round,
            counter: 0,
            block: block(key, round, 0),
            used: 0,
        }
    }
}

impl RngCore for RoundStream<'_> {
    fn next_u32(&mut self) -> u32 {
        if self.used == 8 {
            self.counter += 1;
            self.block = block(self.key, self.round, self.counter);
            self.used = 0;
        }
        let i = self.used * 4;
        self.used += 1;
        u32::from_be_bytes([
            self.block[i],
            self.block[i + 1],
            self.block[i + 2],
            self.block[i + 3],
        ])
    }

    fn next_u64(&mut self) -> u64 {
        (u64::from(self.next_u32()) << 32) | u64::from(self.next_u32())
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(4) {
            let w = self.next_u32().to_be_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// The start of round `round` (1-based) under `secret`: a Scharnagl number
/// or a DFRC index, uniform over the `kind`'s starts.
pub fn derive(secret: &str, round: u32, kind: Kind) -> Numbered {
    derive_with(secret, None, round, kind)
}

/// [`derive()`] for an event with a public part, or without (`None`).
pub fn derive_with(secret: &str, public: Option<&str>, round: u32, kind: Kind) -> Numbered {
    let key = key(secret, public);
    let mut stream = RoundStream::new(&key, round);
    match kind {
        Kind::Chess960 => Numbered::Chess960(startpos::random_number(&mut stream)),
        Kind::Dfrc => Numbered::Dfrc(startpos::random_dfrc_number(&mut stream)),
    }
}

/// A round number must be 1..=`rounds`.
///
/// # Errors
/// [`EventError::RoundOutOfRange`].
pub fn check_round(round: u32, rounds: u32) -> Result<(), EventError> {
    if round == 0 || round > rounds {
        return Err(EventError::RoundOutOfRange { round, rounds });
    }
    Ok(())
}

/// Check a published round: `secret` against `commitment_hex`, then the
/// claimed start against the one derived from the secret and the public
/// part, where the event has one.
///
/// # Errors
/// [`EventError::WrongSecret`], [`EventError::RoundOutOfRange`] (round 0
/// or beyond [`MAX_ROUNDS`]), [`EventError::WrongStart`].
pub fn verify(
    commitment_hex: &str,
    secret: &str,
    public: Option<&str>,
    round: u32,
    kind: Kind,
    claimed: u32,
) -> Result<Numbered, EventError> {
    check_commitment(secret, commitment_hex)?;
    check_round(round, MAX_ROUNDS)?;
    let derived = derive_with(secret, public, round, kind);
    if derived.number() != claimed {
        return Err(EventError::WrongStart {
            round,
            derived: derived.number(),
            claimed,
        });
    }
    Ok(derived)
}

/// An event: what the organiser keeps (the secret) and what they publish
/// (the commitment, the kind, the number of rounds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// A name for the pages, e.g. `Club rapid, spring 2026` (may be empty).
    pub name: String,
    /// Chess960 or Double Fischer Random starts.
    pub kind: Kind,
    /// Rounds 1..=rounds.
    pub rounds: u32,
    /// The secret; published only after the event.
    pub secret: String,
    /// The public part, where the event has one.
    pub public: Public,
}

/// An event's public part: a text drawn in public after the commitment is
/// published (dice rolled by players at the opening, a lottery's numbers),
/// hashed with the secret into every round's start. Without it, an
/// organiser could try secrets before publishing one and keep starts they
/// like; with it, the starts are out of their hands from the commitment on,
/// and still unforeseeable to anyone without the secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Public {
    /// The starts depend on the secret alone (every event before public
    /// parts, and those made without one).
    None,
    /// Announced with the commitment, not drawn yet: the event has no
    /// starts until it is recorded.
    Awaited,
    /// Drawn and recorded.
    Given(String),
}

/// The event file: JSON, with the commitment written out so that a file
/// whose secret was damaged is caught on reading.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventFile {
    format: String,
    name: String,
    kind: Kind,
    rounds: u32,
    commitment: String,
    secret: String,
    /// Absent for an event without a public part (files of every version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    public_part: Option<Public>,
}

impl Event {
    /// A new event, checking the secret and the number of rounds.
    ///
    /// # Errors
    /// [`EventError::RoundCount`], [`EventError::NameTooLong`],
    /// [`EventError::NameNotPrintable`], or the secret's error from
    /// [`check_secret`].
    pub fn new(name: &str, kind: Kind, rounds: u32, secret: String) -> Result<Event, EventError> {
        Self::build(name, kind, rounds, secret, check_secret)
    }

    /// This event awaiting a public part, announced with its commitment.
    #[must_use]
    pub fn with_public_part(self) -> Event {
        Event {
            public: Public::Awaited,
            ..self
        }
    }

    /// Record the public part drawn for an event that awaits one (the
    /// same text again is no change).
    ///
    /// # Errors
    /// [`EventError::BadPublic`]; [`EventError::PublicRefused`] for an
    /// event made without a public part, or one already given another.
    pub fn record_public(&mut self, text: &str) -> Result<(), EventError> {
        check_public(text)?;
        if text.contains("  ") {
            return Err(EventError::BadPublic(
                "has two spaces in a row: a printed page shows them as one, and the exact \
                 bytes are hashed (separate its parts by one space)"
                    .into(),
            ));
        }
        let chars = text.chars().count();
        if chars > MAX_PUBLIC_CHARS {
            return Err(EventError::BadPublic(format!(
                "has {chars} characters: at most {MAX_PUBLIC_CHARS} fit on a pack's sheet, \
                 where it is printed twice (write down what was drawn, the dice or the \
                 lottery's numbers, not an account of it)"
            )));
        }
        match &self.public {
            Public::None => Err(EventError::PublicRefused(
                "the event was made without --public-part: its starts depend on the secret \
                 alone, as announced with its commitment"
                    .into(),
            )),
            Public::Given(p) if p != text => Err(EventError::PublicRefused(format!(
                "the event's public part is already recorded as '{p}': it is not changed"
            ))),
            _ => {
                self.public = Public::Given(text.to_owned());
                Ok(())
            }
        }
    }

    /// Change the number of rounds: a round added for a tiebreak, or an
    /// event cut short. The starts of the rounds kept do not change (a
    /// round's start does not depend on the count), nor does the
    /// commitment.
    ///
    /// # Errors
    /// [`EventError::RoundCount`] outside 1..[`MAX_ROUNDS`].
    pub fn set_rounds(&mut self, rounds: u32) -> Result<(), EventError> {
        if rounds == 0 || rounds > MAX_ROUNDS {
            return Err(EventError::RoundCount(rounds));
        }
        self.rounds = rounds;
        Ok(())
    }

    /// The public part as the derivation reads it.
    ///
    /// # Errors
    /// [`EventError::PublicAwaited`] while it is not recorded.
    fn public_text(&self) -> Result<Option<&str>, EventError> {
        match &self.public {
            Public::None => Ok(None),
            Public::Awaited => Err(EventError::PublicAwaited),
            Public::Given(p) => Ok(Some(p)),
        }
    }

    /// [`Event::new`] with the secret's check given: an event file's
    /// secret is read with the checks of its time ([`check_secret_bytes`]).
    fn build(
        name: &str,
        kind: Kind,
        rounds: u32,
        secret: String,
        check: fn(&str) -> Result<(), EventError>,
    ) -> Result<Event, EventError> {
        if rounds == 0 || rounds > MAX_ROUNDS {
            return Err(EventError::RoundCount(rounds));
        }
        let chars = name.trim().chars().count();
        if chars > MAX_NAME_CHARS {
            return Err(EventError::NameTooLong(chars));
        }
        if let Some(c) = name.trim().chars().find(|&c| unfit_in_name(c)) {
            return Err(EventError::NameNotPrintable(c));
        }
        check(&secret)?;
        Ok(Event {
            name: name.trim().to_string(),
            kind,
            rounds,
            secret,
            public: Public::None,
        })
    }

    /// The commitment to publish before the event.
    pub fn commitment(&self) -> String {
        commitment(&self.secret)
    }

    /// The start of round `round`.
    ///
    /// # Errors
    /// [`EventError::RoundOutOfRange`], [`EventError::PublicAwaited`].
    pub fn draw(&self, round: u32) -> Result<Numbered, EventError> {
        check_round(round, self.rounds)?;
        Ok(derive_with(
            &self.secret,
            self.public_text()?,
            round,
            self.kind,
        ))
    }

    /// Every round's start, round 1 first.
    ///
    /// # Errors
    /// [`EventError::PublicAwaited`].
    pub fn all_rounds(&self) -> Result<Vec<Numbered>, EventError> {
        let public = self.public_text()?;
        Ok((1..=self.rounds)
            .map(|r| derive_with(&self.secret, public, r, self.kind))
            .collect())
    }

    /// The event file's text (JSON, one field a line).
    pub fn to_file(&self) -> String {
        let file = EventFile {
            format: FILE_FORMAT.to_string(),
            name: self.name.clone(),
            kind: self.kind,
            rounds: self.rounds,
            commitment: self.commitment(),
            secret: self.secret.clone(),
            public_part: match &self.public {
                Public::None => None,
                other => Some(other.clone()),
            },
        };
        let mut s = serde_json::to_string_pretty(&file).expect("an event serialises");
        s.push('\n');
        s
    }

    /// Read an event file, checking every field and that the secret still
    /// hashes to the commitment written beside it.
    ///
    /// # Errors
    /// [`EventError::Damaged`] naming what is wrong.
    pub fn from_file(text: &str) -> Result<Event, EventError> {
        let file: EventFile =
            serde_json::from_str(text).map_err(|e| EventError::Damaged(e.to_string()))?;
        if file.format != FILE_FORMAT {
            return Err(EventError::Damaged(format!(
                "format is '{}', expected '{FILE_FORMAT}'",
                file.format
            )));
        }
        let commitment = parse_commitment(&file.commitment)
            .map_err(|e| EventError::Damaged(format!("commitment: {e}")))?;
        // A file written before names were checked may hold a control or
        // invisible character in its name: read as a space (the name is not under the
        // commitment), so that the event and its secret stay usable.
        let name: String = file
            .name
            .chars()
            .map(|c| if unfit_in_name(c) { ' ' } else { c })
            .collect();
        let mut event = Event::build(
            &name,
            file.kind,
            file.rounds,
            file.secret,
            check_secret_bytes,
        )
        .map_err(|e| EventError::Damaged(e.to_string()))?;
        event.public = match file.public_part {
            None | Some(Public::None) => Public::None,
            Some(Public::Awaited) => Public::Awaited,
            Some(Public::Given(p)) => {
                check_public(&p).map_err(|e| EventError::Damaged(e.to_string()))?;
                Public::Given(p)
            }
        };
        check_commitment(&event.secret, &commitment)
            .map_err(|e| EventError::Damaged(e.to_string()))?;
        Ok(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "correct horse battery staple";

    #[test]
    fn commitment_is_sha256_of_the_utf8_bytes() {
        // The SHA-256 of "abc" from FIPS 180-2 (an independent value);
        // `commitment` hashes any string, the length is checked elsewhere.
        assert_eq!(
            commitment("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn the_stream_reads_big_endian_words_across_blocks() {
        let key = key(SECRET, None);
        let mut s = RoundStream::new(&key, 3);
        let b0 = block(&key, 3, 0);
        let b1 = block(&key, 3, 1);
        let words: Vec<u32> = (0..9).map(|_| s.next_u32()).collect();
        assert_eq!(words[0], u32::from_be_bytes([b0[0], b0[1], b0[2], b0[3]]));
        assert_eq!(
            words[7],
            u32::from_be_bytes([b0[28], b0[29], b0[30], b0[31]])
        );
        assert_eq!(words[8], u32::from_be_bytes([b1[0], b1[1], b1[2], b1[3]]));
    }

    #[test]
    fn words_in_the_biased_zone_are_skipped() {
        // A stream whose first word is the largest u32 (inside the zone
        // 2^32 - 256 .. 2^32 that 960 does not divide evenly) must skip it.
        struct Fixed(Vec<u32>);
        impl RngCore for Fixed {
            fn next_u32(&mut self) -> u32 {
                self.0.remove(0)
            }
            fn next_u64(&mut self) -> u64 {
                u64::from(self.next_u32())
            }
            fn fill_bytes(&mut self, _: &mut [u8]) {}
            fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand::Error> {
                Ok(())
            }
        }
        let zone = u32::MAX - 255; // 2^32 - 256 = 4473924 * 960
        assert_eq!(startpos::random_number(&mut Fixed(vec![zone, 1000])), 40);
        assert_eq!(
            startpos::random_number(&mut Fixed(vec![zone - 1, 0])),
            (zone - 1) % 960
        );
    }

    #[test]
    fn rounds_differ_and_repeat() {
        let a = derive(SECRET, 1, Kind::Chess960);
        assert_eq!(a, derive(SECRET, 1, Kind::Chess960));
        let all: Vec<u32> = (1..=20)
            .map(|r| derive(SECRET, r, Kind::Chess960).number())
            .collect();
        assert!(all.iter().any(|&n| n != all[0]), "{all:?}");
        assert!(all.iter().all(|&n| n < 960));
        assert!((1..=20).all(|r| derive(SECRET, r, Kind::Dfrc).number() < startpos::DFRC_COUNT));
    }

    #[test]
    fn rounds_added_or_removed_keep_the_others_starts() {
        let mut e = Event::new("Club", Kind::Chess960, 3, SECRET.into()).expect("an event");
        let before = e.all_rounds().expect("drawn");
        let commitment = e.commitment();
        e.set_rounds(5).expect("5 rounds");
        let after = e.all_rounds().expect("drawn");
        assert_eq!(after.len(), 5);
        assert_eq!(after[..3], before[..]);
        assert_eq!(e.commitment(), commitment);
        e.set_rounds(2).expect("2 rounds");
        assert_eq!(e.all_rounds().expect("drawn")[..], before[..2]);
        assert_eq!(e.set_rounds(0), Err(EventError::RoundCount(0)));
        assert_eq!(
            e.set_rounds(MAX_ROUNDS + 1),
            Err(EventError::RoundCount(MAX_ROUNDS + 1))
        );
        assert_eq!(e.rounds, 2);
    }

    #[test]
    fn a_name_with_a_control_character_is_refused_when_made_and_read_from_a_file() {
        assert_eq!(
            Event::new("Club\trapid", Kind::Chess960, 3, SECRET.into()).map(|e| e.name),
            Err(EventError::NameNotPrintable('\t'))
        );
        // A file from before the check: still read, the character as a space.
        let text = format!(
            r#"{{"format":"{FILE_FORMAT}","name":"Club\u0001rapid","kind":"chess960","rounds":3,"commitment":"{}","secret":"{SECRET}"}}"#,
            commitment(SECRET)
        );
        let e = Event::from_file(&text).expect("readable");
        assert_eq!(e.name, "Club rapid");
        assert_eq!(e.all_rounds().map(|r| r.len()), Ok(3));
    }

    /// Invisible characters and unusual spaces are refused in a new
    /// secret and, but for the spaces, in a name; a file that already holds
    /// them (its commitment published) is still read.
    #[test]
    fn invisible_characters_are_refused_in_new_events_only() {
        for (secret, code) in [
            ("zero-width-at-end-xx\u{200b}", 0x200B),
            ("\u{feff}bom-at-the-start-of-it", 0xFEFF),
            ("right-to-left\u{202e}override-x", 0x202E),
            ("line\u{2028}separator-inside-x", 0x2028),
            ("no-break\u{a0}space-inside-xx", 0xA0),
            ("soft\u{ad}hyphen-inside-xxxxx", 0xAD),
            ("phone-emoji-\u{265f}\u{fe0f}-piece", 0xFE0F),
            ("grapheme\u{34f}joiner-inside", 0x34F),
            ("hangul\u{3164}filler-inside-x", 0x3164),
            ("braille\u{2800}blank-inside-x", 0x2800),
            ("variation\u{e0100}selector-xx", 0xE0100),
        ] {
            assert_eq!(
                check_secret(secret),
                Err(EventError::SecretInvisible(code)),
                "{secret:?}"
            );
            let text = format!(
                r#"{{"format":"{FILE_FORMAT}","name":"n","kind":"chess960","rounds":3,"commitment":"{}","secret":"{secret}"}}"#,
                commitment(secret)
            );
            let e = Event::from_file(&text).expect("an old file stays readable");
            assert_eq!(e.secret, secret);
        }
        assert_eq!(check_secret("plain words with spaces é ü ß"), Ok(()));
        assert_eq!(check_secret("a chess piece ♟ typed alone"), Ok(()));
        assert_eq!(
            Event::new("Club\u{202e}rapid", Kind::Chess960, 3, SECRET.into()).map(|e| e.name),
            Err(EventError::NameNotPrintable('\u{202e}'))
        );
        assert!(Event::new("Club\u{a0}rapid 2026", Kind::Chess960, 3, SECRET.into()).is_ok());
    }

    #[test]
    fn bad_inputs_name_the_culprit() {
        assert_eq!(check_secret("short"), Err(EventError::SecretTooShort(5)));
        assert_eq!(
            check_secret(" correct horse battery"),
            Err(EventError::SecretNotPrintable)
        );
        assert!(parse_commitment("abc").is_err());
        let c = commitment(SECRET);
        assert_eq!(parse_commitment(&c.to_uppercase()), Ok(c.clone()));
        assert!(matches!(
            verify(
                &c,
                "correct horse battery stapler",
                None,
                1,
                Kind::Chess960,
                0
            ),
            Err(EventError::WrongSecret { .. })
        ));
        let right = derive(SECRET, 2, Kind::Chess960).number();
        assert_eq!(
            verify(&c, SECRET, None, 2, Kind::Chess960, right).map(|n| n.number()),
            Ok(right)
        );
        assert_eq!(
            verify(&c, SECRET, None, 2, Kind::Chess960, (right + 1) % 960),
            Err(EventError::WrongStart {
                round: 2,
                derived: right,
                claimed: (right + 1) % 960
            })
        );
        assert!(matches!(
            verify(&c, SECRET, None, 0, Kind::Chess960, right),
            Err(EventError::RoundOutOfRange { round: 0, .. })
        ));
    }

    #[test]
    fn the_file_round_trips_and_damage_is_caught() {
        let e = Event::new("Spring rapid", Kind::Dfrc, 7, SECRET.to_string()).expect("valid");
        let text = e.to_file();
        assert_eq!(Event::from_file(&text), Ok(e.clone()));
        let damaged = text.replace("staple", "stable");
        let err = Event::from_file(&damaged).unwrap_err().to_string();
        assert!(err.contains("does not match the commitment"), "{err}");
        let err = Event::from_file(&text[..text.len() / 2])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("damaged event file"), "{err}");
        assert_eq!(
            e.draw(8),
            Err(EventError::RoundOutOfRange {
                round: 8,
                rounds: 7
            })
        );
        assert_eq!(e.all_rounds().map(|r| r.len()), Ok(7));
    }
}
