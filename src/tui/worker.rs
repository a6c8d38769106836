//! The solver thread. The interface never waits for it.
//!
//! Protocol: the UI calls [`Worker::analyse`] with a job number and a position; that raises the
//! stop flag of the job before (so a stale search ends within a few thousand nodes) and queues the
//! new one. The thread runs [`Solver::score_children`] and reports every child as it is proven,
//! then [`Solver::principal_variation`], each report a [`SolverEvent`] tagged with the job number
//! *and the position*: the UI files results under the position they belong to and never shows them
//! anywhere else.
//!
//! While a search runs, a small ticker thread reads the solver's live node counter
//! ([`Limits::progress`]) and sends [`EventKind::Progress`] a few times a second, so the screen
//! shows nodes and nodes per second without interrupting the search.

use crate::solver::{ChildScore, Limits, Solver, SolverOptions};
use crate::{Position, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
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
    /// A child's exact score is proven.
    Child(ChildScore),
    /// Still searching: nodes so far and time spent.
    Progress {
        /// Nodes searched by this job so far.
        nodes: u64,
        /// Time spent on this job so far.
        elapsed: Duration,
    },
    /// Every child is proven.
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
    /// The job was cancelled before it finished.
    Cancelled,
}

enum Request {
    Analyse { job: u64, position: Position, stop: Arc<AtomicBool> },
    Shutdown,
}

/// The handle of the solver thread. Dropping it stops the search and joins the thread.
pub struct Worker {
    requests: Sender<Request>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// How often progress is reported while a search runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

impl Worker {
    /// Starts the thread with a solver built from `options`; its reports go to `events`.
    pub fn spawn(options: SolverOptions, events: Sender<SolverEvent>) -> std::io::Result<Worker> {
        let (requests, rx) = channel();
        let thread = std::thread::Builder::new().name("solver".into()).spawn(move || serve(options, rx, events))?;
        Ok(Worker { requests, stop: Arc::new(AtomicBool::new(false)), thread: Some(thread) })
    }

    /// Cancels the running job and starts analysing `position` as job `job`.
    pub fn analyse(&mut self, job: u64, position: Position) {
        self.cancel();
        self.stop = Arc::new(AtomicBool::new(false));
        let _ = self.requests.send(Request::Analyse { job, position, stop: self.stop.clone() });
    }

    /// Cancels the running job, if any.
    pub fn cancel(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel();
        let _ = self.requests.send(Request::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(options: SolverOptions, rx: Receiver<Request>, events: Sender<SolverEvent>) {
    let mut solver = Solver::new(options);
    while let Ok(mut request) = rx.recv() {
        // Only the newest request matters: the ones before it are stale.
        while let Ok(next) = rx.try_recv() {
            request = next;
        }
        match request {
            Request::Shutdown => return,
            Request::Analyse { job, position, stop } => {
                if run_job(&mut solver, job, position, &stop, &events).is_err() {
                    return; // the UI has gone
                }
            }
        }
    }
}

struct Disconnected;

fn run_job(
    solver: &mut Solver,
    job: u64,
    position: Position,
    stop: &Arc<AtomicBool>,
    events: &Sender<SolverEvent>,
) -> Result<(), Disconnected> {
    let send = |kind: EventKind| events.send(SolverEvent { job, position, kind }).map_err(|_| Disconnected);
    let start = Instant::now();
    let first_nodes = solver.total_nodes();
    let nodes = |s: &Solver| s.total_nodes() - first_nodes;
    let progress = Arc::new(AtomicU64::new(0));
    let limits = Limits { stop: Some(stop.clone()), progress: Some(progress.clone()), ..Limits::default() };
    let done = AtomicBool::new(false);
    let mut gone = false;
    let outcome = std::thread::scope(|scope| {
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
                if events.send(SolverEvent { job, position, kind }).is_err() {
                    return;
                }
            }
        });
        let result = solver.score_children(&position, &limits, &mut |c| {
            gone |= events.send(SolverEvent { job, position, kind: EventKind::Child(c) }).is_err();
        });
        let children_nodes = nodes(solver);
        let pv = match result {
            Ok(_) if !gone => {
                let sent = send(EventKind::ChildrenDone { nodes: children_nodes, elapsed: start.elapsed() });
                gone |= sent.is_err();
                Some(solver.principal_variation(&position, &limits))
            }
            _ => None,
        };
        done.store(true, Ordering::Relaxed);
        pv
    });
    if gone {
        return Err(Disconnected);
    }
    match outcome {
        Some(Ok(moves)) => send(EventKind::Pv { moves, nodes: nodes(solver), elapsed: start.elapsed() }),
        _ => send(EventKind::Cancelled),
    }
}
