//! Where every hex's counters are drawn on a map at one zoom (the
//! laptop's grid, `src/app/hex_grid/`): inside their hex while it holds
//! them at `callout_px` or more (`Rules::stack`); on a hex too small for
//! that (the whole map of a large battle), the counters' names alone at
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
    /// The shown counters' names (the front one's with how many more the
    /// hex holds: `callout`) at `callout_px`, each under the one before as
    /// in a stack, in these boxes (screen pixels, `[left, top, right,
    /// bottom]`, front first); beside the hex when they miss its centre.
    Beside(Vec<[f64; 4]>),
    /// No free place near: a dot of the front counter's side.
    Dot,
}

/// What a counter's token says on a crowded hex: its name alone, and
/// "+2" when two more than are shown share the hex (the hover lists
/// them).
pub fn callout(label: &str, more: usize) -> String {
    match more {
        0 => short(label).to_string(),
        n => format!("{}+{n}", short(label)),
    }
}

impl Laid {
    /// How many of its hex's counters are not shown.
    pub fn more(&self) -> usize {
        self.count - self.shown.len()
    }
}

/// The least box holding `boxes`.
fn union(boxes: &[[f64; 4]]) -> [f64; 4] {
    boxes.iter().fold(
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
        |u, t| {
            [
                u[0].min(t[0]),
                u[1].min(t[1]),
                u[2].max(t[2]),
                u[3].max(t[3]),
            ]
        },
    )
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
                // Smaller than a crowded hex's name, a label is not read
                // (8 px ones at the whole map were not): named as one.
                let how = match self.stack(radius, orientation, &ems, here.len()) {
                    Some(stack) if stack.px >= self.callout_px => How::Inside(stack),
                    _ => How::Dot,
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
        for &(k, _) in &centres {
            let l = &laid[k];
            let texts: Vec<String> = (l.shown.iter().enumerate())
                .map(|(i, c)| callout(counters[*c].2, if i == 0 { l.more() } else { 0 }))
                .collect();
            let ems: Vec<f64> = texts.iter().map(|t| measure(t)).collect();
            // The names as a stack centred on (0, 0), the badge left out:
            // the front one's "+2" says it.
            let group = self.stack_at(0.0, &ems, 0, self.callout_px).tokens;
            let [x0, y0, x1, y1] = union(&group);
            let (w, h) = (x1 - x0, y1 - y0);
            let [cx, cy] = l.centre;
            let mut places: Vec<(i32, i32)> = (-REACH..=REACH)
                .flat_map(|i| (-REACH..=REACH).map(move |j| (i, j)))
                .collect();
            // Nearest first (in the names' own half-widths and
            // half-heights, so beside them before above them), then right
            // of and above before left and below: the same place every
            // frame.
            places.sort_by_key(|&(i, j)| (i * i + j * j, -i, j));
            let free = places.into_iter().find_map(|(i, j)| {
                let (x, y) = (cx + f64::from(i) * w / 2.0, cy + f64::from(j) * h / 2.0);
                let moved: Vec<[f64; 4]> = (group.iter())
                    .map(|t| [t[0] + x, t[1] + y, t[2] + x, t[3] + y])
                    .collect();
                let clear = moved.iter().all(|token| {
                    !taken.iter().any(|t| meet(t, token))
                        && !centres.iter().any(|(o, c)| *o != k && meet(c, token))
                });
                clear.then_some(moved)
            });
            if let Some(tokens) = free {
                taken.extend(tokens.iter().copied());
                laid[k].how = How::Beside(tokens);
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
