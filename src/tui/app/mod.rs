//! The model, the messages and the one `update` (the Elm shape). Key presses, mouse clicks, ticks
//! and solver reports are all [`Msg`]s; [`update`] changes the [`Model`] and returns the
//! [`Effect`]s the runtime must carry out (start or cancel a search, write the clipboard, read or
//! write a file, quit). Nothing here touches the terminal, a thread, a clock or the disk, so tests
//! drive the app with messages alone.
//!
//! Which file holds what:
//!
//! | file | what |
//! |---|---|
//! | `model.rs` | the state (`Model`) and the small types it is made of; the constructors |
//! | `modes.rs` | what the user is doing: the `Activity` (explore, game, drill, edit), the `Overlay` (help, command line, list of games), the one switch (`set_activity`) and the accessors |
//! | `msg.rs` | the messages (`Msg`) and the effects (`Effect`) |
//! | `known.rs` | what is known of each position (`PositionValues`, `Score`, `Known`) |
//! | `queries.rs` | what the view and the update ask of the model (`contexts`, `values_hidden`, `shown_line`, ...) |
//! | `on_key.rs` | a key press: the contexts' dispatch through the key table, then each action |
//! | `on_mouse.rs` | a click or a scroll |
//! | `on_solver.rs` | the solver's and the search lab's reports |
//! | `on_files.rs` | the command line's commands, and files saved or loaded |
//! | `archive.rs` | the archive panel (`A`) and `:games`: the archive's games beside the engine's values |
//! | `pick.rs` | the list of a file's games (`:load FILE` on a file of several): choose one, load it |
//! | `navigate.rs` | moving in the tree: playing a move, going back, arriving at a node |
//! | `auto.rs` | the clock: auto-play (`AutoPlay`) and the engine's moves in a game |
//! | `game.rs` | a game against the engine (`--play`, `:play`) |
//! | `drill.rs` | practice with hidden values (`:drill`) |
//! | `edit.rs` | the board editor (`E`, `:edit`) |
//! | `teaching.rs` | the teaching view and the search lab |
//! | `line_review.rs` | the review of the line shown (`:review`): each position in turn, then the summary |

pub mod archive;
mod auto;
pub mod drill;
pub mod edit;
pub mod game;
mod known;
mod line_review;
mod model;
mod modes;
mod msg;
mod navigate;
mod on_files;
mod on_key;
mod on_mouse;
mod on_solver;
pub mod pick;
mod queries;
mod reach;
mod teaching;

pub use auto::{AutoLine, AutoPlay};
pub use known::*;
pub use model::*;
pub use modes::{Activity, Editing, Overlay, Suspended};
pub use msg::*;
pub use queries::*;

use crate::board::position::{Color, Position};

pub(crate) fn unproven_text(score: Score) -> String {
    // `+4 @14`, or with `#` the long forms: `exact +4`, `a proven win`.
    let value = crate::solver::ValueText { score: score.value, kind: score.kind };
    match score.kind {
        ScoreKind::Estimate { .. } => format!("the best estimate, {value}, not proven"),
        ScoreKind::Wld | ScoreKind::Exact => format!("{value:#}, not proven best"),
    }
}

/// "game over: black wins 40-24 (+16)" and the like.
pub(crate) fn game_over_text(p: &Position, black_score: i32) -> String {
    let (b, w) = (p.black().count(), p.white().count());
    let verdict = match black_score.signum() {
        1 => format!("{} wins", Color::Black),
        -1 => format!("{} wins", Color::White),
        _ => "draw".to_string(),
    };
    format!("game over: {verdict}, {b}-{w}, score {black_score:+} for black")
}

/// The one update: applies `msg` to `model` and returns the effects to carry out. When the
/// explored tree or the current node changed, the last effect rewrites the session file.
pub fn update(model: &mut Model, msg: Msg) -> Vec<Effect> {
    let mut effects = apply(model, msg);
    effects.extend(model.session_effect());
    effects
}

fn apply(model: &mut Model, msg: Msg) -> Vec<Effect> {
    if matches!(msg, Msg::Key(_) | Msg::Mouse(_)) {
        model.announced = false;
    }
    match msg {
        Msg::Key(ev) => model.key(ev),
        Msg::Mouse(ev) => model.mouse(ev),
        Msg::Resize(..) => Vec::new(),
        Msg::Tick(now) => model.tick(now),
        Msg::Solver(ev) => model.solver(ev),
        Msg::Lab(ev) => model.lab_event(ev),
        Msg::Saved { path, result } => model.saved(path, result),
        Msg::SessionFailed(text) => {
            model.complain(text);
            // What the file holds is unknown: the next write is whole.
            model.session_log = None;
            Vec::new()
        }
        Msg::Notice { text, error } => {
            model.background_notice(text, error);
            Vec::new()
        }
        Msg::Signal(_) => model.quit_now(),
        Msg::Loaded { path, index, result } => model.loaded(path, index, result),
        Msg::ArchiveLoaded(result) => model.archive_loaded(result),
        Msg::Reached { job, outcome } => model.reached(job, outcome),
        Msg::ReachProgress { job, progress } => model.reach_progress(job, progress),
    }
}
