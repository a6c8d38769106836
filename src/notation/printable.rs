//! Text from a file, made safe to print: control characters escaped (so a name cannot retitle the
//! terminal or split an error over lines), and long text cut to an excerpt. Every command prints
//! a file's names and values through [`printable`], and every error message quotes a file's text
//! through [`excerpt`]. The explorer's panels fit text with [`wrap`] and [`fit`], never cutting a
//! word.
//!
//! ```
//! use othello_explorer::notation::printable::{excerpt, printable};
//! assert_eq!(printable("a\u{1b}]2;x\u{7}b\nc"), "a\\u{1b}]2;x\\u{7}b\\nc");
//! assert_eq!(printable("abc\u{202e}fed\u{200b}"), "abc\\u{202e}fed\\u{200b}");
//! assert_eq!(excerpt(&"x".repeat(100)), format!("{}… (100 characters)", "x".repeat(40)));
//! ```

/// The characters an excerpt keeps.
pub const EXCERPT_CHARS: usize = 40;

/// `text` with every control character written as an escape (`\n`, `\t`, `\u{1b}`), and every
/// invisible character that changes how the text around it shows (the format characters, such as
/// U+202E, which turns the rest of a line right to left, or U+200B, a space of no width; the line
/// and paragraph separators) as `\u{202e}`; the rest as it is.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else if is_invisible(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `c` is a format character (Unicode's general category Cf, as of Unicode 16) or a line
/// or paragraph separator (Zl, Zp): invisible, yet able to reorder, hide or split the text
/// around it.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c as u32,
        0xad | 0x600..=0x605
            | 0x61c
            | 0x6dd
            | 0x70f
            | 0x890..=0x891
            | 0x8e2
            | 0x180e
            | 0x200b..=0x200f
            | 0x2028..=0x202e
            | 0x2060..=0x2064
            | 0x2066..=0x206f
            | 0xfeff
            | 0xfff9..=0xfffb
            | 0x110bd
            | 0x110cd
            | 0x13430..=0x1343f
            | 0x1bca0..=0x1bca3
            | 0x1d173..=0x1d17a
            | 0xe0001
            | 0xe0020..=0xe007f
    )
}

/// [`one_line`] at [`EXCERPT_CHARS`]: how an error quotes what it found.
pub fn excerpt(text: &str) -> String {
    one_line(text, EXCERPT_CHARS)
}

/// A text made one line of bounded length: [`printable`] of at most its first `max` characters,
/// saying how long it was when it was cut (`abc… (5000000 characters)`). The one cut of the
/// project's messages.
pub fn one_line(message: &str, max: usize) -> String {
    let count = message.chars().count();
    if count <= max {
        return printable(message);
    }
    let head: String = message.chars().take(max).collect();
    format!("{}… ({count} characters)", printable(&head))
}

/// `n` and the noun that agrees with it: `1 move`, `2 moves`, `0 moves`.
///
/// ```
/// use othello_explorer::notation::printable::count;
/// assert_eq!(count(1, "move", "moves"), "1 move");
/// assert_eq!(count(0, "disc", "discs"), "0 discs");
/// assert_eq!(count(12, "disc", "discs"), "12 discs");
/// ```
pub fn count(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The indefinite article before the number `n` written in figures: `an` before the ones read
/// with a vowel sound (8, 11, 18, 80-89, 800-899, 8000…), else `a`.
///
/// ```
/// use othello_explorer::notation::printable::article;
/// assert_eq!(article(11), "an"); // an 11-move game
/// assert_eq!(article(8), "an");
/// assert_eq!(article(18), "an");
/// assert_eq!(article(1), "a");
/// assert_eq!(article(110), "a"); // a 110
/// assert_eq!(article(12), "a");
/// ```
pub fn article(n: u64) -> &'static str {
    let digits = n.to_string();
    let leading_eight = digits.starts_with('8');
    // 11 and 18 (and 11,000…, 18,000…: read "eleven thousand", "eighteen thousand").
    let eleven_or_eighteen = (digits.starts_with("11") || digits.starts_with("18")) && digits.len() % 3 == 2;
    if leading_eight || eleven_or_eighteen { "an" } else { "a" }
}
/// `text` broken into lines of at most `width` characters at spaces, for a panel or a page; a
/// word longer than a line is split (nothing else can hold it). No line for an empty text.
/// Widths are in characters (every glyph the program writes is one column wide).
///
/// ```
/// use othello_explorer::notation::printable::wrap;
/// assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
/// ```
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let mut chars: Vec<char> = word.chars().collect();
        let need = chars.len() + usize::from(len > 0);
        if len > 0 && len + need > width {
            lines.push(std::mem::take(&mut line));
            len = 0;
        }
        if len > 0 {
            line.push(' ');
            len += 1;
        }
        while chars.len() > width - len {
            let rest = chars.split_off(width - len);
            line.extend(chars);
            lines.push(std::mem::take(&mut line));
            len = 0;
            chars = rest;
        }
        len += chars.len();
        line.extend(chars);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` in at most `width` characters: whole if it fits, else its first words and `…` (a first
/// word longer than the width is cut, with `…`): shortened, never cut inside a word.
///
/// ```
/// use othello_explorer::notation::printable::fit;
/// assert_eq!(fit("Central Rose-Bill / Dead Draw", 20), "Central Rose-Bill…");
/// assert_eq!(fit("    1  +8     60  Ann – Bob", 20), "    1  +8     60…");
/// ```
pub fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    // Leading spaces (a right-aligned first column) are kept, so a cut line stays aligned with
    // its heading.
    let body = text.trim_start_matches(' ');
    let lead = text.len() - body.len();
    if lead > 0 && lead < width {
        return format!("{}{}", &text[..lead], fit(body, width - lead));
    }
    let room = width - 1;
    let mut out = String::new();
    for word in text.split(' ') {
        let next = if out.is_empty() { word.chars().count() } else { out.chars().count() + 1 + word.chars().count() };
        if next > room {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    let out = out.trim_end_matches([' ', '·', ',', ':', ';', '/', '-']).to_string();
    if out.is_empty() {
        let cut: String = text.chars().take(room).collect();
        return format!("{cut}…");
    }
    format!("{out}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_and_fitting_keep_words_whole() {
        assert_eq!(wrap("the engine thinks about it", 10), ["the engine", "thinks", "about it"]);
        assert!(wrap("", 5).is_empty());
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a abcdefghij", 4), ["a", "abcd", "efgh", "ij"]);
        assert_eq!(fit("Central Rose-Bill / Dead Draw", 20), "Central Rose-Bill…");
        assert_eq!(fit("short", 20), "short");
        assert_eq!(fit("reviewing the line: 61 positions", 14), "reviewing the…");
        assert_eq!(fit("abcdefgh", 4), "abc…");
        // A cut line keeps its leading spaces, so it stays under its heading.
        assert_eq!(fit("   12  +8  Ann Lindqvist", 16), "   12  +8  Ann…");
        assert!(wrap("x y z", 1).iter().all(|l| l.chars().count() <= 1));
    }
}
