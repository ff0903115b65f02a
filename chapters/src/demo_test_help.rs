//! What the demos' tests share: running a demo on its defaults with a few
//! fields changed ([`test_helpers!`]), and its output's blocks by kind in
//! reading order, the blocks inside a fold included, so a test names "the
//! first table" or "the second chart" and neither a block added ahead of
//! another kind nor a fold around it moves it. Each lookup panics, naming
//! what it looked for and what the output holds, when there is no such block.

use super::{Block, Output, Plot};

/// The helpers a demo's tests share, written into its `mod tests` by `test_helpers!()` (which has
/// the demo's `PARAMS` and `run` in scope): `raw(changes)` is the defaults with
/// some fields changed, `out(changes)` runs them in English and expects an
/// output, `errors(changes)` expects the parameter errors.
macro_rules! test_helpers {
    () => {
        #[allow(dead_code)]
        fn raw(changes: &[(&str, &str)]) -> Raw {
            $crate::demo::defaults_with(PARAMS, changes)
        }

        #[allow(dead_code)]
        fn out(changes: &[(&str, &str)]) -> Output {
            run(&$crate::demo::defaults_with(PARAMS, changes), Lang::En).unwrap()
        }

        #[allow(dead_code)]
        fn errors(changes: &[(&str, &str)]) -> Vec<ParamError> {
            run(&$crate::demo::defaults_with(PARAMS, changes), Lang::En).unwrap_err()
        }
    };
}
pub(crate) use test_helpers;

/// Every block in reading order: a fold, then the blocks inside it.
fn reading_order(blocks: &[Block]) -> Vec<&Block> {
    blocks
        .iter()
        .flat_map(|b| match b {
            Block::Details { blocks, .. } => [vec![b], reading_order(blocks)].concat(),
            _ => vec![b],
        })
        .collect()
}

/// The `n`th block (from 0) that `pick` accepts, or a panic naming `what`.
fn nth<'a, T>(o: &'a Output, n: usize, what: &str, pick: impl Fn(&'a Block) -> Option<T>) -> T {
    reading_order(&o.blocks)
        .into_iter()
        .filter_map(pick)
        .nth(n)
        .unwrap_or_else(|| panic!("no {what} number {n} (from 0) in {:?}", o.blocks))
}

/// The `n`th fold: its summary and what it holds.
pub(crate) fn fold(o: &Output, n: usize) -> (&str, &[Block]) {
    nth(o, n, "fold", |b| match b {
        Block::Details { summary, blocks } => Some((summary.as_str(), blocks.as_slice())),
        _ => None,
    })
}

/// The `n`th text block's text.
pub(crate) fn text(o: &Output, n: usize) -> &str {
    nth(o, n, "text", |b| match b {
        Block::Text(t) => Some(t.as_str()),
        _ => None,
    })
}

/// The `n`th table: its header and rows.
pub(crate) fn table(o: &Output, n: usize) -> (&[String], &[Vec<String>]) {
    nth(o, n, "table", |b| match b {
        Block::Table { header, rows } => Some((header.as_slice(), rows.as_slice())),
        _ => None,
    })
}

/// The `n`th chart.
pub(crate) fn plot(o: &Output, n: usize) -> &Plot {
    nth(o, n, "chart", |b| match b {
        Block::Plot(p) => Some(p),
        _ => None,
    })
}

/// Every chart, in order.
pub(crate) fn plots(o: &Output) -> impl Iterator<Item = &Plot> {
    reading_order(&o.blocks)
        .into_iter()
        .filter_map(|b| match b {
            Block::Plot(p) => Some(p),
            _ => None,
        })
}

/// Rows of cells written as string literals, to compare with a table's.
pub(crate) fn strings<const N: usize, const M: usize>(rows: [[&str; M]; N]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.iter().map(|c| (*c).to_owned()).collect())
        .collect()
}
