//! The eight symmetries against a naive per-square mapping written here, and the canonical form.

mod common;
mod reference;

use common::{any_board, any_size, size_of, to_position};
use othello_explorer::Square;
use othello_explorer::board::symmetry::{Symmetry, canonical};
use proptest::prelude::*;
use reference::{bit_of, mask_of, name};

/// Where the square at (`col`, `row`) goes, written out per symmetry (rows counted from the top,
/// so a quarter turn clockwise takes `a1` to the top-right corner).
fn naive_map(s: Symmetry, n: usize, col: usize, row: usize) -> (usize, usize) {
    let last = n - 1;
    match s {
        Symmetry::Identity => (col, row),
        Symmetry::MirrorColumns => (last - col, row),
        Symmetry::FlipRows => (col, last - row),
        Symmetry::Rotate180 => (last - col, last - row),
        Symmetry::Transpose => (row, col),
        Symmetry::Rotate90 => (last - row, col),
        Symmetry::Rotate270 => (row, last - col),
        Symmetry::AntiTranspose => (last - row, last - col),
    }
}

/// The image of a mask, one square at a time.
fn naive_apply(s: Symmetry, n: usize, bits: u64) -> u64 {
    let mut out = 0;
    for row in 0..n {
        for col in 0..n {
            if bits >> bit_of(n, col, row) & 1 == 1 {
                let (c, r) = naive_map(s, n, col, row);
                out |= 1u64 << bit_of(n, c, r);
            }
        }
    }
    out
}

fn full(n: usize) -> u64 {
    if n == 8 { u64::MAX } else { (1u64 << (n * n)) - 1 }
}

#[test]
fn corners_go_where_the_names_say() {
    for n in [4, 6, 8] {
        let size = size_of(n);
        let last = (b'a' + n as u8 - 1) as char;
        let corner = |c: char, r: usize| -> Square { format!("{c}{r}").parse().expect("a square") };
        let a1 = corner('a', 1);
        assert_eq!(Symmetry::Identity.apply_square(size, a1), a1);
        assert_eq!(Symmetry::MirrorColumns.apply_square(size, a1), corner(last, 1));
        assert_eq!(Symmetry::FlipRows.apply_square(size, a1), corner('a', n));
        assert_eq!(Symmetry::Rotate180.apply_square(size, a1), corner(last, n));
        assert_eq!(Symmetry::Transpose.apply_square(size, a1), a1);
        assert_eq!(Symmetry::Rotate90.apply_square(size, a1), corner(last, 1), "clockwise");
        assert_eq!(Symmetry::Rotate270.apply_square(size, a1), corner('a', n), "counter-clockwise");
        assert_eq!(Symmetry::AntiTranspose.apply_square(size, a1), corner(last, n));
        // b1 tells the transposes and the quarter turns apart.
        let b1 = corner('b', 1);
        assert_eq!(Symmetry::Transpose.apply_square(size, b1), corner('a', 2));
        assert_eq!(Symmetry::Rotate90.apply_square(size, b1), corner(last, 2));
        assert_eq!(Symmetry::Rotate270.apply_square(size, b1), corner('a', n - 1));
        assert_eq!(Symmetry::AntiTranspose.apply_square(size, b1), corner(last, n - 1));
    }
}

#[test]
fn every_square_maps_like_the_naive_mapping() {
    for n in [4, 6, 8] {
        let size = size_of(n);
        for s in Symmetry::ALL {
            for row in 0..n {
                for col in 0..n {
                    let (c, r) = naive_map(s, n, col, row);
                    let from: Square = name(n, row * n + col).parse().expect("a square");
                    let to: Square = name(n, r * n + c).parse().expect("a square");
                    assert_eq!(s.apply_square(size, from), to, "{} of {from} on {n}x{n}", s.name());
                    assert_eq!(s.apply(size, 1u64 << bit_of(n, col, row)), 1u64 << bit_of(n, c, r));
                }
            }
        }
    }
}

#[test]
fn the_eight_are_distinct_and_close_under_inverse() {
    assert_eq!(Symmetry::ALL.len(), 8);
    assert_eq!(Symmetry::ALL[0], Symmetry::Identity);
    // An asymmetric mask has eight different images.
    for n in [4, 6, 8] {
        let shape = 1u64 << bit_of(n, 1, 0) | 1u64 << bit_of(n, 2, 0) | 1u64 << bit_of(n, 1, 1);
        let mut images: Vec<u64> = Symmetry::ALL.iter().map(|s| s.apply(size_of(n), shape)).collect();
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), 8, "{n}x{n}");
    }
    let mut names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 8);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn masks_map_like_the_naive_mapping(n in any_size(), raw in any::<u64>()) {
        let bits = raw & full(n);
        for s in Symmetry::ALL {
            let image = s.apply(size_of(n), bits);
            prop_assert_eq!(image, naive_apply(s, n, bits), "{} on {}x{}", s.name(), n, n);
            prop_assert_eq!(s.inverse().apply(size_of(n), image), bits, "inverse of {}", s.name());
            prop_assert_eq!(naive_apply(s.inverse(), n, image), bits, "naive inverse of {}", s.name());
        }
    }

    #[test]
    fn positions_map_like_the_naive_mapping(board in any_board()) {
        let n = board.n;
        let pos = to_position(&board);
        for s in Symmetry::ALL {
            let image = s.apply_position(&pos);
            prop_assert_eq!(image.to_move(), pos.to_move());
            prop_assert_eq!(image.black().bits(), naive_apply(s, n, board.black_bits()));
            prop_assert_eq!(image.white().bits(), naive_apply(s, n, board.white_bits()));
            prop_assert_eq!(s.inverse().apply_position(&image), pos);
            // The rules do not care how the board is turned.
            prop_assert_eq!(image.legal_moves().bits(), naive_apply(s, n, mask_of(n, &board.moves())));
        }
    }

    /// All eight images share one canonical key: the smallest (player, opponent) image, found
    /// here naively; the symmetry returned produces it.
    #[test]
    fn canonical_is_shared_by_all_images(board in any_board()) {
        let n = board.n;
        let pos = to_position(&board);
        let (p, o) = (board.bits(board.to_move), board.bits(board.to_move.other()));
        let smallest = Symmetry::ALL.iter().map(|&s| (naive_apply(s, n, p), naive_apply(s, n, o))).min().expect("eight");
        let (key, sym) = canonical(&pos);
        prop_assert_eq!(key, smallest);
        prop_assert_eq!((naive_apply(sym, n, p), naive_apply(sym, n, o)), key);
        for s in Symmetry::ALL {
            prop_assert_eq!(canonical(&s.apply_position(&pos)).0, key, "image under {}", s.name());
        }
    }
}
