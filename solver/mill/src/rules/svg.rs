//! Mill boards as SVG pictures drawn to scale: the lines, the points, the
//! stones and the coordinates (files `a..` below, ranks `1..` on the left).
//! One drawing behind `solver nine|three show --svg` and the web board (which
//! adds its move markers on top of the same elements: every point is a
//! `<g class="pt" data-point="d6">` translated to the point's centre).

use crate::rules::geometry::{Bits, Geometry};
use std::fmt::Write;

/// Sizes of one board's drawing.
struct Scale {
    /// Distance between neighbouring files (and ranks), in pixels.
    step: f64,
    /// Radius of a stone.
    stone: f64,
    /// Radius of an empty point's dot.
    dot: f64,
}

impl Scale {
    /// Space around the outer points: a stone, a move marker and the
    /// coordinates fit in it.
    fn margin(&self) -> f64 {
        self.stone + 36.0
    }
}

const CAPTION: f64 = 30.0;

fn scale(files: usize) -> Scale {
    if files > 3 {
        Scale {
            step: 64.0,
            stone: 23.0,
            dot: 7.0,
        }
    } else {
        Scale {
            step: 150.0,
            stone: 42.0,
            dot: 9.0,
        }
    }
}

/// (file, rank), 0-based, of a point name such as `"d6"`.
fn cell(name: &str) -> (usize, usize) {
    let b = name.as_bytes();
    ((b[0] - b'a') as usize, (b[1] - b'1') as usize)
}

/// Escape text for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The board of `geometry` with White's and Black's `stones` (bits in the
/// geometry's point order), and a caption line under it (e.g. the position
/// text) when not empty.
pub fn board_svg(geometry: &Geometry, stones: [Bits; 2], caption: &str) -> String {
    let files = geometry
        .names
        .iter()
        .map(|n| cell(n).0 + 1)
        .max()
        .unwrap_or(1);
    let s = scale(files);
    let margin = s.margin();
    let side = (files - 1) as f64 * s.step;
    let width = side + 2.0 * margin;
    let height = width + if caption.is_empty() { 0.0 } else { CAPTION };
    let at = |name: &str| {
        let (f, r) = cell(name);
        (
            margin + f as f64 * s.step,
            margin + (files - 1 - r) as f64 * s.step,
        )
    };
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="board board-{name}" data-game="{name}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="sans-serif">
<rect class="bg" width="{width}" height="{height}" fill="#e8c88f"/>
<g class="lines" stroke="#3b2a14" stroke-width="4" stroke-linecap="round">
"##,
        name = geometry.name
    );
    for (p, name) in geometry.names.iter().enumerate() {
        for (q, other) in geometry.names.iter().enumerate() {
            if q > p && geometry.adjacent[p] >> q & 1 == 1 {
                let ((x0, y0), (x1, y1)) = (at(name), at(other));
                let _ = writeln!(out, r#"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}"/>"#);
            }
        }
    }
    out.push_str(
        "</g>\n<g class=\"coords\" fill=\"#3b2a14\" font-size=\"16\" text-anchor=\"middle\">\n",
    );
    for f in 0..files {
        let x = margin + f as f64 * s.step;
        let letter = (b'a' + f as u8) as char;
        let _ = writeln!(out, r#"<text x="{x}" y="{}">{letter}</text>"#, width - 14.0);
    }
    for r in 0..files {
        let y = margin + (files - 1 - r) as f64 * s.step + 6.0;
        let _ = writeln!(out, r#"<text x="{}" y="{y}">{}</text>"#, 16.0, r + 1);
    }
    out.push_str("</g>\n<g class=\"points\">\n");
    for (p, name) in geometry.names.iter().enumerate() {
        let (x, y) = at(name);
        let colour = if stones[0] >> p & 1 == 1 {
            Some("white")
        } else if stones[1] >> p & 1 == 1 {
            Some("black")
        } else {
            None
        };
        let _ = write!(
            out,
            r##"<g class="pt{}" data-point="{name}" transform="translate({x},{y})"><circle class="dot" r="{}" fill="#3b2a14"/>"##,
            colour.map_or(String::new(), |c| format!(" has-{c}")),
            s.dot
        );
        if let Some(c) = colour {
            let (fill, stroke) = if c == "white" {
                ("#fbfbf6", "#222")
            } else {
                ("#1d1d1d", "#000")
            };
            let _ = write!(
                out,
                r#"<circle class="stone {c}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="2.5"/>"#,
                s.stone
            );
        }
        let _ = writeln!(
            out,
            r#"<circle class="hit" r="{}" fill="transparent"/></g>"#,
            s.stone + 6.0
        );
    }
    out.push_str("</g>\n");
    if !caption.is_empty() {
        let _ = writeln!(
            out,
            r##"<text class="caption" x="{}" y="{}" font-size="15" font-family="monospace" text-anchor="middle" fill="#3b2a14">{}</text>"##,
            width / 2.0,
            height - 12.0,
            escape(caption)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A Nine Men's Morris position as SVG, its text as the caption.
pub fn nine_svg(pos: &super::position::Position) -> String {
    board_svg(&Geometry::nine(), pos.stones, &pos.to_string())
}

/// A Three Men's Morris position as SVG, its text as the caption.
pub fn three_svg(pos: &crate::games::three::Position) -> String {
    board_svg(&Geometry::three(), pos.stones, &pos.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_and_stone_is_drawn() {
        let pos: crate::rules::position::Position =
            "W.W..B...B.W....B....... w 0 0".parse().unwrap();
        let svg = nine_svg(&pos);
        assert_eq!(svg.matches("data-point=").count(), 24);
        assert_eq!(svg.matches("class=\"stone white\"").count(), 3);
        assert_eq!(svg.matches("class=\"stone black\"").count(), 3);
        assert_eq!(svg.matches("<line ").count(), 32);
        let three = three_svg(&"W...B.... w 2 2".parse().unwrap());
        assert_eq!(three.matches("data-point=").count(), 9);
        assert_eq!(three.matches("<line ").count(), 16);
    }
}
