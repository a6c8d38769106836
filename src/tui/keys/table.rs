//! The key table itself: every binding of the explorer, one row each (see [`super`] for how
//! dispatch, the key bar and the help read it).

use super::{Action, Binding, Context, Key};
use Context::{Command as Cmd, Drill, Edit, Help, History, Normal, Pick, Play, Teaching};
use ratatui::crossterm::event::KeyCode;

const fn k(code: KeyCode, name: &'static str) -> Key {
    Key { code, ctrl: false, name, in_bar: true }
}

const fn c(ch: char, name: &'static str) -> Key {
    Key { code: KeyCode::Char(ch), ctrl: false, name, in_bar: true }
}

/// A key the help names but the bar leaves out.
const fn quiet(key: Key) -> Key {
    Key { in_bar: false, ..key }
}

const BOARD: &[Context] = &[Normal];
const EVERYWHERE: &[Context] = &[Normal, Edit, Help];
const CURSOR: &[Context] = &[Normal, Edit];

const CTRL_C: Key = Key { code: KeyCode::Char('c'), ctrl: true, name: "Ctrl-C", in_bar: true };
const CTRL_Z: Key = Key { code: KeyCode::Char('z'), ctrl: true, name: "Ctrl-Z", in_bar: true };
const UP: Key = k(KeyCode::Up, "↑");
const DOWN: Key = k(KeyCode::Down, "↓");
const LEFT: Key = k(KeyCode::Left, "←");
const RIGHT: Key = k(KeyCode::Right, "→");
const ESC: Key = k(KeyCode::Esc, "Esc");
const ENTER: Key = k(KeyCode::Enter, "Enter");
const SPACE: Key = quiet(c(' ', "Space"));
const BACKSPACE: Key = quiet(k(KeyCode::Backspace, "Backspace"));

/// The key table. Within a context, the key bar shows the rows with a label in table order.
pub const BINDINGS: &[Binding] = &[
    // Modes layered over the board come first, so their keys lead the bar.
    Binding {
        contexts: &[Teaching],
        keys: &[RIGHT, c('n', "n")],
        action: Action::NextStep,
        bar: Some("step"),
        help: "next step of the trace",
    },
    Binding {
        contexts: &[Teaching],
        keys: &[LEFT, c('N', "N")],
        action: Action::PrevStep,
        bar: Some("step back"),
        help: "previous step",
    },
    Binding {
        contexts: &[Teaching],
        keys: &[DOWN, c('T', "T")],
        action: Action::NextTopic,
        bar: Some("topic"),
        help: "next topic: legal, flips, play, popcount, empties, symmetry, search lab",
    },
    Binding { contexts: &[Teaching], keys: &[UP], action: Action::PrevTopic, bar: None, help: "previous topic" },
    Binding {
        contexts: &[Teaching],
        keys: &[c('s', "s")],
        action: Action::Lab,
        bar: Some("search lab"),
        help: "run the search lab on this position (again: cancel)",
    },
    Binding {
        contexts: &[Teaching],
        keys: &[c('e', "e"), ESC],
        action: Action::Teach,
        bar: Some("leave"),
        help: "close the teaching view",
    },
    Binding {
        contexts: &[History],
        keys: &[LEFT, c('h', "h")],
        action: Action::Back,
        bar: Some("back"),
        help: "back one move",
    },
    Binding {
        contexts: &[History],
        keys: &[RIGHT, c('l', "l")],
        action: Action::Forward,
        bar: Some("fwd"),
        help: "forward one move",
    },
    Binding {
        contexts: &[History],
        keys: &[UP, c('k', "k")],
        action: Action::PrevBranch,
        bar: Some("branch"),
        help: "previous branch here",
    },
    Binding {
        contexts: &[History],
        keys: &[DOWN, c('j', "j")],
        action: Action::NextBranch,
        bar: None,
        help: "next branch here",
    },
    Binding {
        contexts: &[History],
        keys: &[c('t', "t"), ESC],
        action: Action::Focus,
        bar: Some("board"),
        help: "give the arrows back to the board",
    },
    Binding {
        contexts: &[Play],
        keys: &[c('u', "u"), BACKSPACE],
        action: Action::Undo,
        bar: Some("undo"),
        help: "take back to your previous move (the engine's reply too)",
    },
    Binding {
        contexts: &[Play],
        keys: &[c('x', "x")],
        action: Action::ToggleValues,
        bar: Some("values"),
        help: "show or hide the values (hidden while you play)",
    },
    Binding {
        contexts: &[Play],
        keys: &[c('p', "p"), c('P', "P")],
        action: Action::AutoPlay,
        bar: None,
        help: "no auto-play in a game: the engine plays its side (:play both lets it play both)",
    },
    Binding {
        contexts: &[Drill],
        keys: &[ENTER, SPACE],
        action: Action::Choose,
        bar: Some("choose"),
        help: "choose the move under the cursor (a click too); again: play it and go on",
    },
    // The board editor.
    Binding {
        contexts: &[Edit],
        keys: &[ENTER],
        action: Action::Done,
        bar: Some("explore"),
        help: "explore the edited position (:restore brings the old tree back)",
    },
    Binding {
        contexts: &[Edit],
        keys: &[ESC],
        action: Action::CancelEdit,
        bar: Some("cancel"),
        help: "leave the editor, the tree untouched",
    },
    Binding {
        contexts: &[Edit],
        keys: &[SPACE],
        action: Action::Cycle,
        bar: Some("cycle"),
        help: "empty, black, white in turn on the cursor's square (a click too)",
    },
    Binding {
        contexts: &[Edit],
        keys: &[c('x', "x")],
        action: Action::PutBlack,
        bar: Some("black"),
        help: "a black disc here",
    },
    Binding {
        contexts: &[Edit],
        keys: &[c('o', "o")],
        action: Action::PutWhite,
        bar: Some("white"),
        help: "a white disc here",
    },
    Binding {
        contexts: &[Edit],
        keys: &[c('.', "."), quiet(c('-', "-")), quiet(k(KeyCode::Delete, "Del")), BACKSPACE],
        action: Action::PutEmpty,
        bar: Some("empty"),
        help: "empty this square",
    },
    Binding {
        contexts: &[Edit],
        keys: &[c('s', "s"), k(KeyCode::Tab, "Tab")],
        action: Action::SideToMove,
        bar: Some("side"),
        help: "the other side to move",
    },
    Binding {
        contexts: &[Edit],
        keys: &[c('c', "c")],
        action: Action::Clear,
        bar: Some("clear"),
        help: "empty the whole board",
    },
    Binding {
        contexts: &[Edit],
        keys: &[c('i', "i")],
        action: Action::Initial,
        bar: Some("start"),
        help: "the start position",
    },
    // The command line.
    Binding { contexts: &[Cmd], keys: &[ENTER], action: Action::RunCommand, bar: Some("run"), help: "run the command" },
    Binding {
        contexts: &[Cmd],
        keys: &[ESC],
        action: Action::CancelCommand,
        bar: Some("cancel"),
        help: "close the command line",
    },
    Binding {
        contexts: &[Cmd],
        keys: &[k(KeyCode::Backspace, "Backspace")],
        action: Action::DeleteChar,
        bar: Some("delete"),
        help: "delete the last character (on an empty line: close)",
    },
    Binding {
        contexts: &[Cmd],
        keys: &[quiet(k(KeyCode::Null, "a-z 0-9 …"))],
        action: Action::TypeChar,
        bar: None,
        help: "type the command (the commands are listed below)",
    },
    // The list of a file's games.
    Binding {
        contexts: &[Pick],
        keys: &[UP, c('k', "k")],
        action: Action::PickUp,
        bar: Some("choose"),
        help: "the previous game",
    },
    Binding {
        contexts: &[Pick],
        keys: &[DOWN, c('j', "j")],
        action: Action::PickDown,
        bar: None,
        help: "the next game",
    },
    Binding {
        contexts: &[Pick],
        keys: &[k(KeyCode::PageUp, "PgUp")],
        action: Action::PickPageUp,
        bar: None,
        help: "a page up",
    },
    Binding {
        contexts: &[Pick],
        keys: &[k(KeyCode::PageDown, "PgDn")],
        action: Action::PickPageDown,
        bar: None,
        help: "a page down",
    },
    Binding {
        contexts: &[Pick],
        keys: &[ENTER],
        action: Action::PickLoad,
        bar: Some("load"),
        help: "load the game chosen as a new tree (:restore brings back the old one)",
    },
    Binding {
        contexts: &[Pick],
        keys: &[ESC, c('q', "q")],
        action: Action::PickClose,
        bar: Some("close"),
        help: "close the list",
    },
    // The help overlay.
    Binding {
        contexts: &[Help],
        keys: &[UP, c('k', "k")],
        action: Action::ScrollUp,
        bar: Some("scroll"),
        help: "scroll up",
    },
    Binding {
        contexts: &[Help],
        keys: &[DOWN, c('j', "j"), quiet(c(' ', "Space"))],
        action: Action::ScrollDown,
        bar: None,
        help: "scroll down",
    },
    Binding {
        contexts: &[Help],
        keys: &[c('?', "?"), ESC],
        action: Action::CloseHelp,
        bar: Some("close"),
        help: "close the help (a click too)",
    },
    // Everywhere on the board.
    Binding {
        contexts: &[Normal, Edit],
        keys: &[c('?', "?")],
        action: Action::Help,
        bar: Some("help"),
        help: "open the help (the keys of what is open come first)",
    },
    Binding { contexts: &[Normal, Help], keys: &[c('q', "q")], action: Action::Quit, bar: Some("quit"), help: "quit" },
    Binding { contexts: EVERYWHERE, keys: &[CTRL_C], action: Action::ForceQuit, bar: None, help: "quit at once" },
    Binding {
        contexts: EVERYWHERE,
        keys: &[CTRL_Z],
        action: Action::Suspend,
        bar: None,
        help: "suspend to the shell (fg comes back)",
    },
    Binding {
        contexts: BOARD,
        keys: &[ESC],
        action: Action::Escape,
        bar: None,
        help: "stop auto-play, or remove the drawn mask (never quits: q does)",
    },
    Binding {
        contexts: BOARD,
        keys: &[ENTER, SPACE],
        action: Action::Play,
        bar: Some("play"),
        help: "play the move under the cursor (or pass); a click too",
    },
    Binding { contexts: CURSOR, keys: &[UP, c('k', "k")], action: Action::Up, bar: None, help: "cursor up" },
    Binding { contexts: CURSOR, keys: &[DOWN, c('j', "j")], action: Action::Down, bar: None, help: "cursor down" },
    Binding { contexts: CURSOR, keys: &[LEFT, c('h', "h")], action: Action::Left, bar: None, help: "cursor left" },
    Binding { contexts: CURSOR, keys: &[RIGHT, c('l', "l")], action: Action::Right, bar: None, help: "cursor right" },
    Binding {
        contexts: BOARD,
        keys: &[k(KeyCode::Tab, "Tab")],
        action: Action::NextMove,
        bar: Some("next move"),
        help: "cursor to the next legal move",
    },
    Binding {
        contexts: BOARD,
        keys: &[k(KeyCode::BackTab, "Shift-Tab")],
        action: Action::PrevMove,
        bar: None,
        help: "cursor to the previous legal move",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('b', "b")],
        action: Action::Best,
        bar: Some("best"),
        help: "play the best move known (proven, else the best estimate)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('p', "p")],
        action: Action::AutoPlay,
        bar: Some("play on"),
        help: "start or stop auto-play: the moves ahead on the line (a loaded game) when there are some, else the engine's line",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('P', "P")],
        action: Action::AutoEngine,
        bar: Some("engine line"),
        help: "start or stop auto-play of the engine's line (perfect or estimated), leaving the loaded game for a new branch",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('o', "o")],
        action: Action::Mask,
        bar: Some("mask"),
        help: "draw a mask on the board (cycles through)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('u', "u"), BACKSPACE],
        action: Action::Back,
        bar: Some("back"),
        help: "back one move",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('r', "r")],
        action: Action::Forward,
        bar: Some("fwd"),
        help: "forward along the line (redo)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('e', "e")],
        action: Action::Teach,
        bar: Some("teach"),
        help: "open the teaching view (bitboard techniques step by step)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('s', "s")],
        action: Action::Lab,
        bar: None,
        help: "open the teaching view on the search lab and run it on this position",
    },
    Binding {
        contexts: BOARD,
        keys: &[k(KeyCode::Home, "Home")],
        action: Action::Start,
        bar: None,
        help: "to the start of the game",
    },
    Binding {
        contexts: BOARD,
        keys: &[k(KeyCode::End, "End")],
        action: Action::End,
        bar: None,
        help: "to the end of the current line",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('[', "[")],
        action: Action::PrevBranch,
        bar: None,
        help: "previous branch at this point",
    },
    Binding {
        contexts: BOARD,
        keys: &[c(']', "]")],
        action: Action::NextBranch,
        bar: Some("branch"),
        help: "next branch at this point",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('t', "t")],
        action: Action::Focus,
        bar: Some("history"),
        help: "focus the history (←→ moves, ↑↓ branches)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('A', "A")],
        action: Action::Archive,
        bar: None,
        help: "the archive panel: the archive's games of this position (games, share, results, players) beside the engine's values; :games lists them",
    },
    Binding { contexts: BOARD, keys: &[c('+', "+")], action: Action::Faster, bar: None, help: "auto-play faster" },
    Binding { contexts: BOARD, keys: &[c('-', "-")], action: Action::Slower, bar: None, help: "auto-play slower" },
    Binding {
        contexts: BOARD,
        keys: &[c('z', "z")],
        action: Action::Pause,
        bar: Some("pause"),
        help: "pause the analysis (the cores go idle), or resume it",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('v', "v")],
        action: Action::Perspective,
        bar: None,
        help: "values from black's side, or from the side to move's (the default)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('%', "%")],
        action: Action::Selectivity,
        bar: None,
        help: "the estimates' selectivity: 73% 87% 95% 98% 99% 100% in turn (100%: full width; :selectivity N sets it)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('E', "E")],
        action: Action::Edit,
        bar: Some("edit"),
        help: "edit the position: place and remove discs, set the side to move",
    },
    Binding {
        contexts: BOARD,
        keys: &[c(':', ":")],
        action: Action::Command,
        bar: Some("command"),
        help: "open the command line (commands below)",
    },
    Binding {
        contexts: BOARD,
        keys: &[c('y', "y")],
        action: Action::Yank,
        bar: Some("yank"),
        help: "copy board string and moves (OSC 52)",
    },
];
