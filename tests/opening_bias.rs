//! No systematic bias on the 8x8 opening. The start is a draw under perfect play: Takizawa,
//! "Othello is Solved" (2023), arXiv:2310.19387, proves its value 0. So are its four first moves
//! (the images of one another under the board's symmetries, so all worth the start's value), and
//! the start's symmetric images (the rules do not change under a symmetry of the board).
//!
//! An estimate is not a proof, but a well-calibrated evaluation should not pull these positions
//! towards either side: every estimate of them, at every depth of the iterative deepening, must be
//! within one disc of 0, whether black (the start) or white (after the first move) is to move, so
//! the estimate's sign cannot follow the side to move.
//!
//! Both checks are ignored for now: the shipped weights (version 4) do not pass them yet. They
//! read the start within one disc at every depth from 1 to 20 but 4, where it reads +2, and the
//! position after f5 within one disc at every depth but 3, where it reads -2: the same leaves
//! (docs/eval.md, "The 8x8 opening", gives the figures; version 3 read +2 at depths 5, 9, 11 and
//! 13). Run them
//! with `cargo test --release --test opening_bias -- --ignored` (the one to 20 plies takes several
//! minutes on one core); they are what the next training must pass.

use othello_explorer::solver::{Kind, Limits, Report, SearchMode, Solver, SolverOptions};
use othello_explorer::symmetry::Symmetry;
use othello_explorer::{Position, Size, transcript};
use std::collections::BTreeMap;

/// The estimates of every child at every depth 1..=`depth`, from the side to move's point of
/// view: depth -> (move, value).
fn estimates(position: &Position, depth: u32) -> BTreeMap<u32, Vec<(String, i32)>> {
    let mut solver = Solver::new(SolverOptions { hash_mb: 128, threads: 1, ..SolverOptions::default() });
    let mut by_depth: BTreeMap<u32, Vec<(String, i32)>> = BTreeMap::new();
    solver.analyse(position, SearchMode::Estimate, Some(depth), &Limits::default(), &[], &mut |r| {
        if let Report::Child(c) = r
            && let Kind::Estimate { depth } = c.kind
        {
            by_depth.entry(depth).or_default().push((c.square.to_string(), c.score));
        }
    });
    by_depth
}

/// The positions the weak solution says are draws: the start, its images, and the four first
/// moves (white to move).
fn drawn_positions() -> Vec<(String, Position)> {
    let size = Size::Eight;
    let start = Position::start(size);
    let mut out = vec![("the start".to_string(), start)];
    let (black, white) = (start.black().bits(), start.white().bits());
    for g in Symmetry::ALL {
        let image = Position::new(size, g.apply(size, black), g.apply(size, white), start.to_move()).unwrap();
        if out.iter().all(|(_, p)| *p != image) {
            out.push((format!("the start under {g:?}"), image));
        }
    }
    for first in ["f5", "e6", "d3", "c4"] {
        out.push((format!("after {first}"), transcript::play(&start, first).unwrap().end()));
    }
    out
}

fn check(depth: u32) {
    let mut failures = Vec::new();
    for (name, position) in drawn_positions() {
        let by_depth = estimates(&position, depth);
        assert_eq!(by_depth.keys().copied().collect::<Vec<_>>(), (1..=depth).collect::<Vec<_>>(), "{name}");
        for (d, children) in &by_depth {
            // The position's estimate at depth d is its best child's.
            let value = children.iter().map(|c| c.1).max().unwrap();
            if value.abs() > 1 {
                failures.push(format!("{name}: {value:+} at depth {d} (children {children:?})"));
            }
            // The first moves are draws too: every child of the start.
            if name.starts_with("the start") {
                for (m, v) in children {
                    if v.abs() > 1 {
                        failures.push(format!("{name}, move {m}: {v:+} at depth {d}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "estimates more than one disc from the known draw:\n{}", failures.join("\n"));
}

#[test]
#[ignore = "the shipped weights miss it: docs/eval.md, \"The 8x8 opening\""]
fn the_drawn_opening_reads_as_a_draw_to_depth_14() {
    check(14);
}

#[test]
#[ignore = "several minutes, and the shipped weights miss it: docs/eval.md, \"The 8x8 opening\""]
fn the_drawn_opening_reads_as_a_draw_to_depth_20() {
    check(20);
}
