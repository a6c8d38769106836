//! The list of a file's games (`:load FILE` on a file of several, without a number): ↑↓ choose,
//! Enter loads the game as a new tree (the old one kept for `:restore`), Esc closes. The file's
//! bytes are kept while the list is open, so the choice loads without reading the file again.

use super::{Effect, Model, Overlay};
use crate::notation::gamefile::{self, Listed};

/// The most games the list shows; a longer file's others load by number (`:load FILE N`).
pub const LIST_LIMIT: usize = 10_000;

/// What the list loads from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Items {
    /// A file's bytes: game `k` is read from them.
    File(Vec<u8>),
    /// The games themselves (`:games`, from the archive).
    Games(Vec<crate::notation::gamefile::Game>),
}

/// The list of a file's games (or of the archive's), open over the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picker {
    /// The file, as the user named it (or what the list is).
    pub path: String,
    /// The list's title: how many games, of what.
    pub title: String,
    /// The heading of the lines' columns.
    pub header: String,
    /// Where the games come from.
    items: Items,
    /// One line a game (at most [`LIST_LIMIT`]).
    pub lines: Vec<String>,
    /// How many games the file holds.
    pub total: usize,
    /// The line chosen, from 0.
    pub selected: usize,
}

/// The heading of a file's list: the columns of [`line_of`].
const FILE_HEADER: &str = "    #  result        moves  black – white · first moves";

/// A game's line in the list: `   12  +8               60  Ann – Bob · f5d6c3d3c4f4…` (black's
/// final score, `-64 resigned` for a game that stopped early with a stated result, or `unknown`),
/// or why it does not read.
fn line_of(listed: &Listed) -> String {
    match &listed.game {
        Ok(g) => {
            let players = match (&g.black, &g.white) {
                (Some(b), Some(w)) => format!(
                    "{} – {} · ",
                    crate::notation::printable::printable(b),
                    crate::notation::printable::printable(w)
                ),
                _ => String::new(),
            };
            let result = gamefile::result_text(g.result());
            let first: String = crate::notation::transcript::format(&g.moves[..g.moves.len().min(6)]);
            let more = if g.moves.len() > 6 { "…" } else { "" };
            format!("{:>5}  {result:<13} {:>5}  {players}{first}{more}", listed.index, g.moves.len())
        }
        Err(e) => format!("{:>5}  does not read: {e}", listed.index),
    }
}

impl Picker {
    /// The list of the games of `bytes` (the file `path`) if it holds more than one; else the
    /// bytes back.
    pub fn of(path: &str, bytes: Vec<u8>, size: crate::board::size::Size) -> Result<Picker, Vec<u8>> {
        let (lines, total) = match gamefile::list(&bytes, size, LIST_LIMIT) {
            Ok((listed, total)) if total >= 2 => (listed.iter().map(line_of).collect(), total),
            _ => return Err(bytes),
        };
        let title = format!("{} in {path}", crate::notation::printable::count(total as i64, "game", "games"));
        Ok(Picker {
            path: path.to_string(),
            title,
            header: FILE_HEADER.to_string(),
            items: Items::File(bytes),
            lines,
            total,
            selected: 0,
        })
    }

    /// A list of `games` (their lines given, under `header`), of `total` in all, titled `title`;
    /// `what` names the list in messages.
    pub(crate) fn of_games(
        what: &str,
        title: String,
        header: &str,
        games: Vec<crate::notation::gamefile::Game>,
        lines: Vec<String>,
        total: usize,
    ) -> Picker {
        let header = header.to_string();
        Picker { path: what.to_string(), title, header, items: Items::Games(games), lines, total, selected: 0 }
    }

    /// Moves the choice by `by` lines, within the list.
    pub fn step(&mut self, by: isize) {
        let last = self.lines.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize + by).clamp(0, last) as usize;
    }
}

impl Model {
    /// The list's keys: ↑↓ and the pages move the choice, Enter loads it, Esc closes.
    pub(super) fn pick_by(&mut self, by: isize) -> Vec<Effect> {
        if let Overlay::Pick(p) = &mut self.overlay {
            p.step(by);
        }
        Vec::new()
    }

    /// Loads the game chosen in the list.
    pub(super) fn pick_load(&mut self) -> Vec<Effect> {
        let Overlay::Pick(p) = std::mem::take(&mut self.overlay) else { return Vec::new() };
        let size = self.position().size();
        let index = p.selected + 1;
        let game = match &p.items {
            Items::File(bytes) => gamefile::read_bytes(bytes, size, Some(index)),
            Items::Games(games) => games.get(p.selected).cloned().ok_or(gamefile::GameFileError::Empty),
        };
        match game {
            Ok(game) => self.load_game(&p.path, game, true),
            Err(e) => {
                self.complain(format!("load {}: game {index}: {e}", p.path));
                Vec::new()
            }
        }
    }
}
