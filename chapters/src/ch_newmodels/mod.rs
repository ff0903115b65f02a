//! Chapter `ch_newmodels`: new-generation open models.

pub mod attended;
pub mod compressor;
pub mod figures;
pub mod ledger;
pub mod mhc;
pub mod routing;

use crate::Chapter;
use crate::demo::Demo;

/// The chapter.
pub fn chapter() -> Chapter {
    Chapter {
        id: "ch_newmodels",
        slug: "newmodels",
        title: "New-generation open models",
        summary: "Compressed and sparse attention, hyper-connections and new MoE: what DeepSeek-V4, Kimi-K3, Qwen3.5 and their peers change for inference engines.",
        #[cfg(feature = "render")]
        source: include_str!("chapter.md"),
        repo_path: "chapters/src/ch_newmodels/chapter.md",
        demos,
        #[cfg(feature = "render")]
        figures: figures::figures,
    }
}

/// The chapter's demos, in the order the text uses them.
pub fn demos() -> Vec<Demo> {
    vec![
        compressor::demo(),
        attended::demo(),
        ledger::demo(),
        mhc::demo(),
        routing::demo(),
    ]
}
