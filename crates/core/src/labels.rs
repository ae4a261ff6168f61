//! Placing labels so that none hides another: each goes to the first free
//! spot around what it names, inside its area and clear of every box
//! already taken (other labels, markers, a legend). The printout and the
//! window's table both place their labels here, so they agree.

/// An axis-aligned rectangle, from its smaller corner to its larger one
/// (mm on a page, points on the screen).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
}

impl Rect {
    pub fn new(x0: f32, y0: f32, x1: f32, y1: f32) -> Rect {
        Rect { x0, y0, x1, y1 }
    }

    /// Whether the two share any area (touching edges do not).
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    pub fn contains(&self, other: &Rect) -> bool {
        other.x0 >= self.x0 && other.x1 <= self.x1 && other.y0 >= self.y0 && other.y1 <= self.y1
    }
}

/// The first spot for a `w` x `h` box near `anchor` that stays inside
/// `within` and clear of `taken`: centred on the anchor if free, else on
/// rings `step` further out each, each tried in sixteen directions.
/// `None` when no spot within reach is free.
pub fn free_spot(
    anchor: (f32, f32),
    (w, h): (f32, f32),
    step: f32,
    within: &Rect,
    taken: &[Rect],
) -> Option<Rect> {
    let (ax, ay) = anchor;
    let at = |cx: f32, cy: f32| Rect::new(cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0);
    let free = |r: &Rect| within.contains(r) && taken.iter().all(|t| !t.overlaps(r));
    let centred = at(ax, ay);
    if free(&centred) {
        return Some(centred);
    }
    for ring in 1..=40 {
        let reach = ring as f32 * step;
        for k in 0..16 {
            let t = std::f32::consts::TAU * k as f32 / 16.0;
            let r = at(
                ax + reach * t.cos() * (1.0 + w / 20.0),
                ay + reach * t.sin(),
            );
            if free(&r) {
                return Some(r);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_moves_off_what_is_taken_and_stays_inside() {
        let within = Rect::new(0.0, 0.0, 100.0, 100.0);
        let taken = [Rect::new(40.0, 40.0, 60.0, 60.0)];
        let r = free_spot((50.0, 50.0), (10.0, 4.0), 2.0, &within, &taken).unwrap();
        assert!(!r.overlaps(&taken[0]) && within.contains(&r));
        let r = free_spot((1.0, 1.0), (10.0, 4.0), 2.0, &within, &[]).unwrap();
        assert!(within.contains(&r));
        assert!(free_spot((50.0, 50.0), (10.0, 4.0), 2.0, &within, &[within]).is_none());
    }
}
