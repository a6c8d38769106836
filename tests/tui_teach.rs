//! The teaching view: its keys through `update`, and insta snapshots of its main steps at 80x24
//! and 120x40 on 4x4, 6x6 and 8x8. Lab results are injected as messages with fixed times, so
//! every screen is deterministic; the lab's thread itself runs both halves and cancels.

use othello_explorer::studies::lab::outcome::{self, Budget, Outcome, OutcomeError};
use othello_explorer::studies::lab::{self, LabError, Method, Run};
use othello_explorer::studies::trace::{Topic, Value};
use othello_explorer::tui::testing::app::{Config, Effect, Model, Msg, update};
use othello_explorer::tui::testing::lab_worker::{LabEvent, LabResult, LabWorker};
use othello_explorer::tui::testing::teach::{Lesson, lesson_trace};
use othello_explorer::tui::testing::view;
use othello_explorer::{Position, Scoring, Size, notation::transcript};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn ch(c: char) -> Msg {
    key(KeyCode::Char(c))
}

fn model_at(size: Size, moves: &str) -> Model {
    let start = Position::start(size);
    let line = transcript::play(&start, moves).unwrap();
    let mut m = Model::new(start, &line.moves, Config { color: false, ..Config::default() }, Instant::now());
    m.init();
    m
}

fn screen(m: &mut Model, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| m.hits = view::view(m, f)).unwrap();
    terminal.backend().to_string()
}

fn both_sizes(name: &str, m: &mut Model) {
    insta::assert_snapshot!(format!("{name}_80x24"), screen(m, 80, 24));
    insta::assert_snapshot!(format!("{name}_120x40"), screen(m, 120, 40));
}

/// Steps forward with `n` until the step named `name` is on screen.
fn step_to(m: &mut Model, name: &str) {
    let Some(Lesson::Trace(topic)) = m.teach().map(|t| t.lesson()) else { panic!("not on a trace") };
    let trace = lesson_trace(topic, &m.position(), m.cursor).unwrap();
    let target = trace.steps.iter().position(|s| s.full_name() == name).unwrap_or_else(|| panic!("no step {name}"));
    while m.teach().unwrap().step < target {
        update(m, ch('n'));
    }
    assert_eq!(m.teach().unwrap().step, target);
}

fn topic(m: &mut Model, topic: Topic) {
    while m.teach().unwrap().lesson() != Lesson::Trace(topic) {
        update(m, ch('T'));
    }
}

#[test]
fn keys_open_walk_and_close_the_view() {
    let mut m = model_at(Size::Four, "");
    assert!(m.teach().is_none());
    update(&mut m, ch('n'));
    assert!(m.teach().is_none(), "n does nothing outside the view");
    update(&mut m, ch('e'));
    assert_eq!(m.teach().unwrap().lesson(), Lesson::Trace(Topic::Legal));
    update(&mut m, key(KeyCode::Right));
    update(&mut m, ch('n'));
    assert_eq!(m.teach().unwrap().step, 2);
    update(&mut m, key(KeyCode::Left));
    assert_eq!(m.teach().unwrap().step, 1);
    // The board draws the step's mask: step 2 is the empty squares.
    update(&mut m, ch('n'));
    assert_eq!(m.board_mask(), Some(m.position().empty()));
    // Never past the last step.
    for _ in 0..100 {
        update(&mut m, ch('n'));
    }
    assert_eq!(m.teach().unwrap().step + 1, m.teach_steps());
    assert_eq!(m.board_mask(), Some(m.position().legal_moves()));
    update(&mut m, key(KeyCode::Down));
    assert_eq!(m.teach().unwrap(), othello_explorer::tui::testing::teach::Teach { lesson: 1, step: 0 });
    update(&mut m, key(KeyCode::Up));
    update(&mut m, key(KeyCode::Up));
    assert_eq!(m.teach().unwrap().lesson(), Lesson::Lab);
    update(&mut m, key(KeyCode::Esc));
    assert!(m.teach().is_none() && !m.quit, "Esc leaves the view first");
    update(&mut m, ch('e'));
    update(&mut m, ch('e'));
    assert!(m.teach().is_none());
}

#[test]
fn the_lab_runs_off_the_ui_thread_and_can_be_cancelled() {
    let mut m = model_at(Size::Four, "");
    let effects = update(&mut m, ch('s'));
    let position = m.position();
    assert_eq!(effects, [Effect::Lab { job: 1, position }]);
    assert_eq!(m.teach().unwrap().lesson(), Lesson::Lab);
    assert!(m.lab.as_ref().unwrap().running);
    // s again cancels.
    assert_eq!(update(&mut m, ch('s')), [Effect::CancelLab]);
    assert!(!m.lab.as_ref().unwrap().running);
    // A new run; a stale report of job 1 is dropped.
    assert_eq!(update(&mut m, ch('s')), [Effect::Lab { job: 2, position }]);
    let stale = Run { method: Method::Negamax, score: 99, nodes: 1, elapsed: Duration::ZERO };
    update(&mut m, Msg::Lab(LabEvent { job: 1, position, result: LabResult::Exact(Ok(stale)) }));
    assert!(m.lab.as_ref().unwrap().results.is_empty());
    // Leaving the view cancels a running lab.
    assert_eq!(update(&mut m, key(KeyCode::Esc)), [Effect::CancelLab]);
}

/// The lab's real results on `m`'s position, with fixed times.
fn feed_lab(m: &mut Model, cancel_deep: bool) {
    update(m, ch('s'));
    let lab = m.lab.clone().unwrap();
    let stop = AtomicBool::new(false);
    for (i, method) in Method::ALL.iter().enumerate() {
        let result = if cancel_deep && i >= 2 {
            Err(LabError::Cancelled { method: *method, nodes: 123_456 })
        } else {
            lab::run(*method, &lab.position, Scoring::Standard, &stop)
                .map(|r| Run { elapsed: Duration::from_millis(3 * (4 - i as u64)), ..r })
        };
        update(m, Msg::Lab(LabEvent { job: lab.job, position: lab.position, result: LabResult::Exact(result) }));
        assert!(m.lab.as_ref().unwrap().running, "the outcomes are still to come");
    }
    for (i, method) in outcome::Method::ALL.iter().enumerate() {
        let result = if cancel_deep && i >= 3 {
            Err(OutcomeError::Cancelled { method: *method, nodes: 123_456 })
        } else {
            let elapsed = Duration::from_millis(2 * (5 - i as u64));
            outcome::run(*method, &lab.position, Budget::UNLIMITED, &stop).map(|r| outcome::Run {
                elapsed,
                selecting: r.selecting.map(|_| elapsed / 4),
                ..r
            })
        };
        update(m, Msg::Lab(LabEvent { job: lab.job, position: lab.position, result: LabResult::Outcome(result) }));
    }
    assert!(!m.lab.as_ref().unwrap().running);
}

/// The lab's result inside a message of the explorer's one channel.
fn lab_event(msg: Msg) -> LabEvent {
    match msg {
        Msg::Lab(e) => e,
        other => panic!("not a lab result: {other:?}"),
    }
}

#[test]
fn the_lab_thread_runs_both_halves_and_cancels() {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut worker = LabWorker::spawn(Scoring::Standard, tx).unwrap();
    let start = Position::start(Size::Four);
    worker.run(7, start);
    let events: Vec<LabEvent> = (0..9).map(|_| lab_event(rx.recv().unwrap())).collect();
    assert!(events.iter().all(|e| e.job == 7 && e.position == start));
    let (exact, outcomes): (Vec<_>, Vec<_>) = events.into_iter().partition(|e| matches!(e.result, LabResult::Exact(_)));
    assert_eq!(exact.len(), 4);
    for e in outcomes {
        let LabResult::Outcome(Ok(run)) = e.result else { panic!("{e:?}") };
        assert_eq!(run.outcome, Outcome::Loss, "{}", run.method);
    }
    // FFO #40 (20 empty squares): the slow methods run long enough to be cancelled.
    let ffo40 = othello_explorer::notation::obf::parse_board(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    )
    .unwrap();
    worker.run(8, ffo40);
    worker.cancel();
    let events: Vec<LabEvent> = (0..9).map(|_| lab_event(rx.recv().unwrap())).collect();
    assert!(events.iter().all(|e| e.job == 8));
    assert!(events.iter().any(|e| matches!(e.result, LabResult::Outcome(Err(OutcomeError::Cancelled { .. })))));
}

#[test]
fn snapshots_4x4_legal() {
    let mut m = model_at(Size::Four, "");
    update(&mut m, ch('e'));
    both_sizes("teach_4x4_legal_first_step", &mut m);
    step_to(&mut m, "east (>> 1): t");
    both_sizes("teach_4x4_legal_east_t", &mut m);
    step_to(&mut m, "legal");
    both_sizes("teach_4x4_legal_union", &mut m);
}

#[test]
fn snapshots_4x4_flips_and_play() {
    let mut m = model_at(Size::Four, "");
    update(&mut m, ch('e'));
    topic(&mut m, Topic::Flips);
    step_to(&mut m, "south (>> 4): flips");
    both_sizes("teach_4x4_flips_south", &mut m);
    topic(&mut m, Topic::Play);
    step_to(&mut m, "next position");
    both_sizes("teach_4x4_play_next", &mut m);
}

#[test]
fn snapshots_6x6_symmetry_and_8x8_popcount_and_empties() {
    let mut m = model_at(Size::Six, "c2");
    update(&mut m, ch('e'));
    topic(&mut m, Topic::Symmetry);
    step_to(&mut m, "canonical key");
    both_sizes("teach_6x6_canonical_key", &mut m);

    let mut m = model_at(Size::Eight, "f5d6");
    update(&mut m, ch('e'));
    topic(&mut m, Topic::Popcount);
    step_to(&mut m, "x = nibbles");
    assert!(m.board_mask().is_none(), "a word is not drawn on the board");
    both_sizes("teach_8x8_popcount_nibbles", &mut m);
    topic(&mut m, Topic::Empties);
    step_to(&mut m, "1: lowest");
    both_sizes("teach_8x8_empties_first_lowest", &mut m);
    let Value::Mask(mask) = lesson_trace(Topic::Empties, &m.position(), m.cursor).unwrap().steps[1].value else {
        panic!()
    };
    assert_eq!(m.board_mask(), Some(mask));
}

#[test]
fn snapshots_of_the_search_lab() {
    let mut m = model_at(Size::Four, "");
    update(&mut m, ch('e'));
    let mut before = m.clone();
    while before.teach().unwrap().lesson() != Lesson::Lab {
        update(&mut before, ch('T'));
    }
    both_sizes("teach_lab_4x4_before", &mut before);
    feed_lab(&mut m, false);
    let scores: Vec<i32> = m.lab.as_ref().unwrap().results.iter().map(|r| r.unwrap().score).collect();
    assert_eq!(scores, [-10; 4]);
    let outcomes: Vec<Outcome> = m.lab.as_ref().unwrap().outcomes.iter().map(|r| r.unwrap().outcome).collect();
    assert_eq!(outcomes, [Outcome::Loss; 5]);
    both_sizes("teach_lab_4x4_done", &mut m);

    let mut m = model_at(Size::Eight, "");
    feed_lab(&mut m, true);
    both_sizes("teach_lab_8x8_refused", &mut m);
}
