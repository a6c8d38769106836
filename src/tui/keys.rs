//! The one key table, with contexts: every [`Binding`] names the [`Context`]s it works in.
//! Dispatch ([`action_for`]), the key bar ([`key_bar`]) and the `?` help overlay
//! ([`help_sections`]) are all generated from it, so the three can never disagree.
//!
//! The model says which contexts are active, the most specific first (for example the teaching
//! view over the board: `[Teaching, Normal]`); a key means what the first active context that
//! binds it says. No key is bound twice in one context (a test checks).
//!
//! The table, [`BINDINGS`], is in `keys/table.rs`; the types and the functions that read it are
//! here.

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
    /// The list of a file's games (`:load FILE` on a file of several).
    Pick,
}

impl Context {
    /// Every context, in the help's order.
    pub const ALL: [Context; 9] = [
        Context::Normal,
        Context::History,
        Context::Teaching,
        Context::Play,
        Context::Drill,
        Context::Edit,
        Context::Command,
        Context::Pick,
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
            Context::Pick => "list of a file's games (:load FILE)",
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
    /// Suspend to the shell (`fg` comes back), as Ctrl-Z does in a shell.
    Suspend,
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
    /// Start or stop auto-play: the line ahead in the tree (a loaded game) when there is one,
    /// else the engine's line.
    AutoPlay,
    /// Start or stop auto-play of the engine's line, even where the tree's line goes on.
    AutoEngine,
    /// The archive panel on or off.
    Archive,
    /// The list of games: the previous one.
    PickUp,
    /// The list of games: the next one.
    PickDown,
    /// The list of games: a page up.
    PickPageUp,
    /// The list of games: a page down.
    PickPageDown,
    /// The list of games: load the one chosen.
    PickLoad,
    /// The list of games: close it.
    PickClose,
    /// Auto-play faster.
    Faster,
    /// Auto-play slower.
    Slower,
    /// Draw the next mask onto the board (off, black, white, empty, legal, flips).
    Mask,
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
    /// The next selectivity of the estimates (73% 87% 95% 98% 99% 100%, then 73% again): the
    /// position on screen is analysed again at it.
    Selectivity,
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
    pub(crate) in_bar: bool,
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

mod table;

pub use table::BINDINGS;

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

/// What ends a key bar cut short: more keys exist (`?` lists them all).
pub const BAR_MORE: &str = "…";

/// The key bar's entries that fit in `width` columns for the active contexts: `(keys, label)`
/// pairs, the most specific context first, in table order within each. A binding a more specific
/// context shadows entirely is left out. When not all fit, the last entry is [`BAR_MORE`] with
/// no label, so the bar never ends as if it were complete.
pub fn key_bar(width: usize, active: &[Context]) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    let mut widths: Vec<usize> = Vec::new();
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
                while used + BAR_MORE.chars().count() > width && !out.is_empty() {
                    out.pop();
                    used -= widths.pop().unwrap_or(0);
                }
                if used + BAR_MORE.chars().count() <= width {
                    out.push((BAR_MORE.to_string(), ""));
                }
                return out;
            }
            used += w;
            widths.push(w);
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
pub(crate) type HelpSection = (Context, bool, Vec<(String, &'static str)>);

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
