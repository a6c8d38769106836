//! The bitboard rules against the plain square-by-square reference in `tests/reference`: legal
//! moves, flips, play, pass, game end and scores, on random games and random disc placements of
//! every size, through [`Position`] and through the raw `rules::*::<N>` kernels.

mod common;
mod reference;

use common::{any_size, size_of, to_position};
use othello_explorer::{Color, IllegalMove, Position, Scoring, Square, board::rules};
use proptest::prelude::*;
use reference::{Board, Side, mask_of, name};
use std::collections::HashSet;

// ---- the boundary: reference boards to library values, by board masks and square names ----

fn color(side: Side) -> Color {
    match side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

fn square(n: usize, index: usize) -> Square {
    name(n, index).parse().expect("a square name")
}

/// Legal moves through the raw kernel of size `n`.
fn raw_legal(n: usize, p: u64, o: u64) -> u64 {
    match n {
        4 => rules::legal_moves::<4>(p, o),
        6 => rules::legal_moves::<6>(p, o),
        _ => rules::legal_moves::<8>(p, o),
    }
}

/// Flips through the raw kernel of size `n`.
fn raw_flips(n: usize, p: u64, o: u64, bit: u32) -> u64 {
    match n {
        4 => rules::flips::<4>(p, o, bit),
        6 => rules::flips::<6>(p, o, bit),
        _ => rules::flips::<8>(p, o, bit),
    }
}

fn raw_game_over(n: usize, p: u64, o: u64) -> bool {
    match n {
        4 => rules::is_game_over::<4>(p, o),
        6 => rules::is_game_over::<6>(p, o),
        _ => rules::is_game_over::<8>(p, o),
    }
}

fn raw_final_score(n: usize, p: u64, o: u64) -> i32 {
    match n {
        4 => rules::final_score::<4>(p, o),
        6 => rules::final_score::<6>(p, o),
        _ => rules::final_score::<8>(p, o),
    }
}

/// Checks every rule the library answers for `b` against the reference; returns a description of
/// the first disagreement.
fn check_agrees(b: &Board) -> Result<(), TestCaseError> {
    let n = b.n;
    let pos = to_position(b);
    let ctx = b.board_string();
    prop_assert_eq!(pos.black().bits(), b.black_bits(), "black of {}", ctx);
    prop_assert_eq!(pos.white().bits(), b.white_bits(), "white of {}", ctx);
    prop_assert_eq!(pos.empty().bits(), b.empty_bits(), "empty of {}", ctx);
    prop_assert_eq!(pos.to_move(), color(b.to_move));

    let moves = b.moves();
    let legal = mask_of(n, &moves);
    prop_assert_eq!(pos.legal_moves().bits(), legal, "legal moves of {}", ctx);
    prop_assert_eq!(pos.legal_moves().count() as usize, moves.len());

    let (p, o) = pos.raw();
    let (rp, ro) = (b.bits(b.to_move), b.bits(b.to_move.other()));
    prop_assert_eq!((p, o), (rp, ro), "raw discs of {}", ctx);
    prop_assert_eq!(raw_legal(n, rp, ro), legal, "rules::legal_moves::<{}> of {}", n, ctx);
    prop_assert_eq!(raw_legal(n, ro, rp), mask_of(n, &b.moves_for(b.to_move.other())), "opponent moves of {}", ctx);

    let game_over = b.game_over();
    for i in 0..n * n {
        let sq = square(n, i);
        let flips = mask_of(n, &b.flips(i));
        prop_assert_eq!(pos.flips(sq).bits(), flips, "flips of {} in {}", name(n, i), ctx);
        let bit = reference::bit_of(n, i % n, i / n);
        if b.cells[i].is_none() {
            prop_assert_eq!(raw_flips(n, rp, ro, bit), flips, "rules::flips::<{}> of {} in {}", n, name(n, i), ctx);
        }
        let played = pos.play(sq);
        if b.cells[i].is_some() {
            prop_assert_eq!(played, Err(IllegalMove::Occupied(sq)), "{} in {}", name(n, i), ctx);
        } else if flips != 0 {
            prop_assert_eq!(played, Ok(to_position(&b.play(i))), "play {} in {}", name(n, i), ctx);
        } else if game_over {
            prop_assert_eq!(played, Err(IllegalMove::GameOver(sq)), "{} in {}", name(n, i), ctx);
        } else if moves.is_empty() {
            prop_assert_eq!(played, Err(IllegalMove::MustPass(sq)), "{} in {}", name(n, i), ctx);
        } else {
            prop_assert_eq!(played, Err(IllegalMove::NoFlips(sq)), "{} in {}", name(n, i), ctx);
        }
    }
    // Squares beyond the board (on 4x4 and 6x6) flip nothing and cannot be played.
    for col in 0..8 {
        for row in 0..8 {
            if col >= n || row >= n {
                let sq = Square::new(col, row).expect("an 8x8 square");
                prop_assert!(pos.flips(sq).is_empty());
                prop_assert_eq!(pos.play(sq), Err(IllegalMove::OffBoard { square: sq, size: size_of(n) }));
            }
        }
    }

    prop_assert_eq!(pos.must_pass(), b.must_pass(), "must_pass of {}", ctx);
    prop_assert_eq!(pos.is_game_over(), game_over, "is_game_over of {}", ctx);
    prop_assert_eq!(raw_game_over(n, rp, ro), game_over, "rules::is_game_over of {}", ctx);
    prop_assert_eq!(pos.pass(), to_position(&b.pass()));
    let (after, passed) = pos.after_forced_pass();
    prop_assert_eq!(passed, b.must_pass());
    prop_assert_eq!(after, if b.must_pass() { to_position(&b.pass()) } else { pos });

    prop_assert_eq!(pos.score(Scoring::Standard), b.final_score(), "standard score of {}", ctx);
    prop_assert_eq!(raw_final_score(n, rp, ro), b.final_score(), "rules::final_score of {}", ctx);
    prop_assert_eq!(pos.score(Scoring::Discs), b.disc_difference(), "discs score of {}", ctx);
    prop_assert_eq!(pos.black_score(Scoring::Standard), b.for_black(b.final_score()));
    prop_assert_eq!(pos.black_score(Scoring::Discs), b.count(Side::Black) - b.count(Side::White));
    prop_assert_eq!(pos.disc_difference(), b.disc_difference());
    prop_assert_eq!(pos.empty_count() as i32, b.empties());
    Ok(())
}

/// Plays a game on the `n x n` board choosing move `choices[k] % moves` at ply `k` (the first
/// move once the choices run out), checking the library against the reference at every ply; the
/// library's own `play` and `pass` carry the game, so its state is what is checked.
fn play_checked_game(n: usize, choices: &[u16]) -> Result<(), TestCaseError> {
    let mut board = Board::start(n);
    let mut pos = Position::start(size_of(n));
    let mut ply = 0;
    loop {
        check_agrees(&board)?;
        prop_assert_eq!(pos, to_position(&board), "the game drifted at ply {}", ply);
        if board.game_over() {
            // The end: the score of the final position from both sides' point of view.
            prop_assert!(pos.is_game_over());
            prop_assert_eq!(pos.black_score(Scoring::Standard), board.for_black(board.final_score()));
            break;
        }
        let moves = board.moves();
        if moves.is_empty() {
            prop_assert!(pos.must_pass());
            board = board.pass();
            pos = pos.pass();
        } else {
            let pick = choices.get(ply).map_or(0, |&c| c as usize % moves.len());
            let m = moves[pick];
            board = board.play(m);
            pos = pos.play(square(n, m)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        ply += 1;
        prop_assert!(ply <= 2 * n * n, "a game cannot last {} plies", ply);
    }
    Ok(())
}

/// A board of `n x n` cells from a list of cell codes (0 empty, 1 black, 2 white).
fn board_from_codes(n: usize, codes: &[u8], black_to_move: bool) -> Board {
    let cells = codes
        .iter()
        .map(|c| match c {
            1 => Some(Side::Black),
            2 => Some(Side::White),
            _ => None,
        })
        .collect();
    Board { n, cells, to_move: if black_to_move { Side::Black } else { Side::White } }
}

/// Random disc placements: each cell empty, black or white with weights `e`, `b`, `w`.
fn random_placement(e: u32, b: u32, w: u32) -> impl Strategy<Value = Board> {
    any_size().prop_flat_map(move |n| {
        let cell = prop_oneof![e => Just(0u8), b => Just(1u8), w => Just(2u8)];
        (prop::collection::vec(cell, n * n), any::<bool>())
            .prop_map(move |(codes, black)| board_from_codes(n, &codes, black))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Random games of every size agree with the reference at every ply, to the final score.
    #[test]
    fn random_games_agree(n in any_size(), choices in prop::collection::vec(any::<u16>(), 0..70)) {
        play_checked_game(n, &choices)?;
    }

    /// Random placements, as many empty squares as discs of each side.
    #[test]
    fn random_placements_agree(board in random_placement(1, 1, 1)) {
        check_agrees(&board)?;
    }

    /// Sparse random placements: many empty squares, long runs of one side rare.
    #[test]
    fn sparse_placements_agree(board in random_placement(6, 1, 1)) {
        check_agrees(&board)?;
    }

    /// Nearly full random placements: the end of the game, passes and final scores.
    #[test]
    fn crowded_placements_agree(board in random_placement(1, 6, 6)) {
        check_agrees(&board)?;
    }

    /// One side's discs in long runs with a few of the other's: every edge and wrap-around case
    /// of the propagation.
    #[test]
    fn lopsided_placements_agree(board in random_placement(3, 1, 8)) {
        check_agrees(&board)?;
    }
}

/// Every position reachable on 4x4 agrees with the reference.
#[test]
fn every_reachable_4x4_position_agrees() {
    let mut seen = HashSet::new();
    let mut stack = vec![Board::start(4)];
    while let Some(board) = stack.pop() {
        if !seen.insert(board.clone()) {
            continue;
        }
        if let Err(e) = check_agrees(&board) {
            panic!("{e}");
        }
        let moves = board.moves();
        if moves.is_empty() {
            if !board.game_over() {
                stack.push(board.pass());
            }
        } else {
            stack.extend(moves.into_iter().map(|m| board.play(m)));
        }
    }
    // Sanity: the walk reached the whole small tree (positions with the side to move).
    assert!(seen.len() > 1000, "only {} positions", seen.len());
}

/// The boards the project fixes: start positions and the 8x8 first moves.
#[test]
fn fixed_start_positions() {
    for n in [4, 6, 8] {
        let start = Board::start(n);
        assert_eq!(Position::start(size_of(n)), to_position(&start));
        assert_eq!(Position::start(size_of(n)).legal_moves().bits(), mask_of(n, &start.moves()));
    }
    assert_eq!(Board::start(4).black_bits(), 0x0240);
    assert_eq!(Board::start(4).white_bits(), 0x0420);
    assert_eq!(Board::start(8).black_bits(), 0x0000_0008_1000_0000);
    assert_eq!(Board::start(8).white_bits(), 0x0000_0010_0800_0000);
    let names: Vec<String> = Board::start(8).moves().into_iter().map(|i| name(8, i)).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    let names: Vec<String> = Board::start(4).moves().into_iter().map(|i| name(4, i)).collect();
    assert_eq!(names, ["b1", "a2", "d3", "c4"]);
}
