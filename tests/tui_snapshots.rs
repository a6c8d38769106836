//! Whole screens at 80x24 and 120x40 (insta snapshots of a `TestBackend`), and widget tests
//! against a `Buffer`. Solver results are injected as messages, so every screen is deterministic.

use othello_explorer::solver::{ChildValue, Kind, Limits, Phase, Solver, SolverOptions};
use othello_explorer::tui::testing::app::{BoardGeometry, Config, Model, Msg, update};
use othello_explorer::tui::testing::keys::{self, Action, Context};
use othello_explorer::tui::testing::theme::Theme;
use othello_explorer::tui::testing::view;
use othello_explorer::tui::testing::widgets::board::{BoardWidget, Zoom};
use othello_explorer::tui::testing::widgets::help;
use othello_explorer::tui::testing::worker::{EventKind, SolverEvent};
use othello_explorer::{Position, Size, Square, notation::transcript};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use std::time::{Duration, Instant};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn model_at(size: Size, moves: &str, color: bool) -> Model {
    let start = Position::start(size);
    let line = transcript::play(&start, moves).unwrap();
    let mut m = Model::new(start, &line.moves, Config { color, ..Config::default() }, Instant::now());
    m.init();
    m
}

/// Feeds the model what the solver proves for the position it asked about, with fixed counts.
fn solve_current(m: &mut Model) {
    let Some(job) = m.job.clone() else { return };
    let mut solver = Solver::new(SolverOptions { hash_mb: 16, ..SolverOptions::default() });
    let mut children = Vec::new();
    solver.score_children(&job.position, &Limits::default(), &mut |c| children.push(c)).unwrap();
    let pv = solver.principal_variation(&job.position, &Limits::default()).unwrap();
    let ev = |kind| Msg::Solver(SolverEvent { job: job.id, position: job.position, kind });
    for c in children {
        update(m, ev(EventKind::Child(c.into())));
    }
    let elapsed = Duration::from_millis(4);
    update(m, ev(EventKind::ChildrenDone { nodes: 2_000, elapsed }));
    update(m, ev(EventKind::Pv { moves: pv, nodes: 2_500, elapsed }));
}

fn screen(m: &mut Model, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut hits = None;
    terminal.draw(|f| hits = Some(view::view(m, f))).unwrap();
    m.hits = hits.unwrap();
    terminal.backend().to_string()
}

fn both_sizes(name: &str, m: &mut Model) {
    insta::assert_snapshot!(format!("{name}_80x24"), screen(m, 80, 24));
    insta::assert_snapshot!(format!("{name}_120x40"), screen(m, 120, 40));
}

#[test]
fn start_8x8() {
    let mut m = model_at(Size::Eight, "", true);
    both_sizes("start_8x8", &mut m);
}

#[test]
fn start_8x8_with_estimates_an_outcome_and_an_exact_score() {
    // What the explorer shows while it deepens: every kind of value at once, each drawn as what
    // it is (injected, so the screen is fixed). After f5 d6, where no two moves are twins (the
    // start's four moves are images of one another, so they always show one value).
    let mut m = model_at(Size::Eight, "f5d6", false);
    let job = m.job.clone().unwrap();
    let ev = |kind| Msg::Solver(SolverEvent { job: job.id, position: job.position, kind });
    update(&mut m, ev(EventKind::Phase(Phase::Estimate)));
    // Estimates at the explorer's selectivity, labelled with it (`+0 @12 95%`).
    let selectivity = m.selectivity;
    for (i, s) in ["c3", "c4", "c5", "c6"].into_iter().enumerate() {
        let kind = Kind::Estimate { depth: 12 + (i as u32 % 2), selectivity };
        update(&mut m, ev(EventKind::Child(ChildValue { square: sq(s), score: -2 + i as i32, kind })));
    }
    update(&mut m, ev(EventKind::Depth(12)));
    update(&mut m, ev(EventKind::Child(ChildValue { square: sq("c4"), score: -1, kind: Kind::Wld })));
    update(&mut m, ev(EventKind::Child(ChildValue { square: sq("c6"), score: 0, kind: Kind::Exact })));
    // A weaker value never replaces a stronger one.
    let kind = Kind::Estimate { depth: 14, selectivity };
    update(&mut m, ev(EventKind::Child(ChildValue { square: sq("c6"), score: 5, kind })));
    both_sizes("start_8x8_estimates", &mut m);
}

#[test]
fn four_by_four_with_every_score() {
    let mut m = model_at(Size::Four, "", true);
    solve_current(&mut m);
    // Every child of the 4x4 start loses by 10 for black under the standard rule.
    let p = m.position();
    for s in p.legal_moves() {
        assert_eq!(m.child_score(s).unwrap().value, -10);
    }
    both_sizes("four_by_four_scores", &mut m);
}

#[test]
fn a_move_selected_with_its_flips() {
    let mut m = model_at(Size::Eight, "f5d6c3d3c4", true);
    // f4 flips three discs for white here... whichever it flips, the screen shows it.
    m.cursor = sq("f4");
    assert!(m.selected().is_some());
    both_sizes("move_selected", &mut m);
    update(&mut m, Msg::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE)));
    for _ in 0..4 {
        update(&mut m, Msg::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE)));
    }
    assert_eq!(m.drawn_mask.map(|o| o.name()), Some("flips"));
    insta::assert_snapshot!("flips_mask_drawn_120x40", screen(&mut m, 120, 40));
}

#[test]
fn help_open() {
    let mut m = model_at(Size::Eight, "", true);
    update(&mut m, key(KeyCode::Char('?')));
    both_sizes("help_open", &mut m);
}

/// A 4x4 transcript reaching a forced pass, found by a plain depth-first walk.
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
fn a_pass() {
    let mut m = model_at(Size::Four, &pass_line(), true);
    solve_current(&mut m);
    assert!(m.position().must_pass());
    both_sizes("pass", &mut m);
}

#[test]
fn game_over() {
    let mut m = model_at(Size::Four, "", true);
    for _ in 0..20 {
        solve_current(&mut m);
        if m.position().is_game_over() {
            break;
        }
        update(&mut m, key(KeyCode::Char('b')));
    }
    assert!(m.position().is_game_over());
    both_sizes("game_over", &mut m);
}

#[test]
fn bad_command_in_the_status_line() {
    let mut m = model_at(Size::Eight, "f5", true);
    for c in ":moves /f5f5".chars() {
        update(&mut m, key(KeyCode::Char(c)));
    }
    insta::assert_snapshot!("command_line_open_80x24", screen(&mut m, 80, 24));
    update(&mut m, key(KeyCode::Enter));
    insta::assert_snapshot!("bad_command_80x24", screen(&mut m, 80, 24));
}

#[test]
fn too_small() {
    let mut m = model_at(Size::Eight, "", true);
    insta::assert_snapshot!("too_small_60x20", screen(&mut m, 60, 20));
    insta::assert_snapshot!("too_small_79x24", screen(&mut m, 79, 24));
    // Even absurd sizes draw without a panic.
    for (w, h) in [(0, 0), (1, 1), (80, 1), (1, 40), (80, 23)] {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        view::draw(&m, area, &mut buf);
    }
}

// Widget tests against a Buffer.

fn draw_board(m: &Model, zoom: Zoom, color: bool) -> (Buffer, BoardGeometry) {
    let area = Rect::new(0, 0, 40, 20);
    let mut buf = Buffer::empty(area);
    let geometry = BoardWidget { model: m, theme: Theme::new(color), zoom }.render(area, &mut buf).unwrap();
    (buf, geometry)
}

fn cell_text(buf: &Buffer, g: &BoardGeometry, s: Square) -> String {
    let x = g.squares.x + s.col() as u16 * g.cell_width;
    let y = g.squares.y + s.row() as u16 * g.cell_height;
    (0..g.cell_width).map(|dx| buf[(x + dx, y)].symbol().to_string()).collect()
}

#[test]
fn board_widget_draws_discs_moves_and_scores() {
    let mut m = model_at(Size::Four, "", true);
    let (buf, g) = draw_board(&m, Zoom::Compact, true);
    assert_eq!((g.cell_width, g.cell_height), (4, 1));
    // White on b2 and c3, black on c2 and b3; the four legal moves unproven.
    assert_eq!(cell_text(&buf, &g, sq("c3")), "  ○ ");
    assert_eq!(cell_text(&buf, &g, sq("c2")), "  ● ");
    assert_eq!(cell_text(&buf, &g, sq("b3")), "  ● ");
    for s in ["b1", "a2", "d3", "c4"] {
        assert_eq!(cell_text(&buf, &g, sq(s)), "   ?", "{s}");
    }
    assert_eq!(cell_text(&buf, &g, sq("a1")), "  · ");
    // The cursor (on b1, the first legal move) is reversed; b2, which b1 flips, is marked.
    assert_eq!(m.cursor, sq("b1"));
    assert!(buf[(g.squares.x + 4, g.squares.y)].modifier.contains(Modifier::REVERSED));
    assert_eq!(cell_text(&buf, &g, sq("b2")), "  ○x");
    m.cursor = sq("c4");
    let (buf, g) = draw_board(&m, Zoom::Compact, true);
    assert_eq!(cell_text(&buf, &g, sq("c3")), "  ○x");
    // Scores once proven: signed, two digits and all, in both boards; the large one says under
    // each what it is (a star under the best, a tick under the other exact scores).
    solve_current(&mut m);
    let (buf, g) = draw_board(&m, Zoom::Large, true);
    assert_eq!(cell_text(&buf, &g, sq("a2")), "-10 ");
    let below = |buf: &Buffer, g: &BoardGeometry, s: Square| -> String {
        let x = g.squares.x + s.col() as u16 * g.cell_width;
        let y = g.squares.y + s.row() as u16 * g.cell_height + 1;
        (0..g.cell_width).map(|dx| buf[(x + dx, y)].symbol().to_string()).collect()
    };
    assert_eq!(below(&buf, &g, sq("a2")), " ★  ", "every 4x4 first move is best");
    let (buf, g) = draw_board(&m, Zoom::Compact, true);
    assert_eq!(cell_text(&buf, &g, sq("a2")), " -10");
}

/// A selective estimate on the board: the large squares write its depth under the value and the
/// title its selectivity; the compact board's title writes both; full-width estimates say no level.
#[test]
fn board_titles_say_the_selectivity_of_the_estimates() {
    let row = |buf: &Buffer, y: u16| -> String { (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect() };
    for (size, moves) in [(Size::Eight, "f5"), (Size::Six, "e4"), (Size::Four, "")] {
        let mut m = model_at(size, moves, false);
        let job = m.job.clone().unwrap();
        let legal = job.position.legal_moves().reading_order();
        for level in ["87", "100"] {
            let selectivity = othello_explorer::solver::Selectivity::parse(level).unwrap();
            m.cache.clear();
            for (i, &square) in legal.iter().enumerate() {
                let kind = Kind::Estimate { depth: 9, selectivity };
                let ev = EventKind::Child(ChildValue { square, score: i as i32 - 1, kind });
                update(&mut m, Msg::Solver(SolverEvent { job: job.id, position: job.position, kind: ev }));
            }
            let (buf, g) = draw_board(&m, Zoom::Large, false);
            let title = row(&buf, 0);
            let under = |s: Square| -> String {
                let (x, y) = (g.squares.x + s.col() as u16 * g.cell_width, g.squares.y + s.row() as u16 * 2 + 1);
                (0..g.cell_width).map(|dx| buf[(x + dx, y)].symbol().to_string()).collect()
            };
            assert_eq!(under(legal[0]), "@9  ", "{size}");
            let (buf, _) = draw_board(&m, Zoom::Compact, false);
            let compact = row(&buf, 0);
            if level == "100" {
                assert!(!title.contains('%') && !compact.contains('%'), "{size}: {title} / {compact}");
                assert!(compact.contains("≈@9 "), "{size}: {compact}");
            } else {
                assert!(title.contains("≈ 87% "), "{size}: {title}");
                assert!(compact.contains("≈@9 87% "), "{size}: {compact}");
            }
        }
    }
}

/// The 80x24 8x8 board with two-digit scores side by side (`-8-12`, `-16+12` as users reported
/// them run together): every value keeps its sign (`+0` too, as the moves table writes it) and a
/// blank column before it.
#[test]
fn two_digit_negative_scores_keep_their_signs_at_80x24() {
    // A position with legal moves on row 8 (black to move): the scores are injected.
    let mut m = model_at(Size::Eight, "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1", true);
    let job = m.job.clone().unwrap();
    let legal = job.position.legal_moves().reading_order();
    let scores = [-10, -6, -2, -16, 12, -64, 0, 5, -11, 33];
    // The estimates selective, as the explorer's are: the widest labels (`-16 @12 95%`).
    let estimate = Kind::Estimate { depth: 12, selectivity: m.selectivity };
    for (i, &square) in legal.iter().enumerate() {
        let (score, kind) = (scores[i % scores.len()], if i % 2 == 0 { Kind::Exact } else { estimate });
        let ev = EventKind::Child(ChildValue { square, score, kind });
        update(&mut m, Msg::Solver(SolverEvent { job: job.id, position: job.position, kind: ev }));
    }
    let text = screen(&mut m, 80, 24);
    let g = m.hits.board.unwrap();
    assert_eq!(g.cell_width, 4);
    for (i, &square) in legal.iter().enumerate() {
        let score = scores[i % scores.len()];
        let want = format!(" {score:>+3}");
        let x = g.squares.x + square.col() as u16 * 4;
        let y = g.squares.y + square.row() as u16;
        let line: Vec<char> = text.lines().nth(y as usize).unwrap().trim_matches('"').chars().collect();
        let got: String = line[x as usize..x as usize + 4].iter().collect();
        assert_eq!(got, want, "{square}");
    }
    // No two numbers touch anywhere on the board: a digit is never followed by a sign.
    for y in g.squares.y..g.squares.y + 8 {
        let line: Vec<char> = text.lines().nth(y as usize).unwrap().trim_matches('"').chars().collect();
        let row: String = line[g.squares.x as usize..(g.squares.x + 32) as usize].iter().collect();
        assert!(!row.as_bytes().windows(2).any(|w| w[0].is_ascii_digit() && (w[1] == b'+' || w[1] == b'-')), "{row}");
    }
    insta::assert_snapshot!("two_digit_negatives_80x24", text);
}

#[test]
fn hit_testing_uses_the_rects_of_the_last_render() {
    for (size, w, h) in [(Size::Eight, 80, 24), (Size::Eight, 120, 40), (Size::Four, 80, 24), (Size::Six, 100, 30)] {
        let mut m = model_at(size, "", true);
        screen(&mut m, w, h);
        let g = m.hits.board.expect("the board was drawn");
        for s in Square::all(size) {
            for dx in 0..g.cell_width {
                for dy in 0..g.cell_height {
                    let x = g.squares.x + s.col() as u16 * g.cell_width + dx;
                    let y = g.squares.y + s.row() as u16 * g.cell_height + dy;
                    assert_eq!(g.square_at(size, x, y), Some(s));
                }
            }
        }
        assert_eq!(g.square_at(size, g.squares.x.saturating_sub(1), g.squares.y), None);
        assert_eq!(g.square_at(size, g.squares.right(), g.squares.y), None);
    }
}

fn click(x: u16, y: u16) -> Msg {
    Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn clicking_a_legal_square_plays_it_and_clicking_history_goes_back() {
    let mut m = model_at(Size::Eight, "", true);
    screen(&mut m, 120, 40);
    let g = m.hits.board.unwrap();
    let f5 = sq("f5");
    update(&mut m, click(g.squares.x + 5 * g.cell_width + 1, g.squares.y + 4 * g.cell_height));
    assert_eq!(m.position(), Position::start(Size::Eight).play(f5).unwrap());
    // A click on an empty non-legal square only moves the cursor.
    screen(&mut m, 120, 40);
    let g = m.hits.board.unwrap();
    update(&mut m, click(g.squares.x, g.squares.y));
    assert_eq!(m.cursor, sq("a1"));
    assert_eq!(m.tree.depth(m.tree.current()), 1);
    // The history entry "start" takes the tree back to the root.
    screen(&mut m, 120, 40);
    let (rect, _) = m.hits.history.iter().find(|(_, id)| *id == m.tree.root()).copied().unwrap();
    update(&mut m, click(rect.x, rect.y));
    assert_eq!(m.position(), Position::start(Size::Eight));
    // A row of the children table plays its move.
    screen(&mut m, 80, 24);
    let (rect, edge) = m.hits.children[1];
    update(&mut m, click(rect.x + 1, rect.y));
    assert_eq!(m.tree.edge(m.tree.current()), Some(edge));
}

#[test]
fn without_colour_only_modifiers_are_drawn() {
    let mut m = model_at(Size::Four, "", false);
    solve_current(&mut m);
    let area = Rect::new(0, 0, 120, 40);
    let mut buf = Buffer::empty(area);
    view::draw(&m, area, &mut buf);
    for y in 0..40 {
        for x in 0..120 {
            let c = &buf[(x, y)];
            assert_eq!((c.fg, c.bg), (Color::Reset, Color::Reset), "colour at {x},{y}");
        }
    }
    // The cursor still shows: reversed.
    let g = view::draw(&m, area, &mut buf).board.unwrap();
    let (cx, cy) = (g.squares.x + m.cursor.col() as u16 * 4, g.squares.y + m.cursor.row() as u16 * 2);
    assert!(buf[(cx, cy)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn key_bar_and_help_come_from_the_key_table() {
    // Every binding is in the help of every context it works in, and dispatches there.
    for cx in Context::ALL {
        let help: String = help::help_text(Theme::new(false), &[cx])
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.to_string()).collect::<String>() + "\n")
            .collect();
        for b in keys::bindings(cx) {
            assert!(help.contains(b.help), "help lacks {:?}", b.action);
            for k in b.keys {
                assert!(help.contains(k.name), "help lacks key {}", k.name);
                let code = if k.code == KeyCode::Null { KeyCode::Char('w') } else { k.code };
                let ev = KeyEvent::new(code, if k.ctrl { KeyModifiers::CONTROL } else { KeyModifiers::NONE });
                assert_eq!(keys::action_for(&ev, &[cx]), Some(b.action), "{} dispatches elsewhere in {cx:?}", k.name);
            }
        }
        // No key means two things in one context.
        let mut seen: Vec<(KeyCode, bool)> = Vec::new();
        for b in keys::bindings(cx) {
            for k in b.keys {
                assert!(!seen.contains(&(k.code, k.ctrl)), "{} is bound twice in {cx:?}", k.name);
                seen.push((k.code, k.ctrl));
            }
        }
        // The bar shows the context's labelled bindings, as many as fit, in table order.
        let bar = keys::key_bar(1000, &[cx]);
        assert_eq!(bar.len(), keys::bindings(cx).filter(|b| b.bar.is_some()).count(), "{cx:?}");
    }
    let normal = [Context::Normal];
    let narrow = keys::key_bar(80, &normal);
    assert!(!narrow.is_empty() && narrow.len() < keys::key_bar(1000, &normal).len());
    // Cut short, the bar says so: it ends with the marker, and at every width (80 among them) the
    // whole still fits as the widget draws it (`keys label  `, the marker alone).
    assert_eq!(narrow.last(), Some(&(keys::BAR_MORE.to_string(), "")), "{narrow:?}");
    for width in 0..120 {
        let bar = keys::key_bar(width, &normal);
        let drawn: usize =
            bar.iter().map(|(k, l)| k.chars().count() + if l.is_empty() { 0 } else { l.chars().count() + 3 }).sum();
        assert!(drawn <= width, "{width}: {bar:?}");
    }
    assert!(!keys::key_bar(1000, &normal).iter().any(|(k, _)| k == keys::BAR_MORE), "nothing is cut at 1000 columns");
    // A more specific context comes first, and shadows the keys it rebinds: in the teaching
    // view the arrows walk the trace, and u still goes back.
    let teaching = [Context::Teaching, Context::Normal];
    let right = KeyEvent::new(KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(keys::action_for(&right, &teaching), Some(Action::NextStep));
    let u = KeyEvent::new(KeyCode::Char('u'), KeyModifiers::NONE);
    assert_eq!(keys::action_for(&u, &teaching), Some(Action::Back));
    assert_eq!(keys::key_bar(1000, &teaching)[0].1, "step");
    let play = [Context::Play, Context::Normal];
    assert_eq!(keys::action_for(&u, &play), Some(Action::Undo));
    assert!(!keys::key_bar(1000, &play).iter().any(|(_, l)| *l == "back"), "u back is shadowed by u undo");
}

/// The history marks a move that has branches beside it, and which one is shown (a user saw
/// `start 1.f5 2.d6 [3.c3]` with nothing telling of the c4 branch).
#[test]
fn the_history_marks_branches() {
    let mut m = model_at(Size::Eight, "c4", true);
    let msgs: Vec<Msg> = ":moves /f5d6c3".chars().map(|c| key(KeyCode::Char(c))).chain([key(KeyCode::Enter)]).collect();
    for msg in msgs {
        update(&mut m, msg);
    }
    let text = screen(&mut m, 120, 40);
    assert!(text.contains("start  1.f5(2/2)  2.d6 [3.c3]"), "{text}");
}

/// The score graph shows at 120x40 on every board size, the 8x8 one in its compact form (it
/// needed 46 rows before), with its columns clickable; at 80x24 there is no room for it.
#[test]
fn the_score_graph_shows_at_120x40_on_every_size() {
    for (size, moves) in [(Size::Four, "c4d4"), (Size::Six, "e4c5b4"), (Size::Eight, "f5d6c3")] {
        let mut m = model_at(size, moves, false);
        let text = screen(&mut m, 120, 40);
        assert!(text.contains("graph · for black"), "{size}: {text}");
        assert_eq!(m.hits.graph.len(), moves.len() / 2 + 1, "{size}: a column per position of the line");
        let text = screen(&mut m, 80, 24);
        assert!(!text.contains("graph · for black"), "{size}: {text}");
    }
}
