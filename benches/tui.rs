//! The explorer's speed: rendering a frame at 120x40 (target under 2 ms), and key-to-screen
//! latency (a key message through `update` and a full render) while the solver thread searches a
//! deep position at full speed (target under 50 ms).

use criterion::{Criterion, criterion_group, criterion_main};
use othello_explorer::solver::{ChildScore, SolverOptions};
use othello_explorer::tui::testing::app::{Config, Model, Msg, update};
use othello_explorer::tui::testing::view;
use othello_explorer::tui::testing::worker::{EventKind, SolverEvent, Worker};
use othello_explorer::{Position, Size, notation::transcript};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use std::hint::black_box;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// A mid-game 8x8 model with half its children scored, a line of history and the flips overlay.
fn busy_model() -> Model {
    let start = Position::start(Size::Eight);
    let line = transcript::play(&start, "f5d6c3d3c4f4f6f3e6e7").unwrap();
    let mut m = Model::new(start, &line.moves, Config::default(), Instant::now());
    m.init();
    let job = m.job.clone().unwrap();
    for (i, sq) in job.position.legal_moves().reading_order().into_iter().enumerate().step_by(2) {
        let kind = EventKind::Child(ChildScore { square: sq, score: i as i32 - 4 }.into());
        update(&mut m, Msg::Solver(SolverEvent { job: job.id, position: job.position, kind }));
    }
    m
}

fn render(c: &mut Criterion) {
    let m = busy_model();
    let area = Rect::new(0, 0, 120, 40);
    let mut buf = Buffer::empty(area);
    c.bench_function("view_120x40_into_buffer", |b| {
        b.iter(|| {
            buf.reset();
            black_box(view::draw(&m, area, &mut buf));
        })
    });
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    c.bench_function("frame_120x40_test_backend", |b| {
        b.iter(|| {
            // A cleared terminal: the whole frame is drawn, diffed and written.
            terminal.clear().unwrap();
            terminal.draw(|f| drop(black_box(view::view(&m, f)))).unwrap();
        })
    });
}

fn key_to_screen(c: &mut Criterion) {
    let (tx, events) = channel();
    let mut worker = Worker::spawn(SolverOptions::default(), None, tx).unwrap();
    // The 8x8 start: the solver will not finish it, so it searches at full speed throughout.
    worker.analyse(1, Position::start(Size::Eight), othello_explorer::solver::DEFAULT_SELECTIVITY);
    let mut m = busy_model();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let tab = Msg::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    let mut step = |m: &mut Model| {
        while let Ok(msg) = events.try_recv() {
            update(m, msg);
        }
        update(m, tab.clone());
        terminal.draw(|f| m.hits = view::view(m, f)).unwrap();
    };
    c.bench_function("key_to_screen_while_solving", |b| b.iter(|| step(&mut m)));
    // The worst case matters for latency: report it over many presses.
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    let presses = 2_000;
    for _ in 0..presses {
        let t = Instant::now();
        step(&mut m);
        let d = t.elapsed();
        worst = worst.max(d);
        total += d;
    }
    println!("key_to_screen over {presses} presses while solving: mean {:?}, worst {:?}", total / presses, worst);
    drop(worker);
}

criterion_group!(benches, render, key_to_screen);
criterion_main!(benches);
