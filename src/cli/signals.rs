//! Ctrl-C and SIGTERM for every command that runs long: the flag that stops the work, and which
//! signal came (the exit code `128 + signal`).
//!
//! A signal may come at any moment, the very first one included: a client may stop a protocol
//! while it sets up. So each signal gets a single action that does all of it (no signal can find
//! one part registered and the next not), and both signals are held back while the actions are
//! registered: one that arrives meanwhile is delivered once they are all in place.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// SIGINT and SIGTERM set the search's stop flag and record which signal came; a signal that
/// finds the flag raised already (a second one) ends the program at once.
pub fn catch_signals(stop: &Arc<AtomicBool>) -> Arc<AtomicUsize> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let caught = Arc::new(AtomicUsize::new(0));
    let _held = Held::new(&[SIGINT, SIGTERM]);
    for signal in [SIGINT, SIGTERM] {
        let (stop, caught) = (stop.clone(), caught.clone());
        let action = move || {
            if stop.load(Ordering::SeqCst) {
                signal_hook::low_level::exit(128 + signal);
            }
            caught.store(signal as usize, Ordering::SeqCst);
            stop.store(true, Ordering::SeqCst);
        };
        // SAFETY: the action reads and writes atomics and calls `_exit`, all async-signal-safe;
        // it allocates nothing and takes no lock.
        let _ = unsafe { signal_hook::low_level::register(signal, action) };
    }
    caught
}

/// Signals blocked on this thread while it lives; when it ends, the thread's mask is as before
/// and a signal that came meanwhile is delivered.
struct Held {
    before: libc::sigset_t,
}

impl Held {
    fn new(signals: &[i32]) -> Held {
        // SAFETY: the sets are plain values that `sigemptyset` initialises before use.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            let mut before: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for &s in signals {
                libc::sigaddset(&mut set, s);
            }
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut before);
            Held { before }
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // SAFETY: restores the mask `new` saved.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.before, std::ptr::null_mut());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_held_while_registering_is_delivered_after() {
        // A signal raised on this thread while it is held, before its action is registered: it
        // waits, and the action runs once the hold ends.
        let caught = {
            let held = Held::new(&[signal_hook::consts::SIGUSR2]);
            // SAFETY: raising a signal on this thread; it is blocked here.
            unsafe { libc::pthread_kill(libc::pthread_self(), signal_hook::consts::SIGUSR2) };
            let flag = Arc::new(AtomicBool::new(false));
            let seen = flag.clone();
            // SAFETY: the action stores to an atomic.
            let id = unsafe {
                signal_hook::low_level::register(signal_hook::consts::SIGUSR2, move || {
                    seen.store(true, Ordering::SeqCst)
                })
            }
            .unwrap();
            assert!(!flag.load(Ordering::SeqCst), "a held signal waits");
            drop(held);
            signal_hook::low_level::unregister(id);
            flag.load(Ordering::SeqCst)
        };
        assert!(caught, "the held signal came once the hold ended");
    }
}
