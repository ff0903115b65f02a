/// One step of the gated delta rule (the Gated DeltaNet paper's form), `s` being
/// d_v × d_k, `k` of length d_k, `v` of length d_v:
/// `S' = α·S − α·β·(S k) kᵀ + β·v kᵀ`.
pub fn delta_rule_step(
    s: Vec<Vec<f64>>,
    k: Vec<f64>,
    v: Vec<f64>,
    alpha: f64,
    beta: f64,
) -> Vec<Vec<f64>> {
    todo!()
}
