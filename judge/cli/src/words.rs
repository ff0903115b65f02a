//! Everything the command line says, one type per message: `say.en.toml` and
//! `say.zh.toml` compiled by build.rs (the `catalog` crate). `help` holds what
//! each command and argument is for, `clap` and `clap_error` the words clap
//! adds itself (see `frame`), the other modules the judge's own sentences.

include!(concat!(env!("OUT_DIR"), "/words.rs"));
include!(concat!(env!("OUT_DIR"), "/help_keys.rs"));
