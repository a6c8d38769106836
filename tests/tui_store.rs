//! The explorer's solver thread with a store: what it proves is kept, a symmetric twin is
//! answered from the store without a search, the shipped 6x6 book answers the opening at once,
//! two explorers (and a third program) share one store, each answering from what the other kept,
//! and a damaged store is reported and the explorer goes on without it.

use othello_explorer::board::symmetry::Symmetry;
use othello_explorer::solver::{DEFAULT_SELECTIVITY, Kind, Limits, Solver, SolverOptions};
use othello_explorer::store::Store;
use othello_explorer::tui::testing::app::Msg;
use othello_explorer::tui::testing::worker::{EventKind, Worker};
use othello_explorer::{Position, Scoring, Size, Square};
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Events of `job` until `until` holds for one (or the thread stops reporting for a minute).
fn collect(rx: &Receiver<Msg>, job: u64, until: impl Fn(&EventKind) -> bool) -> Vec<EventKind> {
    let mut out = Vec::new();
    while let Ok(msg) = rx.recv_timeout(Duration::from_secs(60)) {
        let Msg::Solver(ev) = msg else { continue };
        if ev.job != job {
            continue;
        }
        let done = until(&ev.kind);
        out.push(ev.kind);
        if done {
            return out;
        }
    }
    panic!("the solver thread went quiet; events so far: {out:?}");
}

fn exact_children(events: &[EventKind]) -> HashMap<Square, i32> {
    let mut m = HashMap::new();
    for e in events {
        if let EventKind::Child(c) = e
            && c.kind == Kind::Exact
        {
            m.insert(c.square, c.score);
        }
    }
    m
}

/// A 6x6 position with 18 empties: solved in well under a second. Fourteen plies, alternately the
/// first and the last legal move in reading order.
fn fourteen_plies_in() -> Position {
    let mut position = Position::start(Size::Six);
    for ply in 0..14 {
        let moves = position.legal_moves().reading_order();
        let m = if ply % 2 == 0 { moves[0] } else { *moves.last().unwrap() };
        position = position.play(m).unwrap().after_forced_pass().0;
    }
    position
}

fn options() -> SolverOptions {
    SolverOptions { hash_mb: 16, ..SolverOptions::default() }
}

#[test]
fn what_is_proven_is_kept_and_a_twin_is_answered_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let position = fourteen_plies_in();
    assert_ne!(othello_explorer::board::symmetry::canonical(&position).1, Symmetry::ALL[0]);
    assert!(position.legal_moves().count() > 1);
    let mut reference = Solver::new(options());
    let expected: HashMap<Square, i32> = reference
        .score_children(&position, &Limits::default(), &mut |_| {})
        .unwrap()
        .into_iter()
        .map(|c| (c.square, c.score))
        .collect();

    let (tx, rx) = channel();
    let mut worker = Worker::spawn(options(), Some(path.clone()), tx).unwrap();
    worker.analyse(1, position, DEFAULT_SELECTIVITY);
    let events = collect(&rx, 1, |k| matches!(k, EventKind::Pv { .. }));
    assert_eq!(exact_children(&events), expected);
    drop(worker);

    // The store holds every child and the position itself.
    let store = Store::open(&path).unwrap();
    for (&square, &score) in &expected {
        let child = position.play(square).unwrap();
        assert_eq!(store.get(&child, Scoring::Standard).unwrap().and_then(|s| s.score()), Some(-score));
    }
    let best = expected.values().max().copied();
    assert_eq!(store.get(&position, Scoring::Standard).unwrap().and_then(|s| s.score()), best);
    drop(store);

    // A mirror image, in a new explorer: every child exact from the store, with no search.
    let mirror = Symmetry::ALL[3];
    let twin = mirror.apply_position(&position);
    let (tx, rx) = channel();
    let mut worker = Worker::spawn(options(), Some(path.clone()), tx).unwrap();
    worker.analyse(2, twin, DEFAULT_SELECTIVITY);
    let events = collect(&rx, 2, |k| matches!(k, EventKind::ChildrenDone { .. }));
    let mirrored: HashMap<Square, i32> =
        expected.iter().map(|(&sq, &score)| (mirror.apply_square(Size::Six, sq), score)).collect();
    assert_eq!(exact_children(&events), mirrored);
    assert!(
        events.iter().any(|k| matches!(k, EventKind::ChildrenDone { nodes: 0, .. })),
        "answered without searching: {events:?}"
    );
}

#[test]
fn two_explorers_share_one_store_and_answer_from_each_others_results() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    // A third program holds the store open throughout.
    let held = Store::open(&path).unwrap();
    let position = fourteen_plies_in();
    let mut reference = Solver::new(options());
    let expected: HashMap<Square, i32> = reference
        .score_children(&position, &Limits::default(), &mut |_| {})
        .unwrap()
        .into_iter()
        .map(|c| (c.square, c.score))
        .collect();
    let (tx_a, rx_a) = channel();
    let mut a = Worker::spawn(options(), Some(path.clone()), tx_a).unwrap();
    let (tx_b, rx_b) = channel();
    let mut b = Worker::spawn(options(), Some(path.clone()), tx_b).unwrap();
    // The first explorer solves the position.
    a.analyse(1, position, DEFAULT_SELECTIVITY);
    let events = collect(&rx_a, 1, |k| matches!(k, EventKind::Pv { .. }));
    assert_eq!(exact_children(&events), expected);
    // The second, open all along, answers a mirror image from what the first kept: no search.
    let mirror = Symmetry::ALL[3];
    let twin = mirror.apply_position(&position);
    b.analyse(1, twin, DEFAULT_SELECTIVITY);
    let events = collect(&rx_b, 1, |k| matches!(k, EventKind::ChildrenDone { .. }));
    let mirrored: HashMap<Square, i32> =
        expected.iter().map(|(&sq, &score)| (mirror.apply_square(Size::Six, sq), score)).collect();
    assert_eq!(exact_children(&events), mirrored);
    assert!(events.iter().any(|k| matches!(k, EventKind::ChildrenDone { nodes: 0, .. })), "{events:?}");
    // Neither explorer was told anything went wrong with the store.
    drop((a, b));
    for msg in rx_a.try_iter().chain(rx_b.try_iter()) {
        assert!(!matches!(&msg, Msg::Notice { error: true, .. }), "{msg:?}");
    }
    // And the program holding it sees the result.
    let best = expected.values().max().copied();
    assert_eq!(held.get(&position, Scoring::Standard).unwrap().and_then(|s| s.score()), best);
}

#[test]
fn a_damaged_store_is_reported_and_the_explorer_goes_on_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    std::fs::write(&path, b"this is not a database, just some bytes that happen to be here").unwrap();
    let (tx, rx) = channel();
    let mut worker = Worker::spawn(options(), Some(path.clone()), tx).unwrap();
    let first = rx.recv_timeout(Duration::from_secs(60)).unwrap();
    assert!(matches!(&first, Msg::Notice { error: true, text } if text.contains("running without it")));
    worker.analyse(1, Position::start(Size::Four), DEFAULT_SELECTIVITY);
    let events = collect(&rx, 1, |k| matches!(k, EventKind::Pv { .. }));
    assert_eq!(exact_children(&events).len(), 4);
    // Nothing was lost: the file is as it was.
    assert!(std::fs::read(&path).unwrap().starts_with(b"this is not a database"));
}

#[test]
fn the_6x6_opening_comes_from_the_shipped_book_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let (tx, rx) = channel();
    let mut worker = Worker::spawn(options(), Some(path), tx).unwrap();
    // The start and a position two plies in: every child exact, with no search at all.
    let start = Position::start(Size::Six);
    let c2 = start.play("c2".parse().unwrap()).unwrap();
    for (job, position) in [(1, start), (2, c2)] {
        worker.analyse(job, position, DEFAULT_SELECTIVITY);
        let events = collect(&rx, job, |k| matches!(k, EventKind::ChildrenDone { .. }));
        let children = exact_children(&events);
        assert_eq!(children.len(), position.legal_moves().count() as usize, "{events:?}");
        assert!(events.iter().any(|k| matches!(k, EventKind::ChildrenDone { nodes: 0, .. })), "{events:?}");
        if job == 1 {
            // White wins 20-16 with perfect play (Feinstein, 1993): every first move scores -4.
            assert!(children.values().all(|&s| s == -4), "{children:?}");
        }
    }
}

/// A 6x6 game of moves picked by a fixed xorshift sequence, as a transcript.
fn random_6x6_game(mut seed: u64) -> String {
    let mut p = Position::start(Size::Six);
    let mut text = String::new();
    while !p.is_game_over() {
        p = p.after_forced_pass().0;
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let moves = p.legal_moves().reading_order();
        let m = moves[(seed % moves.len() as u64) as usize];
        text.push_str(&m.to_string());
        p = p.play(m).unwrap();
    }
    text
}

/// Carries out the solver's effects as the runtime does.
fn perform(worker: &mut Worker, effects: Vec<othello_explorer::tui::testing::app::Effect>) {
    use othello_explorer::tui::testing::app::Effect;
    for effect in effects {
        match effect {
            Effect::Analyse { job, position, selectivity } => worker.analyse(job, position, selectivity),
            Effect::Review { job, position, played, budget } => worker.review(job, position, played, budget),
            Effect::Cancel => worker.cancel(),
            _ => {}
        }
    }
}

/// The bug 1: the same game got other marks from the explorer's `:review` than from
/// `review`, since the explorer judged on whatever its cache held (the store's proofs, the
/// shipped 6x6 book, a longer stay). Here the explorer's solver thread has a store holding the
/// book, searches on two threads, and has analysed before the review; `review` runs with no
/// store on one thread. Every mark must be the same, the ones from estimates too.
#[test]
fn the_explorers_review_gives_the_marks_of_review_whatever_the_store_threads_and_cache() {
    use othello_explorer::tui::testing::app::{Config, Model, update};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let text = random_6x6_game(0x0dd_ba11_5eed_cafe);
    // `review` at the explorer's budget (1 s, its default), one thread, no store.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_othello-explorer"))
        .args(["--no-store", "review", "--json", "--size", "6", "--threads", "1", "--moves", &text])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cli: Vec<(usize, Option<String>)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["ply"].as_u64().unwrap() as usize,
                j["mark"].as_str().map(|m| if j["mark_proven"] == true { m.to_string() } else { format!("~{m}") }),
            )
        })
        .collect();
    assert!(cli.iter().any(|(_, m)| m.is_some()), "random play makes mistakes: {v}");

    let dir = tempfile::tempdir().unwrap();
    let (tx, rx) = channel();
    let options = SolverOptions { hash_mb: 16, threads: 2, ..SolverOptions::default() };
    let mut worker = Worker::spawn(options, Some(dir.path().join("store.redb")), tx).unwrap();
    let line = othello_explorer::notation::transcript::play(&Position::start(Size::Six), &text).unwrap();
    let mut m = Model::new(line.start, &line.moves, Config::default(), std::time::Instant::now());
    let key = |c: KeyCode| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
    let mut effects = m.init();
    // The explorer analyses the start first (the book answers it, through the store).
    effects.extend(update(&mut m, key(KeyCode::Home)));
    let until = std::time::Instant::now() + Duration::from_secs(3);
    while std::time::Instant::now() < until {
        perform(&mut worker, std::mem::take(&mut effects));
        if let Ok(msg) = rx.recv_timeout(Duration::from_millis(100)) {
            effects = update(&mut m, msg);
        }
    }
    effects.extend(update(&mut m, key(KeyCode::Char(':'))));
    for c in "review".chars() {
        effects.extend(update(&mut m, key(KeyCode::Char(c))));
    }
    effects.extend(update(&mut m, key(KeyCode::Enter)));
    loop {
        perform(&mut worker, std::mem::take(&mut effects));
        let msg = rx.recv_timeout(Duration::from_secs(300)).expect("the review goes on");
        effects = update(&mut m, msg);
        if m.status.as_ref().is_some_and(|s| s.text.starts_with("review done")) {
            break;
        }
    }
    let explorer: Vec<(usize, Option<String>)> = m
        .tree
        .line()
        .into_iter()
        .filter(|&id| matches!(m.tree.edge(id), Some(othello_explorer::tui::testing::tree::Edge::Move(_))))
        .map(|id| {
            let mark = m.mark(id).map(|(mark, proven)| othello_explorer::studies::review::mark_text(mark, proven));
            (m.tree.depth(id), mark)
        })
        .collect();
    assert_eq!(explorer, cli, "the explorer's marks (ply, mark) against review's");
    // And not by chance: at the start the explorer knows every move's exact score (the book,
    // through the store), where the review judges on its own estimates.
    let at_start = m.cache.get(&Position::start(Size::Six)).expect("the start was analysed");
    assert!(at_start.complete && at_start.children.iter().all(|c| c.kind == othello_explorer::solver::Kind::Exact));
    assert_eq!(v["moves"][0]["kind"], "estimate", "{}", v["moves"][0]);
}
