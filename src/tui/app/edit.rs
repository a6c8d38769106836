//! The board editor (`E`, `:edit`): place and remove discs with the cursor or the mouse, set the
//! side to move, and explore the result. A position no game reaches is allowed but flagged, with
//! the reason ([`Editor::problems`]): a centre square empty, or a disc not 8-connected to the
//! centre (every disc of a game is placed beside another, from the four centre discs on).

use super::super::tree::Tree;
use super::{Activity, Editing, Effect, Model, Suspended};
use crate::{
    board::bitboard::Bitboard,
    board::geometry,
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
};

/// The board being edited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Editor {
    /// The board size.
    pub size: Size,
    /// Black's discs.
    pub black: u64,
    /// White's discs.
    pub white: u64,
    /// The side to move.
    pub to_move: Color,
}

impl Editor {
    /// An editor on `p`.
    pub fn new(p: &Position) -> Editor {
        Editor { size: p.size(), black: p.black().bits(), white: p.white().bits(), to_move: p.to_move() }
    }

    /// The edited position.
    pub fn position(&self) -> Position {
        // The editor keeps the two sets apart and on the board, so this cannot fail.
        Position::new(self.size, self.black, self.white, self.to_move).unwrap_or_else(|_| Position::start(self.size))
    }

    /// What is on `square`.
    pub fn at(&self, square: Square) -> Option<Color> {
        let m = square.mask(self.size);
        if self.black & m != 0 {
            Some(Color::Black)
        } else if self.white & m != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Puts `disc` (or nothing) on `square`.
    pub fn put(&mut self, square: Square, disc: Option<Color>) {
        if !square.is_on(self.size) {
            return;
        }
        let m = square.mask(self.size);
        self.black &= !m;
        self.white &= !m;
        match disc {
            Some(Color::Black) => self.black |= m,
            Some(Color::White) => self.white |= m,
            None => {}
        }
    }

    /// Why no game reaches this board, if none does by the checks made here (empty: no reason
    /// found; the full proof needs a search).
    pub fn problems(&self) -> Vec<String> {
        let n = self.size.n();
        let occupied = self.black | self.white;
        let names = |bits: u64| -> Vec<String> {
            Bitboard::new(self.size, bits).reading_order().iter().map(|s| s.to_string()).collect()
        };
        let mut out = Vec::new();
        let centre = geometry::centre(n);
        let empty = names(centre & !occupied);
        if !empty.is_empty() {
            out.push(format!("{} empty: the four centre squares are never empty in a game", empty.join(" ")));
        }
        // Every disc must join the occupied centre squares, 8 ways.
        let cut = names(occupied & !geometry::spread(n, occupied, centre));
        if let Some(first) = cut.first() {
            let more = if cut.len() > 1 { format!(" and {} more", cut.len() - 1) } else { String::new() };
            out.push(format!(
                "{first}{more} not connected to the centre: every disc of a game is placed beside another"
            ));
        }
        out
    }

    /// The editor's status: the side to move, the counts, and whether a game reaches it.
    pub fn summary(&self) -> String {
        let (b, w) = (self.black.count_ones(), self.white.count_ones());
        let p = self.position();
        let moves = match (p.is_game_over(), p.must_pass()) {
            (true, _) => " · no move for either side (game over)".to_string(),
            (false, true) => format!(" · {} has no move and passes", self.to_move),
            _ => String::new(),
        };
        let verdict = match self.problems().as_slice() {
            [] => "no game rules it out by these checks".to_string(),
            [first, ..] => format!("unreachable: {first}"),
        };
        format!("editing: {b} black, {w} white, {} to move{moves} · {verdict}", self.to_move)
    }
}

impl Model {
    /// `E`, `:edit`: the editor on the position on screen (its analysis stops meanwhile). A game or
    /// a drill on waits under it and comes back when it closes; auto-play stops.
    pub(super) fn open_editor(&mut self) -> Vec<Effect> {
        let suspended = match &self.activity {
            Activity::Edit(_) => return Vec::new(),
            Activity::Explore { .. } => Suspended::Explore,
            Activity::Game(g) => Suspended::Game(g.clone()),
            Activity::Drill(d) => Suspended::Drill(d.clone()),
        };
        let waits = match &suspended {
            Suspended::Explore => String::new(),
            s => format!(" ({} waits)", s.name()),
        };
        let editor = Editor::new(&self.tree.position());
        let effects = self.set_activity(Activity::Edit(Editing { editor, suspended }));
        self.say(format!(
            "editing{waits}: x black · o white · . empty · Space cycles · s side to move · Enter explores · Esc cancels"
        ));
        effects
    }

    /// Closes the editor and gives back what it suspended: the editor's board, the effects, and what
    /// to add to the status line (" · the game goes on", nothing when it suspended exploring).
    fn close_editor(&mut self) -> Option<(Editor, Vec<Effect>, String)> {
        let Activity::Edit(Editing { editor, suspended }) = &self.activity else { return None };
        let (editor, suspended) = (*editor, suspended.clone());
        let back = match &suspended {
            Suspended::Explore => String::new(),
            s => format!(" · {} goes on", s.name()),
        };
        let effects = self.set_activity(suspended.resume());
        Some((editor, effects, back))
    }

    fn edited(&mut self, change: impl FnOnce(&mut Editor, Square)) -> Vec<Effect> {
        let cursor = self.cursor;
        if let Some(e) = self.editor_mut() {
            change(e, cursor);
            let text = e.summary();
            self.say(text);
        }
        Vec::new()
    }

    /// Space or a click: empty, black, white in turn on `square`.
    pub(super) fn edit_cycle(&mut self, square: Square) -> Vec<Effect> {
        self.cursor = square;
        self.edited(|e, sq| {
            let next = match e.at(sq) {
                None => Some(Color::Black),
                Some(Color::Black) => Some(Color::White),
                Some(Color::White) => None,
            };
            e.put(sq, next);
        })
    }

    /// `x`, `o`, `.`: a disc or nothing on the cursor's square.
    pub(super) fn edit_put(&mut self, disc: Option<Color>) -> Vec<Effect> {
        self.edited(|e, sq| e.put(sq, disc))
    }

    /// `s`: the other side to move.
    pub(super) fn edit_side(&mut self) -> Vec<Effect> {
        self.edited(|e, _| e.to_move = e.to_move.opponent())
    }

    /// `c`: an empty board.
    pub(super) fn edit_clear(&mut self) -> Vec<Effect> {
        self.edited(|e, _| {
            e.black = 0;
            e.white = 0;
        })
    }

    /// `i`: the start position.
    pub(super) fn edit_initial(&mut self) -> Vec<Effect> {
        self.edited(|e, _| *e = Editor::new(&Position::start(e.size)))
    }

    /// Enter: explore the edited position (a game or a drill the editor suspended goes on from
    /// it); the old tree stays for `:restore`.
    pub(super) fn edit_done(&mut self) -> Vec<Effect> {
        let Some((e, mut effects, back)) = self.close_editor() else { return Vec::new() };
        let p = e.position();
        let flag = match e.problems().as_slice() {
            [] => String::new(),
            [first, ..] => format!(" (flagged, no game reaches it: {first})"),
        };
        if p == self.tree.position() && self.tree.len() == 1 {
            self.say(format!("the position is unchanged{back}"));
            effects.extend(self.arrived());
            return effects;
        }
        effects.extend(self.replace_tree(Tree::new(p), format!("edited position{flag}{back}")));
        effects
    }

    /// Esc: leave the editor, the tree as it was (and what the editor suspended back).
    pub(super) fn edit_cancel(&mut self) -> Vec<Effect> {
        let Some((_, mut effects, back)) = self.close_editor() else { return Vec::new() };
        self.say(format!("edit cancelled: the tree is as it was{back}"));
        effects.extend(self.arrived());
        effects
    }
}
