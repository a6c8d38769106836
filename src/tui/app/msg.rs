//! The messages [`update`](super::update) takes and the effects it returns for the runtime.

use super::super::lab_worker::LabEvent;
use super::super::worker::SolverEvent;
use crate::solver::Selectivity;
use crate::{board::position::Position, board::square::Square};
use ratatui::crossterm::event::{KeyEvent, MouseEvent};
use std::time::{Duration, Instant};

/// An input to [`update`](super::update).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// The terminal was resized.
    Resize(u16, u16),
    /// Time passed (drives auto-play and the solving clock).
    Tick(Instant),
    /// A solver report.
    Solver(SolverEvent),
    /// A search-lab result.
    Lab(LabEvent),
    /// A save finished.
    Saved {
        /// The file.
        path: String,
        /// What went wrong, if anything.
        result: Result<(), String>,
    },
    /// The archive of played games was read (or why not).
    ArchiveLoaded(Result<std::sync::Arc<crate::archive::Archive>, String>),
    /// A load finished.
    Loaded {
        /// The file.
        path: String,
        /// Which game of a file of several, from 1 (`None`: the first).
        index: Option<usize>,
        /// Its bytes, or what went wrong.
        result: Result<Vec<u8>, String>,
    },
    /// The session file could not be written (said once until a write succeeds again).
    SessionFailed(String),
    /// `:reach` finished job `job`.
    Reached {
        /// The job.
        job: u64,
        /// What it found.
        outcome: crate::studies::reach::Outcome,
    },
    /// How far `:reach`'s job `job` has got (sent a few times a second at most).
    ReachProgress {
        /// The job.
        job: u64,
        /// The positions searched, the bound, the depth.
        progress: crate::studies::reach::Progress,
    },
    /// Something to tell the user from a background thread (the store opened with the book, or
    /// unusable).
    Notice {
        /// The message.
        text: String,
        /// Whether it reports a problem.
        error: bool,
    },
    /// The process got this signal (SIGHUP, SIGINT, SIGQUIT or SIGTERM): quit as on `q`.
    Signal(i32),
}

/// Work for the runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Cancel any search and analyse this position as job `job`.
    Analyse {
        /// The job number.
        job: u64,
        /// The position.
        position: Position,
        /// How selective the estimates are ([`super::Model::selectivity`]).
        selectivity: Selectivity,
    },
    /// Cancel any search and examine this position as job `job` for the review's `budget` (a
    /// step of the review of the line, [`crate::studies::review::Reviewer::examine`]: the review's own
    /// solver, whatever the explorer's settings).
    Review {
        /// The job number.
        job: u64,
        /// The position.
        position: Position,
        /// The move the line plays there, whose mark the step settles; `None` at the line's end.
        played: Option<Square>,
        /// The review's budget a position (it fixes depths and node counts, not a time).
        budget: Duration,
    },
    /// Read the archive of played games (its path is the explorer's `--archive`).
    LoadArchive,
    /// Cancel the running search.
    Cancel,
    /// Cancel any search-lab run and run the lab on this position as job `job`.
    Lab {
        /// The job number.
        job: u64,
        /// The position.
        position: Position,
    },
    /// Cancel the search lab.
    CancelLab,
    /// Cancel any `:reach` search and look for a game to this position as job `job`.
    Reach {
        /// The job number.
        job: u64,
        /// The board to reach.
        position: Position,
    },
    /// Cancel the `:reach` search.
    CancelReach,
    /// Put this text on the clipboard (OSC 52).
    Yank(String),
    /// Write `contents` to `path`, then send [`Msg::Saved`].
    Save {
        /// The file.
        path: String,
        /// Its new text.
        contents: String,
    },
    /// Read `path`, then send [`Msg::Loaded`].
    Load {
        /// The file.
        path: String,
        /// Which game of a file of several, from 1.
        index: Option<usize>,
    },
    /// Rewrite the session file with this text (the whole explored tree; see
    /// [`super::super::session`]).
    WriteSession(String),
    /// Append these lines (a journal of the changes, see [`super::super::session::journal`]) to
    /// the session file written last.
    AppendSession(String),
    /// Keep this session text (a tree `:new`, `:size`, `:board` or `:load` replaced) beside the
    /// session file, as its newest kept copy (`NAME.previous`, the older ones moved on).
    KeepTree(String),
    /// Give the terminal back and stop the process (Ctrl-Z); `fg` resumes it.
    Suspend,
    /// End the app.
    Quit,
}
