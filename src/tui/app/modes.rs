//! What the user is doing, as one value each: the [`Activity`] (exploring, a game, a drill, the
//! editor: exactly one at a time) and the [`Overlay`] that takes every key (the help, the command
//! line). The teaching view is neither: it is a panel in place of the moves, bitboards and line
//! panels, open over exploring, a game or a drill, and under the help or the command line
//! ([`Model::teach()`]).
//!
//! Every change of activity goes through [`Model::set_activity`], which does what each switch
//! needs; the accessors ([`Model::game`], [`Model::drill`], [`Model::editor`], [`Model::auto`])
//! read the one that is on.

use super::super::teach::Teach;
use super::auto::AutoPlay;
use super::drill::Drill;
use super::edit::Editor;
use super::game::Game;
use super::{Effect, Model};
use crate::board::position::Color;

/// What the user is doing with the board: exactly one activity at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Exploring the tree: every value shows; auto-play may step through the line shown.
    Explore {
        /// Auto-play, while it runs (`p`).
        auto: Option<AutoPlay>,
    },
    /// A game against the engine (`--play`, `:play`).
    Game(Game),
    /// Practice with the values hidden (`:drill`).
    Drill(Drill),
    /// The board editor (`E`, `:edit`), over the activity it suspended.
    Edit(Editing),
}

impl Activity {
    /// Exploring, auto-play off.
    pub(crate) const EXPLORE: Activity = Activity::Explore { auto: None };
}

/// The board editor, and what it suspended: the game or the drill comes back when the editor
/// closes (Esc: on the tree as it was; Enter: on the edited position). Auto-play does not: it
/// stops when the editor opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Editing {
    /// The board being edited.
    pub editor: Editor,
    /// What was on when it opened.
    pub suspended: Suspended,
}

/// The activity under the editor: any but the editor itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Suspended {
    /// Exploring (auto-play stopped).
    Explore,
    /// A game, the engine waiting.
    Game(Game),
    /// A drill, its tally kept.
    Drill(Drill),
}

impl Suspended {
    /// The activity it was, to go on with: a game's engine starts thinking afresh.
    pub fn resume(self) -> Activity {
        match self {
            Suspended::Explore => Activity::EXPLORE,
            Suspended::Game(g) => Activity::Game(Game { thinking: None, ..g }),
            Suspended::Drill(d) => Activity::Drill(d),
        }
    }

    /// What it is called in the status line: "exploring", "the game", "the drill".
    pub fn name(&self) -> &'static str {
        match self {
            Suspended::Explore => "exploring",
            Suspended::Game(_) => "the game",
            Suspended::Drill(_) => "the drill",
        }
    }
}

/// What takes every key over the board, if anything: the help or the command line (the one
/// open at a time). The teaching view is not an overlay but a panel ([`Model::teach()`]): the help
/// and the command line open over it, and it stays when they close.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Overlay {
    /// Nothing: the board's contexts have the keys.
    #[default]
    None,
    /// The help overlay is open.
    Help,
    /// The command line is open with this text.
    Command(String),
    /// The list of a file's games to load one from.
    Pick(super::pick::Picker),
}

impl Model {
    /// The one change of activity. What was on ends (auto-play with exploring); a game, a drill or
    /// the editor starts with the board's own panels (the teaching view closes and its lab run is
    /// cancelled); the editor stops the analysis (nothing is analysed while it is open) and takes
    /// the mask off the board. The caller says what happened and asks for the analysis the new
    /// activity needs ([`Model::arrived`]).
    pub(super) fn set_activity(&mut self, next: Activity) -> Vec<Effect> {
        let mut effects = Vec::new();
        if !matches!(next, Activity::Explore { .. }) {
            effects.extend(self.close_teach());
        }
        if matches!(next, Activity::Edit(_)) {
            self.drawn_mask = None;
            effects.extend(self.job.take().map(|_| Effect::Cancel));
        }
        self.activity = next;
        effects
    }

    /// What the user is doing.
    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// The game, while one is on (not while the editor suspends it).
    pub fn game(&self) -> Option<&Game> {
        match &self.activity {
            Activity::Game(g) => Some(g),
            _ => None,
        }
    }

    pub(super) fn game_mut(&mut self) -> Option<&mut Game> {
        match &mut self.activity {
            Activity::Game(g) => Some(g),
            _ => None,
        }
    }

    /// The drill, while it is on.
    pub fn drill(&self) -> Option<&Drill> {
        match &self.activity {
            Activity::Drill(d) => Some(d),
            _ => None,
        }
    }

    pub(super) fn drill_mut(&mut self) -> Option<&mut Drill> {
        match &mut self.activity {
            Activity::Drill(d) => Some(d),
            _ => None,
        }
    }

    /// The board editor, while it is open.
    pub fn editor(&self) -> Option<&Editor> {
        match &self.activity {
            Activity::Edit(e) => Some(&e.editor),
            _ => None,
        }
    }

    pub(super) fn editor_mut(&mut self) -> Option<&mut Editor> {
        match &mut self.activity {
            Activity::Edit(e) => Some(&mut e.editor),
            _ => None,
        }
    }

    /// Auto-play, while it runs.
    pub fn auto(&self) -> Option<&AutoPlay> {
        match &self.activity {
            Activity::Explore { auto } => auto.as_ref(),
            _ => None,
        }
    }

    pub(super) fn auto_mut(&mut self) -> Option<&mut AutoPlay> {
        match &mut self.activity {
            Activity::Explore { auto } => auto.as_mut(),
            _ => None,
        }
    }

    /// The seat of the game on (`Some(None)`: engine against engine), the editor looked through:
    /// what the session file records.
    pub(super) fn seat(&self) -> Option<Option<Color>> {
        match &self.activity {
            Activity::Game(g) | Activity::Edit(Editing { suspended: Suspended::Game(g), .. }) => Some(g.human),
            _ => None,
        }
    }

    /// The teaching view, while it is open (never with the editor: [`Model::set_activity`] closes
    /// it).
    pub fn teach(&self) -> Option<Teach> {
        self.teach
    }

    /// Whether a column letter typed on the board waits for its row.
    pub(crate) fn typing(&self) -> bool {
        self.typed.is_some()
    }

    /// Whether the review of the line is on (`:review`): it goes on through every activity.
    pub fn reviewing(&self) -> bool {
        self.review
    }
}
