//! A watch on the interface thread, for the one way it stops listening.
//!
//! Once the terminal hangs up (its window closed, the tmux server killed), crossterm's event
//! reader (0.29) may spin inside its read: a read that returns 0 bytes or an I/O error loops
//! without returning. The reader runs on the input thread, and the event loop also checks for a
//! hang-up on each tick; this watch is the last guard, should the loop itself stop answering, so
//! that the process never runs on for ever, searching on every core.
//!
//! So the loop calls [`Watchdog::beat`] on each turn, and a thread checks the beats every
//! [`CHECK`]:
//! - a quit signal (`signals`) that the loop has not acted on within [`GRACE`] of it arriving,
//! - or, with no signal, a terminal that has hung up while the loop has been silent for [`GRACE`],
//!
//! ends the process with the status 128 + the signal (SIGHUP for a hang-up), after putting the
//! terminal back as far as it still can ([`super::restore_terminal`]). Nothing is lost that the
//! normal quit would keep: the session file is written atomically on every change, as it happens.
//! A healthy loop beats every 50 ms at most, so the watch never fires while the loop can act, and a
//! stopped process (Ctrl-Z) stops the watch with it.

use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the loop may leave a signal or a hang-up unanswered.
pub const GRACE: Duration = Duration::from_millis(1500);

/// How often the watch looks.
pub const CHECK: Duration = Duration::from_millis(100);

/// SIGHUP's number: the status of a hang-up without a signal.
const SIGHUP: i32 = 1;

/// The heartbeat and the watching thread; dropping it stops the watch.
pub struct Watchdog {
    beat: Arc<AtomicU64>,
    start: Instant,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts watching; `signals` holds the number of a quit signal caught, 0 while none.
    pub fn spawn(signals: Arc<AtomicUsize>) -> io::Result<Watchdog> {
        let start = Instant::now();
        let beat = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (b, s) = (Arc::clone(&beat), Arc::clone(&stop));
        let thread =
            std::thread::Builder::new().name("watchdog".into()).spawn(move || watch(start, &b, &s, &signals))?;
        Ok(Watchdog { beat, start, stop, thread: Some(thread) })
    }

    /// The loop is alive: called on each turn of the event loop.
    pub fn beat(&self) {
        self.beat.store(millis(self.start), Ordering::Relaxed);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn millis(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

fn watch(start: Instant, beat: &AtomicU64, stop: &AtomicBool, signals: &AtomicUsize) {
    let grace = GRACE.as_millis() as u64;
    // When the signal being waited on was first seen.
    let mut signal_seen: Option<u64> = None;
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(CHECK);
        let now = millis(start);
        let silent = now.saturating_sub(beat.load(Ordering::Relaxed));
        let fire = match signals.load(Ordering::SeqCst) {
            0 if silent >= grace && hung_up() => Some(SIGHUP),
            0 => None,
            sig => {
                let seen = *signal_seen.get_or_insert(now);
                (now - seen >= grace && silent >= grace).then_some(sig as i32)
            }
        };
        if let Some(sig) = fire {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            // Put the terminal back, unless that blocks too (the loop may hold the output).
            let (done, wait) = std::sync::mpsc::channel();
            let _ = std::thread::Builder::new().name("restore".into()).spawn(move || {
                super::restore_terminal();
                let _ = done.send(());
            });
            let _ = wait.recv_timeout(Duration::from_millis(500));
            std::process::exit(128 + sig);
        }
    }
}

/// Whether the terminal the explorer reads has hung up (standard input, as crossterm reads it,
/// else `/dev/tty`).
#[cfg(unix)]
pub(crate) fn hung_up() -> bool {
    use std::os::fd::AsRawFd;
    let tty;
    let fd = if io::stdin().is_terminal() {
        io::stdin().as_raw_fd()
    } else {
        match std::fs::File::open("/dev/tty") {
            Ok(f) => {
                tty = f;
                tty.as_raw_fd()
            }
            // No terminal to open: it is gone.
            Err(_) => return true,
        }
    };
    let mut pfd = libc::pollfd { fd, events: 0, revents: 0 };
    // SAFETY: one valid pollfd for the duration of the call; a zero timeout never blocks.
    let n = unsafe { libc::poll(&mut pfd, 1, 0) };
    n > 0 && pfd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

#[cfg(not(unix))]
pub(crate) fn hung_up() -> bool {
    false
}
