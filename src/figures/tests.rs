//! The rules of [`super`] held to their examples: a number, a unit, a
//! change in percent and in points, each as a reader sees it.

use super::*;

#[test]
fn values_shown_together_share_their_precision_and_scale() {
    let t = Together::of([316.0299, 341.4107], Some("tok/s"));
    assert_eq!(t.with_unit(316.0299, Some("tok/s")), "316.0 tok/s");
    assert_eq!(t.with_unit(341.4107, Some("tok/s")), "341.4 tok/s");
    // Alone, each is as `with_unit` writes it.
    let t = Together::of([316.0299], Some("tok/s"));
    assert_eq!(t.with_unit(316.0299, Some("tok/s")), "316 tok/s");
    // One value in ms reaches 10,000: all are seconds.
    let t = Together::of([9_800.0, 73_447.8], Some("ms"));
    assert_eq!(t.with_unit(9_800.0, Some("ms")), "9.80 s");
    assert_eq!(t.with_unit(73_447.8, Some("ms")), "73.45 s");
    assert_eq!(t.number(72_660.0, Some("ms")), "72.66");
    // Whole numbers from 1,000 on need no decimals; a fraction is a %.
    let t = Together::of([1274.0057, 1378.07], Some("tok/s"));
    assert_eq!(t.with_unit(1274.0057, Some("tok/s")), "1,274 tok/s");
    let t = Together::of([0.4523, 0.5], Some(FRACTION));
    assert_eq!(t.with_unit(0.5, Some(FRACTION)), "50.00%");
    assert_eq!(t.number(-2.5, None), "−2.50");
    assert_eq!(t.number(f64::INFINITY, None), "unlimited");
}

#[test]
fn about_four_significant_digits() {
    assert_eq!(number(336.2985474784618), "336.3");
    assert_eq!(number(0.259172704000008), "0.2592");
    assert_eq!(number(95.15354806), "95.15");
    assert_eq!(number(0.3362985474784618), "0.3363");
    assert_eq!(number(1.23456), "1.235");
    assert_eq!(number(12.5), "12.5");
    assert_eq!(number(0.000123456), "0.0001235");
    // From 1,000 on, whole numbers: never fewer digits than the whole part.
    assert_eq!(number(1274.005725804396), "1,274");
    assert_eq!(number(30176.330783843747), "30,176");
    assert_eq!(number(999.96), "1,000");
    assert_eq!(number(999.94), "999.9");
    assert_eq!(number(9.99996), "10");
}

#[test]
fn whole_numbers_exactly_with_separators() {
    assert_eq!(number(26093.0), "26,093");
    assert_eq!(number(32000.0), "32,000");
    assert_eq!(number(21.0), "21");
    assert_eq!(number(0.0), "0");
    assert_eq!(number(-0.0), "0");
    assert_eq!(number(56.0), "56");
    assert_eq!(number(1_790_824_333.0), "1,790,824,333");
}

#[test]
fn signs_and_extremes() {
    assert_eq!(number(-3.25), "−3.25");
    assert_eq!(number(-0.00000001), "−1e−8");
    assert_eq!(number(1.5e17), "1.5e17");
    assert_eq!(number(f64::INFINITY), "unlimited");
    assert_eq!(number(-0.00004), "−0.00004");
    assert_eq!(number(f64::NAN), "");
}

#[test]
fn units_for_text() {
    assert_eq!(with_unit(336.2985474784618, Some("tok/s")), "336.3 tok/s");
    assert_eq!(with_unit(73447.80826035, Some("ms")), "73.45 s");
    assert_eq!(with_unit(9999.0, Some("ms")), "9,999 ms");
    assert_eq!(with_unit(10_500.0, Some("ms")), "10.5 s");
    assert_eq!(with_unit(0.4523, Some("fraction")), "45.23%");
    assert_eq!(with_unit(0.5, Some("fraction")), "50%");
    assert_eq!(with_unit(72.7, Some("%")), "72.7%");
    assert_eq!(with_unit(1.78, Some("×")), "1.78×");
    assert_eq!(with_unit(32.0, Some("requests")), "32 requests");
    assert_eq!(with_unit(5.0, None), "5");
    assert_eq!(with_unit(f64::INFINITY, Some("req/s")), "unlimited");
    assert_eq!(percent(0.727), "72.7%");
}

#[test]
fn cells_under_a_heading() {
    assert_eq!(cell(336.2985474784618, Some("tok/s")), "336.3");
    // Under a heading in ms, ms: never seconds under a label in ms.
    assert_eq!(cell(73447.80826035, Some("ms")), "73,448");
    assert_eq!(cell(600.0, Some("ms")), "600");
    assert_eq!(cell(0.4523, Some("fraction")), "45.23");
    assert_eq!(heading_unit("fraction"), "%");
    assert_eq!(heading_unit("tok/s"), "tok/s");
}

#[test]
fn cell_text_reads_numbers_and_leaves_text() {
    let c = |t: &str, u: Option<&str>| cell_text(t, u).into_owned();
    assert_eq!(c("336.2985474784618", Some("tok/s")), "336.3");
    assert_eq!(c("127.1", Some("tok/s")), "127.1");
    assert_eq!(c("4096", Some("tokens")), "4,096");
    assert_eq!(c("56.0", Some("tok/s")), "56");
    assert_eq!(c("0.50", Some("s")), "0.5");
    assert_eq!(c("1e3", Some("tokens")), "1,000");
    assert_eq!(c("-3", Some("points")), "−3");
    assert_eq!(c("inf", Some("req/s")), "unlimited");
    // Under a heading in ms, a cell is in ms (the heading's unit),
    // not seconds: 73,447.8 ms is 73,448.
    assert_eq!(c("73447.80826035", Some("ms")), "73,448");
    assert_eq!(c("0.25", Some("fraction")), "25");
    assert_eq!(c("", Some("ms")), "");
    assert_eq!(c("0.259172704000008", None), "0.259172704000008");
    assert_eq!(c("n/a", Some("ms")), "n/a");
    assert_eq!(c("007", Some("count")), "7");
}

#[test]
fn the_fast_path_agrees_with_parsing() {
    // Every cell the fast path keeps is what number() writes of it.
    for t in [
        "0",
        "7",
        "42",
        "999",
        "1000",
        "26093",
        "0.5",
        "0.25",
        "0.0012",
        "1.5",
        "12.75",
        "127.1",
        "999.9",
        "123456789012345",
        "0.00001234",
    ] {
        let fast = reads_well(t, 15).expect(t).into_owned();
        assert_eq!(fast, number(t.parse().unwrap()), "{t}");
    }
    for t in [
        "0.50", "12.345", "1000.5", "01", ".5", "1e3", "-1", "+1", "1.",
    ] {
        assert!(reads_well(t, 15).is_none(), "{t}");
    }
    assert_eq!(reads_well("9999", 4).as_deref(), Some("9,999"));
    assert_eq!(reads_well("741.8", 4).as_deref(), Some("741.8"));
    assert!(reads_well("10000", 4).is_none());
    assert!(reads_well("0.5", 0).is_none());
    // A cell in ms is in ms however large: its heading says ms.
    assert_eq!(cell_text("9999", Some("ms")), "9,999");
    assert_eq!(cell_text("10000", Some("ms")), "10,000");
    assert_eq!(cell(28_641.3, Some("ms")), "28,641");
    assert_eq!(cell_text("0.5", Some("fraction")), "50");
}

#[test]
fn sizes_read_as_people_write_them() {
    assert_eq!(bytes(786), "786 bytes");
    assert_eq!(bytes(11_288), "11.3 KB");
    assert_eq!(bytes(1_000), "1.0 KB");
    assert_eq!(bytes(999_949), "999.9 KB");
    assert_eq!(bytes(999_960), "1.0 MB");
    assert_eq!(bytes(52_400_000), "52.4 MB");
    assert_eq!(bytes(1_234_000_000), "1.2 GB");
    assert_eq!(bytes(1_000_000_000), "1.0 GB");
    assert_eq!(bytes(12_345_000_000_000), "12,345 GB");
}

#[test]
fn the_shortest_digits_round_as_format_does() {
    // fixed() against format!, which rounds the binary value itself:
    // random values of every magnitude the figures write out, decimal
    // values with few digits (ties among them: 0.125, 2.5, 1.0005),
    // and values next to them, at every number of decimals used.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut values = vec![
        0.125, 2.5, 1.0005, 0.5, 999.95, 9.9995, 0.00015, 1e-6, 123.45,
    ];
    for _ in 0..50_000 {
        let r = next();
        let exp = (r % 22) as i32 - 7;
        let frac = (next() >> 11) as f64 / (1u64 << 53) as f64;
        values.push((1.0 + 9.0 * frac) * 10f64.powi(exp));
        // A decimal of a few digits, and its neighbours.
        let few = (next() % 100_000) as f64 / 10f64.powi((next() % 8) as i32);
        values.extend([
            few,
            f64::from_bits(few.to_bits() + 1),
            f64::from_bits(few.to_bits().saturating_sub(1)),
        ]);
    }
    for a in values {
        if !(0.0..1e15).contains(&a) {
            continue;
        }
        for decimals in 0..=10 {
            assert_eq!(
                fixed(a, decimals),
                format!("{a:.decimals$}"),
                "{a:e} to {decimals}"
            );
        }
    }
}

#[test]
fn changes_in_percent() {
    // The seed report's deltas: vLLM MTP@3 against NInfer NVFP4.
    assert_eq!(change(127.1, 117.3).as_deref(), Some("−7.7%"));
    assert_eq!(change(87.1, 87.5).as_deref(), Some("+0.5%"));
    assert_eq!(change(73.1, 76.7).as_deref(), Some("+4.9%"));
    assert_eq!(change(44.3, 56.0).as_deref(), Some("+26%"));
    assert_eq!(change(24.2, 32.7).as_deref(), Some("+35%"));
    assert_eq!(change(100.0, 100.0).as_deref(), Some("0%"));
    assert_eq!(change(100.0, 100.96).as_deref(), Some("+1%"));
    assert_eq!(change(100.0, 101.04).as_deref(), Some("+1%"));
    assert_eq!(change(100.0, 101.06).as_deref(), Some("+1.1%"));
    assert_eq!(change(100.0, 100.04).as_deref(), Some("0%"));
    assert_eq!(change(10.0, 200.0).as_deref(), Some("+1,900%"));
    assert_eq!(change(0.0, 5.0), None);
}

#[test]
fn changes_keep_a_decimal_under_ten_percent() {
    // llama.cpp 7938 to 8577 on the shared series: pp512 and tg128;
    // vLLM 0.29 to 0.30's output throughput. One rounding everywhere:
    // −2.5% is never −3% elsewhere.
    let pp = change_pct(1397.71, 1577.96).unwrap();
    let tg = change_pct(80.99, 78.94).unwrap();
    let live = change_pct(341.41443857471637, 316.03420583269417).unwrap();
    assert_eq!(signed_percent(pp), "+13%");
    assert_eq!(signed_percent(tg), "−2.5%");
    assert_eq!(signed_percent(live), "−7.4%");
    assert_eq!(signed_percent(2.0), "+2%");
    assert_eq!(signed_percent(9.96), "+10%");
    assert_eq!(signed_percent(0.04), "0%");
    assert_eq!(signed_percent(-0.04), "0%");
    assert_eq!(signed_percent(-0.4), "−0.4%");
    assert_eq!(signed_percent(-1234.0), "−1,234%");
    assert_eq!(unsigned_percent(9.44), "9.4%");
    assert_eq!(unsigned_percent(-9.44), "9.4%");
    assert_eq!(unsigned_percent(10.0), "10%");
}

#[test]
fn a_change_of_a_share_is_in_points_named_so() {
    assert_eq!(signed_points(-2.1), "−2.1 points");
    assert_eq!(signed_points(8.0), "+8 points");
    assert_eq!(signed_points(1.04), "+1 point");
    assert_eq!(signed_points(-33.33), "−33 points");
    assert_eq!(signed_points(0.01), "0 points");
    assert_eq!(unsigned_points(5.46), "5.5 points");
    assert_eq!(signed_change(-2.1, true), "−2.1 points");
    assert_eq!(signed_change(-2.1, false), "−2.1%");
    assert_eq!(unsigned_change(4.4, true), "4.4 points");
}

/// `number` as it was written before whole numbers took a path of their
/// own: every value formatted first, then grouped.
fn number_by_formatting(x: f64) -> String {
    let mut out = String::new();
    if x.is_nan() {
        return out;
    }
    if x.is_infinite() {
        return (if x > 0.0 { "unlimited" } else { "−unlimited" }).to_string();
    }
    let a = x.abs();
    if a == 0.0 {
        return "0".to_string();
    }
    if !(1e-6..1e15).contains(&a) {
        push_scientific(&mut out, x);
        return out;
    }
    let text = if x.fract() == 0.0 || a >= 999.95 {
        fixed(a, 0)
    } else {
        let magnitude = a.log10().floor() as i32;
        let decimals = (3 - magnitude).max(0) as usize;
        let s = fixed(a, decimals);
        if s.starts_with("1000") {
            "1000".to_string()
        } else {
            s
        }
    };
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, f.trim_end_matches('0')),
        None => (text.as_str(), ""),
    };
    if x < 0.0 && !(int.bytes().all(|b| b == b'0') && frac.is_empty()) {
        out.push('−');
    }
    out.push_str(&grouped(int));
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

#[test]
fn whole_numbers_write_as_formatting_them_did() {
    let mut values = vec![
        0.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        f64::MAX,
        1e-6,
        9.99e-7,
        1e15,
        1e15 - 1.0,
        999_999_999_999_999.0,
        999.95,
        999.949_999_999,
        999.96,
        1000.5,
        1001.5,
        2.5,
        0.5,
        1_234_567.5,
        4_503_599_627_370_495.5,
        99.999_99,
        0.000_123_45,
    ];
    for e in -8..17 {
        let p = 10f64.powi(e);
        for m in [1.0, 1.5, 2.5, 9.999_5, 9.999_4, 0.999_95, 123.456_5, 7.0] {
            values.push(m * p);
        }
    }
    // A fixed sequence of pseudo-random values over every scale.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..200_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let scale = 10f64.powi((seed % 24) as i32 - 8);
        let v = (seed >> 11) as f64 / (1u64 << 53) as f64 * scale;
        values.push(v);
        values.push((v * 2.0).round() / 2.0);
        values.push(v.round());
    }
    for v in values {
        for x in [v, -v] {
            assert_eq!(number(x), number_by_formatting(x), "{x:?}");
        }
    }
}
