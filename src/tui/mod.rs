//! The terminal explorer (feature `tui`): a ratatui app to walk the game tree with its
//! bitboards, masks and every child's exact score.
//!
//! The Elm shape: a [`app::Model`], a message enum [`app::Msg`], one [`app::update`] returning
//! [`app::Effect`]s, and one [`view::view`]. Key presses, mouse events, ticks and solver reports
//! are all messages; the runtime here turns terminal events into messages, carries out effects
//! (the solver thread of [`worker`], the clipboard of [`clipboard`], files) and redraws. It talks to
//! the engine only through its public API. The terminal is restored on every way out: quit,
//! error, panic, and the signals HUP, INT, QUIT and TERM (which quit as `q` does, then exit with
//! status 128 + the signal). See `docs/tui.md` for the design.

pub(crate) mod app;
pub(crate) mod clipboard;
pub(crate) mod command;
pub(crate) mod disk;
pub(crate) mod job;
pub(crate) mod keys;
pub(crate) mod lab_worker;
pub(crate) mod reach_worker;
mod screen;
pub(crate) mod session;
pub(crate) mod teach;
pub mod testing;
pub(crate) mod theme;
pub(crate) mod tree;
pub(crate) mod view;
pub(crate) mod watchdog;
pub(crate) mod widgets;
pub(crate) mod worker;

pub use app::game::Strength;
pub use disk::check_session_path;
pub(crate) use screen::stdio_is_terminal;
use screen::{ACTIVE, MOUSE, Signals, TerminalGuard};
pub use screen::{QUIT_SIGNALS, color_auto, restore_terminal};
pub use session::{Session, parse_full as parse_session, parse_with_progress as parse_session_with_progress};

/// The explorer's keys and `:` commands as the manual page lists them, from the one key table and
/// the command table the key bar and the help are made from: each context's name with its
/// `(keys, what they do)` lines, then `"commands"` with each command's usage and help.
pub fn key_reference() -> Vec<(&'static str, Vec<(String, &'static str)>)> {
    let mut out: Vec<(&'static str, Vec<(String, &'static str)>)> =
        keys::help_sections(&[]).into_iter().map(|(context, _, lines)| (context.name(), lines)).collect();
    out.push(("commands (after :)", command::COMMANDS.iter().map(|c| (c.usage.to_string(), c.help)).collect()));
    out
}

use crate::solver::SolverOptions;
use crate::{
    board::position::{Position, Scoring},
    board::square::Square,
};
use app::{Config, Effect, Model, Msg, update};
use disk::{Claim, Claimed, Disk};
use lab_worker::LabWorker;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, EnableMouseCapture, Event};
use ratatui::crossterm::terminal::{self, BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen};
use ratatui::crossterm::{cursor, execute, queue};
use reach_worker::ReachWorker;
use signal_hook::consts::{SIGHUP, SIGTSTP};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};
use tree::Tree;
use watchdog::Watchdog;
use worker::Worker;

/// The background threads: the solver, the search lab, reachability and the files. Each reports
/// as [`Msg`] on the one channel the event loop reads.
struct Workers {
    solver: Worker,
    lab: LabWorker,
    disk: Disk,
    reach: ReachWorker,
    /// The archive of played games (`--archive`; `None`: none).
    archive: Option<PathBuf>,
}

/// How the explorer starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The root of the game tree.
    pub root: Position,
    /// Moves played from the root at start (passes implicit); the last one's position is shown.
    pub moves: Vec<Square>,
    /// How finished games are scored.
    pub scoring: Scoring,
    /// The solver's transposition table size in MiB.
    pub hash_mb: usize,
    /// Whether to draw colours.
    pub color: bool,
    /// Whether to capture the mouse (off leaves the terminal's own selection working).
    pub mouse: bool,
    /// The auto-play delay.
    pub auto_delay: Duration,
    /// A tree to reopen (`--resume`): it replaces `root` and `moves`.
    pub tree: Option<Tree>,
    /// Where the session file is kept, rewritten after every change (`None`: no session file).
    pub session: Option<PathBuf>,
    /// The store of proven results (`None`: run without one).
    pub store: Option<PathBuf>,
    /// The archive of played games the archive panel reads (`None`: none).
    pub archive: Option<PathBuf>,
    /// Solver threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The deepest estimate, in plies, the explorer searches a position to (`None`: no limit).
    pub max_depth: Option<u32>,
    /// A game to start: `Some(Some(c))` the user plays `c`, `Some(None)` the engine plays both.
    pub play: Option<Option<crate::board::position::Color>>,
    /// How strongly the engine plays.
    pub strength: app::game::Strength,
    /// How selective the estimates are at the start (`%` changes it).
    pub selectivity: crate::solver::Selectivity,
    /// The estimates' evaluation (`--eval`).
    pub evaluator: crate::solver::Evaluator,
}

impl Options {
    /// The options for exploring from `root` with defaults for the rest.
    pub fn new(root: Position) -> Options {
        Options {
            root,
            moves: Vec::new(),
            scoring: Scoring::Standard,
            hash_mb: 256,
            color: true,
            mouse: true,
            auto_delay: Config::default().auto_delay,
            tree: None,
            session: None,
            store: None,
            archive: None,
            threads: None,
            max_depth: None,
            play: None,
            strength: app::game::Strength::default(),
            selectivity: crate::solver::DEFAULT_SELECTIVITY,
            evaluator: crate::solver::Evaluator::Patterns,
        }
    }
}

/// Why the explorer could not run.
#[derive(Debug)]
pub enum TuiError {
    /// Standard output is not a terminal.
    NotATerminal,
    /// The terminal failed.
    Io(io::Error),
}

impl std::fmt::Display for TuiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuiError::NotATerminal => {
                write!(f, "the explorer needs a terminal: in scripts use a subcommand (see --help)")
            }
            TuiError::Io(e) if e.kind() == io::ErrorKind::OutOfMemory => write!(f, "{e}"),
            TuiError::Io(e) => write!(f, "terminal error: {e}"),
        }
    }
}

impl std::error::Error for TuiError {}

impl From<io::Error> for TuiError {
    fn from(e: io::Error) -> TuiError {
        TuiError::Io(e)
    }
}

/// Runs the explorer until the user quits.
///
/// On SIGHUP, SIGINT, SIGQUIT or SIGTERM it quits as on `q` (the terminal restored, the
/// session written, the threads stopped) and then exits the process with the conventional
/// status 128 + the signal's number, so it does not return.
pub fn run(options: Options) -> Result<(), TuiError> {
    if !stdio_is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    let signals = Signals::catch()?;
    let claimed = options.session.as_deref().map(|path| disk::claim_session(path, options.tree.is_some()));
    let (session, note) = match &claimed {
        Some(Ok(Claimed::Session(c))) => (Some(c.path.clone()), c.busy.as_ref().map(|busy| busy_note(busy, &c.path))),
        Some(Ok(Claimed::AllBusy)) => {
            let name = options.session.as_deref().map(file_name).unwrap_or_default();
            (None, Some(format!("{name} and its spares are open in other explorers: this one keeps no session")))
        }
        // The lock file cannot be made: write the session unlocked (a failing write is reported).
        Some(Err(_)) => (options.session.clone(), None),
        None => (None, None),
    };
    let result = run_with(options, session, note, &signals).map(|unkept| {
        // The terminal is back: say what no file keeps.
        if unkept > 0 {
            eprintln!(
                "othello-explorer: {unkept} tree{} replaced in this run (:new, :size, :board, :load) {} not kept: run with a session file to keep them",
                if unkept == 1 { "" } else { "s" },
                if unkept == 1 { "was" } else { "were" }
            );
        }
    });
    // Everything is put back and written by now; say where a spare session went.
    if let Some(Ok(Claimed::Session(Claim { path, busy: Some(_), .. }))) = &claimed {
        let path = path.display();
        eprintln!("othello-explorer: this explorer's session is in {path}: reopen it with --resume --session {path}");
    }
    drop(claimed);
    if let Some(sig) = signals.received() {
        std::process::exit(128 + sig);
    }
    result
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// The status line's word when the session file was held by another explorer.
fn busy_note(busy: &Path, own: &Path) -> String {
    format!("{} is open in another explorer: this one keeps its session in {}", file_name(busy), file_name(own))
}

fn run_with(
    options: Options,
    session: Option<PathBuf>,
    note: Option<String>,
    signals: &Signals,
) -> Result<usize, TuiError> {
    let config = Config {
        scoring: options.scoring,
        color: options.color,
        auto_delay: options.auto_delay,
        session: session.is_some(),
        strength: options.strength,
        selectivity: options.selectivity,
    };
    let mut model = match options.tree {
        Some(tree) => {
            let (n, ply) = (tree.len() - 1, tree.depth(tree.current()));
            let mut model = Model::with_tree(tree, config, Instant::now());
            model.announce(format!(
                "resumed the session: {n} position{} explored, at ply {ply}",
                if n == 1 { "" } else { "s" }
            ));
            model
        }
        None => Model::new(options.root, &options.moves, config, Instant::now()),
    };
    let mut first = Vec::new();
    if let Some(human) = options.play {
        first = model.start_game(human);
    }
    if let Some(note) = note {
        model.announce(note);
    }
    // One channel for every background thread: the loop has one place to wait.
    let (tx, events) = channel();
    let input_tx = tx.clone();
    // Every core: the interface thread needs next to nothing.
    let threads = options.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let solver = SolverOptions {
        hash_mb: options.hash_mb,
        scoring: options.scoring,
        threads,
        evaluator: options.evaluator,
        ..SolverOptions::default()
    };
    let mut worker = Workers {
        solver: Worker::spawn_limited(solver, options.store, tx.clone(), options.max_depth)?,
        lab: LabWorker::spawn(options.scoring, tx.clone())?,
        reach: ReachWorker::spawn(tx.clone())?,
        disk: Disk::spawn(session, tx)?,
        archive: options.archive.clone(),
    };
    let _guard = TerminalGuard::enter(options.mouse)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(BufWriter::with_capacity(FRAME_BUFFER, io::stdout())))?;
    terminal.clear()?;
    first.extend(model.init());
    let _ = perform(first, &mut worker)?;
    // The watch runs while the loop does: the quit that follows (threads stopped, the session's
    // last write) is the normal path's.
    let watchdog = Watchdog::spawn(signals.shared())?;
    let (failed, input_failed) = channel();
    spawn_input(input_tx, failed)?;
    let result = event_loop(&mut terminal, &mut model, &mut worker, &events, &input_failed, signals, &watchdog);
    drop(watchdog);
    result.map(|()| model.unkept)
}

/// The terminal, written through one buffer large enough for a whole frame: a frame reaches the
/// terminal in one write when the draw flushes, never in the standard output's 1 KB pieces that
/// let a terminal (or a `tmux capture-pane`) show half of it.
type Term = Terminal<CrosstermBackend<BufWriter<io::Stdout>>>;

/// Bytes: a full repaint of a 300x100 terminal in colour fits.
const FRAME_BUFFER: usize = 1 << 20;

/// Draws a frame inside a synchronized update (DEC mode 2026): a terminal that knows the mode
/// shows the frame whole; one that does not ignores it.
fn draw(terminal: &mut Term, model: &mut Model) -> io::Result<()> {
    queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
    let mut hits = None;
    terminal.draw(|f| hits = Some(view::view(model, f)))?;
    model.hits = hits.unwrap_or_default();
    execute!(terminal.backend_mut(), EndSynchronizedUpdate)
}

/// Starts the input thread: it blocks in crossterm's `event::read` (with `use-dev-tty`, a
/// level-triggered `poll` of the terminal, never a spin) and sends every key, click and resize as
/// a [`Msg`] on the loop's one channel, so the loop takes all input already waiting each turn
/// (a paste of 10,000 characters in one or two turns) and never waits on the terminal itself. A
/// read error goes to `failed` and ends the thread. The thread is not joined: on quitting it is
/// blocked in a read, and ends with the process.
fn spawn_input(tx: Sender<Msg>, failed: Sender<io::Error>) -> io::Result<()> {
    std::thread::Builder::new().name("input".into()).spawn(move || {
        loop {
            let msg = match event::read() {
                Ok(Event::Key(k)) => Msg::Key(k),
                Ok(Event::Mouse(m)) => Msg::Mouse(m),
                Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                Ok(_) => continue,
                Err(e) => {
                    let _ = failed.send(e);
                    return;
                }
            };
            if tx.send(msg).is_err() {
                return;
            }
        }
    })?;
    Ok(())
}

/// The effects of one turn with the superseded ones dropped: only the last solver job (or
/// cancel) and the last session write of the turn matter, since each replaces the one before.
/// A burst of 700 arrow keys starts one search and writes the session once.
fn coalesce(effects: Vec<Effect>) -> Vec<Effect> {
    let is_solver = |e: &Effect| matches!(e, Effect::Analyse { .. } | Effect::Review { .. } | Effect::Cancel);
    let last_solver = effects.iter().rposition(is_solver);
    let last_session = effects.iter().rposition(|e| matches!(e, Effect::WriteSession(_)));
    effects
        .into_iter()
        .enumerate()
        .filter(|(i, e)| {
            (!is_solver(e) || Some(*i) == last_solver)
                && (!matches!(e, Effect::WriteSession(_)) || Some(*i) == last_session)
                // A journal before a whole text is in it.
                && (!matches!(e, Effect::AppendSession(_)) || last_session.is_none_or(|l| *i > l))
        })
        .map(|(_, e)| e)
        .collect()
}

fn event_loop(
    terminal: &mut Term,
    model: &mut Model,
    worker: &mut Workers,
    events: &Receiver<Msg>,
    input_failed: &Receiver<io::Error>,
    signals: &Signals,
    watchdog: &Watchdog,
) -> Result<(), TuiError> {
    let mut queue: Vec<Msg> = Vec::new();
    let mut dirty = true;
    let mut last_tick = Instant::now();
    let tick = Duration::from_millis(50);
    loop {
        watchdog.beat();
        if dirty {
            draw(terminal, model)?;
            dirty = false;
        }
        // One place to wait: input, the threads' reports and the tick.
        let wait = tick.saturating_sub(last_tick.elapsed());
        match events.recv_timeout(wait) {
            Ok(msg) => queue.push(msg),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => std::thread::sleep(wait),
        }
        if let Ok(e) = input_failed.try_recv() {
            return Err(TuiError::Io(e));
        }
        if last_tick.elapsed() >= tick {
            last_tick = Instant::now();
            queue.push(Msg::Tick(last_tick));
            // A terminal that hung up without a signal (the reader would only see nothing).
            if watchdog::hung_up() {
                signals.raise(SIGHUP);
            }
        }
        queue.extend(events.try_iter());
        if let Some(sig) = signals.received() {
            queue.push(Msg::Signal(sig));
        }
        let mut effects = Vec::new();
        while !queue.is_empty() {
            for msg in std::mem::take(&mut queue) {
                // Ticks redraw only when something on screen moves with time.
                let lab = model.lab.as_ref().is_some_and(|l| l.running);
                let busy =
                    model.job.is_some() || model.auto().is_some() || model.game().is_some() || lab || model.typing();
                let visible = !matches!(msg, Msg::Tick(_)) || busy;
                dirty |= visible;
                let more = update(model, msg);
                dirty |= !more.is_empty();
                effects.extend(more);
            }
        }
        let suspend = perform(coalesce(effects), worker)?;
        if model.quit {
            return Ok(());
        }
        if suspend || signals.take_stop() {
            suspend_process(terminal)?;
            // The SIGCONT that resumed it is answered.
            signals.take_continue();
            dirty = true;
        }
        if signals.take_continue() {
            // Continued after a stop the explorer did not make (SIGSTOP): the terminal may have
            // been used meanwhile.
            resume_terminal(terminal)?;
            dirty = true;
        }
        if !ACTIVE.load(Ordering::SeqCst) {
            // A panic elsewhere (the solver thread) restored the terminal: stop drawing.
            return Err(TuiError::Io(io::Error::other("the solver thread stopped unexpectedly")));
        }
    }
}

/// Gives the terminal back as on quitting and stops the process (the default action of SIGTSTP);
/// when the shell continues it (`fg`), takes the terminal again and redraws everything.
fn suspend_process(terminal: &mut Term) -> Result<(), TuiError> {
    let mouse = MOUSE.load(Ordering::SeqCst);
    restore_terminal();
    MOUSE.store(mouse, Ordering::SeqCst);
    // Stops here until SIGCONT.
    signal_hook::low_level::emulate_default_handler(SIGTSTP)?;
    resume_terminal(terminal)
}

/// Takes the terminal (again): raw mode, the alternate screen, the cursor hidden, the mouse as
/// it was; the next draw repaints every cell.
fn resume_terminal(terminal: &mut Term) -> Result<(), TuiError> {
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    execute!(out, EnterAlternateScreen, cursor::Hide)?;
    if MOUSE.load(Ordering::SeqCst) {
        execute!(out, EnableMouseCapture)?;
    }
    // The screen cleared, and a blank frame drawn so that the next draw repaints every cell
    // (ratatui's `clear` would ask the terminal for the cursor, and the input thread holds the
    // reader).
    execute!(out, terminal::Clear(terminal::ClearType::All))?;
    terminal.draw(|_| {})?;
    Ok(())
}

/// Carries out `effects`; whether one of them asks to suspend.
fn perform(effects: Vec<Effect>, worker: &mut Workers) -> Result<bool, TuiError> {
    let mut suspend = false;
    for effect in effects {
        match effect {
            Effect::Analyse { job, position, selectivity } => worker.solver.analyse(job, position, selectivity),
            Effect::Review { job, position, played, budget } => worker.solver.review(job, position, played, budget),
            Effect::Cancel => worker.solver.cancel(),
            Effect::Lab { job, position } => worker.lab.run(job, position),
            Effect::CancelLab => worker.lab.cancel(),
            Effect::Reach { job, position } => worker.reach.run(job, position),
            Effect::CancelReach => worker.reach.cancel(),
            Effect::Yank(text) => clipboard::copy(&mut io::stdout(), &text)?,
            Effect::Save { path, contents } => worker.disk.save(path, contents),
            Effect::Load { path, index } => worker.disk.load(path, index),
            Effect::LoadArchive => {
                if let Some(path) = &worker.archive {
                    worker.disk.load_archive(path.clone());
                }
            }
            Effect::WriteSession(text) => worker.disk.write_session(text),
            Effect::AppendSession(text) => worker.disk.append_session(text),
            Effect::KeepTree(text) => worker.disk.keep_tree(text),
            Effect::Suspend => suspend = true,
            Effect::Quit => {}
        }
    }
    Ok(suspend)
}
