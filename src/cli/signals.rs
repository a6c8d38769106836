//! Ctrl-C and SIGTERM for every command that runs long: the flag that stops the work, and which
//! signal came (the exit code `128 + signal`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// SIGINT and SIGTERM set the search's stop flag and record which signal came; a second one
/// ends the program at once.
pub fn catch_signals(stop: &Arc<AtomicBool>) -> Arc<AtomicUsize> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let caught = Arc::new(AtomicUsize::new(0));
    for signal in [SIGINT, SIGTERM] {
        // In this order: the shutdown checks the flag before the first signal sets it.
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, stop.clone());
        let _ = signal_hook::flag::register_usize(signal, caught.clone(), signal as usize);
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    caught
}
