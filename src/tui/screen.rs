//! The terminal the explorer takes and gives back: raw mode and the alternate screen, restored on
//! every way out (a guard, the panic hook, the signals that end or stop the program), and whether
//! colour is wanted.

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::crossterm::{cursor, execute};
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Whether colour should be drawn in `auto` mode: `NO_COLOR` unset or empty, and stdout a
/// terminal.
pub fn color_auto() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stdout().is_terminal()
}

/// Whether the terminal is in the explorer's mode (raw, alternate screen), and with the mouse.
pub(super) static ACTIVE: AtomicBool = AtomicBool::new(false);
pub(super) static MOUSE: AtomicBool = AtomicBool::new(false);
pub(super) static HOOK: Mutex<bool> = Mutex::new(false);

/// Puts the terminal back: mouse capture off, main screen, cursor shown, raw mode off. Safe to
/// call more than once and from the panic hook.
pub fn restore_terminal() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        if MOUSE.swap(false, Ordering::SeqCst) {
            let _ = execute!(out, DisableMouseCapture);
        }
        let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
        let _ = terminal::disable_raw_mode();
        let _ = out.flush();
    }
}

/// Restores the terminal when dropped: on quit, on error (the `?` path) and on unwinding.
pub(super) struct TerminalGuard;

impl TerminalGuard {
    pub(super) fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        install_panic_hook();
        terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let guard = TerminalGuard;
        let mut out = io::stdout();
        execute!(out, EnterAlternateScreen, cursor::Hide)?;
        if mouse {
            MOUSE.store(true, Ordering::SeqCst);
            execute!(out, EnableMouseCapture)?;
        }
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Restores the terminal before the panic message is printed, so it is readable.
pub(super) fn install_panic_hook() {
    let mut installed = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    if *installed {
        return;
    }
    *installed = true;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
}

/// Whether standard input and output are both a terminal (the explorer needs one).
pub(crate) fn stdio_is_terminal() -> bool {
    io::stdout().is_terminal() && io::stdin().is_terminal()
}

/// The signals that end the explorer like `q` does: hang-up, interrupt, quit, terminate.
pub const QUIT_SIGNALS: [i32; 4] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM];

/// Catches [`QUIT_SIGNALS`] while the explorer runs: the handler only records the signal's
/// number, and the event loop turns it into [`Msg::Signal`].
pub(super) struct Signals {
    received: Arc<AtomicUsize>,
    /// SIGTSTP came (`kill -TSTP`): the loop suspends as on Ctrl-Z.
    stop: Arc<AtomicBool>,
    /// SIGCONT came: the loop takes the terminal again.
    cont: Arc<AtomicBool>,
    ids: Vec<signal_hook::SigId>,
}

impl Signals {
    pub(super) fn catch() -> io::Result<Signals> {
        let received = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let cont = Arc::new(AtomicBool::new(false));
        let mut ids = Vec::new();
        for sig in QUIT_SIGNALS {
            ids.push(signal_hook::flag::register_usize(sig, Arc::clone(&received), sig as usize)?);
        }
        ids.push(signal_hook::flag::register(SIGTSTP, Arc::clone(&stop))?);
        ids.push(signal_hook::flag::register(SIGCONT, Arc::clone(&cont))?);
        Ok(Signals { received, stop, cont, ids })
    }

    /// Records `sig` as if it had come (a hang-up the loop found itself).
    pub(super) fn raise(&self, sig: i32) {
        let _ = self.received.compare_exchange(0, sig as usize, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Whether SIGTSTP came since the last call.
    pub(super) fn take_stop(&self) -> bool {
        self.stop.swap(false, Ordering::SeqCst)
    }

    /// Whether SIGCONT came since the last call.
    pub(super) fn take_continue(&self) -> bool {
        self.cont.swap(false, Ordering::SeqCst)
    }

    /// The flag the handlers set (the signal's number, 0 while none), for the watchdog.
    pub(super) fn shared(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.received)
    }

    /// The signal caught, if any.
    pub(super) fn received(&self) -> Option<i32> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            n => Some(n as i32),
        }
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}
