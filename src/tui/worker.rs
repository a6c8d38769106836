//! The solver thread. The interface never waits for it.
//!
//! Protocol: the UI calls [`Worker::analyse`] with a job number and a position; that raises the
//! stop flag of the job before (so a stale search ends within a few thousand nodes) and queues the
//! new one. The thread runs [`Solver::score_children`] and reports every child as it is proven,
//! then [`Solver::principal_variation`], each report a [`SolverEvent`] tagged with the job number
//! *and the position*: the UI files results under the position they belong to and never shows them
//! anywhere else.
//!
//! The solver reports its node count only when a call returns, so the thread searches in time
//! slices that double (0.1 s, 0.2 s, 0.4 s, …) and sends [`EventKind::Progress`] between them; the
//! solver's transposition table carries the work of one slice into the next, and doubling bounds
//! what a restart can cost.

use crate::solver::{ChildScore, Limits, Solver, SolverOptions, StopReason, Stopped};
use crate::{Position, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// The first time slice.
const FIRST_SLICE: Duration = Duration::from_millis(100);

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
    let mut slice = FIRST_SLICE;
    let mut gone = false;
    loop {
        if stop.load(Ordering::Relaxed) {
            return send(EventKind::Cancelled);
        }
        let limits = Limits { stop: Some(stop.clone()), max_time: Some(slice), ..Limits::default() };
        let result = solver.score_children(&position, &limits, &mut |c| {
            gone |= events.send(SolverEvent { job, position, kind: EventKind::Child(c) }).is_err();
        });
        if gone {
            return Err(Disconnected);
        }
        match result {
            Ok(_) => {
                send(EventKind::ChildrenDone { nodes: nodes(solver), elapsed: start.elapsed() })?;
                break;
            }
            Err(Stopped { reason: StopReason::TimeLimit, .. }) => {
                send(EventKind::Progress { nodes: nodes(solver), elapsed: start.elapsed() })?;
                slice *= 2;
            }
            Err(_) => return send(EventKind::Cancelled),
        }
    }
    loop {
        if stop.load(Ordering::Relaxed) {
            return send(EventKind::Cancelled);
        }
        let limits = Limits { stop: Some(stop.clone()), max_time: Some(slice), ..Limits::default() };
        match solver.principal_variation(&position, &limits) {
            Ok(moves) => return send(EventKind::Pv { moves, nodes: nodes(solver), elapsed: start.elapsed() }),
            Err(Stopped { reason: StopReason::TimeLimit, .. }) => {
                send(EventKind::Progress { nodes: nodes(solver), elapsed: start.elapsed() })?;
                slice *= 2;
            }
            Err(_) => return send(EventKind::Cancelled),
        }
    }
}
