//! Chapter `ch_newmodels`: new-generation open models.

pub mod attended;

use crate::Chapter;
use crate::demo::{Demo, Param, anchored};

/// The chapter.
pub fn chapter() -> Chapter {
    Chapter {
        id: "ch_newmodels",
        slug: "newmodels",
        title: "New-generation open models",
        summary: "Compressed and sparse attention, hyper-connections and new MoE: what DeepSeek-V4, Kimi-K3, Qwen3.5 and their peers change for inference engines.",
        source: include_str!("chapter.md"),
        repo_path: "chapters/src/ch_newmodels/chapter.md",
        demos,
    }
}

/// The chapter's demos.
pub fn demos() -> Vec<Demo> {
    vec![Demo {
        id: "attended",
        title: "How many KV entries does one query attend to?",
        params: &[
            Param {
                name: "contexts",
                label: "context lengths",
                default: "4,096 131,072 1,048,576",
                help: "up to 8 whole numbers from 1 to 16,777,216, separated by spaces",
            },
            Param {
                name: "window",
                label: "sliding window",
                default: "128",
                help: "tokens, 1 to 1,048,576",
            },
            Param {
                name: "topk",
                label: "C4 indexer top-k",
                default: "512",
                help: "entries, 1 to 1,048,576",
            },
        ],
        source: anchored(include_str!("attended.rs"), "demo"),
        run: attended::run,
    }]
}
