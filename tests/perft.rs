//! Perft against published figures (8x8, Aart Bik's table; 4x4, the number of possible games) and
//! against the naive perft of the reference rules in `tests/reference` (4x4, 6x6, 8x8, from the
//! start, from mid-game positions, around passes and game ends, and on random placements).
//!
//! Convention: a pass is a ply, a game that ends before the depth counts as one leaf.
//!
//! Depths the reference confirms here (it walks every cell in every direction at every node, a
//! little over a second for its deepest count in the optimised test profile):
//! - 4x4: the whole game tree. Every game is over by ply 15, so from depth 15 on the count is
//!   the number of games, 60,060.
//! - 6x6: depth 9, 2,114,912 leaves (depth 10, 14,976,792 leaves, takes the reference ~9 s).
//! - 8x8: depth 8, 390,216 leaves, and the library to depth 9 against Aart Bik's table.

mod common;
mod reference;

use common::to_position;
use othello_explorer::board::perft::{perft, perft_n};
use othello_explorer::{Position, Size};
use reference::{Board, Rng, random_game};

/// Aart Bik's published perft of 8x8 from the start, depths 1 to 9.
const BIK_8X8: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

#[test]
fn eight_by_eight_matches_bik_to_depth_9() {
    let start = Position::start(Size::Eight);
    let counts: Vec<u64> = (1..=9).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, BIK_8X8);
    assert_eq!(perft(&start, 0), 1);
}

#[test]
fn reference_perft_matches_bik_to_depth_8() {
    // The reference itself is checked against the published figures before it judges anything.
    let start = Board::start(8);
    let counts: Vec<u64> = (1..=8).map(|d| start.perft(d)).collect();
    assert_eq!(counts, BIK_8X8[..8]);
}

/// The number of possible 4x4 games from the start: 4 x 15,015, where 15,015 is the count the
/// "Reversi NxN" blog publishes (reversi-nxn.blogspot.com, "Number of distinct NxN Reversi
/// games", 2008) for games told apart after the first move, the four first moves being the same
/// up to symmetry.
const GAMES_4X4: u64 = 4 * 15_015;

/// 4x4 from the start, depths 1 to 15, as the reference counts them (asserted below).
const START_4X4: [u64; 15] = [4, 12, 44, 128, 424, 1256, 3624, 9116, 20044, 36540, 50704, 57436, 59564, 59980, 60060];

#[test]
fn four_by_four_whole_tree_matches_reference() {
    let start = Board::start(4);
    let pos = Position::start(Size::Four);
    for depth in 1..=16 {
        let expected = start.perft(depth);
        let known = START_4X4.get(depth as usize - 1).copied().unwrap_or(GAMES_4X4);
        assert_eq!(expected, known, "reference 4x4 perft {depth}");
        assert_eq!(perft(&pos, depth), expected, "4x4 perft {depth}");
    }
    // Past the longest game, nothing changes.
    for depth in [20, 24, 40] {
        assert_eq!(perft(&pos, depth), GAMES_4X4, "4x4 perft {depth}");
    }
}

/// 6x6 from the start, depths 1 to 9, as the reference counts them (asserted below).
const START_6X6: [u64; 9] = [4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912];

#[test]
fn six_by_six_matches_reference_to_depth_9() {
    let start = Board::start(6);
    let pos = Position::start(Size::Six);
    for (d, &known) in START_6X6.iter().enumerate() {
        let depth = d as u32 + 1;
        let expected = start.perft(depth);
        assert_eq!(expected, known, "reference 6x6 perft {depth}");
        assert_eq!(perft(&pos, depth), expected, "6x6 perft {depth}");
    }
}

/// Boards from random games (deterministic seeds) of the `n x n` board, every seventh ply of
/// each game.
fn game_positions(n: usize, seed: u64, games: usize) -> Vec<Board> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let (plies, _) = random_game(&Board::start(n), &mut rng, usize::MAX);
        for ply in plies.iter().step_by(7) {
            out.push(ply.board.clone());
        }
    }
    out
}

#[test]
fn mid_game_positions_match_reference() {
    for (n, depth, games) in [(4, 8, 10), (6, 5, 6), (8, 4, 4)] {
        for board in game_positions(n, 0x5eed + n as u64, games) {
            let pos = to_position(&board);
            for d in 1..=depth {
                assert_eq!(perft(&pos, d), board.perft(d), "perft {d} of {}", board.board_string());
            }
        }
    }
}

/// Positions a few plies before a forced pass, the pass position itself and the one after it,
/// found in random games; and finished games.
#[test]
fn positions_around_passes_and_game_ends_match_reference() {
    let mut passes = 0;
    let mut ends = 0;
    for n in [4, 6, 8] {
        let mut rng = Rng(0xba55 + n as u64);
        for _ in 0..60 {
            let (plies, last) = random_game(&Board::start(n), &mut rng, usize::MAX);
            for (k, ply) in plies.iter().enumerate() {
                if ply.mv.is_none() {
                    passes += 1;
                    assert!(ply.board.must_pass());
                    for back in [0, 1, 3] {
                        let board = &plies[k.saturating_sub(back)].board;
                        let pos = to_position(board);
                        for d in 1..=5 {
                            assert_eq!(perft(&pos, d), board.perft(d), "perft {d} of {}", board.board_string());
                        }
                    }
                }
            }
            ends += 1;
            assert!(last.game_over());
            let pos = to_position(&last);
            for d in 0..=4 {
                assert_eq!(perft(&pos, d), 1, "a finished game is one leaf at depth {d}");
            }
        }
    }
    assert!(passes >= 10, "only {passes} passes found: pick other seeds");
    assert!(ends > 0);
}

#[test]
fn random_placements_match_reference() {
    // Positions no game reaches still follow the same rules.
    let mut rng = Rng(0xfeed);
    for n in [4, 6, 8] {
        for _ in 0..40 {
            let board = reference::random_board(n, &mut rng);
            let pos = to_position(&board);
            for d in 1..=3 {
                assert_eq!(perft(&pos, d), board.perft(d), "perft {d} of {}", board.board_string());
            }
        }
    }
}

#[test]
fn raw_perft_agrees_with_position_perft() {
    let pos = Position::start(Size::Eight);
    let (p, o) = pos.raw();
    assert_eq!(perft_n::<8>(p, o, 6), BIK_8X8[5]);
    let pos = Position::start(Size::Four);
    let (p, o) = pos.raw();
    assert_eq!(perft_n::<4>(p, o, 30), GAMES_4X4);
}
