//! The game tree the explorer walks: every position visited stays, so playing a different move at
//! an earlier node makes a branch and the old line stays reachable.
//!
//! Passes are explicit edges: a position whose side to move has no move has exactly one child, by
//! [`Edge::Pass`]. Each node remembers which child was visited last (its *preferred* child): that is
//! the line `forward` and `to_end` follow and the history view shows.

use crate::notation::transcript::{self, TranscriptError};
use crate::{
    board::position::{IllegalMove, Position},
    board::square::Square,
};
use std::fmt;

/// A node of a [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(usize);

/// How a node was reached from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    /// A disc played on a square.
    Move(Square),
    /// The side to move had no move and passed.
    Pass,
}

impl Edge {
    /// The square of a move; `None` for a pass.
    pub fn square(self) -> Option<Square> {
        match self {
            Edge::Move(sq) => Some(sq),
            Edge::Pass => None,
        }
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Edge::Move(sq) => write!(f, "{sq}"),
            Edge::Pass => f.write_str("pass"),
        }
    }
}

#[derive(Clone, Debug)]
struct Node {
    position: Position,
    parent: Option<NodeId>,
    edge: Option<Edge>,
    children: Vec<NodeId>,
    preferred: usize,
}

/// The explored game tree with a current node.
///
/// ```
/// use othello_explorer::tui::testing::tree::{Edge, Tree};
/// use othello_explorer::{Position, Size};
/// let mut tree = Tree::new(Position::start(Size::Eight));
/// tree.play(Edge::Move("f5".parse().unwrap())).unwrap();
/// tree.play(Edge::Move("d6".parse().unwrap())).unwrap();
/// tree.back();
/// tree.play(Edge::Move("f6".parse().unwrap())).unwrap(); // a branch: d6 stays reachable
/// assert_eq!(tree.siblings(tree.current()).len(), 2);
/// assert_eq!(tree.transcript(), "f5f6");
/// ```
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    current: NodeId,
    revision: u64,
    /// The nodes whose preferred child changed since [`Tree::take_preference_changes`] last
    /// took them (a session journal writes them), or `None` once more changed than it keeps.
    changed: Option<Vec<NodeId>>,
    /// The players of the game the tree was loaded from (black's, white's), if the file named
    /// them: `:export` writes them back. Not part of a session.
    pub players: (Option<String>, Option<String>),
}

/// How many preference changes a tree remembers between two takes; beyond, the next take says
/// "too many" and the session is written whole.
const CHANGES_KEPT: usize = 1 << 16;

/// Why an edge cannot be played at the current node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move is illegal here.
    Illegal(IllegalMove),
    /// A pass was asked for but the side to move has a move (or the game is over).
    NoPass,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal(e) => write!(f, "{e}"),
            PlayError::NoPass => f.write_str("no pass here: the side to move has a move or the game is over"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Why [`Tree::attach`] refused a child.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttachError {
    /// No such parent node.
    NoNode,
    /// The edge cannot be played there.
    Play(PlayError),
    /// The parent already has a child by that edge.
    Duplicate,
}

impl Tree {
    /// A tree of one node, `root`, which is current.
    pub fn new(root: Position) -> Tree {
        Tree {
            nodes: vec![Node { position: root, parent: None, edge: None, children: Vec::new(), preferred: 0 }],
            current: NodeId(0),
            revision: 0,
            changed: Some(Vec::new()),
            players: (None, None),
        }
    }

    /// Records that `id`'s preferred child changed.
    fn preference_changed(&mut self, id: NodeId) {
        if let Some(changed) = &mut self.changed {
            if changed.len() >= CHANGES_KEPT {
                self.changed = None;
            } else {
                changed.push(id);
            }
        }
    }

    /// The nodes whose preferred child changed since the last take, each once, oldest first; `None`
    /// when too many changed to remember. The record starts afresh either way.
    pub fn take_preference_changes(&mut self) -> Option<Vec<NodeId>> {
        let taken = self.changed.replace(Vec::new())?;
        let mut seen = std::collections::HashSet::with_capacity(taken.len());
        Some(taken.into_iter().filter(|id| seen.insert(*id)).collect())
    }

    /// Adds a child of `parent` by `edge` without moving the current node or changing any
    /// preference (a new child is not preferred unless it is the first): the session reader
    /// builds the tree this way. An error if the edge is not playable there or `parent` already
    /// has a child by it.
    pub fn attach(&mut self, parent: NodeId, edge: Edge) -> Result<NodeId, AttachError> {
        let here = self.nodes.get(parent.0).ok_or(AttachError::NoNode)?.position;
        let next = match edge {
            Edge::Move(sq) => here.play(sq).map_err(|e| AttachError::Play(PlayError::Illegal(e)))?,
            Edge::Pass if here.must_pass() => here.pass(),
            Edge::Pass => return Err(AttachError::Play(PlayError::NoPass)),
        };
        if self.nodes[parent.0].children.iter().any(|&c| self.nodes[c.0].edge == Some(edge)) {
            return Err(AttachError::Duplicate);
        }
        let id = NodeId(self.nodes.len());
        self.nodes.push(Node {
            position: next,
            parent: Some(parent),
            edge: Some(edge),
            children: Vec::new(),
            preferred: 0,
        });
        self.nodes[parent.0].children.push(id);
        self.revision += 1;
        Ok(id)
    }

    /// Makes `id` current without changing any preference (a session's `current` line). False
    /// when there is no such node.
    pub(crate) fn set_current(&mut self, id: NodeId) -> bool {
        if id.0 >= self.nodes.len() {
            return false;
        }
        self.current = id;
        self.revision += 1;
        true
    }

    /// The node numbered `n` (node ids count from 0, the root, in the order nodes were added).
    pub fn node(&self, n: usize) -> Option<NodeId> {
        (n < self.nodes.len()).then_some(NodeId(n))
    }

    /// A number that changes whenever the tree or the current node does (a new branch, a step,
    /// a new preferred line): the explorer writes its session file when it moves.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The child `id` becomes its parent's preferred child (the line `forward` follows); the
    /// current node stays. False for the root.
    pub fn prefer(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.nodes.get(id.0).and_then(|n| n.parent) else { return false };
        let i = self.nodes[parent.0].children.iter().position(|&c| c == id).unwrap_or(0);
        if self.nodes[parent.0].preferred != i {
            self.nodes[parent.0].preferred = i;
            self.preference_changed(parent);
        }
        self.revision += 1;
        true
    }

    /// The preferred child of `id` (the line `forward` follows), if it has children.
    pub(crate) fn preferred_child(&self, id: NodeId) -> Option<NodeId> {
        let node = self.nodes.get(id.0)?;
        node.children.get(node.preferred).copied()
    }

    /// The node's number: its place in the order nodes were added (the root is 0).
    pub fn number(&self, id: NodeId) -> usize {
        id.0
    }

    /// Whether `id` is its parent's preferred child (false for the root).
    pub(crate) fn is_preferred(&self, id: NodeId) -> bool {
        match self.parent(id) {
            Some(p) => self.nodes[p.0].children.get(self.nodes[p.0].preferred) == Some(&id),
            None => false,
        }
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The current node.
    pub fn current(&self) -> NodeId {
        self.current
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.nodes[self.current.0].position
    }

    /// The position at `id`.
    pub fn position_of(&self, id: NodeId) -> Position {
        self.nodes[id.0].position
    }

    /// How `id` was reached (`None` for the root).
    pub fn edge(&self, id: NodeId) -> Option<Edge> {
        self.nodes[id.0].edge
    }

    /// The parent of `id` (`None` for the root).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id.0].parent
    }

    /// The explored children of `id`, in the order they were first played.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id.0].children
    }

    /// The nodes sharing `id`'s parent, `id` included (just `id` for the root).
    pub fn siblings(&self, id: NodeId) -> Vec<NodeId> {
        match self.parent(id) {
            Some(p) => self.children(p).to_vec(),
            None => vec![id],
        }
    }

    /// Plies from the root to `id`.
    pub fn depth(&self, id: NodeId) -> usize {
        let mut d = 0;
        let mut n = id;
        while let Some(p) = self.parent(n) {
            d += 1;
            n = p;
        }
        d
    }

    /// How many nodes the tree holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Plays `edge` at the current node, reusing the child if it was explored before, and makes
    /// the child current. Nothing changes on error.
    pub fn play(&mut self, edge: Edge) -> Result<NodeId, PlayError> {
        let here = self.position();
        let next = match edge {
            Edge::Move(sq) => here.play(sq).map_err(PlayError::Illegal)?,
            Edge::Pass if here.must_pass() => here.pass(),
            Edge::Pass => return Err(PlayError::NoPass),
        };
        let cur = self.current;
        if let Some(i) = self.nodes[cur.0].children.iter().position(|&c| self.nodes[c.0].edge == Some(edge)) {
            if self.nodes[cur.0].preferred != i {
                self.nodes[cur.0].preferred = i;
                self.preference_changed(cur);
            }
            self.current = self.nodes[cur.0].children[i];
            self.revision += 1;
            return Ok(self.current);
        }
        let id = NodeId(self.nodes.len());
        self.nodes.push(Node {
            position: next,
            parent: Some(cur),
            edge: Some(edge),
            children: Vec::new(),
            preferred: 0,
        });
        self.nodes[cur.0].children.push(id);
        let i = self.nodes[cur.0].children.len() - 1;
        if self.nodes[cur.0].preferred != i {
            self.nodes[cur.0].preferred = i;
            self.preference_changed(cur);
        }
        self.current = id;
        self.revision += 1;
        Ok(id)
    }

    /// Plays a transcript from the root (passes implicit), keeping every existing branch, and
    /// makes its last position current. Nothing changes on error.
    pub fn play_transcript(&mut self, text: &str) -> Result<(), TranscriptError> {
        self.play_transcript_from(self.root(), text)
    }

    /// [`Tree::play_transcript`] from the node `from` instead of the root.
    pub(crate) fn play_transcript_from(&mut self, from: NodeId, text: &str) -> Result<(), TranscriptError> {
        let line = transcript::play(&self.position_of(from), text)?;
        self.play_moves_from(from, &line.moves).expect("a transcript that played is legal");
        Ok(())
    }

    /// Plays legal `moves` from the root, inserting the passes the transcript leaves implicit.
    pub(crate) fn play_moves_from_root(&mut self, moves: &[Square]) -> Result<(), PlayError> {
        self.play_moves_from(self.root(), moves)
    }

    /// Plays legal `moves` from the node `from`, inserting the passes the transcript leaves
    /// implicit; on an error the current node stays where it was.
    pub(crate) fn play_moves_from(&mut self, from: NodeId, moves: &[Square]) -> Result<(), PlayError> {
        let saved = self.current;
        self.current = from;
        for &sq in moves {
            if self.position().must_pass()
                && let Err(e) = self.play(Edge::Pass)
            {
                self.current = saved;
                self.revision += 1;
                return Err(e);
            }
            if let Err(e) = self.play(Edge::Move(sq)) {
                self.current = saved;
                self.revision += 1;
                return Err(e);
            }
        }
        Ok(())
    }

    /// Goes to the parent. False at the root.
    pub fn back(&mut self) -> bool {
        match self.parent(self.current) {
            Some(p) => {
                self.current = p;
                self.revision += 1;
                true
            }
            None => false,
        }
    }

    /// Goes to the preferred child (the one visited last). False at the end of the line.
    pub fn forward(&mut self) -> bool {
        let node = &self.nodes[self.current.0];
        match node.children.get(node.preferred) {
            Some(&c) => {
                self.current = c;
                self.revision += 1;
                true
            }
            None => false,
        }
    }

    /// Goes to the root. False if already there.
    pub fn to_start(&mut self) -> bool {
        let moved = self.current != self.root();
        self.current = self.root();
        self.revision += moved as u64;
        moved
    }

    /// Follows preferred children to the end of the current line. False if already there.
    pub fn to_end(&mut self) -> bool {
        let mut moved = false;
        while self.forward() {
            moved = true;
        }
        moved
    }

    /// Makes `id` current, and the line through it the preferred one.
    pub fn goto(&mut self, id: NodeId) -> bool {
        if id.0 >= self.nodes.len() {
            return false;
        }
        let mut n = id;
        while let Some(p) = self.parent(n) {
            let i = self.nodes[p.0].children.iter().position(|&c| c == n).unwrap_or(0);
            if self.nodes[p.0].preferred != i {
                self.nodes[p.0].preferred = i;
                self.preference_changed(p);
            }
            n = p;
        }
        let moved = self.current != id;
        self.current = id;
        self.revision += 1;
        moved
    }

    /// Switches to the next (`delta` 1) or previous (`delta` -1) branch at this point: the
    /// sibling of the current node, wrapping around. False if there is no other branch.
    pub(crate) fn switch_branch(&mut self, delta: isize) -> bool {
        let siblings = self.siblings(self.current);
        if siblings.len() < 2 {
            return false;
        }
        let i = siblings.iter().position(|&s| s == self.current).unwrap_or(0) as isize;
        let j = (i + delta).rem_euclid(siblings.len() as isize) as usize;
        self.goto(siblings[j])
    }

    /// The nodes from the root to the current node, both included.
    pub fn path(&self) -> Vec<NodeId> {
        let mut v = vec![self.current];
        let mut n = self.current;
        while let Some(p) = self.parent(n) {
            v.push(p);
            n = p;
        }
        v.reverse();
        v
    }

    /// The whole current line: the path to the current node, then its preferred continuation.
    pub fn line(&self) -> Vec<NodeId> {
        let mut v = self.path();
        let mut n = self.current;
        loop {
            let node = &self.nodes[n.0];
            match node.children.get(node.preferred) {
                Some(&c) => {
                    v.push(c);
                    n = c;
                }
                None => return v,
            }
        }
    }

    /// The moves from the root to the current node, passes left out.
    pub fn moves(&self) -> Vec<Square> {
        self.path()
            .into_iter()
            .filter_map(|id| match self.edge(id) {
                Some(Edge::Move(sq)) => Some(sq),
                _ => None,
            })
            .collect()
    }

    /// The transcript from the root to the current node: `f5d6c3`.
    pub fn transcript(&self) -> String {
        transcript::format(&self.moves())
    }
}
