//! Helpers for the unit tests of the engine's modules.

use crate::board::geometry::full_mask;

/// xorshift64: random enough for disc placements and square choices, with no dependency.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random positions of an `N x N` board from `seed`: every square empty, `p` or `o`, with
/// densities that vary from position to position (sparse, full, long opponent runs).
pub fn random_positions<const N: usize>(count: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut rng = Rng(seed ^ N as u64);
    (0..count)
        .map(|_| {
            let occupied = rng.next() | rng.next() & rng.next(); // ~5/8 of the squares
            let occupied = if rng.next().is_multiple_of(4) { occupied | rng.next() } else { occupied };
            let mine = if rng.next().is_multiple_of(3) { rng.next() & rng.next() } else { rng.next() };
            let p = occupied & mine & full_mask(N);
            let o = occupied & !mine & full_mask(N);
            (p, o)
        })
        .collect()
}
