//! Where every hex's counters are drawn on a map at one zoom (the
//! laptop's grid, `src/app/hex_grid/`): inside their hex while it holds
//! them readably (`Rules::stack`); on a hex too small for that (the whole
//! map of a large battle), the front counter's name alone at
//! `callout_px`, on its hex or beside it, never over another's label nor
//! over another crowded hex's centre, a line back to its hex when it is
//! moved off it. A dot only where no place near is free. A player test
//! found every counter of the whole map shrunk to a dot, unread.

use super::{Rules, Stack, short};
use crate::hexmap::{Hex, Orientation};

/// One hex's counters as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Laid {
    /// The counters shown, front first (indices into `lay`'s `counters`),
    /// and how many the hex holds.
    pub shown: Vec<usize>,
    pub count: usize,
    /// The hex's centre on the screen.
    pub centre: [f64; 2],
    pub how: How,
}

/// How a hex's counters are drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum How {
    /// Inside the hex (boxes from its centre).
    Inside(Stack),
    /// The front counter's name (and how many more the hex holds:
    /// `callout`) at `callout_px`, in this box (screen pixels,
    /// `[left, top, right, bottom]`); beside the hex when the box misses
    /// its centre.
    Beside([f64; 4]),
    /// No free place near: a dot of the front counter's side.
    Dot,
}

/// What a counter's token says beside a crowded hex: its name alone, and
/// "+2" when two more share the hex (the hover lists them).
pub fn callout(label: &str, count: usize) -> String {
    match count {
        0 | 1 => short(label).to_string(),
        n => format!("{}+{}", short(label), n - 1),
    }
}

/// Whether two boxes share more than an edge.
fn meet(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] < b[2] - 1e-6 && b[0] < a[2] - 1e-6 && a[1] < b[3] - 1e-6 && b[1] < a[3] - 1e-6
}

/// How far round a crowded hex its name is looked for: this many half
/// tokens each way.
const REACH: i32 = 6;

impl Rules {
    /// Every hex's counters on a map at `radius` pixels: `counters` are
    /// each counter's hex, its hex's centre on the screen and its label;
    /// `measure` a text's width at a 1 px font. Hexes in column then row
    /// order, each counter in the order given (the first is the front
    /// one), at most `stack_shown` shown. The hexes that hold their
    /// stacks are laid first; the crowded ones then take, in turn, the
    /// nearest free place to their centre.
    pub fn lay(
        &self,
        orientation: Orientation,
        radius: f64,
        counters: &[(Hex, [f64; 2], &str)],
        measure: &dyn Fn(&str) -> f64,
    ) -> Vec<Laid> {
        let mut hexes: Vec<Hex> = counters.iter().map(|c| c.0).collect();
        hexes.sort_by_key(|h| (h.column, h.row));
        hexes.dedup();
        let mut laid: Vec<Laid> = hexes
            .into_iter()
            .map(|hex| {
                let here: Vec<usize> = (0..counters.len())
                    .filter(|k| counters[*k].0 == hex)
                    .collect();
                let shown = here[..here.len().min(self.stack_shown)].to_vec();
                let ems: Vec<[f64; 2]> = shown
                    .iter()
                    .map(|k| {
                        let text = counters[*k].2;
                        [measure(text), measure(short(text))]
                    })
                    .collect();
                let how = match self.stack(radius, orientation, &ems, here.len()) {
                    Some(stack) => How::Inside(stack),
                    None => How::Dot,
                };
                Laid {
                    shown,
                    count: here.len(),
                    centre: counters[here[0]].1,
                    how,
                }
            })
            .collect();
        // What is drawn already: the stacks inside their hexes, and every
        // crowded hex's centre (its counter's place, never hidden by
        // another's name).
        let mut taken: Vec<[f64; 4]> = laid
            .iter()
            .filter_map(|l| match &l.how {
                How::Inside(stack) => Some(stack.boxes(l.centre)),
                _ => None,
            })
            .flatten()
            .collect();
        let centres: Vec<(usize, [f64; 4])> = (laid.iter().enumerate())
            .filter(|(_, l)| l.how == How::Dot)
            .map(|(k, l)| {
                let [x, y] = l.centre;
                (k, [x - 2.0, y - 2.0, x + 2.0, y + 2.0])
            })
            .collect();
        let px = self.callout_px;
        let scale = px / self.label_px;
        let [pad_x, pad_y] = self.token_padding;
        let h = px + pad_y * scale;
        for &(k, _) in &centres {
            let l = &laid[k];
            let text = callout(counters[l.shown[0]].2, l.count);
            let w = measure(&text) * px + pad_x * scale;
            let [cx, cy] = l.centre;
            let mut places: Vec<(i32, i32)> = (-REACH..=REACH)
                .flat_map(|i| (-REACH..=REACH).map(move |j| (i, j)))
                .collect();
            // Nearest first (in the token's own half-widths and
            // half-heights, so beside it before above it), then right of
            // and above it before left and below: the same place every
            // frame.
            places.sort_by_key(|&(i, j)| (i * i + j * j, -i, j));
            let free = places.into_iter().find_map(|(i, j)| {
                let (x, y) = (cx + f64::from(i) * w / 2.0, cy + f64::from(j) * h / 2.0);
                let token = [x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0];
                let clear = !taken.iter().any(|t| meet(t, &token))
                    && !centres.iter().any(|(o, c)| *o != k && meet(c, &token));
                clear.then_some(token)
            });
            if let Some(token) = free {
                taken.push(token);
                laid[k].how = How::Beside(token);
            }
        }
        laid
    }
}

impl Stack {
    /// Its tokens' and badge's boxes on the screen, about a hex's `centre`.
    pub fn boxes(&self, [cx, cy]: [f64; 2]) -> Vec<[f64; 4]> {
        let mut all = self.tokens.clone();
        all.extend(self.badge.map(|([x, y], r)| [x - r, y - r, x + r, y + r]));
        all.into_iter()
            .map(|t| [t[0] + cx, t[1] + cy, t[2] + cx, t[3] + cy])
            .collect()
    }
}
