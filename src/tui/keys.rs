//! The one key table: it dispatches key presses ([`action_for`]), and the key bar ([`key_bar`])
//! and the `?` help overlay ([`help_lines`]) are generated from it, so help never drifts.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// What a key does. Some actions depend on focus: with the history focused, the arrows go back
/// and forward and switch branches instead of moving the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Quit (Esc first closes an overlay, leaves the command line or the history focus).
    Quit,
    /// Quit at once, whatever is open.
    ForceQuit,
    /// Cursor up (history focus: previous branch).
    Up,
    /// Cursor down (history focus: next branch).
    Down,
    /// Cursor left (history focus: back one move).
    Left,
    /// Cursor right (history focus: forward one move).
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
    /// Open or close the help.
    Help,
    /// Enter or leave the teaching view.
    Teach,
    /// Teaching view: the next step of the trace.
    NextStep,
    /// Teaching view: the previous step.
    PrevStep,
    /// Teaching view: the next topic.
    NextTopic,
    /// Teaching view: run the search lab on this position, or cancel it while it runs.
    Lab,
    /// Pause the analysis (the CPU goes idle), or resume it.
    Pause,
    /// Show values from black's side, or from the side to move's (the default).
    Perspective,
}

/// The help section of the teaching view's keys (the key bar shows them while the view is open;
/// there the arrows walk the trace: → ← steps, ↓ ↑ topics).
pub const TEACHING: &str = "teaching";

/// A key as the table names it.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The key code.
    pub code: KeyCode,
    /// Whether Ctrl must be held.
    pub ctrl: bool,
    /// How help and the key bar write it.
    pub name: &'static str,
}

const fn k(code: KeyCode, name: &'static str) -> Key {
    Key { code, ctrl: false, name }
}

const fn c(ch: char, name: &'static str) -> Key {
    Key { code: KeyCode::Char(ch), ctrl: false, name }
}

/// One row of the key table.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys that trigger it.
    pub keys: &'static [Key],
    /// What they do.
    pub action: Action,
    /// The short label of the key bar, if it appears there (in table order, as many as fit).
    pub bar: Option<&'static str>,
    /// The help overlay's line.
    pub help: &'static str,
    /// The help overlay's section.
    pub section: &'static str,
}

/// The key table.
pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: &[c('?', "?")],
        action: Action::Help,
        bar: Some("help"),
        help: "open or close this help",
        section: "general",
    },
    Binding {
        keys: &[c('q', "q"), k(KeyCode::Esc, "Esc")],
        action: Action::Quit,
        bar: Some("quit"),
        help: "quit (Esc first closes what is open)",
        section: "general",
    },
    Binding {
        keys: &[Key { code: KeyCode::Char('c'), ctrl: true, name: "Ctrl-C" }],
        action: Action::ForceQuit,
        bar: None,
        help: "quit at once",
        section: "general",
    },
    Binding {
        keys: &[k(KeyCode::Enter, "Enter"), c(' ', "Space")],
        action: Action::Play,
        bar: Some("play"),
        help: "play the move under the cursor (or pass)",
        section: "board",
    },
    Binding {
        keys: &[k(KeyCode::Up, "↑"), c('k', "k")],
        action: Action::Up,
        bar: None,
        help: "cursor up (history focus: previous branch)",
        section: "board",
    },
    Binding {
        keys: &[k(KeyCode::Down, "↓"), c('j', "j")],
        action: Action::Down,
        bar: None,
        help: "cursor down (history focus: next branch)",
        section: "board",
    },
    Binding {
        keys: &[k(KeyCode::Left, "←"), c('h', "h")],
        action: Action::Left,
        bar: None,
        help: "cursor left (history focus: back one move)",
        section: "board",
    },
    Binding {
        keys: &[k(KeyCode::Right, "→"), c('l', "l")],
        action: Action::Right,
        bar: None,
        help: "cursor right (history focus: forward one move)",
        section: "board",
    },
    Binding {
        keys: &[k(KeyCode::Tab, "Tab")],
        action: Action::NextMove,
        bar: Some("next move"),
        help: "cursor to the next legal move",
        section: "board",
    },
    Binding {
        keys: &[k(KeyCode::BackTab, "Shift-Tab")],
        action: Action::PrevMove,
        bar: None,
        help: "cursor to the previous legal move",
        section: "board",
    },
    Binding {
        keys: &[c('b', "b")],
        action: Action::Best,
        bar: Some("best"),
        help: "play the best move known (proven, else the best estimate)",
        section: "board",
    },
    Binding {
        keys: &[c('o', "o")],
        action: Action::Overlay,
        bar: Some("mask"),
        help: "draw a mask on the board (cycles through)",
        section: "board",
    },
    Binding {
        keys: &[c('u', "u"), k(KeyCode::Backspace, "Backspace")],
        action: Action::Back,
        bar: Some("back"),
        help: "back one move",
        section: "game tree",
    },
    Binding {
        keys: &[c('r', "r")],
        action: Action::Forward,
        bar: Some("fwd"),
        help: "forward along the line (redo)",
        section: "game tree",
    },
    Binding {
        keys: &[c('e', "e")],
        action: Action::Teach,
        bar: Some("teach"),
        help: "open or close the teaching view (bitboard techniques step by step)",
        section: TEACHING,
    },
    Binding {
        keys: &[k(KeyCode::Home, "Home")],
        action: Action::Start,
        bar: None,
        help: "to the start of the game",
        section: "game tree",
    },
    Binding {
        keys: &[k(KeyCode::End, "End")],
        action: Action::End,
        bar: None,
        help: "to the end of the current line",
        section: "game tree",
    },
    Binding {
        keys: &[c('[', "[")],
        action: Action::PrevBranch,
        bar: None,
        help: "previous branch at this point",
        section: "game tree",
    },
    Binding {
        keys: &[c(']', "]")],
        action: Action::NextBranch,
        bar: Some("branch"),
        help: "next branch at this point",
        section: "game tree",
    },
    Binding {
        keys: &[c('t', "t")],
        action: Action::Focus,
        bar: Some("history"),
        help: "focus history (←→ moves, ↑↓ branches)",
        section: "game tree",
    },
    Binding {
        keys: &[c('p', "p")],
        action: Action::AutoPlay,
        bar: Some("auto"),
        help: "start or stop auto-play of the line shown (perfect or estimated)",
        section: "game tree",
    },
    Binding { keys: &[c('+', "+")], action: Action::Faster, bar: None, help: "auto-play faster", section: "game tree" },
    Binding { keys: &[c('-', "-")], action: Action::Slower, bar: None, help: "auto-play slower", section: "game tree" },
    Binding {
        keys: &[c('z', "z")],
        action: Action::Pause,
        bar: Some("pause"),
        help: "pause the analysis (the cores go idle), or resume it",
        section: "general",
    },
    Binding {
        keys: &[c('v', "v")],
        action: Action::Perspective,
        bar: None,
        help: "values from black's side, or from the side to move's (the default)",
        section: "general",
    },
    Binding {
        keys: &[c(':', ":")],
        action: Action::Command,
        bar: Some("command"),
        help: "open the command line (commands below)",
        section: "general",
    },
    Binding {
        keys: &[c('y', "y")],
        action: Action::Yank,
        bar: Some("yank"),
        help: "copy board string and moves (OSC 52)",
        section: "general",
    },
    Binding {
        keys: &[c('n', "n")],
        action: Action::NextStep,
        bar: Some("step"),
        help: "teaching: next step of the trace (→ too)",
        section: TEACHING,
    },
    Binding {
        keys: &[c('N', "N")],
        action: Action::PrevStep,
        bar: Some("step back"),
        help: "teaching: previous step (← too)",
        section: TEACHING,
    },
    Binding {
        keys: &[c('T', "T")],
        action: Action::NextTopic,
        bar: Some("topic"),
        help: "teaching: next topic (↓ too, ↑ goes back): legal … symmetry, search lab",
        section: TEACHING,
    },
    Binding {
        keys: &[c('s', "s")],
        action: Action::Lab,
        bar: Some("search lab"),
        help: "teaching: run the search lab on this position (again: cancel)",
        section: TEACHING,
    },
];

impl Key {
    fn matches(&self, ev: &KeyEvent) -> bool {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl != self.ctrl || ev.modifiers.contains(KeyModifiers::ALT) {
            return false;
        }
        match (self.code, ev.code) {
            // Shifted characters arrive with or without SHIFT depending on the terminal.
            (KeyCode::Char(a), KeyCode::Char(b)) => a == b || (self.ctrl && a.eq_ignore_ascii_case(&b)),
            (a, b) => a == b,
        }
    }
}

/// The action a key press triggers, if any. Key releases and repeats of releases are ignored.
pub fn action_for(ev: &KeyEvent) -> Option<Action> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    BINDINGS.iter().find(|b| b.keys.iter().any(|k| k.matches(ev))).map(|b| b.action)
}

/// The binding of an action.
pub fn binding(action: Action) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.action == action)
}

/// The key bar's entries that fit in `width` columns: `(keys, label)` pairs in table order.
pub fn key_bar(width: usize) -> Vec<(String, &'static str)> {
    bar_of(BINDINGS.iter(), width)
}

/// The teaching view's key bar: help, quit and the teaching keys, the arrows first.
pub fn teaching_key_bar(width: usize) -> Vec<(String, &'static str)> {
    let mut entries: Vec<(String, &'static str)> = vec![("→/←".into(), "step"), ("↓/↑".into(), "topic")];
    for b in BINDINGS.iter().filter(|b| b.section == TEACHING || matches!(b.action, Action::Help | Action::Quit)) {
        if let (Some(label), false) =
            (b.bar, matches!(b.action, Action::NextStep | Action::PrevStep | Action::NextTopic))
        {
            entries.push((b.keys.iter().map(|k| k.name).collect::<Vec<_>>().join("/"), label));
        }
    }
    let mut used = 0;
    entries
        .into_iter()
        .take_while(|(k, l)| {
            used += k.chars().count() + 1 + l.chars().count() + 2;
            used <= width
        })
        .collect()
}

fn bar_of<'a>(bindings: impl Iterator<Item = &'a Binding>, width: usize) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let mut used = 0;
    for b in bindings {
        let Some(label) = b.bar else { continue };
        let keys =
            b.keys.iter().filter(|k| k.name != "Space" && k.name != "Backspace").map(|k| k.name).collect::<Vec<_>>();
        let keys = keys.join("/");
        let w = keys.chars().count() + 1 + label.chars().count() + 2;
        if used + w > width {
            break;
        }
        used += w;
        out.push((keys, label));
    }
    out
}

/// The help overlay's lines by section: `(section, [(keys, text)])`, in table order.
pub fn help_lines() -> Vec<(&'static str, Vec<(String, &'static str)>)> {
    let mut sections: Vec<(&'static str, Vec<(String, &'static str)>)> = Vec::new();
    for b in BINDINGS {
        let keys = b.keys.iter().map(|k| k.name).collect::<Vec<_>>().join(" ");
        match sections.iter_mut().find(|s| s.0 == b.section) {
            Some(s) => s.1.push((keys, b.help)),
            None => sections.push((b.section, vec![(keys, b.help)])),
        }
    }
    sections
}
