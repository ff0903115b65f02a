//! Exercises of chapter `ch_newmodels`: the chapter's metadata entry per exercise.

pub mod attended;

use judge::Tolerance;

use crate::Exercise;

/// The chapter's exercises, in the order the chapter presents them.
pub fn exercises() -> Vec<Exercise> {
    vec![Exercise {
        id: "ch_newmodels/attended",
        title: "Entries a query attends to",
        statement: include_str!("attended.md"),
        function: "attended",
        params: &["pos", "ratio", "topk", "window"],
        returns: "int",
        starter_rhai: include_str!("attended.rhai"),
        starter_rust: include_str!("attended.starter.rs"),
        hints: &[
            "How many raw tokens can the sliding window hold when the query is at position 3? At position 10,000?",
            "How many compressed entries are complete when pos + 1 tokens have arrived and every `ratio` tokens make one?",
            "What should happen when `topk` is 0, and when `ratio` is 0 or 1?",
            "Answer: min(window, pos + 1) plus, when ratio > 1, (pos + 1) / ratio capped at topk when topk > 0.",
        ],
        tolerance: Tolerance::default(),
        cases: attended::cases,
        reference: attended::reference,
        reference_source: chapters::demo::anchored(include_str!("attended.rs"), "reference"),
    }]
}
