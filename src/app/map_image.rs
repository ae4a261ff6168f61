//! The printed map under the hex grid (issue 25): a scan or photo of the
//! players' own map, drawn beneath the grid so the app's counters stand on
//! the printed hexes and nobody moves a cardboard counter as well. It is
//! aligned by two clicks, on where two named hexes' centres are printed
//! (the first and the last of the map, far apart for precision), which
//! fixes its scale, turn and place: a similarity, as a photo taken square
//! to the map is. It is kept beside the game's autosave, by the game's id,
//! so the game reopens with it; the game file itself stays as the rules
//! write it.

use eframe::egui::{self, Color32, Pos2};
use muster::core::hexmap::{Hex, HexMap};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where a hex's centre is printed on the image, in its pixels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pin {
    pub image: [f64; 2],
    pub hex: String,
}

/// What is kept beside the game: the image's file and its alignment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saved {
    pub path: PathBuf,
    pub pins: Option<[Pin; 2]>,
}

/// Image pixels to map units: `map = s * image + t`, in complex numbers
/// (`s` scales and turns).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Similarity {
    s: (f64, f64),
    t: (f64, f64),
}

impl Similarity {
    fn apply(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let (a, b) = self.s;
        (a * x - b * y + self.t.0, b * x + a * y + self.t.1)
    }

    fn invert(&self, (u, v): (f64, f64)) -> (f64, f64) {
        let (a, b) = self.s;
        let (x, y) = (u - self.t.0, v - self.t.1);
        let n = a * a + b * b;
        ((a * x + b * y) / n, (a * y - b * x) / n)
    }

    /// The one that takes `p1` to `q1` and `p2` to `q2`; none when the two
    /// image points are one.
    fn through(p1: (f64, f64), q1: (f64, f64), p2: (f64, f64), q2: (f64, f64)) -> Option<Self> {
        let (dx, dy) = (p2.0 - p1.0, p2.1 - p1.1);
        let n = dx * dx + dy * dy;
        if n < 1e-9 {
            return None;
        }
        let (ex, ey) = (q2.0 - q1.0, q2.1 - q1.1);
        // (ex + i ey) / (dx + i dy)
        let s = ((ex * dx + ey * dy) / n, (ey * dx - ex * dy) / n);
        let t = (
            q1.0 - (s.0 * p1.0 - s.1 * p1.1),
            q1.1 - (s.1 * p1.0 + s.0 * p1.1),
        );
        Some(Similarity { s, t })
    }
}

/// The loaded image, its alignment, and the clicks of one under way.
pub struct MapImage {
    saved: Saved,
    texture: egui::TextureHandle,
    /// Its size in pixels, as the pins count them.
    size: [f64; 2],
    /// The image points clicked so far while aligning.
    aligning: Option<Vec<[f64; 2]>>,
    /// Shown with the grid, or put aside.
    pub shown: bool,
}

/// The two hexes the alignment asks for: the map's first and last.
fn pin_hexes(map: &HexMap) -> [Hex; 2] {
    [
        Hex {
            column: map.first_column,
            row: map.first_row,
        },
        Hex {
            column: map.first_column + map.columns - 1,
            row: map.first_row + map.rows - 1,
        },
    ]
}

/// An image read from its file, not yet a texture (the file dialog's
/// answer has no context to make one): read at once so that a bad file is
/// refused where it was chosen.
pub struct Read {
    saved: Saved,
    pixels: egui::ColorImage,
    size: [f64; 2],
}

impl Read {
    /// Reads the image at `saved.path` (PNG or JPEG) within
    /// `image_read::MAX_PEAK` for all it holds at once (`image_read`), its
    /// texture at most `side` pixels a side (the painter's largest).
    /// Slow for a large scan: called off the window's thread.
    pub fn from(saved: Saved, side: u32) -> Result<Read, String> {
        let read = crate::app::image_read::read(&saved.path, side)?;
        Ok(Read {
            saved,
            pixels: read.image,
            size: read.size,
        })
    }
}

impl MapImage {
    /// The image read, as a texture to draw.
    pub fn upload(ctx: &egui::Context, read: Read) -> MapImage {
        let texture = ctx.load_texture("map image", read.pixels, egui::TextureOptions::LINEAR);
        MapImage {
            aligning: read.saved.pins.is_none().then(Vec::new),
            saved: read.saved,
            texture,
            size: read.size,
            shown: true,
        }
    }

    pub fn saved(&self) -> &Saved {
        &self.saved
    }

    /// Image pixels to map units: through the pins, or, before they are
    /// set, the whole image over the whole map.
    fn transform(&self, map: &HexMap) -> Similarity {
        let pinned = self.saved.pins.as_ref().and_then(|[a, b]| {
            let hex = |pin: &Pin| map.hex(&pin.hex).ok().map(|h| map.centre(h));
            Similarity::through(
                (a.image[0], a.image[1]),
                hex(a)?,
                (b.image[0], b.image[1]),
                hex(b)?,
            )
        });
        pinned.unwrap_or_else(|| {
            let (w, h) = map.extent();
            let scale = (w / self.size[0]).min(h / self.size[1]);
            Similarity {
                s: (scale, 0.0),
                t: (0.0, 0.0),
            }
        })
    }

    /// Draws the image under the grid.
    pub fn draw(
        &self,
        painter: &egui::Painter,
        map: &HexMap,
        to_screen: &impl Fn((f64, f64)) -> Pos2,
    ) {
        if !self.shown {
            return;
        }
        let m = self.transform(map);
        let [w, h] = self.size;
        let corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
        let uvs = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        let mut mesh = egui::Mesh::with_texture(self.texture.id());
        for (corner, (u, v)) in corners.into_iter().zip(uvs) {
            mesh.vertices.push(egui::epaint::Vertex {
                pos: to_screen(m.apply(corner)),
                uv: Pos2::new(u, v),
                color: Color32::WHITE,
            });
        }
        mesh.indices.extend([0, 1, 2, 0, 2, 3]);
        painter.add(egui::Shape::mesh(mesh));
    }

    /// What the next click aligns, while aligning.
    pub fn hint(&self, map: &HexMap) -> Option<String> {
        let done = self.aligning.as_ref()?.len();
        let hex = pin_hexes(map)[done.min(1)];
        Some(format!(
            "Aligning the map image ({} of 2): click the centre of hex {hex} as the image prints it",
            done + 1
        ))
    }

    /// Starts the alignment again.
    pub fn align(&mut self) {
        self.aligning = Some(Vec::new());
        self.shown = true;
    }

    /// A click on the map at `at` (map units) while aligning: the image
    /// point under it is pinned to the next hex. Returns whether it was
    /// taken, and whether the alignment is then done (to save it).
    pub fn click(&mut self, map: &HexMap, at: (f64, f64)) -> (bool, bool) {
        let m = self.transform(map);
        let Some(points) = &mut self.aligning else {
            return (false, false);
        };
        let (x, y) = m.invert(at);
        points.push([x, y]);
        if points.len() < 2 {
            return (true, false);
        }
        let [first, last] = pin_hexes(map);
        let pins = [
            Pin {
                image: points[0],
                hex: first.to_string(),
            },
            Pin {
                image: points[1],
                hex: last.to_string(),
            },
        ];
        self.aligning = None;
        // Two clicks on one point align nothing: ask again.
        if Similarity::through(
            (pins[0].image[0], pins[0].image[1]),
            map.centre(first),
            (pins[1].image[0], pins[1].image[1]),
            map.centre(last),
        )
        .is_none()
        {
            self.aligning = Some(Vec::new());
            return (true, false);
        }
        self.saved.pins = Some(pins);
        (true, true)
    }

    /// Where a map point lands on the image, in its pixels (tests).
    #[cfg(test)]
    pub fn image_point(&self, map: &HexMap, at: (f64, f64)) -> (f64, f64) {
        self.transform(map).invert(at)
    }

    /// Where an image pixel lands on the map (tests).
    #[cfg(test)]
    pub fn map_point(&self, map: &HexMap, pixel: (f64, f64)) -> (f64, f64) {
        self.transform(map).apply(pixel)
    }
}

/// Where a map system's window keeps its games' map images: beside the
/// autosaves (none in a test without them).
#[derive(Clone, Default)]
pub struct Keeper {
    pub dir: Option<PathBuf>,
}

impl Keeper {
    /// What was kept of game `id`'s image, to read again (off the
    /// window's thread); one whose file is gone or changed is left out
    /// when it is read.
    pub fn kept(&self, id: &str) -> Option<Saved> {
        kept(self.dir.as_ref()?, id)
    }

    /// Keeps an aligned image beside game `id`, or forgets a removed one
    /// (`None`); why not, in words. Nothing of the game is lost either way.
    pub fn keep_change(&self, id: &str, change: Option<Saved>) -> Result<(), String> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        match change {
            Some(saved) => keep(dir, id, &saved),
            None => match std::fs::remove_file(sidecar(dir, id)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.to_string()),
                _ => Ok(()),
            },
        }
    }
}

/// The file beside the autosaves that keeps game `id`'s map image.
pub fn sidecar(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.map-image.json"))
}

/// Writes what is kept of a game's map image.
pub fn keep(dir: &Path, id: &str, saved: &Saved) -> Result<(), String> {
    let text = serde_json::to_string_pretty(saved).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    muster::core::store::write_atomic(&sidecar(dir, id), text.as_bytes(), |_| Ok(()))
        .map_err(|e| e.to_string())
}

/// What was kept of a game's map image, if anything (a bad file: nothing,
/// and the game opens as ever).
pub fn kept(dir: &Path, id: &str) -> Option<Saved> {
    let text = muster::core::store::read_text(&sidecar(dir, id)).ok()?;
    serde_json::from_str(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_pins_fix_scale_turn_and_place() {
        // An image at half scale, turned 90°, shifted.
        let p1 = (10.0, 20.0);
        let p2 = (10.0, 220.0);
        let q1 = (1.0, 1.0);
        let q2 = (101.0, 1.0);
        let m = Similarity::through(p1, q1, p2, q2).unwrap();
        for (p, q) in [(p1, q1), (p2, q2)] {
            let got = m.apply(p);
            assert!((got.0 - q.0).abs() < 1e-9 && (got.1 - q.1).abs() < 1e-9);
            let back = m.invert(q);
            assert!((back.0 - p.0).abs() < 1e-9 && (back.1 - p.1).abs() < 1e-9);
        }
        assert!(Similarity::through(p1, q1, p1, q2).is_none());
    }
}
