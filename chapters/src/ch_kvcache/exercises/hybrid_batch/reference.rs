//! Reference solution and cases for `ch_kvcache/hybrid_batch`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

/// Bytes of a KV value (BF16) and of a state value (float32).
const KV_VALUE: i64 = 2;
const STATE_VALUE: i64 = 4;

#[allow(clippy::too_many_arguments)] // the model's shape: eight numbers
// ANCHOR: reference
/// How many requests of `tokens` tokens a hybrid model holds at once in
/// `budget_bytes`: each request needs the BF16 keys and values of its tokens in
/// the `full_layers` GQA layers, and one float32 `state_dim` × `state_dim`
/// matrix per head in each of the `linear_layers`, however long it is.
pub fn hybrid_batch(
    full_layers: i64,
    kv_heads: i64,
    head_dim: i64,
    linear_layers: i64,
    state_heads: i64,
    state_dim: i64,
    tokens: i64,
    budget_bytes: i64,
) -> i64 {
    // Grows with the context: a key and a value per KV head, token and full layer.
    let kv = 2 * full_layers * kv_heads * head_dim * KV_VALUE * tokens;
    // Fixed: a square matrix per head in every linear layer.
    let state = linear_layers * state_heads * state_dim * state_dim * STATE_VALUE;
    // Whole requests only: integer division rounds down, to 0 if none fits.
    budget_bytes / (kv + state)
}
// ANCHOR_END: reference

/// The arguments, checked: layer counts up to 100,000, head counts and
/// `head_dim` up to 65,536, `state_dim` up to 4,096, `tokens` up to 2^40,
/// `budget_bytes` up to 2^50, and a request of at least one byte that fits in
/// an int.
pub fn args(args: &[Value]) -> Result<[i64; 8], String> {
    let a = Args(args);
    let mut v = [0; 8];
    for (i, x) in v.iter_mut().enumerate() {
        *x = a.int(i)?;
    }
    let limits = [
        (100_000, "100,000"),
        (65_536, "65,536"),
        (65_536, "65,536"),
        (100_000, "100,000"),
        (65_536, "65,536"),
        (4_096, "4,096"),
        (1 << 40, "2^40"),
        (1 << 50, "2^50"),
    ];
    for (i, (x, (max, shown))) in v.iter().zip(limits).enumerate() {
        if !(0..=max).contains(x) {
            return Err(format!(
                "argument {} must be between 0 and {shown}, got {x}",
                i + 1
            ));
        }
    }
    let w: [i128; 8] = v.map(i128::from);
    let request = 2 * w[0] * w[1] * w[2] * i128::from(KV_VALUE) * w[6]
        + w[3] * w[4] * w[5] * w[5] * i128::from(STATE_VALUE);
    if request > i128::from(i64::MAX) {
        return Err("a request's bytes do not fit in an int (more than 2^63 - 1)".to_owned());
    }
    if request == 0 {
        return Err("a request must hold at least one byte".to_owned());
    }
    Ok(v)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let [f, h, d, l, sh, sd, t, b] = args(args_)?;
    Ok(hybrid_batch(f, h, d, l, sh, sd, t, b).into())
}

/// Bytes one request of the ch_newmodels ledger's Qwen3.5-0.8B needs (state
/// matrices only) at `tokens` tokens.
fn qwen35_08b(tokens: i64) -> i64 {
    2 * 6 * 2 * 256 * 2 * tokens + 18 * 16 * 128 * 128 * 4
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [i64; 8]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    const GB: i64 = 1_000_000_000;
    // Qwen3.5-0.8B as ch_newmodels' ledger describes it: 6 full layers with 2
    // KV heads of 256, 18 Gated DeltaNet layers of 16 heads, 128 × 128 each.
    let q = |tokens: i64, budget: i64| [6, 2, 256, 18, 16, 128, tokens, budget];
    let q_4k = qwen35_08b(4_096);
    let mut cases = vec![
        case(Kind::Public, q(131_072, 20 * GB)),
        // At 4,096 tokens the state is a large part of each request.
        case(Kind::Public, q(4_096, 20 * GB)),
        // Its longest context does not fit in 3 GB.
        case(Kind::Public, q(262_144, 3 * GB)),
        // Exactly 3 requests, then one byte short of them.
        case(Kind::Hidden, q(4_096, 3 * q_4k)),
        case(Kind::Hidden, q(4_096, 3 * q_4k - 1)),
        case(Kind::Hidden, q(4_096, q_4k)),
        case(Kind::Hidden, q(4_096, q_4k - 1)),
        case(Kind::Hidden, q(4_096, 0)),
        // No context yet: the state alone (52.98 requests in 1 GB).
        case(Kind::Hidden, q(0, GB)),
        case(Kind::Hidden, q(1, GB)),
        // Short contexts, where the state is most of a request.
        case(Kind::Hidden, q(1_024, 20 * GB)),
        case(Kind::Hidden, q(100, 8 * GB)),
        // The chapter's Qwen3.5-397B attention at 10^6 tokens in 100 GB, with no
        // state counted (the calculator's 3), then with 0.8B-shaped states.
        case(Kind::Hidden, [15, 2, 256, 0, 0, 0, 1_000_000, 100 * GB]),
        case(Kind::Hidden, [15, 2, 256, 45, 16, 128, 1_000_000, 100 * GB]),
        case(Kind::Hidden, [15, 2, 256, 45, 16, 128, 4_096, 100 * GB]),
        // Kimi-K3's 69 KDA layers (96 heads, 128 × 128) beside 24 GQA layers.
        case(Kind::Hidden, [24, 8, 128, 69, 96, 128, 4_096, 141 * GB]),
        case(Kind::Hidden, [24, 8, 128, 69, 96, 128, 0, 141 * GB]),
        // A purely linear model: the context does not matter.
        case(Kind::Hidden, [0, 8, 128, 48, 32, 128, 1_000_000, 80 * GB]),
        // Tiny shapes where a forgotten factor shows.
        case(Kind::Hidden, [1, 1, 1, 1, 1, 3, 5, 1_000]),
        case(Kind::Hidden, [1, 1, 1, 0, 0, 0, 1, 3]),
    ];
    let seed = 20_261_309;
    let mut rng = SplitMix64::new(seed);
    for i in 0..10 {
        let full = rng.range(0, 24);
        let heads = rng.pick(&[1, 2, 4, 8]);
        let dim = rng.pick(&[128, 256]);
        let linear = rng.range(1, 72);
        let state_heads = rng.pick(&[16, 32, 64, 96]);
        let state_dim = rng.pick(&[64, 128, 256]);
        // Half short, where the state weighs most.
        let tokens = if i % 2 == 0 {
            rng.range(0, 8_192)
        } else {
            rng.range(0, 1 << 20)
        };
        let budget = rng.range(0, 1_200) * GB / 4;
        cases.push(case(
            Kind::Generated { seed },
            [
                full,
                heads,
                dim,
                linear,
                state_heads,
                state_dim,
                tokens,
                budget,
            ],
        ));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_kvcache::{formulas, kv_calc};
    use chapters::ch_newmodels::ledger;

    #[test]
    fn the_worked_examples() {
        const GB: i64 = 1_000_000_000;
        assert_eq!(hybrid_batch(6, 2, 256, 18, 16, 128, 131_072, 20 * GB), 12);
        assert_eq!(hybrid_batch(6, 2, 256, 18, 16, 128, 4_096, 20 * GB), 288);
        assert_eq!(hybrid_batch(6, 2, 256, 18, 16, 128, 262_144, 3 * GB), 0);
    }

    /// The ledger's Qwen3.5-0.8B row grows by the same bytes per token, and its
    /// fixed part is these states plus the convolutions' cache this exercise
    /// leaves out; Kimi-K3's fixed part is exactly its KDA states.
    #[test]
    fn agrees_with_the_previous_chapters_ledger() {
        let qwen = ledger::model("Qwen3.5-0.8B").unwrap();
        assert_eq!(qwen.per_token, 2.0 * 6.0 * 2.0 * 256.0 * 2.0);
        let state = qwen35_08b(0) as f64;
        assert_eq!(qwen.fixed, state + 18.0 * 6_144.0 * 3.0 * 2.0);
        let k3 = ledger::model("Kimi-K3").unwrap();
        assert_eq!(k3.fixed, (69 * 96 * 128 * 128 * STATE_VALUE) as f64);
    }

    /// Without linear layers the count is the calculator's: the chapter's
    /// Qwen3.5-397B fits 3 times in 100 GB at 10^6 tokens.
    #[test]
    fn agrees_with_the_calculator() {
        let free = formulas::H200_BYTES - kv_calc::FIT_WEIGHTS;
        let per_token = formulas::hybrid_bytes(15, 2, 256, 1, 1, 2) as f64;
        let cell = formulas::max_batch(per_token, 0, 0, free, 1_000_000);
        assert_eq!(cell, 3);
        assert_eq!(
            hybrid_batch(15, 2, 256, 0, 0, 0, 1_000_000, free as i64),
            cell as i64
        );
    }

    /// `max_batch` with the state as the fixed bytes gives the same count.
    #[test]
    fn agrees_with_max_batch() {
        for c in cases() {
            let [f, h, d, l, sh, sd, t, b] = args(&c.args).unwrap();
            let per_token = formulas::hybrid_bytes(f as u64, h as u64, d as u64, 1, 1, 2) as f64;
            let state = (l * sh * sd * sd * STATE_VALUE) as u64;
            let want = formulas::max_batch(per_token, state, 0, b as u64, t as u64);
            assert_eq!(
                hybrid_batch(f, h, d, l, sh, sd, t, b),
                want as i64,
                "{:?}",
                c.args
            );
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |v: [i64; 8]| v.map(Value::from).to_vec();
        assert_eq!(
            reference(&args([0, 2, 256, 0, 16, 128, 100, 10])).unwrap_err(),
            "a request must hold at least one byte"
        );
        assert_eq!(
            reference(&args([6, 2, 256, 18, 16, 5_000, 100, 10])).unwrap_err(),
            "argument 6 must be between 0 and 4,096, got 5000"
        );
        assert!(
            reference(&args([100_000, 65_536, 65_536, 0, 0, 0, 1 << 40, 10]))
                .unwrap_err()
                .contains("do not fit")
        );
    }
}
