//! How the backend writes what it draws: numbers and x positions pushed
//! digit by digit (a chart writes tens of numbers an element, and
//! `write!` costs several times as much a number), colours (plotters'
//! black as `currentColor`), opacities, paint, rectangles, escaped text.

use crate::util::escape_html;
use plotters_backend::BackendColor;
use std::fmt::Write as _;

/// An x as written: px from the plot's left edge, or a share of its width.
#[derive(Clone, Copy)]
pub(super) enum X {
    /// Px from the plot's left edge.
    Px(i32),
    /// A share of the plot's width.
    Share(f64),
}

impl std::fmt::Display for X {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::with_capacity(8);
        push_x(&mut s, *self);
        f.write_str(&s)
    }
}

/// Pushes `v`'s digits. The drawing writes tens of numbers an element, and
/// `write!` costs several times as much a number as this.
pub(super) fn push_int(b: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut m = v.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if v < 0 {
        b.push('-');
    }
    b.push_str(std::str::from_utf8(&buf[at..]).unwrap_or("0"));
}

/// Pushes an x: px, or a share of the width as a percentage to the
/// hundredth (`37.5%`).
pub(super) fn push_x(b: &mut String, x: X) {
    match x {
        X::Px(v) => push_int(b, i64::from(v)),
        X::Share(s) => {
            let n = (s * 10000.0).round() as i64;
            if n < 0 {
                b.push('-');
            }
            let m = n.abs();
            push_int(b, m / 100);
            let frac = m % 100;
            if frac != 0 {
                b.push('.');
                b.push(char::from(b'0' + (frac / 10) as u8));
                if frac % 10 != 0 {
                    b.push(char::from(b'0' + (frac % 10) as u8));
                }
            }
            b.push('%');
        }
    }
}

/// Pushes a point: `x,y` (or `x y`, with `sep` a space).
pub(super) fn push_pair(b: &mut String, x: i32, y: i32, sep: char) {
    push_int(b, i64::from(x));
    b.push(sep);
    push_int(b, i64::from(y));
}

/// A colour as SVG writes it: plotters' black is the page's colour
/// (`currentColor`, light on a dark page), since a black mark could not be
/// seen on a dark page anyway (the palette has none). Written straight
/// into the output, without a string of its own.
pub(super) struct Hex(BackendColor);

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::with_capacity(12);
        push_hex(&mut s, self.0);
        f.write_str(&s)
    }
}

/// Pushes a colour: `#RRGGBB`, or `currentColor` for black.
pub(super) fn push_hex(b: &mut String, c: BackendColor) {
    let (r, g, bl) = c.rgb;
    if (r, g, bl) == (0, 0, 0) {
        b.push_str("currentColor");
        return;
    }
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    b.push('#');
    for v in [r, g, bl] {
        b.push(char::from(DIGITS[usize::from(v >> 4)]));
        b.push(char::from(DIGITS[usize::from(v & 15)]));
    }
}

pub(super) fn hex(c: BackendColor) -> Hex {
    Hex(c)
}

/// An opacity attribute, where it is not 1.
pub(super) struct Opacity(&'static str, f64);

impl std::fmt::Display for Opacity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.1 >= 1.0 {
            Ok(())
        } else {
            write!(f, " {}=\"{}\"", self.0, (self.1 * 100.0).round() / 100.0)
        }
    }
}

pub(super) fn opacity(attr: &'static str, a: f64) -> Opacity {
    Opacity(attr, a)
}

/// `s`, escaped for XML where it has to be (most labels are digits and
/// letters, and are copied as they are).
pub(super) fn push_escaped(b: &mut String, s: &str) {
    if s.bytes()
        .any(|c| matches!(c, b'&' | b'<' | b'>' | b'"' | b'\''))
    {
        b.push_str(&escape_html(s));
    } else {
        b.push_str(s);
    }
}

/// `<rect x y width height paint/>`.
pub(super) fn push_rect(b: &mut String, (x, y, w, h): (i32, i32, i32, i32), paint: Paint) {
    b.push_str("<rect x=\"");
    push_int(b, i64::from(x));
    b.push_str("\" y=\"");
    push_int(b, i64::from(y));
    b.push_str("\" width=\"");
    push_int(b, i64::from(w));
    b.push_str("\" height=\"");
    push_int(b, i64::from(h));
    b.push_str("\" ");
    if paint.2 && paint.0.alpha >= 1.0 {
        b.push_str("fill=\"");
        push_hex(b, paint.0);
        b.push_str("\"/>");
    } else {
        let _ = write!(b, "{paint}/>");
    }
}

pub(super) fn circle_paint(c: BackendColor, stroke: u32, fill: bool) -> Paint {
    Paint(c, stroke, fill)
}

/// How a shape is painted: filled with its colour, or outlined with it.
pub(super) struct Paint(pub(super) BackendColor, pub(super) u32, pub(super) bool);

impl std::fmt::Display for Paint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Paint(c, stroke, fill) = *self;
        if fill {
            write!(f, "fill=\"{}\"{}", hex(c), opacity("fill-opacity", c.alpha))
        } else {
            write!(
                f,
                "fill=\"none\" stroke=\"{}\"{} stroke-width=\"{stroke}\"",
                hex(c),
                opacity("stroke-opacity", c.alpha)
            )
        }
    }
}
