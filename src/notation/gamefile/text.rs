//! Transcripts and board strings as files: an optional board string on the first meaningful line
//! (else the start position), then the moves, with or without move numbers (`1. f5 d6 2.c3`),
//! spaces, commas, `-` between moves (`f5-d6`) and line breaks; `pass`, `pa`, `ps` or `--` may
//! mark a pass (passes are implicit anyway); `;` starts a comment.
//!
//! The first line is a board string when its first word is one: at least 16 characters, most of
//! them `X`, `O` and `-` (or `*`, `.`) (a mistyped board is still read as one, and named as one in the error).
//! A transcript's words hold squares (`f5`, or glued `f5d6--c3`), move numbers and pass marks, so
//! `f5 d6 c3 d3 c4 --` is a transcript.
//!
//! A file is read no further than a game can go (60 moves, and one more to name the first
//! illegal one), line by line, and a line of over 1 MiB characters is refused: memory and time
//! follow the game, never the file (a 64 MiB file of moves is answered at once in a few MB).

use super::{Format, Game, GameFileError};
use crate::{board::position::Position, board::size::Size, board::square::Square, notation::obf};

/// A move and where it was written.
struct Written {
    square: Square,
    line: usize,
    column: usize,
}

/// The most moves a game can have (8x8: every empty square filled; passes are implicit). A file
/// is read no further than one move beyond: that move is illegal whatever came before, so memory
/// and time stay bounded by the game, not by the file.
const MOST_MOVES: usize = 60;

/// The longest line read, in characters: a transcript line is never near it.
const LONGEST_LINE: usize = 1 << 20;

/// Reads a transcript file (see the module documentation).
pub fn read(text: &str, size: Size) -> Result<Game, GameFileError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split(';').next().unwrap_or("")))
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let Some(&(first_no, first)) = lines.peek() else { return Err(GameFileError::Empty) };
    let looks_like_board = looks_like_board(first);
    let (start, format) = if looks_like_board {
        let p = obf::parse_board(first).map_err(|e| GameFileError::Syntax {
            format: Format::BoardString,
            line: first_no,
            column: 1,
            expected: format!("a board string: {e}"),
        })?;
        lines.next();
        (Some(p), Format::BoardString)
    } else {
        (None, Format::Transcript)
    };
    let mut moves = Vec::new();
    for (line, text) in lines {
        if moves.len() > MOST_MOVES {
            break;
        }
        scan(text, line, format, &mut moves)?;
    }
    match start {
        Some(p) => play(p, &moves, format),
        None => {
            let first_try = play(Position::start(size), &moves, format);
            if first_try.is_ok() {
                return first_try;
            }
            for other in Size::ALL.iter().rev().filter(|&&s| s != size) {
                if let Ok(game) = play(Position::start(*other), &moves, format) {
                    return Ok(game);
                }
            }
            first_try
        }
    }
}

/// Whether a line's first word is a board string (see the module documentation): at least 16
/// characters, more than half of them board characters (`X`, `O`, `-`, or `*`, `x`, `o`, `.`).
fn looks_like_board(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    let length = word.chars().count();
    let board = word.chars().filter(|c| matches!(c, 'X' | 'O' | '-' | '*' | '.' | 'x' | 'o')).count();
    length >= 16 && 2 * board > length
}

fn scan(text: &str, line: usize, format: Format, out: &mut Vec<Written>) -> Result<(), GameFileError> {
    let chars: Vec<char> = text.chars().take(LONGEST_LINE + 1).collect();
    if chars.len() > LONGEST_LINE {
        return Err(GameFileError::Syntax {
            format,
            line,
            column: LONGEST_LINE + 1,
            expected: format!("a line of at most {LONGEST_LINE} characters (a transcript's lines are short)"),
        });
    }
    let mut i = 0;
    let bad = |column: usize, found: String| GameFileError::Syntax {
        format,
        line,
        column,
        expected: format!("a move like f5, a move number like 12. or pass, found '{found}'"),
    };
    while i < chars.len() && out.len() <= MOST_MOVES {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let column = i + 1;
        if c.is_ascii_digit() {
            // A move number: digits then at least one dot.
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            if j >= chars.len() || chars[j] != '.' {
                return Err(bad(column, chars[i..j].iter().collect()));
            }
            while j < chars.len() && chars[j] == '.' {
                j += 1;
            }
            i = j;
            continue;
        }
        // `--` marks a pass; a lone `-` joins two moves (`f5-d6`).
        if c == '-' {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_alphabetic() {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect::<String>().to_ascii_lowercase();
            if matches!(word.as_str(), "pass" | "pa" | "ps") {
                i = j;
                continue;
            }
            // A square: one letter and one digit (glued moves like f5d6 come two at a time).
            if let Some(d) = chars.get(i + 1).filter(|d| d.is_ascii_digit()) {
                let name: String = [c, *d].iter().collect();
                if let Ok(square) = name.parse::<Square>() {
                    out.push(Written { square, line, column });
                    i += 2;
                    continue;
                }
            }
            return Err(bad(column, chars[i..(i + 2).min(chars.len())].iter().collect()));
        }
        return Err(bad(column, c.to_string()));
    }
    Ok(())
}

fn play(start: Position, moves: &[Written], format: Format) -> Result<Game, GameFileError> {
    let mut p = start;
    for (k, m) in moves.iter().enumerate() {
        p = p.after_forced_pass().0;
        p = p.play(m.square).map_err(|e| GameFileError::Illegal {
            format,
            line: m.line,
            column: m.column,
            move_number: k + 1,
            reason: e.to_string(),
        })?;
    }
    Ok(Game::new(start, moves.iter().map(|m| m.square).collect(), format))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_spaces_and_lines() {
        let g = read("; a game\n1. f5 d6 2.c3\n  d3 -- \n3...C4\n", Size::Eight).unwrap();
        let names: Vec<String> = g.moves.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["f5", "d6", "c3", "d3", "c4"]);
        assert_eq!(g.format, Format::Transcript);
        assert_eq!(g.start, Position::start(Size::Eight));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("f5d6\n c3 z9\n", Size::Eight).unwrap_err().to_string();
        assert_eq!(
            e,
            "line 2, column 5: transcript expected a move like f5, a move number like 12. or pass, found 'z9'"
        );
        let e = read("f5 f5\n", Size::Eight).unwrap_err().to_string();
        assert_eq!(e, "line 1, column 4: transcript move 2 is illegal: f5 is already occupied");
        assert_eq!(read("; nothing\n\n", Size::Four).unwrap_err(), GameFileError::Empty);
    }

    #[test]
    fn a_board_string_then_moves_and_other_sizes() {
        let g = read("-----OX--XO----- X\nb1\n", Size::Eight).unwrap();
        assert_eq!(g.format, Format::BoardString);
        assert_eq!(g.start.size(), Size::Four);
        // A 6x6 transcript read with 8x8 asked for.
        let g = read("c2", Size::Eight).unwrap();
        assert_eq!(g.start.size(), Size::Six);
    }

    #[test]
    fn which_first_lines_are_board_strings() {
        assert!(looks_like_board("-----OX--XO----- X"));
        assert!(looks_like_board("  -----OX--XO----x X")); // mistyped, still a board
        assert!(!looks_like_board("f5 d6 c3 d3 c4 --"));
        assert!(!looks_like_board("f5d6c3d3c4f4--f6f3"));
        assert!(!looks_like_board("1. f5 d6 2. c3 d3 3. c4 --"));
        assert!(!looks_like_board("-- -- -- -- -- -- -- --"));
    }
}
