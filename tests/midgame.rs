//! `Solver::analyse`: estimates, win/loss/draw proofs and exact scores, against independent
//! references, never against the code's own output:
//!
//! - a plain depth-limited minimax written here over the square-by-square reference rules of
//!   `tests/reference`, with the library's evaluation at its leaves (the one thing it shares):
//!   with the principal-variation extension off, every estimate of every completed depth equals
//!   it, on random positions of every size, both scorings, one and two threads. (With a fresh
//!   table the estimate search must find exactly the minimax value: in Othello a position is
//!   always met with the same plies left, because every move adds one disc and a pass uses no
//!   depth);
//! - with the extension on, the same minimax with each node it may solve (at most `pv_solved`
//!   empties, a ply or more left) free to take its negamax value instead: every estimate lies
//!   between the least and the greatest value that allows, and the extension does change values;
//! - a plain negamax over the reference rules: a value labelled exact equals it, a proven
//!   outcome has its sign, and a child whose game ends within the depth plus `EXACT_MARGIN` plies
//!   is exact;
//! - the exact scores the FFO files list: outcomes of #1-#22, values after a stop, the table
//!   shared by both searches;
//! - the ranking: best value first, equal values by the deepest earlier estimate that tells them
//!   apart (the minimax values of the depths before), then reading order;
//! - the reports: every child at every completed depth, depths increasing, skipped children
//!   never searched; the limits (depth, nodes, time, stop flag) honoured, and a stopped analysis
//!   labelling every value honestly.

mod common;
mod reference;

use common::to_position;
use othello_explorer::eval::evaluate;
use othello_explorer::notation::obf::{Problem, parse_problem};
use othello_explorer::solver::{
    Analysis, ChildValue, EXACT_MARGIN, Kind, Limits, Phase, QUICK_DEPTH, Report, SearchMode, Selectivity, Solver,
    SolverOptions, StopReason, pv_solved,
};
use othello_explorer::{Position, Scoring, Size, Square};
use proptest::prelude::*;
use reference::{Board, Memo, Rng, name, negamax_memo};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const SCORINGS: [Scoring; 2] = [Scoring::Standard, Scoring::Discs];

fn solver(scoring: Scoring, threads: usize, hash_mb: usize) -> Solver {
    Solver::new(SolverOptions { hash_mb, scoring, threads, pv_extension: true, ..SolverOptions::default() })
}

fn square(n: usize, index: usize) -> Square {
    name(n, index).parse().expect("a square name")
}

fn sq(text: &str) -> Square {
    text.parse().expect("a square name")
}

// ---- the references ----

/// The final score of a finished reference game under `scoring`, from the side to move.
fn final_score(b: &Board, scoring: Scoring) -> i32 {
    match scoring {
        Scoring::Standard => b.final_score(),
        Scoring::Discs => b.disc_difference(),
    }
}

/// Plain negamax over the reference rules: the exact score from the side to move.
fn negamax(b: &Board, scoring: Scoring) -> i32 {
    if b.game_over() {
        return final_score(b, scoring);
    }
    if b.must_pass() {
        return -negamax(&b.pass(), scoring);
    }
    b.moves().into_iter().map(|m| -negamax(&b.play(m), scoring)).max().expect("a move")
}

/// The library's evaluation of a reference board, from its side to move.
fn eval(b: &Board) -> i32 {
    let (p, o) = (b.bits(b.to_move), b.bits(b.to_move.other()));
    match b.n {
        4 => evaluate::<4>(p, o),
        6 => evaluate::<6>(p, o),
        _ => evaluate::<8>(p, o),
    }
}

/// Plain depth-limited minimax over the reference rules: a finished game scored exactly, a
/// position with at most `EXACT_MARGIN` more empties than plies left solved by plain negamax, the
/// evaluation at depth 0, a pass using no depth.
fn minimax(b: &Board, depth: u32, scoring: Scoring) -> i32 {
    if b.game_over() {
        return final_score(b, scoring);
    }
    if b.empties() as u32 <= depth + EXACT_MARGIN {
        return negamax(b, scoring);
    }
    if depth == 0 {
        return eval(b);
    }
    if b.must_pass() {
        return -minimax(&b.pass(), depth, scoring);
    }
    b.moves().into_iter().map(|m| -minimax(&b.play(m), depth - 1, scoring)).max().expect("a move")
}

/// Plays a random game from the start to the first position with at most `empties` empty
/// squares (or to its end).
fn game_position(n: usize, rng: &mut Rng, empties: i32) -> Board {
    let mut b = Board::start(n);
    while b.empties() > empties && !b.game_over() {
        let moves = b.moves();
        b = if moves.is_empty() { b.pass() } else { b.play(moves[rng.below(moves.len())]) };
    }
    b
}

// ---- recording an analysis ----

/// Everything an analysis reported, and what it returned.
struct Recorded {
    reports: Vec<Report>,
    analysis: Analysis,
}

impl Recorded {
    /// The children's values as they stood at each completed depth.
    fn by_depth(&self) -> Vec<(u32, BTreeMap<Square, ChildValue>)> {
        let mut current = BTreeMap::new();
        let mut out = Vec::new();
        for r in &self.reports {
            match r {
                Report::Child(c) => {
                    current.insert(c.square, *c);
                }
                Report::DepthDone { depth } => out.push((*depth, current.clone())),
                Report::Phase(_) | Report::Line { .. } => {}
            }
        }
        out
    }

    fn children(&self) -> Vec<ChildValue> {
        self.reports.iter().filter_map(|r| if let Report::Child(c) = r { Some(*c) } else { None }).collect()
    }

    fn depths(&self) -> Vec<u32> {
        self.reports
            .iter()
            .filter_map(|r| if let Report::DepthDone { depth } = r { Some(*depth) } else { None })
            .collect()
    }

    fn phases(&self) -> Vec<Phase> {
        self.reports.iter().filter_map(|r| if let Report::Phase(p) = r { Some(*p) } else { None }).collect()
    }
}

fn record(
    s: &mut Solver,
    pos: &Position,
    mode: SearchMode,
    max_depth: Option<u32>,
    limits: &Limits,
    skip: &[Square],
) -> Recorded {
    let mut reports = Vec::new();
    let analysis = s.analyse(pos, mode, max_depth, limits, skip, &mut |r| reports.push(r));
    Recorded { reports, analysis }
}

// ---- estimates against plain minimax ----

/// A fresh solver's estimates of `b` to `depth`, the principal-variation extension off: at every
/// completed depth `k`, every child that is not exact yet is reported, with the minimax value of
/// `k - 1` plies below it and the kind `Estimate { depth: k }`, unless it has at most
/// `EXACT_MARGIN` more empties than those plies: then it is exact, equal to negamax, and never
/// searched again. Depths 1..=depth, in order.
fn check_estimates(b: &Board, depth: u32, scoring: Scoring, threads: usize) -> Result<(), TestCaseError> {
    let ctx = format!("{} ({} scoring, {threads} threads)", b.board_string(), scoring.name());
    let pos = to_position(b);
    let mut s =
        Solver::new(SolverOptions { hash_mb: 4, scoring, threads, pv_extension: false, ..SolverOptions::default() });
    let rec = record(&mut s, &pos, SearchMode::Estimate, Some(depth), &Limits::default(), &[]);
    if b.moves().is_empty() {
        prop_assert!(rec.reports.is_empty(), "{}: reports without moves: {:?}", ctx, rec.reports);
        prop_assert!(rec.analysis.children.is_empty());
        return Ok(());
    }
    let children: Vec<(Square, Board)> = b.moves().into_iter().map(|m| (square(b.n, m), b.play(m))).collect();
    // When each child is first due to be exact: at depth k when it has no more than k - 1 +
    // EXACT_MARGIN empties (its game then ends within the depth plus the margin).
    let exact_from =
        |c: &Board| if c.game_over() { 0 } else { (c.empties() as u32 + 1).saturating_sub(EXACT_MARGIN).max(1) };
    // Negamax only where it is due (the others are too deep for it).
    let exact: BTreeMap<Square, i32> =
        children.iter().filter(|(_, c)| exact_from(c) <= depth).map(|(s, c)| (*s, -negamax(c, scoring))).collect();
    let by_depth = rec.by_depth();
    // Depth k is searched while some child is not exact yet.
    let last = children.iter().map(|(_, c)| exact_from(c)).max().unwrap_or(0).min(depth);
    prop_assert_eq!(rec.depths(), (1..=last).collect::<Vec<_>>(), "{}: completed depths", ctx);
    for (k, values) in &by_depth {
        prop_assert_eq!(values.len(), children.len(), "{}: depth {}: every child", ctx, k);
        for (sq, child) in &children {
            let v = values[sq];
            if exact_from(child) <= *k {
                prop_assert_eq!(v.kind, Kind::Exact, "{}: depth {}: {} ends within the depth", ctx, k, sq);
                prop_assert_eq!(v.score, exact[sq], "{}: depth {}: {} exact", ctx, k, sq);
            } else {
                prop_assert_eq!(v.kind, Kind::estimate(*k), "{}: depth {}: {} is an estimate", ctx, k, sq);
                prop_assert_eq!(
                    v.score,
                    -minimax(child, k - 1, scoring),
                    "{}: depth {}: {} against minimax",
                    ctx,
                    k,
                    sq
                );
            }
        }
    }
    // Exact values are reported once; estimates once per depth.
    let mut reported: BTreeMap<Square, Vec<ChildValue>> = BTreeMap::new();
    for c in rec.children() {
        reported.entry(c.square).or_default().push(c);
    }
    for (sq, list) in &reported {
        let exacts = list.iter().filter(|c| c.kind == Kind::Exact).count();
        prop_assert!(exacts <= 1, "{}: {} reported exact {} times", ctx, sq, exacts);
        if exacts == 1 {
            prop_assert_eq!(list.last().map(|c| c.kind), Some(Kind::Exact), "{}: {} searched after exact", ctx, sq);
        }
    }
    // The result: the last value of each child, best first, equal values by the deepest earlier
    // estimate that tells them apart (the minimax values of the depths before), then in reading
    // order.
    let mut got = rec.analysis.children.clone();
    let ranked_key = |(sq, child): &(Square, Board)| {
        let estimated = (1..=last).filter(|&k| k < exact_from(child));
        let history: Vec<i32> = estimated.map(|k| -minimax(child, k - 1, scoring)).collect();
        let (value, earlier) = match exact.get(sq) {
            Some(&v) => (v, &history[..]),
            None => (history[history.len() - 1], &history[..history.len() - 1]),
        };
        (std::cmp::Reverse((value, earlier.iter().rev().copied().collect::<Vec<i32>>())), *sq)
    };
    if !by_depth.is_empty() {
        let mut expected: Vec<_> = children.iter().map(ranked_key).collect();
        expected.sort();
        let order: Vec<Square> = got.iter().map(|c| c.square).collect();
        let expected: Vec<Square> = expected.into_iter().map(|(_, sq)| sq).collect();
        prop_assert_eq!(order, expected, "{}: best first, ties by the earlier depths", ctx);
    }
    got.sort_by_key(|c| c.square);
    let last_values: Vec<ChildValue> = by_depth.last().map(|(_, v)| v.values().copied().collect()).unwrap_or_default();
    if !by_depth.is_empty() {
        prop_assert_eq!(got, last_values, "{}: the analysis' values", ctx);
    }
    Ok(())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(48))]
    #[test]
    fn estimates_4x4_equal_plain_minimax(seed in any::<u64>(), empties in 1i32..=12, depth in 1u32..=5) {
        let b = game_position(4, &mut Rng(seed), empties);
        for scoring in SCORINGS {
            for threads in [1, 2] {
                check_estimates(&b, depth, scoring, threads)?;
            }
        }
    }
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn estimates_6x6_equal_plain_minimax(seed in any::<u64>(), empties in 2i32..=30, depth in 1u32..=4) {
        let b = game_position(6, &mut Rng(seed), empties);
        // The references are plain: keep the exact part small.
        // (Beyond the margin no node of the search is solved: empties and plies fall together.)
        prop_assume!(b.empties() as u32 > depth + EXACT_MARGIN || b.empties() <= 9);
        for scoring in SCORINGS {
            check_estimates(&b, depth, scoring, 1 + (seed % 2) as usize)?;
        }
    }
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn estimates_8x8_equal_plain_minimax(seed in any::<u64>(), empties in 2i32..=56, depth in 1u32..=3) {
        let b = game_position(8, &mut Rng(seed), empties);
        prop_assume!(b.empties() as u32 > depth + EXACT_MARGIN || b.empties() <= 8);
        for scoring in SCORINGS {
            check_estimates(&b, depth, scoring, 1 + (seed % 2) as usize)?;
        }
    }
}

// ---- estimates with the principal-variation extension ----

/// The least and the greatest value of [`minimax`] of `b` to `depth` plies when any node with at
/// most `k` empties and at least one ply left may take its negamax value instead of its minimax
/// one, each independently: what the extension (and the table's exact entries) may make of it.
/// Negamax is monotone, so the bounds are plain minimaxes of the children's bounds, each such
/// node widened to take in its negamax value.
fn extended_range(
    b: &Board,
    depth: u32,
    k: u32,
    scoring: Scoring,
    exact: &mut Memo,
    seen: &mut HashMap<(Board, u32), (i32, i32)>,
) -> (i32, i32) {
    if let Some(&r) = seen.get(&(b.clone(), depth)) {
        return r;
    }
    let moves = b.moves();
    let range = if moves.is_empty() && b.moves_for(b.to_move.other()).is_empty() {
        let v = final_score(b, scoring);
        (v, v)
    } else if b.empties() as u32 <= depth + EXACT_MARGIN {
        let v = negamax_memo(b, scoring == Scoring::Discs, exact);
        (v, v)
    } else if depth == 0 {
        let v = eval(b);
        (v, v)
    } else {
        let (lo, hi) = if moves.is_empty() {
            let (lo, hi) = extended_range(&b.pass(), depth, k, scoring, exact, seen);
            (-hi, -lo)
        } else {
            let children: Vec<(i32, i32)> =
                moves.into_iter().map(|m| extended_range(&b.play(m), depth - 1, k, scoring, exact, seen)).collect();
            (children.iter().map(|c| -c.1).max().expect("a move"), children.iter().map(|c| -c.0).max().expect("a move"))
        };
        if b.empties() as u32 <= k {
            let v = negamax_memo(b, scoring == Scoring::Discs, exact);
            (lo.min(v), hi.max(v))
        } else {
            (lo, hi)
        }
    };
    seen.insert((b.clone(), depth), range);
    range
}

/// A fresh solver's estimates of `b` to `depth` with the extension on: at every completed depth
/// `k`, every child that is not exact lies in its [`extended_range`] of `k - 1` plies with
/// `pv_solved(k)`; the exact ones equal negamax. Returns how many estimates differ from the plain
/// minimax.
fn check_extended(b: &Board, depth: u32, scoring: Scoring, threads: usize) -> Result<usize, TestCaseError> {
    let ctx = format!("{} ({} scoring, {threads} threads)", b.board_string(), scoring.name());
    let mut s =
        Solver::new(SolverOptions { hash_mb: 4, scoring, threads, pv_extension: true, ..SolverOptions::default() });
    let rec = record(&mut s, &to_position(b), SearchMode::Estimate, Some(depth), &Limits::default(), &[]);
    let (mut exact, mut differ) = (HashMap::new(), 0);
    for (k, values) in rec.by_depth() {
        prop_assert_eq!(values.len(), b.moves().len(), "{}: depth {}: every child", ctx, k);
        let mut seen = HashMap::new();
        for m in b.moves() {
            let (sq, child) = (square(b.n, m), b.play(m));
            let v = values[&sq];
            if v.kind == Kind::Exact {
                prop_assert_eq!(
                    v.score,
                    -negamax_memo(&child, scoring == Scoring::Discs, &mut exact),
                    "{}: {} exact",
                    ctx,
                    sq
                );
                continue;
            }
            prop_assert_eq!(v.kind, Kind::estimate(k), "{}: depth {}: {} is an estimate", ctx, k, sq);
            let (lo, hi) = extended_range(&child, k - 1, pv_solved(k), scoring, &mut exact, &mut seen);
            prop_assert!(
                -hi <= v.score && v.score <= -lo,
                "{}: depth {}: {} is {}, outside {}..={}",
                ctx,
                k,
                sq,
                v.score,
                -hi,
                -lo
            );
            differ += usize::from(v.score != -minimax(&child, k - 1, scoring));
        }
    }
    Ok(differ)
}

/// With the extension on, on 6x6 positions with 13 empties to depth 6, where it reaches one level
/// below the margin (nodes of 8 empties one ply above the leaves): every estimate lies in its
/// range, and some differ from the plain minimax, so the extension acts. Both scorings, one and
/// two threads. (A few positions only: the reference solves every such node by plain negamax.)
#[test]
fn extended_estimates_lie_in_their_range() {
    // The reference's cost varies tenfold from position to position; this seed's two positions take it
    // about half a minute.
    let mut rng = Rng(3);
    let (mut checked, mut differ) = (0, 0);
    while checked < 2 || (differ == 0 && checked < 6) {
        let b = game_position(6, &mut rng, 13);
        if b.empties() != 13 || b.moves().is_empty() {
            continue;
        }
        differ += check_extended(&b, 6, SCORINGS[checked % 2], 1 + checked % 2).expect("estimates in their range");
        checked += 1;
    }
    assert!(differ > 0, "no estimate changed in {checked} positions");
}

/// `SearchMode::Play` past the quick estimates (full width, the extension off, no proof in
/// reach): at every completed depth the first child is a best move by plain minimax, with the
/// minimax value of the position at that depth; any other child still listed is one searched for
/// its own value (it beat the first in its null-window test) and has its minimax value too; the
/// others are left without a value. Random 6x6 positions of 29 empties, one and two threads,
/// under a node limit that keeps the proofs out.
#[test]
fn play_finds_a_minimax_best_move_at_every_depth() {
    let depth = QUICK_DEPTH + 2;
    let mut refuted = 0;
    for seed in 1..=3 {
        let b = game_position(6, &mut Rng(seed), 29);
        let pos = to_position(&b);
        let children: Vec<(Square, Board)> = b.moves().into_iter().map(|m| (square(6, m), b.play(m))).collect();
        assert!(children.len() >= 2, "{}: a choice", b.board_string());
        let values: Vec<BTreeMap<Square, i32>> = (0..=depth)
            .map(|k| {
                if k <= QUICK_DEPTH {
                    return BTreeMap::new();
                }
                children.iter().map(|(sq, c)| (*sq, -minimax(c, k - 1, Scoring::Standard))).collect()
            })
            .collect();
        for threads in [1, 2] {
            let ctx = format!("{} ({threads} threads)", b.board_string());
            let mut s =
                Solver::new(SolverOptions { hash_mb: 4, threads, pv_extension: false, ..SolverOptions::default() });
            // A node limit the proofs would not fit (without a limit the auto policy proves every
            // 6x6 position), far above what the estimates take.
            let limits = Limits { max_nodes: Some(100_000_000), ..Limits::default() };
            let rec = record(&mut s, &pos, SearchMode::Play, Some(depth), &limits, &[]);
            assert_eq!(rec.analysis.stopped, None, "{ctx}: not stopped");
            assert_eq!(rec.depths(), (1..=depth).collect::<Vec<_>>(), "{ctx}: completed depths");
            // The values as each depth past the quick ones completes: those reported at it.
            let mut at: Vec<ChildValue> = Vec::new();
            let mut k = 0;
            for r in &rec.reports {
                match r {
                    Report::Child(c) => at.push(*c),
                    Report::DepthDone { depth } => {
                        k = *depth;
                        if k > QUICK_DEPTH {
                            let best = *values[k as usize].values().max().unwrap();
                            let first = at.iter().max_by_key(|c| c.score).expect("a value at each depth");
                            assert_eq!(first.score, best, "{ctx}: depth {k}: the best value");
                            for c in &at {
                                assert_eq!(c.kind, Kind::estimate(k), "{ctx}: depth {k}: {}", c.square);
                                assert_eq!(c.score, values[k as usize][&c.square], "{ctx}: depth {k}: {}", c.square);
                            }
                            refuted += children.len() - at.len();
                        }
                        at.clear();
                    }
                    Report::Phase(_) | Report::Line { .. } => {}
                }
            }
            assert_eq!(k, depth);
            // The result: the last depth's children, the best first.
            let got = &rec.analysis.children;
            let best = *values[depth as usize].values().max().unwrap();
            assert_eq!(got[0].score, best, "{ctx}: the move to play");
            assert_eq!(values[depth as usize][&got[0].square], best, "{ctx}: a best move");
            for c in got {
                assert_eq!(c.score, values[depth as usize][&c.square], "{ctx}: {}", c.square);
            }
        }
    }
    assert!(refuted > 0, "no child was left refuted: the null windows were not used");
}

/// With no more empties than the depth, every child is exact and equal to negamax, on every size.
#[test]
fn with_few_empties_the_estimates_are_exact() {
    let mut rng = Rng(0x0fe3_e3e5);
    for n in [4, 6, 8] {
        let mut checked = 0;
        while checked < 12 {
            let empties = 1 + rng.below(9) as i32;
            let b = game_position(n, &mut rng, empties);
            if b.moves().is_empty() {
                continue;
            }
            for scoring in SCORINGS {
                let pos = to_position(&b);
                let depth = b.empties() as u32;
                let analysis = solver(scoring, 1, 1).analyse(
                    &pos,
                    SearchMode::Estimate,
                    Some(depth),
                    &Limits::default(),
                    &[],
                    &mut |_| {},
                );
                assert_eq!(analysis.children.len(), b.moves().len());
                for c in &analysis.children {
                    let child = b.moves().into_iter().find(|&m| square(n, m) == c.square).expect("a legal move");
                    assert_eq!(c.kind, Kind::Exact, "{}: {} at depth {depth}", b.board_string(), c.square);
                    assert_eq!(c.score, -negamax(&b.play(child), scoring), "{}: {}", b.board_string(), c.square);
                }
            }
            checked += 1;
        }
    }
}

// ---- win/loss/draw ----

/// Every child's proven outcome and the root's against the sign of negamax.
fn check_wld(b: &Board, scoring: Scoring, threads: usize) -> Result<(), TestCaseError> {
    let ctx = format!("{} ({} scoring, {threads} threads)", b.board_string(), scoring.name());
    let pos = to_position(b);
    let mut s = solver(scoring, threads, 1);
    let analysis = s.analyse(&pos, SearchMode::Wld, None, &Limits::default(), &[], &mut |_| {});
    prop_assert_eq!(analysis.children.len(), b.moves().len(), "{}", ctx);
    for c in &analysis.children {
        let m = b.moves().into_iter().find(|&m| square(b.n, m) == c.square).expect("a legal move");
        let child = b.play(m);
        let want = -negamax(&child, scoring);
        // A child whose game is over is simply exact.
        if child.game_over() {
            prop_assert_eq!((c.kind, c.score), (Kind::Exact, want), "{}: {}", ctx, c.square);
        } else {
            prop_assert_eq!((c.kind, c.score), (Kind::Wld, want.signum()), "{}: {} (exact {})", ctx, c.square, want);
        }
    }
    let (sign, _) = s.wld(&pos, &Limits::default()).map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
    prop_assert_eq!(sign, negamax(b, scoring).signum(), "{}: root outcome", ctx);
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]
    #[test]
    fn wld_agrees_with_the_sign_of_negamax(
        n in prop::sample::select(vec![4usize, 6, 8]),
        seed in any::<u64>(),
        empties in 0i32..=10,
    ) {
        let b = game_position(n, &mut Rng(seed), empties);
        for scoring in SCORINGS {
            for threads in [1, 2] {
                check_wld(&b, scoring, threads)?;
            }
        }
    }
}

// ---- FFO positions ----

fn ffo(file: &str) -> Vec<Problem> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/ffo").join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} (the FFO files beside the checkout): {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('%'))
        .map(|l| parse_problem(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn ffo_problem(number: usize) -> Problem {
    match number {
        1..=19 => ffo("fforum-1-19.obf").swap_remove(number - 1),
        20..=39 => ffo("fforum-20-39.obf").swap_remove(number - 20),
        _ => ffo("fforum-40-59.obf").swap_remove(number - 40),
    }
}

/// Every value of `analysis` is what it says it is: exact ones equal the listed score, outcomes
/// have its sign, estimates are labelled estimates of a depth no deeper than `max_depth`.
fn check_honest(number: usize, problem: &Problem, children: &[ChildValue], max_depth: u32) {
    for c in children {
        let listed = problem.scores.iter().find(|m| m.0 == c.square).map(|m| m.1).expect("a listed move");
        match c.kind {
            Kind::Exact => assert_eq!(c.score, listed, "FFO #{number}: {} labelled exact", c.square),
            Kind::Wld => assert_eq!(c.score, listed.signum(), "FFO #{number}: {} outcome", c.square),
            Kind::Estimate { depth, .. } => {
                assert!(depth >= 1 && depth <= max_depth, "FFO #{number}: {} estimate at depth {depth}", c.square)
            }
        }
    }
}

#[test]
fn wld_agrees_with_ffo_1_to_22() {
    let mut s = solver(Scoring::Standard, 1, 16);
    for number in 1..=22 {
        let problem = ffo_problem(number);
        if problem.position.empty_count() > 17 {
            continue; // #20-#39 are long but for #20-#22
        }
        let analysis = s.analyse(&problem.position, SearchMode::Wld, None, &Limits::default(), &[], &mut |_| {});
        // #1-#19 list every move; #20-#22 too. A move that ends the game is simply exact.
        assert_eq!(analysis.children.len(), problem.scores.len(), "FFO #{number}");
        for c in &analysis.children {
            let ends = problem.position.play(c.square).expect("a legal move").is_game_over();
            assert_eq!(c.kind, if ends { Kind::Exact } else { Kind::Wld }, "FFO #{number}: {}", c.square);
        }
        check_honest(number, &problem, &analysis.children, 0);
        let (sign, _) = s.wld(&problem.position, &Limits::default()).expect("an unlimited search");
        assert_eq!(sign, problem.best_score().expect("listed scores").signum(), "FFO #{number}: root");
    }
}

/// `Auto` with no limits on a position it can prove: quick estimates, outcomes, then every exact
/// score, equal to the file's.
#[test]
fn auto_proves_ffo_positions_it_can_afford() {
    for number in [1, 8] {
        let problem = ffo_problem(number);
        let mut s = solver(Scoring::Standard, 2, 16);
        let rec = record(&mut s, &problem.position, SearchMode::Auto, None, &Limits::default(), &[]);
        assert_eq!(rec.phases(), [Phase::Estimate, Phase::Wld, Phase::Exact], "FFO #{number}");
        assert_eq!(rec.depths(), (1..=QUICK_DEPTH).collect::<Vec<_>>(), "FFO #{number}: the quick estimates");
        assert_eq!(rec.analysis.stopped, None);
        assert_eq!(rec.analysis.children.len(), problem.scores.len());
        assert!(rec.analysis.children.iter().all(|c| c.kind == Kind::Exact), "FFO #{number}");
        check_honest(number, &problem, &rec.analysis.children, 0);
        check_honest(number, &problem, &rec.children(), QUICK_DEPTH);
        assert_eq!(rec.analysis.children[0].score, problem.best_score().expect("listed"), "FFO #{number}: best first");
    }
}

/// The table holds both kinds of entries: estimates first do not mislead the exact search, and
/// exact entries first do not break the estimates' labels.
#[test]
fn estimates_and_exact_scores_share_the_table() {
    let number = 23;
    let problem = ffo_problem(number);
    for threads in [1, 2] {
        let mut s = solver(Scoring::Standard, threads, 4);
        let estimates =
            s.analyse(&problem.position, SearchMode::Estimate, Some(9), &Limits::default(), &[], &mut |_| {});
        check_honest(number, &problem, &estimates.children, 9);
        assert!(estimates.children.iter().all(|c| matches!(c.kind, Kind::Estimate { depth: 9, .. })));
        let exact = s.analyse(&problem.position, SearchMode::Exact, None, &Limits::default(), &[], &mut |_| {});
        assert_eq!(exact.children.len(), problem.scores.len());
        assert!(exact.children.iter().all(|c| c.kind == Kind::Exact));
        check_honest(number, &problem, &exact.children, 0);
        // Estimates again, over exact entries: still estimates, and the children's exact scores
        // from other entry points still right.
        let again = s.analyse(&problem.position, SearchMode::Estimate, Some(5), &Limits::default(), &[], &mut |_| {});
        assert!(again.children.iter().all(|c| matches!(c.kind, Kind::Estimate { depth: 5, .. })));
        let (mv, listed) = problem.scores[problem.scores.len() - 1];
        let child = problem.position.play(mv).expect("a listed move");
        assert_eq!(s.score(&child, &Limits::default()).expect("an unlimited search").0, -listed);
    }
}

// ---- reports, skips and limits ----

/// An 8x8 midgame position with many moves.
fn midgame() -> Position {
    othello_explorer::notation::transcript::play(&Position::start(Size::Eight), "f5d6c3d3c4f4f6f3e6e7")
        .expect("a legal line")
        .end()
}

#[test]
fn iterative_deepening_reports_every_child_at_every_depth() {
    let pos = midgame();
    let moves = pos.legal_moves().reading_order();
    assert!(moves.len() >= 6);
    let skip = [moves[0], moves[3]];
    for threads in [1, 2] {
        let mut s = solver(Scoring::Standard, threads, 16);
        let rec = record(&mut s, &pos, SearchMode::Estimate, Some(7), &Limits::default(), &skip);
        assert_eq!(rec.phases(), [Phase::Estimate]);
        assert_eq!(rec.depths(), [1, 2, 3, 4, 5, 6, 7]);
        // Between two completed depths, each child not skipped exactly once, at that depth.
        let mut since = Vec::new();
        for r in &rec.reports {
            match r {
                Report::Child(c) => since.push(*c),
                Report::DepthDone { depth } => {
                    let mut squares: Vec<Square> = since.iter().map(|c| c.square).collect();
                    squares.sort();
                    let want: Vec<Square> = moves.iter().copied().filter(|m| !skip.contains(m)).collect();
                    assert_eq!(squares, want, "{threads} threads: depth {depth}");
                    assert!(since.iter().all(|c| c.kind == Kind::estimate(*depth)));
                    since.clear();
                }
                Report::Phase(_) | Report::Line { .. } => {}
            }
        }
        assert_eq!(rec.analysis.depth, Some(7));
        assert_eq!(rec.analysis.children.len(), moves.len() - 2);
        assert!(rec.analysis.children.iter().all(|c| !skip.contains(&c.square)));
    }
}

#[test]
fn auto_on_the_8x8_start_estimates_all_four_moves() {
    let start = Position::start(Size::Eight);
    // No limit: it would deepen for ever; the stop flag is raised from the report callback.
    let flag = Arc::new(AtomicBool::new(false));
    let limits = Limits { stop: Some(flag.clone()), ..Limits::default() };
    let mut s = solver(Scoring::Standard, 2, 16);
    let mut reports = Vec::new();
    let analysis = s.analyse(&start, SearchMode::Auto, None, &limits, &[], &mut |r| {
        if r == (Report::DepthDone { depth: QUICK_DEPTH + 2 }) {
            flag.store(true, Ordering::Relaxed);
        }
        reports.push(r);
    });
    assert_eq!(analysis.stopped, Some(StopReason::Cancelled));
    assert_eq!(analysis.depth, Some(QUICK_DEPTH + 2));
    assert_eq!(reports.first(), Some(&Report::Phase(Phase::Estimate)));
    assert!(!reports.contains(&Report::Phase(Phase::Wld)) && !reports.contains(&Report::Phase(Phase::Exact)));
    let first_depth: Vec<Square> = reports
        .iter()
        .take_while(|r| **r != Report::DepthDone { depth: 1 })
        .filter_map(|r| if let Report::Child(c) = r { Some(c.square) } else { None })
        .collect();
    let mut sorted = first_depth.clone();
    sorted.sort();
    let mut four = vec![sq("d3"), sq("c4"), sq("f5"), sq("e6")];
    four.sort();
    assert_eq!(sorted, four, "every move estimated at depth 1");
    assert_eq!(analysis.children.len(), 4);
    for c in &analysis.children {
        assert_eq!(c.kind, Kind::estimate(QUICK_DEPTH + 2));
    }
    // The four moves are symmetric: one estimate for all.
    assert!(analysis.children.iter().all(|c| c.score == analysis.children[0].score));
}

#[test]
fn the_depth_limit_is_honoured() {
    let pos = midgame();
    for mode in [SearchMode::Estimate, SearchMode::Auto] {
        let rec = record(&mut solver(Scoring::Standard, 1, 16), &pos, mode, Some(3), &Limits::default(), &[]);
        assert_eq!(rec.depths(), [1, 2, 3], "{mode:?}");
        assert_eq!(rec.analysis.depth, Some(3));
        assert_eq!(rec.analysis.stopped, None);
        assert!(rec.children().iter().all(|c| matches!(c.kind, Kind::Estimate { depth, .. } if depth <= 3)));
    }
}

/// A node limit stops every mode at about the limit, with honest values: FFO #40 (20 empties).
#[test]
fn a_node_limit_stops_with_honest_values() {
    let number = 40;
    let problem = ffo_problem(number);
    for threads in [1, 2] {
        for mode in [SearchMode::Auto, SearchMode::Exact, SearchMode::Wld, SearchMode::Estimate] {
            for max_nodes in [20_000, 300_000, 3_000_000] {
                let limits = Limits { max_nodes: Some(max_nodes), ..Limits::default() };
                let mut s = solver(Scoring::Standard, threads, 16);
                let rec = record(&mut s, &problem.position, mode, None, &limits, &[]);
                let ctx = format!("{mode:?}, {threads} threads, {max_nodes} nodes");
                if let Some(reason) = rec.analysis.stopped {
                    assert_eq!(reason, StopReason::NodeLimit, "{ctx}");
                    assert!(rec.analysis.nodes >= max_nodes, "{ctx}: stopped at {}", rec.analysis.nodes);
                }
                assert!(rec.analysis.nodes < max_nodes + 100_000, "{ctx}: {} nodes", rec.analysis.nodes);
                check_honest(number, &problem, &rec.children(), 60);
                check_honest(number, &problem, &rec.analysis.children, 60);
                if let Some(d) = rec.analysis.depth {
                    assert!(rec.analysis.children.iter().all(|c| match c.kind {
                        Kind::Estimate { depth, .. } => depth == d || depth == d + 1,
                        _ => true,
                    }));
                }
            }
        }
    }
}

#[test]
fn a_time_limit_stops_the_deepening() {
    let start = Position::start(Size::Eight);
    // Long enough for a first depth even while other tests load both cores (at 100 ms one run
    // under load completed none), far too short for the start's last.
    let limits = Limits { max_time: Some(Duration::from_millis(500)), ..Limits::default() };
    for mode in [SearchMode::Auto, SearchMode::Estimate] {
        let analysis = solver(Scoring::Standard, 1, 16).analyse(&start, mode, None, &limits, &[], &mut |_| {});
        assert_eq!(analysis.stopped, Some(StopReason::TimeLimit), "{mode:?}");
        let depth = analysis.depth.expect("some completed depth");
        assert_eq!(analysis.children.len(), 4);
        assert!(
            analysis
                .children
                .iter()
                .all(|c| matches!(c.kind, Kind::Estimate { depth: d, .. } if d == depth || d == depth + 1))
        );
    }
}

#[test]
fn the_stop_flag_ends_the_analysis_between_depths_and_at_once() {
    let pos = midgame();
    let flag = Arc::new(AtomicBool::new(false));
    let limits = Limits { stop: Some(flag.clone()), ..Limits::default() };
    let mut s = solver(Scoring::Standard, 1, 16);
    let mut reports = Vec::new();
    let analysis = s.analyse(&pos, SearchMode::Estimate, Some(20), &limits, &[], &mut |r| {
        if r == (Report::DepthDone { depth: 2 }) {
            flag.store(true, Ordering::Relaxed);
        }
        reports.push(r);
    });
    assert_eq!(analysis.stopped, Some(StopReason::Cancelled));
    assert_eq!(analysis.depth, Some(2));
    assert_eq!(reports.last(), Some(&Report::DepthDone { depth: 2 }), "nothing searched after the flag");
    assert!(analysis.children.iter().all(|c| c.kind == Kind::estimate(2)));

    // A flag already raised: nothing is searched.
    for mode in [SearchMode::Auto, SearchMode::Exact, SearchMode::Wld, SearchMode::Estimate] {
        let rec = record(&mut s, &pos, mode, None, &limits, &[]);
        assert_eq!(rec.analysis.stopped, Some(StopReason::Cancelled), "{mode:?}");
        assert!(rec.children().is_empty(), "{mode:?}: {:?}", rec.reports);
        assert!(rec.analysis.children.is_empty());
    }
}

/// A finished game and a position that must pass have no children.
#[test]
fn no_children_without_moves() {
    let finished = othello_explorer::notation::obf::parse_board("XXXXXXXX---X--OO O").expect("a board");
    let must_pass = othello_explorer::notation::obf::parse_board("XXXXXXXXXXXXXXO- O").expect("a board");
    assert!(finished.is_game_over());
    for pos in [finished, must_pass] {
        for mode in [SearchMode::Auto, SearchMode::Exact, SearchMode::Wld, SearchMode::Estimate] {
            let rec = record(&mut solver(Scoring::Standard, 1, 1), &pos, mode, Some(4), &Limits::default(), &[]);
            assert!(rec.analysis.children.is_empty(), "{pos}: {mode:?}");
            assert!(rec.children().is_empty());
        }
    }
}

#[test]
fn each_depth_reports_a_line_that_starts_with_its_best_child_and_plays() {
    let pos = midgame();
    let mut s = solver(Scoring::Standard, 1, 16);
    let rec = record(&mut s, &pos, SearchMode::Estimate, Some(8), &Limits::default(), &[]);
    let by_depth = rec.by_depth();
    let lines: Vec<(u32, Vec<Square>)> = rec
        .reports
        .iter()
        .filter_map(|r| if let Report::Line { depth, moves } = r { Some((*depth, moves.clone())) } else { None })
        .collect();
    assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>());
    // Each line comes just before its depth's DepthDone.
    for (i, r) in rec.reports.iter().enumerate() {
        if let Report::Line { depth, .. } = r {
            assert_eq!(rec.reports.get(i + 1), Some(&Report::DepthDone { depth: *depth }));
        }
    }
    for ((depth, moves), (d, values)) in lines.iter().zip(&by_depth) {
        assert_eq!(depth, d);
        assert!(!moves.is_empty() && moves.len() <= *depth as usize, "depth {depth}: {moves:?}");
        // Its first move is a child of the best value at that depth.
        let best = values.values().map(|c| c.score).max().unwrap();
        assert_eq!(values[&moves[0]].score, best, "depth {depth}");
        // Every move is legal where it is played (forced passes taken), by the square-by-square rules.
        let index = |m: &str| (0..64).find(|&i| name(8, i) == m).unwrap();
        let mut b = Board::start(8);
        for m in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
            b = b.play(index(m));
        }
        for m in moves {
            if b.must_pass() {
                b = b.pass();
            }
            let i = index(&m.to_string());
            assert!(b.moves().contains(&i), "depth {depth}: {m} in {moves:?}");
            b = b.play(i);
        }
    }
}

// ---- the selective search ----

/// Estimates at a selectivity below 100% say so, at every depth; a child the estimate search
/// solves (within the exact margin) is still exact and right.
#[test]
fn selective_estimates_are_labelled_with_their_selectivity() {
    for percent in [73, 95] {
        let selectivity = Selectivity::from_percent(percent).expect("a level");
        let mut s = Solver::new(SolverOptions { hash_mb: 16, threads: 1, selectivity, ..SolverOptions::default() });
        let mut reported = Vec::new();
        let analysis = s.analyse(&midgame(), SearchMode::Estimate, Some(9), &Limits::default(), &[], &mut |r| {
            if let Report::Child(c) = r {
                reported.push(c.kind);
            }
        });
        assert_eq!(analysis.depth, Some(9));
        assert!(
            analysis.children.iter().all(|c| c.kind == Kind::Estimate { depth: 9, selectivity }),
            "{percent}%: {:?}",
            analysis.children
        );
        assert!(reported.iter().all(|k| k.selectivity() == Some(selectivity)), "{percent}%: {reported:?}");
        let text = format!("{}", analysis.children[0].text());
        assert!(text.ends_with(&format!(" @9 {percent}%")), "{text}");
    }
}

/// Whatever the estimates' selectivity, the proofs are exact: 6x6 positions of random games
/// with 8 to 11 empties, every child proven at each selectivity and checked against negamax.
#[test]
fn proofs_stay_exact_at_every_selectivity() {
    let mut rng = Rng(0x0073_0095);
    for k in 0..6 {
        let b = game_position(6, &mut rng, 8 + (k % 4));
        let pos = to_position(&b);
        let want: Vec<(Square, i32)> =
            b.moves().into_iter().map(|m| (square(b.n, m), -negamax(&b.play(m), Scoring::Standard))).collect();
        for selectivity in Selectivity::ALL {
            let mut s = Solver::new(SolverOptions { hash_mb: 4, threads: 1, selectivity, ..SolverOptions::default() });
            let analysis = s.analyse(&pos, SearchMode::Exact, None, &Limits::default(), &[], &mut |_| {});
            assert_eq!(analysis.children.len(), want.len(), "{pos} {selectivity}");
            for c in &analysis.children {
                let exact = want.iter().find(|w| w.0 == c.square).expect("a legal move").1;
                assert_eq!((c.kind, c.score), (Kind::Exact, exact), "{pos} {selectivity}: {}", c.square);
            }
        }
    }
}

/// Positions where one side is nearly wiped out, on 6x6: the side to move greedy (the move that
/// flips most) against a random opponent, until 10 empties, kept when either side has at most
/// four discs. Their exact values sit at the edge of the range, where both stability cutoffs
/// (from above and from below, `endgame.rs`) answer null windows without a search.
#[test]
fn near_wipe_outs_are_solved_as_plain_negamax_solves_them() {
    let mut rng = Rng(0x0064_0064);
    let mut found = 0;
    for _ in 0..400 {
        let mut b = Board::start(6);
        let greedy = if rng.below(2) == 0 { reference::Side::Black } else { reference::Side::White };
        while b.empties() > 10 && !b.game_over() {
            let moves = b.moves();
            b = if moves.is_empty() {
                b.pass()
            } else if b.to_move == greedy {
                b.play(*moves.iter().max_by_key(|&&m| b.flips(m).len()).expect("a move"))
            } else {
                b.play(moves[rng.below(moves.len())])
            };
        }
        let discs = |side| b.cells.iter().filter(|c| **c == Some(side)).count();
        if b.game_over() || discs(reference::Side::Black).min(discs(reference::Side::White)) > 4 {
            continue;
        }
        let pos = to_position(&b);
        let mut s = Solver::new(SolverOptions { hash_mb: 4, threads: 1, ..SolverOptions::default() });
        let analysis = s.analyse(&pos, SearchMode::Exact, None, &Limits::default(), &[], &mut |_| {});
        for c in &analysis.children {
            let m = b.moves().into_iter().find(|&m| square(b.n, m) == c.square).expect("a legal move");
            assert_eq!(
                (c.kind, c.score),
                (Kind::Exact, -negamax(&b.play(m), Scoring::Standard)),
                "{pos}: {}",
                c.square
            );
        }
        found += 1;
        if found == 12 {
            break;
        }
    }
    assert!(found >= 6, "{found} near wipe-outs");
}

#[test]
fn estimates_split_between_threads_equal_plain_minimax() {
    // The 6x6 start's four moves are twins: one child searched, so the second thread works only
    // at the split points of the estimate search, which are deep enough from depth 8 (the root's
    // children at 7 plies, their null-window children at 6: `SPLIT_ESTIMATE`). One position
    // after a move too, whose children are not twins.
    let start = Board::start(6);
    check_estimates(&start, 8, Scoring::Standard, 2).unwrap();
    let after = start.play(start.moves()[0]);
    check_estimates(&after, 8, Scoring::Discs, 2).unwrap();
}
