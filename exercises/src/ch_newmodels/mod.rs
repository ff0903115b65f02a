//! Exercises of chapter `ch_newmodels`: the chapter's metadata entry per exercise.

pub mod attended;
pub mod compress_stream;
pub mod dispatch_bytes;
pub mod hash_loads;
pub mod kv_request;
pub mod prefix_reuse;
pub mod sinkhorn;
pub mod v4_kv;

use judge::Tolerance;

use crate::Exercise;

/// The chapter's exercises, in the order the chapter presents them.
pub fn exercises() -> Vec<Exercise> {
    vec![
        Exercise {
            id: "ch_newmodels/compress_stream",
            title: "A streaming KV compressor",
            statement: include_str!("compress_stream.md"),
            function: "compress_stream",
            params: &["kv", "score", "ratio"],
            returns: "#{entries: [[float]], partial: int}",
            starter_rhai: include_str!("compress_stream.rhai"),
            starter_rust: include_str!("compress_stream.starter.rs"),
            hints: &[
                "What does the compressor have to remember between two tokens, and when does it forget it?",
                "In one dimension d of a full block, which scores go into the softmax: those of the other dimensions of the same token, or those of the other tokens in dimension d?",
                "What does exp(1000.0) give? Does subtracting the same number from every score of a softmax change its weights?",
                "Answer: push each token into a buffer; when it holds `ratio` tokens, for every d take m = the buffer's largest score[.][d], w_i = exp(score[i][d] - m), entry[d] = Σ w_i · kv[i][d] / Σ w_i, then empty the buffer. partial is the buffer's length at the end.",
            ],
            // Entries are averages of values of order 1: a different summation order
            // changes them by about 1e-16, far inside the default 1e-9.
            tolerance: Tolerance::default(),
            cases: compress_stream::cases,
            reference: compress_stream::reference,
            reference_source: chapters::demo::anchored(
                include_str!("compress_stream.rs"),
                "reference",
            ),
        },
        Exercise {
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
        },
        Exercise {
            id: "ch_newmodels/v4_kv",
            title: "DeepSeek-V4's KV ledger",
            statement: include_str!("v4_kv.md"),
            function: "v4_kv",
            params: &["c4", "c128", "swa_only", "idx_bytes"],
            returns: "[per_token_bytes (float), fixed_bytes (int)]",
            starter_rhai: include_str!("v4_kv.rhai"),
            starter_rust: include_str!("v4_kv.starter.rs"),
            hints: &[
                "How many bytes does a C4 layer store after 4 tokens, counting the indexer key? And a C128 layer after 128 tokens?",
                "Which layers keep a sliding window: only the compressed ones, or all of them?",
                "In Rhai, 716 / 4 is an int. How do you make the per-token division keep its fraction, while the fixed bytes stay an int?",
                "Answer: per token = c4 · (584 + idx_bytes) / 4.0 + c128 · 584 / 128.0; fixed = (c4 + c128 + swa_only) · 128 · 584 + c4 · 8 · 2560 · 4 + c128 · 128 · 1024 · 4.",
            ],
            // The per-token bytes are exact multiples of 1/128: any sound formula
            // lands on the same double.
            tolerance: Tolerance::default(),
            cases: v4_kv::cases,
            reference: v4_kv::reference,
            reference_source: chapters::demo::anchored(include_str!("v4_kv.rs"), "reference"),
        },
        Exercise {
            id: "ch_newmodels/kv_request",
            title: "The KV of one V4 request",
            statement: include_str!("kv_request.md"),
            function: "kv_request",
            params: &["c4", "c128", "swa_only", "idx_bytes", "tokens"],
            returns: "float",
            starter_rhai: include_str!("kv_request.rhai"),
            starter_rust: include_str!("kv_request.starter.rs"),
            hints: &[
                "Which part of the request grows with its length, and which part is there even for a request of 0 tokens?",
                "Does a window-only layer cost anything per token? Per request?",
                "Answer: (c4 · (584 + idx_bytes) / 4.0 + c128 · 584 / 128.0) · tokens + (c4 + c128 + swa_only) · 128 · 584 + c4 · 8 · 2560 · 4 + c128 · 128 · 1024 · 4.",
            ],
            // Totals reach about 1e10 bytes; rel 1e-9 allows a different order of the
            // same additions and still catches a missing term of a few bytes per token.
            tolerance: Tolerance::default(),
            cases: kv_request::cases,
            reference: kv_request::reference,
            reference_source: chapters::demo::anchored(include_str!("kv_request.rs"), "reference"),
        },
        Exercise {
            id: "ch_newmodels/sinkhorn",
            title: "Sinkhorn: a doubly stochastic mix",
            statement: include_str!("sinkhorn.md"),
            function: "sinkhorn",
            params: &["m", "iters"],
            returns: "[[float]]",
            starter_rhai: include_str!("sinkhorn.rhai"),
            starter_rust: include_str!("sinkhorn.starter.rs"),
            hints: &[
                "After step 1 every row sums to about 1. What sums to about 1 after step 2, and what might not any more?",
                "What is exp(1000.0)? Why does subtracting a row's maximum before exp not change its softmax?",
                "How many row normalisations happen when iters is 1? When it is 2? Is the matrix always square?",
                "Answer: for each row, e = exp(x - max), x = e / Σe + 1e-6; divide each column by (column sum + 1e-6); then for 1..iters: each row by (row sum + 1e-6), each column by (column sum + 1e-6).",
            ],
            // Up to 20 rounds of sums of at most 5 terms: a different summation order
            // moves entries by about 1e-15, far inside the default 1e-9, while a
            // forgotten eps moves them by about 1e-6.
            tolerance: Tolerance::default(),
            cases: sinkhorn::cases,
            reference: sinkhorn::reference,
            reference_source: chapters::demo::anchored(include_str!("sinkhorn.rs"), "reference"),
        },
        Exercise {
            id: "ch_newmodels/hash_loads",
            title: "Expert loads under hash routing",
            statement: include_str!("hash_loads.md"),
            function: "hash_loads",
            params: &["table", "ids", "experts"],
            returns: "[[int], float]",
            starter_rhai: include_str!("hash_loads.rhai"),
            starter_rust: include_str!("hash_loads.starter.rs"),
            hints: &[
                "A token id that appears five times in the batch: how many times does it add to each of its experts?",
                "The mean load is the total of all loads divided by the number of experts. Is that total the number of tokens in the batch?",
                "What does your code return for an empty batch? Is your division an integer division?",
                "Answer: loads[e] += 1 for every id in ids and every e in table[id]; imbalance = max(loads) / (sum(loads) / experts) as floats, or 0.0 when the sum is 0.",
            ],
            // Ratios of small integers: any order of the float operations stays
            // within a few ulps.
            tolerance: Tolerance::default(),
            cases: hash_loads::cases,
            reference: hash_loads::reference,
            reference_source: chapters::demo::anchored(include_str!("hash_loads.rs"), "reference"),
        },
        Exercise {
            id: "ch_newmodels/dispatch_bytes",
            title: "Dispatch bytes per token",
            statement: include_str!("dispatch_bytes.md"),
            function: "dispatch_bytes",
            params: &["hidden", "topk", "bytes_per_elem", "latent"],
            returns: "int",
            starter_rhai: include_str!("dispatch_bytes.rhai"),
            starter_rust: include_str!("dispatch_bytes.starter.rs"),
            hints: &[
                "How many copies of the token's activation leave the GPU, and how many elements does each hold?",
                "With latent MoE, is the vector sent always half the hidden size, or exactly `latent` long?",
                "Answer: (latent if latent > 0, else hidden) · topk · bytes_per_elem.",
            ],
            tolerance: Tolerance::default(),
            cases: dispatch_bytes::cases,
            reference: dispatch_bytes::reference,
            reference_source: chapters::demo::anchored(
                include_str!("dispatch_bytes.rs"),
                "reference",
            ),
        },
        Exercise {
            id: "ch_newmodels/prefix_reuse",
            title: "Prefix-cache reuse on a compressed layer",
            statement: include_str!("prefix_reuse.md"),
            function: "prefix_reuse",
            params: &["prefix_len", "ratio"],
            returns: "[reused_entries, tokens_covered, tail_tokens] (ints)",
            starter_rhai: include_str!("prefix_reuse.rhai"),
            starter_rust: include_str!("prefix_reuse.starter.rs"),
            hints: &[
                "Is an entry made from a block that has only 104 of its 128 tokens?",
                "How many complete blocks fit in the prefix, and how many tokens do they hold?",
                "Answer: reused = prefix_len / ratio (integer division), covered = reused · ratio, tail = prefix_len - covered.",
            ],
            tolerance: Tolerance::default(),
            cases: prefix_reuse::cases,
            reference: prefix_reuse::reference,
            reference_source: chapters::demo::anchored(
                include_str!("prefix_reuse.rs"),
                "reference",
            ),
        },
    ]
}
