//! How a search stops (floor 0 of the search core, `mod.rs`): the [`Control`] every thread of one
//! search shares (the limits, the stop flag and reason, the node count) and the [`Abort`] flag
//! of a split point (`parallel.rs`), which stops the searchers working for it and for the split
//! points below it.

use super::limits::{Limits, StopReason};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// What the threads of one search share: the limits and the stop state.
pub struct Control {
    limits: Limits,
    start: Instant,
    /// Set when any thread must stop; every thread polls it.
    pub(super) halt: AtomicBool,
    reason: Mutex<Option<StopReason>>,
    /// Nodes of every thread, added at each check.
    pub(super) nodes: AtomicU64,
    /// Whether null-window nodes may be split between the threads of a pool (`parallel.rs`).
    pub(super) splits: bool,
}

impl Control {
    pub fn new(limits: &Limits) -> Control {
        Control {
            limits: limits.clone(),
            start: Instant::now(),
            halt: AtomicBool::new(false),
            reason: Mutex::new(None),
            nodes: AtomicU64::new(0),
            splits: false,
        }
    }

    /// The same control, letting null-window nodes be split between threads when `on` (the
    /// search runs on a pool of more than one thread).
    pub fn with_splits(mut self, on: bool) -> Control {
        self.splits = on;
        self
    }

    /// A control for a bounded try within this one: it stops once it has used `share` of what is
    /// left of this control's time and node limits (none where this one has none), or when this
    /// one's stop flag is set from outside. Its nodes are this search's too: [`Self::absorb`]
    /// adds them once the try ends (a progress counter does not see them before).
    pub(super) fn trial(&self, share: f64) -> Control {
        let (time_left, nodes_left) = self.left();
        let limits = Limits {
            stop: self.limits.stop.clone(),
            max_nodes: nodes_left.map(|m| (m as f64 * share) as u64),
            max_time: time_left.map(|t| t.mul_f64(share)),
            progress: None,
        };
        Control::new(&limits).with_splits(self.splits)
    }

    /// Counts the nodes of `trial` (made by [`Self::trial`] and ended) as this search's, and
    /// looks at this one's limits and stop flag again.
    pub(super) fn absorb(&self, trial: &Control) {
        self.poll(trial.total_nodes());
    }

    /// Stops every thread of the search for `reason` (the first reason stays).
    pub(crate) fn halt(&self, reason: StopReason) {
        let mut r = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        r.get_or_insert(reason);
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Why the search stopped, if it did.
    pub fn reason(&self) -> Option<StopReason> {
        *self.reason.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the search must stop now: looks at the stop flag and the limits, as the search
    /// threads do every few thousand nodes (for the moments between two searches).
    pub fn halted(&self) -> bool {
        self.poll(0)
    }

    /// What is left of the time and node limits, if any.
    pub fn left(&self) -> (Option<std::time::Duration>, Option<u64>) {
        (
            self.limits.max_time.map(|t| t.saturating_sub(self.elapsed())),
            self.limits.max_nodes.map(|m| m.saturating_sub(self.total_nodes())),
        )
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> std::time::Duration {
        self.start.elapsed()
    }

    /// Nodes counted so far by every thread.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Whether the search must stop now, looking at the flag and the limits.
    pub(super) fn poll(&self, new_nodes: u64) -> bool {
        let total = self.nodes.fetch_add(new_nodes, Ordering::Relaxed) + new_nodes;
        if let Some(progress) = &self.limits.progress {
            progress.store(total, Ordering::Relaxed);
        }
        if self.halt.load(Ordering::Relaxed) {
            return true;
        }
        if self.limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.halt(StopReason::Cancelled);
        } else if self.limits.max_nodes.is_some_and(|m| total >= m) {
            self.halt(StopReason::NodeLimit);
        } else if self.limits.max_time.is_some_and(|t| self.start.elapsed() >= t) {
            self.halt(StopReason::TimeLimit);
        }
        self.halt.load(Ordering::Relaxed)
    }
}

/// A split point's stop flag, and the split point above it: a searcher stops when either is set.
pub(super) struct Abort<'a> {
    pub(super) flag: AtomicBool,
    parent: Option<&'a Abort<'a>>,
}

impl<'a> Abort<'a> {
    pub(super) fn below(parent: Option<&'a Abort<'a>>) -> Abort<'a> {
        Abort { flag: AtomicBool::new(false), parent }
    }

    /// Whether this split point or one above it was aborted.
    pub(super) fn is_set(&self) -> bool {
        let mut a = Some(self);
        while let Some(x) = a {
            if x.flag.load(Ordering::Relaxed) {
                return true;
            }
            a = x.parent;
        }
        false
    }
}
