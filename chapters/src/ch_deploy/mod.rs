//! Chapter `ch_deploy`: what it costs to serve Kimi-K3 and DeepSeek-V4, and a
//! deployment planner.

pub mod decode_step;
pub mod duty_cycle;
pub mod ep_sizing;
pub mod figures;
pub mod plan;
pub mod planner;
pub mod request_kv;

use crate::Chapter;
use crate::demo::Demo;

/// The chapter.
pub fn chapter() -> Chapter {
    Chapter {
        id: "ch_deploy",
        slug: "deploy",
        title: "What it costs to serve Kimi-K3 and DeepSeek-V4",
        summary: "Two answers to a million-token context, priced in GPUs: KV per request, expert parallelism, prefill/decode disaggregation, duty cycles and HiCache, H200 against B300, with a planner that shows every rounding.",
        #[cfg(feature = "render")]
        source: include_str!("chapter.md"),
        repo_path: "chapters/src/ch_deploy/chapter.md",
        demos,
        #[cfg(feature = "render")]
        figures: figures::figures,
    }
}

/// The chapter's demos, in the order the text uses them.
pub fn demos() -> Vec<Demo> {
    vec![
        request_kv::demo(),
        ep_sizing::demo(),
        planner::demo(),
        duty_cycle::demo(),
        decode_step::demo(),
    ]
}
