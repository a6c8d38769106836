//! The concepts players reason with (`board::concepts`) against their square-by-square twins in
//! `tests/reference`: stable discs, frontier discs, potential mobility, the empty regions with
//! who can move into them, corners with X- and C-squares, and mobility, on 100,000 random
//! positions of every size (random arrangements and the positions of random games); and the
//! `explain` traces of the four new topics ending at the same masks.

mod common;
mod reference;

use common::{size_of, to_position};
use othello_explorer::board::concepts::{
    Concepts, c_squares, corner_of, corners, frontier, potential_mobility, regions, regions_of, stable, x_squares,
};
use othello_explorer::studies::trace::{Topic, Value, trace};
use reference::{Board, Rng, Side, c_cells, corner_cells, mask_of, random_board, random_game, x_cells};

const POSITIONS: usize = 100_000;

/// `count` positions of `n x n`: a third random arrangements, the rest every ply of random games.
fn boards(n: usize, count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        if out.len() % 3 == 0 {
            out.push(random_board(n, &mut rng));
        } else {
            let (plies, end) = random_game(&Board::start(n), &mut rng, 100);
            out.extend(plies.into_iter().map(|p| p.board));
            out.push(end);
        }
    }
    out.truncate(count);
    out
}

fn check_size(n: usize) {
    let size = size_of(n);
    assert_eq!(corners(size), mask_of(n, &corner_cells(n)), "{n}x{n} corners");
    assert_eq!(x_squares(size), mask_of(n, &x_cells(n)), "{n}x{n} x-squares");
    assert_eq!(c_squares(size), mask_of(n, &c_cells(n)), "{n}x{n} c-squares");
    let mut seen = [0usize; 4];
    for b in boards(n, POSITIONS, 0xc0de ^ n as u64) {
        let (black, white) = (b.black_bits(), b.white_bits());
        let at = || format!("{n}x{n} {}", b.board_string());
        for (side, own, other) in [(Side::Black, black, white), (Side::White, white, black)] {
            assert_eq!(stable(size, own, other), mask_of(n, &b.stable_cells(side)), "stable {side:?} {}", at());
            assert_eq!(frontier(size, own, other), mask_of(n, &b.frontier_cells(side)), "frontier {side:?} {}", at());
            assert_eq!(
                potential_mobility(size, own, other),
                mask_of(n, &b.potential_cells(side)),
                "potential {side:?} {}",
                at()
            );
        }
        let expected: Vec<u64> = b.empty_regions().iter().map(|r| mask_of(n, r)).collect();
        assert_eq!(regions(size, black | white), expected, "regions {}", at());
        let (p, o, mover) = match b.to_move {
            Side::Black => (black, white, Side::Black),
            Side::White => (white, black, Side::White),
        };
        let (mine, theirs) = (mask_of(n, &b.moves_for(mover)), mask_of(n, &b.moves_for(mover.other())));
        for r in regions_of(size, p, o) {
            assert_eq!((r.mover, r.opponent), (mine & r.squares, theirs & r.squares), "region moves {}", at());
            seen[usize::from(r.is_odd())] += 1;
        }
        let c = Concepts::of(size, black, white, b.to_move == Side::Black);
        let (bm, wm) = (mask_of(n, &b.moves_for(Side::Black)), mask_of(n, &b.moves_for(Side::White)));
        assert_eq!(c.mobility, [bm, wm], "mobility {}", at());
        assert_eq!(c.mobility_difference(), bm.count_ones() as i32 - wm.count_ones() as i32);
        assert_eq!(c.corners_open, [bm & corners(size), wm & corners(size)], "corners {}", at());
        // An X-square with a disc beside its empty corner, by cells.
        let risky: Vec<usize> = x_cells(n)
            .into_iter()
            .filter(|&x| {
                corner_cells(n).into_iter().any(|k| {
                    let (kc, kr, xc, xr) = (k % n, k / n, x % n, x / n);
                    kc.abs_diff(xc) == 1 && kr.abs_diff(xr) == 1 && b.cells[k].is_none()
                })
            })
            .collect();
        let risky = mask_of(n, &risky);
        assert_eq!(c.x_risk, [black & risky, white & risky], "x-squares {}", at());
        seen[2] += usize::from(c.stable != [0, 0]);
        seen[3] += usize::from(c.x_risk != [0, 0]);
    }
    // The comparison saw each case (odd and even regions, stable discs, risky X-squares).
    assert!(seen.iter().all(|&k| k > 100), "{n}x{n}: a case was never met: {seen:?}");
    for x in reference::cells_of(n, x_squares(size)) {
        assert_eq!(corner_of(size, mask_of(n, &[x])).count_ones(), 1, "{n}x{n}: one corner beside each x");
    }
}

#[test]
fn the_concepts_match_their_square_by_square_twins_on_4x4() {
    check_size(4);
}

#[test]
fn the_concepts_match_their_square_by_square_twins_on_6x6() {
    check_size(6);
}

#[test]
fn the_concepts_match_their_square_by_square_twins_on_8x8() {
    check_size(8);
}

/// The traces of `explain stable`, `frontier`, `regions` and `corners` end at the concepts'
/// masks, computed square by square.
#[test]
fn the_concept_traces_end_at_the_reference_masks() {
    for n in [4, 6, 8] {
        for b in boards(n, 600, 0x7ace ^ n as u64) {
            let position = to_position(&b);
            let mover = b.to_move;
            let mask = |topic| match trace(topic, &position, None).unwrap().result {
                Value::Mask(m) => m.bits(),
                other => panic!("{topic}: {other:?}"),
            };
            assert_eq!(mask(Topic::Stable), mask_of(n, &b.stable_cells(mover)));
            assert_eq!(mask(Topic::Frontier), mask_of(n, &b.frontier_cells(mover)));
            let odd: Vec<usize> = b.empty_regions().into_iter().filter(|r| r.len() % 2 == 1).flatten().collect();
            assert_eq!(mask(Topic::Regions), mask_of(n, &odd));
            let corners_now: Vec<usize> =
                b.moves_for(mover).into_iter().filter(|m| corner_cells(n).contains(m)).collect();
            assert_eq!(mask(Topic::Corners), mask_of(n, &corners_now));
        }
    }
}
