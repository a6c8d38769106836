//! The archive's unit tests: the file written and read back, damaged files refused, the counts
//! against games replayed by hand.

use super::*;
use crate::notation::gamefile::{GameResult, How};
use crate::notation::transcript;

fn game(t: &str, black: &str) -> ArchivedGame {
    let start = Position::start(Size::Eight);
    let line = transcript::play(&start, t).unwrap();
    ArchivedGame {
        start,
        moves: line.moves.iter().map(|&m| Some(m)).collect(),
        black: Some(black.into()),
        white: None,
        tournament: None,
        year: Some(2001),
        stated: None,
    }
}

#[test]
fn images_and_transpositions_meet_and_moves_come_back_in_the_askers_coordinates() {
    let mut a = Archive::default();
    // f5 d6 and its image c4 e3 (a rotation), and a transposition of f5 d6 c3 d3 c4.
    a.add("x", 1, &[game("f5d6c3", "Ann"), game("c4e3f6", "Bob"), game("f5d6c3d3c4", "Cy"), game("f5d6c4d3c3", "Di")]);
    a.finish();
    let start = Position::start(Size::Eight);
    let s = a.stats(&start, &Filter::default());
    assert_eq!(s.games, 4);
    // After f5 d6: the f5d6c3 games and the image c4e3f6 seen from f5 d6's side.
    let after = transcript::play(&start, "f5d6").unwrap().end();
    let s = a.stats(&after, &Filter::default());
    assert_eq!(s.games, 4);
    let c3 = s.moves.iter().find(|m| m.square == Some("c3".parse().unwrap())).unwrap();
    assert_eq!(c3.games, 3, "{s:?}");
    let c4 = s.moves.iter().find(|m| m.square == Some("c4".parse().unwrap())).unwrap();
    assert_eq!(c4.games, 1);
    // The transposition: f5d6c3d3c4 and f5d6c4d3c3 reach the same board.
    let t = transcript::play(&start, "f5d6c3d3c4").unwrap().end();
    assert_eq!(a.stats(&t, &Filter::default()).games, 2);
    assert_eq!(a.stats(&t, &Filter::default()).ended, 2);
    // The file round trip keeps everything.
    let b = Archive::from_bytes(&a.to_bytes()).unwrap();
    assert_eq!(b.stats(&after, &Filter::default()), a.stats(&after, &Filter::default()));
    // Added twice: nothing; the same games from another file: duplicates.
    let mut c = b.clone();
    assert!(c.add("x", 1, &[]).already);
    assert_eq!(c.add("y", 2, &[game("f5d6c3", "Ann")]).duplicates, 1);
    // Filters.
    let f = Filter { player: Some("ann".into()), ..Filter::default() };
    assert_eq!(a.stats(&after, &f).games, 1);
    let mut bytes = a.to_bytes();
    let last = bytes.len() - 20;
    bytes[last] ^= 1;
    assert!(Archive::from_bytes(&bytes).is_err());
}

#[test]
fn an_unfinished_game_is_result_unknown_and_left_out_of_the_results() {
    let mut a = Archive::default();
    // Two unfinished games, and one played to its end (the first legal move each time).
    let start = Position::start(Size::Eight);
    let mut p = start;
    let mut moves = Vec::new();
    while !p.is_game_over() {
        if p.must_pass() {
            moves.push(None);
            p = p.pass();
            continue;
        }
        let m = p.legal_moves().reading_order()[0];
        moves.push(Some(m));
        p = p.play(m).unwrap();
    }
    let finished = ArchivedGame { start, moves, black: None, white: None, tournament: None, year: None, stated: None };
    let score = finished.result().unwrap().black_score;
    a.add("x", 1, &[game("f5d6c3", "Ann"), game("f5d6c3d3", "Bob"), finished.clone()]);
    a.finish();
    assert_eq!(game("f5d6c3", "Ann").result(), None);
    let s = a.stats(&start, &Filter::default());
    assert_eq!(s.games, 3);
    for m in &s.moves {
        if m.square == finished.moves[0] {
            assert_eq!((m.games, m.decided(), m.unknown()), (1, 1, 0));
            assert_eq!(m.mean_score(), Some(f64::from(score)));
        } else {
            assert_eq!((m.games, m.decided(), m.unknown()), (2, 0, 2), "{m:?}");
            assert_eq!((m.black_wins, m.draws, m.white_wins, m.mean_score()), (0, 0, 0, None));
            assert_eq!(m.share_of_decided(m.black_wins), None);
        }
    }
    // Kept as unknown through the file.
    let b = Archive::from_bytes(&a.to_bytes()).unwrap();
    assert_eq!(b.games.iter().filter(|g| g.black_score.is_none()).count(), 2);
    assert_eq!(b.games[0].result_text(), "unknown");
    // A file of version 1 wrote the last disc difference of an unfinished game: read as unknown.
    let mut v1 = a.clone();
    v1.games[0].black_score = Some(3);
    let old = Archive::from_bytes(&v1.bytes_of_version(1)).unwrap();
    assert_eq!(old.games[0].black_score, None);
    assert_eq!(old.stats(&start, &Filter::default()), a.stats(&start, &Filter::default()));
    // Since version 2 a result written for an unfinished game with no stated way it was
    // decided is a damaged file.
    let mut bad = a.clone();
    bad.games[0].black_score = Some(3);
    for version in [2, VERSION] {
        let e = Archive::from_bytes(&bad.bytes_of_version(version)).unwrap_err().to_string();
        assert!(e.contains("does not end on the board and states no result, so it is unknown, not +3"), "{e}");
    }
}

/// A game that stops early with a stated result (a resignation, a loss on time) counts like
/// a finished one, shows how it was decided, and keeps it through the file, `remove` and a
/// GGF written from the archive; a version-2 file still reads; a stated result without a
/// score, on a finished game, or beyond the board is a damaged file.
#[test]
fn a_stated_result_counts_and_is_kept() {
    let start = Position::start(Size::Eight);
    let resigned = ArchivedGame {
        stated: Some(GameResult { black_score: -64, how: Some(How::Resigned) }),
        ..game("f5d6c3", "Ann")
    };
    let timed =
        ArchivedGame { stated: Some(GameResult { black_score: 2, how: Some(How::Time) }), ..game("f5f6e6", "Bob") };
    let mut a = Archive::default();
    a.add("x", 1, &[resigned.clone(), timed, game("f5d6c5", "Cy")]);
    a.add("y", 2, &[game("d3c3", "Di")]);
    a.finish();
    let f5 = |a: &Archive| {
        let s = a.stats(&start, &Filter::default());
        s.moves.into_iter().find(|m| m.square == Some("f5".parse().unwrap())).unwrap()
    };
    let m = f5(&a);
    assert_eq!((m.games, m.black_wins, m.draws, m.white_wins, m.unknown()), (3, 1, 0, 1, 1), "{m:?}");
    assert_eq!(m.mean_score(), Some(-31.0));
    assert_eq!(a.games[0].result_text(), "-64 resigned");
    assert_eq!(a.games[1].result_text(), "+2 on time");
    assert!(game_line(&a, &a.games[0]).starts_with(" -64 resigned      3  Ann"), "{}", game_line(&a, &a.games[0]));
    // Through the file, remove and GGF.
    let mut b = Archive::from_bytes(&a.to_bytes()).unwrap();
    assert_eq!(f5(&b), m);
    assert!(b.remove("y"));
    assert_eq!(f5(&b), m);
    let ggf = crate::notation::gamefile::ggf::write(&b.as_game(&b.games[0]), &[]);
    assert!(ggf.contains("RE[-64:r]"), "{ggf}");
    // A version-2 file has no such byte: its games read as before.
    let plain = {
        let mut p = Archive::default();
        p.add("x", 1, &[game("f5d6c3", "Ann")]);
        p.finish();
        p
    };
    assert_eq!(Archive::from_bytes(&plain.bytes_of_version(2)).unwrap().games, plain.games);
    // Damaged files.
    let mut bad = a.clone();
    bad.games[0].black_score = None;
    let e = Archive::from_bytes(&bad.to_bytes()).unwrap_err().to_string();
    assert!(e.contains("it is resigned with no score"), "{e}");
    let mut bad = a.clone();
    bad.games[0].black_score = Some(100);
    let e = Archive::from_bytes(&bad.to_bytes()).unwrap_err().to_string();
    assert!(e.contains("a stated score of +100 on 64 squares"), "{e}");
    let mut bytes = a.to_bytes();
    // The first game's how byte: after the header, sources, names and the fixed fields.
    let at = bytes.windows(4).position(|w| w == [-64i8 as u8, 2, 3, 37]).unwrap() + 1;
    bytes[at] = 9;
    let n = bytes.len() - 8;
    let sum = fnv1a(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
    let e = Archive::from_bytes(&bytes).unwrap_err().to_string();
    assert!(e.contains("game 1: 9 is no way a game is decided"), "{e}");
}
