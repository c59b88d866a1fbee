//! The signals that end the program (interrupt, terminate, hang-up), for
//! the commands that must clean up before it ends: remove the files they
//! were making, signal the engine they started. The work runs on an
//! ordinary thread (signal-hook's iterator): a signal handler may do
//! almost nothing safely.

use std::sync::{Mutex, Once};

/// What to do before the program ends by a signal, given its number.
type Cleanup = Box<dyn FnOnce(i32) + Send>;

/// Every cleanup asked for, run in order by the one watching thread.
static CLEANUPS: Mutex<Vec<Cleanup>> = Mutex::new(Vec::new());

/// From now on, on SIGINT, SIGTERM or SIGHUP: run `cleanup` (with the
/// signal's number), and every other one asked for, then end the program
/// by that signal, as it would have ended (the shell sees the same
/// status). A signal the program was started to ignore (`nohup`,
/// `trap ''`) stays ignored: caught, it would end a run meant to outlive
/// it.
pub fn on_ending(cleanup: impl FnOnce(i32) + Send + 'static) {
    #[cfg(unix)]
    {
        if let Ok(mut cleanups) = CLEANUPS.lock() {
            cleanups.push(Box::new(cleanup));
        }
        static WATCHING: Once = Once::new();
        WATCHING.call_once(watch);
    }
    #[cfg(not(unix))]
    drop(cleanup);
}

/// Start the thread that waits for the first ending signal.
#[cfg(unix)]
fn watch() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let watched: Vec<libc::c_int> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| !ignored(s))
        .collect();
    if watched.is_empty() {
        return;
    }
    let Ok(mut signals) = signal_hook::iterator::Signals::new(watched) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let cleanups = std::mem::take(&mut *CLEANUPS.lock().unwrap_or_else(|e| e.into_inner()));
            for cleanup in cleanups {
                cleanup(signal);
            }
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
}

/// Whether `signal` is ignored (its disposition `SIG_IGN`).
#[cfg(unix)]
fn ignored(signal: libc::c_int) -> bool {
    // SAFETY: with a null new action, sigaction only reads the current
    // disposition into `old`, a zeroed struct of our own.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}
