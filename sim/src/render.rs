//! A fragment-shader rasteriser: runs a program over a grid of 2x2 quads with the inputs a
//! rasteriser gives, and turns the colour output into 8-bit RGBA pixels.
//!
//! Inputs, per declared `IN` register and its semantic, are defined once in
//! `microcode::compile::render_program` (the board computes the same ones itself under RENDER):
//! - `POSITION`: the pixel's window coordinates, `(x + c, y + c, 0, 1)` with `c = 0.5` for the
//!   default `FS_COORD_PIXEL_CENTER HALF_INTEGER` and `0` for `INTEGER`; `y` counts from the top
//!   for the default `FS_COORD_ORIGIN UPPER_LEFT` and from the bottom for `LOWER_LEFT`.
//! - `FACE`: `(1, 0, 0, 1)` (front facing).
//! - everything else (`COLOR`, `GENERIC`, ...): interpolated bilinearly across the screen between
//!   four corner values (top-left, top-right, bottom-left, bottom-right) at the pixel centre, with
//!   the core's f32 operations. An input without corners gets `(u, v, 0, 1)` with `u`, `v` running
//!   0..1 left to right and top to bottom, which makes texture coordinates of a plain `GENERIC[0]`.
//!
//! Lanes are the quad's pixels in screen order (0 top-left, 1 top-right, 2 bottom-left,
//! 3 bottom-right), so DDY's rows run downward the screen whatever the origin. The output is the
//! `OUT` register with semantic `COLOR[0]` (or `OUT[0]`), clamped to [0, 1] (NaN to 0) and rounded
//! to 8 bits; killed pixels are transparent (all zero).

use crate::run_io::batch::{BatchInputs, BatchOutputs, CountUnit};
use crate::run_io::{QuadInputs, RunInputs, RunOutput, LANES};
use microcode::tgsi::Program;
use std::collections::BTreeMap;
use std::path::Path;
use thiserror::Error;

pub use microcode::compile::render_program::{
    color_output, default_corners, to_byte, Corners, Source,
};
use microcode::compile::render_program::{
    column_edges, input_at, input_sources, pixel_uv, quad_between_edges, CoordFlags, RenderParams,
};

/// Why a frame could not be rendered or written.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The requested size is odd or zero: the frame is shaded in whole 2x2 quads.
    #[error("the size {width}x{height} is not a whole number of 2x2 quads (use even sizes >= 2)")]
    Size {
        /// The requested width in pixels.
        width: u32,
        /// The requested height in pixels.
        height: u32,
    },
    /// A vertex or geometry program was given: only fragment shaders produce pixels.
    #[error("render runs fragment shaders; this is a {0:?} program")]
    NotFragment(microcode::tgsi::Processor),
    /// The program declares no OUT register, so there is no colour to write.
    #[error("the program writes no OUT register")]
    NoOutput,
    /// The engine failed on one quad (a fault, a budget, a missing texture); the frame stops
    /// there.
    #[error("quad at ({x}, {y}): {message}")]
    Engine {
        /// The quad's left pixel column.
        x: u32,
        /// The quad's top pixel row.
        y: u32,
        /// The engine's error, rendered.
        message: String,
    },
    /// The PNG encoder refused the frame.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The PNG file.
        path: String,
        /// The encoder's message.
        message: String,
    },
    /// The file could not be written (a full disk, no permission, a closed pipe).
    #[error(transparent)]
    Output(#[from] microcode::output::WriteError),
}

/// A rendered image plus what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Width in pixels (even).
    pub width: u32,
    /// Height in pixels (even).
    pub height: u32,
    /// Row-major from the top, RGBA.
    pub pixels: Vec<[u8; 4]>,
    /// Pixels the shader killed (KIL, KILP); they are transparent in `pixels`.
    pub killed: usize,
    /// Sum of the engine's clocks over all quads, when it counts them.
    pub cycles: Option<u64>,
    /// Quads shaded: `width * height / 4`.
    pub quads: usize,
}

/// What a frame's quads read: the colour output and every input's source, prepared once per
/// frame so that a quad's inputs cost no more than the arithmetic that differs per pixel.
struct Setup {
    out_reg: u32,
    /// The frame's width in quads.
    quads_per_row: usize,
    sources: Vec<(u32, Source)>,
    /// Per source (in the order of `sources`), how its quads' values are made.
    fills: Vec<Fill>,
    /// Per row of quads, the vertical interpolation weights of its two pixel rows.
    weights: Vec<[f32; 2]>,
}

/// How a quad's four lanes of one input are made: the parts of the input that depend on the
/// column or the row only, made once per frame.
enum Fill {
    /// The same value in every pixel (FACE).
    Constant([u32; 4]),
    /// Per column of quads, POSITION of its top two pixels; per row of quads, the y component
    /// of its two pixel rows.
    Position {
        top: Vec<[[f32; 4]; 2]>,
        rows: Vec<[f32; 2]>,
    },
    /// Per column of quads, the `column_edges` of its two pixel columns.
    Interpolated(Vec<[[[f32; 4]; 2]; 2]>),
}

fn setup(
    program: &Program,
    width: u32,
    height: u32,
    corners: &BTreeMap<u32, Corners>,
) -> Result<Setup, RenderError> {
    if width < 2 || height < 2 || !width.is_multiple_of(2) || !height.is_multiple_of(2) {
        return Err(RenderError::Size { width, height });
    }
    if program.processor != microcode::tgsi::Processor::Fragment {
        return Err(RenderError::NotFragment(program.processor));
    }
    let out_reg = color_output(program).ok_or(RenderError::NoOutput)?;
    let sources = input_sources(program, &|index| corners.get(&index).copied());
    let params = RenderParams::new(width, height);
    let flags = CoordFlags::of(program);
    // Pixel (x, y)'s input, as the definition gives it.
    let at = |source: &Source, x, y| input_at(source, x, y, &params, height, flags);
    let quad_columns = 0..width / 2;
    let quad_rows = 0..height / 2;
    let fills = sources
        .iter()
        .map(|(_, source)| match source {
            Source::Face => Fill::Constant(at(source, 0, 0).map(f32::to_bits)),
            // POSITION's x and y components depend on the pixel's column and row only.
            Source::Position => Fill::Position {
                top: quad_columns
                    .clone()
                    .map(|qx| [0, 1].map(|i| at(source, 2 * qx + i, 0)))
                    .collect(),
                rows: quad_rows
                    .clone()
                    .map(|qy| [0, 1].map(|j| at(source, 0, 2 * qy + j)[1]))
                    .collect(),
            },
            Source::Interpolated(k) => Fill::Interpolated(
                quad_columns
                    .clone()
                    .map(|qx| [0, 1].map(|i| column_edges(k, 2 * qx + i, &params)))
                    .collect(),
            ),
        })
        .collect();
    let weights = quad_rows
        .map(|qy| [0, 1].map(|j| pixel_uv(0, 2 * qy + j, &params).1))
        .collect();
    Ok(Setup {
        out_reg,
        quads_per_row: (width / 2) as usize,
        sources,
        fills,
        weights,
    })
}

/// The per-lane inputs of the quad at `(x0, y0)` into `out` (cleared first).
fn quad_inputs(setup: &Setup, x0: u32, y0: u32, out: &mut QuadInputs) {
    let mut values = vec![[0u32; 4]; setup.sources.len() * LANES];
    quad_values(setup, (x0 / 2) as usize, (y0 / 2) as usize, &mut values);
    out.clear();
    for (s, (index, _)) in setup.sources.iter().enumerate() {
        out.insert(*index, std::array::from_fn(|l| values[s * LANES + l]));
    }
}

/// The per-lane inputs of the quad in column `qx` and row `qy` of quads as a flat batch quad:
/// `out[s * LANES + lane]` is the input of `setup.sources[s]` (the registers of
/// [`batch_registers`]); the same values as `input_at` of each lane's pixel.
fn quad_values(setup: &Setup, qx: usize, qy: usize, out: &mut [[u32; 4]]) {
    for (fill, out) in setup.fills.iter().zip(out.chunks_exact_mut(LANES)) {
        let lanes: [[f32; 4]; LANES] = match fill {
            Fill::Constant(v) => {
                out.fill(*v);
                continue;
            }
            Fill::Position { top, rows } => {
                let [left, right] = top[qx];
                let [y0, y1] = rows[qy];
                let with_y = |mut p: [f32; 4], y| {
                    p[1] = y;
                    p
                };
                [
                    with_y(left, y0),
                    with_y(right, y0),
                    with_y(left, y1),
                    with_y(right, y1),
                ]
            }
            Fill::Interpolated(columns) => quad_between_edges(&columns[qx], setup.weights[qy]),
        };
        for (o, v) in out.iter_mut().zip(lanes) {
            *o = v.map(f32::to_bits);
        }
    }
}
/// The input registers of a flat batch quad filled by [`quad_values`].
fn batch_registers(setup: &Setup) -> Vec<u32> {
    setup.sources.iter().map(|(index, _)| *index).collect()
}

/// A band of a frame's pixel rows being shaded (whole rows of quads, two pixel rows each) and
/// the totals of its quads so far.
struct Band<'a> {
    /// Row-major, `width` pixels a row.
    pixels: &'a mut [[u8; 4]],
    width: usize,
    killed: usize,
    /// The sum of the quads' clock cycles, if the engine counts them.
    cycles: Option<u64>,
}

impl<'a> Band<'a> {
    fn new(pixels: &'a mut [[u8; 4]], width: usize) -> Band<'a> {
        Band {
            pixels,
            width,
            killed: 0,
            cycles: None,
        }
    }

    /// Number of quads in the band.
    fn quads(&self) -> usize {
        self.pixels.len() / LANES
    }

    /// Stores the quad in column `qx` of the band's row of quads `qy`: per lane its colour
    /// output `colour(lane)` as bytes, or transparent (all zero) where `killed`.
    fn put(
        &mut self,
        qx: usize,
        qy: usize,
        colour: impl Fn(usize) -> [u32; 4],
        killed: [bool; LANES],
        cycles: Option<u64>,
    ) {
        let rgba: [[u8; 4]; LANES] = std::array::from_fn(|lane| {
            if killed[lane] {
                [0; 4]
            } else {
                colour(lane).map(to_byte)
            }
        });
        // Lanes 0, 1 are the upper pixel row, lanes 2, 3 the lower one.
        let at = 2 * (qy * self.width + qx);
        self.pixels[at..at + 2].copy_from_slice(&rgba[..2]);
        let below = at + self.width;
        self.pixels[below..below + 2].copy_from_slice(&rgba[2..]);
        self.killed += killed.iter().map(|&k| usize::from(k)).sum::<usize>();
        self.cycles = sum_cycles(self.cycles, cycles);
    }
}

/// Two clock counts added, either one possibly absent (an engine that does not count clocks).
fn sum_cycles(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        _ => a.or(b),
    }
}

impl Frame {
    /// The frame whose pixels are `pixels`, shaded in `bands`.
    fn of(width: u32, height: u32, pixels: Vec<[u8; 4]>, bands: &[(usize, Option<u64>)]) -> Frame {
        Frame {
            width,
            height,
            quads: pixels.len() / LANES,
            pixels,
            killed: bands.iter().map(|b| b.0).sum(),
            cycles: bands.iter().fold(None, |c, b| sum_cycles(c, b.1)),
        }
    }
}

/// Renders `program` at `width` x `height`. `inputs` carries constants and textures (its `inputs`
/// map is overwritten per quad); `corners` gives interpolated inputs by IN index; `engine` runs one
/// quad; `progress(done, total)` is called after each row of quads.
pub fn render(
    program: &Program,
    width: u32,
    height: u32,
    corners: &BTreeMap<u32, Corners>,
    inputs: &mut RunInputs,
    engine: &mut dyn FnMut(&RunInputs) -> Result<RunOutput, String>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Frame, RenderError> {
    let setup = setup(program, width, height, corners)?;
    let mut pixels = vec![[0; 4]; (width * height) as usize];
    let mut band = Band::new(&mut pixels, width as usize);
    let rows = (height / 2) as usize;
    for qy in 0..height / 2 {
        for qx in 0..width / 2 {
            let (x0, y0) = (qx * 2, qy * 2);
            quad_inputs(&setup, x0, y0, &mut inputs.inputs);
            let out = engine(inputs).map_err(|message| RenderError::Engine {
                x: x0,
                y: y0,
                message,
            })?;
            let colour = |lane: usize| {
                let outputs = &out.lanes[lane].outputs;
                outputs.get(&setup.out_reg).copied().unwrap_or([0; 4])
            };
            let killed = out.lanes.each_ref().map(|l| l.killed);
            band.put(qx as usize, qy as usize, colour, killed, out.cycles);
        }
        progress(qy as usize + 1, rows);
    }
    let totals = (band.killed, band.cycles);
    Ok(Frame::of(width, height, pixels, &[totals]))
}

/// A batch engine: runs every quad of a flat batch with the constants and textures of the
/// `RunInputs` into the outputs (e.g. a model's `Prepared::run_flat`).
pub type BatchEngine<'a, E> = dyn Fn(&RunInputs, &BatchInputs, &mut BatchOutputs<E>) + Sync + 'a;

/// [`render`] on a batch engine, the frame's rows of quads split over `threads` threads (at
/// least one). The frame is the same as `render`'s with the same engine run quad by quad; the
/// first failing quad in row order is the error.
pub fn render_batch<E: std::fmt::Display>(
    program: &Program,
    width: u32,
    height: u32,
    corners: &BTreeMap<u32, Corners>,
    inputs: &RunInputs,
    engine: &BatchEngine<E>,
    threads: usize,
) -> Result<Frame, RenderError> {
    let setup = setup(program, width, height, corners)?;
    let per_row = setup.quads_per_row;
    // Quads in batches of `BATCH`: the inputs and outputs of one batch at a time, in buffers
    // reused from batch to batch, so that a large frame never holds every quad's run output at
    // once and no quad allocates.
    const BATCH: usize = 512;
    // Shades `band`, whose first row of quads is the frame's `first_row`; an error is the number
    // of its first failing quad in the frame.
    let shade = |first_row: usize, band: &mut Band| -> Result<(), (usize, String)> {
        let mut batch = BatchInputs::new(batch_registers(&setup));
        let stride = batch.registers().len() * LANES;
        let mut results = BatchOutputs::new(vec![setup.out_reg]);
        let first = first_row * per_row;
        // The next quad's column and row of quads in the band, to fill and then to store.
        let (mut qx, mut qy) = (0, 0);
        let mut start = 0;
        while start < band.quads() {
            let n = BATCH.min(band.quads() - start);
            // `quad_values` writes every value of a quad.
            let values = batch.refill(n);
            let (mut fx, mut fy) = (qx, qy);
            for quad in 0..n {
                let qy = first_row + fy;
                quad_values(
                    &setup,
                    fx,
                    qy,
                    &mut values[quad * stride..(quad + 1) * stride],
                );
                fx += 1;
                if fx == per_row {
                    (fx, fy) = (0, fy + 1);
                }
            }
            engine(inputs, &batch, &mut results);
            if let Some((k, e)) = results.errors().first() {
                return Err((first + start + k, e.to_string()));
            }
            let cycles = results.count_unit() == CountUnit::Cycles;
            for k in 0..n {
                let v = results.quad(k);
                let count = cycles.then(|| results.count(k));
                band.put(qx, qy, |lane| v[lane], results.killed(k), count);
                qx += 1;
                if qx == per_row {
                    (qx, qy) = (0, qy + 1);
                }
            }
            start += n;
        }
        Ok(())
    };
    let width = width as usize;
    let mut pixels = vec![[0; 4]; width * height as usize];
    let quad_rows = (height / 2) as usize;
    let band_rows = quad_rows.div_ceil(threads.clamp(1, quad_rows));
    let mut bands: Vec<Band> = pixels
        .chunks_mut(band_rows * 2 * width)
        .map(|p| Band::new(p, width))
        .collect();
    let results: Vec<Result<(), (usize, String)>> = if bands.len() == 1 {
        vec![shade(0, &mut bands[0])]
    } else {
        std::thread::scope(|scope| {
            let shade = &shade;
            let handles: Vec<_> = bands
                .iter_mut()
                .enumerate()
                .map(|(k, band)| scope.spawn(move || shade(k * band_rows, band)))
                .collect();
            handles
                .into_iter()
                .enumerate()
                .map(|(k, h)| {
                    h.join().unwrap_or_else(|_| {
                        Err((k * band_rows * per_row, "the engine thread panicked".into()))
                    })
                })
                .collect()
        })
    };
    for result in results {
        result.map_err(|(at, message)| RenderError::Engine {
            x: (at % per_row) as u32 * 2,
            y: (at / per_row) as u32 * 2,
            message,
        })?;
    }
    let totals: Vec<_> = bands.iter().map(|b| (b.killed, b.cycles)).collect();
    drop(bands);
    Ok(Frame::of(width as u32, height, pixels, &totals))
}

impl Frame {
    /// Number of pixels that differ from `other`'s, and an image of the differences (absolute
    /// difference per channel, scaled by 8 so that small errors show; opaque).
    pub fn diff(&self, other: &Frame) -> (usize, Frame) {
        let mut count = 0;
        let pixels = self
            .pixels
            .iter()
            .zip(&other.pixels)
            .map(|(a, b)| {
                if a != b {
                    count += 1;
                }
                let mut d: [u8; 4] = std::array::from_fn(|c| a[c].abs_diff(b[c]).saturating_mul(8));
                d[3] = 255;
                d
            })
            .collect();
        let img = Frame {
            pixels,
            killed: 0,
            cycles: None,
            ..self.clone()
        };
        (count, img)
    }

    /// Writes the frame as an 8-bit RGBA PNG with [`microcode::output::write_atomically`]: a
    /// failure leaves nothing half-written, a link or a device is written through, never replaced.
    pub fn write_png(&self, path: &Path) -> Result<(), RenderError> {
        let err = |message: String| RenderError::Write {
            path: path.display().to_string(),
            message,
        };
        let mut bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut bytes, self.width, self.height);
            enc.set_color(png::ColorType::Rgba);
            enc.set_depth(png::BitDepth::Eight);
            let mut w = enc.write_header().map_err(|e| err(e.to_string()))?;
            let data: Vec<u8> = self.pixels.iter().flatten().copied().collect();
            w.write_image_data(&data).map_err(|e| err(e.to_string()))?;
        }
        Ok(microcode::output::write_atomically(path, &bytes)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use microcode::tgsi::text;

    fn parse(src: &str) -> Program {
        text::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src, "test")))
    }

    /// Corners with subnormals, infinities, a NaN, huge and tiny values, so that some pixels take
    /// the core arithmetic's slow path.
    const ODD: Corners = [
        [0.1, -3.7, 1.0e-3, 7.0],
        [2.3, 1.0e8, -0.0, 1.0 / 3.0],
        [-5.5, 1.0e-39, f32::INFINITY, f32::MAX],
        [1.0e-30, f32::NAN, 3.0, -f32::MAX],
    ];

    /// Every lane of every quad gets the input `input_at` defines for its pixel, whatever the
    /// source, the coordinate conventions and the size.
    #[test]
    fn quad_values_are_the_inputs_of_each_pixel() {
        let props = [
            "",
            "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n",
            "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n",
        ];
        for (w, h) in [(2, 2), (6, 10), (22, 4)] {
            for prop in props {
                let program = parse(&format!(
                    "FRAG\n{prop}DCL IN[0], POSITION\nDCL IN[1], FACE\n\
                     DCL IN[2], GENERIC[0], PERSPECTIVE\nDCL IN[3], COLOR[0], LINEAR\n\
                     DCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n"
                ));
                let corners = BTreeMap::from([(3, ODD)]);
                let setup = setup(&program, w, h, &corners).expect("setup");
                let params = RenderParams::new(w, h);
                let flags = CoordFlags::of(&program);
                let mut values = vec![[0; 4]; setup.sources.len() * LANES];
                for (qx, qy) in (0..w / 2).flat_map(|qx| (0..h / 2).map(move |qy| (qx, qy))) {
                    quad_values(&setup, qx as usize, qy as usize, &mut values);
                    for (s, (index, source)) in setup.sources.iter().enumerate() {
                        for lane in 0..LANES {
                            let (x, y) = (2 * qx + lane as u32 % 2, 2 * qy + lane as u32 / 2);
                            let want = input_at(source, x, y, &params, h, flags);
                            assert_eq!(
                                values[s * LANES + lane],
                                want.map(f32::to_bits),
                                "{w}x{h} {prop:?} IN[{index}] pixel ({x}, {y})"
                            );
                        }
                    }
                }
            }
        }
    }

    /// A program that kills the three left columns and writes an interpolated colour: the batch
    /// renderer, on any number of threads, and the quad-by-quad one give each pixel the bytes of
    /// its input (transparent where killed), the same kill count and the same frame.
    #[test]
    fn frames_hold_each_pixels_bytes_on_every_path() {
        let program = parse(
            "FRAG\nDCL IN[0], POSITION\nDCL IN[1], COLOR[0], LINEAR\nDCL OUT[0], COLOR\n\
             DCL TEMP[0]\nIMM FLT32 { 3.0, 0.0, 0.0, 0.0 }\n\
             ADD TEMP[0], IN[0].xxxx, -IMM[0].xxxx\nKIL TEMP[0]\nMOV OUT[0], IN[1]\nEND\n",
        );
        let corners = BTreeMap::from([(
            1,
            [
                [0.0, 1.0, 0.25, 1.0],
                [1.0, 0.0, 0.75, 0.5],
                [0.5, -1.0, 2.0, 0.0],
                [f32::NAN, 0.5, 1.0e-40, 1.0],
            ],
        )]);
        let (w, h) = (10, 6);
        let params = RenderParams::new(w, h);
        let source = Source::Interpolated(corners[&1]);
        let flags = CoordFlags::default();
        let want: Vec<[u8; 4]> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                if x < 3 {
                    [0; 4]
                } else {
                    input_at(&source, x, y, &params, h, flags).map(|c| {
                        if c.is_nan() {
                            0
                        } else {
                            (c.clamp(0.0, 1.0) * 255.0).round() as u8
                        }
                    })
                }
            })
            .collect();
        let prepared = crate::reference::Prepared::new(&program).expect("prepares");
        let batch = |base: &RunInputs, quads: &BatchInputs, out: &mut BatchOutputs<_>| {
            prepared.run_flat(base, quads, out)
        };
        let base = RunInputs::default();
        for threads in [1, 2, 3, 15] {
            let frame =
                render_batch(&program, w, h, &corners, &base, &batch, threads).expect("renders");
            assert_eq!(frame.pixels, want, "{threads} threads");
            assert_eq!((frame.killed, frame.quads), (3 * h as usize, 15));
        }
        let mut inputs = RunInputs::default();
        let mut engine = |i: &RunInputs| prepared.run(i).map_err(|e| e.to_string());
        let mut rows = 0;
        let single = render(
            &program,
            w,
            h,
            &corners,
            &mut inputs,
            &mut engine,
            &mut |done, _| rows = done,
        )
        .expect("renders");
        assert_eq!(single.pixels, want);
        assert_eq!((single.killed, single.quads, rows), (3 * h as usize, 15, 3));
    }

    /// A program without inputs renders (its batch quads carry no values, yet count).
    #[test]
    fn a_program_without_inputs_renders() {
        let program = parse(
            "FRAG\nDCL OUT[0], COLOR\nIMM FLT32 { 0.5, 0.25, 1.0, 1.0 }\n\
             MOV OUT[0], IMM[0]\nEND\n",
        );
        let prepared = crate::reference::Prepared::new(&program).expect("prepares");
        let batch = |base: &RunInputs, quads: &BatchInputs, out: &mut BatchOutputs<_>| {
            prepared.run_flat(base, quads, out)
        };
        let frame = render_batch(
            &program,
            4,
            2,
            &BTreeMap::new(),
            &RunInputs::default(),
            &batch,
            1,
        )
        .expect("renders");
        // 0.5 * 255 = 127.5 rounds up, 0.25 * 255 = 63.75 to 64.
        assert_eq!(frame.pixels, vec![[128, 64, 255, 255]; 8]);
        assert_eq!(frame.quads, 2);
    }
}
