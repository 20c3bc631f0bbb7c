//! How the backend writes markers (a point with its whisker, a flagged or
//! regressed point), which a chart of a few hundred linked points writes
//! a few hundred of: so each is written once, and only with what it does
//! not share with the markers beside it.
//!
//! - The markers of one series stand in a group that gives them its
//!   colour and stroke width (`<g stroke fill stroke-width>`, opened by
//!   [`super::Layers::paint`]); a shape writes only what differs.
//! - Markers centred at one x (the points of one version) share the
//!   nested drawing that places them (`<svg x="37.5%">`).
//! - A point's link is an `<a>` inside that drawing, opened by its first
//!   shape, its name the `<title>` it ends with (the accessible name of an
//!   SVG link, and what shows on hover), written once.
//! - A path's lines are written as short as SVG allows: `H`/`V` where a
//!   line is flat or upright, relative moves where they are shorter.

use super::write::{hex, opacity, push_int};
use super::{Frame, Parts};
use crate::util::escape_html;
use plotters_backend::BackendColor;
use std::fmt::Write as _;

/// Two colours alike as written.
pub(super) fn same(a: BackendColor, b: BackendColor) -> bool {
    a.rgb == b.rgb && a.alpha == b.alpha
}

impl Parts {
    /// Opens the px frame of a marker centred at canvas x `x` (its share
    /// of the width), unless one is open there, and the link its shapes
    /// sit in, unless it is open.
    pub(super) fn anchor_at(&mut self, frame: &Frame, x: i32) {
        if self.anchor != Some(x) {
            self.close_anchor();
            let _ = write!(
                self.markers,
                "<svg x=\"{}\" overflow=\"visible\">",
                frame.x(x)
            );
            self.anchor = Some(x);
        }
        if !self.link_open {
            let a =
                (self.link.as_ref()).map(|(href, _)| format!("<a href=\"{}\">", escape_html(href)));
            if let Some(a) = a {
                self.flush_lines();
                self.markers.push_str(&a);
                self.link_open = true;
            }
        }
    }

    /// Writes the lines waiting to be one path.
    pub(super) fn flush_lines(&mut self) {
        if let Some((d, attrs)) = self.lines.take() {
            let _ = write!(self.markers, "<path{attrs} d=\"{d}\"/>");
        }
    }

    /// Closes the link's `<a>` where it is open, with its name.
    fn close_link(&mut self) {
        self.flush_lines();
        if self.link_open {
            let label = self.link.as_ref().map(|l| l.1.as_str()).unwrap_or("");
            let _ = writeln!(self.markers, "<title>{}</title></a>", escape_html(label));
            self.link_open = false;
        }
    }

    /// Ends the link: the markers drawn next link nowhere.
    pub(super) fn end_link(&mut self) {
        self.close_link();
        self.link = None;
    }

    /// Closes the px frame (and the link in it, which a marker drawn at
    /// another x opens again).
    pub(super) fn close_anchor(&mut self) {
        self.close_link();
        if self.anchor.take().is_some() {
            self.markers.push_str("</svg>\n");
        }
    }

    /// Closes the series' group.
    pub(super) fn close_paint(&mut self) {
        self.close_anchor();
        if self.paint.take().is_some() {
            self.markers.push_str("</g>\n");
        }
    }

    /// Opens a group that strokes and fills the markers in it with `c`,
    /// `width` wide.
    pub(super) fn open_paint(&mut self, c: BackendColor, width: u32) {
        self.close_paint();
        let _ = writeln!(
            self.markers,
            "<g stroke=\"{}\"{} fill=\"{}\"{} stroke-width=\"{width}\">",
            hex(c),
            opacity("stroke-opacity", c.alpha),
            hex(c),
            opacity("fill-opacity", c.alpha),
        );
        self.paint = Some((c, width));
    }

    /// ` stroke="…" stroke-width="…"` of a line of colour `c`, `width`
    /// wide, less what the group around it gives it.
    pub(super) fn stroke_attrs(&self, c: BackendColor, width: u32) -> String {
        let mut s = String::new();
        if !self.paint.is_some_and(|(g, _)| same(g, c)) {
            let _ = write!(
                s,
                " stroke=\"{}\"{}",
                hex(c),
                opacity("stroke-opacity", c.alpha)
            );
        }
        if self.paint.map(|(_, w)| w) != Some(width) {
            let _ = write!(s, " stroke-width=\"{width}\"");
        }
        s
    }

    /// ` stroke="none"` for a filled shape in a group that strokes, which
    /// would otherwise take the group's stroke.
    pub(super) fn no_stroke(&self) -> &'static str {
        if self.paint.is_some() {
            " stroke=\"none\""
        } else {
            ""
        }
    }

    /// A filled circle in a group of its colour: (its radius less half
    /// the group's stroke, which draws the rest), where that is whole.
    pub(super) fn dot_radius(&self, c: BackendColor, radius: u32) -> Option<u32> {
        let (g, w) = self.paint?;
        (same(g, c) && w % 2 == 0 && radius > w / 2).then(|| radius - w / 2)
    }
}

/// Pushes a path through `pts` (already around the marker's centre):
/// `M` to the first, then each line as the shorter of its absolute and
/// relative forms (`H7` over `h14`, `v1` over `V129`).
pub(super) fn push_path(d: &mut String, pts: &[(i32, i32)]) {
    let Some(&(x0, y0)) = pts.first() else {
        return;
    };
    d.push('M');
    push_int(d, i64::from(x0));
    d.push(' ');
    push_int(d, i64::from(y0));
    let (mut px, mut py) = (x0, y0);
    let (mut abs, mut rel) = (String::new(), String::new());
    for &(x, y) in &pts[1..] {
        abs.clear();
        rel.clear();
        let (dx, dy) = (x - px, y - py);
        if dx == 0 {
            abs.push('V');
            push_int(&mut abs, i64::from(y));
            rel.push('v');
            push_int(&mut rel, i64::from(dy));
        } else if dy == 0 {
            abs.push('H');
            push_int(&mut abs, i64::from(x));
            rel.push('h');
            push_int(&mut rel, i64::from(dx));
        } else {
            abs.push('L');
            push_int(&mut abs, i64::from(x));
            abs.push(' ');
            push_int(&mut abs, i64::from(y));
            rel.push('l');
            push_int(&mut rel, i64::from(dx));
            rel.push(' ');
            push_int(&mut rel, i64::from(dy));
        }
        d.push_str(if rel.len() < abs.len() { &rel } else { &abs });
        (px, py) = (x, y);
    }
}
