//! The one store-aware analysis ([`Analyst`]) against plain negamax over the reference rules:
//! every child's value, the ranking, what the store answers and what it keeps, the line.

mod reference;

use othello_explorer::analyst::{Analyst, Ask, Event, LineRule};
use othello_explorer::solver::{Kind, Limits, Report, SearchMode, Solver, SolverOptions};
use othello_explorer::store::{Source, Store, Stored};
use othello_explorer::{Color, Position, Scoring, Size, Square};
use reference::{Board, Side, negamax};

fn board(p: &Position) -> Board {
    let (black, white) = (p.black().bits(), p.white().bits());
    let side = if p.to_move() == Color::Black { Side::Black } else { Side::White };
    Board::from_bits(p.size().n(), black, white, side)
}

/// Every child's exact score by the reference, from the side to move.
fn reference_children(p: &Position) -> Vec<(Square, i32)> {
    p.legal_moves().reading_order().into_iter().map(|sq| (sq, -negamax(&board(&p.play(sq).unwrap())))).collect()
}

/// A 6x6 position `plies` into a fixed line (32 - plies empties, give or take a pass) (the first legal move, then the last, alternately).
fn six(plies: usize) -> Position {
    let mut position = Position::start(Size::Six);
    for ply in 0..plies {
        let moves = position.legal_moves().reading_order();
        let m = if ply % 2 == 0 { moves[0] } else { *moves.last().unwrap() };
        position = position.play(m).unwrap().after_forced_pass().0;
    }
    position
}

fn analyst(store: Option<Store>) -> Analyst {
    Analyst::new(Solver::new(SolverOptions { hash_mb: 4, threads: 1, ..SolverOptions::default() }), store)
}

#[test]
fn exact_children_are_the_reference_values_ranked_best_first_with_a_perfect_line() {
    for plies in [23, 24, 25] {
        let position = six(plies);
        let want = reference_children(&position);
        let ask = Ask { line: LineRule::Best, ..Ask::new(SearchMode::Exact, Limits::default()) };
        let verdict = analyst(None).analyse(&position, &ask, &mut |_| {});
        let mut got: Vec<(Square, i32)> = verdict.children.iter().map(|c| (c.square, c.score)).collect();
        assert!(verdict.children.iter().all(|c| c.kind == Kind::Exact));
        assert!(got.windows(2).all(|w| (w[0].1, std::cmp::Reverse(w[0].0)) > (w[1].1, std::cmp::Reverse(w[1].0))));
        got.sort();
        let mut want_sorted = want.clone();
        want_sorted.sort();
        assert_eq!(got, want_sorted, "after {plies} plies");
        // The line keeps the score at every step, by the reference.
        let line = verdict.line.expect("a line");
        assert!(line.proven);
        let best = want.iter().map(|w| w.1).max().unwrap();
        assert_perfect_line(&position, &line.moves, best);
    }
}

/// `moves` from `position` play to the end of the game, each keeping the score by the reference,
/// and end on `best`.
fn assert_perfect_line(position: &Position, moves: &[Square], best: i32) {
    let mut b = board(position);
    let mut sign = 1;
    for &sq in moves {
        if b.must_pass() {
            b = b.pass();
            sign = -sign;
        }
        let index = sq.index(position.size());
        assert_eq!(-negamax(&b.play(index)), negamax(&b), "{sq} keeps the score");
        b = b.play(index);
        sign = -sign;
    }
    assert!(b.game_over());
    let end = if sign == 1 { b.final_score() } else { -b.final_score() };
    assert_eq!(end, best, "the line ends on the score");
}

#[test]
fn symmetric_twins_on_two_threads_get_one_score_and_a_perfect_line() {
    // The 4x4 start's four moves are symmetric images: one group, one search shared by the two
    // threads, and the line starts from the child searched.
    let position = Position::start(Size::Four);
    let want = reference_children(&position);
    let solver = Solver::new(SolverOptions { hash_mb: 4, threads: 2, ..SolverOptions::default() });
    let ask = Ask { line: LineRule::Best, ..Ask::new(SearchMode::Exact, Limits::default()) };
    let verdict = Analyst::new(solver, None).analyse(&position, &ask, &mut |_| {});
    let mut got: Vec<(Square, i32)> = verdict.children.iter().map(|c| (c.square, c.score)).collect();
    assert!(verdict.children.iter().all(|c| c.kind == Kind::Exact));
    got.sort();
    assert_eq!(got, want);
    let line = verdict.line.expect("a line");
    assert!(line.proven);
    assert_perfect_line(&position, &line.moves, want.iter().map(|w| w.1).max().unwrap());
}

#[test]
fn the_store_answers_what_it_knows_and_keeps_what_the_search_proves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let position = six(23);
    let want = reference_children(&position);
    // Store one child's exact value, and a proven win for another.
    let store = Store::open(&path).unwrap();
    let first = want[0];
    let child = |sq: Square| position.play(sq).unwrap();
    store.put_many(&[(child(first.0), Scoring::Standard, Stored::exact(-first.1, None, Source::Import))]).unwrap();
    let mut a = analyst(Some(store));
    let mut reports = Vec::new();
    let verdict = a.analyse(&position, &Ask::new(SearchMode::Exact, Limits::default()), &mut |e| reports.push(e));
    assert_eq!(verdict.from_store, vec![first.0]);
    // The stored value is reported before any search.
    assert_eq!(
        reports.first(),
        Some(&Event::Report(Report::Child(othello_explorer::solver::ChildValue {
            square: first.0,
            score: first.1,
            kind: Kind::Exact
        })))
    );
    for (sq, score) in &want {
        let c = verdict.children.iter().find(|c| c.square == *sq).expect("every child");
        assert_eq!((c.score, c.kind), (*score, Kind::Exact), "{sq}");
    }
    // What was proven is kept: every child, and the position itself.
    let store = a.store().unwrap();
    for (sq, score) in &want {
        let s = store.get(&child(*sq), Scoring::Standard).unwrap().expect("kept");
        assert_eq!((s.lower, s.upper), (-score, -score), "{sq}");
    }
    let best = want.iter().map(|w| w.1).max().unwrap();
    let s = store.get(&position, Scoring::Standard).unwrap().expect("the position kept");
    assert_eq!((s.lower, s.upper), (best, best));
    // In the win/loss/draw mode an exact value answers as its outcome, and is not searched.
    let verdict = a.analyse(&position, &Ask::new(SearchMode::Wld, Limits::default()), &mut |_| {});
    assert_eq!(verdict.from_store.len(), want.len());
    assert_eq!(verdict.nodes, 0, "nothing left to search");
    for (sq, score) in &want {
        let c = verdict.children.iter().find(|c| c.square == *sq).expect("every child");
        assert_eq!((c.score, c.kind), (score.signum(), Kind::Wld), "{sq}");
    }
}

#[test]
fn estimates_do_not_consult_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let position = six(23);
    let want = reference_children(&position);
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let child = position.play(want[0].0).unwrap();
    store.put_many(&[(child, Scoring::Standard, Stored::exact(-want[0].1, None, Source::Import))]).unwrap();
    let ask = Ask { max_depth: Some(2), ..Ask::new(SearchMode::Estimate, Limits::default()) };
    let verdict = analyst(Some(store)).analyse(&position, &ask, &mut |_| {});
    assert!(verdict.from_store.is_empty());
    assert_eq!(verdict.children.len(), want.len());
    assert!(verdict.children.iter().all(|c| c.kind == Kind::estimate(2)), "{:?}", verdict.children);
}
