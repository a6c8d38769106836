//! The archive panel (`A`) and `:games`: the masters' games of the position on screen beside the
//! engine's values (the archive of `othello-explorer archive add`, read once on the file thread
//! when first wanted), and the list of the games through the position, one of which Enter opens
//! as a new tree (the old one kept for `:restore`).

use super::pick::{LIST_LIMIT, Picker};
use super::{Effect, Model, Overlay};
use crate::archive::{Archive, Filter, PositionStats};
use std::sync::Arc;

/// Where the archive stands.
#[derive(Clone, Debug, Default)]
pub(crate) enum ArchiveState {
    /// Not asked for yet.
    #[default]
    Unloaded,
    /// Being read on the file thread.
    Loading,
    /// Read.
    Ready(Arc<Archive>),
    /// Not readable: why.
    Failed(String),
}

impl PartialEq for ArchiveState {
    fn eq(&self, other: &Self) -> bool {
        matches!(
            (self, other),
            (ArchiveState::Unloaded, ArchiveState::Unloaded)
                | (ArchiveState::Loading, ArchiveState::Loading)
                | (ArchiveState::Ready(_), ArchiveState::Ready(_))
                | (ArchiveState::Failed(_), ArchiveState::Failed(_))
        )
    }
}

impl Model {
    /// The effect that reads the archive, the first time it is wanted.
    fn want_archive(&mut self) -> Vec<Effect> {
        if self.archive == ArchiveState::Unloaded {
            self.archive = ArchiveState::Loading;
            return vec![Effect::LoadArchive];
        }
        Vec::new()
    }

    /// `A`: the archive panel on or off.
    pub(super) fn toggle_archive(&mut self) -> Vec<Effect> {
        self.archive_panel = !self.archive_panel;
        if !self.archive_panel {
            self.say("archive panel off");
            return Vec::new();
        }
        let effects = self.want_archive();
        match &self.archive {
            ArchiveState::Loading => self.say("reading the archive of played games…"),
            ArchiveState::Failed(e) => {
                let e = e.clone();
                self.complain(e)
            }
            _ => self.say("archive panel: the archive's games beside the engine's values (A closes)"),
        }
        effects
    }

    /// The archive was read.
    pub(super) fn archive_loaded(&mut self, result: Result<Arc<Archive>, String>) -> Vec<Effect> {
        match result {
            Ok(a) => {
                let games = a.games.len();
                self.archive = ArchiveState::Ready(a);
                if games == 0 {
                    self.say("the archive holds no game yet: othello-explorer archive add FILES (docs/archive.md)");
                } else {
                    self.say(format!(
                        "archive read: {}",
                        crate::notation::printable::count(games as i64, "game", "games")
                    ));
                }
                if std::mem::take(&mut self.games_wanted) {
                    return self.games_list();
                }
            }
            Err(e) => {
                self.complain(e.clone());
                self.archive = ArchiveState::Failed(e);
            }
        }
        Vec::new()
    }

    /// The archive's counts for the position on screen, when the panel is on and the archive read.
    pub fn archive_stats(&self) -> Option<PositionStats> {
        let ArchiveState::Ready(a) = &self.archive else { return None };
        Some(a.stats(&self.position().after_forced_pass().0, &Filter::default()))
    }

    /// Whether the archive panel shows (in place of the bitboards).
    pub fn archive_panel(&self) -> bool {
        self.archive_panel
    }

    /// What the panel says while it has no counts: reading, or why not.
    pub(crate) fn archive_note(&self) -> String {
        match &self.archive {
            ArchiveState::Unloaded | ArchiveState::Loading => "reading the archive…".into(),
            ArchiveState::Failed(e) => e.clone(),
            ArchiveState::Ready(_) => String::new(),
        }
    }

    /// `:games`: the list of the archive's games through the position on screen.
    pub(super) fn games_list(&mut self) -> Vec<Effect> {
        let ArchiveState::Ready(a) = &self.archive else {
            self.games_wanted = true;
            let effects = self.want_archive();
            if let ArchiveState::Failed(e) = &self.archive {
                let e = e.clone();
                self.games_wanted = false;
                self.complain(e);
            } else {
                self.say("reading the archive of played games…");
            }
            return effects;
        };
        let a = a.clone();
        let position = self.position().after_forced_pass().0;
        let rows = a.games_through(&position, &Filter::default(), LIST_LIMIT + 1);
        if rows.is_empty() {
            self.say("no game of the archive passed through this position");
            return Vec::new();
        }
        let lines: Vec<String> = rows.iter().take(LIST_LIMIT).map(|g| crate::archive::game_line(&a, g)).collect();
        let games = rows.iter().take(LIST_LIMIT).map(|g| a.as_game(g)).collect();
        let total = rows.len();
        let title = format!(
            "{} of the archive through this position",
            crate::notation::printable::count(total as i64, "game", "games")
        );
        self.overlay = Overlay::Pick(Picker::of_games(
            "the archive's games",
            title,
            crate::archive::GAME_HEADER,
            games,
            lines,
            total,
        ));
        self.say(format!(
            "{}: ↑↓ choose, Enter opens one as a new tree, Esc closes",
            crate::notation::printable::count(total as i64, "game", "games")
        ));
        Vec::new()
    }
}
