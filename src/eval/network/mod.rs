//! The network evaluation: pattern indexes into a first layer of embedding sums, then small
//! integer layers, one stack of them per stage (`docs/network.md`).
//!
//! # The computation (integers throughout; the trainer's float model is the same with the scales
//! divided out)
//!
//! 1. **First layer.** Every placement `k` of the size's pattern [`Layout`] reads its index from
//!    the position (the search keeps them move by move, [`super::Indexes`]); entry
//!    `lane_offsets[k] + own[k]` of the embedding table is a row of [`HIDDEN`] `i8`. The sum of
//!    the 46 rows (8x8) and the `i16` bias, with saturating adds, is the first layer's output, in
//!    units of 1/128 ([`Q1`]). A table row is 32 bytes, half a cache line.
//! 2. **Activation.** Each sum clamped to `0..=128` (the clipped ReLU, 1.0 = 128); beside them,
//!    [`SCALARS`] inputs from the legal-move masks the search has at hand: each side's mobility
//!    (4 a move), each side's potential mobility (3 an empty square beside the other side), the
//!    parity of the empties (128 when odd), each clamped to `0..=128`; then zeros to
//!    [`INPUTS2`].
//! 3. **Second layer**, of the position's stage: [`HIDDEN2`] dot products of the [`INPUTS2`]
//!    inputs with `i16` weights (1/64), plus an `i32` bias (1/8192); each result shifted down by 6
//!    (floor) and clamped to `0..=128`.
//! 4. **Output**, of the stage: a dot product with [`HIDDEN2`] `i16` weights (1/64 of a disc per
//!    unit) plus an `i32` bias, shifted down by 7: the value in 1/[`super::SCALE`] of a disc.
//!
//! A stage is `bucket` empties (`stage = min(empties / bucket, stages - 1)`), as the pattern
//! weights' stages are.
//!
//! The kernels of steps 1 and 3 ([`kernels`]) have an AVX2 version, chosen with the search's
//! instruction set ([`crate::board::isa`]), and a plain twin that the tests compare on random positions.
//!
//! # Why the first layer is summed at the leaf from the kept indexes
//!
//! The indexes are what travels move by move: an update adds a few rows of `u16`. Keeping the
//! first layer's sums themselves up to date needs them from both sides' points of view (the
//! child's side to move is the parent's opponent). [`Network::update_sums`] does it (a move
//! changes 11.9 of the 46 placements on average): an evaluated child's own view costs less than
//! the sum at the leaf, but every node above the leaves pays for both views, and the balance is
//! a per cent or two of a node. `docs/network.md` gives the measures.

pub mod file;
pub mod kernels;

use super::pattern::{Layout, Row, placements};
use crate::board::geometry::full_mask;
use crate::board::isa::Isa;
use std::sync::OnceLock;

pub use file::{NetworkError, VERSION};

/// The fewest empty squares of a position the search reads the network at: it is trained on
/// positions of 10 empties and more, and below them the pattern tables read better (a fit that
/// took in the perfect lines' last ten empties still erred 5.2 discs there against the tables'
/// 4.3; `docs/network.md`, "The last ten empties"), so the search evaluates those by the tables.
pub const READS_FROM: u32 = 10;

/// Width of the first layer.
pub const HIDDEN: usize = 32;
/// Scalar inputs beside the first layer's outputs.
pub const SCALARS: usize = 5;
/// Inputs of the second layer: the first layer, the scalars, zeros (a whole number of 16-lane
/// vectors).
pub const INPUTS2: usize = 48;
/// Width of the second layer.
pub const HIDDEN2: usize = 32;
/// The first layer's unit: 1.0 = 128.
pub const Q1: i32 = 128;

/// One stage's layers after the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    /// `HIDDEN2` rows of `INPUTS2` weights (1/64).
    pub w2: Vec<i16>,
    /// `HIDDEN2` biases (1/8192).
    pub b2: Vec<i32>,
    /// `HIDDEN2` output weights (1/64 of a disc).
    pub w3: Vec<i16>,
    /// The output's bias (1/8192 of a disc).
    pub b3: i32,
    /// `w2` laid out for the vector kernel ([`kernels::interleave`]): for each pair of inputs
    /// and each block of 8 outputs, the 8 outputs' two weights side by side.
    pub(crate) w2_pairs: Vec<i16>,
}

/// A network for one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub(crate) n: usize,
    pub(crate) bucket: usize,
    /// The embedding of every table entry (`Layout::table_len` rows of [`HIDDEN`]), each row the
    /// row of its canonical entry; 32-byte aligned rows.
    pub(crate) table: Vec<kernels::TableRow>,
    pub(crate) bias1: kernels::Bias,
    pub(crate) stacks: Vec<Stack>,
    pub(crate) stage_by_empties: [u8; 65],
    pub(crate) layout: &'static Layout,
    /// The network's own version, from its file.
    pub(crate) version: u32,
}

impl Network {
    /// The board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The version the file gives this network.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The stage of a position with `empties` empty squares.
    #[inline(always)]
    pub fn stage_of(&self, empties: usize) -> usize {
        self.stage_by_empties[empties.min(64)] as usize
    }

    /// The scalar inputs of `p` (to move) against `o`, given both sides' legal moves (`pm` of `p`,
    /// `om` of `o`), in the network's units.
    #[inline(always)]
    pub fn scalars_of<const N: usize>(p: u64, o: u64, pm: u64, om: u64) -> [i16; SCALARS] {
        let empty = full_mask(N) & !(p | o);
        let c = |x: u64, k: u32| (x.count_ones() * k).min(128) as i16;
        [
            c(pm, 4),
            c(om, 4),
            c(empty & super::features::neighbours::<N>(o), 3),
            c(empty & super::features::neighbours::<N>(p), 3),
            ((empty.count_ones() & 1) * 128) as i16,
        ]
    }

    /// The first layer of the placements' indexes `own` on the board of side `N` (the sums,
    /// clamped), with the kernels of `isa`, in the second layer's inputs (the rest zero).
    #[inline(always)]
    pub fn first_layer<const N: usize, I: Isa>(&self, _isa: I, own: &Row) -> [i16; INPUTS2] {
        let lanes = placements(N);
        let mut inputs = [0i16; INPUTS2];
        let (offsets, indexes) = (&self.layout.lane_offsets[..lanes], &own.0[..lanes]);
        #[cfg(target_arch = "x86_64")]
        if I::LEVEL >= crate::board::isa::Level::Avx2 {
            // SAFETY: the token proves AVX2 (every level from `Avx2` up has it).
            unsafe { kernels::first_layer_avx2(&self.table, &self.bias1, offsets, indexes, &mut inputs) };
            return inputs;
        }
        kernels::first_layer_plain(&self.table, &self.bias1, offsets, indexes, &mut inputs);
        inputs
    }

    /// The first layer's sums before the activation for the placements' indexes `own`, from
    /// scratch (what the search computes at a leaf, before the clipped ReLU).
    pub fn sums(&self, own: &Row) -> [i16; HIDDEN] {
        let lanes = placements(self.n);
        kernels::sums_plain(&self.table, &self.bias1, &self.layout.lane_offsets[..lanes], &own.0[..lanes])
    }

    /// The first layer's sums kept move by move, the alternative to summing at the leaf that
    /// `docs/network.md` measures: `sums`, the sums of the indexes `from`, become those of `to`
    /// (the lanes that differ take their old row out and their new row in), with the kernels of
    /// `isa`. Returns the number of lanes that differ: the rows read are twice that.
    #[inline(always)]
    pub fn update_sums<I: Isa>(&self, _isa: I, sums: &mut [i16; HIDDEN], from: &Row, to: &Row) -> u32 {
        let lanes = placements(self.n);
        let offsets = &self.layout.lane_offsets[..lanes];
        #[cfg(target_arch = "x86_64")]
        if I::LEVEL >= crate::board::isa::Level::Avx2 {
            // SAFETY: the token proves AVX2; a `Row` holds whole 16-lane chunks; the layout's
            // offsets keep every index in the table.
            return unsafe { kernels::update_sums_avx2(&self.table, offsets, &from.0, &to.0, sums) };
        }
        kernels::update_sums_plain(&self.table, offsets, &from.0[..lanes], &to.0[..lanes], sums)
    }

    /// The value in 1/[`super::SCALE`] of a disc of `p` (to move) against `o`, from the kept
    /// indexes `own` ([`super::Indexes::own`]) and both sides' legal moves, which must not both
    /// be empty; with the kernels of `isa`.
    #[inline(always)]
    pub(crate) fn evaluate_fine_on<const N: usize, I: Isa>(
        &self,
        _isa: I,
        own: &Row,
        p: u64,
        o: u64,
        pm: u64,
        om: u64,
    ) -> i32 {
        debug_assert_eq!(self.n, N, "a network for another board size");
        let mut inputs = self.first_layer::<N, I>(_isa, own);
        inputs[HIDDEN..HIDDEN + SCALARS].copy_from_slice(&Self::scalars_of::<N>(p, o, pm, om));
        let empties = (full_mask(N) & !(p | o)).count_ones() as usize;
        let stack = &self.stacks[self.stage_of(empties)];
        if I::LEVEL >= crate::board::isa::Level::Avx2 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            return unsafe { kernels::upper_layers_avx2(stack, &inputs) };
        }
        kernels::upper_layers_plain(stack, &inputs)
    }

    /// The value in 1/[`super::SCALE`] of a disc of `p` (to move) against `o`, computed from the
    /// board with the plain kernels: the twin the search's path is tested against. The side to
    /// move must have a move or the opponent must (a finished game has its exact score).
    pub fn evaluate_fine_plain(&self, p: u64, o: u64) -> i32 {
        let own = super::Indexes::own_of(self.layout, p, o);
        let (empties, scalars) = match self.n {
            4 => Self::plain_parts::<4>(p, o),
            6 => Self::plain_parts::<6>(p, o),
            _ => Self::plain_parts::<8>(p, o),
        };
        self.evaluate_fine_parts(&own.0[..placements(self.n)], &scalars, empties)
    }

    /// The value in 1/[`super::SCALE`] of a disc from the parts the trainer's records hold: the
    /// placements' indexes (digit 1 the side to move), the scalar inputs and the empties; plain
    /// kernels. What `tests/network.rs` compares with the trainer's own integer computation.
    pub fn evaluate_fine_parts(&self, indexes: &[u16], scalars: &[i16; SCALARS], empties: usize) -> i32 {
        let lanes = placements(self.n);
        assert_eq!(indexes.len(), lanes, "one index per placement");
        let mut inputs = [0i16; INPUTS2];
        kernels::first_layer_plain(&self.table, &self.bias1, &self.layout.lane_offsets[..lanes], indexes, &mut inputs);
        inputs[HIDDEN..HIDDEN + SCALARS].copy_from_slice(scalars);
        kernels::upper_layers_plain(&self.stacks[self.stage_of(empties)], &inputs)
    }

    /// The empties and the scalar inputs of `p` against `o`, from the plain move generator.
    fn plain_parts<const N: usize>(p: u64, o: u64) -> (usize, [i16; SCALARS]) {
        let pm = crate::board::rules::legal_moves_scalar::<N>(p, o);
        let om = crate::board::rules::legal_moves_scalar::<N>(o, p);
        let empties = (full_mask(N) & !(p | o)).count_ones() as usize;
        (empties, Self::scalars_of::<N>(p, o, pm, om))
    }
}

/// The network shipped for the `n x n` board, built into the binary; `None` for a size without
/// one (the pattern tables serve it).
pub fn shipped_bytes(n: usize) -> Option<&'static [u8]> {
    match n {
        8 => Some(include_bytes!("../../../data/eval/network-8.oxnn")),
        _ => None,
    }
}

static LOADED: OnceLock<Result<Network, NetworkError>> = OnceLock::new();

/// The shipped 8x8 network, parsed and checked on first use; `None` for another size, or when the
/// file built in does not read (the error: [`shipped_error`]).
pub fn shipped(n: usize) -> Option<&'static Network> {
    if n != 8 {
        return None;
    }
    LOADED.get_or_init(|| file::from_bytes(shipped_bytes(8).expect("an 8x8 network"))).as_ref().ok()
}

/// Makes the network file `bytes` the one [`shipped`] gives for the rest of the process: a
/// `--weights` that names a network file, so two fits can be set against each other (`bench`,
/// `match`). Must come before the network's first use; the board side of the file.
pub fn use_instead(bytes: &[u8]) -> Result<usize, String> {
    let net = file::from_bytes(bytes).map_err(|e| e.to_string())?;
    let n = net.n;
    if n != 8 {
        return Err(format!("a network for {n}x{n}: this build runs networks on 8x8 only"));
    }
    LOADED.set(Ok(net)).map_err(|_| "the 8x8 network is already in use".to_string())?;
    Ok(n)
}

/// Whether `bytes` start as a network file does (rather than a pattern weights file).
pub fn is_network_file(bytes: &[u8]) -> bool {
    bytes.starts_with(&file::MAGIC)
}

/// Why the shipped network does not read, if it does not.
pub fn shipped_error() -> Option<&'static NetworkError> {
    shipped(8);
    LOADED.get().and_then(|r| r.as_ref().err())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::isa::Cpu;
    use crate::testing::Rng;

    /// A network of random weights (large enough to exercise the clamps).
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = Rng(seed);
        let mut bytes = file::random_file(8, 4, &mut rng);
        let len = bytes.len();
        let sum = crate::notation::checksum::fnv1a(&bytes[..len - 8]);
        bytes[len - 8..].copy_from_slice(&sum.to_le_bytes());
        file::from_bytes(&bytes).expect("a valid file")
    }

    #[test]
    fn sums_kept_move_by_move_are_the_leaf_sums_on_every_level() {
        // Along random games, both points of view's sums are updated from the parent's, on every
        // level, and compared with the sums from scratch (the shipped network's real rows too).
        let layout = Layout::of(8);
        let nets = [random_network(0x5a1), shipped(8).cloned().expect("the shipped network")];
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut moves = 0;
        for net in &nets {
            for cpu in Cpu::available() {
                crate::with_cpu!(cpu, isa => {
                    for _game in 0..40 {
                        let (mut p, mut o) = crate::Position::start(crate::Size::Eight).raw();
                        let mut ix = super::super::Indexes::new(layout, p, o);
                        let (mut own, mut theirs) = (net.sums(&ix.own), net.sums(&ix.theirs));
                        loop {
                            let legal = crate::board::rules::legal_moves::<8>(p, o);
                            if legal == 0 {
                                if crate::board::rules::legal_moves::<8>(o, p) == 0 {
                                    break;
                                }
                                (p, o, ix) = (o, p, ix.pass());
                                std::mem::swap(&mut own, &mut theirs);
                                continue;
                            }
                            rng ^= rng << 13;
                            rng ^= rng >> 7;
                            rng ^= rng << 17;
                            let pick = (rng % u64::from(legal.count_ones())) as usize;
                            let sq = (0..64).filter(|b| legal >> b & 1 == 1).nth(pick).expect("a move");
                            let f = crate::board::rules::flips::<8>(p, o, sq);
                            let child = ix.play(layout, sq, f);
                            // The child's own view is the parent's `theirs` updated, and back.
                            let (mut c_own, mut c_theirs) = (theirs, own);
                            let a = net.update_sums(isa, &mut c_own, &ix.theirs, &child.own);
                            let b = net.update_sums(isa, &mut c_theirs, &ix.own, &child.theirs);
                            assert_eq!(a, b, "both views change the same lanes");
                            assert_eq!(c_own, net.sums(&child.own), "{}", cpu.level());
                            assert_eq!(c_theirs, net.sums(&child.theirs), "{}", cpu.level());
                            (p, o, ix, own, theirs) = (o ^ f, p ^ f ^ (1 << sq), child, c_own, c_theirs);
                            moves += 1;
                        }
                    }
                });
            }
        }
        assert!(moves > 4000, "{moves} moves");
    }

    #[test]
    fn every_level_gives_the_plain_twins_value() {
        let net = random_network(0x2e7);
        let layout = Layout::of(8);
        let mut checked = 0;
        for (p, o) in crate::testing::random_positions::<8>(6000, 0x7e57) {
            if crate::board::rules::legal_moves::<8>(p, o) | crate::board::rules::legal_moves::<8>(o, p) == 0 {
                continue;
            }
            let want = net.evaluate_fine_plain(p, o);
            let own = super::super::Indexes::new(layout, p, o).own;
            for cpu in Cpu::available() {
                crate::with_cpu!(cpu, isa => {
                    let pm = isa.legal_moves::<8>(p, o);
                    let om = isa.legal_moves::<8>(o, p);
                    let got = isa.enter(#[inline(always)] || net.evaluate_fine_on::<8, _>(isa, &own, p, o, pm, om));
                    assert_eq!(got, want, "{} on {p:#x} {o:#x}", cpu.level());
                });
            }
            checked += 1;
        }
        assert!(checked > 3000, "{checked} positions");
    }

    #[test]
    fn the_shipped_network_reads_and_its_checks_hold() {
        let net = shipped(8).unwrap_or_else(|| panic!("{:?}", shipped_error()));
        assert_eq!(net.n(), 8);
        assert!(shipped(6).is_none());
        // A damaged byte is caught by the checksum.
        let mut bytes = shipped_bytes(8).unwrap().to_vec();
        bytes[100] ^= 1;
        assert!(matches!(file::from_bytes(&bytes), Err(NetworkError::Checksum)));
    }
}
