//! The pattern evaluation's unit tests: indexes against a square-by-square reading, kernels
//! against their plain twins.

use super::*;
use crate::testing::Rng;

fn random_board(rng: &mut Rng, n: usize) -> (u64, u64) {
    let full = crate::board::geometry::full_mask(n);
    let a = rng.next() & full;
    let b = rng.next() & full & !a;
    (a, b)
}

#[test]
fn images_match_the_symmetry_module() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ 7);
    for _ in 0..500 {
        for size in Size::ALL {
            let x = rng.next() & size.full();
            let got = match size {
                Size::Four => images::<4>(x),
                Size::Six => images::<6>(x),
                Size::Eight => images::<8>(x),
            };
            for (i, s) in Symmetry::ALL.iter().enumerate() {
                assert_eq!(got[i], s.apply(size, x), "{size:?} {s:?} {x:#x}");
            }
        }
    }
}

#[test]
fn ternary_digits() {
    assert_eq!(TERNARY[0b101], 10);
    assert_eq!(TERNARY[0b11_1111_1111], 29524);
}

#[test]
fn fast_entries_match_the_square_by_square_reading() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ 11);
    for _ in 0..300 {
        for n in [4, 6, 8] {
            let (p, o) = random_board(&mut rng, n);
            let mut plain = Vec::new();
            pattern_entries_scalar(n, p, o, &mut plain);
            for cpu in crate::board::isa::Cpu::available() {
                let mut fast = Vec::new();
                crate::with_cpu!(cpu, isa => isa.enter(#[inline(always)] || match n {
                    4 => pattern_entries_on::<4, _>(isa, p, o, &mut fast),
                    6 => pattern_entries_on::<6, _>(isa, p, o, &mut fast),
                    _ => pattern_entries_on::<8, _>(isa, p, o, &mut fast),
                }));
                assert_eq!(fast, plain, "{cpu:?} n={n} {p:#x} {o:#x}");
            }
            let mut detected = Vec::new();
            match n {
                4 => pattern_entries::<4>(p, o, &mut detected),
                6 => pattern_entries::<6>(p, o, &mut detected),
                _ => pattern_entries::<8>(p, o, &mut detected),
            }
            assert_eq!(detected, plain, "n={n} {p:#x} {o:#x}");
        }
    }
}

#[test]
fn the_worked_example_of_docs_eval_md() {
    // a1 b1 to move, c1 and b2 opponent's: digits lowest first g2 b2 h1 g1 f1 e1 d1 c1 b1 a1.
    let (p, o) = (1u64 << 63 | 1 << 62, 1u64 << 61 | 1 << 54);
    let mask = PATTERNS_8[0].mask(8);
    assert_eq!(mask, 0xff42_0000_0000_0000);
    assert_eq!((gather(p, mask), gather(o, mask)), (0b11_0000_0000, 0b00_1000_0010));
    assert_eq!(ternary_index(p, o, mask), 30624);
}

#[test]
fn placements_cover_the_board_as_expected() {
    assert_eq!(Layout::of(8).instances.len(), 46);
    assert_eq!(Layout::of(6).instances.len(), 38);
    assert_eq!(Layout::of(4).instances.len(), 14);
    for n in [4, 6, 8] {
        assert_eq!(placements(n), Layout::of(n).instances.len());
    }
    // The top edge read backwards is the same entry.
    let l = Layout::of(8);
    let edge = PATTERNS_8[0].mask(8);
    let a1 = 1u64 << 63;
    let h1 = 1u64 << 56;
    let forward = ternary_index(a1, 0, edge);
    let backward = ternary_index(h1, 0, edge);
    assert_ne!(forward, backward);
    assert_eq!(l.canon[forward], l.canon[backward]);
}
