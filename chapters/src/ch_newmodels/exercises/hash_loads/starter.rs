/// Hash routing: token id `t` always goes to the experts `table[t]`. Returns the
/// loads per expert and the busiest load over the mean load (0.0 if nothing routed).
pub fn hash_loads(table: Vec<Vec<i64>>, ids: Vec<i64>, experts: i64) -> (Vec<i64>, f64) {
    todo!()
}
