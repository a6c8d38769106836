//! The one place where run-time settings become specialised code (floor 0 of the search core,
//! `mod.rs`): the `specialised!` macro, which the entry points (`engine.rs`) and the root
//! scheduler (`root.rs`) run their searches through.

/// Runs `$body` with `N` (board side) and `D` (discs scoring) as consts matching `$size` and
/// `$scoring`, and `$isa` the token of the [`Cpu`](crate::board::isa::Cpu) `$cpu`: the one place where
/// run-time settings become specialised code (six rule variants times the instruction-set levels).
macro_rules! specialised {
    ($size:expr, $scoring:expr, $cpu:expr, $n:ident, $d:ident, $isa:ident => $body:expr) => {
        match ($size, $scoring) {
            (crate::board::size::Size::Four, crate::board::position::Scoring::Standard) => {
                const $n: usize = 4;
                const $d: bool = false;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Four, crate::board::position::Scoring::Discs) => {
                const $n: usize = 4;
                const $d: bool = true;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Six, crate::board::position::Scoring::Standard) => {
                const $n: usize = 6;
                const $d: bool = false;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Six, crate::board::position::Scoring::Discs) => {
                const $n: usize = 6;
                const $d: bool = true;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Eight, crate::board::position::Scoring::Standard) => {
                const $n: usize = 8;
                const $d: bool = false;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Eight, crate::board::position::Scoring::Discs) => {
                const $n: usize = 8;
                const $d: bool = true;
                crate::with_cpu!($cpu, $isa => $body)
            }
        }
    };
}
