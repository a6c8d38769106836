//! What the engine protocols (`gtp`, `nboard`) share: the input read on a thread of its own, so a
//! search can be stopped by the line that needs it (NBoard's `ping`, `quit` in both), the game as
//! a list of positions with undo, the strength options, and the output, one flushed line at a
//! time, nothing on stdout but protocol lines.

use clap::Args;
use othello_explorer::analyst::play::Strength;
use othello_explorer::{Position, Size, Square};
use std::cell::Cell;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

/// The longest line read; a longer one is cut there (and, being no command, refused or ignored
/// as the protocol says), so memory stays bounded whatever the client sends.
pub const LONGEST_LINE: usize = 1 << 16;

/// The most lines read ahead of the one being answered: a client that sends faster than the
/// engine answers waits (its writes block), so the input takes at most this many lines of
/// [`LONGEST_LINE`] (16 MiB) whatever it sends.
pub const QUEUED_LINES: usize = 256;

/// The strength options of the protocols.
#[derive(Args, Debug, Clone)]
pub struct StrengthArgs {
    /// Strength: estimates to depth N, proven moves from N+8 empties (at most 20); at most
    /// 0.2·N seconds a move (three times that when proving). 1-30, default 10.
    #[arg(long, value_name = "N", conflicts_with = "move_time", allow_negative_numbers = true, value_parser = super::values::level)]
    pub level: Option<u32>,
    /// Strength: the best move known after this many seconds (proven moves at once).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::values::seconds)]
    pub move_time: Option<Duration>,
}

impl StrengthArgs {
    /// The strength asked for.
    pub fn strength(&self) -> Strength {
        match (self.level, self.move_time) {
            (_, Some(t)) => Strength::MoveTime(t),
            (Some(n), None) => Strength::Level(n),
            (None, None) => Strength::default(),
        }
    }
}

/// A line from the client, or the end of the input.
pub enum Input {
    /// A line (without its end; cut at [`LONGEST_LINE`]).
    Line(String),
    /// The client closed the input (or it failed).
    End,
}

/// Which searches an urgent line (or the end of the input) stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The search under way when it arrives, and every search started while it waits its turn:
    /// NBoard's `ping`, which a GUI sends to cancel the work it asked for before.
    Waiting,
    /// Only a search under way when it arrives: GTP's `quit`. Commands are answered in their
    /// order, so a `genmove` a script sent before `quit` gets its whole budget however fast the
    /// script's lines came; a `quit` sent while the engine thinks still ends the thinking.
    Arriving,
}

/// The client's lines, read on a thread of its own. A line for which `urgent` says so raises
/// the stop flag as it arrives, so a search in hand ends and the line is answered.
pub struct Reader {
    lines: Receiver<Input>,
    /// Raised by an urgent line as it arrives.
    pub stop: Arc<AtomicBool>,
    /// Urgent lines read so far by the thread.
    urgent_read: Arc<AtomicUsize>,
    /// Urgent lines handed out by [`Reader::next`].
    urgent_taken: Cell<usize>,
    urgent: fn(&str) -> bool,
    interrupt: Interrupt,
}

impl Reader {
    /// Starts reading stdin.
    pub fn spawn(urgent: fn(&str) -> bool, interrupt: Interrupt) -> Reader {
        let (tx, lines) = sync_channel(QUEUED_LINES);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let urgent_read = Arc::new(AtomicUsize::new(0));
        let read = urgent_read.clone();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                let mut buf = Vec::new();
                let line = match read_line(&mut input, &mut buf) {
                    Ok(true) => String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string(),
                    Ok(false) | Err(_) => {
                        flag.store(true, Ordering::SeqCst);
                        let _ = tx.send(Input::End);
                        return;
                    }
                };
                if urgent(&line) {
                    read.fetch_add(1, Ordering::SeqCst);
                    flag.store(true, Ordering::SeqCst);
                }
                if tx.send(Input::Line(line)).is_err() {
                    return;
                }
            }
        });
        Reader { lines, stop, urgent_read, urgent_taken: Cell::new(0), urgent, interrupt }
    }

    /// The next line, waiting; [`Input::End`] when a signal asked to stop (`signalled`) before
    /// one came.
    pub fn next(&self, signalled: &AtomicBool) -> Input {
        loop {
            if signalled.load(Ordering::SeqCst) {
                return Input::End;
            }
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(Input::Line(line)) => {
                    if (self.urgent)(&line) {
                        self.urgent_taken.set(self.urgent_taken.get() + 1);
                    }
                    return Input::Line(line);
                }
                Ok(Input::End) => return Input::End,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Input::End,
            }
        }
    }

    /// Lowers the stop flag before a search; with [`Interrupt::Waiting`], not while an urgent
    /// line has been read and waits its turn: then the search returns (after its first depth,
    /// [`after_first_depth`]) and the line is answered.
    pub fn arm(&self) {
        let waiting = self.urgent_read.load(Ordering::SeqCst) > self.urgent_taken.get();
        self.stop.store(waiting && self.interrupt == Interrupt::Waiting, Ordering::SeqCst);
    }
}

/// Runs `search` with a stop flag of its own, which follows `stop` only once `search` has raised
/// the flag it is given (`ready`: a first depth done). A command the client sent before a
/// `ping` or a `quit` is answered with at least that much (NBoard's `hint` owes at least the
/// best move's evaluation, its `go` a move with its value), yet still ends within moments of
/// the stop: a first depth takes milliseconds.
pub fn after_first_depth<T>(stop: &Arc<AtomicBool>, search: impl FnOnce(&Arc<AtomicBool>, &AtomicBool) -> T) -> T {
    let inner = Arc::new(AtomicBool::new(false));
    let ready = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                if ready.load(Ordering::SeqCst) && stop.load(Ordering::SeqCst) {
                    inner.store(true, Ordering::SeqCst);
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let out = search(&inner, &ready);
        done.store(true, Ordering::SeqCst);
        out
    })
}

/// The analyst an engine protocol plays with: the solver of `options` and the store.
pub fn analyst(
    options: othello_explorer::solver::SolverOptions,
    store: Option<othello_explorer::store::Store>,
) -> Result<othello_explorer::analyst::Analyst, super::common::CliError> {
    let solver = super::common::solver(options)?;
    Ok(othello_explorer::analyst::Analyst::new(solver, store))
}

/// The flag SIGINT and SIGTERM raise for a protocol: the first ends the session as the end of
/// the input does, a second ends the program at once. A protocol command catches them before
/// anything else (the store, the weights and the table take a moment to set up), so a client
/// that stops it at any time sees the same end.
pub fn catch_signals() -> Arc<AtomicBool> {
    let signalled = Arc::new(AtomicBool::new(false));
    super::signals::catch_signals(&signalled);
    signalled
}

/// Serves a protocol: each line the client sends goes to `answer` with the stop flag (lowered
/// before, unless an urgent line waits: see [`Reader::arm`]), until `answer` says to quit, the
/// input ends, or SIGINT or SIGTERM comes (`signalled`, from [`catch_signals`]).
pub fn serve(
    signalled: &AtomicBool,
    urgent: fn(&str) -> bool,
    interrupt: Interrupt,
    mut answer: impl FnMut(&str, &Arc<AtomicBool>) -> bool,
) {
    if signalled.load(Ordering::SeqCst) {
        return;
    }
    let reader = Reader::spawn(urgent, interrupt);
    loop {
        let line = match reader.next(signalled) {
            Input::Line(line) => line,
            Input::End => return,
        };
        reader.arm();
        if answer(&line, &reader.stop) || signalled.load(Ordering::SeqCst) {
            return;
        }
    }
}

/// Reads one line into `buf`, at most [`LONGEST_LINE`] bytes of it (the rest is skipped): whether
/// there was one.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any);
        }
        any = true;
        let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = LONGEST_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        if end {
            return Ok(true);
        }
    }
}

/// Writes `text` (one or more lines) to stdout and flushes; a client that has gone ends the
/// program quietly.
pub fn send(text: &str) {
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// The game the client plays: the positions from its start, one per move or pass.
#[derive(Clone, Debug)]
pub struct Line {
    positions: Vec<Position>,
    /// The moves, `None` for a pass.
    pub moves: Vec<Option<Square>>,
}

impl Line {
    /// A game from `start`.
    pub fn new(start: Position) -> Line {
        Line { positions: vec![start], moves: Vec::new() }
    }

    /// The start of a game of `size`.
    pub fn start(size: Size) -> Line {
        Line::new(Position::start(size))
    }

    /// The position now.
    pub fn now(&self) -> Position {
        *self.positions.last().expect("at least the start")
    }

    /// Plays `square` (`None`: a pass); an error names why it is not legal.
    pub fn play(&mut self, square: Option<Square>) -> Result<(), String> {
        let p = self.now();
        let next = match square {
            Some(sq) => p.play(sq).map_err(|e| e.to_string())?,
            None if p.must_pass() => p.pass(),
            None if p.is_game_over() => return Err("the game is over".into()),
            None => return Err(format!("{} has a move: no pass", p.to_move())),
        };
        self.positions.push(next);
        self.moves.push(square);
        Ok(())
    }

    /// Takes back the last move or pass; false at the start.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.positions.pop();
            true
        } else {
            false
        }
    }
}

/// A square as the protocols write it: `F5`.
pub fn vertex(square: Square) -> String {
    square.to_string().to_uppercase()
}
