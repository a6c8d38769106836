//! No word is cut on the explorer's screen, at 80x24 and 120x40: help (every page, every mode),
//! the status line with long messages, the line panel in a game and a drill, the opening's name,
//! the review's marks, the list of a file's games. Text is wrapped at word boundaries or
//! shortened to whole words and `…`, never cut inside a word.
//!
//! The check: the words the program writes are gathered from its own source (every string
//! literal under `src/tui` and `src/notation/printable.rs`, the opening names, the solver's labels)
//! and the test's names; a token on the screen that is not one of them but starts one (`explor`,
//! `Ente`, `thin`) is a cut word.

use othello_explorer::notation::gamefile::{Format, Game, wthor};
use othello_explorer::solver::{ChildValue, Kind};
use othello_explorer::tui::testing::app::{Config, Model, Msg, update};
use othello_explorer::tui::testing::view;
use othello_explorer::tui::testing::worker::{EventKind, SolverEvent};
use othello_explorer::{Position, Size, notation::transcript};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn ch(c: char) -> Msg {
    key(KeyCode::Char(c))
}

fn send(m: &mut Model, msgs: impl IntoIterator<Item = Msg>) {
    for msg in msgs {
        update(m, msg);
    }
}

fn command(m: &mut Model, text: &str) {
    let mut msgs = vec![ch(':')];
    msgs.extend(text.chars().map(ch));
    msgs.push(key(KeyCode::Enter));
    send(m, msgs);
}

fn screen(m: &mut Model, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut hits = None;
    terminal.draw(|f| hits = Some(view::view(m, f))).unwrap();
    m.hits = hits.unwrap();
    terminal.backend().to_string()
}

/// Letters, and the apostrophes and hyphens inside a word.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphabetic() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-').to_string())
        .filter(|w| w.chars().count() >= 2)
}

/// Every word the program can write: its string literals, the opening names, and `extra`.
fn vocabulary(extra: &[&str]) -> BTreeSet<String> {
    let mut files = vec![std::path::PathBuf::from("src/notation/printable.rs"), "src/solver/analysis.rs".into()];
    let mut dirs = vec![std::path::PathBuf::from("src/tui"), "src/studies".into()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let mut vocab = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        // The literals: what lies between quotes (good enough: the words of comments join too,
        // which only makes the check more lenient, never wrong).
        for part in text.split('"').skip(1).step_by(2) {
            vocab.extend(words(part));
        }
    }
    let openings = std::fs::read_to_string("data/openings-8x8.txt").unwrap();
    vocab.extend(words(&openings));
    for e in extra {
        vocab.extend(words(e));
    }
    vocab
}

/// The tokens of `screen` that are cut words: not in the vocabulary, but the start of a word of it.
fn cut_words(screen: &str, vocab: &BTreeSet<String>) -> Vec<String> {
    let mut cut = Vec::new();
    for (row, line) in screen.lines().enumerate() {
        for token in words(line) {
            if vocab.contains(&token) || vocab.contains(&token.to_lowercase()) {
                continue;
            }
            let starts_one = vocab.range(token.clone()..).next().is_some_and(|w| w.starts_with(&token) && *w != token);
            if starts_one {
                cut.push(format!("row {row}: {token:?} in {line}"));
            }
        }
    }
    cut
}

fn check(name: &str, m: &mut Model, vocab: &BTreeSet<String>, failures: &mut Vec<String>) {
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(m, w, h);
        for c in cut_words(&text, vocab) {
            failures.push(format!("{name} at {w}x{h}: {c}"));
        }
    }
}

/// A model after `moves` on `size`, with the estimates a search gives (every legal move of the
/// position on screen valued @12 at the explorer's selectivity, `+2 @12 95%`).
fn model_at(size: Size, moves: &str) -> Model {
    let start = Position::start(size);
    let line = transcript::play(&start, moves).unwrap().moves;
    let mut m = Model::new(start, &line, Config::default(), Instant::now());
    m.init();
    if let Some(job) = m.job.clone() {
        for (i, square) in job.position.legal_moves().reading_order().into_iter().enumerate() {
            let kind = Kind::Estimate { depth: 12, selectivity: m.selectivity };
            let c = ChildValue { square, score: 2 - i as i32 * 3, kind };
            update(&mut m, Msg::Solver(SolverEvent { job: job.id, position: job.position, kind: EventKind::Child(c) }));
        }
    }
    m
}

#[test]
fn no_word_is_cut_at_80x24_and_120x40() {
    let vocab = vocabulary(&["Ann Lindqvist", "Bob Okonkwo-Smith", "a rather long name of a games file.wtb"]);
    let mut failures = Vec::new();

    // The help, every page, in each mode.
    for (mode, setup) in [("normal", ""), ("play", "play black"), ("drill", "drill"), ("edit", "edit")] {
        let mut m = model_at(Size::Eight, "f5d6");
        if !setup.is_empty() {
            command(&mut m, setup);
        }
        send(&mut m, [ch('?')]);
        for page in 0..40 {
            check(&format!("help in {mode}, page {page}"), &mut m, &vocab, &mut failures);
            send(&mut m, (0..10).map(|_| key(KeyCode::Down)));
        }
    }

    // The opening with the longest name, and the line panel.
    let mut m = model_at(Size::Eight, "f5d6c3d3c4f4c5b3c2b4");
    check("Central Rose-Bill / Dead Draw", &mut m, &vocab, &mut failures);

    // Long status messages: the review's announcement, a load's summary, an error.
    let mut m = model_at(Size::Eight, "f5d6c3");
    command(&mut m, "review");
    check("the review's announcement", &mut m, &vocab, &mut failures);
    command(&mut m, "moves z9");
    check("an error", &mut m, &vocab, &mut failures);
    command(&mut m, "play white");
    check("a game's first message", &mut m, &vocab, &mut failures);

    // A game: the engine thinking, on a narrow line panel.
    let mut m = model_at(Size::Six, "e4c5b4");
    command(&mut m, "play black");
    update(&mut m, Msg::Tick(Instant::now() + Duration::from_millis(1300)));
    check("the engine thinks", &mut m, &vocab, &mut failures);
    command(&mut m, "drill");
    check("a drill", &mut m, &vocab, &mut failures);

    // The list of a file's games, with long players' names.
    let start = Position::start(Size::Eight);
    let game = |t: &str| Game {
        black: Some("Ann Lindqvist".into()),
        white: Some("Bob Okonkwo-Smith".into()),
        ..Game::new(start, transcript::play(&start, t).unwrap().moves, Format::Wthor)
    };
    let bytes = wthor::write(&[game("f5d6c3"), game("f5f6e6f4")], 2026).unwrap();
    let mut m = model_at(Size::Eight, "");
    update(
        &mut m,
        Msg::Loaded { path: "a rather long name of a games file.wtb".into(), index: None, result: Ok(bytes) },
    );
    check("the list of games", &mut m, &vocab, &mut failures);

    failures.dedup_by(|a, b| a.split_once(": ").map(|x| x.1) == b.split_once(": ").map(|x| x.1));
    assert!(failures.is_empty(), "cut words:\n{}", failures.join("\n"));
}

#[test]
fn the_check_finds_a_cut_word() {
    let vocab = vocabulary(&[]);
    assert!(!cut_words("│ the engine thin│", &vocab).is_empty());
    assert!(cut_words("│ the engine thinks│", &vocab).is_empty());
    assert!(cut_words("│ reviewing the…  │", &vocab).is_empty());
}
