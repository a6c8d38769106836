//! Playing a move as an engine: the explorer's games, the protocols (`gtp`, `nboard`) and `match`
//! choose their moves here, through the one store-aware analysis ([`Analyst::analyse`]).
//!
//! The strength is a level or a time a move ([`Strength`]):
//!
//! - **Level `n`**: estimates to depth `n`; within [`exact_empties`] of the end the move is proven
//!   (the best exact score); never longer than the level's time ([`level_time`], three times it
//!   where the level proves), after which the best move known is played.
//! - **A time a move**: the best move known after that long (a proven one at once).
//!
//! The analysis is [`SearchMode::Play`]: once the quick estimates are done, each depth values
//! the best move so far and any move that beats it, the others refuted by null windows, as a
//! game engine searches its root; not every move's value, as the explorer's analysis gives
//! them (docs/solver.md, "The move to play").
//!
//! A client's clock (GTP's `time_settings` and `time_left`, [`Clock`]) bounds both: no move
//! takes more than its share of the time left ([`clock_share`]).

use super::{Analyst, Ask, Event, LineRule};
use crate::solver::{ChildValue, Limits, SearchMode};
use crate::{board::position::Position, board::size::Size, board::square::Square};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Estimates to this depth; proven moves near the end ([`exact_empties`]).
    Level(u32),
    /// The best move known after this long (proven moves at once).
    MoveTime(Duration),
}

/// The level when none is given.
pub(crate) const DEFAULT_LEVEL: u32 = 10;

/// The highest level.
pub const MAX_LEVEL: u32 = 30;

impl Default for Strength {
    fn default() -> Self {
        Strength::Level(DEFAULT_LEVEL)
    }
}

impl std::fmt::Display for Strength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Strength::Level(n) => write!(f, "level {n}"),
            Strength::MoveTime(t) => write!(f, "{:.1}s a move", t.as_secs_f64()),
        }
    }
}

/// The most the engine thinks at level `n` before it plays the best move known: 0.2 s a level
/// (level 10, the default: 2 s). Within [`exact_empties`] of the end, where it waits for the
/// proof, three times that.
pub fn level_time(level: u32) -> Duration {
    Duration::from_millis(200 * u64::from(level.max(1)))
}

/// How long the engine may think on `p` at `strength`: the level's time (three times it where
/// the level waits for proven moves), or the move time.
pub fn think_budget(strength: Strength, p: &Position) -> Duration {
    match strength {
        Strength::MoveTime(t) => t,
        Strength::Level(n) if proves(n, p) => level_time(n) * 3,
        Strength::Level(n) => level_time(n),
    }
}

/// At level `n`, the engine waits for proven moves from this many empty squares on.
pub fn exact_empties(level: u32) -> u32 {
    (level + 8).min(20)
}

/// Whether level `n` proves its move at `p` (4x4 always).
fn proves(level: u32, p: &Position) -> bool {
    p.size() == Size::Four || p.empty_count() <= exact_empties(level)
}

/// A side's clock as a client keeps it (GTP's `time_settings` and `time_left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// `left` for the rest of the game (main time, no overtime after it).
    Game { left: Duration },
    /// `left` for the next `moves` moves (a byo-yomi period: Canadian overtime, or a time a move
    /// when `moves` is 1).
    Period { left: Duration, moves: u32 },
    /// Main time `left`, then `period` for every `moves` moves.
    MainThenPeriod { left: Duration, period: Duration, moves: u32 },
}

/// The share of `clock` one move at `p` may take: the game's time left over the side's moves
/// still to play, or a period's time over its moves (in main time with overtime after it, the
/// larger of the two), less a safety margin of 5% and 50 ms (a tenth of the share when that is
/// less), and never under 10 ms.
pub fn clock_share(clock: Clock, p: &Position) -> Duration {
    let game = |left: Duration| left / p.empty_count().div_ceil(2).max(1);
    let period = |left: Duration, moves: u32| left / moves.max(1);
    let share = match clock {
        Clock::Game { left } => game(left),
        Clock::Period { left, moves } => period(left, moves),
        Clock::MainThenPeriod { left, period: overtime, moves } => game(left).max(period(overtime, moves)),
    };
    let margin = Duration::from_millis(50).min(share / 10);
    share.mul_f64(0.95).saturating_sub(margin).max(Duration::from_millis(10))
}

/// What the engine plays at a position, and what it knows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move; `None` when the side to move must pass (or the game is over).
    pub square: Option<Square>,
    /// Every move's value from the mover's side, best first (exact, a proven outcome, or an
    /// estimate of some depth).
    pub children: Vec<ChildValue>,
    /// The line the analysis expects from the position, the move first.
    pub line: Vec<Square>,
    /// Whether that line is proven perfect.
    pub(crate) line_proven: bool,
    /// The deepest estimate completed, if any.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl Choice {
    /// The value of the move chosen, if it has one.
    pub fn value(&self) -> Option<ChildValue> {
        let square = self.square?;
        self.children.iter().find(|c| c.square == square).copied()
    }
}

impl Analyst {
    /// Chooses the move at `position` at `strength`: the best child of the store-aware analysis
    /// (see the module documentation), within `clock`'s share when the client keeps a clock;
    /// `stop` ends the search early and the best move known is played. A position whose side
    /// must pass gives a pass at once.
    pub fn choose(
        &mut self,
        position: &Position,
        strength: Strength,
        clock: Option<Clock>,
        stop: Option<Arc<AtomicBool>>,
        on_event: &mut dyn FnMut(Event),
    ) -> Choice {
        let start = Instant::now();
        let empty = Choice {
            square: None,
            children: Vec::new(),
            line: Vec::new(),
            line_proven: false,
            depth: None,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let legal = position.legal_moves();
        if legal.is_empty() {
            return empty;
        }
        let mut budget = think_budget(strength, position);
        if let Some(clock) = clock {
            budget = budget.min(clock_share(clock, position));
        }
        let max_depth = match strength {
            Strength::Level(n) if !proves(n, position) => Some(n.max(1)),
            _ => None,
        };
        let limits = Limits { max_time: Some(budget), stop, ..Limits::default() };
        let ask = Ask { mode: SearchMode::Play, max_depth, limits, line: LineRule::Best };
        let verdict = self.analyse(position, &ask, on_event);
        let square = verdict.best().map(|b| b.square).or_else(|| legal.reading_order().first().copied());
        let (line, line_proven) = match verdict.line {
            Some(l) => (l.moves, l.proven),
            None => (square.into_iter().collect(), false),
        };
        Choice {
            square,
            children: verdict.children,
            line,
            line_proven,
            depth: verdict.depth,
            nodes: verdict.nodes,
            elapsed: start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let start = Position::start(Size::Eight);
        assert_eq!(think_budget(Strength::Level(10), &start), Duration::from_secs(2));
        assert_eq!(think_budget(Strength::Level(10), &Position::start(Size::Four)), Duration::from_secs(6));
        assert_eq!(think_budget(Strength::MoveTime(Duration::from_millis(300)), &start), Duration::from_millis(300));
        let game = |s: u64| Clock::Game { left: Duration::from_secs(s) };
        // 60 s for 30 moves: 2 s each, less the margin.
        assert_eq!(clock_share(game(60), &start), Duration::from_millis(1850));
        assert_eq!(clock_share(game(0), &start), Duration::from_millis(10));
        // A second a move (byo-yomi of one stone): 0.95 s less 50 ms, not a thirtieth of it.
        let period = |ms: u64, moves: u32| Clock::Period { left: Duration::from_millis(ms), moves };
        assert_eq!(clock_share(period(1000, 1), &start), Duration::from_millis(900));
        // 10 s for 5 moves; a tenth of a second a move keeps 85 ms (the margin a tenth of it).
        assert_eq!(clock_share(period(10_000, 5), &start), Duration::from_millis(1850));
        assert_eq!(clock_share(period(100, 1), &start), Duration::from_millis(85));
        // In main time with overtime after it, the larger share.
        let main =
            |s: u64| Clock::MainThenPeriod { left: Duration::from_secs(s), period: Duration::from_secs(2), moves: 1 };
        assert_eq!(clock_share(main(3), &start), Duration::from_millis(1850));
        assert_eq!(clock_share(main(600), &start), Duration::from_millis(18_950));
    }
}
