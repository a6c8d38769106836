//! The model, the messages and the one `update` (the Elm shape). Key presses, mouse clicks, ticks
//! and solver reports are all [`Msg`]s; [`update`] changes the [`Model`] and returns the
//! [`Effect`]s the runtime must carry out (start or cancel a search, write the clipboard, read or
//! write a file, quit). Nothing here touches the terminal, a thread or the disk, so tests drive the
//! app with messages alone.

use super::command::{self, Command};
use super::keys::{self, Action};
use super::lab_worker::LabEvent;
use super::teach::{LabState, Lesson, Teach, lesson_trace};
use super::tree::{Edge, NodeId, Tree};
use super::worker::{EventKind, SolverEvent};
use crate::solver::{ChildValue, Phase};
use crate::{Bitboard, Color, Position, Scoring, Size, Square, transcript};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position as Point, Rect};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How sure a shown score is: the solver's [`Kind`](crate::solver::Kind). An estimate of some
/// depth (drawn dim, `+12 @14` in the table), a proven win, loss or draw (`W`, `L`, `D`), or the
/// exact score.
pub use crate::solver::Kind as ScoreKind;

/// A score as the screen shows it: the disc difference from the side to move at the parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// The value.
    pub value: i32,
    /// How sure it is.
    pub kind: ScoreKind,
}

/// What the solver knows about one position: filed under that position, shown nowhere else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// The best value known for each child so far, one entry per move (estimates, proven
    /// outcomes or exact scores; a value is only replaced by one at least as strong).
    pub children: Vec<ChildValue>,
    /// Whether every child's exact score is known.
    pub complete: bool,
    /// The principal variation to the end, once known.
    pub pv: Option<Vec<Square>>,
    /// The line of the deepest completed estimate (its depth, then the moves, the best child
    /// first), shown until the principal variation replaces it.
    pub line: Option<(u32, Vec<Square>)>,
    /// Nodes the search took (once complete).
    pub nodes: u64,
    /// Time the search took (once complete).
    pub elapsed: Duration,
    /// Each child's deepest estimate, kept after a proof of its outcome replaces it (it ranks
    /// proven wins among themselves).
    pub estimates: Vec<(Square, i32)>,
    /// The legal moves grouped by symmetric twins (filled on the first report).
    pub twins: Vec<Vec<Square>>,
}

/// How strong a value is: exact beats a proven outcome beats a deeper estimate.
fn strength(kind: ScoreKind) -> (u8, u32) {
    match kind {
        ScoreKind::Exact => (3, 0),
        ScoreKind::Wld => (2, 0),
        ScoreKind::Estimate { depth } => (1, depth),
    }
}

impl Analysis {
    /// The best value known for `square`.
    pub fn value(&self, square: Square) -> Option<ChildValue> {
        self.children.iter().find(|c| c.square == square).copied()
    }

    /// The exact score of `square`, if proven.
    pub fn score(&self, square: Square) -> Option<i32> {
        self.value(square).filter(|c| c.kind == ScoreKind::Exact).map(|c| c.score)
    }

    /// How many children have their exact score.
    pub fn exact_count(&self) -> usize {
        self.children.iter().filter(|c| c.kind == ScoreKind::Exact).count()
    }

    /// The position's exact value (the best child's score), once every child is proven.
    pub fn best(&self) -> Option<i32> {
        if self.complete { self.children.iter().map(|c| c.score).max() } else { None }
    }

    /// The deepest estimate among the children, if any is only estimated.
    pub fn estimate_depth(&self) -> Option<u32> {
        self.children
            .iter()
            .filter_map(|c| match c.kind {
                ScoreKind::Estimate { depth } => Some(depth),
                _ => None,
            })
            .max()
    }

    /// The child the values rank best (an exact score or an estimate by its score, a proven
    /// win above every draw and a draw above every loss), ties in reading order.
    pub fn best_child(&self) -> Option<ChildValue> {
        let estimate = |square| self.estimates.iter().find(|(s, _)| *s == square).map(|&(_, v)| v);
        let rank = |c: &ChildValue| crate::solver::rank(c.score, c.kind, estimate(c.square));
        self.children.iter().max_by_key(|c| (rank(c), std::cmp::Reverse(c.square))).copied()
    }

    /// Files a child's value, unless a stronger one is known.
    pub fn record(&mut self, child: ChildValue) {
        if let ScoreKind::Estimate { .. } = child.kind {
            match self.estimates.iter_mut().find(|(s, _)| *s == child.square) {
                Some(e) => e.1 = child.score,
                None => self.estimates.push((child.square, child.score)),
            }
        }
        match self.children.iter_mut().find(|c| c.square == child.square) {
            Some(c) if strength(child.kind) >= strength(c.kind) => *c = child,
            Some(_) => {}
            None => self.children.push(child),
        }
    }
}

/// A mask the overlay draws onto the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mask {
    /// Black's discs.
    Black,
    /// White's discs.
    White,
    /// The empty squares.
    Empty,
    /// The legal moves.
    Legal,
    /// The discs the selected move flips.
    Flips,
}

impl Mask {
    /// Every mask in display order.
    pub const ALL: [Mask; 5] = [Mask::Black, Mask::White, Mask::Empty, Mask::Legal, Mask::Flips];

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Mask::Black => "black",
            Mask::White => "white",
            Mask::Empty => "empty",
            Mask::Legal => "legal",
            Mask::Flips => "flips",
        }
    }
}

/// What the keyboard is talking to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The board and the tree.
    Normal,
    /// The help overlay is open.
    Help,
    /// The command line is open with this text.
    Command(String),
}

/// Where the arrow keys go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// Arrows move the cursor.
    Board,
    /// Arrows go back and forward and switch branches.
    History,
}

/// A message on the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Whether it reports an error.
    pub error: bool,
}

/// The search running for the position on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Its number: reports of other jobs do not update its progress.
    pub id: u64,
    /// The position it analyses.
    pub position: Position,
    /// When it was asked for.
    pub started: Instant,
    /// Nodes searched at the last report.
    pub nodes: u64,
    /// Time spent at the last report.
    pub elapsed: Duration,
    /// What the search is doing now, once it said.
    pub phase: Option<Phase>,
    /// The deepest estimate depth completed for every child.
    pub depth: Option<u32>,
}

/// Where the last frame drew what a mouse can click: filled by the view from its own `Rect`s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hits {
    /// The board's squares.
    pub board: Option<BoardGeometry>,
    /// The rows of the children table.
    pub children: Vec<(Rect, Edge)>,
    /// The entries of the history.
    pub history: Vec<(Rect, NodeId)>,
}

/// Where the board's squares were drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardGeometry {
    /// The rectangle of the squares (coordinates excluded): `a1` at its top-left.
    pub squares: Rect,
    /// Columns per square.
    pub cell_width: u16,
    /// Rows per square.
    pub cell_height: u16,
}

impl BoardGeometry {
    /// The square at a terminal cell, if the cell is on one.
    pub fn square_at(&self, size: Size, x: u16, y: u16) -> Option<Square> {
        if !self.squares.contains(Point { x, y }) || self.cell_width == 0 || self.cell_height == 0 {
            return None;
        }
        let col = ((x - self.squares.x) / self.cell_width) as usize;
        let row = ((y - self.squares.y) / self.cell_height) as usize;
        Square::new(col, row).filter(|s| s.is_on(size))
    }
}

/// Settings fixed at start.
#[derive(Clone, Debug)]
pub struct Config {
    /// How finished games are scored.
    pub scoring: Scoring,
    /// Whether to draw in colour (else glyphs and modifiers only).
    pub color: bool,
    /// The auto-play delay.
    pub auto_delay: Duration,
    /// Whether the explored tree is kept in a session file: every change of the tree or the
    /// current node then asks for [`Effect::WriteSession`].
    pub session: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { scoring: Scoring::Standard, color: true, auto_delay: Duration::from_millis(700), session: false }
    }
}

/// The whole state of the explorer.
#[derive(Clone, Debug)]
pub struct Model {
    /// The explored game tree.
    pub tree: Tree,
    /// The board cursor.
    pub cursor: Square,
    /// What the solver has proven, per position.
    pub cache: HashMap<Position, Analysis>,
    /// The search for the position on screen, if one runs.
    pub job: Option<Job>,
    next_job: u64,
    /// The user paused the analysis (`z`): no search starts until resumed.
    pub paused: bool,
    /// The trees `:size`, `:new`, `:board` and `:load` replaced, the newest last (at most
    /// [`REPLACED_TREES`]): `:restore` brings them back.
    pub replaced: Vec<Tree>,
    /// Values are shown from black's side (`v`), not from the side to move's.
    pub black_view: bool,
    /// The keyboard mode.
    pub mode: Mode,
    /// Where the arrows go.
    pub focus: Focus,
    /// The mask drawn onto the board, if any.
    pub overlay: Option<Mask>,
    /// How far the help is scrolled.
    pub help_scroll: u16,
    /// The status line's message.
    pub status: Option<Status>,
    /// When auto-play last stepped, while it is on.
    pub auto: Option<Instant>,
    /// The line auto-play is playing: the one the line panel printed when auto-play took it, so
    /// that `p` plays exactly what was shown; the panel shows it while it lasts.
    pub auto_line: Option<AutoLine>,
    /// The time of the last tick.
    pub clock: Instant,
    /// Settings.
    pub config: Config,
    /// Set when the app must end.
    pub quit: bool,
    /// What the last frame drew where.
    pub hits: Hits,
    /// The teaching view, while it is open.
    pub teach: Option<Teach>,
    /// The search lab's last run, if any.
    pub lab: Option<LabState>,
    next_lab_job: u64,
    /// Counts the trees this model has held (`:new`, `:load` start another).
    tree_generation: u64,
    /// The (tree generation, tree revision) the session file last asked for.
    session_mark: Option<(u64, u64)>,
    /// Whether the status line holds what [`Model::announce`] said at the start and no key or
    /// mouse event came since: the background threads' notices are added to it, not put instead.
    announced: bool,
}

/// What a line shown in the line panel is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A principal variation to the end of the game: every move keeps the exact score.
    Perfect,
    /// The line the estimate of this depth expects: never a proof.
    Estimate {
        /// The estimate's depth, in plies from the position where the line was taken.
        depth: u32,
    },
}

/// The line the line panel shows from the position on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownLine {
    /// The moves (forced passes not written).
    pub moves: Vec<Square>,
    /// The line's value, from the side to move on screen.
    pub score: i32,
    /// What the line is.
    pub kind: LineKind,
}

/// The line auto-play is stepping through, taken from the line panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoLine {
    /// The position the next move is played from.
    pub at: Position,
    /// The moves still to play (forced passes are played as they come).
    pub moves: std::collections::VecDeque<Square>,
    /// The line's value from black's side (it does not change along the line).
    pub black_score: i32,
    /// What the line is.
    pub kind: LineKind,
}

/// What the best move known is, for `b` and auto-play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The move is forced (a pass) or proven best.
    Proven,
    /// The move is the best by the values known so far, none a proof that it is best.
    Unproven(Score),
}

/// An input to [`update`].
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
    /// A load finished.
    Loaded {
        /// The file.
        path: String,
        /// Its text, or what went wrong.
        result: Result<String, String>,
    },
    /// The session file could not be written (said once until a write succeeds again).
    SessionFailed(String),
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
    },
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
    },
    /// Rewrite the session file with this text (the whole explored tree; see
    /// [`super::session`]).
    WriteSession(String),
    /// End the app.
    Quit,
}

/// The solver's state for the position on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverState {
    /// The game is over: nothing to solve.
    GameOver,
    /// Every child is proven.
    Exact {
        /// Nodes the search took.
        nodes: u64,
        /// Time it took.
        elapsed: Duration,
    },
    /// A search runs.
    Solving {
        /// Children proven so far.
        proven: usize,
        /// Children in all.
        total: usize,
        /// What the search does now (estimating, proving outcomes, proving scores), once known.
        phase: Option<Phase>,
        /// The deepest estimate depth reached by every child, if estimates were made.
        depth: Option<u32>,
        /// Nodes so far.
        nodes: u64,
        /// Time so far.
        elapsed: Duration,
        /// Time at the last node count (for the rate).
        counted: Duration,
    },
    /// The analysis is paused by the user: no search runs.
    Paused {
        /// Children proven.
        proven: usize,
        /// Children in all.
        total: usize,
        /// The deepest estimate depth reached by every child, if estimates were made.
        depth: Option<u32>,
    },
    /// No search runs and not every child is proven.
    NotSolved {
        /// Children proven.
        proven: usize,
        /// Children in all.
        total: usize,
        /// The deepest estimate depth reached by every child, if estimates were made.
        depth: Option<u32>,
    },
}

/// How many replaced trees `:restore` can bring back.
pub const REPLACED_TREES: usize = 8;

const MIN_DELAY: Duration = Duration::from_millis(100);
const MAX_DELAY: Duration = Duration::from_secs(5);

impl Model {
    /// A model on a tree whose root is `root`, with `moves` (passes implicit) played from it.
    /// Call [`Model::init`] for the first effects.
    pub fn new(root: Position, moves: &[Square], config: Config, now: Instant) -> Model {
        let mut tree = Tree::new(root);
        if tree.play_moves_from_root(moves).is_err() {
            tree = Tree::new(root);
        }
        Model::with_tree(tree, config, now)
    }

    /// A model on an explored tree (a resumed session), at its current node.
    pub fn with_tree(tree: Tree, config: Config, now: Instant) -> Model {
        let mut m = Model {
            tree,
            cursor: Square::new(0, 0).expect("a1"),
            cache: HashMap::new(),
            job: None,
            next_job: 1,
            paused: false,
            replaced: Vec::new(),
            black_view: false,
            mode: Mode::Normal,
            focus: Focus::Board,
            overlay: None,
            help_scroll: 0,
            status: None,
            auto: None,
            auto_line: None,
            clock: now,
            config,
            quit: false,
            hits: Hits::default(),
            teach: None,
            lab: None,
            next_lab_job: 1,
            tree_generation: 0,
            session_mark: None,
            announced: false,
        };
        m.fix_cursor();
        m
    }

    /// Shows `text` in the status line (as the explorer does on `--resume`), after what was
    /// announced before. Until the first key or mouse event, notices of the background threads (the
    /// store is busy, the book was added) are added after it rather than replacing it.
    pub fn announce(&mut self, text: impl Into<String>) {
        self.notice(text.into(), false);
        self.announced = true;
    }

    /// A notice: added to the announcements while they stand, else the new status.
    fn notice(&mut self, text: String, error: bool) {
        match &mut self.status {
            Some(s) if self.announced => {
                s.text = format!("{} · {text}", s.text);
                s.error |= error;
            }
            _ => self.status = Some(Status { text, error }),
        }
    }

    /// The session text to write, when the tree or the current node changed since the last one
    /// (always the first time).
    fn session_effect(&mut self) -> Option<Effect> {
        if !self.config.session {
            return None;
        }
        let mark = (self.tree_generation, self.tree.revision());
        if self.session_mark == Some(mark) {
            return None;
        }
        self.session_mark = Some(mark);
        Some(Effect::WriteSession(super::session::to_text(&self.tree)))
    }

    /// The effects to start with: the analysis of the first position.
    pub fn init(&mut self) -> Vec<Effect> {
        self.arrived()
    }

    /// The position on screen.
    pub fn position(&self) -> Position {
        self.tree.position()
    }

    /// The position the solver analyses for the one on screen: itself, or after the forced pass;
    /// `None` when the game is over.
    pub fn target(&self) -> Option<Position> {
        let p = self.position();
        if p.is_game_over() { None } else { Some(p.after_forced_pass().0) }
    }

    /// What is proven about the position on screen.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.target().and_then(|t| self.cache.get(&t))
    }

    /// The best known value of the move on `square` (from the side to move): an estimate, a
    /// proven outcome or the exact score.
    pub fn child_score(&self, square: Square) -> Option<Score> {
        if self.position().must_pass() {
            return None;
        }
        self.analysis().and_then(|a| a.value(square)).map(|c| Score { value: c.score, kind: c.kind })
    }

    /// A value from the side to move at the position on screen, as the screen shows it: the same,
    /// or from black's side when the user asked for that (`v`).
    pub fn shown_value(&self, value: i32) -> i32 {
        if self.black_view && self.position().to_move() == Color::White { -value } else { value }
    }

    /// Whose side the screen's values are from: `None` for the side to move.
    pub fn value_side(&self) -> Option<Color> {
        self.black_view.then_some(Color::Black)
    }

    /// The proven score of passing, when the side to move must pass.
    pub fn pass_score(&self) -> Option<Score> {
        if !self.position().must_pass() {
            return None;
        }
        self.analysis().and_then(|a| a.best()).map(|v| Score { value: -v, kind: ScoreKind::Exact })
    }

    /// The best score here, once proven.
    pub fn best_score(&self) -> Option<i32> {
        if self.position().must_pass() { self.pass_score().map(|s| s.value) } else { self.analysis()?.best() }
    }

    /// The best edge: the pass when it is forced, else the best move once every child is proven:
    /// the principal variation's first move when it is known, else the first best in reading order.
    pub fn best_edge(&self) -> Option<Edge> {
        let p = self.position();
        if p.must_pass() {
            return Some(Edge::Pass);
        }
        let a = self.analysis()?;
        let best = a.best()?;
        // The principal variation's move when known, so `b` and auto-play follow the line shown.
        if let Some(&first) = a.pv.as_ref().and_then(|pv| pv.first())
            && a.score(first) == Some(best)
        {
            return Some(Edge::Move(first));
        }
        p.legal_moves().reading_order().into_iter().find(|&sq| a.score(sq) == Some(best)).map(Edge::Move)
    }

    /// The line the line panel shows: auto-play's line while it plays one; else the principal
    /// variation once proven; else the deepest completed estimate's line.
    pub fn shown_line(&self) -> Option<ShownLine> {
        let p = self.position();
        if p.is_game_over() {
            return None;
        }
        let from_black = |v: i32| if p.to_move() == Color::Black { v } else { -v };
        if let Some(auto) = self.auto_line.as_ref().filter(|a| self.auto.is_some() && a.at == p && !a.moves.is_empty())
        {
            let moves = auto.moves.iter().copied().collect();
            return Some(ShownLine { moves, score: from_black(auto.black_score), kind: auto.kind });
        }
        let a = self.analysis()?;
        if let (Some(pv), Some(score)) = (a.pv.as_ref(), self.best_score()) {
            return Some(ShownLine { moves: pv.clone(), score, kind: LineKind::Perfect });
        }
        let (depth, moves) = a.line.as_ref()?;
        let first = a.value(*moves.first()?)?;
        let score = if p.must_pass() { -first.score } else { first.score };
        Some(ShownLine { moves: moves.clone(), score, kind: LineKind::Estimate { depth: *depth } })
    }

    /// The move `b` and auto-play make here: the forced pass; the proven best move; the first
    /// move of the line shown; else the child the values known rank best. With whether it is
    /// proven best.
    pub fn best_known(&self) -> Option<(Edge, Known)> {
        if let Some(edge) = self.best_edge() {
            return Some((edge, Known::Proven));
        }
        let p = self.position();
        if p.is_game_over() {
            return None;
        }
        let a = self.analysis()?;
        let child = match self.shown_line() {
            Some(line) if line.kind != LineKind::Perfect => a.value(line.moves[0]),
            _ => None,
        }
        .or_else(|| a.best_child())?;
        Some((Edge::Move(child.square), Known::Unproven(Score { value: child.score, kind: child.kind })))
    }

    /// The moves reaching the best score, once proven.
    pub fn best_moves(&self) -> Vec<Square> {
        match (self.analysis(), self.position().must_pass()) {
            (Some(a), false) => match a.best() {
                Some(b) => {
                    a.children.iter().filter(|c| c.score == b && c.kind == ScoreKind::Exact).map(|c| c.square).collect()
                }
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The principal variation from the position on screen, once known.
    pub fn pv(&self) -> Option<&[Square]> {
        self.analysis().and_then(|a| a.pv.as_deref())
    }

    /// The move under the cursor, if it is legal.
    pub fn selected(&self) -> Option<Square> {
        let p = self.position();
        p.legal_moves().contains(self.cursor).then_some(self.cursor)
    }

    /// The discs the selected move flips.
    pub fn flips(&self) -> Bitboard {
        let p = self.position();
        match self.selected() {
            Some(sq) => p.flips(sq),
            None => Bitboard::empty(p.size()),
        }
    }

    /// A mask of the position on screen.
    pub fn mask(&self, mask: Mask) -> Bitboard {
        let p = self.position();
        match mask {
            Mask::Black => p.black(),
            Mask::White => p.white(),
            Mask::Empty => p.empty(),
            Mask::Legal => p.legal_moves(),
            Mask::Flips => self.flips(),
        }
    }

    /// The mask drawn onto the board: the teaching view's current step when it is open, else
    /// the overlay chosen with `o`.
    pub fn board_mask(&self) -> Option<Bitboard> {
        match self.teach {
            Some(teach) => match teach.lesson() {
                Lesson::Trace(topic) => {
                    let trace = lesson_trace(topic, &self.position(), self.cursor).ok()?;
                    let step = trace.steps.get(teach.step.min(trace.steps.len().saturating_sub(1)))?;
                    step.value.mask()
                }
                Lesson::Lab => None,
            },
            None => self.overlay.map(|mask| self.mask(mask)),
        }
    }

    /// The number of steps of the teaching view's current trace (0 on the lab page or when the
    /// trace cannot be made).
    pub fn teach_steps(&self) -> usize {
        match self.teach.map(|t| t.lesson()) {
            Some(Lesson::Trace(topic)) => {
                lesson_trace(topic, &self.position(), self.cursor).map_or(0, |t| t.steps.len())
            }
            _ => 0,
        }
    }

    /// The square of the move that led here, if it was a move.
    pub fn last_move(&self) -> Option<Square> {
        match self.tree.edge(self.tree.current()) {
            Some(Edge::Move(sq)) => Some(sq),
            _ => None,
        }
    }

    /// The solver's state for the position on screen.
    pub fn solver_state(&self) -> SolverState {
        let Some(target) = self.target() else { return SolverState::GameOver };
        let total = target.legal_moves().count() as usize;
        let a = self.cache.get(&target);
        let proven = a.map_or(0, |a| a.exact_count());
        if let Some(a) = a.filter(|a| a.complete) {
            return SolverState::Exact { nodes: a.nodes, elapsed: a.elapsed };
        }
        let estimated = a.and_then(|a| a.estimate_depth());
        match &self.job {
            _ if self.paused => SolverState::Paused { proven, total, depth: estimated },
            Some(j) if j.position == target => SolverState::Solving {
                proven,
                total,
                phase: j.phase,
                depth: j.depth.or(estimated),
                nodes: j.nodes,
                elapsed: j.elapsed.max(self.clock.saturating_duration_since(j.started)),
                counted: j.elapsed,
            },
            _ => SolverState::NotSolved { proven, total, depth: estimated },
        }
    }

    /// The final score from black's side, when the game is over.
    pub fn final_score(&self) -> Option<i32> {
        let p = self.position();
        p.is_game_over().then(|| p.black_score(self.config.scoring))
    }

    /// The board string of the position on screen and the transcript from the root.
    pub fn yank_text(&self) -> (String, String) {
        (self.position().to_string(), self.tree.transcript())
    }

    fn say(&mut self, text: impl Into<String>) {
        self.status = Some(Status { text: text.into(), error: false });
    }

    fn complain(&mut self, text: impl Into<String>) {
        self.status = Some(Status { text: text.into(), error: true });
    }

    fn fix_cursor(&mut self) {
        let p = self.position();
        if !self.cursor.is_on(p.size()) {
            self.cursor = Square::new(0, 0).expect("a1");
        }
        let legal = p.legal_moves();
        if !legal.contains(self.cursor)
            && let Some(first) = legal.reading_order().first()
        {
            self.cursor = *first;
        }
    }

    /// After the current node changed: fix the cursor and ask for the analysis it needs.
    fn arrived(&mut self) -> Vec<Effect> {
        self.fix_cursor();
        if self.paused {
            return self.job.take().map(|_| vec![Effect::Cancel]).unwrap_or_default();
        }
        let Some(target) = self.target() else {
            return self.job.take().map(|_| vec![Effect::Cancel]).unwrap_or_default();
        };
        let done = self.cache.get(&target).is_some_and(|a| a.complete && a.pv.is_some());
        if done {
            return self.job.take().map(|_| vec![Effect::Cancel]).unwrap_or_default();
        }
        if self.job.as_ref().is_some_and(|j| j.position == target) {
            return Vec::new();
        }
        let id = self.next_job;
        self.next_job += 1;
        self.job = Some(Job {
            id,
            position: target,
            started: self.clock,
            nodes: 0,
            elapsed: Duration::ZERO,
            phase: None,
            depth: None,
        });
        vec![Effect::Analyse { job: id, position: target }]
    }

    fn play(&mut self, edge: Edge) -> Vec<Effect> {
        match self.tree.play(edge) {
            Ok(_) => {
                self.status = None;
                if self.position().must_pass() {
                    let side = self.position().to_move();
                    self.say(format!("{side} has no move and must pass: Enter passes"));
                } else if let Some(score) = self.final_score() {
                    let text = game_over_text(&self.position(), score);
                    self.say(text);
                }
                self.arrived()
            }
            Err(e) => {
                self.complain(e.to_string());
                Vec::new()
            }
        }
    }

    fn navigate(&mut self, moved: bool, refusal: &str) -> Vec<Effect> {
        if moved {
            self.status = None;
            self.arrived()
        } else {
            self.say(refusal.to_string());
            Vec::new()
        }
    }

    fn move_cursor(&mut self, dc: isize, dr: isize) {
        let n = self.position().size().n() as isize;
        let c = (self.cursor.col() as isize + dc).clamp(0, n - 1) as usize;
        let r = (self.cursor.row() as isize + dr).clamp(0, n - 1) as usize;
        if let Some(sq) = Square::new(c, r) {
            self.cursor = sq;
        }
    }

    fn cycle_move(&mut self, forward: bool) {
        let size = self.position().size();
        let moves = self.position().legal_moves().reading_order();
        if moves.is_empty() {
            return;
        }
        let at = self.cursor.index(size);
        let next = if forward {
            moves.iter().find(|s| s.index(size) > at).unwrap_or(&moves[0])
        } else {
            moves.iter().rev().find(|s| s.index(size) < at).unwrap_or(&moves[moves.len() - 1])
        };
        self.cursor = *next;
    }

    fn act(&mut self, action: Action, code: KeyCode) -> Vec<Effect> {
        let history = self.focus == Focus::History;
        // In the teaching view the arrows walk the trace: → ← steps, ↓ ↑ topics.
        let action = match (self.teach.is_some(), action) {
            (true, Action::Right) if code == KeyCode::Right => Action::NextStep,
            (true, Action::Left) if code == KeyCode::Left => Action::PrevStep,
            (true, Action::Down) if code == KeyCode::Down => Action::NextTopic,
            (true, Action::Up) if code == KeyCode::Up => return self.topic_by(-1),
            _ => action,
        };
        match action {
            Action::Teach => self.toggle_teach(),
            Action::NextStep | Action::PrevStep => {
                if self.teach.is_none() {
                    self.say("e opens the teaching view");
                    return Vec::new();
                }
                let total = self.teach_steps();
                let Some(teach) = self.teach.as_mut() else { return Vec::new() };
                teach.step = teach.step.min(total.saturating_sub(1));
                if action == Action::NextStep {
                    teach.step = (teach.step + 1).min(total.saturating_sub(1));
                } else {
                    teach.step = teach.step.saturating_sub(1);
                }
                Vec::new()
            }
            Action::NextTopic => self.topic_by(1),
            Action::Lab => self.lab_key(),
            Action::ForceQuit => self.quit_now(),
            Action::Quit => {
                if code == KeyCode::Esc {
                    if self.teach.is_some() {
                        return self.toggle_teach();
                    }
                    if self.overlay.take().is_some() {
                        return Vec::new();
                    }
                    if history {
                        self.focus = Focus::Board;
                        return Vec::new();
                    }
                }
                self.quit_now()
            }
            Action::Help => {
                self.mode = Mode::Help;
                self.help_scroll = 0;
                Vec::new()
            }
            Action::Left if history => self.act(Action::Back, code),
            Action::Right if history => self.act(Action::Forward, code),
            Action::Up if history => self.act(Action::PrevBranch, code),
            Action::Down if history => self.act(Action::NextBranch, code),
            Action::Up => self.cursor_by(0, -1),
            Action::Down => self.cursor_by(0, 1),
            Action::Left => self.cursor_by(-1, 0),
            Action::Right => self.cursor_by(1, 0),
            Action::NextMove => {
                self.cycle_move(true);
                Vec::new()
            }
            Action::PrevMove => {
                self.cycle_move(false);
                Vec::new()
            }
            Action::Play => self.play_here(),
            Action::Back => {
                let moved = self.tree.back();
                self.navigate(moved, "at the start of the game")
            }
            Action::Forward => {
                let moved = self.tree.forward();
                self.navigate(moved, "at the end of the line")
            }
            Action::Start => {
                let moved = self.tree.to_start();
                self.navigate(moved, "at the start of the game")
            }
            Action::End => {
                let moved = self.tree.to_end();
                self.navigate(moved, "at the end of the line")
            }
            Action::PrevBranch => {
                let moved = self.tree.switch_branch(-1);
                self.navigate(moved, "no other branch here")
            }
            Action::NextBranch => {
                let moved = self.tree.switch_branch(1);
                self.navigate(moved, "no other branch here")
            }
            Action::Best => match self.best_known() {
                Some((edge, known)) => {
                    let effects = self.play(edge);
                    if let (Known::Unproven(score), Edge::Move(square)) = (known, edge)
                        && self.status.is_none()
                    {
                        self.say(format!("played {square}: {}", unproven_text(score)));
                    }
                    effects
                }
                None if self.position().is_game_over() => {
                    self.say("the game is over");
                    Vec::new()
                }
                None => {
                    self.complain("no move has a value yet: the solver is still starting");
                    Vec::new()
                }
            },
            Action::AutoPlay => {
                if self.auto.take().is_some() {
                    self.auto_line = None;
                    self.say("auto-play off");
                } else if self.position().is_game_over() {
                    self.say("the game is over: nothing to play");
                } else {
                    // The first step comes after one delay, so it can be seen coming; the line
                    // played is the one shown now.
                    self.auto = Some(self.clock);
                    self.auto_line = None;
                    self.take_auto_line();
                    self.say(format!(
                        "auto-play on: a move every {:.1}s (p stops, + and - change speed)",
                        self.delay()
                    ));
                }
                Vec::new()
            }
            Action::Faster | Action::Slower => {
                let d = self.config.auto_delay;
                let d = if action == Action::Faster { d / 2 } else { d * 2 };
                self.config.auto_delay = d.clamp(MIN_DELAY, MAX_DELAY);
                self.say(format!("auto-play delay {:.1}s", self.delay()));
                Vec::new()
            }
            Action::Overlay => {
                self.overlay = match self.overlay {
                    None => Some(Mask::ALL[0]),
                    Some(m) => Mask::ALL.iter().position(|&x| x == m).and_then(|i| Mask::ALL.get(i + 1)).copied(),
                };
                Vec::new()
            }
            Action::Focus => {
                self.focus = if history { Focus::Board } else { Focus::History };
                Vec::new()
            }
            Action::Command => {
                self.mode = Mode::Command(String::new());
                Vec::new()
            }
            Action::Perspective => {
                self.black_view = !self.black_view;
                self.say(if self.black_view {
                    "values from black's side (v: from the side to move)"
                } else {
                    "values from the side to move (v: from black's side)"
                });
                Vec::new()
            }
            Action::Pause => {
                self.paused = !self.paused;
                if self.paused {
                    self.say("analysis paused: z resumes");
                } else {
                    self.say("analysis resumed");
                }
                self.arrived()
            }
            Action::Yank => {
                let (board, moves) = self.yank_text();
                let shown = if moves.is_empty() { "(none)".to_string() } else { moves.clone() };
                self.say(format!("copied board {board} · moves {shown}"));
                vec![Effect::Yank(format!("{board}\n{moves}"))]
            }
        }
    }

    fn toggle_teach(&mut self) -> Vec<Effect> {
        if self.teach.take().is_some() {
            self.say("teaching view closed");
            return self.cancel_lab();
        }
        self.teach = Some(Teach::default());
        self.say("teaching view: → ← steps · ↓ ↑ topics · s search lab · e or Esc leaves");
        Vec::new()
    }

    fn topic_by(&mut self, by: isize) -> Vec<Effect> {
        let Some(teach) = self.teach.as_mut() else {
            self.say("e opens the teaching view");
            return Vec::new();
        };
        let n = Lesson::ALL.len() as isize;
        teach.lesson = (teach.lesson as isize + by).rem_euclid(n) as usize;
        teach.step = 0;
        Vec::new()
    }

    fn cancel_lab(&mut self) -> Vec<Effect> {
        match self.lab.as_mut() {
            Some(lab) if lab.running => {
                lab.running = false;
                vec![Effect::CancelLab]
            }
            _ => Vec::new(),
        }
    }

    /// `s`: open the lab page; run the lab on the position on screen, or cancel it while it runs.
    fn lab_key(&mut self) -> Vec<Effect> {
        let lab_page = Lesson::ALL.iter().position(|&l| l == Lesson::Lab).unwrap_or(0);
        self.teach = Some(Teach { lesson: lab_page, step: 0 });
        let position = self.position();
        if self.lab.as_ref().is_some_and(|l| l.running && l.position == position) {
            self.say("search lab cancelled");
            return self.cancel_lab();
        }
        let job = self.next_lab_job;
        self.next_lab_job += 1;
        self.lab = Some(LabState { job, position, results: Vec::new(), running: true });
        self.say("search lab running: s again cancels");
        vec![Effect::Lab { job, position }]
    }

    fn lab_event(&mut self, ev: LabEvent) -> Vec<Effect> {
        let Some(lab) = self.lab.as_mut().filter(|l| l.job == ev.job && l.position == ev.position) else {
            return Vec::new();
        };
        if lab.results.len() < crate::lab::Method::ALL.len() {
            lab.results.push(ev.result);
        }
        if lab.results.len() == crate::lab::Method::ALL.len() && lab.running {
            lab.running = false;
            self.say("search lab done");
        }
        Vec::new()
    }

    fn delay(&self) -> f64 {
        self.config.auto_delay.as_secs_f64()
    }

    fn cursor_by(&mut self, dc: isize, dr: isize) -> Vec<Effect> {
        self.move_cursor(dc, dr);
        Vec::new()
    }

    fn quit_now(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }

    fn play_here(&mut self) -> Vec<Effect> {
        let p = self.position();
        if p.must_pass() {
            return self.play(Edge::Pass);
        }
        if let Some(score) = self.final_score() {
            let text = game_over_text(&p, score);
            self.say(text);
            return Vec::new();
        }
        self.play(Edge::Move(self.cursor))
    }

    fn key(&mut self, ev: KeyEvent) -> Vec<Effect> {
        if ev.kind == KeyEventKind::Release {
            return Vec::new();
        }
        if ev.modifiers.contains(KeyModifiers::CONTROL) && matches!(ev.code, KeyCode::Char('c' | 'C')) {
            return self.quit_now();
        }
        match &mut self.mode {
            Mode::Command(text) => match ev.code {
                KeyCode::Esc => {
                    self.mode = Mode::Normal;
                    Vec::new()
                }
                KeyCode::Enter => {
                    let input = text.clone();
                    self.mode = Mode::Normal;
                    self.execute(&input)
                }
                KeyCode::Backspace => {
                    if text.pop().is_none() {
                        self.mode = Mode::Normal;
                    }
                    Vec::new()
                }
                KeyCode::Char(c) if !ev.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => {
                    text.push(c);
                    Vec::new()
                }
                _ => Vec::new(),
            },
            Mode::Help => match keys::action_for(&ev) {
                Some(Action::Quit) if ev.code != KeyCode::Esc => self.quit_now(),
                Some(Action::ForceQuit) => self.quit_now(),
                Some(Action::Up) => {
                    self.help_scroll = self.help_scroll.saturating_sub(1);
                    Vec::new()
                }
                Some(Action::Down) => {
                    self.help_scroll = self.help_scroll.saturating_add(1).min(60);
                    Vec::new()
                }
                Some(Action::Help | Action::Quit) => {
                    self.mode = Mode::Normal;
                    Vec::new()
                }
                _ => Vec::new(),
            },
            Mode::Normal => match keys::action_for(&ev) {
                Some(action) => self.act(action, ev.code),
                None => Vec::new(),
            },
        }
    }

    fn execute(&mut self, input: &str) -> Vec<Effect> {
        let cmd = match command::parse(input) {
            Ok(c) => c,
            Err(e) => {
                self.complain(e.to_string());
                return Vec::new();
            }
        };
        match cmd {
            Command::Moves(text) => match self.tree.play_transcript(&text) {
                Ok(()) => {
                    let n = self.tree.moves().len();
                    self.say(format!("played {n} moves from the root"));
                    self.arrived()
                }
                Err(e) => {
                    self.complain(format!("moves: {e}"));
                    Vec::new()
                }
            },
            Command::Board(p) => self.replace_tree(Tree::new(p), format!("new tree at {p}")),
            Command::Size(s) => self.replace_tree(Tree::new(Position::start(s)), format!("new {s} game")),
            Command::New => {
                let s = self.position().size();
                self.replace_tree(Tree::new(Position::start(s)), format!("new {s} game"))
            }
            Command::Save(path) => vec![Effect::Save { path, contents: super::session::to_text(&self.tree) }],
            Command::Load(path) => vec![Effect::Load { path }],
            Command::Restore => match self.replaced.pop() {
                Some(tree) => {
                    let n = tree.len() - 1;
                    let old = std::mem::replace(&mut self.tree, tree);
                    self.replaced.push(old);
                    self.tree_generation += 1;
                    self.focus = Focus::Board;
                    self.overlay = None;
                    self.say(format!(
                        "restored the replaced tree ({n} position{} explored); :restore again swaps back",
                        if n == 1 { "" } else { "s" }
                    ));
                    self.arrived()
                }
                None => {
                    self.complain("restore: no tree was replaced in this run");
                    Vec::new()
                }
            },
            Command::Quit => self.quit_now(),
            Command::Help => {
                self.mode = Mode::Help;
                Vec::new()
            }
        }
    }

    /// Replaces the explored tree, keeping the old one for `:restore` (nothing is lost).
    fn replace_tree(&mut self, tree: Tree, text: String) -> Vec<Effect> {
        let old = std::mem::replace(&mut self.tree, tree);
        let n = old.len() - 1;
        if self.replaced.len() == REPLACED_TREES {
            self.replaced.remove(0);
        }
        self.replaced.push(old);
        self.tree_generation += 1;
        self.focus = Focus::Board;
        self.overlay = None;
        let s = if n == 1 { "" } else { "s" };
        self.say(format!("{text} · :restore brings back the old tree ({n} position{s} explored)"));
        self.arrived()
    }

    fn mouse(&mut self, ev: MouseEvent) -> Vec<Effect> {
        let (x, y) = (ev.column, ev.row);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if self.mode == Mode::Help {
                    self.mode = Mode::Normal;
                    return Vec::new();
                }
                let size = self.position().size();
                if let Some(sq) = self.hits.board.and_then(|b| b.square_at(size, x, y)) {
                    self.cursor = sq;
                    let p = self.position();
                    if p.legal_moves().contains(sq) {
                        return self.play(Edge::Move(sq));
                    }
                    if p.must_pass() {
                        self.say(format!("{} has no move: Enter passes", p.to_move()));
                    }
                    return Vec::new();
                }
                let at = Point { x, y };
                if let Some(&(_, edge)) = self.hits.children.iter().find(|(r, _)| r.contains(at)) {
                    return self.play(edge);
                }
                if let Some(&(_, id)) = self.hits.history.iter().find(|(r, _)| r.contains(at)) {
                    self.focus = Focus::History;
                    let moved = self.tree.goto(id);
                    return self.navigate(moved, "already here");
                }
                Vec::new()
            }
            MouseEventKind::ScrollUp => {
                let moved = self.tree.back();
                self.navigate(moved, "at the start of the game")
            }
            MouseEventKind::ScrollDown => {
                let moved = self.tree.forward();
                self.navigate(moved, "at the end of the line")
            }
            _ => Vec::new(),
        }
    }

    fn tick(&mut self, now: Instant) -> Vec<Effect> {
        self.clock = now;
        let Some(last) = self.auto else { return Vec::new() };
        if self.position().is_game_over() {
            self.auto = None;
            let score = self.final_score().unwrap_or(0);
            let text = format!("auto-play done: {}", game_over_text(&self.position(), score));
            self.say(text);
            return Vec::new();
        }
        if now.saturating_duration_since(last) < self.config.auto_delay {
            return Vec::new();
        }
        match self.auto_step() {
            Some((edge, known)) => {
                self.auto = Some(now);
                let line = self.auto_line.take();
                let effects = self.play(edge);
                // The rest of the line goes on from the new position.
                self.auto_line = line.map(|l| AutoLine { at: self.position(), ..l });
                if let Some(score) = self.final_score() {
                    self.auto = None;
                    self.auto_line = None;
                    let text = format!("auto-play done: {}", game_over_text(&self.position(), score));
                    self.say(text);
                } else if self.status.is_none() {
                    let text = match (edge, known) {
                        (Edge::Move(square), Known::Unproven(score)) => {
                            format!("auto-play: {square}, {}", unproven_text(score))
                        }
                        (Edge::Move(square), Known::Proven) => format!("auto-play: {square}, proven best"),
                        (Edge::Pass, _) => "auto-play: pass (forced)".to_string(),
                    };
                    self.say(text);
                }
                effects
            }
            None => {
                self.say("auto-play waits for the solver's first values");
                Vec::new()
            }
        }
    }

    /// Takes the line shown as auto-play's line, if there is one and auto-play has none here.
    fn take_auto_line(&mut self) {
        let p = self.position();
        if self.auto_line.as_ref().is_some_and(|a| a.at == p && !a.moves.is_empty()) {
            return;
        }
        self.auto_line = self.shown_line().filter(|l| !l.moves.is_empty()).map(|l| AutoLine {
            at: p,
            moves: l.moves.into_iter().collect(),
            black_score: if p.to_move() == Color::Black { l.score } else { -l.score },
            kind: l.kind,
        });
    }

    /// Auto-play's next move: a forced pass; the next move of its line; else the best known.
    fn auto_step(&mut self) -> Option<(Edge, Known)> {
        let p = self.position();
        if p.must_pass() {
            return Some((Edge::Pass, Known::Proven));
        }
        self.take_auto_line();
        if let Some(line) = self.auto_line.as_mut().filter(|a| a.at == p) {
            match line.moves.pop_front() {
                Some(square) if p.legal_moves().contains(square) => {
                    let known = match line.kind {
                        LineKind::Perfect => Known::Proven,
                        LineKind::Estimate { depth } => {
                            let value = if p.to_move() == Color::Black { line.black_score } else { -line.black_score };
                            Known::Unproven(Score { value, kind: ScoreKind::Estimate { depth } })
                        }
                    };
                    return Some((Edge::Move(square), known));
                }
                _ => self.auto_line = None,
            }
        }
        self.auto_line = None;
        self.best_known()
    }

    fn solver(&mut self, ev: SolverEvent) -> Vec<Effect> {
        let SolverEvent { job, position, kind } = ev;
        let current = self.job.as_ref().is_some_and(|j| j.id == job && j.position == position);
        let legal = position.legal_moves();
        match kind {
            EventKind::Child(c) => {
                // Filed under its own position: a stale report never lands on the wrong one.
                let bound = position.size().squares() as i32;
                if legal.contains(c.square) && c.score.abs() <= bound {
                    // Symmetric twins are worth the same: each shows the value found for any.
                    let a = self.cache.entry(position).or_default();
                    if a.twins.is_empty() {
                        a.twins = crate::solver::twin_groups(&position, &legal.reading_order());
                    }
                    let group = a.twins.iter().find(|g| g.contains(&c.square)).cloned();
                    for square in group.unwrap_or_else(|| vec![c.square]) {
                        a.record(ChildValue { square, ..c });
                    }
                }
            }
            EventKind::Phase(phase) => {
                if current && let Some(j) = self.job.as_mut() {
                    j.phase = Some(phase);
                }
            }
            EventKind::Line { depth, moves } => {
                // Only a line that plays from here, its first move a child with a value.
                let plays = transcript::play(&position, &transcript::format(&moves)).is_ok();
                if let Some(a) = self.cache.get_mut(&position)
                    && plays
                    && moves.first().is_some_and(|&m| a.value(m).is_some())
                    && a.line.as_ref().is_none_or(|(d, _)| *d <= depth)
                {
                    a.line = Some((depth, moves));
                }
            }
            EventKind::Depth(depth) => {
                if current && let Some(j) = self.job.as_mut() {
                    j.depth = Some(depth);
                }
            }
            EventKind::Progress { nodes, elapsed } => {
                if current && let Some(j) = self.job.as_mut() {
                    j.nodes = nodes;
                    j.elapsed = elapsed;
                }
            }
            EventKind::ChildrenDone { nodes, elapsed } => {
                let a = self.cache.entry(position).or_default();
                if a.exact_count() == legal.count() as usize {
                    a.complete = true;
                    a.nodes = nodes;
                    a.elapsed = elapsed;
                }
                if current && let Some(j) = self.job.as_mut() {
                    j.nodes = nodes;
                    j.elapsed = elapsed;
                }
            }
            EventKind::Pv { moves, nodes, elapsed } => {
                let plays = transcript::play(&position, &transcript::format(&moves))
                    .is_ok_and(|line| moves.is_empty() || line.end().is_game_over());
                if let Some(a) = self.cache.get_mut(&position).filter(|a| a.complete)
                    && plays
                {
                    a.pv = Some(moves);
                    a.nodes = nodes;
                    a.elapsed = elapsed;
                }
                if current {
                    self.job = None;
                }
            }
            EventKind::Cancelled => {
                if current {
                    self.job = None;
                }
            }
            EventKind::Notice { text, error } => self.notice(text, error),
        }
        Vec::new()
    }
}

/// What an unproven best move is, for the status line: "the best estimate, +2 @17, not proven".
fn unproven_text(score: Score) -> String {
    match score.kind {
        ScoreKind::Estimate { depth } => format!("the best estimate, {:+} @{depth}, not proven", score.value),
        ScoreKind::Wld => format!("a proven {}, not proven best", crate::solver::outcome_word(score.value)),
        ScoreKind::Exact => format!("exact {:+}, not proven best", score.value),
    }
}

/// "game over: black wins 40-24 (+16)" and the like.
pub fn game_over_text(p: &Position, black_score: i32) -> String {
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
        Msg::Saved { path, result } => {
            match result {
                Ok(()) => {
                    // Where it went, whatever the working directory is.
                    let full = std::path::absolute(&path).map_or(path.clone(), |p| p.display().to_string());
                    model.say(format!("saved {full}"))
                }
                Err(e) => model.complain(format!("save {path}: {e}")),
            }
            Vec::new()
        }
        Msg::SessionFailed(text) => {
            model.complain(text);
            Vec::new()
        }
        Msg::Signal(_) => model.quit_now(),
        Msg::Loaded { path, result: Ok(text) } if super::session::is_session(&text) => {
            match super::session::parse(&text) {
                Ok(tree) => {
                    let (n, ply) = (tree.len() - 1, tree.depth(tree.current()));
                    model.replace_tree(
                        tree,
                        format!("loaded {path}: {n} position{} explored, at ply {ply}", if n == 1 { "" } else { "s" }),
                    )
                }
                Err(e) => {
                    model.complain(format!("load {path}: {e}"));
                    Vec::new()
                }
            }
        }
        Msg::Loaded { path, result } => {
            let parsed = result.and_then(|text| command::parse_saved(&text, model.position().size()));
            match parsed {
                Ok(line) => {
                    let mut tree = Tree::new(line.start);
                    if tree.play_moves_from_root(&line.moves).is_err() {
                        model.complain(format!("load {path}: the moves do not play"));
                        return Vec::new();
                    }
                    let n = line.moves.len();
                    model.replace_tree(tree, format!("loaded {path}: {n} moves"))
                }
                Err(e) => {
                    model.complain(format!("load {path}: {e}"));
                    Vec::new()
                }
            }
        }
    }
}
