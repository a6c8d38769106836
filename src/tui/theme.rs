//! Styles. Every meaning is carried by a glyph or a modifier (bold, reversed, underlined, dim) as
//! well as by colour, so the screen reads the same with `NO_COLOR` or `--color never`, where the
//! colours are simply dropped.

use ratatui::style::{Color, Modifier, Style};

/// The explorer's styles, with or without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    color: bool,
}

impl Theme {
    /// The theme; `color` false keeps only modifiers.
    pub const fn new(color: bool) -> Theme {
        Theme { color }
    }

    /// Whether colours are drawn.
    pub const fn color(&self) -> bool {
        self.color
    }

    fn paint(&self, fg: Option<Color>, bg: Option<Color>, m: Modifier) -> Style {
        let mut s = Style::new().add_modifier(m);
        if self.color {
            if let Some(fg) = fg {
                s = s.fg(fg);
            }
            if let Some(bg) = bg {
                s = s.bg(bg);
            }
        }
        s
    }

    /// The board's squares.
    pub fn board(&self) -> Style {
        self.paint(Some(Color::White), Some(Color::Rgb(0, 100, 40)), Modifier::empty())
    }

    /// A black disc.
    pub(crate) fn black_disc(&self) -> Style {
        self.paint(Some(Color::Black), None, Modifier::BOLD)
    }

    /// A white disc.
    pub(crate) fn white_disc(&self) -> Style {
        self.paint(Some(Color::White), None, Modifier::BOLD)
    }

    /// An empty square.
    pub fn empty(&self) -> Style {
        self.paint(Some(Color::Rgb(90, 160, 110)), None, Modifier::empty())
    }

    /// A legal move not scored yet.
    pub fn unproven(&self) -> Style {
        self.paint(Some(Color::Yellow), None, Modifier::DIM)
    }

    /// An exact score.
    pub fn exact(&self) -> Style {
        self.paint(Some(Color::LightCyan), None, Modifier::BOLD)
    }

    /// An estimate (a depth-limited search, never a proof): plain, italic, no bold, so it never
    /// looks like an exact score.
    pub fn estimate(&self) -> Style {
        self.paint(Some(Color::Gray), None, Modifier::ITALIC)
    }

    /// A proven outcome (`W`, `L`, `D`).
    pub fn outcome(&self) -> Style {
        self.paint(Some(Color::LightMagenta), None, Modifier::BOLD)
    }

    /// An exact score of a best move.
    pub fn best(&self) -> Style {
        self.paint(Some(Color::LightGreen), None, Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// The cursor.
    pub fn cursor(&self) -> Style {
        self.paint(None, None, Modifier::REVERSED | Modifier::BOLD)
    }

    /// The last move's marker.
    pub fn last_move(&self) -> Style {
        self.paint(Some(Color::LightRed), None, Modifier::BOLD)
    }

    /// A disc the selected move flips.
    pub fn flip(&self) -> Style {
        self.paint(Some(Color::LightMagenta), None, Modifier::BOLD)
    }

    /// A square in the drawn mask.
    pub fn overlay(&self) -> Style {
        self.paint(Some(Color::Black), Some(Color::Yellow), Modifier::BOLD)
    }

    /// Coordinates and labels.
    pub fn label(&self) -> Style {
        self.paint(Some(Color::Gray), None, Modifier::empty())
    }

    /// Quieter text.
    pub fn dim(&self) -> Style {
        self.paint(Some(Color::DarkGray), None, Modifier::DIM)
    }

    /// Plain text.
    pub fn text(&self) -> Style {
        Style::new()
    }

    /// Headings and titles.
    pub fn heading(&self) -> Style {
        self.paint(Some(Color::LightCyan), None, Modifier::BOLD)
    }

    /// A panel border; the focused one is bold.
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.paint(Some(Color::LightYellow), None, Modifier::BOLD)
        } else {
            self.paint(Some(Color::DarkGray), None, Modifier::empty())
        }
    }

    /// The selected row or entry.
    pub fn selected(&self) -> Style {
        self.paint(Some(Color::LightBlue), None, Modifier::REVERSED | Modifier::BOLD)
    }

    /// A set bit in a binary grid.
    pub(crate) fn bit_on(&self) -> Style {
        self.paint(Some(Color::White), None, Modifier::BOLD)
    }

    /// A clear bit in a binary grid.
    pub(crate) fn bit_off(&self) -> Style {
        self.paint(Some(Color::DarkGray), None, Modifier::DIM)
    }

    /// The bit of the selected move or its flips.
    pub(crate) fn bit_highlight(&self) -> Style {
        self.paint(Some(Color::LightMagenta), None, Modifier::REVERSED | Modifier::BOLD)
    }

    /// An error message.
    pub fn error(&self) -> Style {
        self.paint(Some(Color::LightRed), None, Modifier::BOLD)
    }

    /// An informative message.
    pub fn info(&self) -> Style {
        self.paint(Some(Color::LightGreen), None, Modifier::empty())
    }

    /// A key name in the key bar and help.
    pub fn key(&self) -> Style {
        self.paint(Some(Color::Black), Some(Color::Gray), Modifier::BOLD)
    }
}
