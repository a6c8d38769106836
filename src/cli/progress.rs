//! A long search's progress on the terminal: one spinner line on standard error, with what is
//! being done, how far it has got, the bound that will stop it and the time so far. Only when
//! standard error is a terminal: piped or redirected output (and the report on standard output,
//! text or `--json`) is never touched, and the line is cleared before the report prints.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A spinner on standard error, or `None` when it is not a terminal.
pub(super) fn spinner() -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} · {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        // The spinner and the clock move even while the search has nothing new to say.
        bar.enable_steady_tick(Duration::from_millis(250));
        bar
    })
}
