//! Review's reasons against perfect play on the small boards: random positions of 4x4 and 6x6
//! games, every move that loses (by plain negamax in `tests/reference`), its refutation and the
//! best move's line played perfectly, and each reason `reasons` states checked to be true of the
//! positions, square by square: the corner is taken on the perfect line and could not be taken
//! before, the mobility, stability and frontier numbers are the counts, the odd region is one only
//! the opponent can move into.

mod common;
mod reference;

use common::to_position;
use othello_explorer::Square;
use othello_explorer::studies::review::reasons::{MAX_REASONS, PARITY_EMPTIES, ReasonKind, reasons};
use reference::{Board, Memo, Rng, corner_cells, negamax_memo, random_game};
use std::collections::BTreeMap;

fn square(n: usize, cell: usize) -> Square {
    Square::new(cell % n, cell / n).expect("on the board")
}

/// A perfect line from `b` (forced passes taken, not written): at each step the first move in
/// reading order that keeps the exact score.
fn perfect_line(b: &Board, memo: &mut Memo) -> Vec<usize> {
    let mut line = Vec::new();
    let mut b = b.clone();
    loop {
        if b.must_pass() && !b.game_over() {
            b = b.pass();
        }
        if b.game_over() {
            return line;
        }
        let v = negamax_memo(&b, false, memo);
        let m = b
            .moves()
            .into_iter()
            .find(|&m| -negamax_memo(&b.play(m), false, memo) == v)
            .expect("a move keeps the score");
        line.push(m);
        b = b.play(m);
    }
}

/// `b` after `line`'s first `k` moves, forced passes taken.
fn along(b: &Board, line: &[usize], k: usize) -> Board {
    let mut b = b.clone();
    for &m in &line[..k] {
        if b.must_pass() && !b.game_over() {
            b = b.pass();
        }
        b = b.play(m);
    }
    if b.must_pass() && !b.game_over() {
        b = b.pass();
    }
    b
}

fn cells(n: usize, squares: &[Square]) -> Vec<usize> {
    let mut v: Vec<usize> = squares.iter().map(|s| s.row() * n + s.col()).collect();
    v.sort_unstable();
    v
}

fn check(n: usize, games: usize, max_empties: i32, seen: &mut BTreeMap<&'static str, usize>) {
    let mut rng = Rng(0x5ea5 ^ n as u64);
    let mut memo = Memo::new();
    for _ in 0..games {
        let (plies, _) = random_game(&Board::start(n), &mut rng, 100);
        for ply in plies.iter().filter(|p| p.board.empties() <= max_empties && !p.board.must_pass()) {
            let before = &ply.board;
            let (mover, opp) = (before.to_move, before.to_move.other());
            let best_value = negamax_memo(before, false, &mut memo);
            let best = before
                .moves()
                .into_iter()
                .find(|&m| -negamax_memo(&before.play(m), false, &mut memo) == best_value)
                .unwrap();
            let after_best = before.play(best);
            let mut best_line = vec![best];
            best_line.extend(perfect_line(&after_best, &mut memo));
            for played in before.moves() {
                if -negamax_memo(&before.play(played), false, &mut memo) >= best_value {
                    continue;
                }
                let after_played = before.play(played);
                let refutation = perfect_line(&after_played, &mut memo);
                let position = to_position(before);
                let to_sq = |l: &[usize]| l.iter().map(|&c| square(n, c)).collect::<Vec<_>>();
                let found = reasons(&position, square(n, played), &to_sq(&refutation), &to_sq(&best_line));
                let at = || format!("{n}x{n} {} plays {}", before.board_string(), reference::name(n, played));
                assert!(found.len() <= MAX_REASONS, "{}", at());
                // Who replies: the opponent unless it must pass.
                let reply = (!after_played.must_pass()).then(|| refutation.first().copied()).flatten();
                let best_reply = (!after_best.must_pass()).then(|| best_line.get(1).copied()).flatten();
                let after_reply = along(&after_played, &refutation, usize::from(reply.is_some()));
                let after_best_reply = along(&after_best, &best_line[1..], usize::from(best_reply.is_some()));
                for r in &found {
                    *seen.entry(r.kind.name()).or_default() += 1;
                    let named = cells(n, &r.squares);
                    match r.kind {
                        ReasonKind::Corner => {
                            let c = reply.expect("a corner reason has a reply");
                            assert_eq!(named, [c], "{}", at());
                            assert!(corner_cells(n).contains(&c), "{}: not a corner", at());
                            assert!(!before.moves_for(opp).contains(&c), "{}: the corner was open before", at());
                            assert!(after_played.moves_for(opp).contains(&c), "{}", at());
                            assert_ne!(best_reply, Some(c), "{}: the best line takes it too", at());
                        }
                        ReasonKind::Mobility => {
                            let given = (after_played.moves_for(opp).len(), after_best.moves_for(opp).len());
                            let left = (after_reply.moves_for(mover).len(), after_best_reply.moves_for(mover).len());
                            let (a, b) = (r.counts.0 as usize, r.counts.1 as usize);
                            assert!(
                                (a, b) == given || (a, b) == left,
                                "{}: {:?} not {given:?} or {left:?}",
                                at(),
                                r.counts
                            );
                            assert!(a.abs_diff(b) >= 3, "{}", at());
                        }
                        ReasonKind::Stability => {
                            let theirs =
                                (after_reply.stable_cells(opp).len(), after_best_reply.stable_cells(opp).len());
                            let mine =
                                (after_reply.stable_cells(mover).len(), after_best_reply.stable_cells(mover).len());
                            let (a, b) = (r.counts.0 as usize, r.counts.1 as usize);
                            assert!((a, b) == theirs || (a, b) == mine, "{}: {:?}", at(), r.counts);
                            assert!(a.abs_diff(b) >= 2, "{}", at());
                        }
                        ReasonKind::Parity => {
                            assert!(after_played.empties() as u32 <= PARITY_EMPTIES, "{}", at());
                            let odd_for_opp = |b: &Board| -> Vec<usize> {
                                b.empty_regions()
                                    .into_iter()
                                    .filter(|reg| reg.len() % 2 == 1)
                                    .filter(|reg| {
                                        reg.iter().any(|c| b.moves_for(opp).contains(c))
                                            && !reg.iter().any(|c| b.moves_for(mover).contains(c))
                                    })
                                    .flatten()
                                    .collect()
                            };
                            let mut left = odd_for_opp(&after_played);
                            left.sort_unstable();
                            assert_eq!(named, left, "{}", at());
                            assert!(!named.is_empty() && odd_for_opp(&after_best).is_empty(), "{}", at());
                        }
                        ReasonKind::Frontier => {
                            let onto = |m: usize| {
                                let front = before.play(m).frontier_cells(mover);
                                let mut f: Vec<usize> =
                                    before.flips(m).into_iter().filter(|c| front.contains(c)).collect();
                                f.sort_unstable();
                                f
                            };
                            assert_eq!(named, onto(played), "{}", at());
                            assert_eq!(r.counts, (onto(played).len() as u32, onto(best).len() as u32), "{}", at());
                            assert!(onto(played).len() >= onto(best).len() + 3, "{}", at());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn every_reason_stated_on_4x4_and_6x6_is_true_of_the_perfect_lines() {
    let mut seen = BTreeMap::new();
    check(4, 300, 16, &mut seen);
    check(6, 40, 10, &mut seen);
    // The check checked something: corners and mobility are common on boards this small.
    for kind in ["corner", "mobility"] {
        assert!(seen.get(kind).copied().unwrap_or(0) > 10, "too few {kind} reasons: {seen:?}");
    }
}
