//! The key contexts and the modes at the `update` level: which contexts are active in each mode,
//! a game against the engine (perfect on 4x4 by a plain negamax of the reference rules, the
//! take-back, the hidden values), the drill (the loss of a move against the same negamax, the
//! tally), and the board editor (discs, side to move, unreachable boards flagged). Then insta
//! snapshots of the key bar and the help in every mode, at 80x24 and 120x40.

mod common;
mod reference;

use othello_explorer::solver::{Evaluator, Limits, Solver, SolverOptions};
use othello_explorer::tui::testing::app::{Config, Effect, Model, Msg, Overlay, update};
use othello_explorer::tui::testing::keys::Context;
use othello_explorer::tui::testing::view;
use othello_explorer::tui::testing::worker::{EventKind, SolverEvent};
use othello_explorer::{Color, Position, Size, Square};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use reference::{Board, Side, negamax};
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

fn model(size: Size) -> Model {
    let mut m = Model::new(Position::start(size), &[], Config::default(), Instant::now());
    m.init();
    m
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

/// Feeds the model what the real solver reports for the position it asked about.
fn solve_current(m: &mut Model) {
    let Some(job) = m.job.clone() else { return };
    let mut solver = Solver::new(SolverOptions { hash_mb: 16, threads: 1, ..SolverOptions::default() });
    let mut children = Vec::new();
    solver.score_children(&job.position, &Limits::default(), &mut |c| children.push(c)).unwrap();
    let pv = solver.principal_variation(&job.position, &Limits::default()).unwrap();
    let ev = |kind| Msg::Solver(SolverEvent { job: job.id, position: job.position, kind });
    for c in children {
        update(m, ev(EventKind::Child(c.into())));
    }
    let t = Duration::from_millis(3);
    update(m, ev(EventKind::ChildrenDone { nodes: 100, elapsed: t }));
    update(m, ev(EventKind::Pv { moves: pv, nodes: 100, elapsed: t }));
}

fn board_of(p: &Position) -> Board {
    let side = if p.to_move() == Color::Black { Side::Black } else { Side::White };
    Board::from_bits(p.size().n(), p.black().bits(), p.white().bits(), side)
}

/// Each legal move's exact value by the negamax, from the side to move.
fn move_values(p: &Position) -> Vec<(Square, i32)> {
    let b = board_of(p);
    let n = p.size().n();
    b.moves().into_iter().map(|i| (Square::new(i % n, i / n).unwrap(), -negamax(&b.play(i)))).collect()
}

#[test]
fn each_mode_has_its_contexts() {
    let mut m = model(Size::Four);
    assert_eq!(m.contexts(), [Context::Normal]);
    send(&mut m, [ch('t')]);
    assert_eq!(m.contexts(), [Context::History, Context::Normal]);
    send(&mut m, [key(KeyCode::Esc)]);
    assert_eq!(m.contexts(), [Context::Normal]);
    assert!(!m.quit, "Esc in the history gives the arrows back, it does not quit");
    send(&mut m, [ch('e')]);
    assert_eq!(m.contexts(), [Context::Teaching, Context::Normal]);
    send(&mut m, [ch('?')]);
    assert_eq!(m.contexts(), [Context::Help]);
    assert_eq!(m.help_contexts(), [Context::Help, Context::Teaching, Context::Normal]);
    send(&mut m, [key(KeyCode::Esc), key(KeyCode::Esc), ch(':')]);
    assert_eq!(m.contexts(), [Context::Command]);
    // Keys of the board type into the command line.
    send(&mut m, [ch('q'), ch('b')]);
    assert_eq!(m.overlay, Overlay::Command("qb".into()));
    assert!(!m.quit);
    send(&mut m, [key(KeyCode::Esc)]);
    command(&mut m, "play black");
    assert_eq!(m.contexts(), [Context::Play, Context::Normal]);
    command(&mut m, "drill");
    assert!(m.game().is_none(), "a drill ends the game");
    assert_eq!(m.contexts(), [Context::Drill, Context::Normal]);
    send(&mut m, [ch('E')]);
    assert_eq!(m.contexts(), [Context::Edit]);
    send(&mut m, [ch('?')]);
    assert_eq!(m.help_contexts(), [Context::Help, Context::Edit]);
}

#[test]
fn the_engine_plays_4x4_perfectly_and_u_takes_back_to_the_humans_move() {
    let mut m = model(Size::Four);
    let mut now = Instant::now();
    command(&mut m, "play white");
    assert!(m.values_hidden(), "values hide while the user plays");
    send(&mut m, [ch('x')]);
    assert!(!m.values_hidden());
    send(&mut m, [ch('x')]);
    let start = m.position();
    let perfect = negamax(&board_of(&start));
    let mut human_moves = 0;
    for _ in 0..40 {
        let p = m.position();
        if p.is_game_over() {
            break;
        }
        solve_current(&mut m);
        if p.to_move() == Color::Black && !p.must_pass() {
            // The engine moves on a tick, and only a move of the best value.
            let best = move_values(&p).iter().map(|&(_, v)| v).max().unwrap();
            now += Duration::from_millis(100);
            send(&mut m, [Msg::Tick(now)]);
            let edge = m.tree.edge(m.tree.current()).expect("the engine moved");
            let played = move_values(&p).into_iter().find(|&(s, _)| Some(s) == edge.square()).unwrap();
            assert_eq!(played.1, best, "{p}: the engine played {edge}");
        } else if p.must_pass() {
            now += Duration::from_millis(100);
            send(&mut m, [Msg::Tick(now)]);
        } else {
            // The human: the last legal move in reading order (no engine would choose by that).
            let last = *p.legal_moves().reading_order().last().unwrap();
            m.cursor = last;
            send(&mut m, [key(KeyCode::Enter)]);
            human_moves += 1;
        }
    }
    let end = m.position();
    assert!(end.is_game_over(), "the game ended");
    assert!(human_moves >= 2);
    now += Duration::from_millis(100);
    send(&mut m, [Msg::Tick(now)]);
    let black = end.black_score(othello_explorer::Scoring::Standard);
    assert!(black >= perfect, "the engine as black got {black}, perfect play gets at least {perfect}");
    let status = m.status.clone().unwrap().text;
    assert!(status.contains("game over") && status.contains("won"), "{status}");
    // u takes back to the human's (white's) previous move.
    send(&mut m, [ch('u')]);
    let p = m.position();
    assert_eq!(p.to_move(), Color::White, "{p}");
    assert!(!p.must_pass());
    // :play off: exploring again, the values show.
    command(&mut m, "play off");
    assert!(m.game().is_none() && !m.values_hidden());
}

#[test]
fn engine_against_engine_keeps_the_delay_between_moves() {
    let mut m = model(Size::Four);
    let mut now = Instant::now();
    command(&mut m, "play both");
    solve_current(&mut m);
    send(&mut m, [Msg::Tick(now)]);
    assert_eq!(m.tree.depth(m.tree.current()), 1, "the first move at once");
    solve_current(&mut m);
    now += Duration::from_millis(100);
    send(&mut m, [Msg::Tick(now)]);
    assert_eq!(m.tree.depth(m.tree.current()), 1, "the next waits the auto-play delay");
    now += Config::default().auto_delay;
    send(&mut m, [Msg::Tick(now)]);
    assert_eq!(m.tree.depth(m.tree.current()), 2);
}

#[test]
fn the_drill_shows_every_value_and_the_loss_of_the_move_chosen() {
    let mut m = model(Size::Four);
    // Past the symmetric first moves, to where one move is worse than another.
    while move_values(&m.position()).iter().all(|&(_, v)| v == move_values(&m.position())[0].1) {
        send(&mut m, [key(KeyCode::Enter)]);
    }
    command(&mut m, "drill");
    solve_current(&mut m);
    assert!(m.values_hidden());
    let p = m.position();
    let values = move_values(&p);
    let best = values.iter().map(|&(_, v)| v).max().unwrap();
    let (worst_sq, worst) = values.iter().copied().min_by_key(|&(_, v)| v).unwrap();
    assert!(worst < best, "4x4 has a losing first move");
    m.cursor = worst_sq;
    send(&mut m, [key(KeyCode::Enter)]);
    assert!(!m.values_hidden(), "the values show once a move is chosen");
    assert_eq!(m.position(), p, "choosing does not play yet");
    let d = m.drill().cloned().unwrap();
    assert_eq!(d.tally.moves, 1);
    assert_eq!(d.tally.lost, (best - worst) as u32);
    assert_eq!(d.tally.best, 0);
    let status = m.status.clone().unwrap().text;
    assert!(status.contains(&format!("lost {}", best - worst)), "{status}");
    // Again: the move is played, the values hide for the next one.
    send(&mut m, [key(KeyCode::Enter)]);
    assert_eq!(m.tree.edge(m.tree.current()).and_then(|e| e.square()), Some(worst_sq));
    assert!(m.values_hidden());
    // A best move loses nothing.
    solve_current(&mut m);
    let p = m.position();
    let (best_sq, _) = move_values(&p).into_iter().max_by_key(|&(_, v)| v).unwrap();
    m.cursor = best_sq;
    send(&mut m, [key(KeyCode::Enter)]);
    let d = m.drill().cloned().unwrap();
    assert_eq!((d.tally.moves, d.tally.best, d.tally.lost), (2, 1, (best - worst) as u32));
    command(&mut m, "drill off");
    assert!(m.status.clone().unwrap().text.contains("2 moves · 1 best"));
}

#[test]
fn the_editor_places_discs_sets_the_side_and_flags_what_no_game_reaches() {
    let mut m = model(Size::Eight);
    let effects = send(&mut m, [ch('E')]);
    assert_eq!(effects, [Effect::Cancel], "the analysis stops while editing");
    m.cursor = sq("a1");
    send(&mut m, [ch('x')]);
    assert!(m.position().black().contains(sq("a1")));
    let status = m.status.clone().unwrap().text;
    assert!(status.contains("unreachable: a1 not connected to the centre"), "{status}");
    send(&mut m, [ch('.')]);
    assert!(!m.position().black().contains(sq("a1")));
    assert!(m.status.clone().unwrap().text.contains("no game rules it out"));
    // A click cycles empty, black, white.
    m.cursor = sq("c4");
    send(&mut m, [ch(' '), ch(' ')]);
    assert!(m.position().white().contains(sq("c4")));
    send(&mut m, [ch('s')]);
    assert_eq!(m.position().to_move(), Color::White);
    let edited = m.position();
    // Enter explores it; :restore brings the old tree back.
    let effects = send(&mut m, [key(KeyCode::Enter)]);
    assert!(m.editor().is_none());
    assert_eq!(m.tree.position_of(m.tree.root()), edited);
    assert!(effects.iter().any(|e| matches!(e, Effect::Analyse { position, .. } if *position == edited)));
    command(&mut m, "restore");
    assert_eq!(m.position(), Position::start(Size::Eight));
    // An empty centre is flagged; Esc leaves the tree as it was.
    send(&mut m, [ch('E'), ch('c')]);
    let status = m.status.clone().unwrap().text;
    assert!(status.contains("d4 e4 d5 e5 empty"), "{status}");
    send(&mut m, [key(KeyCode::Esc)]);
    assert!(m.editor().is_none());
    assert_eq!(m.position(), Position::start(Size::Eight));
}

#[test]
fn one_activity_at_a_time_and_the_editor_gives_back_what_it_suspended() {
    // Auto-play belongs to exploring: a drill stops it, and `p` does not start it in a drill.
    let mut m = model(Size::Four);
    solve_current(&mut m);
    send(&mut m, [ch('p')]);
    assert!(m.auto().is_some());
    command(&mut m, "drill");
    assert!(m.auto().is_none() && m.drill().is_some());
    send(&mut m, [ch('p')]);
    assert!(m.auto().is_none(), "no auto-play in a drill");
    // The drill waits under the editor, its tally kept: Esc gives it back, so does Enter (on the
    // edited position).
    m.cursor = *m.position().legal_moves().reading_order().first().unwrap();
    send(&mut m, [key(KeyCode::Enter)]);
    assert_eq!(m.drill().unwrap().tally.moves, 1);
    send(&mut m, [ch('E')]);
    assert!(m.drill().is_none() && m.editor().is_some());
    assert_eq!(m.contexts(), [Context::Edit]);
    send(&mut m, [key(KeyCode::Esc)]);
    assert_eq!(m.drill().unwrap().tally.moves, 1, "Esc gives the drill back");
    assert_eq!(m.contexts(), [Context::Drill, Context::Normal]);
    send(&mut m, [ch('E'), ch('s'), key(KeyCode::Enter)]);
    assert_eq!(m.drill().unwrap().tally.moves, 1, "Enter gives it back too");
    assert_eq!((m.tree.len(), m.position().to_move()), (1, Color::White), "on the edited position");

    // A game waits under the editor: the engine does not move while it is open.
    let mut m = model(Size::Four);
    let mut now = Instant::now();
    command(&mut m, "play white");
    send(&mut m, [ch('E')]);
    assert!(m.game().is_none() && m.job.is_none());
    now += Duration::from_secs(60);
    send(&mut m, [Msg::Tick(now)]);
    assert_eq!(m.tree.depth(m.tree.current()), 0, "the engine waits while the editor is open");
    let effects = send(&mut m, [key(KeyCode::Esc)]);
    assert_eq!(m.game().and_then(|g| g.human), Some(Color::White));
    assert_eq!(m.contexts(), [Context::Play, Context::Normal]);
    assert!(effects.iter().any(|e| matches!(e, Effect::Analyse { .. })), "the engine thinks again");
    solve_current(&mut m);
    now += Duration::from_millis(100);
    send(&mut m, [Msg::Tick(now)]);
    assert_eq!(m.tree.depth(m.tree.current()), 1, "and moves");

    // Starting a drill or a game closes the teaching view and stops its lab run; it opens again
    // over either.
    let mut m = model(Size::Four);
    send(&mut m, [ch('s')]);
    let effects = command(&mut m, "drill");
    assert!(m.teach().is_none() && effects.contains(&Effect::CancelLab), "{effects:?}");
    send(&mut m, [ch('e')]);
    assert_eq!(m.contexts(), [Context::Teaching, Context::Drill, Context::Normal]);
    command(&mut m, "play black");
    assert!(m.teach().is_none() && m.drill().is_none());
    send(&mut m, [ch('e')]);
    assert_eq!(m.contexts(), [Context::Teaching, Context::Play, Context::Normal]);
}

fn screen(m: &mut Model, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut hits = None;
    terminal.draw(|f| hits = Some(view::view(m, f))).unwrap();
    m.hits = hits.unwrap();
    terminal.backend().to_string()
}

/// The model in each mode, by the keys and commands a user types.
fn in_mode(mode: &str) -> Model {
    let mut m = model(Size::Eight);
    match mode {
        "normal" => {}
        "history" => drop(send(&mut m, [ch('t')])),
        // On the 8x8 start `e` may begin a typed square (e6): alone, it opens the view once the
        // row is no longer expected.
        "teaching" => drop(send(&mut m, [ch('e'), Msg::Tick(Instant::now() + Duration::from_secs(5))])),
        "command" => drop(send(&mut m, [ch(':'), ch('p'), ch('l')])),
        "play" => drop(command(&mut m, "play black")),
        "drill" => drop(command(&mut m, "drill")),
        "edit" => drop(send(&mut m, [ch('E')])),
        _ => unreachable!(),
    }
    m
}

const MODES: [&str; 7] = ["normal", "history", "teaching", "command", "play", "drill", "edit"];

#[test]
fn snapshots_of_the_key_bar_and_the_help_in_every_mode() {
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let mut bars = String::new();
        for mode in MODES {
            let mut m = in_mode(mode);
            let text = screen(&mut m, w, h);
            let bar = text.lines().last().unwrap().to_string();
            bars.push_str(&format!("{mode:<9}{bar}\n"));
            if mode != "command" {
                send(&mut m, [ch('?')]);
                assert_eq!(m.overlay, Overlay::Help, "{mode}: ? opens the help");
                insta::assert_snapshot!(format!("help_in_{mode}_{w}x{h}"), screen(&mut m, w, h));
            }
        }
        insta::assert_snapshot!(format!("key_bars_{w}x{h}"), bars);
    }
}

/// Answers every review step the model asks for with the real solver's exact values, the way
/// the solver thread does (each child, then the end of the job).
fn serve_review(m: &mut Model, mut effects: Vec<Effect>) {
    for _ in 0..200 {
        let Some(Effect::Review { job, position, played, .. }) =
            effects.iter().find(|e| matches!(e, Effect::Review { .. })).cloned()
        else {
            return;
        };
        let mut solver = Solver::new(SolverOptions { hash_mb: 16, threads: 1, ..SolverOptions::default() });
        let mut children = Vec::new();
        solver.score_children(&position, &Limits::default(), &mut |c| children.push(c.into())).unwrap();
        let ev = |kind| Msg::Solver(SolverEvent { job, position, kind });
        update(m, ev(EventKind::Reviewed { played, children, evaluator: Evaluator::Patterns }));
        effects = update(m, ev(EventKind::Cancelled));
    }
    panic!("the review never ended");
}

#[test]
fn the_review_marks_the_line_and_draws_the_graph() {
    let text = "c4d4d3b4a4d2d1a3a2c1b1a1";
    let line = othello_explorer::notation::transcript::play(&Position::start(Size::Four), text).unwrap();
    let mut m = Model::new(line.start, &line.moves, Config::default(), Instant::now());
    m.init();
    let effects = command(&mut m, "review");
    assert!(m.reviewing());
    serve_review(&mut m, effects);
    assert!(m.status.clone().unwrap().text.starts_with("review done: "), "{:?}", m.status);
    // Each move's mark against the plain negamax of the reference rules.
    let mut p = line.start;
    for (id, &mv) in m.tree.line().into_iter().skip(1).zip(&line.moves) {
        p = p.after_forced_pass().0;
        let values = move_values(&p);
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let loss = best - values.iter().find(|&&(s, _)| s == mv).unwrap().1;
        let want = othello_explorer::studies::review::Mark::of_loss(loss);
        assert_eq!(m.mark(id), want.map(|w| (w, true)), "{p}: {mv} lost {loss}");
        p = p.play(mv).unwrap();
    }
    // The graph: every position valued, exact, from black's side.
    let graph = m.graph();
    assert_eq!(graph.len(), line.moves.len() + 1);
    assert!(graph.iter().all(|g| g.exact && g.value.is_some()));
    let start_value = negamax(&board_of(&line.start));
    assert_eq!(graph[0].value, Some(start_value));
    insta::assert_snapshot!("review_4x4_120x40", screen(&mut m, 120, 40));
    // 80x24 has no room for the graph; the marks stay in the history.
    let small = screen(&mut m, 80, 24);
    insta::assert_snapshot!("review_4x4_80x24", small);
    assert!(!small.contains("graph ·"), "{small}");
    assert!(small.contains("5.a4?!"), "{small}");
    // A click on the graph's first column goes to the start.
    screen(&mut m, 120, 40);
    let (rect, node) = m.hits.graph.first().copied().expect("graph columns");
    update(
        &mut m,
        Msg::Mouse(ratatui::crossterm::event::MouseEvent {
            kind: ratatui::crossterm::event::MouseEventKind::Down(ratatui::crossterm::event::MouseButton::Left),
            column: rect.x,
            row: rect.y + 1,
            modifiers: KeyModifiers::NONE,
        }),
    );
    assert_eq!(m.tree.current(), node);
    assert_eq!(m.tree.depth(m.tree.current()), 0);
    // The marks have a row of their own under the points: a marked move's column still shows
    // its point (issue 97, item 7: a mark used to overwrite the lowest points, `●●?●●`).
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| m.hits = view::view(&m, f)).unwrap();
    let buf = terminal.backend().buffer().clone();
    let mut marked = 0;
    for &(rect, node) in &m.hits.graph {
        let bottom = buf[(rect.x, rect.bottom() - 1)].symbol().to_string();
        let points = (rect.y..rect.bottom() - 1).filter(|&y| buf[(rect.x, y)].symbol() == "●").count();
        assert_eq!(points, 1, "one point in the column of ply {}", m.tree.depth(node));
        if m.mark(node).is_some() {
            assert_eq!(bottom, "?", "the mark under ply {}", m.tree.depth(node));
            marked += 1;
        } else {
            assert_ne!(bottom, "●", "no point on the marks' row");
        }
    }
    assert!(marked >= 2, "the game has marks");
}

/// Esc closes what is open, one layer at a time, and at the top level never quits: the help, then
/// Esc again, leaves the explorer running and says that q quits (issue 37, item 6).
#[test]
fn esc_at_the_top_level_does_not_quit() {
    let mut m = model(Size::Four);
    send(&mut m, [ch('?')]);
    assert_eq!(m.contexts(), [Context::Help]);
    send(&mut m, [key(KeyCode::Esc)]);
    assert_eq!(m.contexts(), [Context::Normal]);
    let effects = send(&mut m, [key(KeyCode::Esc), key(KeyCode::Esc)]);
    assert!(!m.quit, "Esc at the top level quit");
    assert!(!effects.contains(&Effect::Quit));
    assert_eq!(m.status.as_ref().unwrap().text, "nothing to close: q quits");
    send(&mut m, [ch('q')]);
    assert!(m.quit);
}

/// Plays a 4x4 game to its end: the user (black) by `b`, the engine on ticks, each position
/// valued by the real solver first.
fn play_4x4_game_with_b(m: &mut Model, now: &mut Instant) -> Vec<String> {
    let mut said = Vec::new();
    for _ in 0..60 {
        let p = m.position();
        if p.is_game_over() {
            break;
        }
        solve_current(m);
        if p.to_move() == Color::Black && !p.must_pass() {
            // `b` is also a column letter: it acts once no row digit follows in time.
            send(m, [ch('b')]);
            *now += Duration::from_millis(700);
            send(m, [Msg::Tick(*now)]);
        } else {
            *now += Duration::from_millis(100);
            send(m, [Msg::Tick(*now)]);
        }
        said.push(m.status.clone().map(|s| s.text).unwrap_or_default());
    }
    said
}

#[test]
fn in_a_game_b_and_u_say_what_they_did_and_the_history_keys_look_back() {
    let mut m = model(Size::Four);
    let mut now = Instant::now();
    command(&mut m, "play black");
    // b plays the best move known for the user and says so (not its value: the values hide),
    // and what it said stays beside the engine's reply.
    let said = play_4x4_game_with_b(&mut m, &mut now);
    assert!(said.iter().any(|s| s.starts_with("b played ") && s.contains("for you (black): proven best")), "{said:?}");
    assert!(said.iter().any(|s| s.contains("for you (black)") && s.contains("(engine) played")), "{said:?}");
    assert!(said.iter().all(|s| !s.contains("b played") || !s.contains('+')), "no value shown: {said:?}");
    let end = m.position();
    assert!(end.is_game_over());
    let plies = m.tree.depth(m.tree.current());
    // The history keys step back through the finished game, and the engine waits there.
    send(&mut m, [ch('t')]);
    send(&mut m, [key(KeyCode::Left)]);
    assert_eq!(m.tree.depth(m.tree.current()), plies - 1, "← went back one ply");
    assert!(m.status.as_ref().unwrap().text.contains("looking back at the game"), "{:?}", m.status);
    for _ in 0..3 {
        solve_current(&mut m);
        now += Duration::from_millis(500);
        send(&mut m, [Msg::Tick(now)]);
    }
    assert_eq!(m.tree.depth(m.tree.current()), plies - 1, "the engine did not play the move again");
    send(&mut m, [key(KeyCode::Left), ch('h')]);
    assert_eq!(m.tree.depth(m.tree.current()), plies - 3);
    send(&mut m, [key(KeyCode::Right)]);
    assert_eq!(m.tree.depth(m.tree.current()), plies - 2, "→ forward");
    // End: back at the end, the game goes on (it is over: nothing more to play).
    send(&mut m, [key(KeyCode::Esc), key(KeyCode::End)]);
    assert_eq!(m.position(), end);
    assert!(m.status.as_ref().unwrap().text.contains("back at the end of the game"), "{:?}", m.status);
    // u takes back to the user's move and says which moves it took back.
    send(&mut m, [ch('u')]);
    let text = m.status.clone().unwrap().text;
    assert!(text.starts_with("took back ") && text.ends_with("your move (black)"), "{text}");
    assert_eq!(m.position().to_move(), Color::Black);
    // A move played where the user looks back goes on from there: the engine answers it.
    solve_current(&mut m);
    send(&mut m, [ch('b')]);
    now += Duration::from_millis(700);
    send(&mut m, [Msg::Tick(now)]);
    let after_b = m.position();
    solve_current(&mut m);
    now += Duration::from_millis(100);
    send(&mut m, [Msg::Tick(now)]);
    assert!(m.position() != after_b || after_b.is_game_over() || after_b.must_pass(), "the engine answered");
}

#[test]
fn in_a_game_p_is_not_offered_and_esc_stops_auto_play() {
    let mut m = model(Size::Four);
    command(&mut m, "play black");
    let bar: String = othello_explorer::tui::testing::keys::key_bar(200, &m.contexts())
        .into_iter()
        .map(|(k, l)| format!("{k} {l}  "))
        .collect();
    assert!(!bar.contains("play on"), "the bar offers auto-play in a game: {bar}");
    send(&mut m, [ch('p')]);
    assert!(
        m.status.as_ref().unwrap().text.contains("no auto-play in a game")
            || m.status.as_ref().unwrap().text.contains("a game is on"),
        "{:?}",
        m.status
    );
    command(&mut m, "play off");
    send(&mut m, [ch('p')]);
    assert!(m.auto().is_some(), "p starts auto-play when exploring");
    send(&mut m, [key(KeyCode::Esc)]);
    assert!(m.auto().is_none(), "Esc stops it");
    assert_eq!(m.status.as_ref().unwrap().text, "auto-play off");
}

/// The help's columns never run together: a command's usage wider than its column gets a line of
/// its own, the description under the column (issue 97, item 7: `moves d3c3 | moves /f5d6c3play a
/// transcript`).
#[test]
fn the_help_never_runs_a_label_into_its_text() {
    use othello_explorer::tui::testing::theme::Theme;
    use othello_explorer::tui::testing::widgets::help::help_text;
    let lines = help_text(Theme::new(false), &[Context::Normal]);
    let mut long = 0;
    for line in &lines {
        if let [label, _text] = &line.spans[..] {
            assert!(label.content.ends_with("  "), "two spaces at least: {:?}", line.spans);
        }
        if line.spans.len() == 1 && line.spans[0].content.trim_start().starts_with("moves d3c3") {
            long += 1;
        }
    }
    assert_eq!(long, 1, "the long usage stands alone on its line");
}
