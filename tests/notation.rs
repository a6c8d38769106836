//! Notation: square names, board strings, problem lines, transcripts, game files (transcript
//! files with pass markers, GGF values holding `(;` and `;)`) and the `Bitboard` display.
//! Every kind of bad input gets its own error naming where; formatting and parsing round-trip;
//! arbitrary text never panics. Expected boards and masks come from the reference rules in
//! `tests/reference` and from the conventions written out here, not from the library.

mod common;
mod reference;

use common::{any_board, any_size, size_of, to_position};
use othello_explorer::notation::gamefile::{self, Format, Game, GameFileError};
use othello_explorer::notation::obf::{
    self, BoardStringError, ProblemError, parse_board, parse_board_line, parse_problem,
};
use othello_explorer::notation::transcript::{self, TranscriptError};
use othello_explorer::{Bitboard, Color, IllegalMove, ParseSquareError, Position, PositionError, Size, Square};
use proptest::prelude::*;
use reference::{Board, Ply, bit_of, hex, name};

// ---- the boundary ----

fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

/// A message is one non-empty line that does not start with a capital.
fn assert_one_lower_case_line(message: &str) {
    assert!(!message.is_empty());
    assert!(!message.contains('\n'), "more than one line: {message:?}");
    assert!(!message.starts_with(char::is_uppercase), "not lower case: {message:?}");
}

fn board_err(text: &str) -> BoardStringError {
    let e = parse_board(text).expect_err(text);
    assert_one_lower_case_line(&e.to_string());
    e
}

fn transcript_err(start: &Position, text: &str) -> TranscriptError {
    let e = transcript::play(start, text).expect_err(text);
    assert_one_lower_case_line(&e.to_string());
    e
}

const START_4: &str = "-----OX--XO----- X";

// ---- squares ----

#[test]
fn square_errors_name_what_is_wrong() {
    let cases: [(&str, ParseSquareError, &str); 11] = [
        ("", ParseSquareError::Empty, "empty"),
        ("   ", ParseSquareError::Empty, "empty"),
        ("i5", ParseSquareError::BadColumn { found: 'i', last: 'h' }, "'i'"),
        ("5f", ParseSquareError::BadColumn { found: '5', last: 'h' }, "'5'"),
        ("é5", ParseSquareError::BadColumn { found: 'é', last: 'h' }, "'é'"),
        ("f9", ParseSquareError::BadRow { found: '9', last: '8' }, "'9'"),
        ("f0", ParseSquareError::BadRow { found: '0', last: '8' }, "'0'"),
        ("fx", ParseSquareError::BadRow { found: 'x', last: '8' }, "'x'"),
        ("f", ParseSquareError::MissingRow, "missing row"),
        ("f55", ParseSquareError::Trailing("5".into()), "'5'"),
        ("f5 x", ParseSquareError::Trailing(" x".into()), "x"),
    ];
    for (text, expected, needle) in cases {
        let e = text.parse::<Square>().expect_err(text);
        assert_eq!(e, expected, "{text:?}");
        let message = e.to_string();
        assert_one_lower_case_line(&message);
        assert!(message.contains(needle), "{message:?} should name {needle:?}");
    }
}

#[test]
fn every_square_name_round_trips() {
    for row in 0..8 {
        for col in 0..8 {
            let expected = format!("{}{}", (b'a' + col as u8) as char, row + 1);
            let square = Square::new(col, row).expect("on 8x8");
            assert_eq!(square.to_string(), expected);
            assert_eq!(sq(&expected), square);
            assert_eq!(sq(&expected.to_uppercase()), square);
            assert_eq!(sq(&format!("  {expected} ")), square);
            for n in [4, 6, 8] {
                assert_eq!(square.is_on(size_of(n)), col < n && row < n);
                if col < n && row < n {
                    // The layout, written out: a1 is bit N*N-1, the last square bit 0.
                    assert_eq!(square.bit(size_of(n)), bit_of(n, col, row), "bit of {expected} on {n}x{n}");
                    assert_eq!(name(n, row * n + col), expected);
                }
            }
        }
    }
    assert!(Square::new(8, 0).is_none());
    assert!(Square::new(0, 8).is_none());
}

// ---- board strings ----

#[test]
fn board_string_errors_name_the_column() {
    assert_eq!(board_err(""), BoardStringError::Empty);
    assert_eq!(board_err("   ; just a comment"), BoardStringError::Empty);

    let e = board_err("-----OX--XO--Z-- X");
    assert_eq!(e, BoardStringError::BadChar { column: 14, found: 'Z' });
    assert!(e.to_string().contains("'Z'") && e.to_string().contains("column 14"), "{e}");
    // Columns count characters from the start of the text, leading spaces and all.
    assert_eq!(board_err("  -----OX--XO--1-- X"), BoardStringError::BadChar { column: 16, found: '1' });
    assert_eq!(board_err("é----OX--XO----- X"), BoardStringError::BadChar { column: 1, found: 'é' });
    assert_eq!(board_err("-----OX--XO----y X"), BoardStringError::BadChar { column: 16, found: 'y' });
    assert_eq!(board_err("-----OX--XO----B X"), BoardStringError::BadChar { column: 16, found: 'B' });

    for length in [1, 15, 17, 25, 35, 37, 49, 63, 65, 100] {
        let e = board_err(&format!("{} X", "-".repeat(length)));
        assert_eq!(e, BoardStringError::WrongLength { length });
        assert!(e.to_string().contains(&length.to_string()), "{e}");
    }

    let e = board_err("-----OX--XO-----");
    assert_eq!(e, BoardStringError::MissingSide { column: 17 });
    assert!(e.to_string().contains("column 17"), "{e}");
    assert_eq!(board_err("-----OX--XO-----   "), BoardStringError::MissingSide { column: 20 });
    assert_eq!(board_err("-----OX--XO----- ; comment"), BoardStringError::MissingSide { column: 18 });
    assert_eq!(board_err("-----OX--XO-----;X"), BoardStringError::MissingSide { column: 17 });

    let e = board_err("-----OX--XO----- Z");
    assert_eq!(e, BoardStringError::BadSide { column: 18, found: "Z".into() });
    assert!(e.to_string().contains("'Z'") && e.to_string().contains("column 18"), "{e}");
    assert_eq!(board_err("-----OX--XO----- y"), BoardStringError::BadSide { column: 18, found: "y".into() });
    // One character more than a board, not a side's: that character is named.
    assert_eq!(board_err("-----OX--XO-----Z"), BoardStringError::BadChar { column: 17, found: 'Z' });
    assert_eq!(board_err("-----OX--XO----- XO"), BoardStringError::BadSide { column: 18, found: "XO".into() });
    assert_eq!(board_err("-----OX--XO-----  black"), BoardStringError::BadSide { column: 19, found: "black".into() });

    let e = board_err("-----OX--XO----- X junk");
    assert_eq!(e, BoardStringError::Trailing { column: 20, found: "junk".into() });
    assert!(e.to_string().contains("'junk'") && e.to_string().contains("column 20"), "{e}");
    assert_eq!(board_err("-----OX--XO----- X  O"), BoardStringError::Trailing { column: 21, found: "O".into() });
}

#[test]
fn board_strings_that_parse() {
    let start = to_position(&Board::start(4));
    assert_eq!(parse_board(START_4), Ok(start));
    assert_eq!(parse_board(&format!("  \t{START_4}  ")), Ok(start));
    assert_eq!(parse_board("-----OX--XO-----\tX"), Ok(start));
    assert_eq!(parse_board(&format!("{START_4};")), Ok(start));
    let text = format!("{START_4} ; a comment");
    let line = parse_board_line(&text).expect("a comment is allowed");
    assert_eq!(line.position, start);
    assert_eq!(line.comment, Some(" a comment"));
    assert_eq!(line.comment_column, 21);
    let white = parse_board("-----OX--XO----- O").expect("white to move");
    assert_eq!(white.to_move(), Color::White);
    assert_eq!(white.black(), start.black());
    for n in [6, 8] {
        assert_eq!(parse_board(&Board::start(n).board_string()), Ok(to_position(&Board::start(n))));
    }
}

proptest! {
    /// What Edax, NBoard and the WTHOR tools write: `*` or `x` for black, `o` for white, `.` for
    /// an empty square, the side as `*`, `B`, `W` or glued on (65 characters on 8x8); every form
    /// reads as the reference board it spells.
    #[test]
    fn board_strings_as_other_programs_write_them(b in any_board(), form in 0usize..6) {
        let want = to_position(&b);
        let text = b.board_string();
        let (cells, side) = text.split_once(' ').unwrap();
        let black = b.to_move == reference::Side::Black;
        let other = match form {
            0 => format!("{}{side}", cells),
            1 => format!("{} {}", cells.replace('X', "*").replace('-', "."), if black { "*" } else { "O" }),
            2 => format!("{} {}", cells.to_lowercase().replace('-', "."), if black { "B" } else { "W" }),
            3 => format!("{}{}", cells.replace('X', "*"), if black { "*" } else { "O" }),
            4 => format!("{} {}", cells.replace('O', "o"), if black { "x" } else { "o" }),
            _ => format!("  {}	{} ; a comment", cells.replace('-', "."), side),
        };
        prop_assert_eq!(parse_board(&other), Ok(want), "{}", other);
    }
}

#[test]
fn transcripts_as_other_programs_write_them() {
    let start8 = Position::start(Size::Eight);
    let plain = transcript::play(&start8, "f5d6c3d3c4").expect("legal").moves;
    for text in [
        "1. f5 d6 2. c3 d3 3. c4",
        "1.f5 d6 2.c3 d3 3.c4",
        "f5-d6-c3-d3-c4",
        "F5, D6, C3, D3, C4",
        "1. f5 1... d6 2. c3-d3 c4",
    ] {
        assert_eq!(transcript::play(&start8, text).map(|l| l.moves), Ok(plain.clone()), "{text}");
    }
    // The columns of errors still count every character.
    let e = transcript_err(&start8, "1. f5 d6 2. c9");
    assert!(matches!(e, TranscriptError::BadSquare { move_number: 3, column: 13, .. }), "{e:?}");
}

#[test]
fn overlapping_or_off_board_discs_are_no_position() {
    // d4 is bit 0 on 4x4, a1 bit 15; b2 is bit 10.
    assert_eq!(Position::new(Size::Four, 1, 1, Color::Black), Err(PositionError::Overlap(sq("d4"))));
    let both = 1 << 15 | 1 << 10;
    let e = Position::new(Size::Four, both, both, Color::White).expect_err("two overlaps");
    assert_eq!(e, PositionError::Overlap(sq("a1")), "the first overlap in reading order");
    assert_one_lower_case_line(&e.to_string());
    assert!(e.to_string().contains("a1"));
    let e = Position::new(Size::Four, 1 << 16, 0, Color::Black).expect_err("off the 4x4 board");
    assert_eq!(e, PositionError::OffBoard);
    assert_one_lower_case_line(&e.to_string());
    assert_eq!(Position::new(Size::Six, 0, 1 << 36, Color::Black), Err(PositionError::OffBoard));
    assert!(Position::new(Size::Eight, 1 << 63, 1, Color::Black).is_ok());
    assert_eq!(Position::from_player(Size::Four, 1 << 3, 1 << 3, Color::White), Err(PositionError::Overlap(sq("a4"))));
}

// ---- problem lines ----

#[test]
fn problem_lines() {
    // Black's moves at the 4x4 start: b1, a2, d3, c4.
    let p = parse_problem(&format!("{START_4}; C4:-2; D3:+2 ;b1:0;")).expect("a problem line");
    assert_eq!(p.position, to_position(&Board::start(4)));
    assert_eq!(p.scores, vec![(sq("c4"), -2), (sq("d3"), 2), (sq("b1"), 0)]);
    assert_eq!(p.best_score(), Some(2));
    // A move that is not legal there, a score beyond the 16 squares: refused with the column.
    let e = parse_problem(&format!("{START_4}; B3:+2;")).expect_err("b3 is not legal");
    assert_eq!(e, ProblemError::IllegalMove { column: 21, square: sq("b3") });
    assert_one_lower_case_line(&e.to_string());
    let e = parse_problem(&format!("{START_4}; C4:+17;")).expect_err("beyond 16");
    assert_eq!(e, ProblemError::ImpossibleScore { column: 21, found: "C4:+17".into(), max: 16 });
    assert_one_lower_case_line(&e.to_string());
    assert!(parse_problem(&format!("{START_4}; C4:-16;")).is_ok());
    let p = parse_problem(START_4).expect("no scores");
    assert!(p.scores.is_empty());
    assert_eq!(p.best_score(), None);

    // The board and side take columns 1 to 18, the `;` 19; "B3+2" starts at column 28.
    let line = format!("{START_4}; C4:-2; B3+2;");
    let e = parse_problem(&line).expect_err("no colon");
    assert_eq!(e, ProblemError::BadScore { column: 28, found: "B3+2".into() });
    let message = e.to_string();
    assert_one_lower_case_line(&message);
    assert!(message.contains("'B3+2'") && message.contains("column 28"), "{message}");

    for (entry, column) in [("Z9:+1", 21), ("C4:abc", 21), ("C4:", 21), (":5", 21), ("C4:2x", 21), ("C44:2", 21)] {
        let line = format!("{START_4}; {entry}");
        assert_eq!(parse_problem(&line), Err(ProblemError::BadScore { column, found: entry.into() }), "{line:?}");
    }
    // Columns count characters, not bytes: a wide space before the entry is one column.
    assert_eq!(
        parse_problem(&format!("{START_4};\u{3000}B3+2")),
        Err(ProblemError::BadScore { column: 21, found: "B3+2".into() })
    );
    assert_eq!(
        parse_problem("-----OX--XO--Z-- X; C4:-2"),
        Err(ProblemError::Board(BoardStringError::BadChar { column: 14, found: 'Z' }))
    );
    assert_one_lower_case_line(&parse_problem("").expect_err("empty").to_string());
}

// ---- transcripts ----

/// The first game of the 4x4 tree (moves tried in reading order) whose plies and final board
/// satisfy `wanted`.
fn find_4x4_game(wanted: &dyn Fn(&[Ply], &Board) -> bool) -> (Vec<Ply>, Board) {
    fn walk(board: Board, path: &mut Vec<Ply>, wanted: &dyn Fn(&[Ply], &Board) -> bool) -> Option<(Vec<Ply>, Board)> {
        if board.game_over() {
            return wanted(path, &board).then(|| (path.clone(), board));
        }
        let moves = board.moves();
        let steps: Vec<Option<usize>> =
            if moves.is_empty() { vec![None] } else { moves.into_iter().map(Some).collect() };
        for mv in steps {
            path.push(Ply { board: board.clone(), mv });
            let next = mv.map_or_else(|| board.pass(), |m| board.play(m));
            if let Some(found) = walk(next, path, wanted) {
                return Some(found);
            }
            path.pop();
        }
        None
    }
    walk(Board::start(4), &mut Vec::new(), wanted).expect("such a 4x4 game exists")
}

fn transcript_of(n: usize, plies: &[Ply]) -> String {
    plies.iter().filter_map(|p| p.mv).map(|m| name(n, m)).collect()
}

#[test]
fn transcript_spelling_errors_name_move_and_column() {
    let start8 = Position::start(Size::Eight);
    let e = transcript_err(&start8, "f5x9");
    assert_eq!(
        e,
        TranscriptError::BadSquare {
            move_number: 2,
            column: 3,
            error: ParseSquareError::BadColumn { found: 'x', last: 'h' }
        }
    );
    assert!(e.to_string().contains("move 2") && e.to_string().contains("column 3"), "{e}");
    assert_eq!(
        transcript_err(&start8, "f5 d6 c9"),
        TranscriptError::BadSquare {
            move_number: 3,
            column: 7,
            error: ParseSquareError::BadRow { found: '9', last: '8' }
        }
    );
    assert_eq!(
        transcript_err(&start8, "f5 d"),
        TranscriptError::BadSquare { move_number: 2, column: 4, error: ParseSquareError::MissingRow }
    );
    assert_eq!(
        transcript_err(&start8, "f5d 6"),
        TranscriptError::BadSquare { move_number: 2, column: 3, error: ParseSquareError::MissingRow }
    );
    assert_eq!(
        transcript_err(&start8, "f5d6+c3"),
        TranscriptError::BadSquare {
            move_number: 3,
            column: 5,
            error: ParseSquareError::BadColumn { found: '+', last: 'h' }
        }
    );
    // A number without its dot is no move number.
    assert!(matches!(transcript_err(&start8, "1 f5"), TranscriptError::BadSquare { move_number: 1, column: 1, .. }));
    // Spelling is checked before anything is played.
    assert!(matches!(transcript_err(&start8, "a1 zz"), TranscriptError::BadSquare { move_number: 2, .. }));
    // On a smaller board a character that is no column or row at all names that board's range.
    let cases = [
        (
            Size::Six,
            "c2 i1",
            4,
            ParseSquareError::BadColumn { found: 'i', last: 'f' },
            "bad column 'i': expected a letter a to f",
        ),
        (
            Size::Four,
            "b1a9",
            3,
            ParseSquareError::BadRow { found: '9', last: '4' },
            "bad row '9': expected a digit 1 to 4",
        ),
    ];
    for (size, text, column, error, message) in cases {
        let e = transcript_err(&Position::start(size), text);
        assert_eq!(e, TranscriptError::BadSquare { move_number: 2, column, error }, "{text}");
        assert!(e.to_string().ends_with(message), "{e}");
    }
}

#[test]
fn square_names_for_a_board_name_its_range_and_keep_the_grid() {
    // Every square of every board parses to the square the reference names.
    for (size, n) in [(Size::Four, 4), (Size::Six, 6), (Size::Eight, 8)] {
        for row in 0..8 {
            for col in 0..8 {
                let text = format!("{}{}", (b'a' + col as u8) as char, row + 1);
                let square = Square::parse_for(size, &text).expect(&text);
                assert_eq!(square.to_string(), text);
                assert_eq!(square.is_on(size), row < n && col < n, "{text} on {size}");
            }
        }
        let last_col = (b'a' + n as u8 - 1) as char;
        let last_row = (b'0' + n as u8) as char;
        for (text, expected) in [
            ("i1", ParseSquareError::BadColumn { found: 'i', last: last_col }),
            ("Z1", ParseSquareError::BadColumn { found: 'Z', last: last_col }),
            ("a9", ParseSquareError::BadRow { found: '9', last: last_row }),
            ("a0", ParseSquareError::BadRow { found: '0', last: last_row }),
        ] {
            let e = Square::parse_for(size, text).expect_err(text);
            assert_eq!(e, expected, "{text} on {size}");
            assert_one_lower_case_line(&e.to_string());
        }
    }
}

#[test]
fn illegal_transcript_moves_name_move_column_and_reason() {
    let start4 = Position::start(Size::Four);
    let start8 = Position::start(Size::Eight);

    let e = transcript_err(&start4, "e5");
    assert_eq!(
        e,
        TranscriptError::Illegal {
            move_number: 1,
            column: 1,
            error: IllegalMove::OffBoard { square: sq("e5"), size: Size::Four }
        }
    );
    assert!(e.to_string().contains("e5") && e.to_string().contains("4x4"), "{e}");
    assert_eq!(
        transcript_err(&start4, "b1 e1"),
        TranscriptError::Illegal {
            move_number: 2,
            column: 4,
            error: IllegalMove::OffBoard { square: sq("e1"), size: Size::Four }
        }
    );

    let e = transcript_err(&start8, "f5F5");
    assert_eq!(e, TranscriptError::Illegal { move_number: 2, column: 3, error: IllegalMove::Occupied(sq("f5")) });
    assert!(e.to_string().contains("occupied"), "{e}");

    let e = transcript_err(&start8, "f5 a1");
    assert_eq!(e, TranscriptError::Illegal { move_number: 2, column: 4, error: IllegalMove::NoFlips(sq("a1")) });
    assert!(e.to_string().contains("flips no disc"), "{e}");
}

#[test]
fn transcripts_pass_implicitly_and_stop_at_the_end() {
    let start4 = Position::start(Size::Four);

    // A game with a forced pass: the move after it is the other side's, written without the pass.
    let (plies, last) = find_4x4_game(&|plies, _| plies.iter().any(|p| p.mv.is_none()));
    let text = transcript_of(4, &plies);
    let line = transcript::play(&start4, &text).expect("a game with a pass");
    assert_eq!(line.end(), to_position(&last));
    let boards: Vec<Board> = {
        // The reference boards after each written move (after any pass before it).
        let mut out = Vec::new();
        for (k, ply) in plies.iter().enumerate() {
            if let Some(m) = ply.mv {
                out.push(ply.board.play(m));
            } else {
                assert!(plies[k].board.must_pass());
            }
        }
        out
    };
    assert_eq!(line.positions, boards.iter().map(to_position).collect::<Vec<_>>());

    // At the pass itself the side to move cannot play: `play` says it must pass.
    let k = plies.iter().position(|p| p.mv.is_none()).expect("a pass");
    let at_pass = to_position(&plies[k].board);
    assert!(at_pass.must_pass());
    let empty = plies[k].board.cells.iter().position(Option::is_none).expect("an empty square");
    let e = at_pass.play(sq(&name(4, empty))).expect_err("must pass");
    assert_eq!(e, IllegalMove::MustPass(sq(&name(4, empty))));
    assert_one_lower_case_line(&e.to_string());
    assert!(e.to_string().contains("must pass"), "{e}");
    // The transcript can start from that position too: the pass is played before the move.
    let after_pass = plies[k + 1].mv.expect("a move follows a pass");
    let line = transcript::play(&at_pass, &name(4, after_pass)).expect("the pass is implicit");
    assert_eq!(line.end(), to_position(&plies[k].board.pass().play(after_pass)));

    // A game that ends with empty squares: one more move is refused as game over.
    let (plies, last) = find_4x4_game(&|_, last| last.empties() > 0);
    let text = transcript_of(4, &plies);
    let moves = plies.iter().filter(|p| p.mv.is_some()).count();
    let empty = name(4, last.cells.iter().position(Option::is_none).expect("an empty square"));
    let e = transcript_err(&start4, &format!("{text} {empty}"));
    assert_eq!(
        e,
        TranscriptError::Illegal {
            move_number: moves + 1,
            column: 2 * moves + 2,
            error: IllegalMove::GameOver(sq(&empty))
        }
    );
    assert!(e.to_string().contains("game is over"), "{e}");

    // A game that fills the board: one more move is on an occupied square.
    let (plies, _) = find_4x4_game(&|_, last| last.empties() == 0);
    let text = transcript_of(4, &plies);
    let e = transcript_err(&start4, &format!("{text}a1"));
    assert!(matches!(e, TranscriptError::Illegal { error: IllegalMove::Occupied(s), .. } if s == sq("a1")), "{e:?}");
}

#[test]
fn transcript_case_and_spaces() {
    let start8 = Position::start(Size::Eight);
    let plain = transcript::play(&start8, "f5d6c3").expect("legal");
    let fancy = transcript::play(&start8, "  F5 d6\tC3 ").expect("legal");
    assert_eq!(plain, fancy);
    assert_eq!(transcript::format(&plain.moves), "f5d6c3");
    let squares = transcript::parse_squares("F5 d6\tC3").expect("spelled right");
    assert_eq!(squares, vec![(sq("f5"), 1), (sq("d6"), 4), (sq("c3"), 7)]);
    let empty = transcript::play(&start8, "  ").expect("no moves");
    assert!(empty.moves.is_empty());
    assert_eq!(empty.end(), start8);
}

// ---- game files ----

#[test]
fn a_transcript_file_with_pass_markers_is_a_transcript() {
    // The file: five moves and the documented pass marker, long enough and dashed enough
    // to have been taken for a board string.
    for marker in ["--", "pass", "PA", "ps"] {
        let text = format!("f5 d6 c3 d3 c4 {marker}\n");
        let g = gamefile::read_text(&text, Size::Eight, None).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(g.format, Format::Transcript, "{text:?}");
        assert_eq!(transcript::format(&g.moves), "f5d6c3d3c4", "{text:?}");
        assert_eq!(g.start, Position::start(Size::Eight));
    }
    // A 4x4 game with a forced pass, `--` written where it falls, spaced and glued: the moves
    // and the final board are the reference's.
    let (plies, last) = find_4x4_game(&|plies, _| plies.iter().any(|p| p.mv.is_none()));
    let words: Vec<String> = plies.iter().map(|p| p.mv.map_or_else(|| "--".to_string(), |m| name(4, m))).collect();
    let played: Vec<String> = plies.iter().filter_map(|p| p.mv).map(|m| name(4, m)).collect();
    for text in [words.join(" "), words.concat(), format!("1. {}", words.join(" "))] {
        assert!(text.contains("--") && text.len() >= 16, "{text}");
        let g = gamefile::read_text(&text, Size::Four, None).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(g.format, Format::Transcript, "{text:?}");
        assert_eq!(g.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), played, "{text:?}");
        assert_eq!(g.end(), to_position(&last), "{text:?}");
    }
    // A board string is still one, and a mistyped one is named as a board string.
    let g = gamefile::read_text(&format!("{START_4}\nb1 --\n"), Size::Eight, None).unwrap();
    assert_eq!((g.format, g.start.size(), g.moves.len()), (Format::BoardString, Size::Four, 1));
    let e = gamefile::read_text("-----OX--XO----y X\n", Size::Four, None).unwrap_err().to_string();
    assert!(e.starts_with("line 1, column 1: board string expected a board string"), "{e}");
}

#[test]
fn ggf_values_may_hold_record_marks() {
    // `(;` and `;)` inside a value, escaped `]` and `\`: one game, then a second.
    let text = "(;GM[Othello]PB[a\\]b\\\\c]PW[x;)y(;z]TY[8]B[f5];)\n(;GM[Othello]PB[second]B[f5]W[d6];)\n";
    assert_eq!(gamefile::ggf::count(text), 2);
    let g = gamefile::read_text(text, Size::Eight, None).unwrap();
    assert_eq!((g.black.as_deref(), g.white.as_deref()), (Some("a]b\\c"), Some("x;)y(;z")));
    assert_eq!((transcript::format(&g.moves), g.index), ("f5".to_string(), (1, 2)));
    let g = gamefile::read_text(text, Size::Eight, Some(2)).unwrap();
    assert_eq!((g.black.as_deref(), transcript::format(&g.moves), g.index), (Some("second"), "f5d6".into(), (2, 2)));
    assert_eq!(
        gamefile::read_text(text, Size::Eight, Some(3)).unwrap_err(),
        GameFileError::NoSuchGame { index: 3, count: 2 }
    );
    // The file: one game named x;)y(;z.
    let one = "(;GM[Othello]PW[x;)y(;z]B[f5];)";
    assert_eq!(gamefile::ggf::count(one), 1);
    assert_eq!(gamefile::read_text(one, Size::Eight, None).unwrap().white.as_deref(), Some("x;)y(;z"));

    // Written back, names with every mark read back the same, as one game; no value holds `(;`,
    // so even a reader that splits games on it finds one. Control characters are written as
    // their escapes (`\t`), and read back as those.
    let line = transcript::play(&Position::start(Size::Six), "c2b2a2").unwrap();
    for (black, white) in [("x;)y(;z", "a]b\\c[d"), ("(;", ";)"), ("\\", "]"), ("tab\tand\nline", "")] {
        let game = Game {
            black: Some(black.into()),
            white: Some(white.into()),
            ..Game::new(line.start, line.moves.clone(), Format::Ggf)
        };
        let out = gamefile::ggf::write(&game, &[Some(2), None, Some(-4)]);
        assert_eq!(out.matches("(;").count(), 1, "{out}");
        assert_eq!(gamefile::ggf::count(&out), 1, "{out}");
        let back = gamefile::read_text(&out, Size::Eight, None).unwrap_or_else(|e| panic!("{out}: {e}"));
        let shown = |s: &str| othello_explorer::notation::printable::printable(s);
        assert_eq!((back.black, back.white), (Some(shown(black)), Some(shown(white))), "{out}");
        assert!(!out.trim_end().chars().any(char::is_control), "{out}");
        assert_eq!((back.start, &back.moves, back.index), (line.start, &line.moves, (1, 1)), "{out}");
    }
}

// ---- Bitboard display ----

#[test]
fn bitboard_display_of_the_start_positions() {
    let b = Bitboard::new(Size::Four, 0x0240);
    assert_eq!(b.to_string(), "0x0240");
    assert_eq!(format!("{b:b}"), "0000\n0010\n0100\n0000");
    assert_eq!(format!("{b:#b}"), "0000_0010_0100_0000");
    assert_eq!(Bitboard::new(Size::Eight, 0x0000_0008_1000_0000).hex(), "0x0000000810000000");
    assert_eq!(Bitboard::new(Size::Six, 1).hex(), "0x000000001");
    assert_eq!(Bitboard::full(Size::Six).hex(), "0xfffffffff");
    assert_eq!(format!("{:X}", Bitboard::full(Size::Six)), "FFFFFFFFF");
    assert_eq!(format!("{:x}", Bitboard::new(Size::Four, 0xab)), "00ab");
}

/// Text around board strings and transcripts: their characters, separators, digits, letters
/// beyond the board, and a few wide or multi-byte characters.
fn notation_like() -> impl Strategy<Value = String> {
    "[XOxo\\-;: +\\t0-9a-iA-I\u{e9}\u{3000}\u{1f600}]{0,90}"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn bitboard_hex_and_binary_follow_the_layout(n in any_size(), raw in any::<u64>()) {
        let size = size_of(n);
        let b = Bitboard::new(size, raw);
        let full = if n == 8 { u64::MAX } else { (1u64 << (n * n)) - 1 };
        prop_assert_eq!(b.bits(), raw & full);
        let digits = [(4, 4), (6, 9), (8, 16)].iter().find(|(s, _)| *s == n).expect("a size").1;
        let text = b.hex();
        prop_assert_eq!(text.len(), 2 + digits);
        prop_assert_eq!(&text, &hex(n, raw & full));
        prop_assert_eq!(b.to_string(), text.clone());
        prop_assert_eq!(format!("{b:x}"), text[2..].to_string());
        let grid = format!("{b:b}");
        let rows: Vec<&str> = grid.split('\n').collect();
        prop_assert_eq!(rows.len(), n);
        for (row, line) in rows.iter().enumerate() {
            prop_assert_eq!(line.chars().count(), n);
            for (col, c) in line.chars().enumerate() {
                let set = raw >> bit_of(n, col, row) & 1 == 1;
                prop_assert_eq!(c, if set { '1' } else { '0' });
            }
        }
        prop_assert_eq!(format!("{b:#b}"), rows.join("_"));
        prop_assert_eq!(b.count(), (raw & full).count_ones());
        let mut names: Vec<String> = b.iter().map(|s| s.to_string()).collect();
        names.sort_by_key(|s| (s[1..].parse::<usize>().unwrap_or(0), s.as_bytes()[0]));
        let expected: Vec<String> = reference::cells_of(n, raw).into_iter().map(|i| name(n, i)).collect();
        prop_assert_eq!(names, expected);
    }

    /// Any text of GGF's marks, brackets, escapes and multi-byte characters: finding the records
    /// and reading each never panics, and a game's number is one of the records found.
    #[test]
    fn ggf_records_of_any_text(text in "(\\(;|;\\)|\\[|\\]|\\\\|PW|B|f5|é|;|\\(|\\)| ){0,24}") {
        let count = gamefile::ggf::count(&text);
        prop_assert_eq!(count, gamefile::ggf::records(&text).len());
        prop_assert!(count <= text.matches("(;").count());
        for k in 1..=count + 1 {
            match gamefile::ggf::read(&text, k) {
                Ok(g) => prop_assert_eq!(g.index, (k, count)),
                Err(GameFileError::NoSuchGame { index, count: c }) => prop_assert_eq!((index, c), (k, count)),
                Err(_) => {}
            }
        }
    }

    /// The library's board string is the reference's, and parses back to the same position.
    #[test]
    fn board_strings_round_trip(board in any_board()) {
        let pos = to_position(&board);
        let text = obf::format_board(&pos);
        prop_assert_eq!(&text, &board.board_string());
        prop_assert_eq!(pos.to_string(), text.clone());
        prop_assert_eq!(parse_board(&text), Ok(pos));
        prop_assert_eq!(parse_board(&format!(" {text} ; comment")), Ok(pos));
    }

    /// Random games written as transcripts play back to the reference's boards, in any case and
    /// spacing, and format back to the same text.
    #[test]
    fn transcripts_round_trip(n in any_size(), seed in any::<u64>(), upper in any::<bool>()) {
        let mut rng = reference::Rng(seed);
        let (plies, last) = reference::random_game(&Board::start(n), &mut rng, usize::MAX);
        let text = transcript_of(n, &plies);
        let start = Position::start(size_of(n));
        let line = transcript::play(&start, &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(line.end(), to_position(&last));
        prop_assert_eq!(transcript::format(&line.moves), text.clone());
        let spaced: Vec<String> = line.moves.iter().map(|m| {
            let s = m.to_string();
            if upper { s.to_uppercase() } else { s }
        }).collect();
        let again = transcript::play(&start, &spaced.join(" ")).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again, line);
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        check_any_text(&text)?;
    }

    #[test]
    fn notation_like_text_never_panics(text in notation_like()) {
        check_any_text(&text)?;
    }

    /// A valid board string with one character replaced: errors point at the right column.
    #[test]
    fn one_bad_character_is_found(board in any_board(), at in any::<prop::sample::Index>(), c in any::<char>()) {
        let good: Vec<char> = board.board_string().chars().collect();
        let i = at.index(good.len());
        let mut chars = good.clone();
        chars[i] = c;
        let text: String = chars.iter().collect();
        check_any_text(&text)?;
        if let Err(BoardStringError::BadChar { column, found }) = parse_board(&text) {
            prop_assert_eq!(column, i + 1);
            prop_assert_eq!(found, c);
        }
    }

    /// A problem line with arbitrary score entries: errors point at the entry's column.
    #[test]
    fn problem_score_columns(entries in prop::collection::vec("[ \u{3000}\u{e9}]{0,2}[A-Ia-i0-9:+\\-x\u{e9}]{1,6}", 0..4)) {
        let line = format!("{START_4};{}", entries.join(";"));
        check_any_text(&line)?;
        if let Err(ProblemError::BadScore { column, found }) = parse_problem(&line) {
            let at: String = line.chars().skip(column - 1).collect();
            prop_assert!(at.starts_with(&found), "column {} of {:?} is not {:?}", column, line, found);
        }
    }
}

/// Feeds `text` to every parser: none may panic, and every error is one lower-case line whose
/// column points where it says.
fn check_any_text(text: &str) -> Result<(), TestCaseError> {
    let check = |message: String| -> Result<(), TestCaseError> {
        prop_assert!(!message.is_empty() && !message.contains('\n'), "bad message {:?}", message);
        prop_assert!(!message.starts_with(char::is_uppercase), "bad message {:?}", message);
        Ok(())
    };
    let chars: Vec<char> = text.chars().collect();
    match parse_board(text) {
        Ok(pos) => prop_assert_eq!(parse_board(&pos.to_string()), Ok(pos)),
        Err(e) => {
            if let BoardStringError::BadChar { column, found } = &e {
                prop_assert_eq!(chars.get(column - 1), Some(found), "column of {:?}", text);
            }
            check(e.to_string())?;
        }
    }
    if let Err(e) = parse_problem(text) {
        check(e.to_string())?;
    }
    if let Err(e) = text.parse::<Square>() {
        check(e.to_string())?;
    }
    for n in [4, 6, 8] {
        match transcript::play(&Position::start(size_of(n)), text) {
            Ok(line) => prop_assert_eq!(line.moves.len(), line.positions.len()),
            Err(e) => {
                let column = match &e {
                    TranscriptError::BadSquare { column, .. } | TranscriptError::Illegal { column, .. } => *column,
                };
                prop_assert!(column >= 1 && column <= chars.len(), "column {} of {:?}", column, text);
                prop_assert!(!chars[column - 1].is_whitespace(), "column {} of {:?}", column, text);
                check(e.to_string())?;
            }
        }
    }
    Ok(())
}
