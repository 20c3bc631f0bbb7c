//! Text: cleaning, measuring and wrapping the strings a chart shows. Takes
//! cell text, titles and labels; hands on one-line text safe for XML, its
//! estimated width in px (with no font files, from a table of advance
//! widths), and labels broken into lines that fit a width.

/// Collapses whitespace (newlines included) to single spaces and drops
/// characters XML cannot hold.
pub(super) fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') {
            continue;
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// Advance widths of ASCII 32..=126 in a Helvetica-like face, in 1/1000 em.
const ASCII_WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0-9
    278, 278, 584, 584, 584, 556, 1015, // :..@
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, // A-M
    722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N-Z
    278, 278, 278, 469, 556, 333, // [..`
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, // a-m
    556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, // n-z
    334, 260, 334, 584, // {..~
];

fn char_width(c: char) -> u32 {
    let u = c as u32;
    if (32..=126).contains(&u) {
        return u32::from(ASCII_WIDTHS[(u - 32) as usize]);
    }
    let wide = matches!(u,
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1FAFF
        | 0x20000..=0x3FFFD);
    if wide {
        1000
    } else {
        600
    }
}

/// Estimated width of `s` in px at `size` px, with a margin for wider
/// faces: DejaVu Sans, which Linux gives `system-ui` and `sans-serif`, is
/// 11% to 15% wider than Helvetica in lower case and digits.
pub(super) fn text_width(s: &str, size: f64) -> f64 {
    let units: u32 = s.chars().map(char_width).sum();
    f64::from(units) * size / 1000.0 * 1.15
}

/// Breaks `s` into lines no wider than `width` px, at spaces or after `-`,
/// `_`, `/`, `,`, `.` or `:`. `None` if it needs more than `max_lines` lines
/// or a piece alone is too wide (unless `force`, which lets pieces overflow).
pub(super) fn wrap(
    s: &str,
    width: f64,
    size: f64,
    max_lines: usize,
    force: bool,
) -> Option<Vec<String>> {
    let mut pieces: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        cur.push(c);
        if matches!(c, ' ' | '-' | '_' | '/' | ',' | '.' | ':') {
            pieces.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        pieces.push(cur);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for p in pieces {
        let candidate = format!("{line}{p}");
        if line.is_empty() || text_width(candidate.trim_end(), size) <= width {
            line = candidate;
        } else {
            lines.push(line.trim_end().to_string());
            line = p;
        }
        if !force && text_width(line.trim_end(), size) > width {
            return None;
        }
    }
    if !line.trim_end().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    (force || lines.len() <= max_lines).then_some(lines)
}
