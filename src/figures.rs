//! Numbers for people. Every figure a reader sees is written here, by one
//! set of rules: a table cell on a run page, a chart's value labels and
//! text description, the facts of a run's result files, a check's or a
//! lint's message, a comparison's change. The files a reader downloads (the
//! published CSV, `findings.json`, the kept result files) keep every digit;
//! only what is read is rounded.
//!
//! The rules (`docs/format.md` §8.7 states them for readers):
//!
//! - **About four significant digits**: 336.2985474784618 is `336.3`,
//!   0.259172704 is `0.2592`, 95.15354806 is `95.15`. A number of 1,000 or
//!   more is rounded to a whole number (30,176.33 is `30,176`): never to
//!   fewer digits than its whole part has.
//! - **Whole numbers exactly**, with thousands separated: `26,093`,
//!   `32,000`. Trailing zeros of a fraction are left out (56.0 is `56`).
//! - **Milliseconds from 10,000 on are seconds** in text, where the unit
//!   is written beside the number: 73,447.8 ms is `73.45 s`. Under a
//!   heading that names the unit (`TTFT p99 (ms)`), a cell is in that
//!   unit: `73,448`, never seconds under a label in ms.
//! - **A fraction is a percentage**: a column whose unit is `fraction` (a
//!   share from 0 to 1, such as the KV cache in use) is shown in %, 0.4523
//!   as `45.23%`, and its heading says `%`.
//! - **Unbounded is a word**: a request rate of requests all sent at once
//!   (`inf` in the files) is `unlimited`.
//! - **A minus sign, not a hyphen**: `−3.25`.
//! - **A change in percent**, signed, to a tenth under 10% (`−2.5%`,
//!   `+0.5%`, `−7.7%`) and whole from 10% on (`+26%`, `+1,900%`), one
//!   rounding for every change on every page and in every command: a
//!   change between two versions is often a few percent, where a whole
//!   percent would say `−3%` of −2.53%. A band of noise is written the
//!   same way (`±9.4%`).
//! - **A change of a share in points**, rounded alike and named so
//!   (`−2.1 points`, `±4.4 points`): an accuracy score from 77.2% to
//!   75.1% is −2.1 points, never `−2.1%`, which would read as a change
//!   relative to the score.
//!
//! Everything here is a pure function of its arguments, and cheap: a run
//! page's table runs every cell through [`cell_text`], which hands back a
//! cell that already reads well as it is, without parsing it.

use std::borrow::Cow;

/// The unit of a share from 0 to 1, shown as a percentage.
pub const FRACTION: &str = "fraction";

/// Milliseconds from this many on are shown as seconds.
const MS_AS_SECONDS: f64 = 10_000.0;

/// `x` rounded for reading, without a unit: about four significant
/// digits, whole numbers exactly with thousands separated, `unlimited` for
/// an unbounded value.
pub fn number(x: f64) -> String {
    let mut out = String::new();
    push_number(&mut out, x);
    out
}

/// `x` with its unit, for text: `336.3 tok/s`, `73.45 s` (milliseconds
/// from 10,000 on), `45.23%` (a fraction), `32 requests`. No unit gives the
/// number alone.
pub fn with_unit(x: f64, unit: Option<&str>) -> String {
    let unit = unit.map(str::trim).filter(|u| !u.is_empty());
    let (x, unit) = shown(x, unit);
    let mut out = number(x);
    if x.is_finite() {
        if let Some(u) = unit {
            if !tight(u) {
                out.push(' ');
            }
            out.push_str(u);
        }
    }
    out
}

/// `x` as a table cell under a heading that names the unit (see
/// [`heading_unit`]): the number alone, in that unit (milliseconds stay
/// milliseconds, however many: the heading says ms), and a fraction as
/// its percentage.
pub fn cell(x: f64, unit: Option<&str>) -> String {
    match unit.map(str::trim) {
        Some(FRACTION) => number(x * 100.0),
        _ => number(x),
    }
}

/// A CSV cell as a table shows it under a heading that names the unit: a
/// number of a numeric column (one with a unit) as [`cell`] writes it,
/// `inf` as `unlimited`, and anything else (text, a text column) as it is.
pub fn cell_text<'t>(text: &'t str, unit: Option<&str>) -> Cow<'t, str> {
    let Some(unit) = unit.map(str::trim) else {
        return Cow::Borrowed(text);
    };
    let t = text.trim();
    if t.is_empty() {
        return Cow::Borrowed(t);
    }
    // A fraction always becomes a percentage; any other cell is in its
    // heading's unit.
    let whole_digits = match unit {
        FRACTION => 0,
        _ => 15,
    };
    if let Some(fast) = reads_well(t, whole_digits) {
        return fast;
    }
    if t.eq_ignore_ascii_case("inf") || t.eq_ignore_ascii_case("+inf") {
        return Cow::Borrowed("unlimited");
    }
    match t.parse::<f64>() {
        Ok(x) if !x.is_nan() => Cow::Owned(cell(x, Some(unit))),
        _ => Cow::Borrowed(text),
    }
}

/// The unit a heading names for a column of unit `unit`: `%` for a
/// fraction, else the unit itself.
pub fn heading_unit(unit: &str) -> &str {
    if unit.trim() == FRACTION {
        "%"
    } else {
        unit
    }
}

/// A size in bytes for reading, in the units of 1,000 that file sizes are
/// quoted in: `786 bytes`, `11.3 KB`, `52.4 MB`, `1.2 GB`; a unit is
/// chosen after rounding, so 999,960 bytes are `1.0 MB`, not `1000.0 KB`.
pub fn bytes(n: u64) -> String {
    if n < 1_000 {
        return format!("{n} bytes");
    }
    let mut x = n as f64 / 1e3;
    for unit in ["KB", "MB"] {
        if x < 999.95 {
            return format!("{x:.1} {unit}");
        }
        x /= 1e3;
    }
    if x < 999.95 {
        format!("{x:.1} GB")
    } else {
        format!("{} GB", number(x.round()))
    }
}

/// `v + s` to the decimals the two were printed with: a tool prints
/// `80.99 ± 0.06`, whose low end is 80.93, not binary's
/// 80.92999999999999. `v` alone where `s` is 0.
pub fn printed_sum(v: f64, s: f64) -> f64 {
    if s == 0.0 {
        return v;
    }
    let decimals = |x: f64| {
        let t = format!("{x}");
        t.split_once('.').map_or(0, |(_, d)| d.len())
    };
    let d = decimals(v).max(decimals(s));
    if d > 12 {
        return v + s;
    }
    let scale = 10f64.powi(d as i32);
    ((v + s) * scale).round() / scale
}

/// A share from 0 to 1 as a percentage: 0.727 is `72.7%`.
pub fn percent(share: f64) -> String {
    with_unit(share, Some(FRACTION))
}

/// The change from `from` to `to` in percent of `from`, signed: `+26%`,
/// `−8%`, `+0.5%`, `0%`; `None` when `from` is zero (or either is not a
/// finite number), where no percentage means anything.
pub fn change(from: f64, to: f64) -> Option<String> {
    let pct = change_pct(from, to)?;
    Some(signed_percent(pct))
}

/// The change from `from` to `to` in percent of `from`; `None` where it
/// means nothing (see [`change`]).
pub fn change_pct(from: f64, to: f64) -> Option<f64> {
    (from != 0.0 && from.is_finite() && to.is_finite()).then(|| (to - from) / from.abs() * 100.0)
}

/// A change already in percent, as [`change`] writes it: a tenth under
/// 10% (`−2.5%`, `+0.5%`), whole from 10% on (`+13%`), `0%` for what
/// rounds to nothing. The one formatter of a change in percent.
pub fn signed_percent(pct: f64) -> String {
    let digits = unsigned_percent(pct);
    if digits == "0%" {
        return digits;
    }
    format!("{}{digits}", if pct > 0.0 { "+" } else { "−" })
}

/// A change of a share in points (an accuracy score: 0.772 → 0.751 is
/// `−2.1 points`), rounded as [`signed_percent`] rounds a change in
/// percent, and named so that no reader takes it for a change relative to
/// the score (−2.1% of 77.2% would be 1.6 points). The one formatter of a
/// change in points.
pub fn signed_points(points: f64) -> String {
    let digits = unsigned_points(points);
    if digits == "0 points" {
        return digits;
    }
    format!("{}{digits}", if points > 0.0 { "+" } else { "−" })
}

/// A size in points without its sign, rounded as [`signed_points`]
/// rounds a change (`5.5 points`, `1 point`): a band of noise, `±`
/// before it.
pub fn unsigned_points(points: f64) -> String {
    let digits = unsigned_percent(points);
    let digits = digits.strip_suffix('%').unwrap_or(&digits);
    let unit = if digits == "1" { "point" } else { "points" };
    format!("{digits} {unit}")
}

/// A change as [`signed_percent`] or, for a share, [`signed_points`]
/// writes it.
pub fn signed_change(size: f64, points: bool) -> String {
    if points {
        signed_points(size)
    } else {
        signed_percent(size)
    }
}

/// A size of noise as [`unsigned_percent`] or, for a share,
/// [`unsigned_points`] writes it.
pub fn unsigned_change(size: f64, points: bool) -> String {
    if points {
        unsigned_points(size)
    } else {
        unsigned_percent(size)
    }
}

/// A size in percent without its sign, rounded as [`signed_percent`]
/// rounds a change (`9.4%`, `13%`): a band of noise, `±` before it.
pub fn unsigned_percent(pct: f64) -> String {
    let tenths = (pct.abs() * 10.0).round() / 10.0;
    if tenths < 9.95 {
        if tenths == 0.0 {
            return "0%".to_string();
        }
        let digits = format!("{tenths:.1}");
        let digits = digits.strip_suffix(".0").unwrap_or(&digits);
        return format!("{digits}%");
    }
    format!("{}%", grouped(&format!("{:.0}", pct.abs().round())))
}

/// A value and unit as shown: milliseconds from 10,000 on in seconds, a
/// fraction in percent.
fn shown(x: f64, unit: Option<&str>) -> (f64, Option<&str>) {
    match unit {
        Some(FRACTION) => (x * 100.0, Some("%")),
        Some("ms") if x.abs() >= MS_AS_SECONDS && x.is_finite() => (x / 1000.0, Some("s")),
        u => (x, u),
    }
}

/// Units written against the number: `45%`, `1.78×`.
fn tight(unit: &str) -> bool {
    matches!(unit, "%" | "×" | "x")
}

/// Appends `x` rounded for reading to `out`.
fn push_number(out: &mut String, x: f64) {
    if x.is_nan() {
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "unlimited" } else { "−unlimited" });
        return;
    }
    let a = x.abs();
    if a == 0.0 {
        out.push('0');
        return;
    }
    if !(1e-6..1e15).contains(&a) {
        push_scientific(out, x);
        return;
    }
    if let Some(n) = whole(a) {
        // A whole number (or one of 1,000 or more, rounded to one) is at
        // least 1, so it always takes its sign.
        if x < 0.0 {
            out.push('−');
        }
        push_grouped(out, &n.to_string());
        return;
    }
    let text = if a >= 999.95 {
        fixed(a, 0)
    } else {
        // Four significant digits: as many decimals as the whole part
        // leaves of them.
        let magnitude = a.log10().floor() as i32;
        let decimals = (3 - magnitude).max(0) as usize;
        let s = fixed(a, decimals);
        // Rounding up may reach 1,000 (999.96 is 1,000), which has no decimals.
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
    push_grouped(out, int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
}

/// `a` (finite, not negative) with `decimals` decimals, exactly as
/// `format!("{a:.decimals$}")` writes it, which rounds the binary value
/// itself: that is a costly division of big numbers (it was most of a run
/// page's table time), so the shortest digits that read back as `a` (ryu's,
/// found with fixed-width arithmetic) are rounded instead. Both round the same way
/// except where those digits end in a 5 just past the cut: on either side
/// of such a midpoint lies a shorter or nearer string that reads back as
/// `a`, which ryu would have given instead, so only an exact tie is left to
/// `format!` (`the_shortest_digits_round_as_format_does` compares them).
/// That holds while the float's spacing is finer than the last decimal
/// kept (`a` × 10^decimals under 2^52); past it, say a trillion to four
/// decimals, the shortest digits stop short of the binary value's and only
/// `format!` can say which way it rounds. The figures never ask for that
/// (four significant digits), but the function stays right if they do.
fn fixed(a: f64, decimals: usize) -> String {
    if decimals > 15 || a * POWERS_OF_TEN[decimals] >= 4.0e15 {
        return format!("{a:.decimals$}");
    }
    let mut buf = ryu::Buffer::new();
    let shortest = buf.format_finite(a);
    let (mantissa, exponent) = match shortest.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (shortest, 0),
    };
    // The digits without leading zeros, and how many of them stand before
    // the point: a = 0.d1d2d3… × 10^point.
    let mut digits = [0u8; 24];
    let (mut n, mut point, mut seen_point) = (0usize, 0i32, false);
    for b in mantissa.bytes() {
        match b {
            b'.' => seen_point = true,
            b'0' if n == 0 => {
                if seen_point {
                    point -= 1;
                }
            }
            b'0'..=b'9' if n < digits.len() => {
                digits[n] = b - b'0';
                n += 1;
                if !seen_point {
                    point += 1;
                }
            }
            _ => return format!("{a:.decimals$}"),
        }
    }
    while n > 0 && digits[n - 1] == 0 {
        n -= 1;
    }
    let point = point + exponent;
    // The digits kept: those before the cut, `decimals` after the point.
    let kept = point + decimals as i32;
    let mut out_digits: Vec<u8> = Vec::with_capacity(kept.max(0) as usize + 1);
    if kept >= 0 {
        let kept = kept as usize;
        out_digits.extend((0..kept).map(|i| if i < n { digits[i] } else { 0 }));
        if n > kept {
            let next = digits[kept];
            let more = digits[kept + 1..n].iter().any(|&d| d != 0);
            if next == 5 && !more {
                return format!("{a:.decimals$}");
            }
            if next > 5 || (next == 5 && more) {
                // Round up, carrying.
                let mut i = out_digits.len();
                loop {
                    if i == 0 {
                        out_digits.insert(0, 1);
                        break;
                    }
                    i -= 1;
                    if out_digits[i] == 9 {
                        out_digits[i] = 0;
                    } else {
                        out_digits[i] += 1;
                        break;
                    }
                }
            }
        }
    }
    // out_digits × 10^−decimals, written out.
    let len = out_digits.len();
    let mut text = String::with_capacity(len + 3);
    if len > decimals {
        text.extend(
            out_digits[..len - decimals]
                .iter()
                .map(|&d| char::from(b'0' + d)),
        );
    } else {
        text.push('0');
    }
    if decimals > 0 {
        text.push('.');
        for _ in len..decimals {
            text.push('0');
        }
        let from = len.saturating_sub(decimals);
        text.extend(out_digits[from..].iter().map(|&d| char::from(b'0' + d)));
    }
    text
}

/// 10^0 to 10^15, for [`fixed`]'s test of the float's spacing.
const POWERS_OF_TEN: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// Four significant digits and a power of ten, for what is too large or
/// too small to write out: `1.235e−7`.
fn push_scientific(out: &mut String, x: f64) {
    let s = format!("{:.3e}", x.abs());
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    if x < 0.0 {
        out.push('−');
    }
    out.push_str(mantissa);
    out.push('e');
    match exp.strip_prefix('-') {
        Some(e) => {
            out.push('−');
            out.push_str(e);
        }
        None => out.push_str(exp),
    }
}

/// Digits with thousands separated: `26093` is `26,093`.
fn grouped(digits: &str) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    push_grouped(&mut out, digits);
    out
}

/// Appends `digits` with their thousands separated, as [`grouped`] writes
/// them, without a string of its own.
fn push_grouped(out: &mut String, digits: &str) {
    let n = digits.len();
    if n <= 3 {
        out.push_str(digits);
        return;
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
}

/// `a` (finite, from 10^-6 to under 10^15) as the whole number
/// [`push_number`] writes for it, without formatting it first: `a` itself
/// when whole, and `a` rounded when 1,000 or more, which `fixed(a, 0)`
/// (`format!`) rounds to the nearest whole number. Below 10^15 the
/// fraction of a float is exact, so the nearest whole number is plain to
/// see but for an exact half, which `format!` rounds to even: that is left
/// to it. `None` for a number written with decimals, or a half.
fn whole(a: f64) -> Option<u64> {
    let f = a.fract();
    if f == 0.0 {
        Some(a as u64)
    } else if a >= 999.95 && f != 0.5 {
        Some(a.round() as u64)
    } else {
        None
    }
}

/// A cell that already reads as [`number`] would write it, without
/// parsing: a plain decimal (digits, at most one point, no sign, no
/// exponent) whose whole part has no leading zero, with at most four
/// significant digits and no trailing zero after its point, below 1,000;
/// or a whole number of up to `whole_digits` digits (at most fifteen),
/// which only needs its thousands separated. `None` for anything else,
/// which is parsed.
fn reads_well(t: &str, whole_digits: usize) -> Option<Cow<'_, str>> {
    if whole_digits == 0 {
        return None;
    }
    let b = t.as_bytes();
    let point = b.iter().position(|&c| c == b'.');
    let (int, frac) = match point {
        Some(p) => (&b[..p], &b[p + 1..]),
        None => (b, &b[..0]),
    };
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    if int.is_empty() || !digits(int) || !digits(frac) || (int.len() > 1 && int[0] == b'0') {
        return None;
    }
    if point.is_none() {
        if int.len() > whole_digits.min(15) {
            return None;
        }
        return Some(if int.len() <= 3 {
            Cow::Borrowed(t)
        } else {
            Cow::Owned(grouped(t))
        });
    }
    if frac.is_empty() || frac.last() == Some(&b'0') || int.len() > 3 {
        return None;
    }
    // Significant digits: from the first non-zero digit on.
    let significant = if int == b"0" {
        frac.len() - frac.iter().take_while(|&&c| c == b'0').count()
    } else {
        int.len() + frac.len()
    };
    (significant <= 4 && significant > 0).then_some(Cow::Borrowed(t))
}

/// How the values of one row are shown together (a comparison's sides,
/// each a value of one metric): at one scale, seconds for all where one
/// of them in milliseconds reaches 10,000, and with one number of
/// decimals, the most that any of them needs at about four significant
/// digits, so that `316.0` stands beside `341.4`, never `316`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Together {
    /// Milliseconds shown as seconds.
    seconds: bool,
    /// Decimals of every value.
    decimals: usize,
}

impl Together {
    /// The way to show `xs` (of `unit`) together.
    pub fn of(xs: impl IntoIterator<Item = f64>, unit: Option<&str>) -> Together {
        let xs: Vec<f64> = xs.into_iter().filter(|x| x.is_finite()).collect();
        let unit = unit.map(str::trim);
        let seconds = unit == Some("ms") && xs.iter().any(|x| x.abs() >= MS_AS_SECONDS);
        let mut at = Together {
            seconds,
            decimals: 0,
        };
        for &x in &xs {
            let a = at.scaled(x, unit).abs();
            // As `number` writes it: whole from 999.95 on, else four
            // significant digits without trailing zeros; numbers written
            // with a power of ten keep theirs.
            if a == 0.0 || a.fract() == 0.0 || a >= 999.95 || !(1e-6..1e15).contains(&a) {
                continue;
            }
            let d = (3 - a.log10().floor() as i32).max(0) as usize;
            let text = fixed(a, d);
            let frac = text.split_once('.').map_or("", |(_, f)| f);
            at.decimals = at.decimals.max(frac.trim_end_matches('0').len());
        }
        at
    }

    /// `x` as the number shown, on this scale.
    fn scaled(&self, x: f64, unit: Option<&str>) -> f64 {
        match unit {
            Some(FRACTION) => x * 100.0,
            Some("ms") if self.seconds => x / 1000.0,
            _ => x,
        }
    }

    /// `x` without its unit (a range beside a value that carries it).
    pub fn number(&self, x: f64, unit: Option<&str>) -> String {
        let unit = unit.map(str::trim);
        let v = self.scaled(x, unit);
        let a = v.abs();
        if !v.is_finite() || a == 0.0 || !(1e-6..1e15).contains(&a) {
            return number(v);
        }
        let text = fixed(a, self.decimals);
        let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
        let mut out = String::new();
        if v < 0.0 && !text.bytes().all(|b| b == b'0' || b == b'.') {
            out.push('−');
        }
        out.push_str(&grouped(int));
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
        out
    }

    /// `x` with its unit: `316.0 tok/s`, `9.80 s`.
    pub fn with_unit(&self, x: f64, unit: Option<&str>) -> String {
        let trimmed = unit.map(str::trim).filter(|u| !u.is_empty());
        let mut out = self.number(x, trimmed);
        let shown = match trimmed {
            Some(FRACTION) => Some("%"),
            Some("ms") if self.seconds => Some("s"),
            u => u,
        };
        if let (Some(u), true) = (shown, x.is_finite()) {
            if !tight(u) {
                out.push(' ');
            }
            out.push_str(u);
        }
        out
    }
}

#[cfg(test)]
mod tests;
