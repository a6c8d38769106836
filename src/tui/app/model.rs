//! The model: every type the explorer's state is made of, and the queries the view and the
//! update ask of it. Nothing here changes the model in answer to an input (that is the update's
//! job, in the sibling modules) and nothing touches the terminal, a thread, the disk or a clock.

use super::super::keys::Context;
use super::super::lab_worker::LabEvent;
use super::super::teach::{LabState, Lesson, Teach, lesson_trace};
use super::super::tree::{Edge, NodeId, Tree};
use super::super::worker::SolverEvent;
use super::drill::Drill;
use super::edit::Editor;
use super::game::{Game, Strength};
use crate::solver::{ChildValue, Phase};
use crate::{Bitboard, Color, Position, Scoring, Size, Square};
use ratatui::crossterm::event::{KeyEvent, MouseEvent};
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

/// What the explorer knows of one position's moves (the cache's entry; one search's result is a
/// [`crate::solver::Analysis`]): filed under that position, shown nowhere else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionValues {
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
    /// Each child's estimates, kept after a proof replaces them (the deepest ranks proven wins
    /// among themselves, and the earlier ones equal values: [`crate::solver::rank_key`]).
    pub estimates: Vec<ChildEstimates>,
    /// The legal moves grouped by symmetric twins (filled on the first report).
    pub twins: Vec<Vec<Square>>,
}

/// A child's estimates of consecutive depths, the deepest last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildEstimates {
    /// The move.
    pub square: Square,
    /// The depth of the last estimate.
    pub depth: u32,
    /// The estimates of depths `depth + 1 - values.len()` to `depth`.
    pub values: Vec<i32>,
}

impl PositionValues {
    /// The key `c` ranks by among the children, best highest ([`crate::solver::rank_key`]).
    pub fn rank_key(&self, c: &ChildValue) -> (i32, Vec<i32>) {
        let e = self.estimates.iter().find(|e| e.square == c.square).map_or(&[][..], |e| &e.values[..]);
        crate::solver::rank_key(c.score, c.kind, e)
    }

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
    /// win above every draw and a draw above every loss), equal ones by the deepest earlier
    /// estimate that tells them apart ([`PositionValues::rank_key`]), then in reading order.
    pub fn best_child(&self) -> Option<ChildValue> {
        self.children.iter().max_by_key(|c| (self.rank_key(c), std::cmp::Reverse(c.square))).copied()
    }

    /// Files a child's value, unless a stronger one is known.
    pub fn record(&mut self, child: ChildValue) {
        if let ScoreKind::Estimate { depth } = child.kind {
            let fresh = ChildEstimates { square: child.square, depth, values: vec![child.score] };
            match self.estimates.iter_mut().find(|e| e.square == child.square) {
                // The next depth extends the run; a gap starts a new one.
                Some(e) if depth == e.depth + 1 => {
                    e.values.push(child.score);
                    e.depth = depth;
                }
                Some(e) if depth > e.depth => *e = fresh,
                Some(e) if depth == e.depth => *e.values.last_mut().expect("at least one estimate") = child.score,
                Some(_) => {}
                None => self.estimates.push(fresh),
            }
        }
        match self.children.iter_mut().find(|c| c.square == child.square) {
            Some(c) if child.kind.strength() >= c.kind.strength() => *c = child,
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
    /// The columns of the score graph.
    pub graph: Vec<(Rect, NodeId)>,
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            scoring: Scoring::Standard,
            color: true,
            auto_delay: Duration::from_millis(700),
            session: false,
            strength: Strength::default(),
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
    /// The user paused the analysis (`z`): no search starts until resumed.
    pub paused: bool,
    /// The trees `:size`, `:new`, `:board` and `:load` replaced, the newest last (at most
    /// [`REPLACED_TREES`]): `:restore` brings them back.
    pub replaced: Vec<Tree>,
    /// Values are shown from black's side (`v`), not from the side to move's.
    pub black_view: bool,
    /// The game against the engine, while one is on (`--play`, `:play`).
    pub game: Option<Game>,
    /// The review of the line shown is on (`:review`): every position along it is analysed in
    /// turn for [`REVIEW_BUDGET`], the marks and the graph fill in.
    pub reviewing: bool,
    /// The positions the review has analysed (each once).
    pub(super) reviewed: std::collections::HashSet<Position>,
    /// The drill, while it is on (`:drill`).
    pub drill: Option<Drill>,
    /// The board editor, while it is open (`E`, `:edit`): the board shows its position.
    pub edit: Option<Editor>,
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
    pub(super) next_lab_job: u64,
    /// The `:reach` search running (its job number and board), if any.
    pub reaching: Option<(u64, Position)>,
    pub(super) next_reach_job: u64,
    /// Counts the trees this model has held (`:new`, `:load` start another).
    pub(super) tree_generation: u64,
    /// The (tree generation, tree revision, game setting) the session file last asked for.
    pub(super) session_mark: Option<(u64, u64, Option<Option<Color>>)>,
    /// Whether the status line holds what [`Model::announce`] said at the start and no key or
    /// mouse event came since: the background threads' notices are added to it, not put instead.
    pub(super) announced: bool,
}

/// A point of the score graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphPoint {
    /// The node.
    pub node: NodeId,
    /// Its ply.
    pub ply: usize,
    /// Its value from black's side, once known.
    pub value: Option<i32>,
    /// Whether the value is exact.
    pub exact: bool,
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
    /// `:reach` finished job `job`.
    Reached {
        /// The job.
        job: u64,
        /// What it found.
        outcome: crate::reach::Outcome,
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
    },
    /// Cancel any search and analyse this position as job `job` for at most `budget` (a step of
    /// the review of the line).
    Review {
        /// The job number.
        job: u64,
        /// The position.
        position: Position,
        /// The time it gets.
        budget: Duration,
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

/// How long the review analyses each position of the line.
pub const REVIEW_BUDGET: Duration = Duration::from_secs(1);

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
            game: None,
            reviewing: false,
            reviewed: std::collections::HashSet::new(),
            drill: None,
            edit: None,
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
            reaching: None,
            next_reach_job: 1,
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
    pub(super) fn notice(&mut self, text: String, error: bool) {
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
    pub(super) fn session_effect(&mut self) -> Option<Effect> {
        if !self.config.session {
            return None;
        }
        let seat = self.game.as_ref().map(|g| g.human);
        let mark = (self.tree_generation, self.tree.revision(), seat);
        if self.session_mark == Some(mark) {
            return None;
        }
        self.session_mark = Some(mark);
        Some(Effect::WriteSession(super::super::session::to_text_with(&self.tree, seat)))
    }

    /// The effects to start with: the analysis of the first position.
    pub fn init(&mut self) -> Vec<Effect> {
        self.arrived()
    }

    /// The position on screen: the tree's current node, or the editor's board while it is open.
    pub fn position(&self) -> Position {
        match &self.edit {
            Some(e) => e.position(),
            None => self.tree.position(),
        }
    }

    /// The score graph: the value of every position along the line shown (root to the end of
    /// the preferred line), from black's side, as far as the cache knows it. A position's value is
    /// its best child's (an exact score, else an estimate; a proven outcome by its last estimate).
    pub fn graph(&self) -> Vec<GraphPoint> {
        self.tree
            .line()
            .into_iter()
            .map(|node| {
                let p = self.tree.position_of(node);
                let ply = self.tree.depth(node);
                if p.is_game_over() {
                    let value = p.black_score(self.config.scoring);
                    return GraphPoint { node, ply, value: Some(value), exact: true };
                }
                let target = p.after_forced_pass().0;
                let best = self.cache.get(&target).and_then(|a| {
                    let c = a.best_child()?;
                    let (v, _) = a.rank_key(&c);
                    Some((v, c.kind == ScoreKind::Exact))
                });
                let from_black = |v: i32| if target.to_move() == Color::Black { v } else { -v };
                GraphPoint { node, ply, value: best.map(|(v, _)| from_black(v)), exact: best.is_some_and(|b| b.1) }
            })
            .collect()
    }

    /// The review's mark on the move that reached `node`, by the values the cache holds for the
    /// position it was played in (see [`crate::review`]): `None` while they are not known.
    pub fn mark(&self, node: NodeId) -> Option<crate::review::Mark> {
        let Some(Edge::Move(square)) = self.tree.edge(node) else { return None };
        let parent = self.tree.parent(node)?;
        let p = self.tree.position_of(parent).after_forced_pass().0;
        let a = self.cache.get(&p)?;
        if a.children.len() < p.legal_moves().count() as usize {
            return None;
        }
        crate::review::judge(0, p.to_move(), square, &a.children)?.mark
    }

    /// The name of the 8x8 opening the line to the position on screen last reached, if any (see
    /// [`crate::opening`]).
    pub fn opening(&self) -> Option<&'static str> {
        if self.edit.is_some() {
            return crate::opening::name(&self.position());
        }
        crate::opening::name_along(&self.tree.position_of(self.tree.root()), &self.tree.moves())
    }

    /// Why the values are hidden, for the panel that would show the line.
    pub fn hidden_text(&self) -> String {
        if self.edit.is_some() {
            "nothing is analysed while the editor is open".to_string()
        } else if self.drill.is_some() {
            "the values show once you choose a move (Enter or a click)".to_string()
        } else {
            "the values are hidden while you play: x shows them".to_string()
        }
    }

    /// The game's, the drill's or the editor's state in a word and a line, while one is on.
    pub fn mode_text(&self) -> Option<(&'static str, String)> {
        if let Some(e) = &self.edit {
            return Some(("edit", e.summary()));
        }
        if let Some(d) = &self.drill {
            let last = d.last.as_ref().map_or(String::new(), |v| format!("last: {} · ", v.text()));
            return Some(("drill", format!("{last}{}", d.tally_text())));
        }
        let g = self.game.as_ref()?;
        let who = match g.human {
            Some(c) => format!("you play {c} against the engine ({})", self.config.strength),
            None => format!("engine against engine ({})", self.config.strength),
        };
        let p = self.position();
        let turn = if p.is_game_over() {
            "game over".to_string()
        } else if p.must_pass() {
            format!("{} has no move and passes", p.to_move())
        } else if g.engine_plays(p.to_move()) && g.human.is_some() {
            match g.thinking {
                Some((q, since)) if q == p => {
                    format!("the engine thinks ({:.1}s)", self.clock.saturating_duration_since(since).as_secs_f64())
                }
                _ => "the engine's move".to_string(),
            }
        } else if g.human.is_some() {
            "your move".to_string()
        } else {
            format!("{} to move", p.to_move())
        };
        Some(("game", format!("{who} · {turn}")))
    }

    /// The active key contexts, the most specific first (see [`super::super::keys`]).
    pub fn contexts(&self) -> Vec<Context> {
        match self.mode {
            Mode::Help => return vec![Context::Help],
            Mode::Command(_) => return vec![Context::Command],
            Mode::Normal => {}
        }
        self.board_contexts()
    }

    /// The contexts the help overlay lists first: itself, then those under it.
    pub fn help_contexts(&self) -> Vec<Context> {
        let mut out = vec![Context::Help];
        out.extend(self.board_contexts());
        out
    }

    /// The contexts of the board, the overlays aside.
    fn board_contexts(&self) -> Vec<Context> {
        if self.edit.is_some() {
            return vec![Context::Edit];
        }
        let mut out = Vec::new();
        if self.teach.is_some() {
            out.push(Context::Teaching);
        } else if self.focus == Focus::History {
            out.push(Context::History);
        }
        if self.drill.is_some() {
            out.push(Context::Drill);
        }
        if self.game.is_some() {
            out.push(Context::Play);
        }
        out.push(Context::Normal);
        out
    }

    /// Whether the values are hidden: in a game until `x` shows them, in a drill until a move
    /// is chosen here, in the editor (nothing is analysed).
    pub fn values_hidden(&self) -> bool {
        if self.edit.is_some() {
            return true;
        }
        if self.game.as_ref().is_some_and(|g| !g.show_values) {
            return true;
        }
        self.drill.as_ref().is_some_and(|d| d.chosen_at(&self.position()).is_none())
    }

    /// The position the solver analyses for the one on screen: itself, or after the forced pass;
    /// `None` when the game is over.
    pub fn target(&self) -> Option<Position> {
        if self.edit.is_some() {
            return None;
        }
        let p = self.position();
        if p.is_game_over() { None } else { Some(p.after_forced_pass().0) }
    }

    /// What is proven about the position on screen.
    pub fn analysis(&self) -> Option<&PositionValues> {
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
