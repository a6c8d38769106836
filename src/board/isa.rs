//! One build for every x86-64 CPU: the instruction sets the hot code is compiled for, and the
//! choice among them made once, at run time.
//!
//! The default build targets baseline x86-64 (no POPCNT, no BMI, no AVX). The hot code — the
//! exact and estimate searches, perft, the evaluation — is generic over an [`Isa`]: a zero-sized
//! token that can only be had on a CPU with its features ([`Isa::detect`]). Each level compiles
//! that code again with its own `#[target_feature]`s:
//!
//! | [`Level`] | features | kernels |
//! |---|---|---|
//! | `plain` | baseline x86-64 (or any other target) | plain `u64` kernels, software `pext` |
//! | `avx2` | AVX2, BMI1, BMI2, LZCNT, POPCNT | AVX2 move generation; `pext` in software (AMD before Zen 3 runs the instruction in microcode, slower than the plain loop) |
//! | `avx2-pext` | the same | and the BMI2 `pext` instruction |
//! | `avx512` | and AVX-512 F, VL, CD | and the AVX-512 flips |
//!
//! **How the features reach a recursive search.** Features are a property of each compiled
//! function, and a call from a function without them cannot be inlined into one with them nor the
//! reverse. So every recursive routine enters through [`Isa::enter`]: its body is an
//! `#[inline(always)]` closure run by the token's `#[target_feature]` trampoline, into which the
//! body, the kernels it calls and the recursive calls' own trampolines' arguments all inline. A
//! routine calling itself therefore calls one function compiled for the level, directly. Helpers
//! below a routine are `#[inline(always)]` so that they land inside it.
//!
//! [`Cpu`] holds the token of the chosen level, and [`with_cpu!`](crate::with_cpu) turns it into
//! specialised code: the one place where the run-time choice becomes a type. The level chosen is
//! the best the CPU has ([`Cpu::detect`]), lowered by the environment variable
//! `OTHELLO_EXPLORER_ISA` (`plain`, `avx2`, `avx2-pext` or `avx512`) to measure or test a lower
//! one; a level the CPU lacks is never chosen. A native build (`RUSTFLAGS="-C target-cpu=native"`)
//! compiles everything else (the table, the glue) for the CPU too; `docs/perft-notes.md` says what
//! that is worth.
//!
//! Every kernel has a plain twin (the `plain` level itself), and the tests compare every level the
//! CPU has against it.

use std::fmt;
use std::sync::OnceLock;

/// The name of the environment variable that lowers the level chosen.
pub(crate) const ENV: &str = "OTHELLO_EXPLORER_ISA";

/// An instruction-set level, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Baseline: plain `u64` kernels.
    Plain,
    /// AVX2, BMI1/2, LZCNT and POPCNT, with `pext` done in software.
    Avx2,
    /// As [`Level::Avx2`], with the `pext` instruction.
    Avx2Pext,
    /// As [`Level::Avx2Pext`], with the AVX-512 flips.
    Avx512,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 4] = [Level::Plain, Level::Avx2, Level::Avx2Pext, Level::Avx512];

    /// The level's name, as `OTHELLO_EXPLORER_ISA` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Plain => "plain",
            Level::Avx2 => "avx2",
            Level::Avx2Pext => "avx2-pext",
            Level::Avx512 => "avx512",
        }
    }

    /// The level with that name.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bad `OTHELLO_EXPLORER_ISA`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLevel(pub String);

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad {ENV} '{}': expected plain, avx2, avx2-pext or avx512", self.0)
    }
}

impl std::error::Error for BadLevel {}

/// The level `OTHELLO_EXPLORER_ISA` asks for, if it is set.
pub fn requested() -> Result<Option<Level>, BadLevel> {
    match std::env::var(ENV) {
        Ok(name) if name.is_empty() => Ok(None),
        Ok(name) => Level::from_name(name.trim()).map(Some).ok_or(BadLevel(name)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(name)) => Err(BadLevel(name.to_string_lossy().into_owned())),
    }
}

/// An instruction set the hot code is compiled for. A value of the type is the proof that the
/// CPU running the program has its features.
///
/// # Safety
/// An implementation must return `Some` from [`Isa::detect`] only on a CPU that has every feature
/// [`Isa::enter_unchecked`] and the kernels are compiled with; the code generic over `Isa` relies
/// on it to call them.
pub unsafe trait Isa: Copy + Send + Sync + 'static {
    /// Its level.
    const LEVEL: Level;

    /// The token, if this CPU has the features.
    fn detect() -> Option<Self>;

    /// Runs `f` compiled with the level's features.
    ///
    /// # Safety
    /// The CPU must have them: call [`Isa::enter`] with a token instead.
    unsafe fn enter_unchecked<R, F: FnOnce() -> R>(f: F) -> R;

    /// Runs `f` inside a function compiled with the level's features: `f`, marked
    /// `#[inline(always)]`, is compiled there, and so is everything it inlines.
    #[inline(always)]
    fn enter<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: `self` exists, so `detect` found the features (the trait's contract).
        unsafe { Self::enter_unchecked(f) }
    }

    /// The legal moves of `p` against `o` ([`crate::board::rules::legal_moves`]).
    fn legal_moves<const N: usize>(self, p: u64, o: u64) -> u64;

    /// The legal moves of four positions ([`crate::board::rules::legal_moves_x4`]).
    fn legal_moves_x4<const N: usize>(self, p: [u64; 4], o: [u64; 4]) -> [u64; 4];

    /// The discs a move on `sq` flips ([`crate::board::rules::flips`]).
    fn flips<const N: usize>(self, p: u64, o: u64, sq: u32) -> u64;

    /// The bits of `x` under `mask`, packed into the low bits in order (BMI2's `pext`).
    fn pext(self, x: u64, mask: u64) -> u64;
}

/// The baseline level: plain kernels, on every CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

// SAFETY: it needs no feature.
unsafe impl Isa for Plain {
    const LEVEL: Level = Level::Plain;

    fn detect() -> Option<Self> {
        Some(Plain)
    }

    #[inline(always)]
    unsafe fn enter_unchecked<R, F: FnOnce() -> R>(f: F) -> R {
        f()
    }

    #[inline(always)]
    fn legal_moves<const N: usize>(self, p: u64, o: u64) -> u64 {
        crate::board::rules::legal_moves_scalar::<N>(p, o)
    }

    #[inline(always)]
    fn legal_moves_x4<const N: usize>(self, p: [u64; 4], o: [u64; 4]) -> [u64; 4] {
        crate::board::rules::legal_moves_x4_scalar::<N>(p, o)
    }

    #[inline(always)]
    fn flips<const N: usize>(self, p: u64, o: u64, sq: u32) -> u64 {
        crate::board::rules::flips_scalar::<N>(p, o, sq)
    }

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        pext_scalar(x, mask)
    }
}

/// [`Isa::pext`] one mask bit at a time: the plain twin.
///
/// ```
/// use othello_explorer::board::isa::pext_scalar;
/// assert_eq!(pext_scalar(0b1010_0110, 0b1111_0000), 0b1010);
/// ```
#[inline(always)]
pub fn pext_scalar(x: u64, mask: u64) -> u64 {
    let (mut out, mut m, mut k) = (0, mask, 0);
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & low != 0 {
            out |= 1 << k;
        }
        k += 1;
        m ^= low;
    }
    out
}

#[cfg(target_arch = "x86_64")]
pub use x86::{Avx2, Avx2Pext, Avx512};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Isa, Level, pext_scalar};
    use crate::board::rules::simd;

    /// Whether the CPU has what [`Avx2`] is compiled with.
    fn has_avx2() -> bool {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt")
    }

    /// Whether `pext` runs in hardware at full speed: everywhere it exists, but on AMD (and
    /// Hygon) before family 19h (Zen 3), where it is microcoded and takes tens to hundreds of
    /// cycles.
    fn fast_pext() -> bool {
        use std::arch::x86_64::__cpuid;
        // `cpuid` exists on every x86-64 CPU.
        let vendor = __cpuid(0);
        let amd_like = matches!(
            (vendor.ebx, vendor.edx, vendor.ecx),
            (0x6874_7541, 0x6974_6e65, 0x444d_4163) // "AuthenticAMD"
                | (0x6f67_7948, 0x6e65_476e, 0x656e_6975) // "HygonGenuine"
        );
        if !amd_like {
            return true;
        }
        // Leaf 1 exists on every x86-64 CPU.
        let eax = __cpuid(1).eax;
        let family = (eax >> 8) & 0xf;
        let family = if family == 0xf { family + ((eax >> 20) & 0xff) } else { family };
        family >= 0x19
    }

    /// The move generation of every level with AVX2 (the token proves it).
    macro_rules! avx2_move_generation {
        () => {
            #[inline(always)]
            fn legal_moves<const N: usize>(self, p: u64, o: u64) -> u64 {
                // SAFETY: the token proves AVX2.
                unsafe { simd::legal_moves_avx2::<N>(p, o) }
            }

            #[inline(always)]
            fn legal_moves_x4<const N: usize>(self, p: [u64; 4], o: [u64; 4]) -> [u64; 4] {
                // SAFETY: the token proves AVX2.
                unsafe { simd::legal_moves_x4_array::<N>(p, o) }
            }
        };
    }

    /// AVX2, BMI1/2, LZCNT and POPCNT, `pext` in software.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx2(());

    /// AVX2, BMI1/2, LZCNT and POPCNT, with the `pext` instruction.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx2Pext(());

    /// [`Avx2Pext`] and AVX-512 F, VL and CD.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512(());

    // SAFETY: `detect` checks every feature `enter_unchecked` enables; the kernels need AVX2.
    unsafe impl Isa for Avx2 {
        const LEVEL: Level = Level::Avx2;

        fn detect() -> Option<Self> {
            has_avx2().then_some(Avx2(()))
        }

        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        unsafe fn enter_unchecked<R, F: FnOnce() -> R>(f: F) -> R {
            f()
        }

        avx2_move_generation!();

        #[inline(always)]
        fn flips<const N: usize>(self, p: u64, o: u64, sq: u32) -> u64 {
            // SAFETY: the token proves AVX2.
            unsafe { simd::flips_avx2::<N>(p, o, sq) }
        }

        #[inline(always)]
        fn pext(self, x: u64, mask: u64) -> u64 {
            pext_scalar(x, mask)
        }
    }

    // SAFETY: as for `Avx2`, and `detect` also requires a fast `pext` (a speed matter only).
    unsafe impl Isa for Avx2Pext {
        const LEVEL: Level = Level::Avx2Pext;

        fn detect() -> Option<Self> {
            (has_avx2() && fast_pext()).then_some(Avx2Pext(()))
        }

        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        unsafe fn enter_unchecked<R, F: FnOnce() -> R>(f: F) -> R {
            f()
        }

        avx2_move_generation!();

        #[inline(always)]
        fn flips<const N: usize>(self, p: u64, o: u64, sq: u32) -> u64 {
            // SAFETY: the token proves AVX2.
            unsafe { simd::flips_avx2::<N>(p, o, sq) }
        }

        #[inline(always)]
        fn pext(self, x: u64, mask: u64) -> u64 {
            // SAFETY: the token proves BMI2.
            unsafe { std::arch::x86_64::_pext_u64(x, mask) }
        }
    }

    // SAFETY: `detect` checks every feature `enter_unchecked` enables and the AVX-512 kernel needs.
    unsafe impl Isa for Avx512 {
        const LEVEL: Level = Level::Avx512;

        fn detect() -> Option<Self> {
            (has_avx2()
                && fast_pext()
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512cd"))
            .then_some(Avx512(()))
        }

        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512cd")]
        unsafe fn enter_unchecked<R, F: FnOnce() -> R>(f: F) -> R {
            f()
        }

        avx2_move_generation!();

        #[inline(always)]
        fn flips<const N: usize>(self, p: u64, o: u64, sq: u32) -> u64 {
            // SAFETY: the token proves AVX2, AVX-512F, VL and CD.
            unsafe { simd::flips_avx512::<N>(p, o, sq) }
        }

        #[inline(always)]
        fn pext(self, x: u64, mask: u64) -> u64 {
            // SAFETY: the token proves BMI2.
            unsafe { std::arch::x86_64::_pext_u64(x, mask) }
        }
    }
}

/// The token of one level, chosen at run time.
#[derive(Clone, Copy, Debug)]
pub enum Cpu {
    /// [`Plain`].
    Plain(Plain),
    /// [`Avx2`].
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// [`Avx2Pext`].
    #[cfg(target_arch = "x86_64")]
    Avx2Pext(Avx2Pext),
    /// [`Avx512`].
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

impl Cpu {
    /// The best level this CPU has, lowered by `OTHELLO_EXPLORER_ISA` if that names a level (an
    /// unknown name is ignored here: the command line refuses it). Detected once.
    pub fn detect() -> Cpu {
        static CHOSEN: OnceLock<Cpu> = OnceLock::new();
        *CHOSEN.get_or_init(|| Cpu::at_most(requested().ok().flatten().unwrap_or(Level::Avx512)))
    }

    /// The best level this CPU has that is no higher than `level`.
    pub fn at_most(level: Level) -> Cpu {
        #[cfg(target_arch = "x86_64")]
        {
            if level >= Level::Avx512
                && let Some(t) = Avx512::detect()
            {
                return Cpu::Avx512(t);
            }
            if level >= Level::Avx2Pext
                && let Some(t) = Avx2Pext::detect()
            {
                return Cpu::Avx2Pext(t);
            }
            if level >= Level::Avx2
                && let Some(t) = Avx2::detect()
            {
                return Cpu::Avx2(t);
            }
        }
        let _ = level;
        Cpu::Plain(Plain)
    }

    /// Every level this CPU has, lowest first: what the tests compare.
    pub fn available() -> Vec<Cpu> {
        let mut all: Vec<Cpu> = Level::ALL.into_iter().map(Cpu::at_most).collect();
        all.dedup_by_key(|c| c.level());
        all
    }

    /// Its level.
    pub fn level(self) -> Level {
        match self {
            Cpu::Plain(_) => Level::Plain,
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx2(_) => Level::Avx2,
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx2Pext(_) => Level::Avx2Pext,
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx512(_) => Level::Avx512,
        }
    }
}

/// Runs `$body` with `$isa` bound to the token held by the [`Cpu`](crate::board::isa::Cpu) `$cpu`: the
/// body is compiled once per level, each copy for its own token type.
#[macro_export]
macro_rules! with_cpu {
    ($cpu:expr, $isa:ident => $body:expr) => {
        match $cpu {
            $crate::board::isa::Cpu::Plain($isa) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::board::isa::Cpu::Avx2($isa) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::board::isa::Cpu::Avx2Pext($isa) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::board::isa::Cpu::Avx512($isa) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_their_names() {
        for level in Level::ALL {
            assert_eq!(Level::from_name(level.name()), Some(level));
        }
        assert_eq!(Level::from_name("sse9"), None);
    }

    #[test]
    fn a_level_is_never_above_what_was_asked() {
        for level in Level::ALL {
            assert!(Cpu::at_most(level).level() <= level);
        }
        assert_eq!(Cpu::at_most(Level::Plain).level(), Level::Plain);
        let available = Cpu::available();
        assert_eq!(available[0].level(), Level::Plain);
        assert!(available.windows(2).all(|w| w[0].level() < w[1].level()));
    }

    #[test]
    fn pext_matches_its_plain_twin_on_every_level() {
        let mut rng = crate::testing::Rng(0x5eed);
        for cpu in Cpu::available() {
            for _ in 0..10_000 {
                let (x, m) = (rng.next(), rng.next() & rng.next());
                let expected = pext_scalar(x, m);
                with_cpu!(cpu, isa => assert_eq!(isa.enter(#[inline(always)] || isa.pext(x, m)), expected, "{cpu:?}"));
            }
        }
    }
}
