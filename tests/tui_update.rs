//! `update` driven by messages alone: navigation, branching, undo/redo, the command line, auto-play,
//! stale solver results, passes and the end of the game. No terminal, no thread.

mod reference;

use othello_explorer::solver::{
    ChildScore, ChildValue, DEFAULT_SELECTIVITY, Evaluator, Kind, Limits, Phase, Report, SearchMode, Selectivity,
    Solver, SolverOptions,
};
use othello_explorer::tui::testing::app::{Config, Effect, Focus, LineKind, Model, Msg, Overlay, SolverState, update};
use othello_explorer::tui::testing::tree::Edge;
use othello_explorer::tui::testing::worker::{EventKind, SolverEvent};
use othello_explorer::{Position, Size, Square, notation::transcript};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::{Duration, Instant};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn ch(c: char) -> Msg {
    key(KeyCode::Char(c))
}

fn model(size: Size) -> (Model, Instant) {
    let now = Instant::now();
    let mut m = Model::new(Position::start(size), &[], Config::default(), now);
    m.init();
    (m, now)
}

fn send(m: &mut Model, msgs: impl IntoIterator<Item = Msg>) -> Vec<Effect> {
    msgs.into_iter().flat_map(|msg| update(m, msg)).collect()
}

fn command(m: &mut Model, text: &str) -> Vec<Effect> {
    let mut msgs = vec![ch(':')];
    msgs.extend(text.chars().map(ch));
    msgs.push(key(KeyCode::Enter));
    send(m, msgs)
}

fn event(job: u64, position: Position, kind: EventKind) -> Msg {
    Msg::Solver(SolverEvent { job, position, kind })
}

/// Feeds the model what the real solver reports for the position the model asked about.
fn solve_current(m: &mut Model) {
    let Some(job) = m.job.clone() else { return };
    let mut solver = Solver::new(SolverOptions { hash_mb: 16, ..SolverOptions::default() });
    let mut children = Vec::new();
    solver.score_children(&job.position, &Limits::default(), &mut |c| children.push(c)).unwrap();
    let pv = solver.principal_variation(&job.position, &Limits::default()).unwrap();
    for c in children {
        update(m, event(job.id, job.position, EventKind::Child(c.into())));
    }
    let t = Duration::from_millis(5);
    update(m, event(job.id, job.position, EventKind::ChildrenDone { nodes: 100, elapsed: t }));
    update(m, event(job.id, job.position, EventKind::Pv { moves: pv, nodes: 100, elapsed: t }));
}

#[test]
fn the_first_effect_asks_for_the_start_position() {
    let now = Instant::now();
    let mut m = Model::new(Position::start(Size::Eight), &[], Config::default(), now);
    let selectivity = DEFAULT_SELECTIVITY;
    assert_eq!(m.init(), vec![Effect::Analyse { job: 1, position: Position::start(Size::Eight), selectivity }]);
}

#[test]
fn cursor_moves_with_arrows_and_hjkl_and_cycles_legal_moves() {
    let (mut m, _) = model(Size::Eight);
    // The first legal move in reading order.
    assert_eq!(m.cursor, sq("d3"));
    send(&mut m, [key(KeyCode::Right), ch('j'), ch('l')]);
    assert_eq!(m.cursor, sq("f4"));
    send(&mut m, [ch('k'), ch('h'), key(KeyCode::Left), key(KeyCode::Down)]);
    assert_eq!(m.cursor, sq("d4"));
    // Clamped at the edge.
    for _ in 0..10 {
        send(&mut m, [key(KeyCode::Up), key(KeyCode::Left)]);
    }
    assert_eq!(m.cursor, sq("a1"));
    // Tab: the next legal move in reading order (d3, c4, f5, e6), wrapping.
    send(&mut m, [key(KeyCode::Tab)]);
    assert_eq!(m.cursor, sq("d3"));
    send(&mut m, [key(KeyCode::Tab), key(KeyCode::Tab)]);
    assert_eq!(m.cursor, sq("f5"));
    send(&mut m, [key(KeyCode::BackTab), key(KeyCode::BackTab), key(KeyCode::BackTab)]);
    assert_eq!(m.cursor, sq("e6"));
}

#[test]
fn enter_plays_the_move_under_the_cursor_and_asks_for_its_analysis() {
    let (mut m, _) = model(Size::Eight);
    send(&mut m, [key(KeyCode::Tab), key(KeyCode::Tab)]);
    let effects = send(&mut m, [key(KeyCode::Enter)]);
    let expected = Position::start(Size::Eight).play(sq("f5")).unwrap();
    assert_eq!(m.position(), expected);
    assert_eq!(effects, vec![Effect::Analyse { job: 2, position: expected, selectivity: DEFAULT_SELECTIVITY }]);
    // Space plays too; an illegal square is refused with a message and changes nothing.
    send(&mut m, [ch(' ')]);
    assert_eq!(m.tree.depth(m.tree.current()), 2);
    let before = m.position();
    m.cursor = sq("a1");
    send(&mut m, [key(KeyCode::Enter)]);
    assert_eq!(m.position(), before);
    assert!(m.status.as_ref().unwrap().error);
}

#[test]
fn back_forward_start_end_undo_and_redo() {
    let (mut m, _) = model(Size::Eight);
    command(&mut m, "moves f5d6c3d3");
    let line = transcript::play(&Position::start(Size::Eight), "f5d6c3d3").unwrap();
    assert_eq!(m.position(), line.end());
    send(&mut m, [ch('u'), key(KeyCode::Backspace)]);
    assert_eq!(m.position(), line.positions[1]);
    send(&mut m, [ch('r')]);
    assert_eq!(m.position(), line.positions[2]);
    send(&mut m, [key(KeyCode::Home)]);
    assert_eq!(m.position(), Position::start(Size::Eight));
    send(&mut m, [ch('u')]);
    assert_eq!(m.status.as_ref().unwrap().text, "at the start of the game");
    send(&mut m, [key(KeyCode::End)]);
    assert_eq!(m.position(), line.end());
    send(&mut m, [ch('r')]);
    assert_eq!(m.status.as_ref().unwrap().text, "at the end of the line");
}

#[test]
fn playing_another_move_makes_a_branch_and_keeps_the_old_line() {
    let (mut m, _) = model(Size::Eight);
    command(&mut m, "moves f5d6c3");
    send(&mut m, [ch('u')]); // back to after f5 d6
    m.cursor = sq("c5");
    send(&mut m, [key(KeyCode::Enter)]);
    let after_c5 = transcript::play(&Position::start(Size::Eight), "f5d6c5").unwrap().end();
    assert_eq!(m.position(), after_c5);
    assert_eq!(m.tree.siblings(m.tree.current()).len(), 2);
    // `[` and `]` switch between the branches.
    send(&mut m, [ch('[')]);
    let after_c3 = transcript::play(&Position::start(Size::Eight), "f5d6c3").unwrap().end();
    assert_eq!(m.position(), after_c3);
    send(&mut m, [ch(']')]);
    assert_eq!(m.position(), after_c5);
    // Forward from the parent follows the branch visited last.
    send(&mut m, [ch('u'), ch('r')]);
    assert_eq!(m.position(), after_c5);
    // With the history focused, the arrows move through the tree.
    send(&mut m, [ch('t')]);
    assert_eq!(m.focus, Focus::History);
    send(&mut m, [key(KeyCode::Up)]);
    assert_eq!(m.position(), after_c3);
    send(&mut m, [key(KeyCode::Left), key(KeyCode::Left)]);
    assert_eq!(m.tree.depth(m.tree.current()), 1);
    send(&mut m, [key(KeyCode::Right)]);
    assert_eq!(m.tree.depth(m.tree.current()), 2);
    // Esc gives the arrows back to the board before it would quit.
    send(&mut m, [key(KeyCode::Esc)]);
    assert_eq!(m.focus, Focus::Board);
    assert!(!m.quit);
    // Playing the same move again reuses the node.
    let nodes = m.tree.len();
    send(&mut m, [key(KeyCode::Home)]);
    m.cursor = sq("f5");
    send(&mut m, [key(KeyCode::Enter)]);
    assert_eq!(m.tree.len(), nodes);
}

#[test]
fn good_commands_change_the_tree() {
    let (mut m, _) = model(Size::Eight);
    command(&mut m, "moves F5 d6 c3");
    assert_eq!(m.tree.transcript(), "f5d6c3");
    command(&mut m, "size 4");
    assert_eq!(m.position(), Position::start(Size::Four));
    let six = Position::start(Size::Six).pass().to_string(); // the 6x6 discs, white to move
    assert!(six.ends_with(" O"));
    command(&mut m, &format!("board {six}"));
    assert_eq!(m.position().to_string(), six);
    command(&mut m, "size 6");
    command(&mut m, "moves c2");
    assert_eq!(m.tree.transcript(), "c2");
    command(&mut m, "new");
    assert_eq!(m.position(), Position::start(Size::Six));
    assert!(m.tree.is_empty());
    let effects = command(&mut m, "save /tmp/line.txt");
    assert!(matches!(&effects[..], [Effect::Save { path, .. }] if path == "/tmp/line.txt"));
    let effects = command(&mut m, "load /tmp/line.txt");
    assert_eq!(effects, vec![Effect::Load { path: "/tmp/line.txt".into(), index: None }]);
    command(&mut m, "quit");
    assert!(m.quit);
}

#[test]
fn bad_commands_report_in_the_status_line_and_change_nothing() {
    let (mut m, _) = model(Size::Eight);
    command(&mut m, "moves f5d6");
    let (before_pos, before_nodes) = (m.position(), m.tree.len());
    for (input, message) in [
        ("moves /f5f5", "moves: move 2 at column 3 is illegal: f5 is already occupied"),
        ("moves /f5z9", "moves: move 2 at column 3: bad column 'z': expected a letter a to h"),
        ("moves f5", "moves: move 1 at column 1 is illegal: f5 is already occupied"),
        ("size 5", "size '5': the board size must be 4, 6 or 8"),
        (
            "board XXXX O",
            "board: board of 4 squares: a board string has 16, 36 or 64 characters of X, O and - (then the side to move)",
        ),
        (
            "frob",
            "unknown command 'frob': try moves, board, size, new, save, load, export, restore, play, drill, edit, review, games, reach, selectivity, quit",
        ),
        ("play red", "play: 'red' is not a choice: play black|white|both|off"),
        ("drill maybe", "drill: 'maybe' is not a choice: drill [on|off]"),
        ("save", "save: missing argument: save FILE"),
        ("new please", "new: unexpected argument 'please'"),
    ] {
        command(&mut m, input);
        let status = m.status.clone().unwrap();
        assert!(status.error, "{input}");
        assert_eq!(status.text, message);
        assert_eq!((m.position(), m.tree.len()), (before_pos, before_nodes), "{input}");
    }
    // A bad file changes nothing either.
    update(&mut m, Msg::Loaded { path: "x".into(), index: None, result: Ok("f5 e9\n".as_bytes().to_vec()) });
    assert!(
        m.status.as_ref().unwrap().text.starts_with("load x: line 1, column 4: transcript expected a move like f5")
    );
    update(&mut m, Msg::Loaded { path: "y".into(), index: None, result: Err("no such file or directory".into()) });
    assert_eq!(m.status.as_ref().unwrap().text, "load y: no such file or directory");
    assert_eq!(m.position(), before_pos);
    // Esc leaves the command line without running it; Backspace edits.
    send(&mut m, [ch(':'), ch('n'), ch('e'), ch('x'), key(KeyCode::Backspace), ch('w')]);
    assert_eq!(m.overlay, Overlay::Command("new".into()));
    send(&mut m, [key(KeyCode::Esc)]);
    assert_eq!(m.overlay, Overlay::None);
    assert_eq!(m.position(), before_pos);
}

#[test]
fn a_saved_line_loads_back() {
    let (mut m, _) = model(Size::Six);
    command(&mut m, "moves c2b2");
    assert_eq!(m.tree.transcript(), "c2b2");
    let effects = command(&mut m, "save f");
    let Effect::Save { contents, .. } = &effects[0] else { panic!("no save") };
    let (mut other, _) = model(Size::Eight);
    update(&mut other, Msg::Loaded { path: "f".into(), index: None, result: Ok(contents.clone().into_bytes()) });
    assert_eq!(other.position(), m.position());
    assert_eq!(other.tree.transcript(), "c2b2");
    // A bare transcript loads too, on the size where it is legal.
    update(&mut other, Msg::Loaded { path: "g".into(), index: None, result: Ok("f5d6\n".as_bytes().to_vec()) });
    assert_eq!(other.position(), transcript::play(&Position::start(Size::Eight), "f5d6").unwrap().end());
}

/// Equal estimates rank by the deepest earlier depth that tells them apart, not by reading order
/// (`solver::rank_key`); a shallower report coming late changes nothing.
#[test]
fn equal_estimates_rank_by_the_depth_before() {
    let now = Instant::now();
    // After f5 no two replies are images of one another.
    let mut m = Model::new(Position::start(Size::Eight), &[sq("f5")], Config::default(), now);
    m.init();
    let job = m.job.clone().unwrap();
    let feed = |m: &mut Model, mv: &str, score: i32, depth: u32| {
        let c = ChildValue { square: sq(mv), score, kind: Kind::estimate(depth) };
        update(m, event(job.id, job.position, EventKind::Child(c)));
    };
    for (mv, d1, d2) in [("d6", 5, 2), ("f4", 3, 2), ("f6", -9, -9)] {
        feed(&mut m, mv, d1, 1);
        feed(&mut m, mv, d2, 2);
    }
    // f4 comes first in reading order; d6 was better at depth 1.
    assert_eq!(m.analysis().unwrap().best_child().map(|c| c.square), Some(sq("d6")));
    feed(&mut m, "f4", 40, 1);
    assert_eq!(m.analysis().unwrap().best_child().map(|c| c.square), Some(sq("d6")), "a late depth 1 is ignored");
    // Equal at depths 3 and 2: depth 1 still decides.
    feed(&mut m, "d6", 0, 3);
    feed(&mut m, "f4", 0, 3);
    assert_eq!(m.analysis().unwrap().best_child().map(|c| c.square), Some(sq("d6")));
    // A better value wins whatever came before.
    feed(&mut m, "f4", 1, 4);
    feed(&mut m, "d6", 0, 4);
    assert_eq!(m.analysis().unwrap().best_child().map(|c| c.square), Some(sq("f4")));
}

#[test]
fn estimates_give_way_to_outcomes_and_exact_scores_never_the_reverse() {
    let (mut m, _) = model(Size::Eight);
    let job = m.job.clone().unwrap();
    let f5 = sq("f5");
    let mut feed = |score: i32, kind: Kind| {
        update(&mut m, event(job.id, job.position, EventKind::Child(ChildValue { square: f5, score, kind })));
        m.child_score(f5).map(|s| (s.value, s.kind))
    };
    assert_eq!(feed(3, Kind::estimate(4)), Some((3, Kind::estimate(4))));
    assert_eq!(feed(1, Kind::estimate(6)), Some((1, Kind::estimate(6))), "deeper replaces");
    assert_eq!(feed(9, Kind::estimate(2)), Some((1, Kind::estimate(6))), "shallower does not");
    assert_eq!(feed(-1, Kind::Wld), Some((-1, Kind::Wld)), "a proof replaces an estimate");
    assert_eq!(feed(5, Kind::estimate(30)), Some((-1, Kind::Wld)), "an estimate never replaces a proof");
    assert_eq!(feed(-2, Kind::Exact), Some((-2, Kind::Exact)));
    assert_eq!(feed(-1, Kind::Wld), Some((-2, Kind::Exact)), "nothing replaces an exact score");
    // The four first moves are images of one another: each shows the value found for any.
    for twin in ["d3", "c4", "e6"] {
        assert_eq!(m.child_score(sq(twin)).map(|s| (s.value, s.kind)), Some((-2, Kind::Exact)), "{twin}");
    }
    // After f5 no two replies are images of one another. One exact child of three: nothing is
    // proven best yet, and the state says so.
    let now = Instant::now();
    let mut m = Model::new(Position::start(Size::Eight), &[sq("f5")], Config::default(), now);
    m.init();
    let job = m.job.clone().unwrap();
    update(
        &mut m,
        event(job.id, job.position, EventKind::Child(ChildValue { square: sq("f6"), score: -2, kind: Kind::Exact })),
    );
    update(
        &mut m,
        event(
            job.id,
            job.position,
            EventKind::Child(ChildValue { square: sq("d6"), score: 1, kind: Kind::estimate(6) }),
        ),
    );
    assert_eq!(m.child_score(sq("f4")), None, "f4 (the parallel opening) is no twin of d6");
    assert!(m.best_moves().is_empty());
    assert_eq!(m.best_edge(), None);
    update(&mut m, event(job.id, job.position, EventKind::Phase(Phase::Estimate)));
    update(&mut m, event(job.id, job.position, EventKind::Depth(6)));
    assert!(matches!(
        m.solver_state(),
        SolverState::Solving { proven: 1, total: 3, phase: Some(Phase::Estimate), depth: Some(6), .. }
    ));
    // ChildrenDone before every child is exact does not make the position exact.
    let t = Duration::from_millis(5);
    update(&mut m, event(job.id, job.position, EventKind::ChildrenDone { nodes: 1, elapsed: t }));
    assert!(!m.analysis().unwrap().complete);
}

#[test]
fn an_unproven_position_shows_the_estimate_line_and_b_and_p_play_it() {
    // Ten moves into an 8x8 game: no proof in sight, estimates only.
    let now = Instant::now();
    let moves = squares("f5d6c3d3c4f4f6f3e6e7");
    let mut m = Model::new(Position::start(Size::Eight), &moves, Config::default(), now);
    m.init();
    let job = m.job.clone().unwrap();
    let pos = job.position;
    // What the real solver reports to depth 6 at the explorer's selectivity, line reports
    // included.
    let selectivity = m.selectivity;
    let mut solver = Solver::new(SolverOptions { hash_mb: 16, selectivity, ..SolverOptions::default() });
    let mut reports = Vec::new();
    solver.analyse(&pos, SearchMode::Estimate, Some(6), &Limits::default(), &[], &mut |r| reports.push(r));
    let mut line = None;
    for r in reports {
        let kind = match r {
            Report::Child(c) => EventKind::Child(c),
            Report::Phase(p) => EventKind::Phase(p),
            Report::DepthDone { depth } => EventKind::Depth(depth),
            Report::Line { depth, moves } => {
                line = Some((depth, moves.clone()));
                EventKind::Line { depth, selectivity, moves }
            }
        };
        update(&mut m, event(job.id, pos, kind));
    }
    let (depth, moves) = line.expect("a line at each depth");
    assert_eq!(depth, 6);
    let shown = m.shown_line().expect("a line is shown before any proof");
    assert_eq!(shown.moves, moves);
    assert_eq!(shown.kind, LineKind::Estimate { depth: 6, selectivity });
    assert_eq!(Some(shown.score), m.child_score(moves[0]).map(|s| s.value));
    assert_eq!(m.best_edge(), None, "nothing is proven");
    // `p` plays exactly the line shown, one move per delay, with no further analysis, and says
    // each move is an estimate.
    send(&mut m, [ch('p')]);
    let delay = Config::default().auto_delay;
    let mut t = now;
    for (i, &mv) in moves.iter().enumerate() {
        t += delay;
        update(&mut m, Msg::Tick(t));
        if m.position().must_pass() {
            t += delay;
            update(&mut m, Msg::Tick(t));
        }
        assert_eq!(m.last_move(), Some(mv), "move {i} of {moves:?}");
        assert!(m.status.as_ref().unwrap().text.contains("not proven"), "{:?}", m.status);
    }
    send(&mut m, [ch('p')]);
    assert!(m.auto().is_none());
    // `b` back at the analysed position plays the line's first move and says it is an estimate.
    let mut m2 = Model::new(Position::start(Size::Eight), &moves_of(&pos), Config::default(), now);
    m2.init();
    let job2 = m2.job.clone().unwrap();
    for c in solver.analyse(&pos, SearchMode::Estimate, Some(4), &Limits::default(), &[], &mut |_| {}).children {
        update(&mut m2, event(job2.id, pos, EventKind::Child(c)));
    }
    let best = m2.analysis().unwrap().best_child().unwrap();
    send(&mut m2, [ch('b')]);
    assert_eq!(m2.last_move(), Some(best.square), "no line reported: the best value");
    let status = m2.status.as_ref().unwrap();
    assert!(!status.error && status.text.contains("best estimate") && status.text.contains("not proven"), "{status:?}");
}

fn squares(text: &str) -> Vec<Square> {
    transcript::parse_squares(text).unwrap().into_iter().map(|(s, _)| s).collect()
}

fn moves_of(pos: &Position) -> Vec<Square> {
    assert_eq!(*pos, transcript::play(&Position::start(Size::Eight), "f5d6c3d3c4f4f6f3e6e7").unwrap().end());
    squares("f5d6c3d3c4f4f6f3e6e7")
}

#[test]
fn a_saved_tree_keeps_every_branch_and_the_current_node() {
    let (mut m, _) = model(Size::Six);
    command(&mut m, "moves c2b2a2");
    command(&mut m, "moves /c2d2"); // a second branch at ply 2
    send(&mut m, [ch('u')]); // back to ply 1
    let effects = command(&mut m, "save f");
    let Effect::Save { contents, .. } = &effects[0] else { panic!("no save") };
    let (mut other, _) = model(Size::Eight);
    update(&mut other, Msg::Loaded { path: "f".into(), index: None, result: Ok(contents.clone().into_bytes()) });
    assert_eq!(other.position(), m.position());
    assert_eq!(other.tree.len(), 5, "root, c2, b2, a2, d2");
    assert_eq!(other.tree.transcript(), "c2");
    let branches: Vec<String> =
        other.tree.children(other.tree.current()).iter().map(|&c| other.tree.edge(c).unwrap().to_string()).collect();
    assert_eq!(branches, ["b2", "d2"]);
    assert!(other.status.as_ref().unwrap().text.contains("4 positions explored"));
    // Forward follows the line last visited: d2.
    send(&mut other, [ch('r')]);
    assert_eq!(other.tree.transcript(), "c2d2");
    // A damaged session file is refused, naming the line, and changes nothing.
    let broken = contents.replace("current", "curent");
    update(&mut other, Msg::Loaded { path: "g".into(), index: None, result: Ok(broken.into_bytes()) });
    assert!(other.status.as_ref().unwrap().error);
    assert!(other.status.as_ref().unwrap().text.starts_with("load g: line"), "{:?}", other.status);
    assert_eq!(other.tree.transcript(), "c2d2");
}

#[test]
fn with_a_session_every_change_of_the_tree_rewrites_it() {
    let now = Instant::now();
    let config = Config { session: true, ..Config::default() };
    let mut m = Model::new(Position::start(Size::Six), &[], config, now);
    m.init();
    // The whole text, or a journal appended to it: what the file holds after each write.
    let sessions = |effects: &[Effect]| -> Vec<(bool, String)> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::WriteSession(text) => Some((true, text.clone())),
                Effect::AppendSession(text) => Some((false, text.clone())),
                _ => None,
            })
            .collect()
    };
    // The first update writes the session whole even when nothing moved.
    let first = sessions(&update(&mut m, Msg::Tick(now)));
    assert_eq!(first.len(), 1);
    assert!(first[0].0, "the first write is whole");
    let mut file = first[0].1.clone();
    assert!(sessions(&update(&mut m, Msg::Tick(now))).is_empty(), "no change, no write");
    for (msgs, line) in [
        (vec![ch(':'), ch('m'), ch(' '), ch('c'), ch('2'), key(KeyCode::Enter)], "c2"),
        (vec![ch('u')], ""),
        (vec![ch('r')], "c2"),
    ] {
        let written = sessions(&send(&mut m, msgs));
        assert_eq!(written.len(), 1, "one write after {line:?}");
        // Each change is a journal of a line or two, appended, never the whole tree again.
        assert!(!written[0].0, "a journal after {line:?}");
        assert!(written[0].1.len() < 40, "{:?}", written[0].1);
        file.push_str(&written[0].1);
        let tree = othello_explorer::tui::testing::session::parse(&file).unwrap();
        assert_eq!(tree.transcript(), line);
    }
    // Without a session file nothing is written.
    let (mut plain, _) = model(Size::Six);
    assert!(sessions(&command(&mut plain, "moves c2")).is_empty());
}

#[test]
fn auto_play_steps_through_the_perfect_line_after_the_delay() {
    let (mut m, t0) = model(Size::Four);
    solve_current(&mut m);
    let pv_at_start = m.shown_line().unwrap().moves;
    send(&mut m, [ch('p')]);
    assert!(m.auto().is_some());
    // Nothing before the delay.
    update(&mut m, Msg::Tick(t0 + Duration::from_millis(100)));
    assert_eq!(m.tree.depth(m.tree.current()), 0);
    let delay = Config::default().auto_delay;
    let mut t = t0 + delay;
    update(&mut m, Msg::Tick(t));
    assert_eq!(m.tree.depth(m.tree.current()), 1);
    // The move played is the first of the perfect line the model shows.
    let start_value = m.tree.position_of(m.tree.root());
    let mut solver = Solver::new(SolverOptions::default());
    let value = solver.solve(&start_value, &Limits::default()).unwrap().score;
    // It plays exactly the line shown when it started, with no further analysis, to the end.
    let shown = pv_at_start.clone();
    for _ in 0..40 {
        t += delay;
        update(&mut m, Msg::Tick(t));
        if m.auto().is_none() {
            break;
        }
    }
    assert!(m.auto().is_none());
    assert!(m.position().is_game_over());
    // Perfect play from the start ends on the start's value (black moved first).
    assert_eq!(m.final_score(), Some(value));
    let played: Vec<Square> = m
        .tree
        .path()
        .iter()
        .filter_map(|&id| match m.tree.edge(id) {
            Some(Edge::Move(sq)) => Some(sq),
            _ => None,
        })
        .collect();
    assert_eq!(played, shown, "the line printed, move for move");
    assert!(m.status.as_ref().unwrap().text.starts_with("auto-play done: game over"));
    // `p` twice: on, then off.
    send(&mut m, [key(KeyCode::Home), ch('p'), ch('p')]);
    assert!(m.auto().is_none());
}

#[test]
fn stale_results_never_show_on_the_wrong_position() {
    let (mut m, _) = model(Size::Eight);
    let start = Position::start(Size::Eight);
    let job1 = m.job.clone().unwrap();
    assert_eq!(job1.position, start);
    // Navigate away: a new job for the new position.
    send(&mut m, [key(KeyCode::Enter)]);
    let job2 = m.job.clone().unwrap();
    let after_d3 = start.play(sq("d3")).unwrap();
    assert_eq!(job2.position, after_d3);
    assert_ne!(job1.id, job2.id);
    // A late report of job 1 about the start position: filed there, not shown here.
    update(&mut m, event(job1.id, start, EventKind::Child(ChildScore { square: sq("c4"), score: 0 }.into())));
    update(&mut m, event(job1.id, start, EventKind::Progress { nodes: 999, elapsed: Duration::from_secs(1) }));
    for s in after_d3.legal_moves() {
        assert_eq!(m.child_score(s), None);
    }
    assert_eq!(m.job.as_ref().unwrap().nodes, 0);
    // A report that names a square illegal in its position is dropped.
    update(&mut m, event(job2.id, after_d3, EventKind::Child(ChildScore { square: sq("a1"), score: 3 }.into())));
    assert!(m.analysis().is_none_or(|a| a.children.is_empty()));
    // A report about this position (c3 is legal after d3) shows.
    update(&mut m, event(job2.id, after_d3, EventKind::Child(ChildScore { square: sq("c3"), score: -2 }.into())));
    assert_eq!(m.child_score(sq("c3")).map(|s| s.value), Some(-2));
    // Back at the start, the score proven there is shown again at once.
    send(&mut m, [ch('u')]);
    assert_eq!(m.child_score(sq("c4")).map(|s| s.value), Some(0));
    assert_eq!(m.child_score(sq("c3")), None);
}

#[test]
fn a_solved_position_is_not_searched_again() {
    let (mut m, _) = model(Size::Four);
    solve_current(&mut m);
    assert!(m.job.is_none());
    let effects = send(&mut m, [key(KeyCode::Enter)]);
    assert!(matches!(effects[..], [Effect::Analyse { .. }]));
    // Back: cached, so the running search is cancelled and none starts.
    let effects = send(&mut m, [ch('u')]);
    assert_eq!(effects, vec![Effect::Cancel]);
    assert!(m.job.is_none());
    assert!(m.best_edge().is_some());
}

/// A 4x4 transcript reaching a position whose side to move must pass, found by a plain search.
fn pass_line() -> String {
    fn walk(p: Position, moves: &mut Vec<Square>) -> bool {
        if p.must_pass() {
            return true;
        }
        for s in p.legal_moves().reading_order() {
            moves.push(s);
            if walk(p.play(s).unwrap(), moves) {
                return true;
            }
            moves.pop();
        }
        false
    }
    let mut moves = Vec::new();
    assert!(walk(Position::start(Size::Four), &mut moves));
    transcript::format(&moves)
}

#[test]
fn a_pass_is_stepped_over_explicitly() {
    let (mut m, _) = model(Size::Four);
    let line = pass_line();
    command(&mut m, &format!("moves {line}"));
    let here = m.position();
    assert!(here.must_pass());
    assert!(m.status.is_some());
    // The solver analyses the position after the pass.
    assert_eq!(m.job.as_ref().unwrap().position, here.pass());
    assert_eq!(m.best_edge(), Some(Edge::Pass));
    send(&mut m, [key(KeyCode::Enter)]);
    assert_eq!(m.position(), here.pass());
    assert_eq!(m.tree.edge(m.tree.current()), Some(Edge::Pass));
    // The transcript leaves the pass out, and back returns to the pass node.
    assert_eq!(m.tree.transcript(), line);
    send(&mut m, [ch('u')]);
    assert_eq!(m.position(), here);
    // `b` plays the pass as the best (only) edge.
    send(&mut m, [ch('b')]);
    assert_eq!(m.position(), here.pass());
}

#[test]
fn the_end_of_the_game_shows_the_final_score() {
    let (mut m, _) = model(Size::Four);
    // Play the first legal move (or the pass) until nobody can move.
    while !m.position().is_game_over() {
        send(&mut m, [key(KeyCode::Enter)]);
    }
    let p = m.position();
    let black = p.black().count() as i32 - p.white().count() as i32;
    let empties = p.empty_count() as i32;
    let expected = black + black.signum() * empties;
    assert_eq!(m.final_score(), Some(expected));
    assert!(m.status.as_ref().unwrap().text.starts_with("game over: "));
    assert!(m.job.is_none());
    send(&mut m, [ch('b')]);
    assert_eq!(m.status.as_ref().unwrap().text, "the game is over");
    send(&mut m, [ch('p')]);
    assert!(m.auto().is_none());
}

#[test]
fn best_waits_for_the_solver() {
    let (mut m, _) = model(Size::Eight);
    send(&mut m, [ch('b')]);
    assert_eq!(m.position(), Position::start(Size::Eight));
    assert!(m.status.as_ref().unwrap().error);
}

#[test]
fn quitting_help_and_yank() {
    let (mut m, _) = model(Size::Eight);
    send(&mut m, [ch('?')]);
    assert_eq!(m.overlay, Overlay::Help);
    send(&mut m, [key(KeyCode::Esc)]);
    assert_eq!(m.overlay, Overlay::None);
    assert!(!m.quit);
    send(&mut m, [ch('o')]);
    assert!(m.drawn_mask.is_some());
    send(&mut m, [key(KeyCode::Esc)]);
    assert!(m.drawn_mask.is_none() && !m.quit);
    command(&mut m, "moves f5");
    let effects = send(&mut m, [ch('y')]);
    let board = Position::start(Size::Eight).play(sq("f5")).unwrap().to_string();
    assert_eq!(effects, vec![Effect::Yank(format!("{board}\nf5"))]);
    assert!(m.status.as_ref().unwrap().text.contains(&board));
    let effects = send(&mut m, [Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL))]);
    assert_eq!(effects, vec![Effect::Quit]);
    assert!(m.quit);
    let (mut m, _) = model(Size::Eight);
    send(&mut m, [ch('?'), ch('q')]);
    assert!(m.quit);
}

#[test]
fn a_signal_quits_as_q_does() {
    let (mut m, _) = model(Size::Four);
    let effects = send(&mut m, [ch('b'), Msg::Signal(15)]);
    assert!(m.quit);
    assert_eq!(effects.last(), Some(&Effect::Quit));
}

#[test]
fn background_notices_join_the_status_line_and_never_replace_it() {
    let (mut m, _) = model(Size::Four);
    m.announce("session.txt is open in another explorer: this one keeps its session in session-2.txt");
    let busy = Msg::Notice { text: "the store is open in another explorer".into(), error: true };
    send(&mut m, [busy.clone()]);
    let status = m.status.clone().unwrap();
    assert_eq!(
        status.text,
        "session.txt is open in another explorer: this one keeps its session in session-2.txt · the store is open in another explorer"
    );
    assert!(status.error);
    // The same notice again adds nothing.
    send(&mut m, [busy.clone()]);
    assert_eq!(m.status.clone().unwrap().text, status.text);
    // After a key that says something, a notice is added after the key's message.
    send(&mut m, ":frobnicate".chars().map(ch));
    send(&mut m, [key(KeyCode::Enter)]);
    let said = m.status.clone().expect("the command says something").text;
    assert!(!said.contains("the store is open"), "{said}");
    send(&mut m, [busy]);
    assert_eq!(m.status.clone().unwrap().text, format!("{said} · the store is open in another explorer"));
    // Notices without a key in between never grow the line without end.
    for i in 0..200 {
        send(&mut m, [Msg::Notice { text: format!("the book was added, {i}"), error: false }]);
    }
    let text = m.status.unwrap().text;
    assert!(text.len() < 600 && text.ends_with("the book was added, 199"), "{text}");
}

#[test]
fn z_pauses_the_analysis_until_pressed_again() {
    let (mut m, _) = model(Size::Eight);
    assert!(m.job.is_some(), "the start is analysed at once");
    // Paused: the running search is cancelled, nothing starts on a move, the state says so.
    assert_eq!(send(&mut m, [ch('z')]), vec![Effect::Cancel]);
    assert!(m.paused && m.job.is_none());
    assert!(matches!(m.solver_state(), SolverState::Paused { total: 4, .. }));
    let effects = send(&mut m, [key(KeyCode::Enter)]);
    assert_eq!(m.tree.moves().len(), 1, "the move is played");
    assert!(effects.iter().all(|e| !matches!(e, Effect::Analyse { .. })), "{effects:?}");
    // Resumed: the position on screen is analysed.
    let effects = send(&mut m, [ch('z')]);
    let position = m.position();
    assert!(effects.iter().any(|e| matches!(e, Effect::Analyse { position: p, .. } if *p == position)), "{effects:?}");
    assert!(!m.paused && m.job.is_some());
}

#[test]
fn v_shows_values_from_blacks_side_and_back() {
    let (mut m, _) = model(Size::Eight);
    send(&mut m, [key(KeyCode::Enter)]); // white to move
    assert_eq!(m.shown_value(-3), -3, "from the side to move by default");
    send(&mut m, [ch('v')]);
    assert!(m.black_view);
    assert_eq!(m.shown_value(-3), 3, "white's -3 is black's +3");
    send(&mut m, [key(KeyCode::Enter)]); // black to move: black's view is the mover's
    assert_eq!(m.shown_value(-3), -3);
    send(&mut m, [ch('v')]);
    assert!(!m.black_view);
}

#[test]
fn a_replaced_tree_comes_back_with_restore() {
    let (mut m, _) = model(Size::Eight);
    command(&mut m, "moves f5d6c3");
    let explored = m.tree.transcript();
    command(&mut m, "size 6");
    assert_eq!(m.position(), Position::start(Size::Six));
    assert!(m.status.as_ref().unwrap().text.contains(":restore brings back the old tree (3 positions explored)"));
    command(&mut m, "restore");
    assert_eq!(m.tree.transcript(), explored, "the 8x8 tree is back, at its node");
    command(&mut m, "restore");
    assert_eq!(m.position(), Position::start(Size::Six), "and again swaps back");
    // :new, :board and :load replace too; nothing to restore in a fresh run is an error.
    let (mut fresh, _) = model(Size::Four);
    command(&mut fresh, "restore");
    assert!(fresh.status.as_ref().unwrap().error);
}

#[test]
fn reach_runs_off_the_ui_thread_and_loads_the_game_it_finds() {
    use othello_explorer::studies::reach::{self, Outcome, Refusal};
    let (mut m, _) = model(Size::Eight);
    let target = transcript::play(&Position::start(Size::Eight), "f5d6c3d3c4").unwrap().end();
    command(&mut m, &format!("board {target}"));
    let effects = command(&mut m, "reach");
    let Some(&Effect::Reach { job, position }) = effects.iter().find(|e| matches!(e, Effect::Reach { .. })) else {
        panic!("{effects:?}")
    };
    assert_eq!(position, target);
    // While it runs, its progress shows in the status line with the bound; a stale job's does not.
    let progress = reach::Progress { nodes: 65_536, max_nodes: 1_000_000_000, depth: 3, moves: 5 };
    send(&mut m, [Msg::ReachProgress { job: job + 7, progress }]);
    assert!(!m.status.as_ref().unwrap().text.contains("65536"), "{}", m.status.as_ref().unwrap().text);
    send(&mut m, [Msg::ReachProgress { job, progress }]);
    let status = m.status.as_ref().unwrap();
    assert!(!status.error, "{}", status.text);
    assert!(status.text.contains("depth 3/5, 65536 positions searched of at most 1000000000"), "{}", status.text);
    // A stale job changes nothing; the real search's answer loads a tree from the start.
    send(&mut m, [Msg::Reached { job: job + 7, outcome: Outcome::Cancelled { nodes: 1 } }]);
    assert_eq!(m.position(), target);
    assert_eq!(m.tree.position_of(m.tree.root()), target);
    let outcome = reach::reach(&target, &Default::default(), &Default::default());
    send(&mut m, [Msg::Reached { job, outcome }]);
    assert_eq!(m.tree.position_of(m.tree.root()), Position::start(Size::Eight));
    assert_eq!(m.position(), target, "the found line ends on the board");
    assert_eq!(m.tree.moves().len(), 5);
    assert!(m.status.as_ref().unwrap().text.contains("5-move game arrives here"));
    // :reach stop cancels a running search; a board no game reaches is said so.
    let effects = command(&mut m, "reach");
    assert!(effects.iter().any(|e| matches!(e, Effect::Reach { .. })));
    let effects = command(&mut m, "reach stop");
    assert!(effects.iter().any(|e| matches!(e, Effect::CancelReach)));
    let effects = command(&mut m, "reach");
    let Some(&Effect::Reach { job, .. }) = effects.iter().find(|e| matches!(e, Effect::Reach { .. })) else { panic!() };
    // Something else said meanwhile is not written over by the progress.
    command(&mut m, "moves z9");
    let said = m.status.clone();
    send(&mut m, [Msg::ReachProgress { job, progress }]);
    assert_eq!(m.status, said);
    send(&mut m, [Msg::Reached { job, outcome: Outcome::Unreachable { reason: Refusal::NoThreeInARow, nodes: 0 } }]);
    let status = m.status.as_ref().unwrap();
    assert!(status.error && status.text.contains("no game arrives at this board"), "{}", status.text);
}

/// The list of a file's games has a result column: black's final score where the game ends on the
/// board (the reference rules' score), `unknown` where it does not (issue 97, item 8).
#[test]
fn the_list_of_a_files_games_shows_each_result() {
    use othello_explorer::notation::gamefile::{Format, Game, wthor};
    // A game to its end by the reference rules (the first legal move each time), and one cut.
    let mut b = reference::Board::start(8);
    let mut moves = Vec::new();
    while !b.game_over() {
        if b.must_pass() {
            b = b.pass();
            continue;
        }
        let m = b.moves()[0];
        moves.push(reference::name(8, m));
        b = b.play(m);
    }
    let score = b.for_black(b.final_score());
    let start = Position::start(Size::Eight);
    let line = |t: &str| transcript::play(&start, t).unwrap().moves;
    let games =
        [Game::new(start, line(&moves.concat()), Format::Wthor), Game::new(start, line("f5d6c3"), Format::Wthor)];
    let bytes = wthor::write(&games, 2026).unwrap();
    let (mut m, _) = model(Size::Eight);
    update(&mut m, Msg::Loaded { path: "games.wtb".into(), index: None, result: Ok(bytes) });
    let Overlay::Pick(list) = &m.overlay else { panic!("{:?}", m.overlay) };
    assert!(list.lines[0].contains(&format!("  {score:+}")), "{score}: {:?}", list.lines);
    assert!(list.lines[0].contains(&format!("{:>5}  ", moves.len())), "{:?}", list.lines);
    assert!(list.lines[0].contains(&format!("{}…", &moves.concat()[..12])), "{:?}", list.lines);
    assert!(list.lines[1].contains("-54 stated"), "a WTHOR game stopped early: {:?}", list.lines);
    assert_eq!(list.title, "2 games in games.wtb");
    // Drawn: the title, the heading, then the lines.
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| drop(othello_explorer::tui::testing::view::view(&m, f))).unwrap();
    let text = terminal.backend().to_string();
    assert!(text.contains(" 2 games in games.wtb ") && text.contains("#  result        moves"), "{text}");
}

/// `:load FILE N` picks game N of a file of several, and a WTHOR database (binary) loads as GGF
/// and transcripts do; without N the first game loads and the status says how to pick another
/// (issue 37, item 5).
#[test]
fn load_reads_wthor_databases_and_picks_a_game_by_number() {
    use othello_explorer::notation::gamefile::{Format, Game, wthor};
    let (mut m, _) = model(Size::Eight);
    assert_eq!(command(&mut m, "load games.wtb 2"), vec![Effect::Load { path: "games.wtb".into(), index: Some(2) }]);
    assert_eq!(command(&mut m, "load my games.wtb"), vec![Effect::Load { path: "my games.wtb".into(), index: None }]);
    command(&mut m, "load games.wtb 0");
    assert!(m.status.as_ref().unwrap().text.contains("load FILE [N], N from 1"), "{:?}", m.status);

    let start = Position::start(Size::Eight);
    let line = |t: &str| transcript::play(&start, t).unwrap().moves;
    let games = [Game::new(start, line("f5d6c3"), Format::Wthor), Game::new(start, line("f5f6e6f4"), Format::Wthor)];
    let bytes = wthor::write(&games, 2026).unwrap();
    update(&mut m, Msg::Loaded { path: "games.wtb".into(), index: Some(2), result: Ok(bytes.clone()) });
    assert_eq!(m.tree.transcript(), "f5f6e6f4");
    assert!(m.status.as_ref().unwrap().text.contains("game 2 of 2"), "{:?}", m.status);
    // Without a number: the list of the file's games to choose from; the tree waits.
    update(&mut m, Msg::Loaded { path: "games.wtb".into(), index: None, result: Ok(bytes.clone()) });
    assert_eq!(m.tree.transcript(), "f5f6e6f4");
    let Overlay::Pick(list) = &m.overlay else { panic!("{:?}", m.overlay) };
    assert_eq!((list.total, list.lines.len()), (2, 2));
    // A result column: neither game ends on the board, so each has the result its score byte
    // states (black's discs when written: 5 after f5d6c3, -54; 3 after f5f6e6f4, -58).
    assert!(list.header.contains("result") && list.header.contains("moves"), "{}", list.header);
    assert!(list.lines[0].contains("-54 stated        3  ") && list.lines[0].ends_with("f5d6c3"), "{:?}", list.lines);
    assert!(list.lines[1].contains("-58 stated        4  ") && list.lines[1].ends_with("f5f6e6f4"), "{:?}", list.lines);
    assert!(m.status.as_ref().unwrap().text.contains("holds 2 games"), "{:?}", m.status);
    // Down, up, down: the second; Enter loads it.
    send(&mut m, [key(KeyCode::Down), key(KeyCode::Up), key(KeyCode::Down), key(KeyCode::Enter)]);
    assert_eq!(m.overlay, Overlay::None);
    assert_eq!(m.tree.transcript(), "f5f6e6f4");
    assert!(m.status.as_ref().unwrap().text.contains("game 2 of 2"), "{:?}", m.status);
    // Esc closes the list and loads nothing.
    update(&mut m, Msg::Loaded { path: "games.wtb".into(), index: None, result: Ok(bytes.clone()) });
    send(&mut m, [key(KeyCode::Up), key(KeyCode::Esc)]);
    assert_eq!((m.overlay.clone(), m.tree.transcript()), (Overlay::None, "f5f6e6f4".to_string()));
    update(&mut m, Msg::Loaded { path: "games.wtb".into(), index: Some(1), result: Ok(bytes.clone()) });
    assert_eq!(m.tree.transcript(), "f5d6c3");
    update(&mut m, Msg::Loaded { path: "games.wtb".into(), index: Some(3), result: Ok(bytes) });
    assert_eq!(m.tree.transcript(), "f5d6c3", "a game that is not there changes nothing");
    assert!(m.status.as_ref().unwrap().error, "{:?}", m.status);
}

#[test]
fn p_replays_the_loaded_game_and_shift_p_plays_the_engines_line() {
    let start = Position::start(Size::Four);
    let game = transcript::play(&start, "c4d4d3b4").unwrap().moves;
    let now = Instant::now();
    let mut m = Model::new(start, &game, Config::default(), now);
    m.init();
    send(&mut m, [key(KeyCode::Home)]);
    let nodes = m.tree.len();
    send(&mut m, [ch('p')]);
    let auto = m.auto().expect("auto-play on");
    assert!(!auto.engine, "on a loaded game p plays the game");
    let delay = Config::default().auto_delay;
    let mut t = now;
    for _ in 0..10 {
        t += delay;
        update(&mut m, Msg::Tick(t));
    }
    // The game's moves, move for move, no branch made, no mark of its own.
    assert_eq!(m.tree.transcript(), "c4d4d3b4");
    assert_eq!(m.tree.len(), nodes, "no new branch");
    assert!(m.auto().is_none(), "it stops where the game ends");
    assert!(m.status.as_ref().unwrap().text.contains("the end of the line"), "{:?}", m.status);
    // P: the engine's line, even with the game ahead.
    send(&mut m, [key(KeyCode::Home), ch('P')]);
    assert!(m.auto().is_some_and(|a| a.engine));
    send(&mut m, [ch('P')]);
    assert!(m.auto().is_none());
    // At the end of the line, p has nothing ahead: the engine's line.
    send(&mut m, [key(KeyCode::End), ch('p')]);
    assert!(m.auto().is_some_and(|a| a.engine));
}

#[test]
fn a_typed_square_plays_from_the_position_on_screen() {
    let (mut m, t0) = model(Size::Eight);
    send(&mut m, [ch('f'), ch('5')]);
    assert_eq!(m.tree.transcript(), "f5");
    send(&mut m, [ch('d'), ch('6')]);
    assert_eq!(m.tree.transcript(), "f5d6");
    // A square that is not legal is refused, and nothing is played.
    send(&mut m, [ch('c'), ch('8')]);
    assert_eq!(m.tree.transcript(), "f5d6");
    assert!(m.status.as_ref().unwrap().error, "{:?}", m.status);
    assert!(m.status.as_ref().unwrap().text.contains("c8 is not a legal move here"), "{:?}", m.status);
    // `e` has a key of its own (teach): followed by a row it is a square...
    send(&mut m, [key(KeyCode::Home), ch('e'), ch('6')]);
    assert_eq!(m.tree.transcript(), "e6");
    assert!(m.teach().is_none());
    // ...alone, it does what its key does once the row is no longer expected.
    send(&mut m, [key(KeyCode::Home), ch('e')]);
    assert!(m.teach().is_none());
    update(&mut m, Msg::Tick(t0 + Duration::from_secs(60)));
    assert!(m.teach().is_some(), "e alone opens the teaching view after the wait");
    send(&mut m, [key(KeyCode::Esc)]);
    // A column without a legal move is not a square: the key is itself at once.
    let (mut m, _) = model(Size::Eight);
    send(&mut m, [ch('a'), ch('1')]);
    assert_eq!(m.tree.transcript(), "");
    // In a game, a typed square is your move.
    let (mut m, _) = model(Size::Four);
    command(&mut m, "play black");
    send(&mut m, [ch('c'), ch('4')]);
    assert_eq!(m.tree.transcript(), "c4");
}

#[test]
fn moves_continue_from_here_and_from_the_root_with_a_slash() {
    let (mut m, _) = model(Size::Eight);
    command(&mut m, "moves f5d6");
    assert_eq!(m.tree.transcript(), "f5d6");
    command(&mut m, "moves c3d3");
    assert_eq!(m.tree.transcript(), "f5d6c3d3", "{:?}", m.status);
    assert!(m.status.as_ref().unwrap().text.contains("played 2 moves from here"), "{:?}", m.status);
    command(&mut m, "moves /e6f4");
    assert_eq!(m.tree.transcript(), "e6f4");
    assert!(m.status.as_ref().unwrap().text.contains("from the root"), "{:?}", m.status);
}

#[test]
fn export_keeps_the_players_and_writes_only_exact_values() {
    let (mut m, _) = model(Size::Four);
    let ggf = "(;GM[Othello]PC[here]PB[Ann]PW[Bob]TY[4]BO[4 -----O*--*O----- *]B[c4]W[d4];)";
    update(&mut m, Msg::Loaded { path: "g.ggf".into(), index: None, result: Ok(ggf.as_bytes().to_vec()) });
    assert_eq!(m.tree.transcript(), "c4d4");
    // The first position: an estimate of c4; the second: d4's exact score.
    let start = m.tree.position_of(m.tree.root());
    let after = transcript::play(&start, "c4").unwrap().end();
    let job = m.job.as_ref().map_or(0, |j| j.id);
    update(
        &mut m,
        event(job, start, EventKind::Child(ChildValue { square: sq("c4"), score: -4, kind: Kind::estimate(3) })),
    );
    update(&mut m, event(job, after, EventKind::Child(ChildValue { square: sq("d4"), score: 6, kind: Kind::Exact })));
    let effects = command(&mut m, "export out.ggf");
    let Some(Effect::Save { contents, .. }) = effects.first() else { panic!("{effects:?}") };
    assert!(contents.contains("PB[Ann]PW[Bob]"), "{contents}");
    assert!(contents.contains("B[c4]W[d4/+6]"), "the estimate is left out, the exact score kept: {contents}");
}

#[test]
fn the_header_names_the_depth_the_table_shows() {
    let (mut m, _) = model(Size::Eight);
    let job = m.job.clone().unwrap();
    let ev = |kind| event(job.id, job.position, kind);
    update(&mut m, ev(EventKind::Phase(Phase::Estimate)));
    for square in job.position.legal_moves().reading_order() {
        update(&mut m, ev(EventKind::Child(ChildValue { square, score: 0, kind: Kind::estimate(18) })));
    }
    update(&mut m, ev(EventKind::Depth(18)));
    update(&mut m, ev(EventKind::Child(ChildValue { square: sq("f5"), score: 1, kind: Kind::estimate(19) })));
    let SolverState::Solving { depth, .. } = m.solver_state() else { panic!("{:?}", m.solver_state()) };
    assert_eq!(depth, Some(19), "the table shows f5 at @19");
}

#[test]
fn the_engine_honours_its_levels_time_and_says_it_thinks() {
    // A 6x6 position the engine (white) has estimates of to depth 4 only, below its
    // level (10), and plays the best of them once the level's time (2 s) is spent.
    let start = Position::start(Size::Six);
    let moves = transcript::play(&start, "e4c5b4").unwrap().moves;
    let t0 = Instant::now();
    let mut m = Model::new(start, &moves, Config::default(), t0);
    m.init();
    command(&mut m, "play black");
    let p = m.position();
    assert_eq!(p.to_move(), othello_explorer::Color::White);
    update(&mut m, Msg::Tick(t0));
    let job = m.job.clone().expect("the engine's analysis runs");
    assert_eq!(job.position, p);
    for (i, square) in p.legal_moves().reading_order().into_iter().enumerate() {
        let c = ChildValue { square, score: i as i32, kind: Kind::estimate(4) };
        update(&mut m, event(job.id, p, EventKind::Child(c)));
    }
    update(&mut m, event(job.id, p, EventKind::Depth(4)));
    update(&mut m, Msg::Tick(t0 + Duration::from_millis(1500)));
    assert_eq!(m.position(), p, "still within the level's time");
    let (spent, budget) = m.engine_thinking().expect("the engine thinks");
    assert_eq!((spent, budget), (Duration::from_millis(1500), Duration::from_secs(2)));
    assert!(m.mode_text().unwrap().1.contains("the engine thinks: 1.5s of at most 2.0s"), "{:?}", m.mode_text());
    update(&mut m, Msg::Tick(t0 + Duration::from_millis(2100)));
    assert_ne!(m.position(), p, "played once the level's time was spent");
}

#[test]
fn review_marks_from_estimates_show_apart_and_only_beyond_their_error() {
    // 8x8, three moves; the review is fed estimates @12 for the positions it examines.
    let start = Position::start(Size::Eight);
    let line = transcript::play(&start, "f5d6c3").unwrap();
    let mut m = Model::new(start, &line.moves, Config::default(), Instant::now());
    m.init();
    let mut effects = command(&mut m, "review");
    for _ in 0..20 {
        let Some(Effect::Review { job, position, played, .. }) =
            effects.iter().find(|e| matches!(e, Effect::Review { .. })).cloned()
        else {
            break;
        };
        // The played move looks 5 discs worse than the best at f5 (within the measured error),
        // 20 worse at d6 (beyond it); c3 is the best.
        let loss = match played.map(|p| p.to_string()).unwrap_or_default().as_str() {
            "f5" => 5,
            "d6" => 20,
            _ => 0,
        };
        let mut children = Vec::new();
        for square in position.legal_moves().reading_order() {
            let score = if Some(square) == played {
                3 - loss
            } else if loss == 0 {
                0
            } else {
                3
            };
            children.push(ChildValue { square, score, kind: Kind::estimate(12) });
        }
        update(&mut m, event(job, position, EventKind::Reviewed { played, children, evaluator: Evaluator::Patterns }));
        effects = update(&mut m, event(job, position, EventKind::Cancelled));
    }
    assert!(m.status.as_ref().unwrap().text.starts_with("review done"), "{:?}", m.status);
    let ids = m.tree.line();
    use othello_explorer::studies::review::Mark;
    assert_eq!(m.mark(ids[1]), None, "a loss within the estimates' error is no mark");
    assert_eq!(m.mark(ids[2]), Some((Mark::Blunder, false)), "20 less the margin (6 at 28-34 empties, depth 12): 14");
    assert!(m.review_summary().contains("(1 from estimates)"), "{}", m.review_summary());
    // The history writes it apart.
    let (_, mut terminal) = ((), ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap());
    terminal.draw(|f| drop(othello_explorer::tui::testing::view::view(&m, f))).unwrap();
    let text = terminal.backend().to_string();
    assert!(text.contains("2.d6~??"), "{text}");
    // Turned off and on, a reviewed line is not reviewed again: it says so at once.
    command(&mut m, "review off");
    let effects = command(&mut m, "review");
    assert!(!effects.iter().any(|e| matches!(e, Effect::Review { .. })), "{effects:?}");
    assert!(m.status.as_ref().unwrap().text.contains("reviewed already"), "{:?}", m.status);
}

/// A marked move's refutation and reasons, as the review job sends them after its values: the
/// line panel says why, and the board draws the first reason's squares.
#[test]
fn a_marked_move_shows_why_it_loses_and_its_squares() {
    use othello_explorer::studies::review::reasons::{self, Why};
    // 4x4: after c4, d4 is proven best for white and b4 (say) loses.
    let start = Position::start(Size::Four);
    let line = transcript::play(&start, "c4b4").unwrap();
    let mut m = Model::new(start, &line.moves, Config::default(), Instant::now());
    m.init();
    let mut effects = command(&mut m, "review");
    let before = start.play("c4".parse().unwrap()).unwrap();
    let (played, best): (Square, Square) = ("b4".parse().unwrap(), "d4".parse().unwrap());
    for _ in 0..10 {
        let Some(Effect::Review { job, position, played: p, .. }) =
            effects.iter().find(|e| matches!(e, Effect::Review { .. })).cloned()
        else {
            break;
        };
        let children: Vec<ChildValue> = position
            .legal_moves()
            .reading_order()
            .into_iter()
            .map(|square| {
                let score = if position == before && square != best { -8 } else { 0 };
                ChildValue { square, score, kind: Kind::Exact }
            })
            .collect();
        update(
            &mut m,
            event(job, position, EventKind::Reviewed { played: p, children, evaluator: Evaluator::Patterns }),
        );
        if position == before {
            let refutation = vec!["a4".parse().unwrap()];
            let best_line = vec![best, "d3".parse().unwrap()];
            let found = reasons::reasons(&before, played, &refutation, &best_line);
            let why = Why { refutation, best_line, reasons: found };
            update(&mut m, event(job, position, EventKind::Why { played, why }));
        }
        effects = update(&mut m, event(job, position, EventKind::Cancelled));
    }
    let ids = m.tree.line();
    let why = m.why(ids[2]).expect("the marked move's why").clone();
    assert_eq!(why.refutation, ["a4".parse::<Square>().unwrap()]);
    assert_eq!(m.why(ids[1]), None, "an unmarked move has none");
    // On the marked move: the board draws the first reason's squares (or nothing when no reason
    // stands out), and the line panel says why.
    assert_eq!(m.tree.current(), ids[2], "on the marked move");
    let expected = why.reasons.first().map(|r| r.mask(Size::Four));
    assert_eq!(m.board_mask(), expected);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| drop(othello_explorer::tui::testing::view::view(&m, f))).unwrap();
    let text = terminal.backend().to_string();
    let first = why.reasons.first().map_or("the difference is deeper", |r| &r.detail[..20]);
    assert!(text.contains(&format!("why: {first}")), "{text}");
}

#[test]
fn the_archive_panel_and_games_open_the_masters_games() {
    use othello_explorer::archive::{Archive, ArchivedGame};
    let start = Position::start(Size::Eight);
    let game = |t: &str, black: &str| ArchivedGame {
        start,
        moves: transcript::play(&start, t).unwrap().moves.iter().map(|&m| Some(m)).collect(),
        black: Some(black.into()),
        white: Some("Zed".into()),
        tournament: Some("Open".into()),
        year: Some(2001),
        stated: None,
    };
    let mut archive = Archive::default();
    archive.add("x", 1, &[game("f5d6c3d3", "Ann"), game("f5d6c3f4", "Bob"), game("f5f6e6f4", "Cy")]);
    archive.finish();
    let (mut m, _) = model(Size::Eight);
    // A: the panel, and the archive read once.
    let effects = send(&mut m, [ch('A')]);
    assert!(effects.contains(&Effect::LoadArchive), "{effects:?}");
    update(&mut m, Msg::ArchiveLoaded(Ok(std::sync::Arc::new(archive))));
    assert!(m.archive_panel());
    command(&mut m, "moves f5");
    let s = m.archive_stats().unwrap();
    assert_eq!(s.games, 3);
    assert_eq!(
        s.moves.iter().map(|mv| (mv.square.unwrap().to_string(), mv.games)).collect::<Vec<_>>(),
        [("d6".to_string(), 2), ("f6".to_string(), 1)]
    );
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| drop(othello_explorer::tui::testing::view::view(&m, f))).unwrap();
    let text = terminal.backend().to_string();
    assert!(text.contains("archive · 3 games"), "{text}");
    // At 80x24 the panel is too narrow for its table: it says where the games are.
    let mut small = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    small.draw(|f| drop(othello_explorer::tui::testing::view::view(&m, f))).unwrap();
    let text = small.backend().to_string();
    assert!(text.contains(":games lists"), "{text}");
    // :games after d6: the two games, and Enter opens the chosen one as a new tree.
    command(&mut m, "moves d6");
    command(&mut m, "games");
    let Overlay::Pick(list) = &m.overlay else { panic!("{:?}", m.overlay) };
    assert_eq!(list.lines.len(), 2);
    // Under the heading of `archive games`: the result (these 4-move games have none), the
    // moves, the players.
    assert!(list.lines[0].contains("unknown") && list.lines[0].contains("Ann – Zed"), "{:?}", list.lines);
    assert!(list.header.starts_with(" result"), "{}", list.header);
    send(&mut m, [key(KeyCode::Down), key(KeyCode::Enter)]);
    assert_eq!(m.tree.transcript(), "f5d6c3f4");
    // A again: the panel closes.
    send(&mut m, [ch('A')]);
    assert!(!m.archive_panel());
}

#[test]
fn percent_cycles_the_selectivity_and_analyses_the_position_again_at_it() {
    let (mut m, _) = model(Size::Eight);
    send(&mut m, [ch('f'), ch('5')]);
    let job = m.job.clone().expect("the position after f5 is analysed");
    assert_eq!((m.selectivity, job.selectivity), (DEFAULT_SELECTIVITY, DEFAULT_SELECTIVITY));
    let pos = job.position;
    let at = |depth, selectivity| Kind::Estimate { depth, selectivity };
    // Estimates at the first level, a line, and a proof.
    update(&mut m, event(job.id, pos, EventKind::Phase(Phase::Estimate)));
    for (s, score) in [("d6", 1), ("f6", -2)] {
        let c = ChildValue { square: sq(s), score, kind: at(12, DEFAULT_SELECTIVITY) };
        update(&mut m, event(job.id, pos, EventKind::Child(c)));
    }
    let line = EventKind::Line { depth: 12, selectivity: DEFAULT_SELECTIVITY, moves: vec![sq("d6"), sq("c3")] };
    update(&mut m, event(job.id, pos, line));
    update(&mut m, event(job.id, pos, EventKind::Child(ChildValue { square: sq("f4"), score: -1, kind: Kind::Wld })));
    assert_eq!(m.solver_state().estimate(), Some(at(12, DEFAULT_SELECTIVITY)));
    assert_eq!(m.shown_line().unwrap().kind, LineKind::Estimate { depth: 12, selectivity: DEFAULT_SELECTIVITY });

    // `%`: the next level, and the position on screen analysed again at it.
    let next = DEFAULT_SELECTIVITY.cycled();
    assert_ne!(next, DEFAULT_SELECTIVITY);
    let effects = update(&mut m, ch('%'));
    assert_eq!(m.selectivity, next);
    let again = m.job.clone().expect("a new analysis");
    assert!(again.id > job.id && again.position == pos && again.selectivity == next, "{again:?}");
    assert_eq!(effects, vec![Effect::Analyse { job: again.id, position: pos, selectivity: next }]);
    assert!(m.status.as_ref().is_some_and(|s| s.text.starts_with(&format!("selectivity {next}"))), "{:?}", m.status);
    // The estimates of the old level are gone, the proof stays; the old job's late reports are
    // not filed, the new job's are, with their level.
    assert_eq!(m.child_score(sq("d6")), None);
    assert_eq!(m.child_score(sq("f4")).map(|s| s.kind), Some(Kind::Wld));
    assert_eq!(m.shown_line(), None);
    let late = ChildValue { square: sq("d6"), score: 3, kind: at(14, DEFAULT_SELECTIVITY) };
    update(&mut m, event(job.id, pos, EventKind::Child(late)));
    let late_line = EventKind::Line { depth: 14, selectivity: DEFAULT_SELECTIVITY, moves: vec![sq("d6")] };
    update(&mut m, event(job.id, pos, late_line));
    assert_eq!(m.child_score(sq("d6")), None, "a late estimate of the old level");
    update(&mut m, event(again.id, pos, EventKind::Phase(Phase::Estimate)));
    let fresh = ChildValue { square: sq("d6"), score: 2, kind: at(3, next) };
    update(&mut m, event(again.id, pos, EventKind::Child(fresh)));
    assert_eq!(m.child_score(sq("d6")).map(|s| (s.value, s.kind)), Some((2, at(3, next))));
    assert_eq!(m.solver_state().estimate(), Some(at(3, next)), "estimating @3 at the new level");

    // Round the levels: 73% 87% 95% 98% 99% 100%, then 73% again; each a new analysis.
    let mut seen = vec![m.selectivity];
    for _ in 0..Selectivity::ALL.len() - 1 {
        let effects = update(&mut m, ch('%'));
        assert!(matches!(effects[..], [Effect::Analyse { selectivity, .. }] if selectivity == m.selectivity));
        seen.push(m.selectivity);
    }
    seen.sort();
    assert_eq!(seen, Selectivity::ALL.to_vec());
    assert_eq!(m.selectivity.cycled(), next, "six presses come back");

    // `:selectivity N` sets it; a level that is not one is refused, nothing changed.
    let effects = command(&mut m, "selectivity 100");
    assert_eq!(m.selectivity, Selectivity::FULL);
    assert!(matches!(effects[..], [Effect::Analyse { selectivity: Selectivity::FULL, .. }]), "{effects:?}");
    let effects = command(&mut m, "selectivity 90");
    assert_eq!(m.selectivity, Selectivity::FULL);
    assert!(effects.is_empty() && m.status.as_ref().is_some_and(|s| s.error), "{:?}", m.status);
    assert!(command(&mut m, "selectivity 100%").is_empty(), "the same level: nothing to do");
}

#[test]
fn a_paused_or_proven_position_is_not_searched_on_a_change_of_selectivity() {
    let (mut m, _) = model(Size::Four);
    solve_current(&mut m);
    assert!(m.job.is_none());
    let effects = update(&mut m, ch('%'));
    assert!(effects.is_empty(), "every child proven: nothing to estimate ({effects:?})");
    assert_eq!(
        m.solver_state(),
        othello_explorer::tui::testing::app::SolverState::Exact { nodes: 100, elapsed: Duration::from_millis(5) }
    );
    let (mut m, _) = model(Size::Eight);
    update(&mut m, ch('z'));
    assert!(m.job.is_none());
    assert!(update(&mut m, ch('%')).is_empty(), "paused: no search");
}
