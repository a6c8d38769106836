//! The command line's commands, and the files saved and loaded.

use super::super::command::{self, Command};
use super::super::session;
use super::super::tree::Tree;
use super::{Effect, Focus, Model, Overlay, REPLACED_TREES};
use crate::board::position::Position;
use crate::notation::gamefile::{self, Format, Game};
use crate::notation::printable::count;

impl Model {
    pub(super) fn execute(&mut self, input: &str) -> Vec<Effect> {
        let cmd = match command::parse(input) {
            Ok(c) => c,
            Err(e) => {
                self.complain(e.to_string());
                return Vec::new();
            }
        };
        match cmd {
            Command::Moves(text) => {
                // `/f5d6` from the root; `d3c3` from the position on screen.
                let (from, text, whence) = match text.trim_start().strip_prefix('/') {
                    Some(rest) => (self.tree.root(), rest.to_string(), "from the root"),
                    None => (self.tree.current(), text, "from here"),
                };
                let before = self.tree.depth(from);
                match self.tree.play_transcript_from(from, &text) {
                    Ok(()) => {
                        let n = self.tree.depth(self.tree.current()) - before;
                        self.say(format!("played {} {whence}", count(n as i64, "move", "moves")));
                        self.arrived()
                    }
                    Err(e) => {
                        self.complain(format!("moves: {e}"));
                        Vec::new()
                    }
                }
            }
            Command::Board(p) => self.replace_tree(Tree::new(p), format!("new tree at {p}")),
            Command::Size(s) => self.replace_tree(Tree::new(Position::start(s)), format!("new {s} game")),
            Command::New => {
                let s = self.position().size();
                self.replace_tree(Tree::new(Position::start(s)), format!("new {s} game"))
            }
            Command::Save(path) => vec![Effect::Save { path, contents: session::to_text(&self.tree) }],
            Command::Load(path, index) => vec![Effect::Load { path, index }],
            Command::Export(path) => vec![Effect::Save { path, contents: self.export_ggf() }],
            Command::Restore => match self.replaced.pop() {
                Some(tree) => {
                    let n = tree.len() - 1;
                    let old = std::mem::replace(&mut self.tree, tree);
                    self.replaced.push(old);
                    self.tree_generation += 1;
                    self.focus = Focus::Board;
                    self.drawn_mask = None;
                    self.say(format!(
                        "restored the replaced tree ({n} position{} explored); :restore again swaps back",
                        if n == 1 { "" } else { "s" }
                    ));
                    self.arrived()
                }
                None => {
                    self.complain("restore: no tree was replaced in this run");
                    Vec::new()
                }
            },
            Command::Play(Some(seat)) => self.start_game(seat),
            Command::Play(None) => self.end_game(),
            Command::Drill(on) => self.set_drill(on.unwrap_or(self.drill().is_none())),
            Command::Edit => self.open_editor(),
            Command::Review(on) => self.set_review(on.unwrap_or(!self.reviewing())),
            Command::Games => self.games_list(),
            Command::Reach(true) => self.start_reach(),
            Command::Reach(false) => self.stop_reach(),
            Command::Selectivity(s) => self.set_selectivity(s),
            Command::Quit => self.quit_now(),
            Command::Help => {
                self.overlay = Overlay::Help;
                Vec::new()
            }
        }
    }

    /// Replaces the explored tree, keeping the old one for `:restore` and, with a session file,
    /// beside it on disk (`NAME.previous`), so quitting loses nothing either.
    pub(super) fn replace_tree(&mut self, tree: Tree, text: String) -> Vec<Effect> {
        let old = std::mem::replace(&mut self.tree, tree);
        let n = old.len() - 1;
        let worth_keeping = n > 0 || old.position_of(old.root()) != Position::start(old.position_of(old.root()).size());
        let mut effects = Vec::new();
        if worth_keeping {
            if self.config.session {
                effects.push(Effect::KeepTree(session::to_text(&old)));
            } else {
                self.unkept += 1;
            }
        }
        if self.replaced.len() == REPLACED_TREES {
            self.replaced.remove(0);
        }
        self.replaced.push(old);
        self.tree_generation += 1;
        self.focus = Focus::Board;
        self.drawn_mask = None;
        let s = if n == 1 { "" } else { "s" };
        self.say(format!("{text} · :restore brings back the old tree ({n} position{s} explored)"));
        effects.extend(self.arrived());
        effects
    }

    /// The line from the root to the current node as GGF, each move with its value where the
    /// cache knows it (exact or estimated, from the mover's side).
    pub(super) fn export_ggf(&self) -> String {
        let start = self.tree.position_of(self.tree.root());
        let moves = self.tree.moves();
        let mut values = Vec::with_capacity(moves.len());
        let mut p = start;
        for &m in &moves {
            p = p.after_forced_pass().0;
            // Exact scores only: a GGF value is read as the move's value, and an estimate or an
            // outcome is not one.
            values.push(
                self.cache
                    .get(&p)
                    .and_then(|a| a.value(m))
                    .filter(|c| c.kind == super::ScoreKind::Exact)
                    .map(|c| c.score),
            );
            p = p.play(m).unwrap_or(p);
        }
        let mut game = Game::new(start, moves, Format::Ggf);
        (game.black, game.white) = self.tree.players.clone();
        gamefile::ggf::write(&game, &values)
    }

    /// Makes `game` (read from `path`) the tree, the old one kept for `:restore`; `chosen`: the
    /// user named the game (by number or from the list).
    pub(super) fn load_game(&mut self, path: &str, game: Game, chosen: bool) -> Vec<Effect> {
        let mut tree = Tree::new(game.start);
        tree.players = (game.black.clone(), game.white.clone());
        if tree.play_moves_from_root(&game.moves).is_err() {
            self.complain(format!("load {path}: the moves do not play"));
            return Vec::new();
        }
        let n = game.moves.len();
        let (idx, games) = game.index;
        let which = match (games > 1, chosen) {
            (true, false) => format!(", game {idx} of {games}; :load FILE N for another"),
            (true, true) => format!(", game {idx} of {games}"),
            _ => String::new(),
        };
        let players = match (&game.black, &game.white) {
            (Some(b), Some(w)) => format!(" ({b} against {w})"),
            _ => String::new(),
        };
        let moves = count(n as i64, "move", "moves");
        self.replace_tree(tree, format!("loaded {path} ({}{which}): {moves}{players}", game.format.name()))
    }

    /// A save finished.
    pub(super) fn saved(&mut self, path: String, result: Result<(), String>) -> Vec<Effect> {
        match result {
            Ok(()) => {
                // Where it went, whatever the working directory is.
                let full = std::path::absolute(&path).map_or(path.clone(), |p| p.display().to_string());
                self.say(format!("saved {full}"))
            }
            Err(e) => self.complain(format!("save {path}: {e}")),
        }
        Vec::new()
    }

    /// A load finished: a session file, or game `index` of a game file (GGF, WTHOR, transcript,
    /// board string).
    pub(super) fn loaded(
        &mut self,
        path: String,
        index: Option<usize>,
        result: Result<Vec<u8>, String>,
    ) -> Vec<Effect> {
        if let Ok(text) = result.as_deref().map(std::str::from_utf8)
            && let Ok(text) = text
            && session::is_session(text.strip_prefix('\u{feff}').unwrap_or(text))
        {
            let text = text.strip_prefix('\u{feff}').unwrap_or(text);
            return match session::parse(text) {
                Ok(tree) => {
                    let (n, ply) = (tree.len() - 1, tree.depth(tree.current()));
                    self.replace_tree(
                        tree,
                        format!("loaded {path}: {n} position{} explored, at ply {ply}", if n == 1 { "" } else { "s" }),
                    )
                }
                Err(e) => {
                    self.complain(format!("load {path}: {e}"));
                    Vec::new()
                }
            };
        }
        let size = self.position().size();
        // A file of several games without a number: the list to choose from.
        let result = match (result, index) {
            (Ok(bytes), None) => match super::pick::Picker::of(&path, bytes, size) {
                Ok(picker) => {
                    let (total, listed) = (picker.total, picker.lines.len());
                    self.overlay = Overlay::Pick(picker);
                    let more = if listed < total {
                        format!(" (the first {listed} listed: :load FILE N for the others)")
                    } else {
                        String::new()
                    };
                    self.say(format!("{path} holds {total} games{more}: ↑↓ choose, Enter loads, Esc closes"));
                    return Vec::new();
                }
                Err(bytes) => Ok(bytes),
            },
            (result, _) => result,
        };
        let parsed = result.and_then(|bytes| gamefile::read_bytes(&bytes, size, index).map_err(|e| e.to_string()));
        match parsed {
            Ok(game) => self.load_game(&path, game, index.is_some()),
            Err(e) => {
                self.complain(format!("load {path}: {e}"));
                Vec::new()
            }
        }
    }
}
