//! The transposition table: a fixed-size, lockless table shared by every search thread and by
//! both kinds of search, the exact solver and the depth-limited estimate search. (The exact
//! search's nodes of at most [`LOCAL_TABLE_MAX`](super::settings::LOCAL_TABLE_MAX) empties keep
//! their bounds in each thread's small table instead, `local_table.rs`.)
//!
//! Each 64-byte bucket holds four entries of two words: the data (lower bound, upper bound, best
//! move, empties, depth, generation) and the position's 64-bit hash XORed with that data. A reader
//! that sees the two words from different writes finds the XOR wrong and treats the entry as
//! absent, so threads share the table without locks and never read a torn entry.
//!
//! **Depth.** An entry's `depth` says what its bounds are about. [`EXACT`] (255): bounds on the
//! exact score under the solver's scoring, facts that stay true between calls; the exact search
//! trusts only these. Any other depth `d`: bounds on the value of a `d`-ply search of the
//! evaluation, trusted by the estimate search when it needs `d` plies or fewer. Exact entries
//! serve both searches, since an exact bound is the best estimate there is. The best move of any
//! entry is only a hint for move ordering: the estimate search tries it first whatever its depth,
//! the exact search too, except an estimate's move where the node sorts by a search of the
//! evaluation (`regime.rs`, `Regime::table_move`).
//!
//! **Selectivity.** An entry also says how selective the search that found it was
//! ([`Entry::selectivity`], the level of [`super::selectivity::Selectivity`]; [`FULL_WIDTH`] for a
//! search that pruned nothing). A search trusts bounds at least as deep *and* at least as
//! full-width as its own: a 95% search trusts 95%, 98%, 99% and full-width entries, a full-width
//! search only full-width ones. Only a full-width entry of depth [`EXACT`] is a proof
//! ([`Entry::is_exact`]). An exact node with fewer than
//! [`PROBCUT_END_MIN`](super::settings::PROBCUT_END_MIN) empties stores its bounds as full-width
//! whatever the search under way: nothing below it prunes, so they are proofs (`search.rs`,
//! `Searcher::close`).
//!
//! **Merging** (an entry for the same position is already there):
//! - the same depth and selectivity: the tighter bounds win; two estimate searches of one depth
//!   may disagree (each probes entries the other did not see), and then the newer bounds replace
//!   the older;
//! - at least as deep and as full-width, one of them more (an exact result over an estimate, a
//!   deeper estimate over a shallower one, a full-width one over a selective one): the new bounds
//!   replace the old;
//! - less deep or less full-width on both counts or one: the old bounds stay, freshened for this
//!   generation; deeper but more selective (or the reverse): the new bounds, the search under way
//!   asked for them.
//!
//! The best move is the new one unless the new search found none.
//!
//! **Memory.** The buckets are allocated aligned to 2 MiB and, on Linux, advised onto huge pages
//! before they are first touched: a probe lands on a random bucket, so on 4 KiB pages nearly every
//! probe of a large table also missed the TLB (`Buckets`).
//!
//! **Replacement** (no entry for the position): the bucket's least valuable entry goes: one not
//! touched in this generation first, then the one cheapest to recompute, as Edax ranks them: the
//! entry keeps the size of the search that found it (the bits of its node count, [`work`]; the
//! larger of the two where entries merge), and the smallest goes. The subtree's size tells two
//! nodes of the same empties apart, a cut at the first move from a node that searched all its
//! moves, which the empties or the depth alone did not.

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
    /// Empty squares of the position.
    pub empties: u8,
    /// What the bounds are about: [`EXACT`] for the exact score, else the plies of the estimate
    /// search that found them.
    pub depth: u8,
    /// How selective the search that found them was: the level of
    /// [`Selectivity`](super::selectivity::Selectivity), [`FULL_WIDTH`] for none.
    pub selectivity: u8,
}

/// The `best` of an entry without a move.
pub const NO_MOVE: u8 = 255;

/// The size of a search as the table keeps it, for replacement: the bits of its node count (1 for
/// one node, 64 at most), so that a subtree twice as large ranks one higher.
#[inline(always)]
pub fn work(nodes: u64) -> u8 {
    (64 - nodes.max(1).leading_zeros()) as u8
}

/// The `depth` of an entry whose bounds are about the exact score.
pub const EXACT: u8 = 255;

/// The `selectivity` of an entry found by a search that pruned nothing.
pub const FULL_WIDTH: u8 = 5;

impl Entry {
    /// Whether the bounds are proven bounds on the exact score: found by the exact search, full
    /// width.
    #[inline(always)]
    pub fn is_exact(&self) -> bool {
        self.depth == EXACT && self.selectivity == FULL_WIDTH
    }

    /// Whether a search `depth` plies deep ([`EXACT`]: to the end) at selectivity level
    /// `selectivity` may take these bounds as its own: they are at least as deep and at least as
    /// full-width.
    #[inline(always)]
    pub fn serves(&self, depth: u8, selectivity: u8) -> bool {
        self.depth >= depth && self.selectivity >= selectivity
    }

    fn pack(self, generation: u8, work: u8) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | (generation as u64) << 32
            | 1 << 40 // occupied
            | ((work & 0x7f) as u64) << 41
            | (self.depth as u64) << 48
            | (self.selectivity as u64) << 56
    }

    /// The entry, its generation and its [`work`].
    fn unpack(data: u64) -> (Entry, u8, u8) {
        let e = Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            depth: (data >> 48) as u8,
            selectivity: (data >> 56) as u8,
        };
        (e, (data >> 32) as u8, (data >> 41) as u8 & 0x7f)
    }

    /// What the table keeps when `new` is stored over `self`, an entry for the same position (the
    /// merging rules of the module documentation).
    fn merge(self, new: Entry) -> Entry {
        let best = if new.best != NO_MOVE { new.best } else { self.best };
        if new.depth == self.depth && new.selectivity == self.selectivity {
            let (lower, upper) = (new.lower.max(self.lower), new.upper.min(self.upper));
            // Exact bounds from two searches of one position cannot cross unless one was wrong.
            debug_assert!(lower <= upper || !new.is_exact(), "crossed exact bounds {self:?} and {new:?}");
            if lower <= upper { Entry { lower, upper, best, ..new } } else { Entry { best, ..new } }
        } else if self.serves(new.depth, new.selectivity) {
            Entry { best: if self.best != NO_MOVE { self.best } else { new.best }, ..self }
        } else {
            Entry { best, ..new }
        }
    }
}

#[repr(C, align(64))]
struct Bucket {
    slots: [(AtomicU64, AtomicU64); 4],
}

/// Huge pages: memory is handed out in blocks of this size and alignment where the system
/// allows (2 MiB on x86-64 Linux).
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// The table's buckets: zeroed memory, aligned to [`HUGE_PAGE`] once it is at least that
/// large, and on Linux asked to live on huge pages (`madvise(MADV_HUGEPAGE)`) before it is first
/// touched. A probe goes to a random bucket, so with 4 KiB pages nearly every probe of a large
/// table also misses the TLB; on huge pages the every-child solve of FFO #43 took 14.3 s instead
/// of 16.2 s (docs/solver.md, "What each technique bought").
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: `Buckets` owns its memory as a `Box<[Bucket]>` would, and `Bucket` (atomics only) is
// `Send` and `Sync`.
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

#[cfg(target_os = "linux")]
unsafe extern "C" {
    /// `madvise(2)` from the C library (every Linux program links it).
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int) -> std::ffi::c_int;
}

/// `MADV_HUGEPAGE` (the same value on every Linux architecture).
#[cfg(target_os = "linux")]
const MADV_HUGEPAGE: std::ffi::c_int = 14;

impl Buckets {
    /// `count` all-zero buckets (`count >= 1`) for a table of `mb` MiB, or why not.
    fn new(count: usize, mb: usize) -> Result<Buckets, TableError> {
        let bytes = count.checked_mul(std::mem::size_of::<Bucket>()).ok_or(TableError::TooLarge { mb })?;
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { std::mem::align_of::<Bucket>() };
        let layout = std::alloc::Layout::from_size_align(bytes, align).map_err(|_| TableError::TooLarge { mb })?;
        // SAFETY: `layout` has a non-zero size (count >= 1, buckets are 64 bytes).
        let ptr = unsafe { std::alloc::alloc(layout) };
        let ptr = std::ptr::NonNull::new(ptr).ok_or(TableError::OutOfMemory { mb })?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // A hint: where it fails (huge pages off), the table works on small pages. The range
            // is ours and page-aligned.
            // SAFETY: `ptr` points to `bytes` bytes just allocated, aligned to HUGE_PAGE.
            let _ = unsafe { madvise(ptr.as_ptr().cast(), bytes, MADV_HUGEPAGE) };
        }
        // SAFETY: the `bytes` bytes at `ptr` are ours; all-zero buckets are valid (an
        // `AtomicU64` of zero is a valid value) and empty. Zeroing touches every page, after the
        // advice, so the system backs them with huge pages where it can.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, bytes) };
        Ok(Buckets { ptr: ptr.cast(), len: count, layout })
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` holds `len` initialised buckets for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `deref`, and `&mut self` is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `Buckets::new` with this layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// A fixed-size table of bounds, indexed by a hash of the position.
pub struct Table {
    buckets: Buckets,
    mask: usize,
    generation: AtomicU64,
    /// What tells this table's contents from every other table's, and from its own before a
    /// [`Table::clear`]: the small tables of the search threads (`local_table.rs`) hold the
    /// bounds of one table's searches only.
    id: u32,
}

/// The next [`Table::id`].
static NEXT_ID: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

fn next_id() -> u32 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// Asks the CPU to bring the cache line at `p` into the cache ahead of a read (a hint: nothing
/// happens where the CPU has no such instruction). The shared table's buckets and the threads'
/// small tables (`local_table.rs`) are asked for this way.
#[inline(always)]
pub(super) fn prefetch_line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
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

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The size in MiB does not fit in this machine's address space.
    TooLarge {
        /// The MiB asked for.
        mb: usize,
    },
    /// The memory could not be allocated.
    OutOfMemory {
        /// The MiB asked for.
        mb: usize,
    },
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::TooLarge { mb } => {
                write!(f, "a transposition table of {mb} MiB is larger than this machine can address")
            }
            TableError::OutOfMemory { mb } => {
                write!(f, "cannot allocate a transposition table of {mb} MiB: not enough memory")
            }
        }
    }
}

impl std::error::Error for TableError {}

impl Table {
    /// A table using at most `mb` MiB (at least 1 MiB, also for `mb = 0`); its size is the largest power of two
    /// of buckets that fits.
    ///
    /// # Panics
    ///
    /// When the memory cannot be allocated; [`Table::try_new`] returns an error instead.
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table using at most `mb` MiB, like [`Table::new`], or an error when the memory cannot be
    /// had: the allocation is fallible, so running out of memory is an error, not an abort.
    pub fn try_new(mb: usize) -> Result<Table, TableError> {
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or(TableError::TooLarge { mb })?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = if count.is_power_of_two() { count } else { count.next_power_of_two() / 2 };
        let buckets = Buckets::new(count, mb)?;
        Ok(Table { buckets, mask: count - 1, generation: AtomicU64::new(0), id: next_id() })
    }

    /// The memory the table holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Starts a new generation: entries of earlier searches become the first to be replaced.
    pub(crate) fn new_generation(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// What tells this table's contents apart: a number no other table of the process has had,
    /// renewed by [`Table::clear`].
    pub(crate) fn id(&self) -> u32 {
        self.id
    }

    /// Forgets every entry (the search threads' small tables too, by a new [`Table::id`]), and
    /// starts the generations again: a cleared table is in every way a new one, so a search from
    /// it does the same on every run (the review relies on it, `review::Reviewer`).
    pub fn clear(&mut self) {
        self.id = next_id();
        *self.generation.get_mut() = 0;
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

    /// Asks the CPU to bring the bucket of hash `h` into the cache, so that a probe soon after
    /// does not wait for memory (a hint: nothing happens where the CPU has no such instruction).
    #[inline(always)]
    pub(crate) fn prefetch(&self, h: u64) {
        prefetch_line::<Bucket>(self.bucket(h));
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

    /// Stores what a search found: the value is at least `lower` and at most `upper`, the exact
    /// score when `depth` is [`EXACT`], else the value of a `depth`-ply estimate search, found at
    /// selectivity level `selectivity` ([`FULL_WIDTH`]: a proof of that), by a search of
    /// [`work`]`(nodes)`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, h: u64, lower: i8, upper: i8, best: u8, empties: u8, depth: u8, selectivity: u8, work: u8) {
        let generation = self.generation.load(Ordering::Relaxed) as u8;
        let bucket = self.bucket(h);
        let new = Entry { lower, upper, best, empties, depth, selectivity };
        let mut victim = 0;
        let mut victim_value = u32::MAX;
        for (i, (k, d)) in bucket.slots.iter().enumerate() {
            let data = d.load(Ordering::Relaxed);
            if k.load(Ordering::Relaxed) ^ data == h && data != 0 {
                let (old, _, old_work) = Entry::unpack(data);
                let packed = old.merge(new).pack(generation, work.max(old_work));
                d.store(packed, Ordering::Relaxed);
                k.store(h ^ packed, Ordering::Relaxed);
                return;
            }
            let value = if data == 0 {
                0
            } else {
                let (_, g, w) = Entry::unpack(data);
                (if g == generation { 256 } else { 0 }) + w as u32 + 1
            };
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let packed = new.pack(generation, work);
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
        t.store(h, -4, 64, 3, 12, EXACT, FULL_WIDTH, 1);
        t.store(h, -64, 2, NO_MOVE, 12, EXACT, FULL_WIDTH, 1);
        assert_eq!(
            t.probe(h),
            Some(Entry { lower: -4, upper: 2, best: 3, empties: 12, depth: EXACT, selectivity: FULL_WIDTH })
        );
        assert_eq!(t.bytes(), 1024 * 1024);
    }

    #[test]
    fn a_table_beyond_any_machine_is_an_error_not_an_abort() {
        // 2^50 MiB overflows the byte count; 2^43 MiB is more than an allocation may be (isize::MAX
        // bytes). (Whether the system refuses a merely enormous size, like 2^40 MiB, depends on it:
        // some hand out zeroed address space lazily; the command line checks MemAvailable first.)
        assert_eq!(Table::try_new(1 << 50).err(), Some(TableError::TooLarge { mb: 1 << 50 }));
        assert_eq!(Table::try_new(1 << 43).err(), Some(TableError::TooLarge { mb: 1 << 43 }));
        let t = Table::try_new(2).expect("2 MiB");
        assert_eq!(t.bytes(), 2 * 1024 * 1024);
        assert_eq!(t.probe(hash(4, 0x0240, 0x0420)), None);
    }

    #[test]
    fn deeper_bounds_win_and_exact_ones_serve_both_searches() {
        let t = Table::new(1);
        let h = hash(8, 0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        // Estimates: a deeper one replaces a shallower one, a shallower one leaves the deeper.
        t.store(h, 2, 2, 10, 60, 4, FULL_WIDTH, 1);
        t.store(h, -6, 64, 11, 60, 6, FULL_WIDTH, 1);
        assert_eq!(
            t.probe(h),
            Some(Entry { lower: -6, upper: 64, best: 11, empties: 60, depth: 6, selectivity: FULL_WIDTH })
        );
        t.store(h, 0, 0, 12, 60, 3, FULL_WIDTH, 1);
        assert_eq!(
            t.probe(h),
            Some(Entry { lower: -6, upper: 64, best: 11, empties: 60, depth: 6, selectivity: FULL_WIDTH })
        );
        // The same depth: the tighter bounds; crossed ones (two estimates that disagree): the new.
        t.store(h, -64, 8, NO_MOVE, 60, 6, FULL_WIDTH, 1);
        assert_eq!(
            t.probe(h),
            Some(Entry { lower: -6, upper: 8, best: 11, empties: 60, depth: 6, selectivity: FULL_WIDTH })
        );
        t.store(h, 10, 64, 13, 60, 6, FULL_WIDTH, 1);
        assert_eq!(
            t.probe(h),
            Some(Entry { lower: 10, upper: 64, best: 13, empties: 60, depth: 6, selectivity: FULL_WIDTH })
        );
        // An exact result replaces any estimate, and no estimate replaces it.
        t.store(h, -64, -2, 14, 60, EXACT, FULL_WIDTH, 1);
        t.store(h, 20, 20, 15, 60, 30, FULL_WIDTH, 1);
        let e = t.probe(h).expect("stored");
        assert!(e.is_exact());
        assert_eq!((e.lower, e.upper, e.best), (-64, -2, 14));
    }

    #[test]
    fn a_selective_entry_serves_only_searches_as_selective_and_no_proof() {
        let t = Table::new(1);
        let h = hash(8, 0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        // An exact search at 95% (level 2): not a proof, trusted by a 73% or 95% search only.
        t.store(h, 4, 4, 10, 60, EXACT, 2, 1);
        let e = t.probe(h).expect("stored");
        assert!(!e.is_exact());
        assert!(e.serves(EXACT, 2) && e.serves(EXACT, 0) && !e.serves(EXACT, 3) && !e.serves(EXACT, FULL_WIDTH));
        assert!(e.serves(12, 1));
        // A 95% estimate of depth 12 does not replace it (less deep, as selective); a full-width
        // one does (neither serves the other: the newer search wins); a full-width exact result
        // replaces either.
        t.store(h, 0, 0, 11, 60, 12, 2, 1);
        assert_eq!(t.probe(h).map(|e| (e.depth, e.selectivity, e.best)), Some((EXACT, 2, 10)));
        t.store(h, 1, 1, 9, 60, 12, FULL_WIDTH, 1);
        assert_eq!(t.probe(h).map(|e| (e.depth, e.selectivity, e.lower)), Some((12, FULL_WIDTH, 1)));
        t.store(h, 2, 2, 12, 60, EXACT, FULL_WIDTH, 1);
        let e = t.probe(h).expect("stored");
        assert!(e.is_exact());
        assert_eq!((e.lower, e.upper), (2, 2));
        // And no selective result replaces a proof.
        t.store(h, 8, 8, 13, 60, EXACT, 4, 1);
        assert!(t.probe(h).expect("stored").is_exact());
    }

    #[test]
    fn replacement_takes_the_cheapest_entry_of_a_bucket() {
        let t = Table::new(1);
        let bucket_mates: Vec<u64> =
            (0u64..).map(|i| hash(8, i, !i)).filter(|h| (h >> 20) as usize & t.mask == 0).take(6).collect();
        // Four entries fill the bucket; the one found by the smallest search goes first, whatever
        // its empties or depth.
        t.store(bucket_mates[0], 0, 0, NO_MOVE, 20, EXACT, FULL_WIDTH, work(5_000));
        t.store(bucket_mates[1], 0, 0, NO_MOVE, 40, 12, FULL_WIDTH, work(90_000));
        t.store(bucket_mates[2], 0, 0, NO_MOVE, 24, EXACT, FULL_WIDTH, work(40));
        t.store(bucket_mates[3], 0, 0, NO_MOVE, 16, EXACT, FULL_WIDTH, work(700));
        t.store(bucket_mates[4], 1, 1, NO_MOVE, 40, 8, FULL_WIDTH, work(3_000));
        assert_eq!(t.probe(bucket_mates[2]), None);
        for h in [bucket_mates[0], bucket_mates[1], bucket_mates[3], bucket_mates[4]] {
            assert!(t.probe(h).is_some());
        }
        // A merge keeps the larger of the two searches: the 700-node entry searched again by a
        // million nodes ranks highest, the 3,000-node one met again by 2 nodes keeps its rank and
        // is now the smallest, so the next newcomer takes its slot.
        t.store(bucket_mates[3], 0, 0, NO_MOVE, 16, EXACT, FULL_WIDTH, work(1_000_000));
        t.store(bucket_mates[4], 1, 1, NO_MOVE, 40, 8, FULL_WIDTH, work(2));
        t.store(bucket_mates[5], 0, 0, NO_MOVE, 30, EXACT, FULL_WIDTH, work(4_000));
        assert_eq!(t.probe(bucket_mates[4]), None);
        for h in [bucket_mates[0], bucket_mates[1], bucket_mates[3], bucket_mates[5]] {
            assert!(t.probe(h).is_some());
        }
    }

    #[test]
    fn work_counts_the_bits_of_the_node_count() {
        assert_eq!(
            [work(0), work(1), work(2), work(3), work(4), work(1 << 20), work(u64::MAX)],
            [1, 1, 2, 2, 3, 21, 64]
        );
    }
}
