//! Why a marked move loses, in the board's own masks ([`crate::board::concepts`]): short reasons
//! built from facts checked on the positions of two lines, never guessed.
//!
//! The inputs are the position before the move, the move played with its *refutation* (the
//! opponent's best reply after it and the line that follows), and the best move with its own
//! line. Each fact compares the move played with the best move on the same footing:
//!
//! | kind | the fact | stated when |
//! |---|---|---|
//! | `corner` | the refutation's reply takes a corner the opponent could not take before the move, and the best line's reply does not | always |
//! | `stability` | after the reply, the opponent has N more stable discs than after the best line's reply, or the mover N fewer | N >= 2 |
//! | `mobility` | after the move the opponent has N more moves than after the best move, or after the reply the mover has N fewer than after the best line's reply | N >= 3 |
//! | `parity` | after the move an odd region is left that only the opponent can move into, where after the best move there is none | 16 or fewer empties |
//! | `frontier` | the move flips N more discs that become frontier discs (next to an empty square) than the best move does | N >= 3 |
//!
//! At most two reasons a move, the largest first (a corner, then the others by how far they pass
//! their threshold); none when no fact stands out: the difference is then deeper than these
//! features. A reason says what the positions show, not that it is *the* cause: the values say
//! the move loses, the reasons name what changed with it.

use crate::board::concepts::{corners, frontier, regions_of};
use crate::board::stability::stable_discs;
use crate::{
    board::bitboard::Bitboard,
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
    with_size,
};
use std::fmt;

/// What a reason is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReasonKind {
    /// The reply takes a corner the move opened.
    Corner,
    /// Stable discs given or not made.
    Stability,
    /// Moves given to the opponent, or taken from the mover.
    Mobility,
    /// An odd region left for the opponent to finish.
    Parity,
    /// Many flipped discs on the frontier.
    Frontier,
}

impl ReasonKind {
    /// Its name in JSON and text: `corner`, `stability`, `mobility`, `parity`, `frontier`.
    pub const fn name(self) -> &'static str {
        match self {
            ReasonKind::Corner => "corner",
            ReasonKind::Stability => "stability",
            ReasonKind::Mobility => "mobility",
            ReasonKind::Parity => "parity",
            ReasonKind::Frontier => "frontier",
        }
    }
}

impl fmt::Display for ReasonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One reason: its kind, the squares it names (the mask the explorer draws), a sentence, and the
/// numbers it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// What it is about.
    pub kind: ReasonKind,
    /// The squares it names, in reading order.
    pub squares: Vec<Square>,
    /// The sentence: "the reply a1 takes a corner white could not take before".
    pub detail: String,
    /// The count it compares (after the move played) and the best move's: moves, stable discs,
    /// frontier flips; for a corner 1 and 0, for parity the odd regions.
    pub counts: (u32, u32),
    /// How far past its threshold it is, for ordering (a corner first).
    weight: u32,
}

impl Reason {
    /// The squares as one mask on `size`.
    pub fn mask(&self, size: Size) -> Bitboard {
        Bitboard::new(size, self.squares.iter().fold(0, |m, s| m | s.mask(size)))
    }
}

/// What a move's refutation shows: the lines and the reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// The opponent's best reply after the move played and the line after it (passes not
    /// written).
    pub refutation: Vec<Square>,
    /// The best move's line: the best move, the reply, and on.
    pub best_line: Vec<Square>,
    /// At most two reasons, the largest first; empty: the difference is deeper than these
    /// features.
    pub reasons: Vec<Reason>,
}

/// What review says when no reason stands out.
pub const DEEPER: &str = "the difference is deeper than these features";

/// The most reasons a move gets.
pub const MAX_REASONS: usize = 2;
/// The most empties at which parity is a reason (before, regions are rarely played out apart).
pub const PARITY_EMPTIES: u32 = 16;
const STABILITY_FROM: u32 = 2;
const MOBILITY_FROM: u32 = 3;
const FRONTIER_FROM: u32 = 3;

/// Plays `line` from `p` (forced passes taken, as lines are written), stopping at the first move
/// that is not legal.
fn after(p: &Position, line: &[Square]) -> Position {
    let mut q = p.after_forced_pass().0;
    for &m in line {
        match q.play(m) {
            Ok(next) => q = next.after_forced_pass().0,
            Err(_) => break,
        }
    }
    q
}

fn legal_of(p: &Position, color: Color) -> u64 {
    let (b, w) = (p.black().bits(), p.white().bits());
    with_size!(p.size(), N => if color == Color::Black {
        crate::board::rules::legal_moves::<N>(b, w)
    } else {
        crate::board::rules::legal_moves::<N>(w, b)
    })
}

fn stable_of(p: &Position, color: Color) -> u64 {
    let (own, other) = (p.discs(color).bits(), p.discs(color.opponent()).bits());
    with_size!(p.size(), N => stable_discs::<N>(own, other))
}

fn squares(size: Size, mask: u64) -> Vec<Square> {
    Bitboard::new(size, mask).reading_order()
}

fn names(list: &[Square]) -> String {
    list.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

/// The odd regions of `p` (its side to move to play) that only `opponent_of_mover` can move into.
fn odd_regions_for(p: &Position, color: Color) -> u64 {
    let (pl, op) = p.raw();
    let to_move = p.to_move();
    regions_of(p.size(), pl, op)
        .into_iter()
        .filter(|r| r.is_odd())
        .filter(|r| {
            let (mine, theirs) = if to_move == color { (r.mover, r.opponent) } else { (r.opponent, r.mover) };
            mine != 0 && theirs == 0
        })
        .fold(0, |m, r| m | r.squares)
}

/// The reasons `played` loses against `best` at `before` (its side to move plays), from the
/// refutation (the opponent's best reply after `played`, then the line on) and the best move's
/// line (`best` first). See the module docs for the facts and thresholds.
pub fn reasons(before: &Position, played: Square, refutation: &[Square], best_line: &[Square]) -> Vec<Reason> {
    let size = before.size();
    let mover = before.to_move();
    let opp = mover.opponent();
    let Ok(after_played) = before.play(played) else { return Vec::new() };
    let Some(&best) = best_line.first() else { return Vec::new() };
    let Ok(after_best) = before.play(best) else { return Vec::new() };
    let mut out = Vec::new();
    // The replies: the first move of each line when the opponent has one (else the mover moves
    // again and there is no reply to speak of).
    let reply = refutation.first().copied().filter(|_| !after_played.must_pass());
    let best_reply = best_line.get(1).copied().filter(|_| !after_best.must_pass());
    let after_reply = after(&after_played, &refutation[..usize::from(reply.is_some())]);
    let after_best_reply = after(&after_best, &best_line[1..1 + usize::from(best_reply.is_some())]);

    // A corner the opponent could not take before.
    if let Some(r) = reply {
        let corner = r.mask(size) & corners(size);
        let could_before = legal_of(before, opp) & corner != 0;
        if corner != 0 && !could_before && best_reply != Some(r) {
            out.push(Reason {
                kind: ReasonKind::Corner,
                squares: vec![r],
                detail: format!("the reply {r} takes a corner {} could not take before {played}", opp.name()),
                counts: (1, 0),
                weight: 1000,
            });
        }
    }

    // Stable discs: the opponent's gained, or the mover's not made.
    if reply.is_some() || best_reply.is_some() {
        let (theirs, theirs_best) = (stable_of(&after_reply, opp), stable_of(&after_best_reply, opp));
        let (mine, mine_best) = (stable_of(&after_reply, mover), stable_of(&after_best_reply, mover));
        let gained = theirs.count_ones().saturating_sub(theirs_best.count_ones());
        let lost = mine_best.count_ones().saturating_sub(mine.count_ones());
        if gained >= STABILITY_FROM && gained >= lost {
            out.push(Reason {
                kind: ReasonKind::Stability,
                squares: squares(size, theirs & !theirs_best),
                detail: format!(
                    "after the reply {} has {} stable discs, {gained} more than after {best}'s line ({})",
                    opp.name(),
                    theirs.count_ones(),
                    theirs_best.count_ones()
                ),
                counts: (theirs.count_ones(), theirs_best.count_ones()),
                weight: 100 * gained / STABILITY_FROM,
            });
        } else if lost >= STABILITY_FROM {
            out.push(Reason {
                kind: ReasonKind::Stability,
                squares: squares(size, mine_best & !mine),
                detail: format!(
                    "after the reply {} has {} stable discs, {lost} fewer than after {best}'s line ({})",
                    mover.name(),
                    mine.count_ones(),
                    mine_best.count_ones()
                ),
                counts: (mine.count_ones(), mine_best.count_ones()),
                weight: 100 * lost / STABILITY_FROM,
            });
        }
    }

    // Mobility: moves given to the opponent, or taken from the mover after the reply.
    {
        let (given, given_best) = (legal_of(&after_played, opp), legal_of(&after_best, opp));
        let more = given.count_ones().saturating_sub(given_best.count_ones());
        let (left, left_best) = (legal_of(&after_reply, mover), legal_of(&after_best_reply, mover));
        let fewer = if reply.is_some() && best_reply.is_some() {
            left_best.count_ones().saturating_sub(left.count_ones())
        } else {
            0
        };
        if more >= MOBILITY_FROM && more >= fewer {
            out.push(Reason {
                kind: ReasonKind::Mobility,
                squares: squares(size, given & !given_best),
                detail: format!(
                    "it gives {} {} moves, {more} more than {best} would ({})",
                    opp.name(),
                    given.count_ones(),
                    given_best.count_ones()
                ),
                counts: (given.count_ones(), given_best.count_ones()),
                weight: 100 * more / MOBILITY_FROM,
            });
        } else if fewer >= MOBILITY_FROM {
            out.push(Reason {
                kind: ReasonKind::Mobility,
                squares: squares(size, left_best & !left),
                detail: format!(
                    "after the reply {} has {} moves, {fewer} fewer than after {best}'s line ({})",
                    mover.name(),
                    left.count_ones(),
                    left_best.count_ones()
                ),
                counts: (left.count_ones(), left_best.count_ones()),
                weight: 100 * fewer / MOBILITY_FROM,
            });
        }
    }

    // Parity: an odd region left for the opponent alone.
    if after_played.empty_count() <= PARITY_EMPTIES {
        let left = odd_regions_for(&after_played, opp);
        let left_best = odd_regions_for(&after_best, opp);
        if left != 0 && left_best == 0 {
            let list = squares(size, left);
            out.push(Reason {
                kind: ReasonKind::Parity,
                detail: format!(
                    "it leaves {} the odd region {} to move into alone, and so to finish",
                    opp.name(),
                    names(&list)
                ),
                squares: list,
                counts: (1, 0),
                weight: 150,
            });
        }
    }

    // Frontier: flipped discs that end next to an empty square.
    {
        let front = |p: &Position, m: Square| {
            let q = p.play(m).expect("a legal move");
            let (own, other) = (q.discs(mover).bits(), q.discs(opp).bits());
            p.flips(m).bits() & frontier(size, own, other)
        };
        let (f, f_best) = (front(before, played), front(before, best));
        let more = f.count_ones().saturating_sub(f_best.count_ones());
        if more >= FRONTIER_FROM {
            out.push(Reason {
                kind: ReasonKind::Frontier,
                squares: squares(size, f),
                detail: format!(
                    "it flips {} discs onto the frontier (next to an empty square), {more} more than {best} ({})",
                    f.count_ones(),
                    f_best.count_ones()
                ),
                counts: (f.count_ones(), f_best.count_ones()),
                weight: 100 * more / FRONTIER_FROM,
            });
        }
    }
    out.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.kind.cmp(&b.kind)));
    out.truncate(MAX_REASONS);
    out
}
