//! The transposition table: a fixed-size, lockless table shared by every search thread.
//!
//! Each 64-byte bucket holds four entries of two words: the data (lower bound, upper bound, best
//! move, empties, generation) and the position's 64-bit hash XORed with that data. A reader that
//! sees the two words from different writes finds the XOR wrong and treats the entry as absent,
//! so threads share the table without locks and never read a torn entry. Bounds are exact facts
//! about a position under the solver's scoring, so entries from any earlier search stay valid; the
//! generation only tells the replacement policy which ones the current search has used.
//!
//! Replacement: an entry for the same position is merged (the tighter bounds win); otherwise the
//! bucket's least valuable entry goes: one not touched in this generation first, then the one
//! with the fewest empties (the cheapest to recompute).

use std::sync::atomic::{AtomicU64, Ordering};

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// The best move's bit, or [`NO_MOVE`].
    pub best: u8,
    /// Empty squares of the position (its search cost, for replacement).
    pub empties: u8,
}

/// The `best` of an entry without a move.
pub const NO_MOVE: u8 = 255;

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | (generation as u64) << 32
            | 1 << 40 // occupied
    }

    fn unpack(data: u64) -> (Entry, u8) {
        let e = Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
        };
        (e, (data >> 32) as u8)
    }
}

#[repr(C, align(64))]
struct Bucket {
    slots: [(AtomicU64, AtomicU64); 4],
}

/// A fixed-size table of bounds, indexed by a hash of the position.
pub struct Table {
    buckets: Box<[Bucket]>,
    mask: usize,
    generation: AtomicU64,
}

/// A 64-bit hash of a position on an `n x n` board (side to move's discs, opponent's discs).
/// The size is part of the key: the same bits on two boards are two positions.
#[inline(always)]
pub fn hash(n: usize, p: u64, o: u64) -> u64 {
    let a = p.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let b = o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let h = a ^ b.rotate_left(29) ^ (n as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
    (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ (h >> 29)
}

impl Table {
    /// A table using at most `mb` MiB (at least 1 MiB, also for `mb = 0`); its size is the largest power of two
    /// of buckets that fits.
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) * 1024 * 1024;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = if count.is_power_of_two() { count } else { count.next_power_of_two() / 2 };
        let buckets: Box<[Bucket]> = (0..count)
            .map(|_| Bucket { slots: std::array::from_fn(|_| (AtomicU64::new(0), AtomicU64::new(0))) })
            .collect();
        Table { buckets, mask: count - 1, generation: AtomicU64::new(0) }
    }

    /// The memory the table holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Starts a new generation: entries of earlier searches become the first to be replaced.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            for (k, d) in &mut b.slots {
                *k.get_mut() = 0;
                *d.get_mut() = 0;
            }
        }
    }

    #[inline(always)]
    fn bucket(&self, h: u64) -> &Bucket {
        &self.buckets[(h >> 20) as usize & self.mask]
    }

    /// The entry of the position with hash `h`, if the table holds one.
    #[inline]
    pub fn probe(&self, h: u64) -> Option<Entry> {
        for (k, d) in &self.bucket(h).slots {
            let data = d.load(Ordering::Relaxed);
            if k.load(Ordering::Relaxed) ^ data == h && data != 0 {
                return Some(Entry::unpack(data).0);
            }
        }
        None
    }

    /// Stores what a search proved: the score is at least `lower` and at most `upper`.
    #[inline]
    pub fn store(&self, h: u64, lower: i8, upper: i8, best: u8, empties: u8) {
        let generation = self.generation.load(Ordering::Relaxed) as u8;
        let bucket = self.bucket(h);
        let mut victim = 0;
        let mut victim_value = u32::MAX;
        for (i, (k, d)) in bucket.slots.iter().enumerate() {
            let data = d.load(Ordering::Relaxed);
            if k.load(Ordering::Relaxed) ^ data == h && data != 0 {
                let (old, _) = Entry::unpack(data);
                let merged = Entry {
                    lower: lower.max(old.lower),
                    upper: upper.min(old.upper),
                    best: if best != NO_MOVE { best } else { old.best },
                    empties,
                };
                // Bounds from two searches of one position cannot cross unless one was wrong.
                debug_assert!(merged.lower <= merged.upper, "crossed bounds {merged:?}");
                let packed = merged.pack(generation);
                d.store(packed, Ordering::Relaxed);
                k.store(h ^ packed, Ordering::Relaxed);
                return;
            }
            let value = if data == 0 {
                0
            } else {
                let (e, g) = Entry::unpack(data);
                (if g == generation { 256 } else { 0 }) + e.empties as u32 + 1
            };
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let packed = Entry { lower, upper, best, empties }.pack(generation);
        let (k, d) = &bucket.slots[victim];
        d.store(packed, Ordering::Relaxed);
        k.store(h ^ packed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_merges_and_replaces() {
        let t = Table::new(1);
        let h = hash(4, 0x0240, 0x0420);
        assert_eq!(t.probe(h), None);
        t.store(h, -4, 64, 3, 12);
        t.store(h, -64, 2, NO_MOVE, 12);
        assert_eq!(t.probe(h), Some(Entry { lower: -4, upper: 2, best: 3, empties: 12 }));
        assert_eq!(t.bytes(), 1024 * 1024);
    }
}
