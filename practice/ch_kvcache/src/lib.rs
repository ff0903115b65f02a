//! Your Rust solutions for chapter `ch_kvcache`. Each module holds one
//! exercise; replace its `todo!()` with your code and run `cargo judge practice/ch_kvcache`.

#![allow(unused_variables)]

pub mod csa_entries;
pub mod csa_hca_bytes;
pub mod delta_rule_step;
pub mod gqa_bytes;
pub mod hybrid_batch;
pub mod hybrid_bytes;
pub mod max_batch;
pub mod mla_bytes;
pub mod stored_and_read;
