//! Text from a file, made safe to print: control characters escaped (so a name cannot retitle the
//! terminal or split an error over lines), and long text cut to an excerpt. Every command prints
//! a file's names and values through [`printable`], and every error message quotes a file's text
//! through [`excerpt`].
//!
//! ```
//! use othello_explorer::notation::printable::{excerpt, printable};
//! assert_eq!(printable("a\u{1b}]2;x\u{7}b\nc"), "a\\u{1b}]2;x\\u{7}b\\nc");
//! assert_eq!(excerpt(&"x".repeat(100)), format!("{}… (100 characters)", "x".repeat(40)));
//! ```

/// The characters an excerpt keeps.
pub const EXCERPT_CHARS: usize = 40;

/// `text` with every control character written as an escape (`\n`, `\t`, `\u{1b}`), the rest as
/// it is.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// [`printable`] of at most the first [`EXCERPT_CHARS`] characters of `text`, saying how long it
/// was when it was cut.
pub fn excerpt(text: &str) -> String {
    let count = text.chars().count();
    if count <= EXCERPT_CHARS {
        return printable(text);
    }
    let head: String = text.chars().take(EXCERPT_CHARS).collect();
    format!("{}… ({count} characters)", printable(&head))
}

/// A message made one line of bounded length: [`printable`], cut after `max` characters.
pub fn one_line(message: &str, max: usize) -> String {
    let text = printable(message);
    let count = text.chars().count();
    if count <= max {
        return text;
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}… ({} more characters)", count - max)
}
