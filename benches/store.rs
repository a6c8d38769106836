//! Criterion benches of the store of proven results: lookups and inserts a second, on a store of
//! 100,000 random 8x8 entries in a file on disk (the temporary folder).
//!
//! - `store/lookup/get_many-10`: the explorer's pattern, ten positions (a position's children) in
//!   one read; every value read is checked against what was written, so a fast wrong answer fails.
//! - `store/lookup/get-1`: one position.
//! - `store/insert/put_many-10`: ten new entries in one transaction (what an analysis keeps).
//! - `store/insert/put_many-256`: 256 new entries in one transaction (a chunk of `store import`).
//!
//! Each transaction is durable when it returns (synced to the disk), so the insert rates are
//! bounded by the disk's sync, not by the store's code.
//!
//! Run: `cargo bench --bench store` (or, sharing the test build's artifacts,
//! `cargo bench --bench store --profile test`).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use othello_explorer::store::{Source, Store, Stored};
use othello_explorer::{Color, Position, Scoring, Size};
use std::hint::black_box;
use std::time::Duration;

/// Entries in the store the lookups read.
const FILLED: usize = 100_000;

/// xorshift64: random discs for distinct keys.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A random 8x8 position (discs anywhere; two random words make the key all but unique) and
    /// an exact score for it.
    fn entry(&mut self) -> (Position, Scoring, Stored) {
        let player = self.next() & self.next();
        let opponent = self.next() & !player;
        let position = Position::from_player(Size::Eight, player, opponent, Color::Black).expect("disjoint discs");
        let score = (self.next() % 129) as i32 - 64;
        (position, Scoring::Standard, Stored::exact(score, None, Source::Explorer))
    }
}

fn filled() -> (tempfile::TempDir, Store, Vec<(Position, Scoring, Stored)>) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let store = Store::open(&dir.path().join("store.redb")).expect("a new store");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let entries: Vec<_> = (0..FILLED).map(|_| rng.entry()).collect();
    for chunk in entries.chunks(1000) {
        store.put_many(chunk).expect("written");
    }
    (dir, store, entries)
}

fn lookup(c: &mut Criterion) {
    let (_dir, store, entries) = filled();
    let mut group = c.benchmark_group("store/lookup");
    group.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    let mut at = 0;
    group.throughput(Throughput::Elements(10));
    group.bench_function("get_many-10", |b| {
        b.iter(|| {
            at = (at + 10) % (FILLED - 10);
            let batch = &entries[at..at + 10];
            let queries: Vec<(Position, Scoring)> = batch.iter().map(|&(p, s, _)| (p, s)).collect();
            let found = store.get_many(black_box(&queries)).expect("read");
            for (got, (_, _, want)) in found.iter().zip(batch) {
                assert_eq!(got.map(|s| s.lower), Some(want.lower), "a value read back");
            }
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("get-1", |b| {
        b.iter(|| {
            at = (at + 1) % FILLED;
            let (p, s, want) = entries[at];
            let got = store.get(black_box(&p), s).expect("read");
            assert_eq!(got.map(|s| s.lower), Some(want.lower), "a value read back");
        })
    });
    group.finish();
}

fn insert(c: &mut Criterion) {
    let (_dir, store, _) = filled();
    let mut group = c.benchmark_group("store/insert");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for batch in [10usize, 256] {
        group.throughput(Throughput::Elements(batch as u64));
        group.bench_function(format!("put_many-{batch}"), |b| {
            b.iter_batched(
                || (0..batch).map(|_| rng.entry()).collect::<Vec<_>>(),
                |entries| {
                    let summary = store.put_many(black_box(&entries)).expect("written");
                    assert_eq!(summary.added + summary.merged + summary.unchanged, batch as u64);
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, lookup, insert);
criterion_main!(benches);
