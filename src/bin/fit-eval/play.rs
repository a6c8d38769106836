//! Positions played for the fit: the seeded random stream every generator shares, moves on raw
//! bitboards, randomised games from the start, and one position per stage from each game.

use othello_explorer::board::geometry::full_mask;
use othello_explorer::board::rules::{flips, legal_moves};
use othello_explorer::eval::baseline;
use othello_explorer::{Position, Size};
use std::collections::HashSet;

/// splitmix64: a seeded stream of random numbers.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
}

pub(crate) fn empties<const N: usize>(p: u64, o: u64) -> usize {
    (full_mask(N) & !(p | o)).count_ones() as usize
}

pub(crate) fn squares(mut m: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let sq = m.trailing_zeros();
            m &= m - 1;
            sq
        })
    })
}

pub(crate) fn play<const N: usize>(p: u64, o: u64, sq: u32) -> (u64, u64) {
    let f = flips::<N>(p, o, sq);
    (o & !f, p | f | 1 << sq)
}

pub(crate) fn start<const N: usize>() -> (u64, u64) {
    let (p, o) = Position::start(Size::from_n(N).expect("4, 6 or 8")).raw();
    (p, o)
}

/// One lightly randomised game: every position with a move to play, in order. Each move is random
/// or the hand-written stand-in's greedy choice, half and half.
pub(crate) fn game<const N: usize>(rng: &mut Rng) -> Vec<(u64, u64)> {
    // A position with a move to play has an empty square, so the game is never cut short.
    game_played::<N>(rng, 0, 2, |cp, co, _| -baseline::<N>(cp, co))
}

/// A randomised game from the start: every position with a move to play, in order, up to the first
/// with at most `stop` empties. Each move is random when the next number is a multiple of `one_in`,
/// else the move whose child has the highest `value(child's p, child's o, empties before the
/// move)`, ties broken at random (the list is walked from a random start).
pub(crate) fn game_played<const N: usize>(
    rng: &mut Rng,
    stop: usize,
    one_in: u64,
    value: impl Fn(u64, u64, usize) -> i32,
) -> Vec<(u64, u64)> {
    let (mut p, mut o) = start::<N>();
    let mut out = Vec::new();
    loop {
        let moves = legal_moves::<N>(p, o);
        if moves == 0 {
            if legal_moves::<N>(o, p) == 0 {
                return out;
            }
            (p, o) = (o, p);
            continue;
        }
        out.push((p, o));
        let empties = empties::<N>(p, o);
        if empties <= stop {
            return out;
        }
        let list: Vec<u32> = squares(moves).collect();
        let sq = if rng.next().is_multiple_of(one_in) {
            list[rng.below(list.len())]
        } else {
            let k = rng.below(list.len());
            let mut best = (i32::MIN, list[k]);
            for i in 0..list.len() {
                let sq = list[(k + i) % list.len()];
                let (cp, co) = play::<N>(p, o, sq);
                let v = value(cp, co, empties);
                if v > best.0 {
                    best = (v, sq);
                }
            }
            best.1
        };
        (p, o) = play::<N>(p, o, sq);
    }
}

/// Positions per stage: from each game, one at a random number of empties within each stage.
pub(crate) fn sample<const N: usize>(games: usize, seed: u64) -> Vec<Vec<(u64, u64)>> {
    let stages = (N * N - 4) / bucket(N) + 1;
    let mut rng = Rng(seed);
    let mut per_stage = vec![Vec::new(); stages];
    let mut seen = HashSet::new();
    for _ in 0..games {
        let g = game::<N>(&mut rng);
        for (s, stage) in per_stage.iter_mut().enumerate() {
            let e = s * bucket(N) + rng.below(bucket(N));
            if let Some(&(p, o)) = g.iter().find(|&&(p, o)| empties::<N>(p, o) == e)
                && seen.insert((p, o))
            {
                stage.push((p, o));
            }
        }
    }
    per_stage
}

/// The stage widths, in empties: 1 on 4x4, 2 on 6x6, 4 on 8x8.
pub(crate) const fn bucket(n: usize) -> usize {
    match n {
        4 => 1,
        6 => 2,
        _ => 4,
    }
}

/// FNV-1a of the shipped weights the games were played with: the games depend on them.
pub fn weights_fingerprint(n: usize) -> u64 {
    fingerprint_of(othello_explorer::eval::weights::shipped_bytes(n))
}

/// The FNV-1a hash of a file's bytes: its fingerprint in the headers.
pub fn fingerprint_of(bytes: &[u8]) -> u64 {
    othello_explorer::notation::checksum::fnv1a(bytes)
}
