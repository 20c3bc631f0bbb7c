//! The day a benchmark ran, as YYYY-MM-DD, from the ways the tools write
//! it: vLLM's `20260115-101530` (local time), ISO 8601 (`2025-04-24T11:59:33Z`,
//! AIPerf's naive local `2025-10-10T12:00:00.123456`), and Unix seconds
//! (guidellm, inferlint), read as UTC. Always from the file, never the clock.

/// `YYYYMMDD…` (vLLM's `%Y%m%d-%H%M%S`) or `YYYY-MM-DD…` as YYYY-MM-DD.
pub(crate) fn from_text(s: &str) -> Option<String> {
    let s = s.trim();
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .filter(|d| d.iter().all(u8::is_ascii_digit))
            .map(|_| &s[r])
    };
    let (y, m, d) = if b.get(4) == Some(&b'-') && b.get(7) == Some(&b'-') {
        (digits(0..4)?, digits(5..7)?, digits(8..10)?)
    } else {
        (digits(0..4)?, digits(4..6)?, digits(6..8)?)
    };
    let (mi, di): (u32, u32) = (m.parse().ok()?, d.parse().ok()?);
    ((1..=12).contains(&mi) && (1..=31).contains(&di)).then(|| format!("{y}-{m}-{d}"))
}

/// Unix time in seconds as the UTC day, YYYY-MM-DD.
pub(crate) fn from_unix(seconds: f64) -> Option<String> {
    if !(0.0..=1e11).contains(&seconds) {
        return None;
    }
    // Days to civil date (Howard Hinnant's algorithm).
    let z = (seconds / 86_400.0).floor() as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_dates() {
        assert_eq!(from_text("20260115-101530").as_deref(), Some("2026-01-15"));
        assert_eq!(
            from_text("2025-04-24T11:59:33Z").as_deref(),
            Some("2025-04-24")
        );
        assert_eq!(
            from_text("2025-10-10T12:00:00.123456").as_deref(),
            Some("2025-10-10")
        );
        assert_eq!(from_text("20261301-000000"), None);
        assert_eq!(from_text("yesterday"), None);
        assert_eq!(from_unix(1_760_000_000.1).as_deref(), Some("2025-10-09"));
        assert_eq!(from_unix(0.0).as_deref(), Some("1970-01-01"));
        assert_eq!(from_unix(951_782_400.0).as_deref(), Some("2000-02-29"));
    }
}
