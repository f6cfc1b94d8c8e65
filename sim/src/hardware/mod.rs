//! The hardware engines: the shader core of the `hdl` crate, run cycle by cycle, through its host
//! port (`hdl::host_port`).
//!
//! [`HostPort`] is what an engine offers (word writes and reads, clear, run); [`run_image`] is the
//! one loader every engine shares: it checks that the hardware builds every operation the image
//! uses, writes the program, the constant file and the inputs exactly where the core model starts
//! from (`core_model::initial_state`), runs, and reads the outputs back. Engines:
//! - [`rtl::RtlCore`]: rust-hdl's own simulation, driven directly (`simulate` per clock edge);
//! - [`verilator::VerilatorCore`]: the Verilog that `generate_verilog` emits, compiled by
//!   Verilator into a harness process (built once per distinct Verilog, cached).

pub mod board;
pub mod emulate;
pub mod rtl;
pub mod verilator;

use crate::core_model;
use crate::run_io::{LaneOutput, RunInputs, RunOutput, Vertex, LANES};
use hdl::host_port;
pub use hdl::host_port::fault_code;
use microcode::core::disasm::instr_text;
use microcode::core::Image;
use thiserror::Error;

/// What a run of the hardware reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwRun {
    /// Fault code (`hdl::host_port::fault_code`), 0 for none.
    pub fault: u8,
    /// Kill mask, bit L = lane L.
    pub killed: u8,
    /// Clocks of the run.
    pub cycles: u64,
    /// When paused at EMIT / ENDPRIM (`fault` is the pause code): the lanes that executed it.
    pub lanes: u8,
}

/// A hardware engine's failure.
#[derive(Debug, Error)]
pub enum HwError {
    /// The image uses an operation this hardware build does not implement.
    #[error("core instruction {pc} ({text}): the {engine} engine's hardware does not implement {op}{why}")]
    Unsupported {
        /// The engine ([`HostPort::engine`]: `rtl`, `verilator`).
        engine: &'static str,
        /// The instruction's index in the image's code.
        pc: usize,
        /// The operation's mnemonic.
        op: &'static str,
        /// The instruction, disassembled.
        text: String,
        /// What the operation stands for and how to avoid it.
        why: &'static str,
    },
    /// The image uses an operation whose unit this hardware build leaves out (a board build
    /// such as `synth --minimal`); a build with the unit runs it.
    #[error(
        "core instruction {pc} ({text}): {op} runs on {unit}, which this {engine} build leaves out"
    )]
    NotBuilt {
        /// The engine ([`HostPort::engine`]: `rtl`, `verilator`).
        engine: &'static str,
        /// The instruction's index in the image's code.
        pc: usize,
        /// The operation's mnemonic.
        op: &'static str,
        /// The instruction, disassembled.
        text: String,
        /// The unit it needs, in words (`Features::names`: "the divider").
        unit: String,
    },
    /// The image breaks a rule of the core ISA that the hardware relies on.
    #[error("core instruction {pc} ({text}): {rule}")]
    IsaRule {
        /// The instruction's index in the image's code.
        pc: usize,
        /// The instruction, disassembled.
        text: String,
        /// The rule, and why the hardware needs it.
        rule: &'static str,
    },
    /// The image does not fit this hardware's memories.
    #[error("the image needs {what} {need}, the hardware has {have}")]
    TooLarge {
        /// The memory that overflows (`instructions`).
        what: &'static str,
        /// How many entries the image needs.
        need: usize,
        /// How many the hardware has.
        have: usize,
    },
    /// The core stopped with a fault.
    #[error("the core stopped with fault {code} ({name}) after {cycles} cycles")]
    Fault {
        /// The fault code (`microcode::core::fault_code`).
        code: u8,
        /// The code's name in the fault table.
        name: &'static str,
        /// Clocks from the start of the run to the fault.
        cycles: u64,
    },
    /// A texture the image samples cannot be held by the hardware's texture memory.
    #[error("sampler unit {unit}: {reason}")]
    Texture {
        /// The sampler unit.
        unit: usize,
        /// Why it does not fit (size, format).
        reason: String,
    },
    /// The simulation did not finish.
    #[error("the {engine} engine did not finish within {clocks} clocks")]
    Timeout {
        /// The engine (`rtl`, `verilator`).
        engine: &'static str,
        /// The clock limit the run was given.
        clocks: u64,
    },
    /// rust-hdl rejected the core or its simulation did not settle.
    #[error("rtl engine: {0}")]
    Rtl(String),
    /// The Verilator engine could not be built or talked to.
    #[error("verilator engine: {0}")]
    Verilator(String),
}

/// Name of a fault code (the fault table's, `microcode::core::fault_code`).
pub fn fault_name(code: u8) -> &'static str {
    fault_code::name(code)
}

/// A shader core reached through its host port.
pub trait HostPort {
    /// Engine name (`rtl`, `verilator`).
    fn engine(&self) -> &'static str;
    /// Writes a word (the core must be idle).
    fn write(&mut self, addr: u16, data: u32) -> Result<(), HwError>;
    /// Reads a word (the core must be idle).
    fn read(&mut self, addr: u16) -> Result<u32, HwError>;
    /// Zeroes the register file.
    fn clear(&mut self) -> Result<(), HwError>;
    /// Runs from instruction 0 until `done`; gives up after `max_clocks`.
    fn run(&mut self, budget: u32, max_clocks: u64) -> Result<HwRun, HwError>;
    /// Continues a run paused at EMIT / ENDPRIM until the next `done`.
    fn resume(&mut self, max_clocks: u64) -> Result<HwRun, HwError>;
    /// Total clocks simulated so far (for speed measurements).
    fn clocks(&self) -> u64;
    /// Records the address of every executed instruction of the following runs.
    fn set_trace(&mut self, on: bool);
    /// The recorded (clock of the run, instruction address) pairs, oldest first.
    fn take_trace(&mut self) -> Vec<(u64, usize)>;
}

/// The first instruction of `image` the hardware does not implement, as an error.
pub fn check_supported(image: &Image, engine: &'static str) -> Result<(), HwError> {
    if let Some((pc, i)) = image
        .code
        .iter()
        .enumerate()
        .find(|(_, i)| !hdl::decoder::implemented_with(i.op, image.config.features))
    {
        let every_unit = microcode::core::config::Features::UNITS
            .iter()
            .fold(0, |f, (bit, _)| f | bit);
        if hdl::decoder::implemented_with(i.op, every_unit) {
            return Err(HwError::NotBuilt {
                engine,
                pc,
                op: i.op.mnemonic(),
                text: instr_text(i),
                unit: microcode::core::config::Features::names(i.op.info().unit.feature()),
            });
        }
        let why = if i.op == microcode::core::isa::Op::Dop {
            ": double arithmetic the compiler left to the core model because the program cannot \
             spare the binary64 library's registers or its instructions beside its own"
        } else if i.op.info().unit == microcode::core::isa::Unit::Div {
            ": a division the compiler left to the core model's divider (which no board builds) \
             because the program cannot spare the registers of a division sequence or of the \
             shared division routine beside its own"
        } else {
            " (a model-only operation)"
        };
        return Err(HwError::Unsupported {
            engine,
            pc,
            op: i.op.mnemonic(),
            text: instr_text(i),
            why,
        });
    }
    if let Some((pc, i)) = image
        .code
        .iter()
        .enumerate()
        .find(|(_, i)| i.breaks_divider_rule())
    {
        return Err(HwError::IsaRule {
            pc,
            text: instr_text(i),
            rule: "a divider instruction must not write a register it reads (the compiler never emits one)",
        });
    }
    if let Some((pc, i)) = image
        .code
        .iter()
        .enumerate()
        .find(|(_, i)| i.breaks_constant_rule())
    {
        return Err(HwError::IsaRule {
            pc,
            text: instr_text(i),
            rule: "an instruction reads at most one view of the constant file K, which has one \
                   read port (the compiler never emits another)",
        });
    }
    if image.code.len() > hdl::shader_core::PROGRAM_WORDS {
        return Err(HwError::TooLarge {
            what: "instructions",
            need: image.code.len(),
            have: hdl::shader_core::PROGRAM_WORDS,
        });
    }
    Ok(())
}

/// Checks the image ([`check_supported`]) and writes its program (once per image; the program
/// stays loaded across runs).
pub fn load_program(port: &mut dyn HostPort, image: &Image) -> Result<(), HwError> {
    check_supported(image, port.engine())?;
    write_program(port, image)
}

/// Writes the image's instructions word by word, unchecked (tests use it to reach the
/// hardware's own fault for an operation it does not build).
pub fn write_program(port: &mut dyn HostPort, image: &Image) -> Result<(), HwError> {
    for (i, instr) in image.code.iter().enumerate() {
        let w = microcode::core::isa::encode(instr);
        for k in 0..4 {
            port.write(host_port::program_addr(i, k), (w >> (32 * k)) as u32)?;
        }
    }
    Ok(())
}

/// Writes the textures the image samples into texture memory where
/// [`core_model::texture_placement`] puts them (their descriptors reach K with the constants).
/// Textures stay loaded across runs: callers running many quads with the same textures call it
/// once. The hardware holds RGBA8 texels (every channel `k / 255`), power-of-two sizes on the
/// axes that repeat, and `hdl::tex_unit::TEXELS` texels in all (rows padded to a power of two);
/// anything else is refused before a word is written, naming the unit and the reason.
pub fn load_textures(
    port: &mut dyn HostPort,
    image: &Image,
    inputs: &RunInputs,
) -> Result<(), HwError> {
    for (addr, w) in texture_words(image, inputs)? {
        port.write(host_port::texel_addr(addr as usize), w)?;
    }
    Ok(())
}

/// The texture memory words [`load_textures`] writes, as (texel address, RGBA8 word), after the
/// same checks; the on-chip loader's uploads carry them in the image's TEXTURES region.
pub fn texture_words(image: &Image, inputs: &RunInputs) -> Result<Vec<(u32, u32)>, HwError> {
    // The hardware cannot fault on a missing texture (the model does, at TFET and TXQ): every
    // sampler the image names must be bound before it runs.
    for c in &image.constants {
        if let microcode::core::image::ConstSource::Texture { unit, .. } = c.source {
            let unit = usize::from(unit);
            if inputs.textures.get(unit).and_then(Option::as_ref).is_none() {
                return Err(HwError::Texture {
                    unit,
                    reason: "no texture bound".into(),
                });
            }
        }
    }
    let units = core_model::sampled_units(image);
    if units.is_empty() {
        return Ok(Vec::new());
    }
    let placement = core_model::texture_placement(image, inputs);
    let capacity = hdl::tex_unit::TEXELS.min(usize::from(image.config.texture_texels));
    let mut words = Vec::new();
    for &unit in &units {
        let err = |reason: String| HwError::Texture { unit, reason };
        let sampler = inputs
            .textures
            .get(unit)
            .and_then(Option::as_ref)
            .ok_or_else(|| err("no texture bound".into()))?;
        let (layout, base) = placement
            .get(unit)
            .copied()
            .flatten()
            .ok_or_else(|| err("the sampler is not a texture the core can address".into()))?;
        // A cube map's faces never wrap.
        let depth = if layout.cube { 1 } else { layout.depth };
        for (axis, size) in [layout.width, layout.height, depth].into_iter().enumerate() {
            if !layout.clamp[axis] && !size.is_power_of_two() {
                return Err(err(format!(
                    "{} {size} repeats but is not a power of two (the texture unit wraps by masking)",
                    ["width", "height", "depth"][axis]
                )));
            }
        }
        let end = base as usize + layout.footprint() as usize;
        if end > capacity {
            return Err(err(format!(
                "{}x{}x{} needs texture memory up to texel {end}, the hardware has {capacity}",
                layout.width, layout.height, layout.depth
            )));
        }
        for (z, y, x) in (0..layout.depth).flat_map(|z| {
            (0..layout.height).flat_map(move |y| (0..layout.width).map(move |x| (z, y, x)))
        }) {
            {
                let t = sampler.fetch(layout.fetch_target(), [x as i32, y as i32, z as i32, 0]);
                let mut w = 0u32;
                for (c, &bits) in t.iter().enumerate() {
                    let k = microcode::arith::texel::to_unorm8(bits).ok_or_else(|| {
                        err(format!(
                            "texel ({x}, {y}, {z}) channel {c} is {bits:#010x} ({}), not an 8-bit unorm value k/255",
                            f32::from_bits(bits)
                        ))
                    })?;
                    w |= u32::from(k) << (8 * c);
                }
                words.push((base + layout.address(x, y, z), w));
            }
        }
    }
    Ok(words)
}

/// Clocks a run may take before the engine gives up: the budget's worth of the slowest
/// instruction, plus slack.
fn clock_limit(image: &Image, budget: u64) -> u64 {
    let slowest = image
        .code
        .iter()
        .map(|i| i.op.info().cycles(i.wmask))
        .max()
        .unwrap_or(1);
    budget.saturating_mul(slowest).saturating_add(10_000)
}

/// Runs one quad of a loaded program: clears R, writes the constants and inputs, runs, reads the
/// outputs. The result has the shape of the core model's.
pub fn run_loaded(
    port: &mut dyn HostPort,
    image: &Image,
    inputs: &RunInputs,
) -> Result<RunOutput, HwError> {
    run_budget(port, image, inputs, inputs.budget)
}

/// [`run_loaded`] with an instruction budget of `budget` instead of `inputs.budget`.
fn run_budget(
    port: &mut dyn HostPort,
    image: &Image,
    inputs: &RunInputs,
    budget: u64,
) -> Result<RunOutput, HwError> {
    let (r, k) = core_model::initial_state(image, inputs);
    port.clear()?;
    for (s, v) in k.iter().enumerate() {
        for (c, &x) in v.iter().enumerate() {
            port.write(host_port::const_addr(s, c), x)?;
        }
    }
    for (reg, lanes) in r.iter().enumerate() {
        for (l, v) in lanes.iter().enumerate() {
            for (c, &x) in v.iter().enumerate() {
                if x != 0 {
                    port.write(host_port::reg_addr(reg, l, c), x)?;
                }
            }
        }
    }
    let budget = u32::try_from(budget).unwrap_or(u32::MAX);
    let limit = clock_limit(image, u64::from(budget));
    let mut run = port.run(budget, limit)?;
    // Geometry output: at each pause read the emitting lanes' output registers (a vertex) or
    // end their primitive, then resume.
    let mut vertices: [Vec<Vertex>; LANES] = Default::default();
    while matches!(run.fault, fault_code::EMIT | fault_code::ENDPRIM) {
        for (l, lane) in vertices.iter_mut().enumerate() {
            if run.lanes & (1 << l) == 0 {
                continue;
            }
            if run.fault == fault_code::EMIT {
                let outputs = read_outputs(port, image, l)?;
                lane.push(Vertex {
                    outputs,
                    primitive_end: false,
                });
            } else if let Some(v) = lane.last_mut() {
                v.primitive_end = true;
            }
        }
        run = port.resume(limit)?;
    }
    if run.fault != 0 {
        return Err(HwError::Fault {
            code: run.fault,
            name: fault_name(run.fault),
            cycles: run.cycles,
        });
    }
    let mut lanes: [LaneOutput; LANES] = Default::default();
    for (l, lane) in lanes.iter_mut().enumerate() {
        lane.killed = run.killed & (1 << l) != 0;
        lane.outputs = read_outputs(port, image, l)?;
        lane.vertices = std::mem::take(&mut vertices[l]);
        // As in the core model: the end of the run ends the last primitive.
        if let Some(v) = lane.vertices.last_mut() {
            v.primitive_end = true;
        }
    }
    Ok(RunOutput {
        engine: port.engine().to_string(),
        lanes,
        instructions: None,
        cycles: Some(run.cycles),
        fault: None,
        geometry: image.processor == 2,
        warnings: Vec::new(),
    })
}

/// Lane `l`'s output registers (the image's output map), by TGSI index.
fn read_outputs(
    port: &mut dyn HostPort,
    image: &Image,
    l: usize,
) -> Result<std::collections::BTreeMap<u32, [u32; 4]>, HwError> {
    let mut out = std::collections::BTreeMap::new();
    for m in &image.outputs {
        let mut v = [0u32; 4];
        for (c, x) in v.iter_mut().enumerate() {
            *x = port.read(host_port::reg_addr(usize::from(m.reg), l, c))?;
        }
        out.insert(u32::from(m.tgsi), v);
    }
    Ok(out)
}

/// Opens the hardware engine `engine` (`rtl` or `verilator`) built for `config`; `progress` hears
/// about a Verilator model build.
pub fn open(
    engine: &str,
    config: &microcode::core::CoreConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<Box<dyn HostPort>, HwError> {
    match engine {
        rtl::ENGINE => Ok(Box::new(rtl::RtlCore::new(config)?)),
        verilator::ENGINE => Ok(Box::new(verilator::VerilatorCore::new(config, progress)?)),
        other => Err(HwError::Rtl(format!("no hardware engine named `{other}`"))),
    }
}

/// Loads `image` and runs one quad.
pub fn run_image(
    port: &mut dyn HostPort,
    image: &Image,
    inputs: &RunInputs,
) -> Result<RunOutput, HwError> {
    load_program(port, image)?;
    load_textures(port, image, inputs)?;
    run_loaded(port, image, inputs)
}

/// Where a hardware run first departs from the core model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Executed instructions when the register files first differ.
    pub step: u64,
    /// Address of that instruction.
    pub pc: usize,
    /// Its disassembly (with mnemonic).
    pub text: String,
    /// The first differing word: (register, lane, component, model, hardware).
    pub word: (usize, usize, usize, u32, u32),
}

/// Finds the first core instruction after which the hardware's register file differs from the
/// core model's: runs both with budgets 1, 2, ... (the hardware stops with its budget fault after
/// its writes have landed) and compares every register word. `None` when no prefix differs.
pub fn first_difference(
    port: &mut dyn HostPort,
    image: &Image,
    inputs: &RunInputs,
    max_steps: u64,
) -> Result<Option<Divergence>, HwError> {
    load_program(port, image)?;
    load_textures(port, image, inputs)?;
    let regs = usize::from(image.config.registers).min(16);
    for n in 1..=max_steps {
        let Ok((model, pcs)) = core_model::run_prefix(image, inputs, n) else {
            return Ok(None);
        };
        match run_budget(port, image, inputs, n) {
            Ok(_) | Err(HwError::Fault { .. }) => {}
            Err(e) => return Err(e),
        }
        for (r, lanes) in model.iter().enumerate().take(regs) {
            for (l, v) in lanes.iter().enumerate() {
                for (c, &want) in v.iter().enumerate() {
                    let got = port.read(host_port::reg_addr(r, l, c))?;
                    if got != want {
                        let pc = pcs.last().copied().unwrap_or(0);
                        let text = image.code.get(pc).map(instr_text).unwrap_or_default();
                        return Ok(Some(Divergence {
                            step: n,
                            pc,
                            text,
                            word: (r, l, c, want, got),
                        }));
                    }
                }
            }
        }
        if pcs.len() < n as usize {
            break;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use microcode::core::config::Features;
    use microcode::core::CoreConfig;

    fn image(text: &str, config: &CoreConfig) -> Image {
        let program = microcode::tgsi::text::parse(text).expect("parses");
        microcode::compile::compile(&program, config)
            .expect("compiles")
            .image
    }

    /// A unit the build leaves out is named (the board's tools report it as not built); an
    /// operation no hardware build has stays unsupported.
    #[test]
    fn a_missing_unit_is_named_apart_from_a_model_only_operation() {
        let and = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n\
                   AND OUT[0], IN[0], IN[0].yxwz\nEND\n";
        // The board build has every unit but the divider; a build may leave more out.
        let without = |units: u32| CoreConfig {
            features: CoreConfig::default().features & !units,
            ..CoreConfig::default()
        };
        let (no_int, no_seq) = (
            without(Features::INTEGER),
            without(Features::TRANSCENDENTAL),
        );
        assert!(check_supported(&image(and, &CoreConfig::default()), "board").is_ok());
        match check_supported(&image(and, &no_int), "board") {
            Err(HwError::NotBuilt { op, unit, .. }) => {
                assert_eq!(op, "AND");
                assert_eq!(unit, "the integer ALU");
            }
            other => panic!("expected NotBuilt, got {other:?}"),
        }
        let sin = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n\
                   SIN OUT[0], IN[0].xxxx\nEND\n";
        // SIN's sequence needs the transcendental steps (its conversions are the adder's, in
        // every build).
        assert!(check_supported(&image(sin, &CoreConfig::default()), "board").is_ok());
        match check_supported(&image(sin, &no_seq), "board") {
            Err(HwError::NotBuilt { unit, .. }) => assert_eq!(unit, "the transcendental steps"),
            other => panic!("expected NotBuilt, got {other:?}"),
        }
        let dadd = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n\
                    DADD OUT[0], IN[0], IN[0]\nEND\n";
        // Double arithmetic is the binary64 library's integer sequences: built with the
        // integer ALU.
        assert!(check_supported(&image(dadd, &CoreConfig::default()), "board").is_ok());
        match check_supported(&image(dadd, &no_int), "board") {
            Err(HwError::NotBuilt { unit, .. }) => assert!(unit.contains("integer ALU"), "{unit}"),
            other => panic!("expected NotBuilt, got {other:?}"),
        }
    }
}
