//! The rasteriser's inputs and colour conversion, defined once, and the program transform that
//! makes the board compute them itself under RENDER (firmware-loader/PROTOCOL.md section 3.2).
//!
//! The host rasteriser (`sim::render`) calls [`input_at`], and per quad the parts of
//! [`interpolate`] that differ per pixel ([`column_edges`] once per column, then
//! [`quad_between_edges`]), and [`to_byte`]; [`render_program`] turns a fragment program into one whose prologue computes the very same
//! values on the core from RENDER's coordinate input, with the core's own f32 operations in the
//! same order (each of the arithmetic helpers here is one core ADD or MUL: [`crate::arith`]), and
//! whose epilogue packs the colour into one RGBA8 word exactly as [`to_byte`] converts it.
//!
//! Definition ("Rasteriser inputs" in ARCHITECTURE.md), pixel `(x, y)` counted from the top
//! left of a `w` x `h` image:
//! - `POSITION`: `(x + c, y' + c, 0, 1)`, `c` 0.5 (HALF_INTEGER) or 0 (INTEGER), `y'` = `y` for
//!   UPPER_LEFT or `(h - 1) - y` for LOWER_LEFT (all exact in f32);
//! - `FACE`: `(1, 0, 0, 1)`;
//! - interpolated: `u = (x + 0.5) * (1 / w)`, `v = (y + 0.5) * (1 / h)` (the reciprocals rounded
//!   once, on the host: [`RenderParams`]), then per component `top = TL + (TR - TL) * u`,
//!   `bottom = BL + (BR - BL) * u`, value `= top + (bottom - top) * v`, every operation one core
//!   f32 rounding (subnormals flushed, NaN canonical: `decisions.md` section 2).

use crate::arith::fadd::{fadd, fsub};
use crate::arith::fdiv::fdiv;
use crate::arith::fmul::fmul;
use crate::protocol::RENDER_COORD_FLOAT;
use crate::tgsi::opcode::{Kind, OutputMode};
use crate::tgsi::{
    text, Declaration, File, ImmType, Immediate, Loc, Opcode, Program, PropertyName, Semantic,
    SemanticName,
};
use thiserror::Error;

/// The corners of an interpolated input: top-left, top-right, bottom-left, bottom-right.
pub type Corners = [[f32; 4]; 4];

/// Corners of an input without given values: `(u, v, 0, 1)` across the screen.
pub fn default_corners() -> Corners {
    [
        [0.0, 0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
    ]
}

/// What the rasteriser feeds one input register.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// `POSITION`: window coordinates.
    Position,
    /// `FACE`: front facing.
    Face,
    /// Everything else: interpolated between four corner values.
    Interpolated(Corners),
}

/// The coordinate conventions of a fragment program (its FS_COORD_* properties).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoordFlags {
    /// FS_COORD_ORIGIN LOWER_LEFT: `y` counts from the bottom.
    pub lower_left: bool,
    /// FS_COORD_PIXEL_CENTER INTEGER: no half-pixel offset.
    pub integer_center: bool,
}

impl CoordFlags {
    /// The flags `program` declares.
    pub fn of(program: &Program) -> CoordFlags {
        let prop = |name| program.property(name).and_then(|v| v.first().copied());
        CoordFlags {
            lower_left: prop(PropertyName::FsCoordOrigin) == Some(1),
            integer_center: prop(PropertyName::FsCoordPixelCenter) == Some(1),
        }
    }
}

/// Half a pixel: the offset of a pixel centre.
const HALF: f32 = 0.5;

/// The per-image values the interpolation reads: the reciprocals of the size, rounded once, and
/// the bottom row's index (for LOWER_LEFT). The board reads them from a CONST slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderParams {
    /// `1 / width`, rounded once with the core's division, so that every engine maps pixel
    /// columns onto the same coordinates.
    pub inv_width: f32,
    /// `1 / height`, rounded the same way.
    pub inv_height: f32,
    /// `height - 1`: the row a LOWER_LEFT origin counts from.
    pub last_row: f32,
}

impl RenderParams {
    /// The parameters of a `width` x `height` image.
    pub fn new(width: u32, height: u32) -> RenderParams {
        let inv = |n: u32| f32::from_bits(fdiv(1.0f32.to_bits(), (n as f32).to_bits()));
        RenderParams {
            inv_width: inv(width),
            inv_height: inv(height),
            last_row: height.saturating_sub(1) as f32,
        }
    }

    /// The CONST slot holding them: `(1/w, 1/h, h - 1, 0)`.
    fn slot(&self) -> [u32; 4] {
        [self.inv_width, self.inv_height, self.last_row, 0.0].map(f32::to_bits)
    }
}

/// True when the core's arithmetic treats `v` as IEEE binary32 does: a normal number or a zero
/// (subnormals are flushed and NaNs made canonical, infinities take the slow path too).
#[inline]
// `&` and `|` rather than `contains`, whose `&&` may branch.
#[allow(clippy::manual_range_contains)]
fn plain(v: f32) -> bool {
    // Float comparisons, which a NaN fails, combined without a branch, so that a rasteriser can
    // test many values at once.
    let m = v.abs();
    ((m >= f32::MIN_POSITIVE) & (m <= f32::MAX)) | (m == 0.0)
}

/// True when every value of `values` is [`plain`], tested together.
#[inline]
fn all_plain<const N: usize>(values: &[[f32; 4]; N]) -> bool {
    values.iter().flatten().fold(true, |all, &x| all & plain(x))
}

/// `op` on the host's floating point when its operands and result are [`plain`] (the core's
/// units round to nearest even like IEEE there, and the rasteriser computes its inputs per
/// pixel: the bit-level models cost far more), else `core` (the core's own arithmetic).
#[inline]
fn core_op(a: f32, b: f32, op: fn(f32, f32) -> f32, core: fn(u32, u32) -> u32) -> f32 {
    if plain(a) && plain(b) {
        let r = op(a, b);
        if plain(r) {
            return r;
        }
    }
    f32::from_bits(core(a.to_bits(), b.to_bits()))
}
#[inline]
fn add(a: f32, b: f32) -> f32 {
    core_op(a, b, |a, b| a + b, fadd)
}
fn sub(a: f32, b: f32) -> f32 {
    core_op(a, b, |a, b| a - b, fsub)
}
#[inline]
fn mul(a: f32, b: f32) -> f32 {
    core_op(a, b, |a, b| a * b, fmul)
}

/// `a + (b - a) * t`, three core roundings (the prologue's ADD, MUL, ADD).
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    add(a, mul(sub(b, a), t))
}

/// The interpolation weights of pixel `(x, y)`: `((x + 0.5) / w, (y + 0.5) / h)` as the core
/// computes them (an exact ADD, one MUL by the rounded reciprocal).
pub fn pixel_uv(x: u32, y: u32, p: &RenderParams) -> (f32, f32) {
    (
        mul(add(x as f32, HALF), p.inv_width),
        mul(add(y as f32, HALF), p.inv_height),
    )
}

/// An interpolated input at pixel `(x, y)`: [`between_edges`] of column `x`'s [`column_edges`].
pub fn interpolate(k: &Corners, x: u32, y: u32, p: &RenderParams) -> [f32; 4] {
    let (_, v) = pixel_uv(x, y, p);
    between_edges(&column_edges(k, x, p), v)
}

/// Column `x`'s value at the top edge and the difference bottom - top (the first rounding of
/// the vertical `lerp`): they depend on the column only, so a rasteriser makes them once per
/// column.
pub fn column_edges(k: &Corners, x: u32, p: &RenderParams) -> [[f32; 4]; 2] {
    let (u, _) = pixel_uv(x, 0, p);
    let top: [f32; 4] = std::array::from_fn(|c| lerp(k[0][c], k[1][c], u));
    let bottom: [f32; 4] = std::array::from_fn(|c| lerp(k[2][c], k[3][c], u));
    [top, std::array::from_fn(|c| sub(bottom[c], top[c]))]
}

/// The value `v` of the way down a column from [`column_edges`]: `top + (bottom - top) * v`,
/// `lerp`'s roundings.
///
/// The rasteriser calls it for every pixel of every interpolated input, so it computes all four
/// components on the host's floating point first and keeps them when every operand and result
/// a normal number or a zero (the case in which the core's ADD and MUL round as IEEE does, so
/// the host's result is the core's): one test of the whole vector in place of eight.
#[inline]
pub fn between_edges(edges: &[[f32; 4]; 2], v: f32) -> [f32; 4] {
    let [top, step] = *edges;
    let product = step.map(|s| s * v);
    let sum: [f32; 4] = std::array::from_fn(|c| top[c] + product[c]);
    if plain(v) & all_plain(&[top, step, product, sum]) {
        return sum;
    }
    between_edges_per_component(&top, &step, v)
}

/// The [`between_edges`] of a 2x2 quad's pixels in screen order (top-left, top-right,
/// bottom-left, bottom-right): `columns` are its left and right columns' edges, `v` its upper
/// and lower rows' weights. The rasteriser's per-quad step: one test of everything the four
/// pixels compute (normal numbers or zeros), so the same values as four calls of `between_edges` for less.
#[inline]
pub fn quad_between_edges(columns: &[[[f32; 4]; 2]; 2], v: [f32; 2]) -> [[f32; 4]; 4] {
    let [[left_top, left_step], [right_top, right_step]] = *columns;
    let pixel = |top: [f32; 4], step: [f32; 4], v: f32| {
        let product = step.map(|s| s * v);
        (product, std::array::from_fn(|c| top[c] + product[c]))
    };
    let (p0, s0) = pixel(left_top, left_step, v[0]);
    let (p1, s1) = pixel(right_top, right_step, v[0]);
    let (p2, s2) = pixel(left_top, left_step, v[1]);
    let (p3, s3) = pixel(right_top, right_step, v[1]);
    let inputs = [
        left_top,
        left_step,
        right_top,
        right_step,
        [v[0], v[1], 0.0, 0.0],
    ];
    if all_plain(&inputs) & all_plain(&[p0, p1, p2, p3, s0, s1, s2, s3]) {
        return [s0, s1, s2, s3];
    }
    [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(x, y)| between_edges(&columns[x], v[y]))
}

/// [`between_edges`] one component at a time, for vectors with an operand or result that is
/// not [`plain`]: out of line, so that the shortcut stays small enough to inline.
#[cold]
#[inline(never)]
fn between_edges_per_component(top: &[f32; 4], step: &[f32; 4], v: f32) -> [f32; 4] {
    std::array::from_fn(|c| add(top[c], mul(step[c], v)))
}

/// The POSITION input at pixel `(x, y)` of an image `height` rows high.
#[inline]
pub fn position_input(x: u32, y: u32, height: u32, flags: CoordFlags) -> [f32; 4] {
    let c = if flags.integer_center { 0.0 } else { HALF };
    let wy = if flags.lower_left {
        height.saturating_sub(1) - y
    } else {
        y
    };
    [x as f32 + c, wy as f32 + c, 0.0, 1.0]
}

/// The FACE input: front facing.
pub const FACE_INPUT: [f32; 4] = [1.0, 0.0, 0.0, 1.0];

/// The input `source` gives pixel `(x, y)` of a `width` x `height` image.
pub fn input_at(
    source: &Source,
    x: u32,
    y: u32,
    params: &RenderParams,
    height: u32,
    flags: CoordFlags,
) -> [f32; 4] {
    match source {
        Source::Position => position_input(x, y, height, flags),
        Source::Face => FACE_INPUT,
        Source::Interpolated(k) => interpolate(k, x, y, params),
    }
}

/// The largest byte value of a colour channel.
const BYTE_MAX: f32 = 255.0;

/// One colour channel as a byte: NaN to 0, clamped to [0, 1], times 255, rounded half away from
/// zero.
///
/// The rasteriser converts every channel of every pixel, so this is written to cost a few
/// instructions without a branch or a library call; it equals `f32::round` of the clamped,
/// scaled value for every one of the 2^32 inputs (an ignored test checks them all).
#[inline]
// `max` and `min`, not `clamp`: they take NaN to 0 with no test of their own.
#[allow(clippy::manual_clamp)]
pub fn to_byte(bits: u32) -> u8 {
    // `max` and `min` return the operand that is not NaN, so NaN clamps to 0. The scaled value
    // `x` lies in [0, 255] with 24 significant bits, so `x + 0.5` is exact in f64 whenever
    // x >= 2^-22, and truncating it rounds half away from zero; a smaller `x` gives a sum in
    // [0.5, 1), which truncates to 0 as it should.
    let x = f32::from_bits(bits).max(0.0).min(1.0) * BYTE_MAX;
    (f64::from(x) + 0.5) as u8
}

/// Why a program cannot be rendered on the board by RENDER (the host then runs it quad by quad).
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RenderProgramError {
    /// A vertex or geometry program: RENDER shades pixels only.
    #[error("the program is not a fragment program")]
    NotFragment,
    /// Nothing would reach the frame: the program declares no OUT register to take the colour
    /// from.
    #[error("the program writes no OUT register")]
    NoOutput,
    /// The instruction at this index reads or writes IN or OUT through an address register or
    /// a second bracket, which the generated loop cannot rename to its own registers.
    #[error("instruction {0} addresses IN or OUT indirectly or two-dimensionally")]
    IndirectInOut(usize),
    /// A RET at this index outside any subroutine would end the whole pixel loop, not the
    /// pixel.
    #[error("instruction {0} returns from the main program (RET before END)")]
    ReturnFromMain(usize),
    /// The program never ends, so there is no place to continue with the next quad.
    #[error("the program has no END")]
    NoEnd,
    /// The loop text this module writes failed to parse: a bug in the generator, to report.
    #[error("internal: the generated {what} does not parse: {message}")]
    Internal {
        /// Which generated part: `prologue` or `epilogue`.
        what: &'static str,
        /// The parser's message.
        message: String,
    },
}

/// What the transformed program leaves in `OUT[0]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourOut {
    /// The colour as RGBA8 packed into `x` (RENDER lane words 1): [`to_byte`] per channel, R in
    /// bits 0-7, G 8-15, B 16-23, A 24-31.
    Rgba8,
    /// The colour output's float vector as the program wrote it (RENDER lane words 4).
    Float,
}

/// A program for RENDER and the constants it needs.
#[derive(Clone, Debug)]
pub struct RenderProgram {
    /// The transformed program: reads the coordinate input `IN[0]`, writes the packed colour to
    /// `OUT[0].x` (R in bits 0-7, G 8-15, B 16-23, A 24-31).
    pub program: Program,
    /// CONST slots (buffer 0) to bind, with their values: the image size and the corners.
    pub constants: Vec<(u32, [u32; 4])>,
}

/// The input sources of `program`'s declared inputs, in declaration order, by IN index;
/// `corners(index)` gives an interpolated input's corners (None: [`default_corners`]).
pub fn input_sources(
    program: &Program,
    corners: &dyn Fn(u32) -> Option<Corners>,
) -> Vec<(u32, Source)> {
    let mut sources = Vec::new();
    for d in program
        .declarations
        .iter()
        .filter(|d| d.file == File::Input)
    {
        for index in d.first..=d.last {
            let index = index as u32;
            let source = match d.semantic.map(|s| s.name) {
                Some(SemanticName::Position) => Source::Position,
                Some(SemanticName::Face) => Source::Face,
                _ => Source::Interpolated(corners(index).unwrap_or_else(default_corners)),
            };
            sources.push((index, source));
        }
    }
    sources
}

/// The OUT register holding the colour: `COLOR[0]` if declared, else the lowest OUT index.
pub fn color_output(program: &Program) -> Option<u32> {
    let outs: Vec<_> = program
        .declarations
        .iter()
        .filter(|d| d.file == File::Output)
        .collect();
    outs.iter()
        .find(|d| {
            d.semantic
                .is_some_and(|s| s.name == SemanticName::Color && s.index == 0)
        })
        .or_else(|| outs.iter().min_by_key(|d| d.first))
        .map(|d| d.first as u32)
}

fn next_index(program: &Program, file: File) -> i32 {
    program
        .declarations
        .iter()
        .filter(|d| d.file == file)
        .map(|d| d.last + 1)
        .max()
        .unwrap_or(0)
}

fn decl(file: File, first: i32, last: i32, semantic: Option<Semantic>) -> Declaration {
    Declaration {
        file,
        dimension: None,
        first,
        last,
        usage_mask: 0xF,
        semantic,
        interpolate: None,
        array_data: Vec::new(),
        loc: Loc::None,
    }
}

/// Instructions from generated text (no END), as the parser reads them.
fn parse_instructions(
    body: &str,
    what: &'static str,
) -> Result<Vec<crate::tgsi::Instruction>, RenderProgramError> {
    let src = format!("FRAG\n{body}END\n");
    let mut p = text::parse(&src).map_err(|e| RenderProgramError::Internal {
        what,
        message: e.render(&src, what),
    })?;
    p.instructions.pop();
    Ok(p.instructions)
}

/// Which of the TEMPs `regs` the program may read before it has written all four of their
/// components, i.e. which must start at zero: a scan of the program's straight-line start,
/// conservative beyond it. The scan ends at the first instruction that is not arithmetic or a
/// texture lookup (control flow, a kill, which stops lanes a later derivative reads, the end),
/// at a conditional instruction or a matrix read (several registers), and at any indirect or
/// 2-D TEMP operand; a register not fully written by then counts as read.
fn read_before_written(program: &Program, regs: &[i32]) -> Vec<bool> {
    let mut written = vec![0u8; regs.len()];
    let mut read = vec![false; regs.len()];
    'scan: for i in &program.instructions {
        let info = i.opcode.info();
        let straight = matches!(info.kind, Kind::Alu | Kind::Texture | Kind::Nop)
            && info.matrix().is_none()
            && i.cond_flow.is_none();
        if !straight {
            break;
        }
        for s in &i.src {
            if s.reg.file != File::Temporary {
                continue;
            }
            if s.reg.indirect.is_some() || s.reg.dimension.is_some() {
                break 'scan;
            }
            if let Some(k) = regs.iter().position(|&r| r == s.reg.index) {
                // A component-wise operation reads a source's selectors of the written
                // components only; any other reads the whole swizzle.
                let mask = match (info.output, i.dst.first()) {
                    (OutputMode::ComponentWise, Some(d)) if d.cond.is_none() => d.write_mask,
                    _ => 0xF,
                };
                let needs = if s.ext_swizzle.is_some() {
                    0xF
                } else {
                    (0..4)
                        .filter(|c| mask & (1 << c) != 0)
                        .fold(0u8, |m, c| m | 1 << (s.swizzle[c] & 3))
                };
                if needs & !written[k] != 0 {
                    read[k] = true;
                }
            }
        }
        for d in &i.dst {
            if d.reg.file != File::Temporary {
                continue;
            }
            if d.reg.indirect.is_some() || d.reg.dimension.is_some() {
                break 'scan;
            }
            if let Some(k) = regs.iter().position(|&r| r == d.reg.index) {
                if d.cond.is_none() {
                    written[k] |= d.write_mask & 0xF;
                }
            }
        }
        if (0..regs.len()).all(|k| read[k] || written[k] == 0xF) {
            break;
        }
    }
    (0..regs.len())
        .map(|k| read[k] || written[k] != 0xF)
        .collect()
}

/// Turns the fragment program `program` into the program the board runs under RENDER for a
/// `width` x `height` image: a prologue that makes every declared input from the coordinate
/// input (see the module's definition) into a TEMP standing for it, the user's instructions
/// with IN and OUT registers renamed to those TEMPs, and before each END an epilogue that packs
/// the colour output into `OUT[0].x` as [`to_byte`] converts each channel.
pub fn render_program(
    program: &Program,
    width: u32,
    height: u32,
    corners: &dyn Fn(u32) -> Option<Corners>,
    colour: ColourOut,
) -> Result<RenderProgram, RenderProgramError> {
    let color = check_renderable(program)?;
    let sources = input_sources(program, corners);
    let layout = Layout::new(program, &sources);
    let slots = Slots::new(program);
    let params = RenderParams::new(width, height);
    let mut constants = vec![(slots.c0 as u32, params.slot())];
    let pro = prologue(program, &layout, &slots, &sources, &mut constants);
    let tc = layout
        .output_temp(color as i32)
        .ok_or(RenderProgramError::NoOutput)?;
    let epi = epilogue(colour, &layout, &slots, tc);
    let prologue = parse_instructions(&pro, "prologue")?;
    let epilogue = parse_instructions(&epi, "epilogue")?;
    let mut out = splice(program, &prologue, &epilogue, &layout);
    declare(&mut out, program, &layout, &slots, constants.len());
    Ok(RenderProgram {
        program: out,
        constants,
    })
}

/// Refuses what RENDER cannot run (not a fragment program, no colour output, no END, RET in
/// the main program, indirect IN / OUT); returns the colour output's index.
fn check_renderable(program: &Program) -> Result<u32, RenderProgramError> {
    if program.processor != crate::tgsi::Processor::Fragment {
        return Err(RenderProgramError::NotFragment);
    }
    let color = color_output(program).ok_or(RenderProgramError::NoOutput)?;
    let first_end = program
        .instructions
        .iter()
        .position(|i| i.opcode == Opcode::End)
        .ok_or(RenderProgramError::NoEnd)?;
    for (n, i) in program.instructions.iter().enumerate() {
        if i.opcode == Opcode::Ret && n < first_end {
            return Err(RenderProgramError::ReturnFromMain(n));
        }
        let regs = i
            .src
            .iter()
            .map(|s| &s.reg)
            .chain(i.dst.iter().map(|d| &d.reg));
        for r in regs {
            let in_out = |f: File| matches!(f, File::Input | File::Output);
            if in_out(r.file) && (r.indirect.is_some() || r.dimension.is_some()) {
                return Err(RenderProgramError::IndirectInOut(n));
            }
        }
    }
    Ok(color)
}

/// Scratch TEMPs of the prologue and epilogue: S0 pixel, S1 uv, S2 interpolation.
const SCRATCH: usize = 3;

/// Where the transformed program keeps things (the core's register file holds 16, so the
/// layout is tight): the user's TEMPs stay, then one TEMP per input and one per output. The
/// prologue's and epilogue's scratch registers are the user's first TEMPs, dead before the
/// user's code runs and after it ends, and new TEMPs only where the user has fewer; the prologue
/// ends by zeroing the user's ones, which every run starts from.
struct Layout {
    /// The first TEMP index past the user's.
    user_temps: i32,
    /// The TEMPs standing for the inputs, in `sources` order, start here.
    in_base: i32,
    /// The TEMPs standing for the outputs, in `outputs` order, start here.
    out_base: i32,
    /// Every declared OUT index.
    outputs: Vec<i32>,
    /// The inputs' indices, in `sources` order.
    inputs: Vec<i32>,
    /// S0, S1, S2.
    scratch: [i32; SCRATCH],
    /// How many of `scratch` are the user's own TEMPs.
    reused: usize,
    /// One past the last TEMP the transformed program uses.
    temp_end: i32,
}

impl Layout {
    fn new(program: &Program, sources: &[(u32, Source)]) -> Layout {
        let user_temps = next_index(program, File::Temporary);
        let outputs: Vec<i32> = program
            .declarations
            .iter()
            .filter(|d| d.file == File::Output)
            .flat_map(|d| d.first..=d.last)
            .collect();
        let in_base = user_temps;
        let out_base = in_base + sources.len() as i32;
        let scratch_base = out_base + outputs.len() as i32;
        // The first SCRATCH declared TEMP indices, lazily (a declared range can be long).
        let mut ranges: Vec<(i32, i32)> = program
            .declarations
            .iter()
            .filter(|d| d.file == File::Temporary)
            .map(|d| (d.first, d.last))
            .collect();
        ranges.sort_unstable();
        let mut declared: Vec<i32> = Vec::with_capacity(SCRATCH);
        for r in ranges.iter().flat_map(|&(a, b)| a..=b) {
            if declared.len() == SCRATCH {
                break;
            }
            if declared.last().is_none_or(|&l| r > l) {
                declared.push(r);
            }
        }
        let reused = declared.len().min(SCRATCH);
        let scratch: [i32; SCRATCH] = std::array::from_fn(|k| {
            declared
                .get(k)
                .copied()
                .unwrap_or_else(|| scratch_base + (k - reused) as i32)
        });
        Layout {
            user_temps,
            in_base,
            out_base,
            inputs: sources.iter().map(|(i, _)| *i as i32).collect(),
            outputs,
            scratch,
            reused,
            temp_end: scratch_base + (SCRATCH - reused) as i32,
        }
    }

    /// The TEMP standing for `IN[index]`.
    fn input_temp(&self, index: i32) -> Option<i32> {
        let k = self.inputs.iter().position(|&i| i == index)?;
        Some(self.in_base + k as i32)
    }

    /// The TEMP standing for `OUT[index]`.
    fn output_temp(&self, index: i32) -> Option<i32> {
        let k = self.outputs.iter().position(|&i| i == index)?;
        Some(self.out_base + k as i32)
    }
}

/// The CONST and IMM slots the transform adds after the user's.
struct Slots {
    /// CONST slots: the parameters, then four corners per interpolated input.
    c0: i32,
    /// (2^23, 0.5, 1, 0).
    i_float: usize,
    /// (255, 255, 255, 255).
    i_scale: usize,
    /// Shifts (0, 8, 16, 24).
    i_shift: usize,
}

impl Slots {
    fn new(program: &Program) -> Slots {
        let i0 = program.immediates.len();
        Slots {
            c0: next_index(program, File::Constant),
            i_float: i0,
            i_scale: i0 + 1,
            i_shift: i0 + 2,
        }
    }

    /// The immediates, in slot order.
    fn immediates() -> [Immediate; 3] {
        let imm = |ty, values: [u32; 4]| Immediate {
            ty,
            values: values.to_vec(),
            loc: Loc::None,
        };
        [
            imm(
                ImmType::Float32,
                [RENDER_COORD_FLOAT, HALF, 1.0, 0.0].map(f32::to_bits),
            ),
            imm(ImmType::Float32, [BYTE_MAX; 4].map(f32::to_bits)),
            imm(ImmType::Uint32, [0, 8, 16, 24]),
        ]
    }
}

/// The prologue's text: every input from the coordinate input into its TEMP, then the user's
/// scratch TEMPs zeroed where the program reads them before writing them whole. Pushes each
/// interpolated input's corners onto `constants`.
fn prologue(
    program: &Program,
    layout: &Layout,
    slots: &Slots,
    sources: &[(u32, Source)],
    constants: &mut Vec<(u32, [u32; 4])>,
) -> String {
    let flags = CoordFlags::of(program);
    let (c0, i_float) = (slots.c0, slots.i_float);
    let [t0, t1, s2] = layout.scratch;
    let mut pro = String::new();
    // The pixel (x, y) and its centre (x + 0.5, y + 0.5), exact; then u, v.
    pro += &format!("ADD TEMP[{t0}], IN[0].xyxy, -IMM[{i_float}].xxxx\n");
    pro += &format!("ADD TEMP[{t0}].zw, TEMP[{t0}], IMM[{i_float}].yyyy\n");
    pro += &format!("MUL TEMP[{t1}].xy, TEMP[{t0}].zwzw, CONST[{c0}].xyxy\n");
    for (k, (_, source)) in sources.iter().enumerate() {
        let t = layout.in_base + k as i32;
        match source {
            Source::Position => {
                let (cx, cy) = if flags.integer_center {
                    ("x", "y")
                } else {
                    ("z", "w")
                };
                pro += &format!("MOV TEMP[{t}].x, TEMP[{t0}].{cx}\n");
                if flags.lower_left {
                    pro += &format!("ADD TEMP[{t}].y, CONST[{c0}].zzzz, -TEMP[{t0}].yyyy\n");
                    if !flags.integer_center {
                        pro += &format!("ADD TEMP[{t}].y, TEMP[{t}], IMM[{i_float}].yyyy\n");
                    }
                } else {
                    pro += &format!("MOV TEMP[{t}].y, TEMP[{t0}].{cy}{cy}{cy}{cy}\n");
                }
                pro += &format!("MOV TEMP[{t}].zw, IMM[{i_float}].wwwz\n");
            }
            Source::Face => pro += &format!("MOV TEMP[{t}], IMM[{i_float}].zwwz\n"),
            Source::Interpolated(corners) => {
                let k0 = c0 + constants.len() as i32;
                for (n, c) in corners.iter().enumerate() {
                    constants.push(((k0 + n as i32) as u32, c.map(f32::to_bits)));
                }
                let (tl, tr, bl, br) = (k0, k0 + 1, k0 + 2, k0 + 3);
                // top = tl + (tr - tl) u into the input's own TEMP, bottom likewise into S2,
                // then top + (bottom - top) v: the order `interpolate` rounds in.
                for (dst, a, b) in [(t, tl, tr), (s2, bl, br)] {
                    pro += &format!("ADD TEMP[{dst}], CONST[{b}], -CONST[{a}]\n");
                    pro += &format!("MUL TEMP[{dst}], TEMP[{dst}], TEMP[{t1}].xxxx\n");
                    pro += &format!("ADD TEMP[{dst}], CONST[{a}], TEMP[{dst}]\n");
                }
                pro += &format!("ADD TEMP[{s2}], TEMP[{s2}], -TEMP[{t}]\n");
                pro += &format!("MUL TEMP[{s2}], TEMP[{s2}], TEMP[{t1}].yyyy\n");
                pro += &format!("ADD TEMP[{t}], TEMP[{t}], TEMP[{s2}]\n");
            }
        }
    }
    let reused = &layout.scratch[..layout.reused];
    let read = read_before_written(program, reused);
    for (&r, _) in reused.iter().zip(read).filter(|(_, read)| *read) {
        pro += &format!("MOV TEMP[{r}], IMM[{i_float}].wwww\n");
    }
    pro
}

/// The epilogue's text: the colour TEMP `tc` into `OUT[0]`, as floats or packed as
/// [`to_byte`] converts: saturate (NaN to 0), scale, round half away from zero as
/// trunc + (frac >= 0.5) (floor(s + 0.5) rounds s + 0.5 itself and is wrong just below a
/// half), pack (SHL shifts every component by src1.x, so one SHL a channel).
fn epilogue(colour: ColourOut, layout: &Layout, slots: &Slots, tc: i32) -> String {
    let [t0, t1, _] = layout.scratch;
    let (i_float, i_scale, i_shift) = (slots.i_float, slots.i_scale, slots.i_shift);
    match colour {
        ColourOut::Float => format!("MOV OUT[0], TEMP[{tc}]\n"),
        ColourOut::Rgba8 => format!(
            "MOV_SAT TEMP[{t0}], TEMP[{tc}]\n\
         MUL TEMP[{t0}], TEMP[{t0}], IMM[{i_scale}]\n\
         TRUNC TEMP[{t1}], TEMP[{t0}]\n\
         ADD TEMP[{t0}], TEMP[{t0}], -TEMP[{t1}]\n\
         SGE TEMP[{t0}], TEMP[{t0}], IMM[{i_float}].yyyy\n\
         ADD TEMP[{t0}], TEMP[{t1}], TEMP[{t0}]\n\
         F2U TEMP[{t0}], TEMP[{t0}]\n\
         SHL TEMP[{t0}].y, TEMP[{t0}], IMM[{i_shift}].yyyy\n\
         SHL TEMP[{t0}].z, TEMP[{t0}], IMM[{i_shift}].zzzz\n\
         SHL TEMP[{t0}].w, TEMP[{t0}], IMM[{i_shift}].wwww\n\
         OR TEMP[{t0}].xy, TEMP[{t0}].xyxy, TEMP[{t0}].zwzw\n\
         OR OUT[0].x, TEMP[{t0}].xxxx, TEMP[{t0}].yyyy\n"
        ),
    }
}

/// The user's instructions with the prologue first and the epilogue before every END, IN and
/// OUT renamed to their TEMPs and labels moved to the instructions' new indices.
fn splice(
    program: &Program,
    prologue: &[crate::tgsi::Instruction],
    epilogue: &[crate::tgsi::Instruction],
    layout: &Layout,
) -> Program {
    let (p, e) = (prologue.len() as u32, epilogue.len() as u32);
    let mut new_index = Vec::with_capacity(program.instructions.len());
    let mut ends = 0u32;
    for i in &program.instructions {
        new_index.push(p + new_index.len() as u32 + e * ends);
        if i.opcode == Opcode::End {
            ends += 1;
        }
    }
    let input_temp = |index| layout.input_temp(index);
    let output_temp = |index| layout.output_temp(index);
    let mut out = program.clone();
    out.instructions = prologue.to_vec();
    for i in &program.instructions {
        let mut i = i.clone();
        if let Some(l) = i.label {
            // A label past the last instruction stays past it.
            i.label = Some(
                new_index
                    .get(l as usize)
                    .copied()
                    .unwrap_or(l + p + e * ends),
            );
        }
        for s in &mut i.src {
            rename(&mut s.reg, &input_temp, &output_temp);
        }
        for d in &mut i.dst {
            rename(&mut d.reg, &input_temp, &output_temp);
        }
        if i.opcode == Opcode::End {
            out.instructions.extend(epilogue.iter().cloned());
        }
        out.instructions.push(i);
    }
    out
}

/// The transformed program's declarations: RENDER's coordinate input and packed output in
/// place of the user's IN and OUT, the TEMPs and CONSTs the transform adds, its immediates.
fn declare(out: &mut Program, program: &Program, layout: &Layout, slots: &Slots, consts: usize) {
    out.declarations
        .retain(|d| !matches!(d.file, File::Input | File::Output));
    let semantic = |name| Some(Semantic { name, index: 0 });
    out.declarations
        .push(decl(File::Input, 0, 0, semantic(SemanticName::Generic)));
    out.declarations
        .push(decl(File::Output, 0, 0, semantic(SemanticName::Color)));
    if layout.temp_end > layout.user_temps {
        out.declarations.push(decl(
            File::Temporary,
            layout.user_temps,
            layout.temp_end - 1,
            None,
        ));
    }
    let c_last = slots.c0 + consts as i32 - 1;
    out.declarations
        .push(decl(File::Constant, slots.c0, c_last, None));
    debug_assert_eq!(out.immediates.len(), program.immediates.len());
    out.immediates.extend(Slots::immediates());
}

/// IN and OUT registers renamed to the TEMPs standing for them.
fn rename(
    reg: &mut crate::tgsi::Register,
    input: &dyn Fn(i32) -> Option<i32>,
    output: &dyn Fn(i32) -> Option<i32>,
) {
    let to = match reg.file {
        File::Input => input(reg.index),
        File::Output => output(reg.index),
        _ => return,
    };
    if let Some(t) = to {
        reg.file = File::Temporary;
        reg.index = t;
    }
}

/// The RGBA bytes of a packed colour word of the epilogue.
pub fn unpack_rgba(word: u32) -> [u8; 4] {
    word.to_le_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only registers the straight-line start reads before writing them whole, or leaves not
    /// fully written, are zeroed after the prologue.
    #[test]
    fn scratch_is_zeroed_only_where_it_may_be_read() {
        let p = |body: &str| {
            text::parse(&format!(
                "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n\
                 DCL ADDR[0]\n{body}END\n"
            ))
            .unwrap()
        };
        let regs = [0, 1, 2];
        // T0 written whole first; T1 read first; T2 written in parts, then whole.
        let a = p(
            "MOV TEMP[0], IN[0]\nADD TEMP[3], TEMP[1], TEMP[0]\nMOV TEMP[2].xy, IN[0]\n\
                   MOV TEMP[2].zw, TEMP[0]\nMOV OUT[0], TEMP[2]\n",
        );
        assert_eq!(read_before_written(&a, &regs), [false, true, false]);
        // A read of a component not yet written; a swizzle that reads only written ones.
        let b = p(
            "MOV TEMP[0].xy, IN[0]\nMOV TEMP[1], TEMP[0].xyxy\nMOV TEMP[0].zw, IN[0]\n\
                   MOV TEMP[2], TEMP[0]\n",
        );
        assert_eq!(read_before_written(&b, &regs), [false, false, false]);
        let b2 = p("MOV TEMP[0].xy, IN[0]\nMOV TEMP[2], TEMP[0]\nMOV TEMP[0].zw, IN[0]\n");
        assert!(read_before_written(&b2, &regs)[0]);
        // Component-wise: FLR of .xy reads .xy only; DP2 (not component-wise) reads all four.
        let c = p("MOV TEMP[0].xy, IN[0]\nFLR TEMP[0].xy, TEMP[0]\nMOV TEMP[0].zw, IN[0]\n");
        assert!(!read_before_written(&c, &regs)[0]);
        let d = p("MOV TEMP[0].xy, IN[0]\nDP2 TEMP[0].z, TEMP[0], TEMP[0]\nMOV TEMP[0].w, IN[0]\n");
        assert!(read_before_written(&d, &regs)[0]);
        // A kill, control flow and indirect reads end the scan: what is not written is zeroed.
        for stop in [
            "KIL IN[0]\n",
            "IF IN[0].xxxx\nENDIF\n",
            "ARL ADDR[0].x, IN[0].xxxx\nMOV OUT[0], TEMP[ADDR[0].x]\n",
        ] {
            let c = p(&format!(
                "MOV TEMP[0], IN[0]\n{stop}MOV TEMP[1], IN[0]\nMOV TEMP[2], IN[0]\n"
            ));
            assert_eq!(
                read_before_written(&c, &regs),
                [false, true, true],
                "{stop}"
            );
        }
        // Never written at all.
        assert_eq!(read_before_written(&p(""), &regs), [true, true, true]);
    }

    /// `to_byte` by its definition, with the standard library's rounding: NaN to 0, clamped to
    /// [0, 1], times 255, rounded half away from zero.
    fn to_byte_by_definition(bits: u32) -> u8 {
        let v = f32::from_bits(bits);
        if v.is_nan() {
            0
        } else {
            (v.clamp(0.0, 1.0) * BYTE_MAX).round() as u8
        }
    }

    /// Every binary32 value in [0, 1] and around it converts as `f32::round` rounds, and a
    /// sample of the rest of the 2^32 patterns (negatives, above one, infinities, NaNs).
    #[test]
    fn to_byte_rounds_half_away_from_zero() {
        let last = 1.0f32.to_bits() + 16;
        let sample = (0..=last)
            .step_by(97)
            .chain(0x8000_0000..0x8000_0010)
            .chain((0..=u32::MAX).step_by(4099))
            .chain([
                0x7F80_0000,
                0xFF80_0000,
                0x7F80_0001,
                0x7FC0_0000,
                0xFFFF_FFFF,
            ]);
        for bits in sample {
            assert_eq!(to_byte(bits), to_byte_by_definition(bits), "{bits:08x}");
        }
        for k in 0..255u32 {
            let half = (k as f32 + 0.5) / BYTE_MAX;
            for bits in half.to_bits() - 3..=half.to_bits() + 3 {
                let want = (f32::from_bits(bits) * BYTE_MAX).round() as u8;
                assert_eq!(to_byte(bits), want, "{bits:08x}");
            }
        }
        // The bytes around a half: 0.5 / 255 rounds up to 1, the value just below it to 0.
        let half = (0.5f32 / BYTE_MAX).to_bits();
        let (below, at) = (to_byte(half - 1), to_byte(half));
        assert_eq!((below, at), (to_byte_by_definition(half - 1), 1));
    }

    /// `to_byte` equals its definition on all 2^32 inputs (about ten seconds in a release build:
    /// `cargo test --release -p microcode --lib to_byte_everywhere -- --ignored`).
    #[test]
    #[ignore]
    fn to_byte_everywhere() {
        for bits in 0..=u32::MAX {
            if to_byte(bits) != to_byte_by_definition(bits) {
                panic!(
                    "{bits:08x}: {} != {}",
                    to_byte(bits),
                    to_byte_by_definition(bits)
                );
            }
        }
    }

    /// `plain` agrees with the float classification on the edges of every class and a sample
    /// of all patterns.
    #[test]
    fn plain_is_a_normal_number_or_a_zero() {
        let edges = [
            0u32,
            1,
            0x007F_FFFF,
            0x0080_0000,
            0x0080_0001,
            0x3F80_0000,
            0x7F7F_FFFF,
            0x7F80_0000,
            0x7F80_0001,
            0x7FC0_0000,
            0x7FFF_FFFF,
        ];
        let sample = edges
            .iter()
            .flat_map(|&b| [b, b | 0x8000_0000])
            .chain((0..=u32::MAX).step_by(65_537));
        for bits in sample {
            let v = f32::from_bits(bits);
            assert_eq!(plain(v), v.is_normal() || v == 0.0, "{bits:08x}");
        }
    }

    /// `between_edges` and `quad_between_edges` give the core's bits, `top + step * v` with the
    /// bit-level ADD and MUL per component, whether every operand is an ordinary number (the vector shortcut) or some
    /// component is a subnormal, an infinity, a NaN or overflows.
    #[test]
    fn between_edges_is_the_cores_arithmetic() {
        let special = [
            0u32,
            0x8000_0000,
            1,
            0x807F_FFFF,
            0x0080_0000,
            0x7F7F_FFFF,
            0xFF7F_FFFF,
            0x7F80_0000,
            0x7FC0_0000,
            0x3F80_0000,
            0x0100_0000,
        ];
        let mut rng = crate::rng::XorShift::new(0x9E37_79B9);
        let mut next = move || rng.next_u64() as u32;
        let mut quads = Vec::new();
        for n in 0..100_000 {
            // Mostly ordinary values in a rasteriser's range; every fourth vector carries a special
            // value in one component; every eighth a tiny step, so that the product underflows.
            let mut ordinary = || f32::from_bits(0x3C00_0000 + next() % 0x0600_0000);
            let mut top: [f32; 4] = std::array::from_fn(|_| ordinary());
            let mut step: [f32; 4] = std::array::from_fn(|_| ordinary() - 0.7);
            let v = ordinary();
            if n % 4 == 0 {
                let c = (next() % 4) as usize;
                let s = f32::from_bits(special[next() as usize % special.len()]);
                if next() & 1 == 0 {
                    top[c] = s;
                } else {
                    step[c] = s;
                }
            }
            if n % 8 == 1 {
                step[(next() % 4) as usize] = 1.0e-38;
            }
            let want: [u32; 4] = std::array::from_fn(|c| {
                fadd(top[c].to_bits(), fmul(step[c].to_bits(), v.to_bits()))
            });
            let got = between_edges(&[top, step], v).map(f32::to_bits);
            assert_eq!(got, want, "{top:?} + {step:?} * {v}");
            quads.push(([top, step], v, want));
        }
        // The quad form: each lane pairs a column and a row of the vectors above, so that some
        // quads are all ordinary and some hold one special value.
        for k in 0..quads.len() - 3 {
            let (a, b) = (quads[k].0, quads[k + 1].0);
            let (v0, v1) = (quads[k].1, quads[k + 2].1);
            let got = quad_between_edges(&[a, b], [v0, v1]).map(|l| l.map(f32::to_bits));
            let lane = |[top, step]: [[f32; 4]; 2], v: f32| -> [u32; 4] {
                std::array::from_fn(|c| {
                    fadd(top[c].to_bits(), fmul(step[c].to_bits(), v.to_bits()))
                })
            };
            let want = [lane(a, v0), lane(b, v0), lane(a, v1), lane(b, v1)];
            assert_eq!(got, want, "quad {k}");
        }
    }

    /// The host-float shortcut of the rasteriser's arithmetic gives the core's bits on random
    /// operands and on the edges (zeros, subnormals, the normal range's ends, overflow,
    /// infinities, NaN, cancellation).
    #[test]
    fn the_shortcut_equals_the_cores_arithmetic() {
        let edges = [
            0u32,
            0x8000_0000,
            1,
            0x807F_FFFF,
            0x0080_0000,
            0x8080_0000,
            0x7F7F_FFFF,
            0xFF7F_FFFF,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x3F80_0000,
            0xBF80_0000,
            0x3F80_0001,
            0x0100_0000,
            0x0080_0001,
        ];
        let mut rng = crate::rng::XorShift::new(0x2545_F491);
        let mut next = move || rng.next_u64() as u32;
        let mut pairs: Vec<(u32, u32)> = edges
            .iter()
            .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
            .collect();
        for _ in 0..200_000 {
            let a = next();
            // Half the pairs close in magnitude, so that sums cancel and products leave the range.
            let b = if next() & 1 == 0 {
                a ^ (next() & 0x807F_FFFF)
            } else {
                next()
            };
            pairs.push((a, b));
        }
        for (a, b) in pairs {
            let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
            assert_eq!(add(fa, fb).to_bits(), fadd(a, b), "{a:08x} + {b:08x}");
            assert_eq!(sub(fa, fb).to_bits(), fsub(a, b), "{a:08x} - {b:08x}");
            assert_eq!(mul(fa, fb).to_bits(), fmul(a, b), "{a:08x} * {b:08x}");
        }
    }
}
