//! Copying to the clipboard through the terminal: the OSC 52 escape sequence, which terminals
//! that support it (and tmux with `set-clipboard on`) turn into a clipboard write.

use std::io::Write;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
///
/// ```
/// use othello_explorer::tui::testing::clipboard::base64;
/// assert_eq!(base64(b"f5d6"), "ZjVkNg==");
/// assert_eq!(base64(b"f5d6c3"), "ZjVkNmMz");
/// ```
pub fn base64(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The escape sequence that puts `text` on the clipboard.
///
/// ```
/// assert_eq!(othello_explorer::tui::testing::clipboard::osc52("f5"), "\x1b]52;c;ZjU=\x07");
/// ```
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

/// Writes the OSC 52 sequence for `text` to `out`.
pub fn copy(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(osc52(text).as_bytes())?;
    out.flush()
}
