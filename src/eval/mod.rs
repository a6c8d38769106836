//! Evaluation of midgame positions: an estimate of the final disc difference when the game is
//! too deep to solve.
//!
//! [`evaluate`] is the one entry point the search calls. The value is in discs, from the side to
//! move (`p`), clamped to one disc inside the board's range, and never claimed to be exact (except
//! at the end of the game, where it is the final score): only a proof reaches the largest score.
//!
//! The estimate is a sum of weights, one set per *stage* (a band of empty-square counts):
//!
//! - scalar features ([`features`]): mobility, potential mobility, parity, discs, each times its
//!   weight;
//! - pattern tables ([`pattern`]): for each placement of each pattern (every edge with its X
//!   squares, every corner region, lines, diagonals), the weight of its exact contents.
//!
//! The search does not read pattern indexes from the board: it keeps them up to date move by
//! move ([`indexes`]) and calls [`evaluate_indexed`]; [`evaluate`] reads them from scratch, and
//! [`evaluate_fine_plain`] is the plain twin both are tested against.
//!
//! The weights are trained by the project itself (`src/bin/fit-eval/`) on its own self-play games
//! and on positions it solves exactly, and shipped in `data/eval/` ([`weights`]); they are built
//! into the binary and parsed once, at first use. `docs/eval.md` explains the features, the
//! indexing, the file format and the training, with the measured accuracy.

pub mod features;
pub mod indexes;
pub mod network;
pub mod pattern;
pub mod weights;

use crate::board::geometry::{bit, full_mask};
use crate::board::isa::{Cpu, Isa};
use crate::board::rules::{final_score, legal_moves};
use crate::with_cpu;
use features::scalars_with_moves;
pub use indexes::Indexes;
use pattern::Row;
use pattern::{images, ternary_index_on};
pub use weights::{SCALE, Weights, WeightsError};

/// Which evaluation the estimate search reads at its leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Evaluator {
    /// The pattern tables ([`weights`]): on every board size.
    #[default]
    Patterns,
    /// The network ([`network`]) where one is shipped for the board (8x8), the pattern tables
    /// elsewhere.
    Network,
}

impl Evaluator {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Evaluator::Patterns => "patterns",
            Evaluator::Network => "network",
        }
    }

    /// The evaluator of that name.
    pub fn from_name(name: &str) -> Option<Evaluator> {
        [Evaluator::Patterns, Evaluator::Network].into_iter().find(|e| e.name() == name)
    }
}

/// The network's value of `p` (to move) against `o` in discs, from the kept indexes `own` and both
/// sides' legal moves (not both empty): [`evaluate_indexed`]'s counterpart.
#[inline(always)]
pub(crate) fn network_indexed<const N: usize, I: Isa>(
    net: &network::Network,
    isa: I,
    own: &Row,
    p: u64,
    o: u64,
    pm: u64,
    om: u64,
) -> i32 {
    estimate_in_discs::<N>(net.evaluate_fine_on::<N, I>(isa, own, p, o, pm, om))
}

/// An estimate of the final disc difference from `p`'s side (side to move), in `-N*N..=N*N`, with
/// the shipped fitted weights ([`evaluate_with`]).
///
/// ```
/// use othello_explorer::eval::evaluate;
/// // The 8x8 start, black to move: an estimate in the board's range.
/// let v = evaluate::<8>(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
/// assert!((-64..=64).contains(&v));
/// // A finished game is its final score: 4x4, all 16 squares black.
/// assert_eq!(evaluate::<4>(0xffff, 0), 16);
/// ```
#[inline]
pub fn evaluate<const N: usize>(p: u64, o: u64) -> i32 {
    let cpu = Cpu::detect();
    with_cpu!(cpu, isa => isa.enter(#[inline(always)] || evaluate_on::<N, _>(isa, p, o)))
}

/// [`evaluate`] by `evaluator`: the value the estimate search gives a leaf `p` (to move) against
/// `o` when it reads that evaluation (the network where one is shipped for the board and the
/// position has at least [`network::READS_FROM`] empties, else the pattern tables), in discs.
pub fn evaluate_by<const N: usize>(evaluator: Evaluator, p: u64, o: u64) -> i32 {
    let empties = (crate::board::geometry::full_mask(N) & !(p | o)).count_ones();
    match (evaluator, network::shipped(N)) {
        (Evaluator::Network, Some(net))
            if empties >= network::READS_FROM && !crate::board::rules::is_game_over::<N>(p, o) =>
        {
            estimate_in_discs::<N>(net.evaluate_fine_plain(p, o))
        }
        _ => evaluate::<N>(p, o),
    }
}

/// [`evaluate`] with the kernels of `isa`: what the search calls, inside its own compiled code.
#[inline(always)]
pub(crate) fn evaluate_on<const N: usize, I: Isa>(isa: I, p: u64, o: u64) -> i32 {
    match weights::shipped(N) {
        Ok(w) => in_discs::<N>(p, o, evaluate_fine_on::<N, I>(isa, w, p, o)),
        Err(_) => baseline::<N>(p, o),
    }
}

/// [`evaluate`] with the given weights, in discs.
#[inline]
pub fn evaluate_with<const N: usize>(w: &Weights, p: u64, o: u64) -> i32 {
    in_discs::<N>(p, o, evaluate_fine_with::<N>(w, p, o))
}

/// A value of [`evaluate_fine_with`] in discs: a finished game's exact score, else the estimate
/// rounded and [clamped](estimate_in_discs).
#[inline(always)]
fn in_discs<const N: usize>(p: u64, o: u64, fine: i32) -> i32 {
    if crate::board::rules::is_game_over::<N>(p, o) { fine.div_euclid(SCALE) } else { estimate_in_discs::<N>(fine) }
}

/// An estimate in 1/[`SCALE`] of a disc rounded to discs and clamped to one disc inside the
/// board's range: an estimate is never the largest score, because that score is a proof. A
/// search that reaches it has found a line of finished games, a wipe-out (`solver/probcut.rs`
/// proves won-by-everything positions so).
#[inline(always)]
fn estimate_in_discs<const N: usize>(fine: i32) -> i32 {
    let max = (N * N) as i32 - 1;
    (fine + SCALE / 2).div_euclid(SCALE).clamp(-max, max)
}

/// [`evaluate_with`] in 1/[`SCALE`] of a disc, unclamped: for a search that wants finer steps.
/// A finished game is its exact final score times [`SCALE`].
#[inline]
pub fn evaluate_fine_with<const N: usize>(w: &Weights, p: u64, o: u64) -> i32 {
    let cpu = Cpu::detect();
    with_cpu!(cpu, isa => isa.enter(#[inline(always)] || evaluate_fine_on::<N, _>(isa, w, p, o)))
}

/// [`evaluate_fine_with`] with the kernels of `isa`: each placement's index read through the
/// board's images and `pext` where the CPU has a fast one, and otherwise summed from every disc's
/// row of index deltas ([`indexes::Indexes::own_of`], as [`pattern::pattern_entries`] does).
#[inline(always)]
pub(crate) fn evaluate_fine_on<const N: usize, I: Isa>(isa: I, w: &Weights, p: u64, o: u64) -> i32 {
    debug_assert_eq!(w.n(), N, "weights for another board size");
    let pm = isa.legal_moves::<N>(p, o);
    let om = isa.legal_moves::<N>(o, p);
    if pm | om == 0 {
        return final_score::<N>(p, o) * SCALE;
    }
    if I::LEVEL < crate::board::isa::Level::Avx2Pext {
        // Without a fast `pext`, the indexes as the search keeps them, summed from every disc.
        let own = indexes::Indexes::own_of(w.layout(), p, o);
        return evaluate_fine_indexed::<N>(w, &own, p, o, pm, om);
    }
    let empties = (full_mask(N) & !(p | o)).count_ones() as usize;
    let stage = w.stage(w.stage_of(empties));
    let f = scalars_with_moves::<N>(p, o, pm, om);
    let mut sum: i32 = f.iter().zip(&stage.scalars).map(|(&x, &w)| x * w as i32).sum();
    let (pi, oi) = (images::<N>(p), images::<N>(o));
    let tables = &stage.tables[..];
    for inst in w.instances() {
        let g = inst.image as usize & 7;
        let i = inst.offset as usize + ternary_index_on(isa, pi[g], oi[g], inst.mask);
        sum += tables[i] as i32;
    }
    sum
}

/// The search's evaluation: [`evaluate_with`] from pattern indexes kept move by move (`own`, the
/// [`Indexes::own`] of `p` against `o`), given both sides' legal moves (`pm` of `p`, `om` of `o`),
/// which must not both be empty. The same value as [`evaluate_with`].
#[inline(always)]
pub fn evaluate_indexed<const N: usize>(w: &Weights, own: &Row, p: u64, o: u64, pm: u64, om: u64) -> i32 {
    estimate_in_discs::<N>(evaluate_fine_indexed::<N>(w, own, p, o, pm, om))
}

/// [`evaluate_indexed`] in 1/[`SCALE`] of a disc, unclamped.
#[inline(always)]
pub(crate) fn evaluate_fine_indexed<const N: usize>(w: &Weights, own: &Row, p: u64, o: u64, pm: u64, om: u64) -> i32 {
    debug_assert_eq!(w.n(), N, "weights for another board size");
    debug_assert!(pm | om != 0, "a finished game has its exact score");
    let empties = (full_mask(N) & !(p | o)).count_ones() as usize;
    let stage = w.stage(w.stage_of(empties));
    let f = scalars_with_moves::<N>(p, o, pm, om);
    let mut sum: i32 = f.iter().zip(&stage.scalars).map(|(&x, &w)| x * w as i32).sum();
    let tables = &stage.tables[..];
    let layout = w.layout();
    let lanes = pattern::placements(N);
    debug_assert_eq!(lanes, layout.instances.len());
    for (&offset, &index) in layout.lane_offsets[..lanes].iter().zip(&own.0[..lanes]) {
        sum += tables[offset as usize + index as usize] as i32;
    }
    sum
}

/// [`evaluate_fine_with`]'s plain twin: the dot product of the features the fitting tool sees
/// ([`features::scalars`] and [`pattern::pattern_entries_scalar`]) with the weights.
pub fn evaluate_fine_plain(w: &Weights, p: u64, o: u64) -> i32 {
    let n = w.n();
    let (f, over) = match n {
        4 => (features::scalars::<4>(p, o), crate::board::rules::is_game_over::<4>(p, o)),
        6 => (features::scalars::<6>(p, o), crate::board::rules::is_game_over::<6>(p, o)),
        _ => (features::scalars::<8>(p, o), crate::board::rules::is_game_over::<8>(p, o)),
    };
    if over {
        let (mp, mo) = (p.count_ones() as i32, o.count_ones() as i32);
        let empties = (n * n) as i32 - mp - mo;
        let diff = mp - mo;
        let score = diff + diff.signum() * empties;
        return score * SCALE;
    }
    let empties = (full_mask(n) & !(p | o)).count_ones() as usize;
    let stage = w.stage(w.stage_of(empties));
    let mut entries = Vec::new();
    pattern::pattern_entries_scalar(n, p, o, &mut entries);
    f.iter().zip(&stage.scalars).map(|(&x, &w)| x * w as i32).sum::<i32>()
        + entries.iter().map(|&e| stage.tables[e as usize] as i32).sum::<i32>()
}

/// The hand-written stand-in the fitted evaluation replaced, kept as the baseline it is measured
/// against: mobility difference plus four times the corner difference, within one disc of the
/// board's range as every estimate.
///
/// ```
/// use othello_explorer::eval::baseline;
/// assert_eq!(baseline::<8>(0x0000_0008_1000_0000, 0x0000_0010_0800_0000), 0);
/// ```
pub fn baseline<const N: usize>(p: u64, o: u64) -> i32 {
    let corners = 1u64 << bit(N, 0, 0) | 1 << bit(N, N - 1, 0) | 1 << bit(N, 0, N - 1) | 1 << bit(N, N - 1, N - 1);
    let pm = legal_moves::<N>(p, o);
    let om = legal_moves::<N>(o, p);
    let mobility = pm.count_ones() as i32 - om.count_ones() as i32;
    let corner_discs = (p & corners).count_ones() as i32 - (o & corners).count_ones() as i32;
    let max = (N * N) as i32 - 1;
    (mobility + 4 * corner_discs).clamp(-max, max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    #[test]
    fn the_fast_evaluation_matches_its_plain_twin() {
        let mut rng = Rng(0xe7a1);
        for n in [4usize, 6, 8] {
            let w = random_weights(&mut rng, n);
            for _ in 0..300 {
                let a = rng.next() & full_mask(n);
                let b = rng.next() & full_mask(n) & !a;
                let plain = evaluate_fine_plain(&w, a, b);
                for cpu in Cpu::available() {
                    let fast = with_cpu!(cpu, isa => isa.enter(#[inline(always)] || match n {
                        4 => evaluate_fine_on::<4, _>(isa, &w, a, b),
                        6 => evaluate_fine_on::<6, _>(isa, &w, a, b),
                        _ => evaluate_fine_on::<8, _>(isa, &w, a, b),
                    }));
                    assert_eq!(fast, plain, "{cpu:?} n={n} {a:#x} {b:#x}");
                }
            }
        }
    }

    /// Random weights of every size: scalars and tables both non-zero.
    fn random_weights(rng: &mut Rng, n: usize) -> Weights {
        let mut w = Weights::zero(n, if n == 4 { 1 } else { n / 2 });
        for s in 0..w.stages().len() {
            let mut stage = w.stage(s).clone();
            for v in &mut stage.scalars {
                *v = (rng.next() % 200) as i16 - 100;
            }
            for v in &mut stage.tables {
                *v = (rng.next() % 2000) as i16 - 1000;
            }
            w.set_stage(s, stage);
        }
        w
    }

    /// Along random games of every size, at every level: the indexes a move makes are the ones
    /// read from the board (`pattern::ternary_index` on each placement's image), from both sides,
    /// and the evaluation from them is the plain twin's.
    #[test]
    fn kept_indexes_match_the_board_and_the_plain_twin() {
        fn check<const N: usize>(rng: &mut Rng, w: &Weights) {
            let layout = pattern::Layout::of(N);
            for _ in 0..40 {
                let (mut p, mut o) =
                    crate::board::position::Position::start(crate::board::size::Size::from_n(N).unwrap()).raw();
                let mut ix = Indexes::new(layout, p, o);
                loop {
                    let (pi, oi) = (images::<N>(p), images::<N>(o));
                    for (k, inst) in layout.instances.iter().enumerate() {
                        let g = inst.image as usize;
                        assert_eq!(ix.own.0[k] as usize, pattern::ternary_index(pi[g], oi[g], inst.mask));
                        assert_eq!(ix.theirs.0[k] as usize, pattern::ternary_index(oi[g], pi[g], inst.mask));
                    }
                    assert!(ix.own.0[layout.instances.len()..].iter().all(|&x| x == 0));
                    let (pm, om) = (legal_moves::<N>(p, o), legal_moves::<N>(o, p));
                    if pm | om == 0 {
                        break;
                    }
                    let plain = evaluate_fine_plain(w, p, o);
                    for cpu in Cpu::available() {
                        let fast = with_cpu!(cpu, isa => isa.enter(#[inline(always)] || {
                            let _ = isa;
                            evaluate_fine_indexed::<N>(w, &ix.own, p, o, pm, om)
                        }));
                        assert_eq!(fast, plain, "{cpu:?} n={N} {p:#x} {o:#x}");
                    }
                    if pm == 0 {
                        (p, o, ix) = (o, p, ix.pass());
                        continue;
                    }
                    let moves: Vec<u32> = (0..64).filter(|&b| pm >> b & 1 != 0).collect();
                    let sq = moves[(rng.next() % moves.len() as u64) as usize];
                    let f = crate::board::rules::flips::<N>(p, o, sq);
                    for cpu in Cpu::available() {
                        let (next, own) = with_cpu!(cpu, isa => isa.enter(#[inline(always)] || {
                            let _ = isa;
                            (ix.play(layout, sq, f), ix.play_own(layout, sq, f))
                        }));
                        assert_eq!(next, Indexes::new(layout, o ^ f, p ^ f ^ (1 << sq)), "{cpu:?}");
                        assert_eq!(own, next.own, "{cpu:?}");
                    }
                    ix = ix.play(layout, sq, f);
                    (p, o) = (o ^ f, p ^ f ^ (1 << sq));
                }
            }
        }
        let mut rng = Rng(0x1dec);
        for n in [4, 6, 8] {
            let w = random_weights(&mut rng, n);
            match n {
                4 => check::<4>(&mut rng, &w),
                6 => check::<6>(&mut rng, &w),
                _ => check::<8>(&mut rng, &w),
            }
        }
    }
}
