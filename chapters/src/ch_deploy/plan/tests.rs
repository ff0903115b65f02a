//! The tests of `plan.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;

#[test]
fn kda_and_latent_sizes() {
    assert_eq!(kda_state_bytes(1, 96, 128, 2), 3_145_728);
    assert_eq!(k3_kda_bytes(), 217_055_232);
    assert_eq!(k3_kda_bytes() / (1 << 20), 207);
    assert_eq!(latent_kv_bytes(1, 640, 2, 2), 2_560);
    assert_eq!(latent_kv_bytes(24, 640, 2, 2), 61_440);
}

#[test]
fn requests_and_bare_cards() {
    let (k, v) = (k3(), v4());
    assert_eq!(format!("{:.1}", request_gb(61.4, 1_000_000, 0.0)), "61.4");
    assert_eq!(article_request_gb(&k, 500_000), 30.9);
    assert_eq!(article_request_gb(&v, 500_000), 6.1);
    // 10,000 requests at 1M: 616 TB and 122 TB.
    let tb = |m: &Model| request_gb(m.kv_kb_per_token.round_to(1), 1_000_000, m.fixed_gb) * 10.0;
    assert_eq!(format!("{:.0}", tb(&k)), "616");
    assert_eq!(format!("{:.0}", tb(&v)), "122");
    assert_eq!(bare_gpus(2.8, 616.0, 141.0), (20, 4_369));
    // The article says 865: 122,000 / 141 = 865.2, which rounds up to 866.
    assert_eq!(bare_gpus(1.6, 122.0, 141.0), (12, 866));
}

#[test]
fn ep_tables() {
    let k = k3();
    let r16 = ep_row(896, 16, k.expert_gb, 141.0, 5.0);
    assert_eq!(r16.experts_per_card, 56);
    assert_eq!(format!("{:.1}", r16.weight_gb), "137.2");
    // The article's "4 GB free" drops the 5 GB the next row counts.
    assert_eq!(format!("{:.1}", r16.free_gb), "-1.2");
    let r32 = ep_row(896, 32, k.expert_gb, 141.0, 5.0);
    assert_eq!(
        (r32.experts_per_card, format!("{:.1}", r32.weight_gb)),
        (28, "68.6".into())
    );
    assert_eq!(ep_min(896, k.expert_gb, 141.0, 5.0, 10.0), Some(32));
    let v = v4();
    let r = ep_row(256, 16, v.expert_gb, 141.0, 3.0);
    assert_eq!(
        (r.experts_per_card, format!("{:.1}", r.weight_gb)),
        (16, "81.6".into())
    );
    assert_eq!(ep_min(256, v.expert_gb, 141.0, 3.0, 10.0), Some(16));
    assert_eq!(ep_min(896, k.expert_gb, 141.0, 5.0, 1e6), None);
    // 896 is not divisible by 256, so that size is skipped.
    assert_eq!(ep_min(896, 100.0, 141.0, 5.0, 0.0), None);
}

#[test]
fn decode_plans_reproduce_the_article_and_the_conservative_counts() {
    let (k, v) = (k3(), v4());
    let n = |m: &Model, g: &Gpu, mode| {
        let p = plan(m, g, 500_000, 10_000, mode).unwrap();
        (
            p.concurrency,
            p.units,
            p.d_nodes,
            p.p_nodes,
            p.total_nodes,
            p.gpus,
        )
    };
    assert_eq!(n(&k, &H200, Mode::Article), (69, 145, 580, 232, 812, 6_496));
    assert_eq!(n(&v, &H200, Mode::Article), (147, 68, 136, 54, 190, 1_520));
    assert_eq!(
        n(&v, &H200, Mode::Conservative),
        (146, 69, 138, 56, 194, 1_552)
    );
    assert_eq!(n(&k, &B300, Mode::Article), (222, 45, 180, 72, 252, 2_016));
    assert_eq!(n(&v, &B300, Mode::Article), (532, 19, 38, 15, 53, 424));
    assert_eq!(
        n(&k, &H200, Mode::Conservative),
        (69, 145, 580, 232, 812, 6_496)
    );
}

#[test]
fn duty_cycles_and_hicache_tables() {
    assert_eq!(duty_cycle(1000.0, 200.0, 5.0), 0.5);
    assert_eq!(duty_cycle(1000.0, 200.0, 15.0), 0.25);
    assert_eq!(
        format!("{:.1}", 100.0 * duty_cycle(1000.0, 200.0, 40.0)),
        "11.1"
    );
    assert_eq!(duty_cycle(0.0, 200.0, 5.0), 0.0);
    let a = Mode::Article;
    assert_eq!(hicache_nodes(580, 0.25, 2.5, a), (145, 203));
    assert_eq!(hicache_nodes(580, 0.5, 2.5, a), (290, 406));
    assert_eq!(hicache_nodes(136, 0.25, 2.5, a), (34, 48));
    assert_eq!(hicache_nodes(136, 0.5, 2.5, a), (68, 95));
    assert_eq!(hicache_nodes(180, 0.25, 2.5, a), (45, 63));
    assert_eq!(hicache_nodes(180, 0.5, 2.5, a), (90, 126));
    assert_eq!(hicache_nodes(38, 0.25, 2.5, a), (10, 14));
    assert_eq!(hicache_nodes(38, 0.5, 2.5, a), (19, 27));
}

#[test]
fn best_plans() {
    let (k, v) = (k3(), v4());
    let best = |m: &Model, g: &Gpu| {
        best_plan(
            m.n_routed,
            m.expert_gb,
            m.overhead_gb,
            g.memory_gb,
            article_request_gb(m, 500_000),
            10_000,
            2.5,
        )
        .map(|(ep, p)| (ep, p.gpus))
    };
    // Larger EP groups leave more room per card; whether that pays
    // depends on the rounding of units into nodes.
    // K3 at EP 128: 7 experts (17.15 GB) a card, 118.85 GB free, 492
    // requests a unit of 16 nodes, 21 units, 336 D + 135 P nodes.
    assert_eq!(best(&k, &H200), Some((128, 3_768)));
    assert_eq!(best(&v, &H200), Some((128, 720)));
    assert_eq!(best_plan(896, 2.45, 5.0, 141.0, 1e9, 10, 2.5), None);
}

#[test]
fn decode_steps() {
    assert_eq!(format!("{:.1}", decode_ms(104.0, 30.7, 4.8)), "28.1");
    assert_eq!(format!("{:.1}", decode_ms(49.0, 6.1, 4.8)), "11.5");
    assert_eq!(format!("{:.1}", decode_ms(104.0, 30.7, 8.0)), "16.8");
    assert_eq!(format!("{:.2}", (49.0 + 6.1) / (104.0 + 30.7)), "0.41");
}
