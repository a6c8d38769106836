//! The one key table, with contexts: every [`Binding`] names the [`Context`]s it works in.
//! Dispatch ([`action_for`]), the key bar ([`key_bar`]) and the `?` help overlay
//! ([`help_sections`]) are all generated from it, so the three can never disagree.
//!
//! The model says which contexts are active, the most specific first (for example the teaching
//! view over the board: `[Teaching, Normal]`); a key means what the first active context that
//! binds it says. No key is bound twice in one context (a test checks).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Where the keyboard is: each binding works in the contexts it lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// The board and the game tree.
    Normal,
    /// The history has the focus: the arrows walk the tree.
    History,
    /// The teaching view is open: the arrows walk the trace.
    Teaching,
    /// The help overlay is open.
    Help,
    /// The command line is open.
    Command,
    /// A game against the engine (`--play`, `:play`).
    Play,
    /// Practice with the values hidden (`:drill`).
    Drill,
    /// The board editor (`E`, `:edit`).
    Edit,
}

impl Context {
    /// Every context, in the help's order.
    pub const ALL: [Context; 8] = [
        Context::Normal,
        Context::History,
        Context::Teaching,
        Context::Play,
        Context::Drill,
        Context::Edit,
        Context::Command,
        Context::Help,
    ];

    /// Its name, as the help's section heading.
    pub const fn name(self) -> &'static str {
        match self {
            Context::Normal => "board and game tree",
            Context::History => "history focus (t)",
            Context::Teaching => "teaching view (e)",
            Context::Help => "help (?)",
            Context::Command => "command line (:)",
            Context::Play => "playing the engine (:play)",
            Context::Drill => "drill (:drill)",
            Context::Edit => "board editor (E, :edit)",
        }
    }
}

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Quit.
    Quit,
    /// Quit at once, whatever is open.
    ForceQuit,
    /// Remove the mask drawn on the board, else quit.
    Escape,
    /// Cursor up.
    Up,
    /// Cursor down.
    Down,
    /// Cursor left.
    Left,
    /// Cursor right.
    Right,
    /// Cursor to the next legal move.
    NextMove,
    /// Cursor to the previous legal move.
    PrevMove,
    /// Play the move under the cursor (or the pass when the side to move must pass).
    Play,
    /// Back one move.
    Back,
    /// Forward one move along the line.
    Forward,
    /// To the start of the game.
    Start,
    /// To the end of the current line.
    End,
    /// Previous branch at this point.
    PrevBranch,
    /// Next branch at this point.
    NextBranch,
    /// Play the best move.
    Best,
    /// Start or stop playing the line shown automatically.
    AutoPlay,
    /// Auto-play faster.
    Faster,
    /// Auto-play slower.
    Slower,
    /// Draw the next mask onto the board (off, black, white, empty, legal, flips).
    Overlay,
    /// Move the focus between the board and the history.
    Focus,
    /// Open the command line.
    Command,
    /// Copy the board string and transcript.
    Yank,
    /// Open the help.
    Help,
    /// Enter or leave the teaching view.
    Teach,
    /// Teaching view: the next step of the trace.
    NextStep,
    /// Teaching view: the previous step.
    PrevStep,
    /// Teaching view: the next topic.
    NextTopic,
    /// Teaching view: the previous topic.
    PrevTopic,
    /// Teaching view: run the search lab on this position, or cancel it while it runs.
    Lab,
    /// Pause the analysis (the CPU goes idle), or resume it.
    Pause,
    /// Show values from black's side, or from the side to move's (the default).
    Perspective,
    /// Open the board editor on the position on screen.
    Edit,
    /// Help: scroll up.
    ScrollUp,
    /// Help: scroll down.
    ScrollDown,
    /// Help: close it.
    CloseHelp,
    /// Command line: run what was typed.
    RunCommand,
    /// Command line: close it without running.
    CancelCommand,
    /// Command line: delete the last character (on an empty line: close it).
    DeleteChar,
    /// Command line: type the character.
    TypeChar,
    /// Play: take back to the human's previous move.
    Undo,
    /// Play: show or hide the values.
    ToggleValues,
    /// Drill: choose the move under the cursor; once the values show, play it and go on.
    Choose,
    /// Edit: empty, black, white in turn on the cursor's square.
    Cycle,
    /// Edit: a black disc on the cursor's square.
    PutBlack,
    /// Edit: a white disc on the cursor's square.
    PutWhite,
    /// Edit: empty the cursor's square.
    PutEmpty,
    /// Edit: the other side to move.
    SideToMove,
    /// Edit: empty the whole board.
    Clear,
    /// Edit: the start position.
    Initial,
    /// Edit: explore the edited position (the old tree stays reachable by `:restore`).
    Done,
    /// Edit: leave the editor, the tree untouched.
    CancelEdit,
}

/// A key as the table names it.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The key code; [`KeyCode::Null`] stands for any printable character.
    pub code: KeyCode,
    /// Whether Ctrl must be held.
    pub ctrl: bool,
    /// How help and the key bar write it.
    pub name: &'static str,
    /// Whether the key bar writes it (Space and Backspace, the second names of a binding, are
    /// left to the help).
    pub in_bar: bool,
}

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

/// One row of the key table.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The contexts it works in.
    pub contexts: &'static [Context],
    /// The keys that trigger it.
    pub keys: &'static [Key],
    /// What they do.
    pub action: Action,
    /// The short label of the key bar, if it appears there (in table order, as many as fit).
    pub bar: Option<&'static str>,
    /// The help overlay's line.
    pub help: &'static str,
}

use Context::{Command as Cmd, Drill, Edit, Help, History, Normal, Play, Teaching};

const BOARD: &[Context] = &[Normal];
const EVERYWHERE: &[Context] = &[Normal, Edit, Help];
const CURSOR: &[Context] = &[Normal, Edit];

const CTRL_C: Key = Key { code: KeyCode::Char('c'), ctrl: true, name: "Ctrl-C", in_bar: true };
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
        contexts: BOARD,
        keys: &[ESC],
        action: Action::Escape,
        bar: None,
        help: "remove the mask drawn on the board, else quit",
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
        keys: &[c('o', "o")],
        action: Action::Overlay,
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
        keys: &[c('p', "p")],
        action: Action::AutoPlay,
        bar: Some("auto"),
        help: "start or stop auto-play of the line shown (perfect or estimated)",
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

impl Key {
    /// Whether the key event is this key.
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl != self.ctrl || ev.modifiers.contains(KeyModifiers::ALT) {
            return false;
        }
        match (self.code, ev.code) {
            // Any printable character.
            (KeyCode::Null, KeyCode::Char(ch)) => !ch.is_control(),
            // Shifted characters arrive with or without SHIFT depending on the terminal.
            (KeyCode::Char(a), KeyCode::Char(b)) => a == b || (self.ctrl && a.eq_ignore_ascii_case(&b)),
            (a, b) => a == b,
        }
    }
}

/// The bindings of one context, in table order.
pub fn bindings(context: Context) -> impl Iterator<Item = &'static Binding> {
    BINDINGS.iter().filter(move |b| b.contexts.contains(&context))
}

/// The action a key press triggers in the active contexts (the most specific first), if any. Key
/// releases are ignored.
pub fn action_for(ev: &KeyEvent, active: &[Context]) -> Option<Action> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    active.iter().find_map(|&cx| bindings(cx).find(|b| b.keys.iter().any(|k| k.matches(ev))).map(|b| b.action))
}

/// The keys of a binding as the key bar writes them: `↑/k` (the first key when all are quiet).
fn bar_keys(b: &Binding) -> String {
    let shown: Vec<&str> = b.keys.iter().filter(|k| k.in_bar).map(|k| k.name).collect();
    if shown.is_empty() { b.keys.first().map_or(String::new(), |k| k.name.to_string()) } else { shown.join("/") }
}

/// The key bar's entries that fit in `width` columns for the active contexts: `(keys, label)`
/// pairs, the most specific context first, in table order within each. A binding a more specific
/// context shadows entirely is left out.
pub fn key_bar(width: usize, active: &[Context]) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let mut used = 0;
    let mut seen: Vec<Action> = Vec::new();
    for (i, &cx) in active.iter().enumerate() {
        for b in bindings(cx) {
            let Some(label) = b.bar else { continue };
            // Shown once, and only when one of its keys still reaches it.
            let reaches = b.keys.iter().any(|key| {
                !active[..i].iter().any(|&before| bindings(before).any(|o| o.keys.iter().any(|ok| same_key(ok, key))))
            });
            if seen.contains(&b.action) || !reaches {
                continue;
            }
            let keys = bar_keys(b);
            let w = keys.chars().count() + 1 + label.chars().count() + 2;
            if used + w > width {
                return out;
            }
            used += w;
            seen.push(b.action);
            out.push((keys, label));
        }
    }
    out
}

fn same_key(a: &Key, b: &Key) -> bool {
    a.code == b.code && a.ctrl == b.ctrl
}

/// One section of the help: the context, whether it is active, and its `(keys, text)` lines.
pub type HelpSection = (Context, bool, Vec<(String, &'static str)>);

/// The help overlay's sections, the active contexts first (most specific first), then the others
/// in [`Context::ALL`] order.
pub fn help_sections(active: &[Context]) -> Vec<HelpSection> {
    let rest = Context::ALL.iter().filter(|c| !active.contains(c));
    active
        .iter()
        .map(|&c| (c, true))
        .chain(rest.map(|&c| (c, false)))
        .map(|(cx, on)| {
            let lines =
                bindings(cx).map(|b| (b.keys.iter().map(|k| k.name).collect::<Vec<_>>().join(" "), b.help)).collect();
            (cx, on, lines)
        })
        .collect()
}
