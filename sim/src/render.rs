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

use microcode::compile::render_program::{
    between_edges, column_edges, input_at, input_sources, pixel_uv, CoordFlags, RenderParams,
};
pub use microcode::compile::render_program::{
    color_output, default_corners, to_byte, Corners, Source,
};

/// Why a frame could not be rendered or written.
#[derive(Debug, Error)]
pub enum RenderError {
    #[error("the size {width}x{height} is not a whole number of 2x2 quads (use even sizes >= 2)")]
    Size { width: u32, height: u32 },
    #[error("render runs fragment shaders; this is a {0:?} program")]
    NotFragment(microcode::tgsi::Processor),
    #[error("the program writes no OUT register")]
    NoOutput,
    #[error("quad at ({x}, {y}): {message}")]
    Engine { x: u32, y: u32, message: String },
    #[error("cannot write {path}: {message}")]
    Write { path: String, message: String },
}

/// A rendered image plus what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub width: u32,
    pub height: u32,
    /// Row-major from the top, RGBA.
    pub pixels: Vec<[u8; 4]>,
    pub killed: usize,
    /// Sum of the engine's clocks over all quads, when it counts them.
    pub cycles: Option<u64>,
    pub quads: usize,
}

/// What a frame's quads read: the colour output, the coordinate flags and every input's source.
struct Setup {
    out_reg: u32,
    flags: CoordFlags,
    params: RenderParams,
    height: u32,
    sources: Vec<(u32, Source)>,
    /// Per source, an interpolated input's column edges (`column_edges`), one per column; empty
    /// for the other sources.
    edges: Vec<Vec<[[f32; 4]; 2]>>,
    /// The vertical weight of each row.
    rows: Vec<f32>,
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
    let edges = sources
        .iter()
        .map(|(_, source)| match source {
            Source::Interpolated(k) => (0..width).map(|x| column_edges(k, x, &params)).collect(),
            _ => Vec::new(),
        })
        .collect();
    let rows = (0..height).map(|y| pixel_uv(0, y, &params).1).collect();
    Ok(Setup {
        out_reg,
        flags: CoordFlags::of(program),
        params,
        height,
        sources,
        edges,
        rows,
    })
}

/// The pixel of `lane` in the quad whose top-left pixel is `(x0, y0)`.
fn pixel(x0: u32, y0: u32, lane: usize) -> (u32, u32) {
    (x0 + (lane as u32 & 1), y0 + (lane as u32 >> 1))
}

/// The per-lane inputs of the quad at `(x0, y0)` into `out` (cleared first).
fn quad_inputs(setup: &Setup, x0: u32, y0: u32, out: &mut QuadInputs) {
    let mut values = vec![[0u32; 4]; setup.sources.len() * LANES];
    quad_values(setup, x0, y0, &mut values);
    out.clear();
    for (s, (index, _)) in setup.sources.iter().enumerate() {
        out.insert(*index, std::array::from_fn(|l| values[s * LANES + l]));
    }
}

/// The per-lane inputs of the quad at `(x0, y0)` as a flat batch quad: `out[s * LANES + lane]`
/// is the input of `setup.sources[s]` (the registers of [`batch_registers`]).
fn quad_values(setup: &Setup, x0: u32, y0: u32, out: &mut [[u32; 4]]) {
    for (s, (_, source)) in setup.sources.iter().enumerate() {
        for lane in 0..LANES {
            let (x, y) = pixel(x0, y0, lane);
            let v = match source {
                // The same value as `input_at`, from the edges made once per column.
                Source::Interpolated(_) => {
                    between_edges(&setup.edges[s][x as usize], setup.rows[y as usize])
                }
                _ => input_at(source, x, y, &setup.params, setup.height, setup.flags),
            };
            out[s * LANES + lane] = v.map(f32::to_bits);
        }
    }
}

/// The input registers of a flat batch quad filled by [`quad_values`].
fn batch_registers(setup: &Setup) -> Vec<u32> {
    setup.sources.iter().map(|(index, _)| *index).collect()
}

impl Frame {
    fn empty(width: u32, height: u32) -> Frame {
        Frame {
            width,
            height,
            pixels: vec![[0; 4]; (width * height) as usize],
            killed: 0,
            cycles: None,
            quads: 0,
        }
    }

    /// Stores one quad's result.
    fn store(&mut self, out_reg: u32, x0: u32, y0: u32, out: &RunOutput) {
        self.put(x0, y0, &QuadPixels::of(out, out_reg));
    }

    /// Stores one quad's pixels.
    fn put(&mut self, x0: u32, y0: u32, q: &QuadPixels) {
        if let Some(c) = q.cycles {
            self.cycles = Some(self.cycles.unwrap_or(0) + c);
        }
        self.quads += 1;
        for lane in 0..LANES {
            let (x, y) = pixel(x0, y0, lane);
            let px = &mut self.pixels[(y * self.width + x) as usize];
            if q.killed[lane] {
                self.killed += 1;
                *px = [0; 4];
            } else {
                *px = q.rgba[lane];
            }
        }
    }
}

/// What the frame keeps of one quad's run.
struct QuadPixels {
    rgba: [[u8; 4]; LANES],
    killed: [bool; LANES],
    cycles: Option<u64>,
}

impl QuadPixels {
    fn of(out: &RunOutput, out_reg: u32) -> QuadPixels {
        QuadPixels {
            rgba: std::array::from_fn(|lane| {
                let v = out.lanes[lane]
                    .outputs
                    .get(&out_reg)
                    .copied()
                    .unwrap_or([0; 4]);
                v.map(to_byte)
            }),
            killed: std::array::from_fn(|lane| out.lanes[lane].killed),
            cycles: out.cycles,
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
    let mut frame = Frame::empty(width, height);
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
            frame.store(setup.out_reg, x0, y0, &out);
        }
        progress(qy as usize + 1, rows);
    }
    Ok(frame)
}

/// A batch engine: runs every quad of a flat batch with the constants and textures of the
/// `RunInputs` into the outputs (e.g. a model's `Prepared::run_flat`).
pub type BatchEngine<'a, E> = dyn Fn(&RunInputs, &BatchInputs, &mut BatchOutputs<E>) + Sync + 'a;

/// [`render`] on a batch engine, the frame's quads split over `threads` threads (at least one).
/// The frame is the same as `render`'s with the same engine run quad by quad; the first failing
/// quad in row order is the error.
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
    let per_row = (width / 2) as usize;
    let total = per_row * (height / 2) as usize;
    let position = |n: usize| ((n % per_row) as u32 * 2, (n / per_row) as u32 * 2);
    // Quads `range` in batches of `BATCH`: the inputs and outputs of one batch at a time, in
    // buffers reused from batch to batch, so that a large frame never holds every quad's run
    // output at once and no quad allocates.
    const BATCH: usize = 512;
    let shade = |range: std::ops::Range<usize>| -> Result<Vec<QuadPixels>, (usize, String)> {
        let mut out = Vec::with_capacity(range.len());
        let mut batch = BatchInputs::new(batch_registers(&setup));
        let mut results = BatchOutputs::new(vec![setup.out_reg]);
        let mut start = range.start;
        while start < range.end {
            let end = (start + BATCH).min(range.end);
            batch.clear();
            for n in start..end {
                let (x0, y0) = position(n);
                quad_values(&setup, x0, y0, batch.push_quad());
            }
            engine(inputs, &batch, &mut results);
            if let Some((k, e)) = results.errors().first() {
                return Err((start + k, e.to_string()));
            }
            let cycles = results.count_unit() == CountUnit::Cycles;
            for k in 0..end - start {
                let v = results.quad(k);
                out.push(QuadPixels {
                    rgba: std::array::from_fn(|l| v[l].map(to_byte)),
                    killed: results.killed(k),
                    cycles: cycles.then(|| results.count(k)),
                });
            }
            start = end;
        }
        Ok(out)
    };
    let threads = threads.clamp(1, total.max(1));
    let chunk = total.div_ceil(threads).max(1);
    let parts: Vec<Result<Vec<QuadPixels>, (usize, String)>> = if threads == 1 {
        vec![shade(0..total)]
    } else {
        std::thread::scope(|scope| {
            let shade = &shade;
            let handles: Vec<_> = (0..total)
                .step_by(chunk)
                .map(|first| scope.spawn(move || shade(first..(first + chunk).min(total))))
                .collect();
            handles
                .into_iter()
                .enumerate()
                .map(|(k, h)| {
                    h.join()
                        .unwrap_or_else(|_| Err((k * chunk, "the engine thread panicked".into())))
                })
                .collect()
        })
    };
    let mut frame = Frame::empty(width, height);
    let mut n = 0;
    for part in parts {
        let part = part.map_err(|(at, message)| {
            let (x, y) = position(at);
            RenderError::Engine { x, y, message }
        })?;
        for q in &part {
            let (x0, y0) = position(n);
            frame.put(x0, y0, q);
            n += 1;
        }
    }
    Ok(frame)
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

    /// Writes the frame as an 8-bit RGBA PNG, through a temporary file so that a failure leaves
    /// nothing half-written.
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
        let tmp = path.with_extension("png.partial");
        std::fs::write(&tmp, &bytes).map_err(|e| err(e.to_string()))?;
        std::fs::rename(&tmp, path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            err(e.to_string())
        })
    }
}
