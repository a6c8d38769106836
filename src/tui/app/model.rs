//! The model: the state of the explorer ([`Model`]) and the small types it is made of. What the
//! user is doing (the activity, the overlay) is in `modes.rs`, the messages and effects in
//! `msg.rs`, what is known of each position in `known.rs`, the queries of the view in
//! `queries.rs`; nothing here changes the model in answer to an input (that is the update's job,
//! in the sibling modules) and nothing touches the terminal, a thread, the disk or a clock.

use super::super::teach::{LabState, Teach};
use super::super::tree::{Edge, NodeId, Tree};
use super::game::Strength;
use super::{Activity, Effect, Overlay, PositionValues};
use crate::solver::{ChildValue, Phase, Selectivity};
use crate::{
    board::position::{Color, Position, Scoring},
    board::size::Size,
    board::square::Square,
};
use ratatui::layout::{Position as Point, Rect};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// A mask drawn onto the board (`o`).
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
    /// The opponent's legal moves (were it to move): with [`Mask::Legal`], both sides' mobility.
    Replies,
    /// Both sides' stable discs ([`crate::board::concepts::stable`]).
    Stable,
    /// Both sides' frontier discs: discs next to an empty square.
    Frontier,
    /// The side to move's potential mobility (`pot. mob`): empty squares next to the opponent's
    /// discs.
    Potential,
    /// The squares of the empty regions of odd size (`parity`).
    OddRegions,
    /// The corners either side can take now, and the X-squares with a disc beside an empty
    /// corner.
    Corners,
}

impl Mask {
    /// Every mask in display order: the position's, then the concepts players reason with.
    pub const ALL: [Mask; 11] = [
        Mask::Black,
        Mask::White,
        Mask::Empty,
        Mask::Legal,
        Mask::Flips,
        Mask::Replies,
        Mask::Stable,
        Mask::Frontier,
        Mask::Potential,
        Mask::OddRegions,
        Mask::Corners,
    ];

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Mask::Black => "black",
            Mask::White => "white",
            Mask::Empty => "empty",
            Mask::Legal => "legal",
            Mask::Flips => "flips",
            Mask::Replies => "replies",
            Mask::Stable => "stable",
            Mask::Frontier => "frontier",
            Mask::Potential => "pot. mob",
            Mask::OddRegions => "parity",
            Mask::Corners => "corners",
        }
    }
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

impl Status {
    /// `text` added after this message (an error if either is).
    fn join(&mut self, text: &str, error: bool) {
        self.text = format!("{} · {text}", self.text);
        self.error |= error;
    }
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
    /// How selective its estimates are ([`Model::selectivity`] when it was asked for).
    pub selectivity: Selectivity,
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
    /// The columns of the score graph.
    pub graph: Vec<(Rect, NodeId)>,
    /// The help's last scroll position at the size drawn (its wrapped lines less its rows), while
    /// it is open.
    pub(crate) help_max_scroll: u16,
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
    /// How strongly the engine plays in a game (`--level`, `--move-time`).
    pub strength: Strength,
    /// How selective the estimates are at the start (`--selectivity`); `%` and `:selectivity`
    /// change [`Model::selectivity`].
    pub selectivity: Selectivity,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            scoring: Scoring::Standard,
            color: true,
            auto_delay: Duration::from_millis(700),
            session: false,
            strength: Strength::default(),
            selectivity: crate::solver::DEFAULT_SELECTIVITY,
        }
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
    pub cache: HashMap<Position, PositionValues>,
    /// The search for the position on screen, if one runs.
    pub job: Option<Job>,
    pub(super) next_job: u64,
    /// How selective the estimates are: the level every analysis asks for (`--selectivity`, then
    /// `%` and `:selectivity`). The cache holds estimates of this level only: changing it forgets
    /// the others (proofs stay) and analyses the position on screen again.
    pub selectivity: Selectivity,
    /// The first job at [`Model::selectivity`]: an estimate or a line a job before it reports
    /// was searched at another level, and is not filed.
    pub(super) selective_since: u64,
    /// The user paused the analysis (`z`): no search starts until resumed.
    /// The archive of played games: not read, being read, read, or not readable.
    pub(super) archive: super::archive::ArchiveState,
    /// Whether the archive panel shows in place of the bitboards (`A`).
    pub(super) archive_panel: bool,
    /// `:games` waits for the archive to be read.
    pub(super) games_wanted: bool,
    /// A column letter typed on the board, waiting for its row (`f` of `f5`), and when: see
    /// [`Model::typed_key`].
    pub(super) typed: Option<(char, Instant)>,
    pub paused: bool,
    /// The trees `:size`, `:new`, `:board` and `:load` replaced, the newest last (at most
    /// [`REPLACED_TREES`]): `:restore` brings them back.
    pub replaced: Vec<Tree>,
    /// Trees replaced in this run that no session file keeps (run without one): said on quitting.
    pub(crate) unkept: usize,
    /// Values are shown from black's side (`v`), not from the side to move's.
    pub black_view: bool,
    /// What the user is doing: exploring (auto-play with it), a game, a drill or the editor. Read
    /// with [`Model::activity`] and the accessors ([`Model::game`], ...); changed only by
    /// [`Model::set_activity`].
    pub(super) activity: Activity,
    /// The review of the line shown, while it is on (`:review`; [`Model::reviewing`]): every
    /// position along it is analysed in turn for [`REVIEW_BUDGET`], the marks and the graph fill
    /// in. It goes on through every activity (a game's end offers it), and waits while the editor
    /// is open.
    pub(super) review: bool,
    /// The review's steps asked for, by position and the move the line plays there (each once,
    /// kept when the review is turned off and on again).
    pub(super) reviewed: HashSet<(Position, Option<Square>)>,
    /// What the review's steps found ([`crate::studies::review::Reviewer::examine`]), by position and the
    /// move the line plays there: every legal move's value, the only values the marks are judged
    /// on, so that they are `review`'s whatever else the explorer has analysed there.
    pub(super) verdicts: HashMap<(Position, Option<Square>), Vec<ChildValue>>,
    /// The evaluation the review's values read (the marks are judged with its margins).
    pub(super) review_evaluator: crate::solver::Evaluator,
    /// Why the marked moves of the review lose, by the position before and the move.
    pub(super) whys: HashMap<(Position, Square), crate::studies::review::reasons::Why>,
    /// The help or the command line, when one is open over the board.
    pub overlay: Overlay,
    /// Where the arrows go.
    pub focus: Focus,
    /// The mask drawn onto the board, if any.
    pub drawn_mask: Option<Mask>,
    /// How far the help is scrolled.
    pub(crate) help_scroll: u16,
    /// The status line's message.
    pub status: Option<Status>,
    /// The time of the last tick.
    pub clock: Instant,
    /// Settings.
    pub config: Config,
    /// Set when the app must end.
    pub quit: bool,
    /// What the last frame drew where.
    pub hits: Hits,
    /// The teaching view, while it is open ([`Model::teach()`]): a panel in place of the moves,
    /// bitboards and line panels, over exploring, a game or a drill (never the editor).
    pub(super) teach: Option<Teach>,
    /// The search lab's last run, if any.
    pub lab: Option<LabState>,
    pub(super) next_lab_job: u64,
    /// The `:reach` search running (its job number and board), if any.
    pub reaching: Option<(u64, Position)>,
    pub(super) next_reach_job: u64,
    /// Counts the trees this model has held (`:new`, `:load` start another).
    pub(super) tree_generation: u64,
    /// The (tree generation, tree revision, game setting) the session file last asked for.
    pub(super) session_mark: Option<(u64, u64, Option<Option<Color>>)>,
    /// What the session file holds: the tree generation and game it was written whole for, how
    /// many nodes it has, and the bytes of the whole text and of the journal appended since.
    pub(super) session_log: Option<SessionLog>,
    /// Whether the status line holds what [`Model::announce`] said at the start and no key or
    /// mouse event came since: the game's notice is added to it, not put instead.
    pub(super) announced: bool,
}

/// How long a column letter typed on the board waits for its row before doing what its own key
/// does (a square typed on the board, `on_key.rs`).
pub const TYPED_WAIT: Duration = Duration::from_millis(600);

/// The longest status line that a background notice is added to (bytes); a longer one is
/// replaced by the notice, so notices arriving without a key in between cannot grow it without end.
pub const STATUS_JOINED_MAX: usize = 480;

/// The review's budget a position (`review`'s default `--time`, so the marks are the same).
pub const REVIEW_BUDGET: Duration = Duration::from_secs(1);

/// What the session file holds (see [`Model::session_log`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SessionLog {
    /// The tree generation it was written whole for.
    pub generation: u64,
    /// The game on then.
    pub seat: Option<Option<Color>>,
    /// Nodes it holds.
    pub nodes: usize,
    /// Bytes of the last whole text.
    pub(crate) whole_bytes: usize,
    /// Bytes appended since.
    pub(crate) journal_bytes: usize,
}

/// A journal may grow to this many bytes even when the whole text is smaller.
const JOURNAL_FLOOR: usize = 64 * 1024;

/// How many replaced trees `:restore` can bring back.
pub const REPLACED_TREES: usize = 8;

pub(super) const MIN_DELAY: Duration = Duration::from_millis(100);
pub(super) const MAX_DELAY: Duration = Duration::from_secs(5);

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
    pub(crate) fn with_tree(tree: Tree, config: Config, now: Instant) -> Model {
        let mut m = Model {
            tree,
            cursor: Square::new(0, 0).expect("a1"),
            cache: HashMap::new(),
            job: None,
            next_job: 1,
            selectivity: config.selectivity,
            selective_since: 1,
            paused: false,
            typed: None,
            archive: Default::default(),
            archive_panel: false,
            games_wanted: false,
            replaced: Vec::new(),
            unkept: 0,
            black_view: false,
            activity: Activity::EXPLORE,
            review: false,
            reviewed: HashSet::new(),
            verdicts: HashMap::new(),
            review_evaluator: crate::solver::Evaluator::Patterns,
            whys: HashMap::new(),
            overlay: Overlay::None,
            focus: Focus::Board,
            drawn_mask: None,
            help_scroll: 0,
            status: None,
            clock: now,
            config,
            quit: false,
            hits: Hits::default(),
            teach: None,
            lab: None,
            next_lab_job: 1,
            reaching: None,
            next_reach_job: 1,
            tree_generation: 0,
            session_mark: None,
            session_log: None,
            announced: false,
        };
        m.fix_cursor();
        m
    }

    /// Shows `text` in the status line (as the explorer does on `--resume`), after what was
    /// announced before. Until the first key or mouse event, the game's notice is added after it
    /// rather than replacing it (the background threads' notices always are,
    /// [`Model::background_notice`]).
    pub fn announce(&mut self, text: impl Into<String>) {
        self.notice(text.into(), false);
        self.announced = true;
    }

    /// A background thread's notice (the store is busy, the book was added, a replaced tree was
    /// kept): added after the message standing, a key's as much as the start's announcements,
    /// never in its place, so the user loses neither; the same notice again adds nothing. A line
    /// grown past [`STATUS_JOINED_MAX`] bytes starts again with the notice.
    pub(super) fn background_notice(&mut self, text: String, error: bool) {
        match &mut self.status {
            Some(s) if s.text.contains(&text) => s.error |= error,
            Some(s) if s.text.len() + text.len() < STATUS_JOINED_MAX => s.join(&text, error),
            _ => self.status = Some(Status { text, error }),
        }
    }

    /// A notice: added to the announcements while they stand, else the new status.
    pub(super) fn notice(&mut self, text: String, error: bool) {
        match &mut self.status {
            Some(s) if self.announced => s.join(&text, error),
            _ => self.status = Some(Status { text, error }),
        }
    }

    /// The session text to write, when the tree or the current node changed since the last one
    /// (always the first time).
    pub(super) fn session_effect(&mut self) -> Option<Effect> {
        if !self.config.session {
            return None;
        }
        let seat = self.seat();
        let mark = (self.tree_generation, self.tree.revision(), seat);
        if self.session_mark == Some(mark) {
            return None;
        }
        self.session_mark = Some(mark);
        let session = super::super::session::to_text_with;
        // A journal while the file holds this tree and game, until the journal outgrows the
        // whole text (then the file is written whole again, compact).
        if let Some(log) = &mut self.session_log
            && log.generation == self.tree_generation
            && log.seat == seat
            && log.journal_bytes <= log.whole_bytes.max(JOURNAL_FLOOR)
            && let Some(text) = super::super::session::journal(&mut self.tree, log.nodes)
        {
            log.nodes = self.tree.len();
            log.journal_bytes += text.len();
            return Some(Effect::AppendSession(text));
        }
        let text = session(&self.tree, seat);
        let _ = self.tree.take_preference_changes();
        self.session_log = Some(SessionLog {
            generation: self.tree_generation,
            seat,
            nodes: self.tree.len(),
            whole_bytes: text.len(),
            journal_bytes: 0,
        });
        Some(Effect::WriteSession(text))
    }

    /// The effects to start with: the analysis of the first position.
    pub fn init(&mut self) -> Vec<Effect> {
        self.arrived()
    }

    pub(super) fn say(&mut self, text: impl Into<String>) {
        self.status = Some(Status { text: text.into(), error: false });
    }

    pub(super) fn complain(&mut self, text: impl Into<String>) {
        self.status = Some(Status { text: text.into(), error: true });
    }

    pub(super) fn fix_cursor(&mut self) {
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
}
