//! Files the commands write (pages, charts, opening books, the event
//! pack): whole or not at all.
//!
//! A file is written beside its place under a temporary name and renamed
//! over it when complete, so that a failure (a full disk) leaves the file
//! that was there, not half of a new one that a match runner would take for
//! whole or a printer would print. A link is written through to the file it
//! names (made or not), which keeps its permissions. Written in place, as
//! there is no other way: devices, pipes and the links of `/dev` and
//! `/proc` (`-o /dev/stderr`); a file in a folder where no temporary file
//! can be made (not writable, a name too long for a suffix); a file the
//! rename may not replace (another user's in a sticky folder, one mounted
//! on its own) or would take from its owner or group. A file the user may
//! not write is not replaced: the system's refusal is the message. A
//! descriptor's file is added to, never emptied; the file standard output
//! is (by any name) is written through standard output itself, by the
//! callers.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

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
    let target = match Place::of(path) {
        Place::InPlace => return write_in_place(path, access, fill),
        Place::Replace(target) => target,
    };
    let replaced = fs::metadata(&target).ok();
    let Some((tmp, file, _unfinished)) = create_temporary(&target, access) else {
        // No temporary file can be made there (a folder the user may not
        // write, a name too long for a suffix): the file itself may still
        // be writable.
        return write_in_place(path, access, fill);
    };
    let written = (|| {
        // A rename would make the file the writer's: another user's file
        // (or one shared through its group) is written into instead.
        let owned_alike = replaced.as_ref().is_none_or(|m| owned_alike(m, &file));
        if let (Access::Usual, Some(m)) = (access, &replaced) {
            file.set_permissions(m.permissions())
                .map_err(|e| cannot_write(path, &e))?;
        }
        let file = fill_file(file, path, fill)?;
        file.sync_all().map_err(|e| cannot_write(path, &e))?;
        if owned_alike && fs::rename(&tmp, &target).is_ok() {
            return Ok(());
        }
        // The rename was refused (a sticky folder such as /tmp holding
        // another user's file, a file mounted on its own, as containers
        // do) or would change the owner: the finished content is copied
        // into the file itself.
        let mut from = File::open(&tmp).map_err(|e| cannot_write(path, &e))?;
        write_in_place(path, access, |w| {
            io::copy(&mut from, w)
                .map(drop)
                .map_err(|e| cannot_write(path, &e))
        })
    })();
    let _ = fs::remove_file(&tmp);
    written
}

/// Make `path` anew with what `fill` writes: never over a file that is
/// there (`exists` gives the message then), and no file left behind when
/// the write fails, so that the same command can simply be run again.
///
/// # Errors
/// The file exists or cannot be made or written, or `fill` failed.
pub fn write_new(
    path: &Path,
    access: Access,
    exists: impl FnOnce() -> CliError,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> Result<(), CliError> {
    // Watching from before the file is made: it is recorded the moment it
    // is (not before: the name may be a file that was there).
    watch_interrupts();
    let file = create_private_or_usual(path, access, true).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            exists()
        } else {
            CliError::Io(format!("cannot create '{}': {e}", path.display()))
        }
    })?;
    let unfinished = Unfinished::record(path);
    let written = fill_file(file, path, fill)
        .and_then(|file| file.sync_all().map_err(|e| cannot_write(path, &e)));
    if written.is_err() {
        let _ = fs::remove_file(path);
    }
    drop(unfinished);
    written
}

/// Files this program is making and has not finished: removed if it is
/// interrupted (Ctrl-C, a `kill`, a closed terminal), so that no hidden
/// temporary file (a stopped `openings --count` of millions left 25 MB) and
/// no half event file (which a retry would refuse to replace) is left.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A file in [`UNFINISHED`] while this lives.
struct Unfinished(PathBuf);

impl Unfinished {
    /// Record `path`, just made by this program, and watch for interrupts.
    /// Recorded only once made: a name recorded before could be a file
    /// that was there (the event file a retry would not replace, another
    /// run's temporary file), and an interrupt would remove it.
    fn record(path: &Path) -> Unfinished {
        watch_interrupts();
        if let Ok(mut files) = UNFINISHED.lock() {
            files.push(path.to_path_buf());
        }
        Unfinished(path.to_path_buf())
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Ok(mut files) = UNFINISHED.lock() {
            if let Some(i) = files.iter().rposition(|f| *f == self.0) {
                files.swap_remove(i);
            }
        }
    }
}

/// From the first file made on: on SIGINT, SIGTERM or SIGHUP the
/// unfinished files are removed, then the signal ends the program as it
/// would have (the shell sees the same status). Commands that make no
/// file, and the UCI engine, keep the system's own handling.
fn watch_interrupts() {
    static WATCHING: Once = Once::new();
    WATCHING.call_once(|| {
        crate::signals::on_ending(|_| {
            // The lock is held to the end: no file is recorded or dropped
            // from the list while they are removed, nor after.
            let files = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
            for file in files.iter() {
                let _ = fs::remove_file(file);
            }
            std::mem::forget(files);
        });
    });
}

/// Where a path is written.
enum Place {
    /// Through the path itself (a device, a pipe, `/dev/stdout`, a file
    /// that may not be written, whose error the system then names).
    InPlace,
    /// By a rename over this path: the path, or the file its links name
    /// (made or not).
    Replace(PathBuf),
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
            // A file the user may not write (`chmod -w` on a published
            // pack) is not replaced by a rename past its mode.
            Ok(_) if OpenOptions::new().write(true).open(path).is_err() => Place::InPlace,
            _ => Place::Replace(resolve_links(path)),
        }
    }
}

/// The paths `path`'s last part leads through, itself first, its links
/// followed (as many as the system itself follows) to the file a write
/// reaches, made or not.
fn link_chain(path: &Path) -> Vec<PathBuf> {
    let mut chain = vec![path.to_path_buf()];
    while chain.len() <= 40 {
        let at = &chain[chain.len() - 1];
        let Ok(next) = fs::read_link(at) else {
            break;
        };
        let next = match at.parent() {
            Some(dir) if !next.is_absolute() => dir.join(&next),
            _ => next,
        };
        chain.push(next);
    }
    chain
}

/// `path` with the links of its last part followed: the file a write
/// through the path reaches.
fn resolve_links(path: &Path) -> PathBuf {
    link_chain(path).pop().unwrap_or_else(|| path.to_path_buf())
}

/// Whether `a` and `b` name one file (made or not): by their text, or by
/// their folders and names once links are followed (`./a.svg` and
/// `a.svg`, a link and its file).
pub fn same_place(a: &Path, b: &Path) -> bool {
    fn place(p: &Path) -> PathBuf {
        let p = resolve_links(p);
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        match (fs::canonicalize(dir), p.file_name()) {
            (Ok(dir), Some(name)) => dir.join(name),
            _ => p,
        }
    }
    a == b || place(a) == place(b)
}

/// Whether `path`, or a link it leads through, names an open descriptor
/// (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/3`): it stands for whatever
/// the shell opened there, and a file put in its place would not be the
/// one the shell reads. Other files under `/dev` and `/proc` (a tmpfs in
/// `/dev/shm`, `/proc/self/cwd/...`) are files like any other.
pub fn names_a_descriptor(path: &Path) -> bool {
    link_chain(path).iter().any(|at| {
        let parts: Vec<String> = at
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        matches!(
            parts.as_slice(),
            ["/", "dev", "stdin" | "stdout" | "stderr"]
                | ["/", "dev", "fd", _]
                | ["/", "proc", _, "fd", _]
        )
    })
}

/// Whether `path` names the file standard output is (the same device and
/// inode, links followed): `/dev/stdout`, `/dev/fd/1`, or the file the
/// shell redirected standard output to.
pub fn is_standard_output(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let Ok(target) = fs::metadata(path) else {
            return false;
        };
        // A closed standard output has no file to be.
        let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else {
            return false;
        };
        File::from(fd)
            .metadata()
            .is_ok_and(|out| (out.dev(), out.ino()) == (target.dev(), target.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Make the file standard output was redirected to (`> pack.html`)
/// readable by its owner alone, as [`Access::Private`] makes a file named
/// with `-o`: the shell made it as the user's files are made, readable by
/// all. Before the first byte is written, and only an empty file (made or
/// emptied by the redirect): one written to before (`>> shared.log`) is
/// left as it is, as are a terminal, a pipe or a device, and a file the
/// user does not own (the system refuses).
pub fn restrict_standard_output() {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::PermissionsExt;
        let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else {
            return;
        };
        let file = File::from(fd);
        let Ok(meta) = file.metadata() else {
            return;
        };
        let mode = meta.permissions().mode();
        if meta.is_file() && meta.len() == 0 && mode & 0o077 != 0 {
            let _ = file.set_permissions(Permissions::from_mode(mode & !0o077));
        }
    }
}

/// A new file beside `target` for what is being written, under a name no
/// other run takes (the process id and a count, tried again while taken),
/// recorded as unfinished, or `None` when none can be made.
fn create_temporary(target: &Path, access: Access) -> Option<(PathBuf, File, Unfinished)> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name()?.to_string_lossy().into_owned();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for _ in 0..8 {
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let tmp = format!(".{name}.{}.{nanos}.{n}.tmp", std::process::id());
        // 255 bytes is the longest name of the usual file systems.
        if tmp.len() > 255 {
            return None;
        }
        let tmp = target.with_file_name(tmp);
        match create_private_or_usual(&tmp, access, true) {
            Ok(file) => {
                let unfinished = Unfinished::record(&tmp);
                return Some((tmp, file, unfinished));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) => return None,
        }
    }
    None
}

/// Whether `file` has the owner and group of the file `m` describes.
fn owned_alike(m: &fs::Metadata, file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        file.metadata()
            .is_ok_and(|f| (f.uid(), f.gid()) == (m.uid(), m.gid()))
    }
    #[cfg(not(unix))]
    {
        let _ = (m, file);
        true
    }
}

/// Open `path` to write it from its start: a new file when `new`, else
/// made or emptied. For [`Access::Private`] it is readable by its owner
/// alone from its creation, and a file that was there is made so before
/// it is emptied: a file whose mode cannot be changed is left as it was.
fn create_private_or_usual(path: &Path, access: Access, new: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true);
    if new {
        options.create_new(true);
    } else {
        options.create(true);
    }
    #[cfg(unix)]
    if access == Access::Private {
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    }
    let file = options.open(path)?;
    if new {
        // Made here with its mode (which the umask only narrows): no
        // further step that could fail and leave it behind.
        return Ok(file);
    }
    let regular = file.metadata()?.is_file();
    // A file that existed kept its own mode on open.
    #[cfg(unix)]
    if access == Access::Private && regular {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(Permissions::from_mode(0o600))?;
    }
    if regular {
        file.set_len(0)?;
    }
    Ok(file)
}

fn write_in_place(
    path: &Path,
    access: Access,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> Result<(), CliError> {
    // A descriptor's file (`/dev/stderr`, `/proc/self/fd/3`) is what the
    // shell opened: added to, as `>>` does, never emptied (a `3>> log`
    // keeps its lines; after a `3> file` there is nothing to keep).
    let file = if names_a_descriptor(path) {
        append_to_descriptor(path, access)
    } else {
        create_private_or_usual(path, access, false)
    }
    .map_err(|e| CliError::Io(format!("cannot create '{}': {e}", path.display())))?;
    fill_file(file, path, fill).map(drop)
}

/// Open a descriptor's file to add to it; for [`Access::Private`] a
/// regular file is made its owner's alone first, as any file written is.
fn append_to_descriptor(path: &Path, access: Access) -> io::Result<File> {
    let file = OpenOptions::new().append(true).open(path)?;
    #[cfg(unix)]
    if access == Access::Private && file.metadata()?.is_file() {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = access;
    Ok(file)
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

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_written_through() {
        let dir = Scratch::new("dangling");
        let link = dir.path().join("link.epd");
        std::os::unix::fs::symlink("made.epd", &link).unwrap();
        write_whole(&link, Access::Usual, text("new")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read_to_string(dir.path().join("made.epd")).unwrap(),
            "new"
        );
    }

    #[cfg(unix)]
    #[test]
    fn one_file_by_two_names_is_one_place() {
        let dir = Scratch::new("same");
        let a = dir.path().join("a.svg");
        let dotted = dir.path().join(".").join("a.svg");
        assert!(same_place(&a, &dotted));
        let link = dir.path().join("l.svg");
        std::os::unix::fs::symlink("a.svg", &link).unwrap();
        assert!(same_place(&a, &link));
        assert!(!same_place(&a, &dir.path().join("b.svg")));
    }

    #[test]
    fn a_name_too_long_for_a_suffix_is_written_in_place() {
        let dir = Scratch::new("long");
        let path = dir.path().join(format!("{}.epd", "a".repeat(246)));
        write_whole(&path, Access::Usual, text("book")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "book");
    }
}
