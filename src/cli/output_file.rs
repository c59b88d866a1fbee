//! Files the commands write (pages, charts, opening books, the event
//! pack): whole or not at all.
//!
//! A file is written beside its place under a temporary name and renamed
//! over it when complete, so that a failure (a full disk) leaves the file
//! that was there, not half of a new one that a match runner would take for
//! whole or a printer would print. A link is written through to the file it
//! names, which keeps its permissions. Devices, pipes and the links of
//! `/dev` and `/proc` (`-o /dev/stdout`) are written in place, as is a file
//! in a folder where no temporary file can be made (a folder not writable,
//! a name too long for a suffix): there is no other way to write them.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::CliError;

/// Who may read the file written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// As the user's files are made (or as the file replaced was).
    Usual,
    /// Its owner alone, from the first byte on (what the event pack shows
    /// is as secret as the event file until the rounds are played).
    Private,
}

/// The message for an error writing `path`.
pub fn cannot_write(path: &Path, e: &io::Error) -> CliError {
    CliError::Io(format!("cannot write '{}': {e}", path.display()))
}

/// Write `path` whole with what `fill` writes, or leave what was there.
/// `fill` turns its own errors into messages (with [`cannot_write`] for an
/// i/o error, which names the file).
///
/// # Errors
/// The file cannot be created or written, or `fill` failed.
pub fn write_whole(
    path: &Path,
    access: Access,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let place = Place::of(path);
    let (target, replaced) = match &place {
        Place::InPlace => return write_in_place(path, access, fill),
        Place::Replace { target, replaced } => (target, replaced),
    };
    let Some(tmp) = temporary_beside(target) else {
        return write_in_place(path, access, fill);
    };
    let file = match create_private_or_usual(&tmp, access, true) {
        Ok(file) => file,
        // No temporary file can be made there: the file itself may still
        // be writable.
        Err(_) => return write_in_place(path, access, fill),
    };
    let written = (|| {
        if let (Access::Usual, Some(permissions)) = (access, replaced) {
            file.set_permissions(permissions.clone())
                .map_err(|e| cannot_write(path, &e))?;
        }
        let file = fill_file(file, path, fill)?;
        file.sync_all().map_err(|e| cannot_write(path, &e))?;
        fs::rename(&tmp, target).map_err(|e| cannot_write(path, &e))
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// Where a path is written.
enum Place {
    /// Through the path itself (a device, a pipe, `/dev/stdout`).
    InPlace,
    /// By a rename over `target` (the path, or the file its links name),
    /// giving the new file the permissions of the one `replaced`.
    Replace {
        target: PathBuf,
        replaced: Option<Permissions>,
    },
}

impl Place {
    fn of(path: &Path) -> Place {
        if names_a_descriptor(path) {
            return Place::InPlace;
        }
        match fs::metadata(path) {
            // A device or a pipe; a folder, which fails at its creation
            // with the system's own words.
            Ok(m) if !m.is_file() => Place::InPlace,
            Ok(m) => match fs::canonicalize(path) {
                Ok(target) => Place::Replace {
                    target,
                    replaced: Some(m.permissions()),
                },
                Err(_) => Place::InPlace,
            },
            Err(_) => Place::Replace {
                target: path.to_path_buf(),
                replaced: None,
            },
        }
    }
}

/// Whether `path`, or a link it leads through, is under `/dev` or
/// `/proc`: `/dev/stdout` leads to `/proc/self/fd/1`, which names whatever
/// the shell redirected standard output to; a file put in its place would
/// not be the one the shell reads.
fn names_a_descriptor(path: &Path) -> bool {
    let mut at = path.to_path_buf();
    // As many links as the system itself follows.
    for _ in 0..40 {
        if at.starts_with("/dev") || at.starts_with("/proc") {
            return true;
        }
        match fs::read_link(&at) {
            Ok(next) if next.is_absolute() => at = next,
            Ok(next) => at = at.parent().map_or(next.clone(), |dir| dir.join(&next)),
            Err(_) => return false,
        }
    }
    false
}

/// A name beside `target` for the file being written, or `None` when the
/// name with its suffix would be too long.
fn temporary_beside(target: &Path) -> Option<PathBuf> {
    let name = target.file_name()?.to_string_lossy().into_owned();
    let tmp = format!(".{name}.{}.tmp", std::process::id());
    // 255 bytes is the longest name of the usual file systems.
    (tmp.len() <= 255).then(|| target.with_file_name(tmp))
}

/// Create `path` (a new file when `new`), readable by its owner alone for
/// [`Access::Private`] from its creation on.
fn create_private_or_usual(path: &Path, access: Access, new: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true);
    if new {
        options.create_new(true);
    } else {
        options.create(true).truncate(true);
    }
    #[cfg(unix)]
    if access == Access::Private {
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    }
    let file = options.open(path)?;
    // A file that existed kept its own mode on open.
    #[cfg(unix)]
    if access == Access::Private && file.metadata()?.is_file() {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

fn write_in_place(
    path: &Path,
    access: Access,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let file = create_private_or_usual(path, access, false)
        .map_err(|e| CliError::Io(format!("cannot create '{}': {e}", path.display())))?;
    fill_file(file, path, fill).map(drop)
}

fn fill_file(
    file: File,
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> Result<File, CliError> {
    let mut out = BufWriter::new(file);
    fill(&mut out)?;
    out.into_inner().map_err(|e| cannot_write(path, e.error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own for one test, removed at its end.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!(
                "chess960-output-file-{}-{name}",
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn text(s: &'static str) -> impl FnOnce(&mut dyn Write) -> Result<(), CliError> {
        move |w| w.write_all(s.as_bytes()).map_err(CliError::from)
    }

    #[test]
    fn a_failure_leaves_the_file_that_was_there() {
        let dir = Scratch::new("failure");
        let path = dir.path().join("page.html");
        fs::write(&path, "old").unwrap();
        let failed = write_whole(&path, Access::Usual, |w| {
            w.write_all(b"half")?;
            Err(CliError::Io("full".into()))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        // No temporary file is left beside it.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        write_whole(&path, Access::Usual, text("new")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_and_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = Scratch::new("link");
        let book = dir.path().join("book.epd");
        fs::write(&book, "old").unwrap();
        fs::set_permissions(&book, Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.epd");
        std::os::unix::fs::symlink("book.epd", &link).unwrap();
        write_whole(&link, Access::Usual, text("new")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&book).unwrap(), "new");
        let mode = fs::metadata(&book).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn a_private_file_is_private_from_its_first_byte() {
        use std::os::unix::fs::PermissionsExt;
        let dir = Scratch::new("private");
        let path = dir.path().join("pack.html");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o644)).unwrap();
        let seen = std::cell::Cell::new(0);
        write_whole(&path, Access::Private, |w| {
            // What is being written, under its temporary name.
            for entry in fs::read_dir(dir.path()).unwrap() {
                let entry = entry.unwrap();
                if entry.file_name() != "pack.html" {
                    let mode = entry.metadata().unwrap().permissions().mode();
                    assert_eq!(mode & 0o777, 0o600);
                    seen.set(seen.get() + 1);
                }
            }
            w.write_all(b"new").map_err(CliError::from)
        })
        .unwrap();
        assert_eq!(seen.get(), 1);
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_descriptor_is_written_in_place() {
        let dir = Scratch::new("descriptor");
        let link = dir.path().join("out");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        write_whole(&link, Access::Usual, text("gone")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(names_a_descriptor(Path::new("/dev/stdout")));
        assert!(!names_a_descriptor(&dir.path().join("book.epd")));
    }

    #[test]
    fn a_name_too_long_for_a_suffix_is_written_in_place() {
        let dir = Scratch::new("long");
        let path = dir.path().join(format!("{}.epd", "a".repeat(246)));
        write_whole(&path, Access::Usual, text("book")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "book");
    }
}
