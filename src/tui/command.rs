//! The `:` command line: parsing commands.
//!
//! `:save` writes the session format of [`super::session`] (the whole explored tree, the same
//! file `--resume` reads). `:load` reads that format, and also the game files of
//! [`crate::notation::gamefile`]: a GGF record, or an optional board string (the root) then an optional
//! transcript from it (move numbers allowed); `:export` writes GGF:
//!
//! ```text
//! ; a comment
//! ---------------------------OX------XO--------------------------- X
//! f5d6c3
//! ```

use crate::{board::position::Position, board::size::Size, notation::obf};
use std::fmt;

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play a transcript from the root of the tree.
    Moves(String),
    /// A new tree rooted at this position.
    Board(Position),
    /// A new tree at the start position of this size.
    Size(Size),
    /// A new tree at the start position of the current size.
    New,
    /// Save the root and the current line to a file.
    Save(String),
    /// Load a root and line from a file: a session, or game `N` (from 1) of a game file (GGF,
    /// WTHOR, transcript, board string); the first game when `N` is not given.
    Load(String, Option<usize>),
    /// Write the line to the current node as GGF, with each move's value where known.
    Export(String),
    /// Bring back the tree the last `size`, `new`, `board` or `load` replaced.
    Restore,
    /// A game against the engine: `Some(Some(color))` the user plays that colour,
    /// `Some(None)` the engine plays both sides, `None` the game ends (`off`).
    Play(Option<Option<crate::board::position::Color>>),
    /// Start or end the drill (`None` toggles).
    Drill(Option<bool>),
    /// Open the board editor on the position on screen.
    Edit,
    /// Review the line shown (`None` toggles).
    Review(Option<bool>),
    /// List the archive's games through the position on screen.
    Games,
    /// Look for a game from the start to the board on screen (`false`: stop looking).
    Reach(bool),
    /// Estimate at this selectivity from now on (`%` cycles through them).
    Selectivity(crate::solver::Selectivity),
    /// Quit the explorer.
    Quit,
    /// Open the help.
    Help,
}

/// A command's name, how to write it, and what it does: the help overlay lists these.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CommandSpec {
    /// The name typed after `:`.
    pub name: &'static str,
    /// The usage line.
    pub usage: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// Every command.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "moves",
        usage: "moves d3c3 | moves /f5d6c3",
        help: "play a transcript from the position on screen, or from the root with a leading / (branches are kept)",
    },
    CommandSpec { name: "board", usage: "board <board string>", help: "explore a position: N*N of X O -, then X or O" },
    CommandSpec { name: "size", usage: "size 4|6|8", help: "start again on a board of that size" },
    CommandSpec { name: "new", usage: "new", help: "start again on this size" },
    CommandSpec { name: "save", usage: "save FILE", help: "write the explored tree (every branch, the current node)" },
    CommandSpec {
        name: "load",
        usage: "load FILE [N]",
        help: "read a saved tree, or game N of a GGF file or WTHOR database, a transcript or a board string",
    },
    CommandSpec {
        name: "export",
        usage: "export FILE",
        help: "write the game to here as GGF, each move's value where known",
    },
    CommandSpec {
        name: "restore",
        usage: "restore",
        help: "bring back the tree the last size/new/board/load replaced (again: swap back)",
    },
    CommandSpec {
        name: "play",
        usage: "play black|white|both|off",
        help: "play the engine as that colour (both: engine against engine; off: explore again)",
    },
    CommandSpec {
        name: "drill",
        usage: "drill [on|off]",
        help: "practice: the values hide until you choose a move, then show with your loss",
    },
    CommandSpec { name: "edit", usage: "edit", help: "edit the position on screen (discs, side to move)" },
    CommandSpec {
        name: "review",
        usage: "review [on|off]",
        help: "review the line: each position analysed in turn, marks ?! ? ?? in the history, the score graph",
    },
    CommandSpec {
        name: "games",
        usage: "games",
        help: "the archive's games through the position on screen; Enter opens one as a new tree",
    },
    CommandSpec {
        name: "reach",
        usage: "reach [stop]",
        help: "find a game from the start to the board on screen (or prove there is none) and load it",
    },
    CommandSpec {
        name: "selectivity",
        usage: "selectivity PERCENT",
        help: "how selective the estimates are: 73, 87, 95, 98, 99 or 100 (full width); % cycles them",
    },
    CommandSpec { name: "quit", usage: "quit", help: "quit the explorer" },
];

/// Why a command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Nothing was typed.
    Empty,
    /// No command has this name.
    Unknown(String),
    /// The command needs an argument.
    MissingArgument { command: &'static str, usage: &'static str },
    /// The command takes no argument.
    UnexpectedArgument { command: &'static str, found: String },
    /// `size` got something other than 4, 6 or 8.
    BadSize(String),
    /// `board` got a bad board string.
    BadBoard(obf::BoardStringError),
    /// A command got an argument outside its choices.
    BadChoice { command: &'static str, found: String, usage: &'static str },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => write!(f, "empty command: try moves, board, size, new, save, load"),
            CommandError::Unknown(name) => {
                let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
                let name = crate::notation::printable::excerpt(name);
                write!(f, "unknown command '{name}': try {}", names.join(", "))
            }
            CommandError::MissingArgument { command, usage } => write!(f, "{command}: missing argument: {usage}"),
            CommandError::UnexpectedArgument { command, found } => {
                let found = crate::notation::printable::excerpt(found);
                write!(f, "{command}: unexpected argument '{found}'")
            }
            CommandError::BadSize(s) => write!(f, "size '{s}': the board size must be 4, 6 or 8"),
            CommandError::BadBoard(e) => write!(f, "board: {e}"),
            CommandError::BadChoice { command, found, usage } => {
                let found = crate::notation::printable::excerpt(found);
                write!(f, "{command}: '{found}' is not a choice: {usage}")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// Parses what was typed after `:`.
///
/// ```
/// use othello_explorer::tui::testing::command::{parse, Command};
/// use othello_explorer::Size;
/// assert_eq!(parse("size 6"), Ok(Command::Size(Size::Six)));
/// assert_eq!(parse("siz 6").unwrap_err().to_string(),
///            "unknown command 'siz': try moves, board, size, new, save, load, export, restore, play, drill, edit, review, games, reach, selectivity, quit");
/// ```
pub fn parse(input: &str) -> Result<Command, CommandError> {
    let input = input.trim();
    let (name, rest) = match input.split_once(char::is_whitespace) {
        Some((n, r)) => (n, r.trim()),
        None => (input, ""),
    };
    let need = |command: &'static str| {
        let usage = COMMANDS.iter().find(|c| c.name == command).map(|c| c.usage).unwrap_or(command);
        if rest.is_empty() { Err(CommandError::MissingArgument { command, usage }) } else { Ok(rest.to_string()) }
    };
    let none = |command: &'static str, c: Command| {
        if rest.is_empty() { Ok(c) } else { Err(CommandError::UnexpectedArgument { command, found: rest.to_string() }) }
    };
    match name {
        "" => Err(CommandError::Empty),
        "moves" | "m" => need("moves").map(Command::Moves),
        "board" => {
            let text = need("board")?;
            obf::parse_board(&text).map(Command::Board).map_err(CommandError::BadBoard)
        }
        "size" => {
            let text = need("size")?;
            text.parse::<usize>().ok().and_then(Size::from_n).map(Command::Size).ok_or(CommandError::BadSize(text))
        }
        "new" => none("new", Command::New),
        "save" | "w" => need("save").map(Command::Save),
        "load" | "e" => {
            let text = need("load")?;
            // A last word that is a number picks the game: `load games.wtb 12`.
            match text.rsplit_once(char::is_whitespace) {
                Some((file, n)) if n.chars().all(|c| c.is_ascii_digit()) => match n.parse::<usize>() {
                    Ok(k) if k >= 1 => Ok(Command::Load(file.trim_end().to_string(), Some(k))),
                    _ => Err(CommandError::BadChoice {
                        command: "load",
                        found: n.to_string(),
                        usage: "load FILE [N], N from 1",
                    }),
                },
                _ => Ok(Command::Load(text, None)),
            }
        }
        "restore" => none("restore", Command::Restore),
        "games" => none("games", Command::Games),
        "export" => need("export").map(Command::Export),
        "play" => {
            let usage = "play black|white|both|off";
            match need("play")?.to_ascii_lowercase().as_str() {
                "black" | "b" | "x" => Ok(Command::Play(Some(Some(crate::board::position::Color::Black)))),
                "white" | "w" | "o" => Ok(Command::Play(Some(Some(crate::board::position::Color::White)))),
                "both" => Ok(Command::Play(Some(None))),
                "off" => Ok(Command::Play(None)),
                _ => Err(CommandError::BadChoice { command: "play", found: rest.to_string(), usage }),
            }
        }
        "drill" => match rest.to_ascii_lowercase().as_str() {
            "" => Ok(Command::Drill(None)),
            "on" => Ok(Command::Drill(Some(true))),
            "off" => Ok(Command::Drill(Some(false))),
            _ => Err(CommandError::BadChoice { command: "drill", found: rest.to_string(), usage: "drill [on|off]" }),
        },
        "edit" => none("edit", Command::Edit),
        "review" => match rest.to_ascii_lowercase().as_str() {
            "" => Ok(Command::Review(None)),
            "on" => Ok(Command::Review(Some(true))),
            "off" => Ok(Command::Review(Some(false))),
            _ => Err(CommandError::BadChoice { command: "review", found: rest.to_string(), usage: "review [on|off]" }),
        },
        "reach" => match rest.to_ascii_lowercase().as_str() {
            "" => Ok(Command::Reach(true)),
            "stop" | "off" => Ok(Command::Reach(false)),
            _ => Err(CommandError::BadChoice { command: "reach", found: rest.to_string(), usage: "reach [stop]" }),
        },
        "selectivity" => {
            let text = need("selectivity")?;
            crate::solver::Selectivity::parse(&text).map(Command::Selectivity).map_err(|_| CommandError::BadChoice {
                command: "selectivity",
                found: text,
                usage: "selectivity 73|87|95|98|99|100",
            })
        }
        "quit" | "q" => none("quit", Command::Quit),
        "help" => none("help", Command::Help),
        other => Err(CommandError::Unknown(other.to_string())),
    }
}
