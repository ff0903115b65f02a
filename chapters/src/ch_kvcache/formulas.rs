//! The four KV-cache formulas of the chapter, the models its comparison table
//! uses, and what a GPU can hold. Every byte count the chapter quotes comes
//! from here (or from a cell built on it).
//!
//! Conventions: sizes in bytes; `dtype_bytes` is bytes per stored value (BF16 =
//! 2, FP8 = 1); "1M tokens" is either 10^6 or 2^20 ([`Million`]), and GiB is
//! 2^30 bytes while GB is 10^9 ([`Units`]).

// ANCHOR: formulas
/// MHA / MQA / GQA: K and V (the 2) for every layer, KV head and dimension.
/// MHA has `kv_heads` = query heads; MQA has 1.
pub fn gqa_bytes(
    layers: u64,
    kv_heads: u64,
    head_dim: u64,
    tokens: u64,
    batch: u64,
    dtype_bytes: u64,
) -> u64 {
    2 * layers * kv_heads * head_dim * tokens * batch * dtype_bytes
}

/// MLA: one joint latent of `kv_lora_rank` values plus a shared RoPE key of
/// `rope_dim` values per token and layer; no factor 2, since K and V are both
/// rebuilt from the latent.
pub fn mla_bytes(
    layers: u64,
    kv_lora_rank: u64,
    rope_dim: u64,
    tokens: u64,
    batch: u64,
    dtype_bytes: u64,
) -> u64 {
    layers * (kv_lora_rank + rope_dim) * tokens * batch * dtype_bytes
}

/// A hybrid of linear and full attention: only the `full_layers` hold a KV
/// cache (GQA there); the linear layers' fixed state is not counted here.
pub fn hybrid_bytes(
    full_layers: u64,
    kv_heads: u64,
    head_dim: u64,
    tokens: u64,
    batch: u64,
    dtype_bytes: u64,
) -> u64 {
    gqa_bytes(full_layers, kv_heads, head_dim, tokens, batch, dtype_bytes)
}

/// DeepSeek-V4's CSA + HCA, one request: the compressed history (CSA layers
/// keep one entry per 4 tokens, HCA layers one per 128; taken as a fraction,
/// as the source's formula does) and the raw 128-token window every layer
/// keeps, a fixed cost.
pub fn csa_hca_bytes(
    tokens: u64,
    n_csa: u64,
    n_hca: u64,
    n_layers: u64,
    kv_dim: u64,
    dtype_bytes: u64,
) -> CsaHca {
    let per_token =
        (n_csa as f64 / 4.0 + n_hca as f64 / 128.0) * kv_dim as f64 * dtype_bytes as f64;
    CsaHca {
        compressed: tokens as f64 * per_token,
        window: n_layers * WINDOW * kv_dim * dtype_bytes,
    }
}

/// The sliding window every V4 layer keeps, in tokens.
pub const WINDOW: u64 = 128;

/// The two parts of a CSA + HCA cache.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CsaHca {
    /// Bytes of compressed entries (grows with the context).
    pub compressed: f64,
    /// Bytes of the raw sliding windows (fixed).
    pub window: u64,
}

/// Entries an overlapping compressor has finished after `tokens` tokens: one
/// every `stride` tokens, each covering `width` tokens, so the first needs
/// `width` tokens; 0 before that.
pub fn csa_entries(tokens: u64, stride: u64, width: u64) -> u64 {
    if tokens < width || stride == 0 {
        0
    } else {
        (tokens - width) / stride + 1
    }
}

/// The largest number of requests `b` with
/// `weight_bytes + b × (fixed_bytes + per_token_bytes × tokens) ≤ gpu_bytes`;
/// 0 when not even one fits.
pub fn max_batch(
    per_token_bytes: f64,
    fixed_bytes: u64,
    weight_bytes: u64,
    gpu_bytes: u64,
    tokens: u64,
) -> u64 {
    let per_request = fixed_bytes as f64 + per_token_bytes * tokens as f64;
    if weight_bytes > gpu_bytes {
        return 0;
    }
    let free = (gpu_bytes - weight_bytes) as f64;
    if per_request <= 0.0 {
        return 0;
    }
    (free / per_request).floor() as u64
}
// ANCHOR_END: formulas

/// What "1M tokens" means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Million {
    /// 10^6 tokens (the source's comparison table).
    Decimal,
    /// 2^20 tokens (the source's text elsewhere, and ch_newmodels).
    Binary,
}

impl Million {
    /// The number of tokens.
    pub fn tokens(self) -> u64 {
        match self {
            Million::Decimal => 1_000_000,
            Million::Binary => 1 << 20,
        }
    }
}

/// Units for printing byte counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Units {
    /// KiB, MiB, GiB (powers of 1,024).
    Binary,
    /// KB, MB, GB (powers of 1,000).
    Decimal,
}

impl Units {
    /// Bytes in one (kilo, mega, giga) unit, and their names.
    pub fn base(self) -> f64 {
        match self {
            Units::Binary => 1024.0,
            Units::Decimal => 1000.0,
        }
    }

    /// `bytes` in GiB or GB with `digits` decimals, unit included.
    pub fn giga(self, bytes: f64, digits: usize) -> String {
        let name = match self {
            Units::Binary => "GiB",
            Units::Decimal => "GB",
        };
        format!("{:.digits$} {name}", bytes / self.base().powi(3))
    }

    /// `bytes` in MiB or MB.
    pub fn mega(self, bytes: f64, digits: usize) -> String {
        let name = match self {
            Units::Binary => "MiB",
            Units::Decimal => "MB",
        };
        format!("{:.digits$} {name}", bytes / self.base().powi(2))
    }

    /// `bytes` in KiB or KB.
    pub fn kilo(self, bytes: f64, digits: usize) -> String {
        let name = match self {
            Units::Binary => "KiB",
            Units::Decimal => "KB",
        };
        format!("{:.digits$} {name}", bytes / self.base())
    }
}

/// One H200's memory: 141 GB (10^9 bytes).
pub const H200_BYTES: u64 = 141_000_000_000;

/// The attention layout of a model in the comparison table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layout {
    /// GQA in every one of `layers` layers.
    Gqa {
        /// Layers.
        layers: u64,
        /// KV heads per layer.
        kv_heads: u64,
        /// Dimensions per head.
        head_dim: u64,
    },
    /// MLA in every layer.
    Mla {
        /// Layers.
        layers: u64,
        /// The latent's width.
        kv_lora_rank: u64,
        /// The shared RoPE key's width.
        rope_dim: u64,
    },
    /// Linear attention in most layers, GQA in `full_layers` of them.
    Hybrid {
        /// All layers.
        layers: u64,
        /// Full-attention layers (the only ones with a KV cache).
        full_layers: u64,
        /// KV heads per full layer.
        kv_heads: u64,
        /// Dimensions per head.
        head_dim: u64,
    },
    /// DeepSeek-V4's compressed attention.
    CsaHca {
        /// CSA (4:1) layers.
        n_csa: u64,
        /// HCA (128:1) layers.
        n_hca: u64,
        /// All layers (each keeps a window).
        layers: u64,
        /// Width of one entry.
        kv_dim: u64,
    },
}

/// A model of the comparison table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// Name as the source gives it.
    pub name: &'static str,
    /// Its attention layout.
    pub layout: Layout,
    /// Bytes per stored value (2 = BF16 in the table).
    pub dtype_bytes: u64,
}

impl Model {
    /// KV bytes of one request of `tokens` tokens.
    pub fn bytes(&self, tokens: u64) -> f64 {
        self.per_token() * tokens as f64 + self.fixed() as f64
    }

    /// Bytes per token of context (the part that grows).
    pub fn per_token(&self) -> f64 {
        let d = self.dtype_bytes;
        match self.layout {
            Layout::Gqa {
                layers,
                kv_heads,
                head_dim,
            } => gqa_bytes(layers, kv_heads, head_dim, 1, 1, d) as f64,
            Layout::Mla {
                layers,
                kv_lora_rank,
                rope_dim,
            } => mla_bytes(layers, kv_lora_rank, rope_dim, 1, 1, d) as f64,
            Layout::Hybrid {
                full_layers,
                kv_heads,
                head_dim,
                ..
            } => hybrid_bytes(full_layers, kv_heads, head_dim, 1, 1, d) as f64,
            Layout::CsaHca {
                n_csa,
                n_hca,
                layers,
                kv_dim,
            } => csa_hca_bytes(1, n_csa, n_hca, layers, kv_dim, d).compressed,
        }
    }

    /// Bytes every request holds whatever its length (V4's windows; 0 for the
    /// others, whose linear layers' state this table does not count).
    pub fn fixed(&self) -> u64 {
        match self.layout {
            Layout::CsaHca {
                n_csa,
                n_hca,
                layers,
                kv_dim,
            } => csa_hca_bytes(0, n_csa, n_hca, layers, kv_dim, self.dtype_bytes).window,
            _ => 0,
        }
    }

    /// KV values stored per token in one layer that has a cache, as the
    /// source's table counts them (V4: a CSA layer's share).
    pub fn values_per_layer(&self) -> f64 {
        match self.layout {
            Layout::Gqa {
                kv_heads, head_dim, ..
            }
            | Layout::Hybrid {
                kv_heads, head_dim, ..
            } => (2 * kv_heads * head_dim) as f64,
            Layout::Mla {
                kv_lora_rank,
                rope_dim,
                ..
            } => (kv_lora_rank + rope_dim) as f64,
            Layout::CsaHca { kv_dim, .. } => kv_dim as f64 / 4.0,
        }
    }
}

/// The source's four models, in the order of its table. "Qwen3-72B" is the
/// source's name for a GQA model of 80 layers, 8 KV heads of 128 dimensions:
/// check the configuration of the model you actually run.
pub fn table_models() -> Vec<Model> {
    vec![
        Model {
            name: "Qwen3-72B",
            layout: Layout::Gqa {
                layers: 80,
                kv_heads: 8,
                head_dim: 128,
            },
            dtype_bytes: 2,
        },
        Model {
            name: "DeepSeek-V3",
            layout: Layout::Mla {
                layers: 61,
                kv_lora_rank: 512,
                rope_dim: 64,
            },
            dtype_bytes: 2,
        },
        Model {
            name: "Qwen3.5-397B",
            layout: Layout::Hybrid {
                layers: 60,
                full_layers: 15,
                kv_heads: 2,
                head_dim: 256,
            },
            dtype_bytes: 2,
        },
        Model {
            name: "DeepSeek-V4",
            layout: Layout::CsaHca {
                n_csa: 30,
                n_hca: 31,
                layers: 61,
                kv_dim: 512,
            },
            dtype_bytes: 2,
        },
    ]
}

/// A model of the table by name.
pub fn table_model(name: &str) -> Option<Model> {
    table_models().into_iter().find(|m| m.name == name)
}

#[cfg(test)]
mod tests;
