//! Chapter `ch_kvcache`: how the KV cache evolved, from MHA to hybrids.

pub mod cla;
pub mod csa_window;
pub mod delta_rule;
pub mod figures;
pub mod formulas;
pub mod kv_calc;
pub mod quant;
pub mod ssm_scan;

use crate::Chapter;
use crate::demo::Demo;

/// The chapter.
pub fn chapter() -> Chapter {
    Chapter {
        id: "ch_kvcache",
        slug: "kvcache",
        title: "From 305 GiB to 7.4 GiB: how the KV cache evolved",
        summary: "MHA, GQA, MLA, sparse and compressed attention, linear attention and hybrids, quantization and cross-layer sharing: what each stores per token, and the bytes for a model and context of your own.",
        #[cfg(feature = "render")]
        source: include_str!("chapter.md"),
        repo_path: "chapters/src/ch_kvcache/chapter.md",
        demos,
        #[cfg(feature = "render")]
        figures: figures::figures,
    }
}

/// The chapter's demos, in the order the text uses them.
pub fn demos() -> Vec<Demo> {
    vec![
        csa_window::demo(),
        ssm_scan::demo(),
        delta_rule::demo(),
        quant::demo(),
        cla::demo(),
        kv_calc::demo(),
    ]
}
