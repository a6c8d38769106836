//! The search lab: its four methods agree on the score, with each other and with a plain negamax
//! over the square-by-square reference rules; too-deep positions are refused; a raised stop flag
//! cancels.

mod common;
mod reference;

use common::to_position;
use othello_explorer::studies::lab::{
    LabError, MAX_EMPTIES_ALPHA_BETA, MAX_EMPTIES_FASTEST_FIRST, MAX_EMPTIES_NEGAMAX, MAX_EMPTIES_SOLVER, Method,
    compare, run,
};
use othello_explorer::{Position, Scoring, Size};
use reference::{Board, Rng, random_game};
use std::sync::atomic::AtomicBool;

/// Negamax over the reference board: the exact score from the side to move, empties to the
/// winner.
fn reference_score(b: &Board) -> i32 {
    if b.game_over() {
        return b.final_score();
    }
    let moves = b.moves();
    if moves.is_empty() {
        return -reference_score(&b.pass());
    }
    moves.into_iter().map(|m| -reference_score(&b.play(m))).max().unwrap()
}

/// Positions of every size with `empties` empty squares, from random games.
fn positions(n: usize, empties: usize, count: usize, rng: &mut Rng) -> Vec<Board> {
    let mut out = Vec::new();
    while out.len() < count {
        let (plies, end) = random_game(&Board::start(n), rng, 200);
        if let Some(p) = plies.iter().find(|p| p.board.empties() as usize == empties) {
            out.push(p.board.clone());
        } else if end.empties() as usize == empties {
            out.push(end);
        }
    }
    out
}

#[test]
fn the_four_methods_agree_with_each_other_and_the_reference() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng(0x1ab);
    for n in [4, 6, 8] {
        for empties in [1, 4, 8, 10] {
            for b in positions(n, empties, 3, &mut rng) {
                let p = to_position(&b);
                let expected = reference_score(&b);
                for method in Method::ALL {
                    let r = run(method, &p, Scoring::Standard, &stop).unwrap();
                    assert_eq!(r.score, expected, "{method} on {p}");
                    assert!(r.nodes >= 1);
                }
            }
        }
    }
}

#[test]
fn the_4x4_start_is_a_loss_by_10_and_ordering_saves_nodes() {
    let stop = AtomicBool::new(false);
    let start = Position::start(Size::Four);
    let mut runs = Vec::new();
    compare(&start, Scoring::Standard, &stop, &mut |r| runs.push(r.unwrap()));
    assert_eq!(runs.iter().map(|r| r.score).collect::<Vec<_>>(), [-10; 4]);
    // Discs scoring: -8, the 4x4 article's figure.
    assert_eq!(run(Method::FastestFirst, &start, Scoring::Discs, &stop).unwrap().score, -8);
    assert_eq!(run(Method::Negamax, &start, Scoring::Discs, &stop).unwrap().score, -8);
    assert!(runs[1].nodes < runs[0].nodes, "alpha-beta visits fewer nodes than negamax");
    assert!(runs[2].nodes < runs[1].nodes, "ordering helps alpha-beta");
}

#[test]
fn deep_positions_are_refused_and_a_raised_flag_cancels() {
    let stop = AtomicBool::new(false);
    let start = Position::start(Size::Eight);
    let err = run(Method::Negamax, &start, Scoring::Standard, &stop).unwrap_err();
    assert_eq!(err, LabError::TooDeep { method: Method::Negamax, empties: 60, limit: MAX_EMPTIES_NEGAMAX });
    assert!(err.to_string().starts_with("negamax refuses positions with more than"), "{err}");
    let err = run(Method::AlphaBeta, &start, Scoring::Standard, &stop).unwrap_err();
    assert!(matches!(err, LabError::TooDeep { limit: MAX_EMPTIES_ALPHA_BETA, .. }));
    let err = run(Method::FastestFirst, &start, Scoring::Standard, &stop).unwrap_err();
    assert!(matches!(err, LabError::TooDeep { limit: MAX_EMPTIES_FASTEST_FIRST, .. }));
    let err = run(Method::Solver, &start, Scoring::Standard, &stop).unwrap_err();
    assert!(matches!(err, LabError::TooDeep { limit: MAX_EMPTIES_SOLVER, .. }));
    // FFO #40: 20 empties, within the limits of the last two, which a raised flag stops.
    let ffo40 = othello_explorer::notation::obf::parse_board(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    )
    .unwrap();
    let start = ffo40;
    let raised = AtomicBool::new(true);
    assert!(matches!(
        run(Method::FastestFirst, &start, Scoring::Standard, &raised),
        Err(LabError::Cancelled { method: Method::FastestFirst, .. })
    ));
    assert!(matches!(
        run(Method::Solver, &start, Scoring::Standard, &raised),
        Err(LabError::Cancelled { method: Method::Solver, .. })
    ));
    let mut results = Vec::new();
    compare(&start, Scoring::Standard, &raised, &mut |r| results.push(r));
    assert!(results.iter().all(|r| r.is_err()));
}
