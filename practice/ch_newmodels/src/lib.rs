//! Your Rust solutions for chapter `ch_newmodels`. Each module holds one
//! exercise; replace its `todo!()` with your code and run `cargo judge practice/ch_newmodels`.

#![allow(unused_variables)]

pub mod attended;
