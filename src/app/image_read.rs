//! Reading a map image within one bound on the whole of its memory (issue
//! 39: an image just under the old decode cap peaked at twice it). A PNG is
//! read row by row, its 16-bit channels stripped to 8 as they come and its
//! rows averaged into the texture in boxes of k x k pixels, so that only
//! the file, a row and the texture are ever held, whatever its size. A JPEG
//! (and an interlaced PNG, whose rows come in seven passes) is decoded
//! whole at 8 bits, then averaged the same way; its size is checked from
//! its header first, against what its decode and the texture would hold
//! together. `a_map_images_whole_read_peaks_within_its_bound` measures the
//! real peak, each read in a process of its own.

use eframe::egui::{self, Color32};
use std::io::Cursor;
use std::path::Path;

/// The most a map image's read may hold at once: the file, what is
/// decoded, the texture and the decoders' own buffers, all together.
pub const MAX_PEAK: u64 = 384 * 1024 * 1024;
/// The largest image read, in pixels a side: beyond any scan a player
/// would take, and a bound on the work a bad file can ask for.
const MAX_SIDE: u32 = 10_000;
/// The largest texture drawn a side: a bigger image is averaged down.
const TEXTURE_SIDE: u32 = 4096;
/// The largest image file read: a map scan well compressed is far less.
const MAX_FILE: u64 = 64 * 1024 * 1024;

const MIB: u64 = 1024 * 1024;

/// An image read: its texture's pixels and its own size in pixels (what
/// the alignment's pins count in).
pub struct Pixels {
    pub image: egui::ColorImage,
    pub size: [f64; 2],
}

/// Reads the PNG or JPEG at `path` within `MAX_PEAK`, its texture at most
/// `side` pixels a side (and `TEXTURE_SIDE`); a refusal names the file and
/// says what to do.
pub fn read(path: &Path, side: u32) -> Result<Pixels, String> {
    let side = side.clamp(1, TEXTURE_SIDE);
    let what = |e: String| format!("{}: {e}", path.display());
    let bytes = muster::core::store::read_bytes(path, MAX_FILE).map_err(|e| e.to_string())?;
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        png(bytes, side).map_err(what)
    } else {
        whole(bytes, side).map_err(what)
    }
}

/// The texture's size and the box side k for an image of `w` x `h` in a
/// texture of at most `side` pixels a side.
fn boxes(w: u32, h: u32, side: u32) -> Result<(usize, usize, usize), String> {
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!(
            "{w} x {h} pixels: Muster reads map images of 1 to {MAX_SIDE} pixels a side"
        ));
    }
    let k = w.max(h).div_ceil(side).max(1) as usize;
    Ok(((w as usize).div_ceil(k), (h as usize).div_ceil(k), k))
}

/// Sums pixels into boxes of k x k, one band of k rows at a time, and
/// writes each band's averages into the texture.
struct Averager {
    width: usize,
    k: usize,
    /// The band's sums, RGBA, a box each.
    sums: Vec<[u32; 4]>,
    rows: usize,
    out: Vec<Color32>,
}

impl Averager {
    fn new(w: u32, tw: usize, th: usize, k: usize) -> Averager {
        Averager {
            width: w as usize,
            k,
            sums: vec![[0; 4]; tw],
            rows: 0,
            out: Vec::with_capacity(tw * th),
        }
    }

    /// One source row, as 8-bit samples of `channels` (1 grey, 2 grey and
    /// alpha, 3 RGB, 4 RGBA).
    fn row(&mut self, data: &[u8], channels: usize) {
        for (x, px) in data.chunks_exact(channels).take(self.width).enumerate() {
            let rgba = match *px {
                [g] => [g, g, g, 255],
                [g, a] => [g, g, g, a],
                [r, g, b] => [r, g, b, 255],
                [r, g, b, a] => [r, g, b, a],
                _ => [0, 0, 0, 0],
            };
            let sum = &mut self.sums[x / self.k];
            for (s, v) in sum.iter_mut().zip(rgba) {
                *s += u32::from(v);
            }
        }
        self.rows += 1;
        if self.rows == self.k {
            self.flush();
        }
    }

    /// The band so far becomes a row of the texture.
    fn flush(&mut self) {
        if self.rows == 0 {
            return;
        }
        let (k, width, rows) = (self.k, self.width, self.rows as u32);
        for (i, sum) in self.sums.iter_mut().enumerate() {
            let columns = (width - i * k).min(k) as u32;
            let n = columns * rows;
            let [r, g, b, a] = sum.map(|s| (s / n) as u8);
            self.out.push(Color32::from_rgba_unmultiplied(r, g, b, a));
            *sum = [0; 4];
        }
        self.rows = 0;
    }

    fn finish(mut self, tw: usize, th: usize, size: [f64; 2]) -> Result<Pixels, String> {
        self.flush();
        if self.out.len() != tw * th {
            return Err("the image ends before its last row".into());
        }
        Ok(Pixels {
            image: egui::ColorImage::new([tw, th], self.out),
            size,
        })
    }
}

/// A PNG, streamed.
fn png(bytes: Vec<u8>, side: u32) -> Result<Pixels, String> {
    let file = bytes.len() as u64;
    let unreadable = |e: png::DecodingError| format!("not a map image Muster can read ({e})");
    let mut decoder = png::Decoder::new_with_limits(
        Cursor::new(bytes),
        png::Limits {
            bytes: (MAX_PEAK - file) as usize,
        },
    );
    // 16 bits a channel stripped to 8, a palette or low bit depth expanded.
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(unreadable)?;
    let (w, h) = (reader.info().width, reader.info().height);
    let (tw, th, k) = boxes(w, h, side)?;
    let channels = reader.output_color_type().0.samples();
    let mut averager = Averager::new(w, tw, th, k);
    let size = [f64::from(w), f64::from(h)];
    if reader.info().interlaced {
        // Seven passes: the rows come out of order, so the whole 8-bit
        // image is held first, if it fits.
        let whole = reader.output_buffer_size().ok_or("its size overflows")?;
        fits(
            file,
            whole as u64,
            (w, h),
            channels as u32 * 8,
            "save it without interlacing",
        )?;
        let mut buffer = vec![0; whole];
        let info = reader.next_frame(&mut buffer).map_err(unreadable)?;
        for row in buffer.chunks_exact(info.line_size).take(h as usize) {
            averager.row(row, channels);
        }
    } else {
        while let Some(row) = reader.next_row().map_err(unreadable)? {
            averager.row(row.data(), channels);
        }
    }
    averager.finish(tw, th, size)
}

/// Whether an image decoded whole at `decoded` bytes fits the bound with
/// the file and the texture; else why not, and `advice`.
fn fits(
    file: u64,
    decoded: u64,
    (w, h): (u32, u32),
    bits: u32,
    advice: &str,
) -> Result<(), String> {
    // The texture at its largest.
    let texture = u64::from(TEXTURE_SIDE).pow(2) * 4;
    // A decoder may hold as much again beside its output (a progressive
    // JPEG's coefficients): counted twice.
    let peak = file + 2 * decoded + texture;
    if peak > MAX_PEAK {
        return Err(format!(
            "{w} x {h} pixels at {bits} bits a pixel is {} MiB decoded; with the file and the texture Muster would hold {} MiB, and it reads map images within {} MiB: {advice}",
            decoded / MIB,
            peak / MIB,
            MAX_PEAK / MIB
        ));
    }
    Ok(())
}

/// A JPEG (or any other format the image crate reads), decoded whole at
/// 8 bits a channel.
fn whole(bytes: Vec<u8>, side: u32) -> Result<Pixels, String> {
    use image::ImageDecoder;
    let file = bytes.len() as u64;
    let unreadable = |e: image::ImageError| format!("not a map image Muster can read ({e})");
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_PEAK - file);
    reader.limits(limits);
    let decoder = reader.into_decoder().map_err(unreadable)?;
    let (w, h) = decoder.dimensions();
    let bits = decoder.color_type().bits_per_pixel() as u32;
    fits(
        file,
        decoder.total_bytes(),
        (w, h),
        bits,
        "save it smaller (a 4,000-pixel side is plenty)",
    )?;
    if decoder.color_type().bytes_per_pixel() != decoder.color_type().channel_count() {
        return Err(format!(
            "{bits} bits a pixel: Muster reads JPEG map images at 8 bits a channel"
        ));
    }
    let channels = usize::from(decoder.color_type().channel_count());
    let decoded = image::DynamicImage::from_decoder(decoder).map_err(unreadable)?;
    let (tw, th, k) = boxes(w, h, side)?;
    let mut averager = Averager::new(w, tw, th, k);
    for row in decoded.as_bytes().chunks_exact(w as usize * channels) {
        averager.row(row, channels);
    }
    averager.finish(tw, th, [f64::from(w), f64::from(h)])
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A `w` x `h` RGBA PNG of `depth`, written row by row (the map tests' scans too):
    /// the test never holds the image itself.
    pub(crate) fn png_file(path: &Path, w: u32, h: u32, depth: png::BitDepth) {
        let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        let mut encoder = png::Encoder::new(file, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(depth);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder
            .write_header()
            .unwrap()
            .into_stream_writer()
            .unwrap();
        let bytes = w as usize
            * if depth == png::BitDepth::Sixteen {
                8
            } else {
                4
            };
        let row: Vec<u8> = (0..bytes).map(|i| (i % 251) as u8).collect();
        for _ in 0..h {
            std::io::Write::write_all(&mut writer, &row).unwrap();
        }
        writer.finish().unwrap();
    }

    /// A baseline JPEG of `w` x `h`.
    fn jpeg_file(path: &Path, w: u32, h: u32) {
        let pixels: Vec<u8> = (0..w as usize * h as usize * 3)
            .map(|i| (i % 253) as u8)
            .collect();
        let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        image::codecs::jpeg::JpegEncoder::new_with_quality(file, 80)
            .encode(&pixels, w, h, image::ExtendedColorType::Rgb8)
            .unwrap();
    }

    /// Run by `a_map_images_whole_read_peaks_within_its_bound` in a
    /// process of its own: reads the image `MUSTER_PEAK_IMAGE` names and
    /// prints how much more memory the process held at its peak than
    /// before (Linux's VmHWM, reset first), and the texture's size.
    #[test]
    #[ignore = "run by a_map_images_whole_read_peaks_within_its_bound in a process of its own"]
    fn one_read_in_a_process_of_its_own() {
        let path = std::env::var("MUSTER_PEAK_IMAGE").expect("run by the peak test");
        let status = |field: &str| -> u64 {
            let text = std::fs::read_to_string("/proc/self/status").unwrap();
            let line = text.lines().find(|l| l.starts_with(field)).unwrap();
            let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
            kib * 1024
        };
        // The peak from now on.
        std::fs::write("/proc/self/clear_refs", "5").unwrap();
        let before = status("VmRSS:");
        let read = read(Path::new(&path), TEXTURE_SIDE).unwrap();
        let peak = status("VmHWM:");
        println!(
            "PEAK {} TEXTURE {}x{}",
            peak.saturating_sub(before),
            read.image.size[0],
            read.image.size[1]
        );
    }

    /// Issue 39: a 5,700 x 5,700 PNG at 16 bits a channel, just under the
    /// old decode cap, peaked at 562 MiB, twice it. Each image below is
    /// read in a process of its own and its whole peak measured: within
    /// `MAX_PEAK`, the 8,000-pixel scan included (it was refused), each
    /// averaged into a texture of at most 4,096 pixels a side.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_map_images_whole_read_peaks_within_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [
            ("png16-5700.png", 5700, 5700),
            ("png16-8000.png", 8000, 8000),
            ("png8-10000.png", 10_000, 2000),
            ("photo-5000.jpg", 5000, 5000),
        ];
        for (name, w, h) in cases {
            let path = dir.path().join(name);
            if name.ends_with(".jpg") {
                jpeg_file(&path, w, h);
            } else if name.starts_with("png16") {
                png_file(&path, w, h, png::BitDepth::Sixteen);
            } else {
                png_file(&path, w, h, png::BitDepth::Eight);
            }
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--ignored",
                    "--exact",
                    "app::image_read::tests::one_read_in_a_process_of_its_own",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env("MUSTER_PEAK_IMAGE", &path)
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            // The harness prints the test's name on the same line.
            let line = said
                .lines()
                .find_map(|l| l.find("PEAK ").map(|at| &l[at..]))
                .unwrap_or_else(|| {
                    panic!("{name}: {said}\n{}", String::from_utf8_lossy(&out.stderr))
                });
            let words: Vec<&str> = line.split_whitespace().collect();
            let peak: u64 = words[1].parse().unwrap();
            let texture: Vec<usize> = words[3].split('x').map(|n| n.parse().unwrap()).collect();
            println!("{name}: peak {} MiB, texture {texture:?}", peak / MIB);
            assert!(peak <= MAX_PEAK, "{name}: {} MiB", peak / MIB);
            assert!(
                texture.iter().all(|s| *s <= TEXTURE_SIDE as usize),
                "{texture:?}"
            );
        }
    }

    #[test]
    fn boxes_fit_the_texture_and_average_each_pixel_once() {
        assert_eq!(boxes(4096, 100, 4096).unwrap(), (4096, 100, 1));
        assert_eq!(boxes(4097, 100, 4096).unwrap(), (2049, 50, 2));
        assert_eq!(boxes(10_000, 3, 4096).unwrap(), (3334, 1, 3));
        assert_eq!(boxes(4096, 100, 2048).unwrap(), (2048, 50, 2));
        assert!(boxes(10_001, 1, 4096).is_err() && boxes(0, 5, 4096).is_err());
        // 5 x 3 in boxes of 2: edge boxes average what they hold.
        let mut a = Averager::new(5, 3, 2, 2);
        for y in 0..3u8 {
            let row: Vec<u8> = (0..5u8).map(|x| 10 * x + y).collect();
            a.row(&row, 1);
        }
        let p = a.finish(3, 2, [5.0, 3.0]).unwrap();
        let grey: Vec<u8> = p.image.pixels.iter().map(|c| c.r()).collect();
        // (0+10+1+11)/4, (20+30+21+31)/4, (40+41)/2; then row 2 alone.
        assert_eq!(grey, [5, 25, 40, 7, 27, 42]);
    }
}
