//! Whole numbers as people and programs type them.
//!
//! A word of digits too large for the integer that holds it is still a
//! whole number: it is out of the range asked for, and is told so with the
//! range (`perft 4294967297`, `--shard 1/99999999999999999999`), where a
//! plain `parse` calls it no number at all. A word with anything but digits
//! in it (a sign, a point, a letter) is not one. The readers of counts
//! typed by a user, a GUI or an engine draw that line here; those that
//! must also name a negative number (an event's rounds) read it as `i128`
//! first, and `go`'s counts take a leading `+` off before the check.

use std::str::FromStr;

/// Whether `text` is one or more ASCII digits and nothing else: a whole
/// number however large (its sign, if any, taken off by the caller).
pub fn digits_only(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Why a word did not read as a whole number of the type asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WholeError {
    /// Digits only, but too large for the type: out of any range it has.
    TooLarge,
    /// Not a whole number at all.
    NotANumber,
}

/// Read `word` (as given: not trimmed) as a whole number of type `T`, as
/// `T` reads it (a leading `+` included), telling a number too large for
/// `T` apart from a word that is none.
///
/// # Errors
/// [`WholeError::TooLarge`] for digits beyond `T`'s range,
/// [`WholeError::NotANumber`] for anything else that does not parse.
pub fn parse<T: FromStr>(word: &str) -> Result<T, WholeError> {
    match word.parse::<T>() {
        Ok(n) => Ok(n),
        Err(_) if digits_only(word) => Err(WholeError::TooLarge),
        Err(_) => Err(WholeError::NotANumber),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_nothing_else() {
        assert!(digits_only("0"));
        assert!(digits_only("99999999999999999999999"));
        for no in ["", "+1", "-1", "1.5", "1e3", " 1", "١"] {
            assert!(!digits_only(no), "{no:?}");
        }
    }

    #[test]
    fn too_large_is_told_apart_from_no_number() {
        assert_eq!(parse::<u32>("4294967295"), Ok(u32::MAX));
        assert_eq!(parse::<u32>("4294967296"), Err(WholeError::TooLarge));
        assert_eq!(parse::<u8>("256"), Err(WholeError::TooLarge));
        assert_eq!(parse::<u32>("+7"), Ok(7));
        for no in ["", "-1", "x", "1.0", "1 2", "-0"] {
            assert_eq!(parse::<u32>(no), Err(WholeError::NotANumber), "{no:?}");
        }
    }
}
