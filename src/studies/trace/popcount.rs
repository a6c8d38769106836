//! Counting discs: the divide-and-conquer population count ("SWAR", SIMD within a register). Each
//! step adds neighbouring fields of the step before, so fields of 2, 4, 8, … bits hold the count
//! of their bits, until one field covers the board; the CPU's `count_ones` (one `popcnt`
//! instruction) gives the same number, and is what the engine calls.
//!
//! ```
//! use othello_explorer::studies::trace::popcount::swar;
//! assert_eq!(swar(0x0240, 16).last().unwrap().1, 2);
//! ```

use super::{Step, Steps, Value};
use crate::{board::bitboard::Bitboard, board::position::Position};

/// The steps for a word of `width` bits: `(expression, value, field width)` after each addition,
/// up to the field that covers `width` bits.
pub fn swar(x: u64, width: u32) -> Vec<(String, u64, u32)> {
    let mut out = Vec::new();
    let x1 = x - ((x >> 1) & 0x5555_5555_5555_5555);
    out.push(("x - ((x >> 1) & 0x5555_5555_5555_5555)".to_string(), x1, 2));
    let x2 = (x1 & 0x3333_3333_3333_3333) + ((x1 >> 2) & 0x3333_3333_3333_3333);
    out.push(("(x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333)".to_string(), x2, 4));
    let mut v = (x2 + (x2 >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    out.push(("(x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f".to_string(), v, 8));
    for (shift, mask, text) in [
        (8u32, 0x00ff_00ff_00ff_00ffu64, "0x00ff_00ff_00ff_00ff"),
        (16, 0x0000_ffff_0000_ffff, "0x0000_ffff_0000_ffff"),
        (32, 0x0000_0000_ffff_ffff, "0x0000_0000_ffff_ffff"),
    ] {
        if shift >= width {
            break;
        }
        v = (v + (v >> shift)) & mask;
        out.push((format!("(x + (x >> {shift})) & {text}"), v, 2 * shift));
    }
    out
}

/// The steps and black's disc count.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let width = size.squares() as u32;
    let black = position.black().bits();
    let mut s = Steps::new();
    s.push(
        "x",
        "black",
        Value::Word { bits: black, field: 1, size },
        format!("black's discs: {} bits, each 1 or 0", width),
    );
    let what = ["pairs", "nibbles", "bytes", "16 bits", "32 bits", "64 bits"];
    for (i, (expr, value, field)) in swar(black, width).into_iter().enumerate() {
        let note = if i == 0 {
            "each 2-bit field now holds how many of its two bits were set (00, 01 or 10): x - (x >> 1) per pair"
                .to_string()
        } else {
            format!("each {field}-bit field holds the sum of its two halves: the count of its {field} bits")
        };
        s.push(format!("x = {}", what[i]), format!("x = {expr}"), Value::Word { bits: value, field, size }, note);
    }
    let swar_count = swar(black, width).last().map_or(0, |v| v.1) as i64;
    s.push("SWAR count", "x", Value::Number(swar_count), "one field covers the board: its value is the count");
    let cpu = black.count_ones() as i64;
    s.push(
        "count_ones",
        "black.count_ones()",
        Value::Number(cpu),
        "the CPU's population count (popcnt), what the engine calls: the same number",
    );
    (s.done(), Value::Number(Bitboard::new(size, black).count() as i64))
}
