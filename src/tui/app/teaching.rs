//! The teaching view and the search lab.

use super::super::lab_worker::{LabEvent, LabResult};
use super::super::teach::{LabState, Lesson, Teach};
use super::{Effect, Model};

impl Model {
    /// `→` `←` in the teaching view: the next or previous step of the trace.
    pub(super) fn step_by(&mut self, by: isize) -> Vec<Effect> {
        let total = self.teach_steps();
        let Some(teach) = self.teach.as_mut() else { return Vec::new() };
        let last = total.saturating_sub(1);
        teach.step = (teach.step.min(last) as isize + by).clamp(0, last as isize) as usize;
        Vec::new()
    }

    pub(super) fn toggle_teach(&mut self) -> Vec<Effect> {
        if self.teach.is_some() {
            self.say("teaching view closed");
            return self.close_teach();
        }
        self.teach = Some(Teach::default());
        self.say("teaching view: → ← steps · ↓ ↑ topics · s search lab · e or Esc leaves");
        Vec::new()
    }

    pub(super) fn topic_by(&mut self, by: isize) -> Vec<Effect> {
        let Some(teach) = self.teach.as_mut() else {
            self.say("e opens the teaching view");
            return Vec::new();
        };
        let n = Lesson::ALL.len() as isize;
        teach.lesson = (teach.lesson as isize + by).rem_euclid(n) as usize;
        teach.step = 0;
        Vec::new()
    }

    /// Closes the teaching view, if it is open, and cancels the lab's run (its results stay for
    /// the lab page).
    pub(super) fn close_teach(&mut self) -> Vec<Effect> {
        if self.teach.take().is_none() {
            return Vec::new();
        }
        self.cancel_lab()
    }

    fn cancel_lab(&mut self) -> Vec<Effect> {
        match self.lab.as_mut() {
            Some(lab) if lab.running => {
                lab.running = false;
                vec![Effect::CancelLab]
            }
            _ => Vec::new(),
        }
    }

    /// `s`: open the lab page; run the lab on the position on screen, or cancel it while it runs.
    pub(super) fn lab_key(&mut self) -> Vec<Effect> {
        let lab_page = Lesson::ALL.iter().position(|&l| l == Lesson::Lab).unwrap_or(0);
        self.teach = Some(Teach { lesson: lab_page, step: 0 });
        let position = self.position();
        if self.lab.as_ref().is_some_and(|l| l.running && l.position == position) {
            self.say("search lab cancelled");
            return self.cancel_lab();
        }
        let job = self.next_lab_job;
        self.next_lab_job += 1;
        self.lab = Some(LabState::new(job, position));
        self.say("search lab running: s again cancels");
        vec![Effect::Lab { job, position }]
    }

    pub(super) fn lab_event(&mut self, ev: LabEvent) -> Vec<Effect> {
        let Some(lab) = self.lab.as_mut().filter(|l| l.job == ev.job && l.position == ev.position) else {
            return Vec::new();
        };
        match ev.result {
            LabResult::Exact(r) if lab.results.len() < crate::studies::lab::Method::ALL.len() => lab.results.push(r),
            LabResult::Outcome(r) if lab.outcomes.len() < crate::studies::lab::outcome::Method::ALL.len() => {
                lab.outcomes.push(r)
            }
            _ => {}
        }
        if lab.complete() && lab.running {
            lab.running = false;
            self.say("search lab done");
        }
        Vec::new()
    }
}
