//! One method's run in the outcome lab as JSON, for `explain search --outcome` and `bench --lab`
//! alike: the method, its outcome, nodes and seconds; a run over its budget has its nodes and
//! seconds and `over_limit`; a refused one its reason in `refused` and a null outcome.

use othello_explorer::studies::lab::outcome::{OutcomeError, Run};
use serde::Serialize;

/// A method's row.
#[derive(Serialize)]
pub struct MethodRow {
    method: &'static str,
    outcome: Option<&'static str>,
    nodes: Option<u64>,
    seconds: Option<f64>,
    over_limit: bool,
    refused: Option<String>,
    selection_share: Option<f64>,
    selection_seconds: Option<f64>,
    iterations: Option<u32>,
}

impl MethodRow {
    /// The row of one method's run.
    pub fn of(r: &Result<Run, OutcomeError>) -> MethodRow {
        let none = |method: &'static str| MethodRow {
            method,
            outcome: None,
            nodes: None,
            seconds: None,
            over_limit: false,
            refused: None,
            selection_share: None,
            selection_seconds: None,
            iterations: None,
        };
        match r {
            Ok(run) => MethodRow {
                outcome: Some(run.outcome.name()),
                nodes: Some(run.nodes),
                seconds: Some(run.elapsed.as_secs_f64()),
                selection_share: run.selection_share(),
                selection_seconds: run.selecting.map(|d| d.as_secs_f64()),
                iterations: run.iterations,
                ..none(run.method.name())
            },
            Err(OutcomeError::OverBudget { method, nodes, elapsed }) => MethodRow {
                nodes: Some(*nodes),
                seconds: Some(elapsed.as_secs_f64()),
                over_limit: true,
                ..none(method.name())
            },
            Err(e) => MethodRow { refused: Some(e.to_string()), ..none(e.method().name()) },
        }
    }
}
