//! The session file: the whole explored tree (every branch, which line each node prefers, the
//! current node), so `othello-explorer --resume` reopens the explorer exactly where the user was,
//! and `:save` / `:load` keep a study for later.
//!
//! The format is plain text, one node per line, in the order the nodes were added (so a node's
//! parent always comes before it), then the current node; then, appended while the explorer runs,
//! a journal of what changed:
//!
//! ```text
//! ; othello-explorer session: the explored tree ...
//! othello-explorer session 3
//! root ---------------------------OX------XO--------------------------- X
//! 1 0 f5 *
//! 2 1 d6 *
//! 3 1 f6
//! current 2
//! 4 3 f4
//! prefer 3
//! current 4
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
//! - `play C` (only while a game against the engine is on): the colour the user plays, `black` or
//!   `white`, or `both` when the engine plays both sides.
//! - The journal (version 3): more node lines (numbered on), `prefer K` (node `K` becomes its
//!   parent's preferred child) and `current K` lines, in the order the changes happened; the last
//!   `current` counts. Versions 1 and 2 (no journal; `play` only in version 2, right after
//!   `current`) are still read.
//! - Blank lines and lines starting with `;` are ignored.
//!
//! Whole texts are written atomically ([`write_atomic`]): the text goes to a temporary file
//! beside the target, is flushed to disk, and is renamed over it, so a crash leaves either the old
//! file or the new one, never a mix. Each change after that is a journal appended ([`journal`],
//! [`append`]): a few dozen bytes a move however big the tree (a tree of millions of nodes is not
//! rewritten at every key), until the journal outgrows the whole text and the file is written whole
//! again. The writer ends every line; a last line without its newline was cut by a crash
//! mid-append and is left out, and `--resume` says so on stderr (its line number). Reading is
//! linear in the file's length.
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

use super::tree::{AttachError, Edge, NodeId, Tree};
use crate::{board::position::Color, notation::obf};
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

/// The first line of every session file, before the version number.
pub const MAGIC: &str = "othello-explorer session";

/// The format version this build writes (and the newest it reads): version 3 may be appended to
/// (a journal of changes after the `current` line); versions 1 and 2 are still read.
pub const VERSION: u32 = 3;

/// A session: the tree, and the game on when it was written.
#[derive(Clone, Debug)]
pub struct Session {
    /// The explored tree.
    pub tree: Tree,
    /// The game on: `Some(Some(c))` the user plays `c`, `Some(None)` the engine plays both.
    pub play: Option<Option<Color>>,
    /// The number of a last line left out because it was cut (no newline: a crash mid-append),
    /// for the reader to say so.
    pub cut: Option<usize>,
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
pub(crate) fn is_session(text: &str) -> bool {
    meaningful(text).next().is_some_and(|(_, l)| l.starts_with(MAGIC))
}

/// The session text of `tree`, no game on.
pub fn to_text(tree: &Tree) -> String {
    to_text_with(tree, None)
}

/// The session text of `tree` with the game on (see [`Session::play`]). Nodes are numbered in
/// the order they were added (a parent always before its children), so a journal appended later
/// ([`journal`]) numbers new nodes on from the last. The text holds every preference: whoever
/// writes it whole takes the tree's recorded changes ([`Tree::take_preference_changes`]).
pub(crate) fn to_text_with(tree: &Tree, play: Option<Option<Color>>) -> String {
    let mut out = String::with_capacity(64 + tree.len() * 12);
    out.push_str("; othello-explorer session: the explored tree. One node per line after the root:\n");
    out.push_str("; its number, its parent's number, the move (or pass), and * if its parent prefers it.\n");
    out.push_str(&format!("{MAGIC} {VERSION}\n"));
    out.push_str(&format!("root {}\n", tree.position_of(tree.root())));
    for k in 1..tree.len() {
        let id = tree.node(k).expect("a node of the tree");
        node_line(&mut out, tree, id);
    }
    out.push_str(&format!("current {}\n", tree.number(tree.current())));
    match play {
        Some(Some(c)) => out.push_str(&format!("play {c}\n")),
        Some(None) => out.push_str("play both\n"),
        None => {}
    }
    out
}

/// `K P E [*]`: node `id`, its parent, the edge, and whether its parent prefers it.
fn node_line(out: &mut String, tree: &Tree, id: NodeId) {
    use std::fmt::Write as _;
    let parent = tree.parent(id).expect("a non-root node has a parent");
    let edge = tree.edge(id).expect("a non-root node has an edge");
    let mark = if tree.is_preferred(id) { " *" } else { "" };
    let _ = writeln!(out, "{} {} {edge}{mark}", tree.number(id), tree.number(parent));
}

/// What changed in `tree` since a text of its first `written` nodes: the lines to append to
/// that session file (the nodes added since, each `prefer K` that changed, and `current K`), or
/// `None` when the tree changed too much to say it in a journal (write it whole). The journal is
/// a few dozen bytes a move, whatever the size of the tree.
pub fn journal(tree: &mut Tree, written: usize) -> Option<String> {
    use std::fmt::Write as _;
    let changed = tree.take_preference_changes()?;
    let mut out = String::new();
    for k in written..tree.len() {
        let id = tree.node(k).expect("a node of the tree");
        node_line(&mut out, tree, id);
    }
    for parent in changed {
        if let Some(child) = tree.preferred_child(parent).filter(|c| tree.number(*c) < written) {
            let _ = writeln!(out, "prefer {}", tree.number(child));
        }
    }
    let _ = writeln!(out, "current {}", tree.number(tree.current()));
    Some(out)
}

fn meaningful(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with(';'))
}

/// Reads a session text into a tree (see the module documentation for the format).
pub fn parse(text: &str) -> Result<Tree, SessionError> {
    parse_full(text).map(|s| s.tree)
}

/// Reads a session text: the tree as [`parse`] does, and the game that was on.
pub fn parse_full(text: &str) -> Result<Session, SessionError> {
    parse_with_progress(text, &mut |_, _| {})
}

/// [`parse_full`], telling `progress` (bytes read, bytes in all) every few thousand lines: a
/// session of millions of nodes is read in seconds, linearly, and the launcher shows how far.
pub fn parse_with_progress(text: &str, progress: &mut dyn FnMut(usize, usize)) -> Result<Session, SessionError> {
    let total = text.len();
    let mut lines = meaningful(text).peekable();
    let (line, header) = lines.next().ok_or(SessionError::Empty)?;
    let version = header.strip_prefix(MAGIC).ok_or(SessionError::NotASession { line })?.trim();
    let version: u32 = version.parse().map_err(|_| SessionError::BadVersion { line })?;
    if version > VERSION {
        return Err(SessionError::NewerVersion { found: version });
    }
    // Version 3 is appended to: a last line without its newline was cut by a crash mid-append
    // (the writer ends every line), and is left out; its number is kept to say so.
    let (text, cut) = match text.rfind('\n') {
        Some(end) if version >= 3 && end + 1 < text.len() => {
            let kept = &text[..end + 1];
            let blank = text[end + 1..].trim().is_empty();
            (kept, (!blank).then(|| kept.matches('\n').count() + 1))
        }
        None if version >= 3 => ("", Some(1)),
        _ => (text, None),
    };
    let mut lines = meaningful(text).skip(1).peekable();
    let (line, root_line) = lines.next().ok_or(SessionError::MissingRoot { line: line + 1 })?;
    let board = root_line.strip_prefix("root ").ok_or(SessionError::MissingRoot { line })?;
    let root = obf::parse_board(board).map_err(|error| SessionError::BadRoot { line, error })?;
    let mut tree = Tree::new(root);
    // Which nodes have a child marked preferred (a second mark is an error before version 3).
    let mut marked: Vec<bool> = vec![false];
    let mut current = None;
    let mut play = None;
    let mut last = line;
    let mut count = 0usize;
    while let Some((line, text)) = lines.next() {
        last = line;
        count += 1;
        if count.is_multiple_of(65_536) {
            let done = text.as_ptr() as usize - root_line.as_ptr() as usize;
            progress(done.min(total), total);
        }
        if let Some(rest) = text.strip_prefix("current") {
            let number = rest.trim().parse::<usize>().map_err(|_| SessionError::BadCurrent { line })?;
            let id =
                tree.node(number).ok_or_else(|| SessionError::BadNode { line, reason: format!("no node {number}") })?;
            current = Some(id);
            if version < 3 {
                // Only a `play` line may follow, in version 2.
                if let Some((line, text)) = lines.next() {
                    let side = text.strip_prefix("play ").map(|s| s.trim().to_ascii_lowercase());
                    play = match side.as_deref() {
                        _ if version < 2 => return Err(SessionError::Trailing { line }),
                        Some(side) => Some(parse_play(side).ok_or(SessionError::BadPlay { line })?),
                        None => return Err(SessionError::Trailing { line }),
                    };
                }
                if let Some((line, _)) = lines.next() {
                    return Err(SessionError::Trailing { line });
                }
                break;
            }
            continue;
        }
        if version >= 3 {
            if let Some(side) = text.strip_prefix("play ") {
                play = Some(parse_play(&side.trim().to_ascii_lowercase()).ok_or(SessionError::BadPlay { line })?);
                continue;
            }
            if let Some(rest) = text.strip_prefix("prefer ") {
                let bad = |reason: String| SessionError::BadNode { line, reason };
                let number = rest.trim().parse::<usize>().map_err(|_| bad(format!("'{rest}' is not a node number")))?;
                let id = tree.node(number).ok_or_else(|| bad(format!("prefer: no node {number}")))?;
                if !tree.prefer(id) {
                    return Err(bad("prefer: the root has no parent to prefer it".into()));
                }
                continue;
            }
        }
        if current.is_some() && version < 3 {
            return Err(SessionError::Trailing { line });
        }
        let bad = |reason: String| SessionError::BadNode { line, reason };
        let mut words = text.split_whitespace();
        let (k, p, e, star) = match (words.next(), words.next(), words.next(), words.next(), words.next()) {
            (Some(k), Some(p), Some(e), None, None) => (k, p, e, false),
            (Some(k), Some(p), Some(e), Some("*"), None) => (k, p, e, true),
            _ => return Err(bad(format!("expected 'number parent move [*]', found '{text}'"))),
        };
        let k: usize = k.parse().map_err(|_| bad(format!("'{k}' is not a node number")))?;
        if k != tree.len() {
            return Err(bad(format!("node {k} out of order: expected node {}", tree.len())));
        }
        let p: usize = p.parse().map_err(|_| bad(format!("'{p}' is not a node number")))?;
        let Some(parent) = tree.node(p) else {
            return Err(bad(format!("node {k}: its parent {p} comes later or does not exist")));
        };
        let edge = if e.eq_ignore_ascii_case("pass") {
            Edge::Pass
        } else {
            Edge::Move(e.parse().map_err(|err| bad(format!("node {k}: '{e}': {err}")))?)
        };
        let id = tree.attach(parent, edge).map_err(|err| match err {
            AttachError::Duplicate => bad(format!("node {k}: node {p} already has a child by {edge}")),
            AttachError::Play(err) => bad(format!("node {k}: {edge} from node {p}: {err}")),
            AttachError::NoNode => bad(format!("node {k}: no node {p}")),
        })?;
        marked.push(false);
        if star {
            if marked[p] && version < 3 {
                return Err(bad(format!("node {k}: node {p} already has a preferred child")));
            }
            marked[p] = true;
            tree.prefer(id);
        }
    }
    let current = current.ok_or(SessionError::BadCurrent { line: last + 1 })?;
    tree.set_current(current);
    // What the reading recorded is in the file already.
    let _ = tree.take_preference_changes();
    progress(total, total);
    Ok(Session { tree, play, cut })
}

/// `black`, `white` or `both`.
fn parse_play(side: &str) -> Option<Option<Color>> {
    match side {
        "black" => Some(Some(Color::Black)),
        "white" => Some(Some(Color::White)),
        "both" => Some(None),
        _ => None,
    }
}

/// Appends `text` (a [`journal`]) to the session file `path`, which must exist and be a regular
/// file (or a link to one), and flushes it to disk. A crash mid-append can cut only the last line,
/// which the reader leaves out.
pub fn append(path: &Path, text: &str) -> io::Result<()> {
    let target = crate::notation::writefile::target(path).map_err(|e| io::Error::other(e.to_string()))?;
    let mut file = std::fs::OpenOptions::new().append(true).open(target)?;
    file.write_all(text.as_bytes())?;
    file.sync_data()
}

/// Writes `text` to `path` atomically: a temporary file in the same directory, flushed to disk,
/// then renamed over `path` (and the directory flushed), so a crash leaves the old file or the
/// new one. Creates the directory if needed.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    // Never over a device, a FIFO or a folder; through a symbolic link to its file.
    let path = &crate::notation::writefile::target(path).map_err(|e| io::Error::other(e.to_string()))?;
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
    use crate::{board::position::Position, board::size::Size};

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
            (format!("{MAGIC} 9\n"), "format version 9, newer than this program reads (3)"),
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
            (format!("{MAGIC} 3\nroot {root}\ncurrent 0\nprefer 4\n"), "line 4: prefer: no node 4"),
            (format!("{MAGIC} 3\nroot {root}\ncurrent 0\nprefer 0\n"), "line 4: prefer: the root"),
            (format!("{MAGIC} 3\nroot {root}\ncurrent 0\nplay red\n"), "line 4: expected 'play black'"),
            (format!("{MAGIC} 3\nroot {root}\n1 0 b1\n"), "line 4: expected 'current'"),
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
    fn a_game_on_is_kept_and_older_versions_are_read() {
        let mut tree = Tree::new(Position::start(Size::Four));
        tree.play(Edge::Move("b1".parse().unwrap())).unwrap();
        assert!(to_text(&tree).contains(&format!("{MAGIC} 3\n")));
        for play in [Some(Color::Black), Some(Color::White), None] {
            let text = to_text_with(&tree, Some(play));
            let back = parse_full(&text).unwrap();
            assert_eq!(back.play, Some(play));
            assert_eq!(back.tree.transcript(), "b1");
        }
        assert_eq!(parse_full(&to_text(&tree)).unwrap().play, None);
        // What versions 1 and 2 wrote.
        let root = Position::start(Size::Four);
        let v1 = format!("{MAGIC} 1\nroot {root}\n1 0 b1 *\n2 0 c4\ncurrent 1\n");
        assert_eq!(parse(&v1).unwrap().transcript(), "b1");
        let v2 = format!("{MAGIC} 2\nroot {root}\n1 0 b1\n2 0 c4 *\ncurrent 0\nplay white\n");
        let back = parse_full(&v2).unwrap();
        assert_eq!(back.play, Some(Some(Color::White)));
        let mut walk = back.tree;
        walk.to_end();
        assert_eq!(walk.transcript(), "c4");
    }

    /// The whole text and the journals appended after it read back as the live tree: the same
    /// nodes, preferences and current node; a last line cut by a crash is left out.
    #[test]
    fn journals_appended_read_back_as_the_live_tree() {
        let mut tree = Tree::new(Position::start(Size::Six));
        tree.play(sq("c2")).unwrap();
        let mut file = to_text(&tree);
        let _ = tree.take_preference_changes();
        let mut written = tree.len();
        let steps: [&dyn Fn(&mut Tree); 5] = [
            &|t| {
                t.play(sq("b2")).unwrap();
                t.play(sq("a2")).unwrap();
            },
            &|t| {
                t.back();
                t.back();
                t.play(sq("d2")).unwrap();
            },
            &|t| {
                t.to_start();
            },
            &|t| {
                let b2 = t.node(2).unwrap();
                t.goto(b2);
                t.to_start();
            },
            &|t| {
                t.switch_branch(1);
            },
        ];
        for step in steps {
            step(&mut tree);
            file.push_str(&journal(&mut tree, written).unwrap());
            written = tree.len();
            let back = parse(&file).unwrap();
            assert_eq!(to_text(&back), to_text(&tree), "{file}");
            assert_eq!(back.current(), tree.current());
            let (mut a, mut b) = (back.clone(), tree.clone());
            a.to_end();
            b.to_end();
            assert_eq!(a.transcript(), b.transcript());
        }
        // A crash mid-append: the cut line is left out, the rest stands.
        let before = parse(&file).unwrap();
        let torn = format!("{file}7 1 b2");
        assert_eq!(to_text(&parse(&torn).unwrap()), to_text(&before));
        // ... and its number is given, for the reader to say so; a whole file has none.
        assert_eq!(parse_full(&torn).unwrap().cut, Some(file.lines().count() + 1));
        assert_eq!(parse_full(&file).unwrap().cut, None);
    }
}
