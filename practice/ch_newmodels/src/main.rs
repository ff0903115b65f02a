//! Do not edit: connects your functions to the judge (`judge::harness` protocol).

use ch_newmodels_practice as p;
use judge::Value;
use judge::harness::{Args, serve};

fn main() {
    serve(&[
        ("compress_stream", &|a: Args| {
            let c = p::compress_stream::compress_stream(a.matrix(0)?, a.matrix(1)?, a.int(2)?);
            Ok(Value::Map(
                [
                    ("entries".to_owned(), c.entries.into()),
                    ("partial".to_owned(), c.partial.into()),
                ]
                .into(),
            ))
        }),
        ("attended", &|a: Args| {
            Ok(p::attended::attended(a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?).into())
        }),
        ("v4_kv", &|a: Args| {
            let (per_token, fixed) = p::v4_kv::v4_kv(a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?);
            Ok(Value::Array(vec![per_token.into(), fixed.into()]))
        }),
        ("kv_request", &|a: Args| {
            Ok(
                p::kv_request::kv_request(a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?, a.int(4)?)
                    .into(),
            )
        }),
        ("sinkhorn", &|a: Args| {
            Ok(p::sinkhorn::sinkhorn(a.matrix(0)?, a.int(1)?).into())
        }),
        ("hash_loads", &|a: Args| {
            let (loads, imbalance) =
                p::hash_loads::hash_loads(a.int_matrix(0)?, a.ints(1)?, a.int(2)?);
            Ok(Value::Array(vec![loads.into(), imbalance.into()]))
        }),
        ("dispatch_bytes", &|a: Args| {
            Ok(
                p::dispatch_bytes::dispatch_bytes(a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?)
                    .into(),
            )
        }),
        ("prefix_reuse", &|a: Args| {
            Ok(p::prefix_reuse::prefix_reuse(a.int(0)?, a.int(1)?).into())
        }),
    ]);
}
