//! The solver thread, a [`JobThread`]. The interface never waits for it.
//!
//! Protocol: the UI calls [`Worker::analyse`] with a job number, a position and the selectivity
//! of its estimates (set on the solver before the search, [`Solver::set_selectivity`]); that
//! raises the stop flag of the job before (so a stale search ends within a few thousand nodes)
//! and queues the new one. The thread runs the store-aware [`Analyst::analyse`] in its automatic mode: estimates by iterative
//! deepening first (every child has a value within a fraction of a second, even at the 8x8
//! start), then, when the position is shallow enough, proofs of win/loss/draw and exact scores.
//! Every child's value is reported as it improves, labelled with what it is; once every child is
//! exact comes [`Solver::principal_variation`]. Each report is a [`SolverEvent`] tagged with the
//! job number *and the position*: the UI files results under the position they belong to and
//! never shows them anywhere else.
//!
//! A review's step ([`Worker::review`]) runs instead on the review's own solver
//! ([`crate::studies::review::Reviewer`], made at the first step), never on the analyst and its store, and
//! its values come as one [`EventKind::Reviewed`]: the marks are `review`'s.
//!
//! While a search runs, a small ticker thread reads the solver's live node counter
//! ([`Limits::progress`]) and sends [`EventKind::Progress`] a few times a second, so the screen
//! shows nodes and nodes per second without interrupting the search.

use super::app::Msg;
use super::job::{Gone, JobThread};
use crate::analyst::{Analyst, Ask, Event, LineRule, kept};
use crate::solver::{ChildValue, Limits, Phase, Report, SearchMode, Selectivity, Solver, SolverOptions};
use crate::{board::position::Position, board::square::Square};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// A report from the solver thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverEvent {
    /// The job it belongs to.
    pub job: u64,
    /// The position the job analyses: the result is about this position and no other.
    pub position: Position,
    /// What happened.
    pub kind: EventKind,
}

/// What a [`SolverEvent`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A child has a new value: an estimate, a proven outcome or its exact score.
    Child(ChildValue),
    /// The search entered a phase (estimates, outcomes, exact scores).
    Phase(Phase),
    /// Every child still estimated has been searched to this depth.
    Depth(u32),
    /// The line the estimate of this depth expects (the best child first): never a proof.
    Line {
        /// The estimate's depth.
        depth: u32,
        /// The estimate's selectivity (the job's).
        selectivity: Selectivity,
        /// The moves.
        moves: Vec<Square>,
    },
    /// Still searching: nodes so far and time spent.
    Progress {
        /// Nodes searched by this job so far.
        nodes: u64,
        /// Time spent on this job so far.
        elapsed: Duration,
    },
    /// Every child's exact score is proven.
    ChildrenDone {
        /// Nodes searched.
        nodes: u64,
        /// Time spent.
        elapsed: Duration,
    },
    /// The principal variation from the position to the end (passes not written); the job is done.
    Pv {
        /// The moves.
        moves: Vec<Square>,
        /// Nodes searched by the whole job.
        nodes: u64,
        /// Time spent by the whole job.
        elapsed: Duration,
    },
    /// A review's step ended: every legal move's value as the review judges them
    /// ([`crate::studies::review::Reviewer::examine`]), for the move the line plays there. Sent only when
    /// the step ran to its end; the job then ends with [`EventKind::Cancelled`].
    Reviewed {
        /// The move the line plays at the position (`None` at the line's end).
        played: Option<Square>,
        /// Every legal move's value, from the mover's side, best first.
        children: Vec<ChildValue>,
        /// The evaluation the values' estimates read (whose margins judge them).
        evaluator: crate::solver::Evaluator,
    },
    /// A review's step judged the move played a mistake: its refutation and why it loses
    /// ([`crate::studies::review::Reviewer::why`]). Sent after [`EventKind::Reviewed`].
    Why {
        /// The move the line plays at the position.
        played: Square,
        /// The refutation, the best move's line and the reasons.
        why: crate::studies::review::reasons::Why,
    },
    /// The job was cancelled before it finished.
    Cancelled,
}

/// The handle of the solver thread: a [`JobThread`] whose jobs are analyses and the review's
/// steps. Dropping it stops the search and joins the thread.
pub struct Worker {
    thread: JobThread<Input>,
}

/// A job of the solver thread.
#[derive(Clone, Debug)]
enum Input {
    /// A position to analyse, its estimates at a selectivity.
    Analyse(Position, Selectivity),
    /// A review's step: a position, the move the line plays there, the review's budget.
    Review(Position, Option<Square>, Duration),
}

/// How often progress is reported while a search runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

impl Worker {
    /// Starts the thread with a solver built from `options`, and the store at `store` if any
    /// (opened on the thread; what it says about the store comes as [`Msg::Notice`]); its reports
    /// go to `events` as [`Msg::Solver`]. A solver whose table cannot be allocated is an error of
    /// kind [`std::io::ErrorKind::OutOfMemory`] naming `--hash-mb`.
    pub fn spawn(options: SolverOptions, store: Option<PathBuf>, events: Sender<Msg>) -> std::io::Result<Worker> {
        Worker::spawn_limited(options, store, events, None)
    }

    /// [`Worker::spawn`], with the estimates of a position deepened to at most `max_depth` plies:
    /// a position whose children all reached it (and whose proofs are out of reach) leaves the
    /// thread idle.
    pub(crate) fn spawn_limited(
        options: SolverOptions,
        store: Option<PathBuf>,
        events: Sender<Msg>,
        max_depth: Option<u32>,
    ) -> std::io::Result<Worker> {
        let (scoring, evaluator) = (options.scoring, options.evaluator);
        let solver = Solver::try_new(options)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, format!("--hash-mb: {e}")))?;
        let thread = JobThread::spawn("solver", move || {
            let notice = |text: String, error: bool| {
                let _ = events.send(Msg::Notice { text, error });
            };
            let store = store.and_then(|path| match kept::open(&path) {
                Ok((store, note)) => {
                    if let Some(text) = note {
                        notice(text, false);
                    }
                    Some(store)
                }
                Err(text) => {
                    notice(format!("{text}; running without it"), true);
                    None
                }
            });
            let mut analyst = Analyst::new(solver, store);
            // The review's own solver (`crate::studies::review::Reviewer`), made at the first step.
            let mut reviewer = None;
            move |job, input, stop: &Arc<AtomicBool>| match input {
                Input::Analyse(position, selectivity) => {
                    run_job(&mut analyst, max_depth, job, position, selectivity, stop, &events)
                }
                Input::Review(position, played, budget) => {
                    review_job(&mut reviewer, (scoring, evaluator), job, position, played, budget, stop, &events)
                }
            }
        })?;
        Ok(Worker { thread })
    }

    /// Cancels the running job and starts analysing `position` as job `job`, its estimates at
    /// `selectivity` ([`Solver::set_selectivity`] before the search).
    pub fn analyse(&mut self, job: u64, position: Position, selectivity: Selectivity) {
        self.start(job, Input::Analyse(position, selectivity));
    }

    /// Cancels the running job and starts analysing `position` as job `job`.
    fn start(&mut self, job: u64, input: Input) {
        self.thread.start(job, input);
    }

    /// A review's step as job `job`: `position`, where the line plays `played`, examined for
    /// the review's `budget` by the review's own solver ([`crate::studies::review::Reviewer::examine`],
    /// as `review` on the command line does); its values come as one
    /// [`EventKind::Reviewed`], then the job ends with [`EventKind::Cancelled`].
    pub fn review(&mut self, job: u64, position: Position, played: Option<Square>, budget: Duration) {
        self.start(job, Input::Review(position, played, budget));
    }

    /// Cancels the running job, if any.
    pub fn cancel(&mut self) {
        self.thread.cancel();
    }
}

/// A review's step: the position examined by the review's own solver (made now if it is not
/// yet), its depths and phases reported as progress, then its values as one
/// [`EventKind::Reviewed`] when the step ran to its end, then [`EventKind::Cancelled`].
#[allow(clippy::too_many_arguments)]
fn review_job(
    reviewer: &mut Option<crate::studies::review::Reviewer>,
    (scoring, evaluator): (crate::board::position::Scoring, crate::solver::Evaluator),
    job: u64,
    position: Position,
    played: Option<Square>,
    budget: Duration,
    stop: &Arc<AtomicBool>,
    events: &Sender<Msg>,
) -> Result<(), Gone> {
    let send = |kind: EventKind| events.send(Msg::Solver(SolverEvent { job, position, kind })).map_err(|_| Gone);
    if reviewer.is_none() {
        match crate::studies::review::Reviewer::new(scoring, evaluator) {
            Ok(r) => *reviewer = Some(r),
            Err(e) => {
                let text = format!("the review's solver: {e}");
                events.send(Msg::Notice { text, error: true }).map_err(|_| Gone)?;
                return send(EventKind::Cancelled);
            }
        }
    }
    let Some(reviewer) = reviewer.as_mut() else { return send(EventKind::Cancelled) };
    let mut gone = false;
    let examined = reviewer.examine(&position, played, budget, Some(stop), &mut |r| {
        let kind = match r {
            Report::Phase(p) => EventKind::Phase(p),
            Report::DepthDone { depth } => EventKind::Depth(depth),
            _ => return,
        };
        gone |= send(kind).is_err();
    });
    if gone {
        return Err(Gone);
    }
    if examined.complete {
        let judged =
            played.and_then(|m| crate::studies::review::judge_for(evaluator, 0, &position, m, &examined.children));
        send(EventKind::Reviewed { played, children: examined.children, evaluator })?;
        // A marked move: why it loses, from its refutation and the best move's line.
        if let Some(j) = judged.filter(|j| j.mark.is_some())
            && let Some(why) = reviewer.why(&position, &j, budget, Some(stop))
        {
            send(EventKind::Why { played: j.played, why })?;
        }
    }
    send(EventKind::Cancelled)
}

fn run_job(
    analyst: &mut Analyst,
    max_depth: Option<u32>,
    job: u64,
    position: Position,
    selectivity: Selectivity,
    stop: &Arc<AtomicBool>,
    events: &Sender<Msg>,
) -> Result<(), Gone> {
    analyst.solver().set_selectivity(selectivity);
    let solver_event = |kind: EventKind| Msg::Solver(SolverEvent { job, position, kind });
    let send = |kind: EventKind| events.send(solver_event(kind)).map_err(|_| Gone);
    let start = Instant::now();
    let progress = Arc::new(AtomicU64::new(0));
    let limits = Limits { stop: Some(stop.clone()), progress: Some(progress.clone()), ..Limits::default() };
    let ask = Ask { mode: SearchMode::Auto, max_depth, limits: limits.clone(), line: LineRule::WhenAllExact };
    let done = AtomicBool::new(false);
    let mut gone = false;
    let verdict = std::thread::scope(|scope| {
        // The ticker: reports the live node count until the search below returns.
        scope.spawn(|| {
            let mut base = 0;
            loop {
                let deadline = Instant::now() + PROGRESS_EVERY;
                while Instant::now() < deadline {
                    if done.load(Ordering::Relaxed) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                // The counter restarts at each solver call; keep the total for the whole job.
                let now = progress.load(Ordering::Relaxed);
                let kind = EventKind::Progress { nodes: base.max(now), elapsed: start.elapsed() };
                base = base.max(now);
                if events.send(solver_event(kind)).is_err() {
                    return;
                }
            }
        });
        let mut on_event = |event| {
            let msg = match event {
                Event::Report(Report::Child(c)) => solver_event(EventKind::Child(c)),
                Event::Report(Report::Phase(p)) => solver_event(EventKind::Phase(p)),
                Event::Report(Report::DepthDone { depth }) => solver_event(EventKind::Depth(depth)),
                Event::Report(Report::Line { depth, moves }) => {
                    solver_event(EventKind::Line { depth, selectivity, moves })
                }
                Event::ChildrenDone { nodes } => {
                    solver_event(EventKind::ChildrenDone { nodes, elapsed: start.elapsed() })
                }
                Event::Notice { text, error } => Msg::Notice { text, error },
            };
            gone |= events.send(msg).is_err();
        };
        let verdict = analyst.analyse(&position, &ask, &mut on_event);
        done.store(true, Ordering::Relaxed);
        Some(verdict)
    });
    if gone {
        return Err(Gone);
    }
    match verdict.and_then(|v| Some((v.line?, v.nodes))) {
        Some((line, nodes)) => send(EventKind::Pv { moves: line.moves, nodes, elapsed: start.elapsed() }),
        None => send(EventKind::Cancelled),
    }
}
