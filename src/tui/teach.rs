//! The teaching view's state: which lesson (a traced topic or the search lab) and which step is
//! on screen, and the search lab's results. The traces themselves come from
//! [`crate::studies::trace`] on the position on screen each time they are drawn, so they always follow
//! the position and the cursor.

use crate::studies::lab::outcome::{self, OutcomeError};
use crate::studies::lab::{LabError, Method, Run};
use crate::studies::trace::{self, Topic, Trace, TraceError};
use crate::{board::position::Position, board::square::Square};

/// A page of the teaching view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lesson {
    /// A traced technique.
    Trace(Topic),
    /// The search lab: four ways to solve the position, five to prove its outcome.
    Lab,
}

impl Lesson {
    /// Every page, in the order of the tutorial.
    pub const ALL: [Lesson; 11] = [
        Lesson::Trace(Topic::Legal),
        Lesson::Trace(Topic::Flips),
        Lesson::Trace(Topic::Play),
        Lesson::Trace(Topic::Popcount),
        Lesson::Trace(Topic::Empties),
        Lesson::Trace(Topic::Symmetry),
        Lesson::Trace(Topic::Stable),
        Lesson::Trace(Topic::Frontier),
        Lesson::Trace(Topic::Regions),
        Lesson::Trace(Topic::Corners),
        Lesson::Lab,
    ];

    /// Its name: the topic's, or `"search lab"`.
    pub const fn name(self) -> &'static str {
        match self {
            Lesson::Trace(t) => t.name(),
            Lesson::Lab => "search lab",
        }
    }
}

/// Where the teaching view is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Teach {
    /// The page, an index into [`Lesson::ALL`].
    pub lesson: usize,
    /// The step on screen (clamped to the trace's length when drawn).
    pub step: usize,
}

impl Teach {
    /// The page on screen.
    pub fn lesson(&self) -> Lesson {
        Lesson::ALL[self.lesson % Lesson::ALL.len()]
    }
}

/// The move a lesson traces: for `flips` the square under the cursor when it is empty (a square
/// that flips nothing shows why), for `play` the cursor's move when it is legal; otherwise the
/// first legal move in reading order.
pub(crate) fn lesson_move(topic: Topic, position: &Position, cursor: Square) -> Option<Square> {
    let on = cursor.is_on(position.size());
    match topic {
        Topic::Flips if on && position.empty().contains(cursor) => Some(cursor),
        Topic::Play if on && position.legal_moves().contains(cursor) => Some(cursor),
        _ => None,
    }
}

/// The trace of `topic` on `position` with the cursor at `cursor`.
pub fn lesson_trace(topic: Topic, position: &Position, cursor: Square) -> Result<Trace, TraceError> {
    trace::trace(topic, position, lesson_move(topic, position, cursor))
}

/// The search lab on one position: the results so far, one per method in [`Method::ALL`] order,
/// then one per outcome method in [`outcome::Method::ALL`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabState {
    /// Its job number: reports of other jobs are dropped.
    pub job: u64,
    /// The position it solves.
    pub position: Position,
    /// The exact scores so far.
    pub results: Vec<Result<Run, LabError>>,
    /// The outcomes so far (after the exact scores).
    pub outcomes: Vec<Result<outcome::Run, OutcomeError>>,
    /// Whether it still runs.
    pub running: bool,
}

/// A method of either half of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabMethod {
    /// An exact-score method.
    Exact(Method),
    /// An outcome method.
    Outcome(outcome::Method),
}

impl LabState {
    /// A lab just started on `position`.
    pub fn new(job: u64, position: Position) -> LabState {
        LabState { job, position, results: Vec::new(), outcomes: Vec::new(), running: true }
    }

    /// The method running now, if any.
    pub fn current(&self) -> Option<LabMethod> {
        if !self.running {
            None
        } else if let Some(&m) = Method::ALL.get(self.results.len()) {
            Some(LabMethod::Exact(m))
        } else {
            outcome::Method::ALL.get(self.outcomes.len()).map(|&m| LabMethod::Outcome(m))
        }
    }

    /// Whether every method of both halves has reported.
    pub fn complete(&self) -> bool {
        self.results.len() == Method::ALL.len() && self.outcomes.len() == outcome::Method::ALL.len()
    }
}
