//! Your Rust solutions for chapter `ch_deploy`. Each module holds one
//! exercise; replace its `todo!()` with your code and run `cargo judge practice/ch_deploy`.

#![allow(unused_variables)]

pub mod best_plan;
pub mod decode_ms;
pub mod decode_plan;
pub mod decode_rho;
pub mod ep_min;
pub mod ep_row;
pub mod hicache_nodes;
pub mod kda_state_bytes;
pub mod reload_traffic;
