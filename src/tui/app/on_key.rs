//! A key press: the key table finds the action in the active contexts (see
//! [`super::super::keys`]); each action is one arm here or one method of the mode it belongs to.

use super::super::keys::{self, Action};
use super::super::tree::Edge;
use super::{Activity, Effect, Focus, Known, MAX_DELAY, MIN_DELAY, Mask, Model, Overlay, unproven_text};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

impl Model {
    pub(super) fn key(&mut self, ev: KeyEvent) -> Vec<Effect> {
        if ev.kind == KeyEventKind::Release {
            return Vec::new();
        }
        // Ctrl-C quits from anywhere, the command line included.
        if ev.modifiers.contains(KeyModifiers::CONTROL) && matches!(ev.code, KeyCode::Char('c' | 'C')) {
            return self.quit_now();
        }
        // In raw mode Ctrl-Z is a key, not SIGTSTP: it suspends as a shell user expects, from
        // any context (a prompt included).
        if ev.modifiers.contains(KeyModifiers::CONTROL) && matches!(ev.code, KeyCode::Char('z' | 'Z')) {
            return vec![Effect::Suspend];
        }
        if let Some(effects) = self.typed_key(&ev) {
            return effects;
        }
        match keys::action_for(&ev, &self.contexts()) {
            Some(action) => self.act(action, ev),
            None => Vec::new(),
        }
    }

    /// A square typed on the board (`f5`), as Edax, Egaroucid and lichess take it: a column letter
    /// with a legal move in its column waits for a row digit, and the square is then played as
    /// Enter plays the cursor's (a move while exploring, your move in a game, your choice in a
    /// drill). A letter that has a key of its own (`b` best, `e` teach, `h` left) does that
    /// instead when no digit follows within [`super::TYPED_WAIT`] or another key comes. `None`
    /// when the key is not part of a typed square.
    fn typed_key(&mut self, ev: &KeyEvent) -> Option<Vec<Effect>> {
        let contexts = self.contexts();
        let on_board = self.overlay == Overlay::None
            && contexts.contains(&keys::Context::Normal)
            && !contexts.contains(&keys::Context::Teaching)
            && !contexts.contains(&keys::Context::History)
            && !ev.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let KeyCode::Char(ch) = ev.code else {
            return self.typed.take().filter(|_| on_board).map(|(letter, _)| {
                let mut effects = self.letter_key(letter);
                effects.extend(self.key(*ev));
                effects
            });
        };
        if !on_board {
            self.typed = None;
            return None;
        }
        let p = self.position();
        let n = p.size().n();
        if let Some((letter, _)) = self.typed.take() {
            let col = (letter as u8 - b'a') as usize;
            return Some(match ch.to_digit(10).map(|d| d as usize) {
                Some(row @ 1..) if row <= n => {
                    let square = crate::board::square::Square::new(col, row - 1).expect("on the board");
                    if p.legal_moves().contains(square) {
                        self.cursor = square;
                        self.status = None;
                        let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
                        match keys::action_for(&enter, &contexts) {
                            Some(action) => self.act(action, enter),
                            None => Vec::new(),
                        }
                    } else {
                        self.complain(format!("{square} is not a legal move here"));
                        Vec::new()
                    }
                }
                _ => {
                    let mut effects = self.letter_key(letter);
                    effects.extend(self.key(*ev));
                    effects
                }
            });
        }
        let col = (ch as u32).wrapping_sub('a' as u32) as usize;
        let has_move =
            ch.is_ascii_lowercase() && col < n && p.legal_moves().iter().any(|sq| sq.col() == col) && !p.is_game_over();
        if !has_move {
            return None;
        }
        self.typed = Some((ch, self.clock));
        self.say(format!("{ch}… type the row to play there"));
        Some(Vec::new())
    }

    /// What the letter's own key does (nothing if it has none).
    pub(super) fn letter_key(&mut self, letter: char) -> Vec<Effect> {
        if self.status.as_ref().is_some_and(|s| s.text.ends_with("type the row to play there")) {
            self.status = None;
        }
        let ev = KeyEvent::new(KeyCode::Char(letter), KeyModifiers::NONE);
        match keys::action_for(&ev, &self.contexts()) {
            Some(action) => self.act(action, ev),
            None => Vec::new(),
        }
    }

    fn act(&mut self, action: Action, ev: KeyEvent) -> Vec<Effect> {
        match action {
            Action::Quit | Action::ForceQuit => self.quit_now(),
            Action::Suspend => vec![Effect::Suspend],
            Action::Escape => {
                // Esc stops what runs and closes what is open; at the top level it never quits
                // (q and Ctrl-C do).
                if self.auto().is_some() {
                    self.stop_auto();
                    self.say("auto-play off");
                } else if self.drawn_mask.take().is_none() {
                    self.say("nothing to close: q quits");
                }
                Vec::new()
            }
            Action::Help => {
                self.overlay = Overlay::Help;
                self.help_scroll = 0;
                Vec::new()
            }
            Action::ScrollUp => {
                self.help_scroll = self.help_scroll.saturating_sub(1);
                Vec::new()
            }
            Action::ScrollDown => {
                self.help_scroll = self.help_scroll.saturating_add(1).min(self.hits.help_max_scroll);
                Vec::new()
            }
            Action::CloseHelp => {
                self.overlay = Overlay::None;
                Vec::new()
            }
            Action::Command => {
                self.overlay = Overlay::Command(String::new());
                Vec::new()
            }
            Action::RunCommand => {
                let input = match std::mem::take(&mut self.overlay) {
                    Overlay::Command(text) => text,
                    _ => return Vec::new(),
                };
                self.execute(&input)
            }
            Action::CancelCommand => {
                self.overlay = Overlay::None;
                Vec::new()
            }
            Action::DeleteChar => {
                if let Overlay::Command(text) = &mut self.overlay
                    && text.pop().is_none()
                {
                    self.overlay = Overlay::None;
                }
                Vec::new()
            }
            Action::TypeChar => {
                if let (Overlay::Command(text), KeyCode::Char(ch)) = (&mut self.overlay, ev.code)
                    && text.chars().count() < 4096
                {
                    text.push(ch);
                }
                Vec::new()
            }
            Action::Teach => self.toggle_teach(),
            Action::NextStep => self.step_by(1),
            Action::PrevStep => self.step_by(-1),
            Action::NextTopic => self.topic_by(1),
            Action::PrevTopic => self.topic_by(-1),
            Action::Lab => self.lab_key(),
            Action::Up => self.cursor_by(0, -1),
            Action::Down => self.cursor_by(0, 1),
            Action::Left => self.cursor_by(-1, 0),
            Action::Right => self.cursor_by(1, 0),
            Action::NextMove => {
                self.cycle_move(true);
                Vec::new()
            }
            Action::PrevMove => {
                self.cycle_move(false);
                Vec::new()
            }
            Action::Play => self.play_here(),
            Action::Back => self.step_back(),
            Action::Forward => self.step_forward(),
            Action::Start => {
                let moved = self.tree.to_start();
                self.navigate(moved, "at the start of the game")
            }
            Action::End => {
                let moved = self.tree.to_end();
                self.navigate(moved, "at the end of the line")
            }
            Action::PrevBranch => {
                let moved = self.tree.switch_branch(-1);
                self.navigate(moved, "no other branch here")
            }
            Action::NextBranch => {
                let moved = self.tree.switch_branch(1);
                self.navigate(moved, "no other branch here")
            }
            Action::Best => self.best_key(),
            Action::AutoPlay => self.auto_key(false),
            Action::AutoEngine => self.auto_key(true),
            Action::Archive => self.toggle_archive(),
            Action::PickUp => self.pick_by(-1),
            Action::PickDown => self.pick_by(1),
            Action::PickPageUp => self.pick_by(-10),
            Action::PickPageDown => self.pick_by(10),
            Action::PickLoad => self.pick_load(),
            Action::PickClose => {
                self.overlay = Overlay::None;
                self.say("no game loaded");
                Vec::new()
            }
            Action::Faster | Action::Slower => {
                let d = self.config.auto_delay;
                let d = if action == Action::Faster { d / 2 } else { d * 2 };
                self.config.auto_delay = d.clamp(MIN_DELAY, MAX_DELAY);
                self.say(format!("auto-play delay {:.1}s", self.delay()));
                Vec::new()
            }
            Action::Mask => {
                self.drawn_mask = match self.drawn_mask {
                    None => Some(Mask::ALL[0]),
                    Some(m) => Mask::ALL.iter().position(|&x| x == m).and_then(|i| Mask::ALL.get(i + 1)).copied(),
                };
                Vec::new()
            }
            Action::Focus => {
                self.focus = if self.focus == Focus::History { Focus::Board } else { Focus::History };
                Vec::new()
            }
            Action::Perspective => {
                self.black_view = !self.black_view;
                self.say(if self.black_view {
                    "values from black's side (v: from the side to move)"
                } else {
                    "values from the side to move (v: from black's side)"
                });
                Vec::new()
            }
            Action::Selectivity => self.set_selectivity(self.selectivity.cycled()),
            Action::Pause => {
                self.paused = !self.paused;
                if self.paused {
                    self.say("analysis paused: z resumes");
                } else {
                    self.say("analysis resumed");
                }
                self.arrived()
            }
            Action::Yank => {
                let (board, moves) = self.yank_text();
                let shown = if moves.is_empty() { "(none)".to_string() } else { moves.clone() };
                self.say(format!("copied board {board} · moves {shown}"));
                vec![Effect::Yank(format!("{board}\n{moves}"))]
            }
            Action::Undo => self.undo(),
            Action::ToggleValues => self.toggle_values(),
            Action::Choose => self.choose(self.cursor),
            Action::Edit => self.open_editor(),
            Action::Cycle => self.edit_cycle(self.cursor),
            Action::PutBlack => self.edit_put(Some(crate::board::position::Color::Black)),
            Action::PutWhite => self.edit_put(Some(crate::board::position::Color::White)),
            Action::PutEmpty => self.edit_put(None),
            Action::SideToMove => self.edit_side(),
            Action::Clear => self.edit_clear(),
            Action::Initial => self.edit_initial(),
            Action::Done => self.edit_done(),
            Action::CancelEdit => self.edit_cancel(),
        }
    }

    /// `b`: the best move known (proven, else the best estimate, said so).
    fn best_key(&mut self) -> Vec<Effect> {
        let to_move = self.position().to_move();
        let game = self.game().map(|g| (g.engine_plays(to_move), g.show_values));
        if let Some((true, _)) = game
            && !self.position().is_game_over()
        {
            self.say(format!("{to_move} is the engine's to play: it moves when its analysis is ready"));
            return Vec::new();
        }
        match self.best_known() {
            Some((edge, known)) => {
                let effects = self.play(edge);
                match (game, known, edge) {
                    // In a game, said whatever else was said, the value only when the values show.
                    (Some((_, shown)), known, edge) => {
                        let how = match known {
                            Known::Proven => "proven best".to_string(),
                            Known::Unproven(score) if shown => unproven_text(score),
                            Known::Unproven(_) => "the best estimate, not proven".to_string(),
                        };
                        let after = self.status.take().map_or(String::new(), |s| format!(" · {}", s.text));
                        let text = format!("b played {edge} for you ({to_move}): {how}");
                        self.say(format!("{text}{after}"));
                        if let Some(g) = self.game_mut() {
                            g.note = Some(text);
                        }
                    }
                    (None, Known::Unproven(score), Edge::Move(square)) if self.status.is_none() => {
                        self.say(format!("played {square}: {}", unproven_text(score)));
                    }
                    _ => {}
                }
                effects
            }
            None if self.position().is_game_over() => {
                self.say("the game is over");
                Vec::new()
            }
            None => {
                self.complain("no move has a value yet: the solver is still starting");
                Vec::new()
            }
        }
    }

    /// `p`: auto-play on or off.
    fn auto_key(&mut self, engine: bool) -> Vec<Effect> {
        match self.activity {
            Activity::Explore { auto: Some(_) } => {
                self.stop_auto();
                self.say("auto-play off");
            }
            Activity::Game(_) => {
                self.say("a game is on: :play both lets the engine play both sides, :play off ends it")
            }
            Activity::Drill(_) => self.say("a drill is on: you choose the moves · :drill off ends it"),
            Activity::Edit(_) => {}
            Activity::Explore { auto: None } if self.position().is_game_over() => {
                self.say("the game is over: nothing to play")
            }
            Activity::Explore { auto: None } => {
                let along = !engine && self.tree.preferred_child(self.tree.current()).is_some();
                self.start_auto(!along);
                let what = if along {
                    "the moves ahead on the line (P plays the engine's line instead)"
                } else {
                    "the engine's line"
                };
                let key = if engine { 'P' } else { 'p' };
                self.say(format!(
                    "auto-play on: {what}, a move every {:.1}s ({key} stops, + and - change speed)",
                    self.delay()
                ));
            }
        }
        Vec::new()
    }

    pub(super) fn delay(&self) -> f64 {
        self.config.auto_delay.as_secs_f64()
    }

    fn cursor_by(&mut self, dc: isize, dr: isize) -> Vec<Effect> {
        self.move_cursor(dc, dr);
        Vec::new()
    }

    pub(super) fn quit_now(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }
}
