//! Reference solution and cases for `ch_newmodels/hash_loads`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::ch_newmodels::routing::{ZipfSampler, hash_table};
use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Tokens per expert when token id `t` always goes to the experts `table[t]`, and
/// the imbalance `max(loads) / mean(loads)` (0 when nothing was routed).
pub fn hash_loads(table: &[Vec<usize>], ids: &[usize], experts: usize) -> (Vec<u64>, f64) {
    let mut loads = vec![0u64; experts];
    for &id in ids {
        for &e in &table[id] {
            loads[e] += 1;
        }
    }
    let total: u64 = loads.iter().sum();
    let busiest = loads.iter().copied().max().unwrap_or(0);
    let imbalance = if total == 0 {
        0.0
    } else {
        busiest as f64 / (total as f64 / experts as f64)
    };
    (loads, imbalance)
}
// ANCHOR_END: reference

/// One call's checked arguments.
struct Batch {
    table: Vec<Vec<usize>>,
    ids: Vec<usize>,
    experts: usize,
}

/// Checks the arguments: `table` entries below `experts`, `ids` inside the table.
fn checked(args: &[Value]) -> Result<Batch, String> {
    let a = Args(args);
    let (table, ids, experts) = (a.int_matrix(0)?, a.ints(1)?, a.int(2)?);
    if !(1..=1 << 20).contains(&experts) {
        return Err(format!(
            "argument 3 must be between 1 and 2^20, got {experts}"
        ));
    }
    if let Some(e) = table
        .iter()
        .flatten()
        .find(|&&e| !(0..experts).contains(&e))
    {
        return Err(format!(
            "argument 1: expert {e} is not between 0 and {}",
            experts - 1
        ));
    }
    if let Some(id) = ids
        .iter()
        .find(|&&id| !(0..table.len() as i64).contains(&id))
    {
        return Err(format!(
            "argument 2: token id {id} is not a row of the table"
        ));
    }
    let table = table
        .iter()
        .map(|row| row.iter().map(|&e| e as usize).collect())
        .collect();
    let ids = ids.iter().map(|&id| id as usize).collect();
    Ok(Batch {
        table,
        ids,
        experts: experts as usize,
    })
}

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let b = checked(args)?;
    let (loads, imbalance) = hash_loads(&b.table, &b.ids, b.experts);
    let loads: Vec<i64> = loads.iter().map(|&l| l as i64).collect();
    Ok(Value::Array(vec![loads.into(), imbalance.into()]))
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, table: Vec<Vec<i64>>, ids: Vec<i64>, experts: i64| Case {
        args: vec![table.into(), ids.into(), experts.into()],
        kind,
    };
    let ring = vec![vec![0, 1], vec![1, 2], vec![2, 3], vec![3, 0]];
    let mut cases = vec![
        case(Kind::Public, vec![vec![0, 1], vec![2, 3]], vec![0, 0, 1], 4),
        case(Kind::Public, ring.clone(), vec![0, 1, 2, 3], 4),
        case(
            Kind::Public,
            vec![vec![0, 3], vec![1, 3], vec![2, 3]],
            vec![0, 1, 2, 0],
            6,
        ),
        case(Kind::Hidden, ring.clone(), vec![], 4),
        case(
            Kind::Hidden,
            vec![vec![5, 2, 7], vec![0, 1, 2]],
            vec![0; 10],
            8,
        ),
        case(
            Kind::Hidden,
            vec![vec![4], vec![1], vec![4]],
            vec![0, 1, 2, 2, 1, 0, 0],
            5,
        ),
        case(Kind::Hidden, ring, vec![3, 3, 2, 0, 1, 1, 3], 7),
        case(
            Kind::Hidden,
            vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8]],
            vec![2, 2, 1, 2, 0, 2, 2],
            9,
        ),
    ];
    let seed = 20_261_206;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..6 {
        let vocab = rng.range(50, 500) as usize;
        let experts = rng.range(8, 64) as usize;
        let k = rng.range(2, 6) as usize;
        let batch = rng.range(0, 1_000) as usize;
        let table: Vec<Vec<i64>> = hash_table(&mut rng, vocab, experts, k)
            .chunks(k)
            .map(|row| row.iter().map(|&e| e as i64).collect())
            .collect();
        let zipf = ZipfSampler::new(vocab, 1.1);
        let ids: Vec<i64> = (0..batch).map(|_| zipf.sample(&mut rng) as i64).collect();
        cases.push(case(Kind::Generated { seed }, table, ids, experts as i64));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_newmodels::routing;

    #[test]
    fn the_worked_example() {
        let (loads, imbalance) = hash_loads(&[vec![0, 1], vec![2, 3]], &[0, 0, 1], 4);
        assert_eq!(loads, [2, 2, 1, 1]);
        assert_eq!(imbalance, 1.333_333_333_333_333_3);
        assert_eq!(imbalance.to_string(), "1.3333333333333333");
    }

    #[test]
    fn agrees_with_the_chapter_functions() {
        for c in cases() {
            let Batch {
                table,
                ids,
                experts,
            } = checked(&c.args).unwrap();
            let k = table.first().map_or(0, Vec::len);
            let flat: Vec<u32> = table.iter().flatten().map(|&e| e as u32).collect();
            let want = routing::hash_loads(&flat, k, experts, &ids);
            let (loads, imbalance) = hash_loads(&table, &ids, experts);
            assert_eq!(loads, want, "{:?}", c.args);
            let chapter = routing::max_over_mean(&want);
            assert!((imbalance - chapter).abs() <= 1e-12 * chapter.max(1.0));
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let table = || Value::from(vec![vec![0, 1]]);
        assert!(reference(&[table(), Value::from(vec![1]), 2.into()]).is_err());
        assert!(reference(&[table(), Value::from(vec![0]), 1.into()]).is_err());
        assert!(reference(&[table(), Value::from(vec![0]), 0.into()]).is_err());
        assert!(reference(&[table(), Value::from(vec![0]), 2.into()]).is_ok());
    }
}
