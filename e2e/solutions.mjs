// Correct Rhai solutions, typed into the editor by the end-to-end test and the bench.
// `cargo test -p exercises` grades each of them natively (exercises/src/check.rs), so
// keep them free of backticks, backslashes and `${`.
export const SOLUTIONS = {
  'ch_newmodels/compress_stream': `fn compress_stream(kv, score, ratio) {
    let entries = [];
    let block_kv = [];
    let block_score = [];
    for t in 0..kv.len() {
        block_kv.push(kv[t]);
        block_score.push(score[t]);
        if block_kv.len() == ratio {
            let entry = [];
            for d in 0..block_kv[0].len() {
                let m = block_score[0][d];
                for i in 1..ratio {
                    if block_score[i][d] > m { m = block_score[i][d]; }
                }
                let total = 0.0;
                let acc = 0.0;
                for i in 0..ratio {
                    let w = exp(block_score[i][d] - m);
                    total += w;
                    acc += w * block_kv[i][d];
                }
                entry.push(acc / total);
            }
            entries.push(entry);
            block_kv = [];
            block_score = [];
        }
    }
    #{entries: entries, partial: block_kv.len()}
}`,
  'ch_newmodels/attended': `fn attended(pos, ratio, topk, window) {
    let swa = if window < pos + 1 { window } else { pos + 1 };
    if ratio <= 1 { return swa; }
    let done = (pos + 1) / ratio;
    swa + if topk > 0 && done > topk { topk } else { done }
}`,
  'ch_newmodels/v4_kv': `fn v4_kv(c4, c128, swa_only, idx_bytes) {
    let per_token = c4 * (584 + idx_bytes) / 4.0 + c128 * 584 / 128.0;
    let window = (c4 + c128 + swa_only) * 128 * 584;
    let state = c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4;
    [per_token, window + state]
}`,
  'ch_newmodels/kv_request': `fn kv_request(c4, c128, swa_only, idx_bytes, tokens) {
    let per_token = c4 * (584 + idx_bytes) / 4.0 + c128 * 584 / 128.0;
    let window = (c4 + c128 + swa_only) * 128 * 584;
    let state = c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4;
    per_token * tokens + window + state
}`,
  'ch_newmodels/sinkhorn': `fn sinkhorn(m, iters) {
    let eps = 0.000001;
    let rows = m.len();
    let cols = m[0].len();
    let out = [];
    for row in m {
        let mx = row[0];
        for x in row { if x > mx { mx = x; } }
        let e = [];
        let s = 0.0;
        for x in row { let v = exp(x - mx); e.push(v); s += v; }
        let r = [];
        for v in e { r.push(v / s + eps); }
        out.push(r);
    }
    for it in 0..iters {
        if it > 0 {
            for i in 0..rows {
                let s = 0.0;
                for j in 0..cols { s += out[i][j]; }
                for j in 0..cols { out[i][j] = out[i][j] / (s + eps); }
            }
        }
        for j in 0..cols {
            let s = 0.0;
            for i in 0..rows { s += out[i][j]; }
            for i in 0..rows { out[i][j] = out[i][j] / (s + eps); }
        }
    }
    out
}`,
  'ch_newmodels/hash_loads': `fn hash_loads(table, ids, experts) {
    let loads = [];
    for e in 0..experts { loads.push(0); }
    for id in ids {
        for e in table[id] { loads[e] += 1; }
    }
    let total = 0;
    let busiest = 0;
    for l in loads {
        total += l;
        if l > busiest { busiest = l; }
    }
    let imbalance = if total == 0 { 0.0 } else { busiest.to_float() / (total.to_float() / experts) };
    [loads, imbalance]
}`,
  'ch_newmodels/dispatch_bytes': `fn dispatch_bytes(hidden, topk, bytes_per_elem, latent) {
    let dims = if latent > 0 { latent } else { hidden };
    dims * topk * bytes_per_elem
}`,
  'ch_newmodels/prefix_reuse': `fn prefix_reuse(prefix_len, ratio) {
    let reused = prefix_len / ratio;
    [reused, reused * ratio, prefix_len - reused * ratio]
}`,
};
