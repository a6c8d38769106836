//! The session file: the whole explored tree (every branch, which line each node prefers, the
//! current node), so `othello-explorer --resume` reopens the explorer exactly where the user was,
//! and `:save` / `:load` keep a study for later.
//!
//! The format is plain text, one node per line, in the order the nodes were first visited (so a
//! node's parent always comes before it):
//!
//! ```text
//! ; othello-explorer session: the explored tree ...
//! othello-explorer session 1
//! root ---------------------------OX------XO--------------------------- X
//! 1 0 f5 *
//! 2 1 d6 *
//! 3 1 f6
//! current 2
//! ```
//!
//! - `othello-explorer session 1`: the header, with the format's version. A file of a newer
//!   version is refused with a message saying so, never misread.
//! - `root B`: the root position's board string (the [`obf`] convention: `N*N` of `X`, `O`, `-`
//!   from a1, a space, `X` or `O` to move).
//! - `K P E [*]`: node `K` (numbered from 1 in file order; the root is 0) is reached from node `P`
//!   by `E`, a square like `f5` or the word `pass`; `*` marks the child its parent prefers (the
//!   line the forward key follows; the first child when none is marked).
//! - `current K`: the node on screen.
//! - `play C` (version 2, only while a game against the engine is on): the colour the user
//!   plays, `black` or `white`, or `both` when the engine plays both sides. A session without a
//!   game is written as version 1, so older builds still read it.
//! - Blank lines and lines starting with `;` are ignored.
//!
//! Writes are atomic ([`write_atomic`]): the text goes to a temporary file beside the target,
//! is flushed to disk, and is renamed over it, so a crash leaves either the old file or the new
//! one, never a mix.
//!
//! ```
//! use othello_explorer::tui::testing::session;
//! use othello_explorer::tui::testing::tree::{Edge, Tree};
//! use othello_explorer::{Position, Size};
//!
//! let mut tree = Tree::new(Position::start(Size::Four));
//! tree.play(Edge::Move("b1".parse().unwrap())).unwrap();
//! tree.back();
//! tree.play(Edge::Move("c4".parse().unwrap())).unwrap();
//! let text = session::to_text(&tree);
//! let again = session::parse(&text).unwrap();
//! assert_eq!(session::to_text(&again), text);
//! assert_eq!(again.transcript(), "c4");
//! assert_eq!(again.children(again.root()).len(), 2);
//! ```

use super::tree::{Edge, NodeId, Tree};
use crate::{Color, obf};
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

/// The first line of every session file, before the version number.
pub const MAGIC: &str = "othello-explorer session";

/// The newest format version this build writes and reads (version 1 files have no `play` line).
pub const VERSION: u32 = 2;

/// A session: the tree, and the game on when it was written.
#[derive(Clone, Debug)]
pub struct Session {
    /// The explored tree.
    pub tree: Tree,
    /// The game on: `Some(Some(c))` the user plays `c`, `Some(None)` the engine plays both.
    pub play: Option<Option<Color>>,
}

/// Why a session file could not be read; every variant but [`SessionError::Empty`] names the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The file holds nothing but comments and blank lines.
    Empty,
    /// The first line is not the session header.
    NotASession {
        /// The line number.
        line: usize,
    },
    /// The header's version is newer than this build reads.
    NewerVersion {
        /// The version in the file.
        found: u32,
    },
    /// The header's version is not a number.
    BadVersion {
        /// The line number.
        line: usize,
    },
    /// The `root` line is missing or not the second line.
    MissingRoot {
        /// The line number where it was expected.
        line: usize,
    },
    /// The root's board string is wrong.
    BadRoot {
        /// The line number.
        line: usize,
        /// What is wrong with it.
        error: obf::BoardStringError,
    },
    /// A node line is malformed.
    BadNode {
        /// The line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The `current` line is missing or names no node.
    BadCurrent {
        /// The line number (that of the last line when it is missing).
        line: usize,
    },
    /// A `play` line names no side.
    BadPlay {
        /// The line number.
        line: usize,
    },
    /// Something follows the `current` line (other than a `play` line in version 2).
    Trailing {
        /// The line number.
        line: usize,
    },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Empty => write!(f, "the session file is empty"),
            SessionError::NotASession { line } => {
                write!(f, "line {line}: not a session file (expected '{MAGIC} {VERSION}')")
            }
            SessionError::NewerVersion { found } => write!(
                f,
                "the session file has format version {found}, newer than this program reads ({VERSION}): update othello-explorer"
            ),
            SessionError::BadVersion { line } => write!(f, "line {line}: the format version is not a number"),
            SessionError::MissingRoot { line } => write!(f, "line {line}: expected 'root' and a board string"),
            SessionError::BadRoot { line, error } => write!(f, "line {line}: root: {error}"),
            SessionError::BadNode { line, reason } => write!(f, "line {line}: {reason}"),
            SessionError::BadCurrent { line } => write!(f, "line {line}: expected 'current' and a node number"),
            SessionError::BadPlay { line } => {
                write!(f, "line {line}: expected 'play black', 'play white' or 'play both'")
            }
            SessionError::Trailing { line } => {
                write!(f, "line {line}: nothing but a 'play' line may follow the 'current' line")
            }
        }
    }
}

impl std::error::Error for SessionError {}

/// Whether `text` looks like a session file (its first meaningful line is the header), as
/// opposed to the older saved-line format `:load` also reads.
pub fn is_session(text: &str) -> bool {
    meaningful(text).next().is_some_and(|(_, l)| l.starts_with(MAGIC))
}

/// The session text of `tree`, no game on.
pub fn to_text(tree: &Tree) -> String {
    to_text_with(tree, None)
}

/// The session text of `tree` with the game on (see [`Session::play`]).
pub fn to_text_with(tree: &Tree, play: Option<Option<Color>>) -> String {
    let mut out = String::new();
    out.push_str("; othello-explorer session: the explored tree. One node per line after the root:\n");
    out.push_str("; its number, its parent's number, the move (or pass), and * if its parent prefers it.\n");
    let version = if play.is_some() { 2 } else { 1 };
    out.push_str(&format!("{MAGIC} {version}\n"));
    out.push_str(&format!("root {}\n", tree.position_of(tree.root())));
    // Breadth-first from the root in child order gives each node a number after its parent's;
    // node ids already have that property, but numbering afresh keeps files canonical.
    let mut order = vec![tree.root()];
    let mut i = 0;
    while i < order.len() {
        order.extend_from_slice(tree.children(order[i]));
        i += 1;
    }
    let mut number = std::collections::HashMap::with_capacity(order.len());
    for (k, &id) in order.iter().enumerate() {
        number.insert(id, k);
    }
    for (k, &id) in order.iter().enumerate().skip(1) {
        let parent = tree.parent(id).expect("a non-root node has a parent");
        let edge = tree.edge(id).expect("a non-root node has an edge");
        let mark = if tree.is_preferred(id) { " *" } else { "" };
        out.push_str(&format!("{k} {} {edge}{mark}\n", number[&parent]));
    }
    out.push_str(&format!("current {}\n", number[&tree.current()]));
    match play {
        Some(Some(c)) => out.push_str(&format!("play {c}\n")),
        Some(None) => out.push_str("play both\n"),
        None => {}
    }
    out
}

fn meaningful(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with(';'))
}

/// Reads a session text back into a tree: the same branches in the same order, the same
/// preferred lines, the same current node.
pub fn parse(text: &str) -> Result<Tree, SessionError> {
    parse_full(text).map(|s| s.tree)
}

/// Reads a session text: the tree as [`parse`] does, and the game that was on.
pub fn parse_full(text: &str) -> Result<Session, SessionError> {
    let mut lines = meaningful(text).peekable();
    let (line, header) = lines.next().ok_or(SessionError::Empty)?;
    let version = header.strip_prefix(MAGIC).ok_or(SessionError::NotASession { line })?.trim();
    let version: u32 = version.parse().map_err(|_| SessionError::BadVersion { line })?;
    if version > VERSION {
        return Err(SessionError::NewerVersion { found: version });
    }
    let (line, root_line) = lines.next().ok_or(SessionError::MissingRoot { line: line + 1 })?;
    let board = root_line.strip_prefix("root ").ok_or(SessionError::MissingRoot { line })?;
    let root = obf::parse_board(board).map_err(|error| SessionError::BadRoot { line, error })?;
    let mut tree = Tree::new(root);
    // File number -> node id, and which nodes are marked preferred.
    let mut ids = vec![tree.root()];
    let mut marked = Vec::new();
    let mut last = line;
    while let Some(&(line, text)) = lines.peek() {
        if text.starts_with("current") {
            break;
        }
        lines.next();
        last = line;
        let bad = |reason: String| SessionError::BadNode { line, reason };
        let words: Vec<&str> = text.split_whitespace().collect();
        let (k, p, e, star) = match words.as_slice() {
            [k, p, e] => (k, p, e, false),
            [k, p, e, "*"] => (k, p, e, true),
            _ => return Err(bad(format!("expected 'number parent move [*]', found '{text}'"))),
        };
        let k: usize = k.parse().map_err(|_| bad(format!("'{k}' is not a node number")))?;
        if k != ids.len() {
            return Err(bad(format!("node {k} out of order: expected node {}", ids.len())));
        }
        let p: usize = p.parse().map_err(|_| bad(format!("'{p}' is not a node number")))?;
        let Some(&parent) = ids.get(p) else {
            return Err(bad(format!("node {k}: its parent {p} comes later or does not exist")));
        };
        let edge = if e.eq_ignore_ascii_case("pass") {
            Edge::Pass
        } else {
            Edge::Move(e.parse().map_err(|err| bad(format!("node {k}: '{e}': {err}")))?)
        };
        tree.goto(parent);
        let before = tree.len();
        tree.play(edge).map_err(|err| bad(format!("node {k}: {edge} from node {p}: {err}")))?;
        if tree.len() == before {
            return Err(bad(format!("node {k}: node {p} already has a child by {edge}")));
        }
        ids.push(tree.current());
        if star {
            if marked.iter().any(|&(_, q)| q == parent) {
                return Err(bad(format!("node {k}: node {p} already has a preferred child")));
            }
            marked.push((tree.current(), parent));
        }
    }
    let (line, current) = lines.next().ok_or(SessionError::BadCurrent { line: last + 1 })?;
    let number = current.strip_prefix("current").and_then(|n| n.trim().parse::<usize>().ok());
    let number = number.ok_or(SessionError::BadCurrent { line })?;
    let current =
        *ids.get(number).ok_or_else(|| SessionError::BadNode { line, reason: format!("no node {number}") })?;
    let mut play = None;
    if let Some((line, text)) = lines.next() {
        let side = text.strip_prefix("play ").map(|s| s.trim().to_ascii_lowercase());
        play = match side.as_deref() {
            _ if version < 2 => return Err(SessionError::Trailing { line }),
            Some("black") => Some(Some(Color::Black)),
            Some("white") => Some(Some(Color::White)),
            Some("both") => Some(None),
            Some(_) => return Err(SessionError::BadPlay { line }),
            None => return Err(SessionError::Trailing { line }),
        };
    }
    if let Some((line, _)) = lines.next() {
        return Err(SessionError::Trailing { line });
    }
    // Preferred lines: the marked child, else the first.
    for &id in &ids {
        if let Some(&first) = tree.children(id).first() {
            tree.prefer(first);
        }
    }
    for &(child, _) in &marked {
        tree.prefer(child);
    }
    jump(&mut tree, current);
    Ok(Session { tree, play })
}

/// Makes `id` current without changing which lines are preferred: walk from the root along the
/// path (every step below the current node's ancestors keeps its preference).
fn jump(tree: &mut Tree, id: NodeId) {
    let mut preferred = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(n) = stack.pop() {
        if tree.is_preferred(n) {
            preferred.push(n);
        }
        stack.extend_from_slice(tree.children(n));
    }
    tree.goto(id);
    for n in preferred {
        tree.prefer(n);
    }
}

/// Writes `text` to `path` atomically: a temporary file in the same directory, flushed to disk,
/// then renamed over `path` (and the directory flushed), so a crash leaves the old file or the
/// new one. Creates the directory if needed.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    // Never over a device, a FIFO or a folder; through a symbolic link to its file.
    let path = &crate::writefile::target(path).map_err(|e| io::Error::other(e.to_string()))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        // Never created here: a `:save` into a directory that is not there is a typo to report.
        return Err(io::Error::new(io::ErrorKind::NotFound, format!("no directory {}", dir.display())));
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("session");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // The rename itself is durable once the directory is flushed (best effort elsewhere).
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Size};

    fn sq(s: &str) -> Edge {
        Edge::Move(s.parse().unwrap())
    }

    #[test]
    fn errors_name_the_line() {
        let root = Position::start(Size::Four);
        let head = format!("{MAGIC} 1\nroot {root}\n");
        let cases = [
            (String::new(), "the session file is empty"),
            ("hello\n".to_string(), "line 1: not a session file"),
            (format!("{MAGIC} 9\n"), "format version 9, newer than this program reads (2)"),
            (format!("{MAGIC} x\n"), "line 1: the format version is not a number"),
            (format!("{MAGIC} 1\nboard\n"), "line 2: expected 'root'"),
            (format!("{MAGIC} 1\nroot XX X\n"), "line 2: root:"),
            (format!("{head}1 0 z9\n"), "line 3: node 1: 'z9'"),
            (format!("{head}1 0 a1\n"), "line 3: node 1: a1 from node 0"),
            (format!("{head}2 0 b1\n"), "line 3: node 2 out of order"),
            (format!("{head}1 3 b1\n"), "line 3: node 1: its parent 3"),
            (format!("{head}1 0 b1\n2 0 b1\n"), "line 4: node 2: node 0 already has a child by b1"),
            (format!("{head}1 0 b1 *\n2 0 c4 *\n"), "line 4: node 2: node 0 already has a preferred child"),
            (format!("{head}1 0 b1\n"), "line 4: expected 'current'"),
            (format!("{head}1 0 b1\ncurrent 5\n"), "line 4: no node 5"),
            (format!("{head}current 0\n1 0 b1\n"), "line 4: nothing but a 'play' line may follow"),
            (format!("{head}current 0\nplay white\n"), "line 4: nothing but a 'play' line may follow"),
            (format!("{MAGIC} 2\nroot {root}\ncurrent 0\nplay red\n"), "line 4: expected 'play black'"),
            (format!("{MAGIC} 2\nroot {root}\ncurrent 0\nplay both\nplay both\n"), "line 5: nothing but"),
            (format!("{head}1 0 pass\n"), "line 3: node 1: pass from node 0: no pass here"),
        ];
        for (text, want) in cases {
            let err = parse(&text).unwrap_err().to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }

    #[test]
    fn keeps_branches_preferences_and_the_current_node() {
        let mut tree = Tree::new(Position::start(Size::Six));
        for m in ["c2", "b2", "a2"] {
            tree.play(sq(m)).unwrap();
        }
        tree.back();
        tree.back();
        tree.play(sq("d2")).unwrap(); // a second branch at ply 1; b2 a2 stays
        tree.back();
        tree.back(); // at the root; the root prefers c2, c2 prefers d2
        let text = to_text(&tree);
        let again = parse(&text).unwrap();
        assert_eq!(to_text(&again), text);
        assert_eq!(again.current(), again.root());
        let mut walk = again.clone();
        walk.to_end();
        assert_eq!(walk.transcript(), "c2d2");
        assert_eq!(again.len(), tree.len());
    }

    #[test]
    fn a_game_on_is_kept_and_a_session_without_one_stays_version_1() {
        let mut tree = Tree::new(Position::start(Size::Four));
        tree.play(Edge::Move("b1".parse().unwrap())).unwrap();
        assert!(to_text(&tree).contains(&format!("{MAGIC} 1\n")));
        for play in [Some(Color::Black), Some(Color::White), None] {
            let text = to_text_with(&tree, Some(play));
            assert!(text.contains(&format!("{MAGIC} 2\n")));
            let back = parse_full(&text).unwrap();
            assert_eq!(back.play, Some(play));
            assert_eq!(back.tree.transcript(), "b1");
        }
        assert_eq!(parse_full(&to_text(&tree)).unwrap().play, None);
    }
}
