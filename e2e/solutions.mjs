// Correct Rhai solutions, typed into the editor by the end-to-end test and the bench.
export const SOLUTIONS = {
  'ch_newmodels/attended': `fn attended(pos, ratio, topk, window) {
    let swa = if window < pos + 1 { window } else { pos + 1 };
    if ratio <= 1 { return swa; }
    let done = (pos + 1) / ratio;
    swa + if topk > 0 && done > topk { topk } else { done }
}`,
};
