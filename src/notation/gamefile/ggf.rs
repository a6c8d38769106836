//! GGF, the Generic Game Format of the Othello servers: one game is a record
//! `(;GM[Othello]PB[black]PW[white]TY[8]BO[8 <board> *]B[f5]W[d6//1.5]...;)` of two-letter
//! properties, each with a value in brackets. In a value a backslash escapes the next character
//! (`\]` is a bracket, `\\` a backslash), and nothing else is special: `(;` or `;)` inside a
//! value neither starts nor ends a game ([`records`] finds the games with a tokenizer that skips
//! values). The board of `BO` is the size, `N*N` characters from a1 (`*` black, `O` white, `-`
//! empty) and the side to move (`*` or `O`). A move is `B[f5]` or `W[d6]`, optionally followed
//! by `/value/time`; `PA` (or `pass`) is a pass. Properties this reader does not use are kept
//! out of the way, not refused. `RE[+12.00]` states black's result; a flag after it says how a
//! game that stops early was decided (`:r` resigned, `:t` on time, `:s` a score agreed); an
//! `RE` that does not read as a number (`RE[?]`) states nothing.
//!
//! [`write`] writes a record with each move's value where known, from the mover's side; in its
//! values `\`, `[`, `]` and `;` are escaped, so no value holds `(;` and even a reader that splits
//! games on it reads one game per record, and control and format characters are written as the
//! text `\u{1b}` ([`printable`](crate::notation::printable::printable)), so a record is one line of
//! plain text. A pass after the game's end (`B[PA]` on a full board) is read and changes nothing.

use super::{Format, Game, GameFileError, GameResult, How};
use crate::{
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
};

/// Reads game `index` (from 1) of a text holding GGF records.
pub fn read(text: &str, index: usize) -> Result<Game, GameFileError> {
    let starts = records(text);
    if starts.is_empty() {
        return Err(GameFileError::Empty);
    }
    let count = starts.len();
    let Some(&at) = starts.get(index.wrapping_sub(1)) else {
        return Err(GameFileError::NoSuchGame { index, count });
    };
    let mut game = Parser { text, pos: at + 2 }.record()?;
    game.index = (index, count);
    Ok(game)
}

/// Reads the records of `text` starting at `starts` (from [`records`]), the `k`-th as game `k`
/// of `starts.len()`: one tokenizing pass for a whole list.
pub(crate) fn read_each(text: &str, starts: &[usize]) -> impl Iterator<Item = Result<Game, GameFileError>> {
    let count = starts.len();
    starts.iter().enumerate().map(move |(k, &at)| {
        let mut game = Parser { text, pos: at + 2 }.record()?;
        game.index = (k + 1, count);
        Ok(game)
    })
}

/// The number of GGF records in `text`.
pub fn count(text: &str) -> usize {
    records(text).len()
}

/// Where each record's `(;` is: outside a record `(;` opens one; inside, `[` opens a value (a
/// backslash escaping the next character, `]` closing it) and `;)` closes the record. A record
/// left open runs to the end of the text (its parse names what is missing).
pub fn records(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // Outside a record.
        let Some(open) = text[i..].find("(;") else { break };
        starts.push(i + open);
        i += open + 2;
        // Inside it, up to its `;)`.
        while i < bytes.len() {
            match bytes[i] {
                b'[' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b']' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b';' if bytes.get(i + 1) == Some(&b')') => {
                    i += 2;
                    break;
                }
                _ => i += 1,
            }
        }
    }
    starts
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    /// Line and column (characters, from 1) of a byte offset.
    fn place(&self, at: usize) -> (usize, usize) {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }

    fn syntax(&self, at: usize, expected: impl Into<String>) -> GameFileError {
        let (line, column) = self.place(at);
        GameFileError::Syntax { format: Format::Ggf, line, column, expected: expected.into() }
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.text[self.pos..].chars().next().filter(|c| c.is_whitespace()) {
            self.pos += c.len_utf8();
        }
    }

    fn record(&mut self) -> Result<Game, GameFileError> {
        let mut start: Option<Position> = None;
        let mut size: Option<Size> = None;
        let mut black = None;
        let mut white = None;
        let mut stated = None;
        // The moves with where they were written; a pass is None.
        let mut moves: Vec<(Option<Square>, Color, usize)> = Vec::new();
        loop {
            self.skip_space();
            let rest = &self.text[self.pos..];
            if rest.starts_with(";)") {
                self.pos += 2;
                break;
            }
            if rest.is_empty() {
                return Err(self.syntax(self.pos, "';)' to end the game record, found the end of the file"));
            }
            let name_at = self.pos;
            let name: String = rest.chars().take_while(|c| c.is_ascii_uppercase()).collect();
            if name.is_empty() {
                let found: String = rest.chars().take(8).collect();
                return Err(self.syntax(name_at, format!("a property like PB[name] or ';)', found '{found}'")));
            }
            self.pos += name.len();
            if !self.text[self.pos..].starts_with('[') {
                return Err(self.syntax(self.pos, format!("'[' after the property {name}")));
            }
            let value_at = self.pos + 1;
            let value = self.value()?;
            match name.as_str() {
                "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                    return Err(self.syntax(
                        value_at,
                        format!("GM[Othello], found GM[{}]", crate::notation::printable::excerpt(&value)),
                    ));
                }
                "PB" => black = Some(value),
                "PW" => white = Some(value),
                "RE" => stated = result(&value),
                "TY" => {
                    let n: String = value.trim().chars().take_while(|c| c.is_ascii_digit()).collect();
                    size = Some(n.parse().ok().and_then(Size::from_n).ok_or_else(|| {
                        self.syntax(value_at, format!("a board type of 4, 6 or 8 in TY, found TY[{value}]"))
                    })?);
                }
                "BO" => start = Some(self.board(&value, value_at)?),
                "B" | "W" => {
                    let color = if name == "B" { Color::Black } else { Color::White };
                    let word = value.split('/').next().unwrap_or("").trim();
                    let square = if word.eq_ignore_ascii_case("pa") || word.eq_ignore_ascii_case("pass") {
                        None
                    } else {
                        Some(word.parse::<Square>().map_err(|_| {
                            self.syntax(value_at, format!("a move like f5 or PA in {name}[...], found '{word}'"))
                        })?)
                    };
                    moves.push((square, color, value_at));
                }
                _ => {}
            }
        }
        let start = match (start, size) {
            (Some(p), Some(s)) if p.size() != s => {
                return Err(
                    self.syntax(self.pos, format!("a board of the size TY names ({s}), found a {} board", p.size()))
                );
            }
            (Some(p), _) => p,
            (None, s) => Position::start(s.unwrap_or(Size::Eight)),
        };
        // Play, checking each move is the side's to move.
        let mut p = start;
        let mut out = Vec::new();
        for (k, &(square, color, at)) in moves.iter().enumerate() {
            // The place is found only for an error: counting lines from the text's start at every
            // move made reading a file quadratic in its length.
            let illegal = |reason: String| {
                let (line, column) = self.place(at);
                GameFileError::Illegal { format: Format::Ggf, line, column, move_number: k + 1, reason }
            };
            match square {
                // A pass after the end (a full board, or neither side able to move): some programs
                // write one; it changes nothing.
                None if p.is_game_over() => {}
                None => {
                    if !p.must_pass() {
                        return Err(illegal(format!("{color} passes but has a move")));
                    }
                    p = p.pass();
                }
                Some(sq) => {
                    p = p.after_forced_pass().0;
                    if p.to_move() != color {
                        return Err(illegal(format!("{sq} is played by {color}, but {} is to move", p.to_move())));
                    }
                    p = p.play(sq).map_err(|e| illegal(e.to_string()))?;
                    out.push(sq);
                }
            }
        }
        Ok(Game { start, moves: out, black, white, format: Format::Ggf, index: (1, 1), stated })
    }

    /// The value of a property, `[` at the current position; a backslash escapes the next
    /// character (`\]`, `\\`).
    fn value(&mut self) -> Result<String, GameFileError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        out.push(e);
                    }
                }
                ']' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                c => out.push(c),
            }
        }
        Err(self.syntax(open, "']' to close the property's value, found the end of the file"))
    }

    /// `8 <64 characters> *`.
    fn board(&self, value: &str, at: usize) -> Result<Position, GameFileError> {
        let n: Option<usize> = value.split_whitespace().next().and_then(|w| w.parse().ok());
        let size =
            n.and_then(Size::from_n).ok_or_else(|| self.syntax(at, "a board size of 4, 6 or 8 at the start of BO"))?;
        let all: Vec<&str> = value.split_whitespace().skip(1).collect();
        let (side, board) = match all.split_last() {
            Some((side, board)) => (*side, board.concat()),
            None => ("", String::new()),
        };
        if board.chars().count() != size.squares() {
            return Err(self.syntax(
                at,
                format!("{} squares of *, O and - in BO, found {}", size.squares(), board.chars().count()),
            ));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in board.chars().enumerate() {
            let bit = 1u64 << (size.squares() - 1 - i);
            match c {
                '*' | 'X' | 'x' | '#' => black |= bit,
                'O' | 'o' => white |= bit,
                '-' | '.' => {}
                other => return Err(self.syntax(at, format!("*, O or - in BO's board, found '{other}'"))),
            }
        }
        let to_move = match side {
            "*" | "X" | "x" | "#" | "B" => Color::Black,
            "O" | "o" | "W" => Color::White,
            other => {
                return Err(self.syntax(at, format!("the side to move (* or O) at the end of BO, found '{other}'")));
            }
        };
        Position::new(size, black, white, to_move)
            .map_err(|e| self.syntax(at, format!("a well-formed board in BO: {e}")))
    }
}

/// The result an `RE[...]` value states: black's score (a decimal rounded to whole discs) and
/// the flag after a colon; `None` when it is no number.
fn result(value: &str) -> Option<GameResult> {
    let (number, flag) = value.trim().split_once(':').unwrap_or((value.trim(), ""));
    let score: f64 = number.trim().parse().ok().filter(|s: &f64| s.is_finite() && s.abs() <= 100.0)?;
    let how = match flag.trim().to_ascii_lowercase().as_str() {
        "r" => How::Resigned,
        "t" => How::Time,
        "s" => How::Agreed,
        _ => How::Stated,
    };
    Some(GameResult { black_score: score.round() as i32, how: Some(how) })
}

/// The GGF record of `game`, with `values[i]` (the value of move `i` from its mover's side, where
/// known) after each move as `B[f5/+2]`. Passes are written as `PA`.
pub fn write(game: &Game, values: &[Option<i32>]) -> String {
    let start = game.start;
    let size = start.size();
    let mut board = String::with_capacity(size.squares());
    for sq in Square::all(size) {
        board.push(if start.black().contains(sq) {
            '*'
        } else if start.white().contains(sq) {
            'O'
        } else {
            '-'
        });
    }
    let side = if start.to_move() == Color::Black { '*' } else { 'O' };
    // A name read from a file may hold control or format characters: written as printable
    // escapes (`\u{1b}`), never as raw bytes a later reader's terminal would obey.
    let escape = |s: &str| {
        let mut out = String::with_capacity(s.len());
        for c in crate::notation::printable::printable(s).chars() {
            if matches!(c, '\\' | '[' | ']' | ';') {
                out.push('\\');
            }
            out.push(c);
        }
        out
    };
    let mut out = format!("(;GM[Othello]PC[othello-explorer]TY[{}]", size.n());
    if let Some(b) = &game.black {
        out.push_str(&format!("PB[{}]", escape(b)));
    }
    if let Some(w) = &game.white {
        out.push_str(&format!("PW[{}]", escape(w)));
    }
    // The board's result, or the one stated for a game that stops early, with its flag.
    match game.result() {
        Some(GameResult { black_score, how: None | Some(How::Stated) }) => {
            out.push_str(&format!("RE[{black_score:+}]"));
        }
        Some(GameResult { black_score, how: Some(how) }) => {
            let flag = match how {
                How::Resigned => 'r',
                How::Time => 't',
                _ => 's',
            };
            out.push_str(&format!("RE[{black_score:+}:{flag}]"));
        }
        None => {}
    }
    out.push_str(&format!("BO[{} {board} {side}]", size.n()));
    let mut p = start;
    for (i, &m) in game.moves.iter().enumerate() {
        if p.must_pass() {
            out.push_str(if p.to_move() == Color::Black { "B[PA]" } else { "W[PA]" });
            p = p.pass();
        }
        let tag = if p.to_move() == Color::Black { 'B' } else { 'W' };
        match values.get(i).copied().flatten() {
            Some(v) => out.push_str(&format!("{tag}[{m}/{v:+}]")),
            None => out.push_str(&format!("{tag}[{m}]")),
        }
        p = p.play(m).unwrap_or(p);
    }
    out.push_str(";)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const START8: &str = "---------------------------O*------*O---------------------------";

    #[test]
    fn reads_a_record_with_players_passes_and_values() {
        let text = format!("(;GM[Othello]PC[x]PB[al\\]ice]PW[bob]TY[8]BO[8 {START8} *]B[F5//1.2]W[d6/-2/3]B[c3];)");
        let g = read(&text, 1).unwrap();
        assert_eq!(g.black.as_deref(), Some("al]ice"));
        assert_eq!(g.white.as_deref(), Some("bob"));
        assert_eq!(crate::notation::transcript::format(&g.moves), "f5d6c3");
        assert_eq!(g.start, Position::start(Size::Eight));
        assert_eq!(g.format, Format::Ggf);
    }

    #[test]
    fn round_trip_and_several_games() {
        let line = crate::notation::transcript::play(&Position::start(Size::Six), "c2b2a2").unwrap();
        let game = Game { black: Some("b".into()), ..Game::new(line.start, line.moves.clone(), Format::Ggf) };
        let text = write(&game, &[Some(2), None, Some(-4)]);
        assert!(text.contains("B[c2/+2]W[b2]B[a2/-4]"), "{text}");
        let both = format!("{text}{text}");
        assert_eq!(count(&both), 2);
        let back = read(&both, 2).unwrap();
        assert_eq!((back.moves.clone(), back.start, back.index), (line.moves, line.start, (2, 2)));
        assert_eq!(read(&both, 3).unwrap_err(), GameFileError::NoSuchGame { index: 3, count: 2 });
    }

    /// A full 4x4 board after `W[d4]` (the game over), then a pass: read, and it changes nothing;
    /// a pass with a move to play is still refused.
    #[test]
    fn a_pass_after_the_end_changes_nothing() {
        let moves = "B[c4]W[d2]B[c1]W[b4]B[a2]W[b1]B[a3]W[d1]B[a4]W[a1]B[d3]W[d4]";
        let g = read(&format!("(;GM[Othello]TY[4]{moves}B[pa];)"), 1).unwrap();
        assert_eq!(crate::notation::transcript::format(&g.moves), "c4d2c1b4a2b1a3d1a4a1d3d4");
        assert!(g.end().is_game_over() && g.end().empty_count() == 0);
        let e = read("(;GM[Othello]TY[4]B[c4]W[pa];)", 1).unwrap_err().to_string();
        assert!(e.contains("move 2 is illegal: white passes but has a move"), "{e}");
    }

    /// Names are written with their control and format characters as escapes, so the record
    /// is one line of plain text; they read back as those escapes.
    #[test]
    fn names_are_written_without_control_or_format_characters() {
        let line = crate::notation::transcript::play(&Position::start(Size::Four), "c4").unwrap();
        let game = Game {
            black: Some("a\u{1b}[2Jb\n".into()),
            white: Some("c\u{202e}d\u{200b}".into()),
            ..Game::new(line.start, line.moves, Format::Ggf)
        };
        let text = write(&game, &[]);
        assert!(!text.trim_end().chars().any(|c| c.is_control() || crate::notation::printable::is_invisible(c)));
        let back = read(&text, 1).unwrap();
        assert_eq!(back.black.as_deref(), Some(r"a\u{1b}[2Jb\n"));
        assert_eq!(back.white.as_deref(), Some(r"c\u{202e}d\u{200b}"));
    }

    /// `RE[]` states the result of a game that stops early, with how it was decided; a game
    /// that ends on the board keeps the board's result whatever `RE` says; the writer writes
    /// both back.
    #[test]
    fn a_stated_result_is_read_and_written() {
        let g = read("(;GM[Othello]TY[8]RE[-64.00:r]B[f5]W[d6];)", 1).unwrap();
        let stated = Some(GameResult { black_score: -64, how: Some(How::Resigned) });
        assert_eq!((g.stated, g.result()), (stated, stated));
        assert_eq!(g.result().unwrap().to_string(), "-64 resigned");
        assert!(write(&g, &[]).contains("RE[-64:r]"), "{}", write(&g, &[]));
        for (re, score, how) in [("+12", 12, How::Stated), ("+2.5:t", 3, How::Time), (" -4:s ", -4, How::Agreed)] {
            let g = read(&format!("(;GM[Othello]RE[{re}]B[f5];)"), 1).unwrap();
            assert_eq!(g.result(), Some(GameResult { black_score: score, how: Some(how) }), "{re}");
            assert_eq!(read(&write(&g, &[]), 1).unwrap().result(), g.result(), "{re}");
        }
        for unknown in ["?", "", "x:r", "+1e9"] {
            assert_eq!(read(&format!("(;GM[Othello]RE[{unknown}]B[f5];)"), 1).unwrap().result(), None, "{unknown}");
        }
        // A finished 4x4 game keeps the board's score, not the one stated.
        let moves = "B[c4]W[d2]B[c1]W[b4]B[a2]W[b1]B[a3]W[d1]B[a4]W[a1]B[d3]W[d4]";
        let g = read(&format!("(;GM[Othello]TY[4]RE[+16:r]{moves};)"), 1).unwrap();
        let board = g.end().black_score(crate::board::position::Scoring::Standard);
        assert_eq!(g.result(), Some(GameResult { black_score: board, how: None }));
    }

    /// An illegal move deep in a long file is still placed by its line and column.
    #[test]
    fn an_error_deep_in_a_file_names_its_line() {
        let good = "(;GM[Othello]TY[4]B[c4]W[d2];)\n".repeat(500);
        let text = format!("{good}(;GM[Othello]TY[4]B[c4]\n  W[c4];)\n");
        let starts = records(&text);
        let e = read_each(&text, &starts).find_map(Result::err).unwrap().to_string();
        assert!(e.starts_with("line 502, column 5: "), "{e}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("(;GM[Othello]\nB[f5]W[z9];)", 1).unwrap_err().to_string();
        assert_eq!(e, "line 2, column 8: GGF expected a move like f5 or PA in W[...], found 'z9'");
        let e = read("(;GM[Othello]B[f5]B[d6];)", 1).unwrap_err().to_string();
        assert!(e.contains("move 2 is illegal: d6 is played by black, but white is to move"), "{e}");
        let e = read("(;GM[Othello]B[f5]", 1).unwrap_err().to_string();
        assert!(e.contains("';)' to end the game record"), "{e}");
        let e = read("(;GM[Chess];)", 1).unwrap_err().to_string();
        assert!(e.starts_with("line 1, column 6: GGF expected GM[Othello]"), "{e}");
    }
}
