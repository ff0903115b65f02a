/// Entries a query at position `pos` (0-based) attends to in one layer:
/// sliding-window tokens + finished compressed entries (capped at `topk`; 0 = no cap).
pub fn attended(pos: i64, ratio: i64, topk: i64, window: i64) -> i64 {
    todo!()
}
