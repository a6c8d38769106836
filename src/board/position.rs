//! [`Position`]: a legal arrangement of discs and the side to move, with the rules as methods.

use crate::board::rules;
use crate::{board::bitboard::Bitboard, board::size::Size, board::square::Square, with_size};
use std::fmt;

/// A side: black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other side.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `"black"` or `"white"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The letter of board strings: `X` for black, `O` for white.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scoring {
    /// The official rule: the empty squares go to the winner.
    #[default]
    Standard,
    /// The plain disc difference, empty squares not counted (the 4x4 article's figures).
    Discs,
}

impl Scoring {
    /// `"standard"` or `"discs"`.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Discs => "discs",
        }
    }
}

/// Why a set of discs is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds both a black and a white disc.
    Overlap(Square),
    /// A disc lies outside the board.
    OffBoard,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(sq) => write!(f, "square {sq} holds both a black and a white disc"),
            PositionError::OffBoard => write!(f, "a disc lies outside the board"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The square is not on this board.
    OffBoard { square: Square, size: Size },
    /// The square already holds a disc.
    Occupied(Square),
    /// The move would flip no disc.
    NoFlips(Square),
    /// The side to move has no legal move and must pass.
    MustPass(Square),
    /// Neither side can move.
    GameOver(Square),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard { square, size } => write!(f, "{square} is off the {size} board"),
            IllegalMove::Occupied(sq) => write!(f, "{sq} is already occupied"),
            IllegalMove::NoFlips(sq) => write!(f, "{sq} flips no disc"),
            IllegalMove::MustPass(sq) => write!(f, "{sq}: the side to move has no move and must pass"),
            IllegalMove::GameOver(sq) => write!(f, "{sq}: the game is over"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A position: the discs of the side to move and of its opponent, which side that is, and the
/// board size. Every `Position` is well formed (no square holds two discs, no disc lies off the
/// board); one built from a board string may still be one no game reaches.
///
/// ```
/// use othello_explorer::{Color, Position, Size, Square};
/// let start = Position::start(Size::Four);
/// assert_eq!(start.black().bits(), 0x0240);
/// assert_eq!(start.white().bits(), 0x0420);
/// assert_eq!(start.to_move(), Color::Black);
/// let d3: Square = "d3".parse().unwrap();
/// assert_eq!(start.flips(d3).to_string(), "0x0020");
/// let next = start.play(d3).unwrap();
/// assert_eq!(next.to_move(), Color::White);
/// assert_eq!(next.black().bits(), 0x0270);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    size: Size,
    player: u64,
    opponent: u64,
    to_move: Color,
}

impl Position {
    /// The start position of `size`: white on the top-left and bottom-right centre squares,
    /// black on the other two, black to move.
    pub fn start(size: Size) -> Position {
        let n = size.n();
        let (lo, hi) = (n / 2 - 1, n / 2);
        let b = |c, r| 1u64 << crate::board::geometry::bit(n, c, r);
        let white = b(lo, lo) | b(hi, hi);
        let black = b(hi, lo) | b(lo, hi);
        Position { size, player: black, opponent: white, to_move: Color::Black }
    }

    /// The position with `black` and `white` discs and `to_move` to play.
    pub fn new(size: Size, black: u64, white: u64, to_move: Color) -> Result<Position, PositionError> {
        if (black | white) & !size.full() != 0 {
            return Err(PositionError::OffBoard);
        }
        if let Some(sq) = Bitboard::new(size, black & white).reading_order().first() {
            return Err(PositionError::Overlap(*sq));
        }
        let (player, opponent) = match to_move {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Ok(Position { size, player, opponent, to_move })
    }

    /// The position from the side to move's discs `player` and the other side's `opponent`.
    pub fn from_player(size: Size, player: u64, opponent: u64, to_move: Color) -> Result<Position, PositionError> {
        match to_move {
            Color::Black => Position::new(size, player, opponent, to_move),
            Color::White => Position::new(size, opponent, player, to_move),
        }
    }

    /// The board size.
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The side to move.
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// The discs of the side to move.
    pub const fn player(&self) -> Bitboard {
        Bitboard::new(self.size, self.player)
    }

    /// The discs of the side not to move.
    pub const fn opponent(&self) -> Bitboard {
        Bitboard::new(self.size, self.opponent)
    }

    /// The discs of `color`.
    pub const fn discs(&self, color: Color) -> Bitboard {
        if matches!((color, self.to_move), (Color::Black, Color::Black) | (Color::White, Color::White)) {
            self.player()
        } else {
            self.opponent()
        }
    }

    /// Black's discs.
    pub const fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    /// White's discs.
    pub const fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    /// The empty squares.
    pub const fn empty(&self) -> Bitboard {
        Bitboard::new(self.size, !(self.player | self.opponent))
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> Bitboard {
        let (p, o) = (self.player, self.opponent);
        Bitboard::new(self.size, with_size!(self.size, N => rules::legal_moves::<N>(p, o)))
    }

    /// The discs a move on `square` would flip: empty if the move is not legal.
    pub fn flips(&self, square: Square) -> Bitboard {
        if !square.is_on(self.size) || (self.player | self.opponent) & square.mask(self.size) != 0 {
            return Bitboard::empty(self.size);
        }
        let (p, o, sq) = (self.player, self.opponent, square.bit(self.size));
        Bitboard::new(self.size, with_size!(self.size, N => rules::flips::<N>(p, o, sq)))
    }

    /// Whether the side to move has no legal move but the other side has: it must pass.
    pub fn must_pass(&self) -> bool {
        self.legal_moves().is_empty() && !self.pass().legal_moves().is_empty()
    }

    /// Whether neither side can move (a full board included).
    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && self.pass().legal_moves().is_empty()
    }

    /// The same discs with the other side to move. The rules allow it only when the side to move
    /// has no legal move ([`Position::must_pass`]); this method does not check.
    pub const fn pass(&self) -> Position {
        Position { size: self.size, player: self.opponent, opponent: self.player, to_move: self.to_move.opponent() }
    }

    /// Plays `square` for the side to move: `player ^= flips | square; opponent ^= flips`, then the
    /// sides swap.
    pub fn play(&self, square: Square) -> Result<Position, IllegalMove> {
        if !square.is_on(self.size) {
            return Err(IllegalMove::OffBoard { square, size: self.size });
        }
        if !self.empty().contains(square) {
            return Err(IllegalMove::Occupied(square));
        }
        let flips = self.flips(square);
        if flips.is_empty() {
            if self.is_game_over() {
                return Err(IllegalMove::GameOver(square));
            }
            if self.legal_moves().is_empty() {
                return Err(IllegalMove::MustPass(square));
            }
            return Err(IllegalMove::NoFlips(square));
        }
        Ok(self.play_flips(square.mask(self.size), flips.bits()))
    }

    /// Applies a move given as its square bit and flip mask, unchecked: the XOR update.
    #[inline]
    pub const fn play_flips(&self, square: u64, flips: u64) -> Position {
        Position {
            size: self.size,
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ square,
            to_move: self.to_move.opponent(),
        }
    }

    /// Discs of the side to move minus the other side's, empty squares not counted.
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The number of empty squares.
    pub const fn empty_count(&self) -> u32 {
        self.empty().count()
    }

    /// The score of the game as it stands, from the side to move: the disc difference, and under
    /// [`Scoring::Standard`] the empty squares added to the side ahead. It is the final score when
    /// the game is over.
    ///
    /// ```
    /// use othello_explorer::{Color, Position, Scoring, Size};
    /// // 4x4: black 9 discs, white 3, 4 empty, nobody can move.
    /// let p = Position::new(Size::Four, 0xff10, 0x000e, Color::White).unwrap();
    /// assert_eq!(p.score(Scoring::Standard), -10);
    /// assert_eq!(p.score(Scoring::Discs), -6);
    /// ```
    pub fn score(&self, scoring: Scoring) -> i32 {
        let (p, o) = (self.player, self.opponent);
        match scoring {
            Scoring::Discs => self.disc_difference(),
            Scoring::Standard => with_size!(self.size, N => rules::final_score::<N>(p, o)),
        }
    }

    /// The score from black's side.
    pub fn black_score(&self, scoring: Scoring) -> i32 {
        match self.to_move {
            Color::Black => self.score(scoring),
            Color::White => -self.score(scoring),
        }
    }

    /// The raw bits of the side to move and of the opponent: what the search works on.
    pub const fn raw(&self) -> (u64, u64) {
        (self.player, self.opponent)
    }

    /// The position after the side to move passes, if it must; else itself. What `show` and
    /// `solve` display when handed a position whose side to move has no move.
    pub fn after_forced_pass(&self) -> (Position, bool) {
        if self.must_pass() { (self.pass(), true) } else { (*self, false) }
    }

    /// A diagram: column letters, row numbers, `X` black, `O` white, `*` legal move, `.` empty.
    pub fn diagram(&self) -> String {
        let n = self.size.n();
        let legal = self.legal_moves();
        let mut s = String::from("  ");
        for c in 0..n {
            s.push(' ');
            s.push((b'a' + c as u8) as char);
        }
        s.push('\n');
        for r in 0..n {
            s.push_str(&format!("{:>2}", r + 1));
            for c in 0..n {
                let sq = Square::new(c, r).expect("on board");
                let ch = if self.black().contains(sq) {
                    'X'
                } else if self.white().contains(sq) {
                    'O'
                } else if legal.contains(sq) {
                    '*'
                } else {
                    '.'
                };
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Display for Position {
    /// The board string: `N*N` characters `X`/`O`/`-` from `a1`, a space, the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(self.size.squares() + 2);
        for sq in Square::all(self.size) {
            s.push(if self.black().contains(sq) {
                'X'
            } else if self.white().contains(sq) {
                'O'
            } else {
                '-'
            });
        }
        s.push(' ');
        s.push(self.to_move().letter());
        f.write_str(&s)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
