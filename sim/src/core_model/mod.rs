//! The core model: executes a core [`Image`] exactly as the hardware will.
//!
//! State per run (one quad): the per-lane register file R, the constant file K (image data and
//! the host's CONST values), the literal set of the image's config, per-lane per-component
//! predicate bits P, the execution mask E, the killed lanes, the mask stack (IF and loop frames,
//! depth `CoreConfig::mask_stack_depth`, overflow is a fault), the cycle counter (exact clocks of
//! the ISA table: `OpInfo::cycles`) and the budget in core instructions (exhausting it is a fault,
//! never a hang). Every arithmetic result comes from `microcode::arith`.
//!
//! Inputs are read from `RunInputs::inputs` through the image's input map; callers that want the
//! FACE input set from `RunInputs::face` pass `RunInputs::effective_inputs(program)` there.

mod machine;

use crate::run_io::batch::{BatchInputs, BatchOutputs, CountUnit};
use crate::run_io::{QuadInputs, RunInputs, RunOutput, LANES};
use microcode::arith::texel;
use microcode::core::image::ConstSource;
use microcode::core::Image;
use thiserror::Error;

/// Engine name printed in outputs.
pub const ENGINE: &str = "core";

/// A run that stopped on a fault, with the core instruction address.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("core instruction {pc}: {kind}")]
pub struct CoreFault {
    /// The index in the image's code of the instruction that faulted (0 when the image as a
    /// whole is refused); the image's ORIG section maps it back to a TGSI instruction.
    pub pc: usize,
    /// What went wrong.
    pub kind: FaultKind,
}

/// Fault flags of the core.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FaultKind {
    /// The run executed its budget of core instructions without reaching END: an endless
    /// loop, or a budget too small for the program (`--budget`).
    #[error("instruction budget of {budget} exhausted")]
    BudgetExhausted {
        /// The budget, in core instructions.
        budget: u64,
    },
    /// IF and loop frames nested deeper than the core's mask stack
    /// (`CoreConfig::mask_stack_depth`).
    #[error("mask stack overflow (depth {depth})")]
    StackOverflow {
        /// The mask stack's depth.
        depth: usize,
    },
    /// Calls nested deeper than the core's call stack (`CoreConfig::call_stack_depth`), as
    /// unbounded recursion through CALLNZ does.
    #[error("call stack overflow (depth {depth})")]
    CallStackOverflow {
        /// The call stack's depth.
        depth: usize,
    },
    /// A flow instruction found the wrong frame on top of the mask stack (an ELSE with no IF
    /// frame, a loop end inside an IF): an image the compiler did not write.
    #[error("mask stack underflow or mismatched frame at {op}")]
    StackMismatch {
        /// The flow instruction's mnemonic.
        op: &'static str,
    },
    /// PUSHA in a lane whose address stack is full (`CoreConfig::address_stack_depth`).
    #[error("address stack overflow in lane {lane} (depth {depth})")]
    AddressStackOverflow {
        /// The lane (0-3).
        lane: usize,
        /// The address stack's depth.
        depth: usize,
    },
    /// POPA in a lane whose address stack is empty.
    #[error("address stack underflow in lane {lane} (POPA on an empty stack)")]
    AddressStackUnderflow {
        /// The lane (0-3).
        lane: usize,
    },
    /// A conditional BRA whose test differs between active lanes: the core has one program
    /// counter per quad, so it cannot follow both ways (`decisions.md` section 4).
    #[error("conditional branch taken by some active lanes only (taken per lane: {taken:?})")]
    DivergentBranch {
        /// Whether each lane's test passed.
        taken: [bool; 4],
    },
    /// The program samples a unit the run gave no texture for (`--texture N=FILE`).
    #[error("no texture bound to sampler unit {unit}")]
    MissingTexture {
        /// The sampler unit.
        unit: usize,
    },
    /// The image uses an operation whose unit the image's config leaves out
    /// (`CoreConfig::features`).
    #[error("operation {op} needs a unit this core build lacks")]
    MissingUnit {
        /// The operation's mnemonic.
        op: &'static str,
    },
    /// A DOP whose `target` names no double opcode (a hand-made or damaged image).
    #[error("DOP target {target} is not a double opcode")]
    BadDoubleOp {
        /// The target field's value.
        target: u16,
    },
    /// The image holds more instructions than its core's program memory.
    #[error("the image has {instructions} instructions; the core holds {program_size}")]
    ProgramTooLarge {
        /// Instructions in the image.
        instructions: usize,
        /// The core's program memory, in instructions (`CoreConfig::program_size`).
        program_size: usize,
    },
    /// The image's CODE section is empty.
    #[error("the image has no instructions")]
    EmptyCode,
    /// No END instruction: the core would run past the program.
    #[error("the image has no END instruction")]
    MissingEnd,
    /// A register of R beyond the core's register file.
    #[error("{what} names R{reg}; the core has {registers} registers")]
    RegisterOutOfRange {
        /// Which use names it: an operand, the destination, an input or output mapping.
        what: &'static str,
        /// The register number.
        reg: usize,
        /// Registers of R the core has (`CoreConfig::registers`).
        registers: usize,
    },
}

impl FaultKind {
    /// The hardware's fault code for this kind (`microcode::core::fault_code`): what the host
    /// port reports when the core meets the same condition. Kinds the core has no code of its
    /// own for (a missing texture, a model-only operation, an image the loader refuses) stop the
    /// hardware as an operation it does not implement.
    pub fn code(&self) -> u8 {
        use microcode::core::fault_code as f;
        match self {
            FaultKind::BudgetExhausted { .. } => f::BUDGET,
            FaultKind::StackOverflow { .. } => f::STACK_OVERFLOW,
            FaultKind::CallStackOverflow { .. } => f::CALL_OVERFLOW,
            FaultKind::StackMismatch { .. } => f::STACK_MISMATCH,
            FaultKind::DivergentBranch { .. } => f::DIVERGENT,
            FaultKind::AddressStackOverflow { .. } => f::ADDRESS_OVERFLOW,
            FaultKind::AddressStackUnderflow { .. } => f::ADDRESS_UNDERFLOW,
            FaultKind::MissingTexture { .. }
            | FaultKind::MissingUnit { .. }
            | FaultKind::BadDoubleOp { .. }
            | FaultKind::ProgramTooLarge { .. }
            | FaultKind::EmptyCode
            | FaultKind::MissingEnd
            | FaultKind::RegisterOutOfRange { .. } => f::MISSING_UNIT,
        }
    }
}

/// Refuses an image its own core configuration cannot hold, as the hardware engines and the
/// loader do: more instructions than `program_size`, no instructions, no END, or a register of R
/// (an operand, a destination, an input or output mapping) beyond `registers`. The fault's `pc`
/// is the offending instruction (0 for the image as a whole).
pub fn check_image(image: &Image) -> Result<(), CoreFault> {
    use microcode::core::isa::{DstKind, Op, SrcFile};
    let whole = |kind| Err(CoreFault { pc: 0, kind });
    let config = &image.config;
    if image.code.is_empty() {
        return whole(FaultKind::EmptyCode);
    }
    if image.code.len() > usize::from(config.program_size) {
        return whole(FaultKind::ProgramTooLarge {
            instructions: image.code.len(),
            program_size: usize::from(config.program_size),
        });
    }
    if !image.code.iter().any(|i| i.op == Op::End) {
        return whole(FaultKind::MissingEnd);
    }
    let registers = usize::from(config.registers);
    let beyond = |what, reg: usize| FaultKind::RegisterOutOfRange {
        what,
        reg,
        registers,
    };
    for (pc, i) in image.code.iter().enumerate() {
        let mut src = i.value_operands().map(|(_, o)| o);
        if let Some(o) = src.find(|o| o.file == SrcFile::R && usize::from(o.index) >= registers) {
            let kind = beyond("a source", usize::from(o.index));
            return Err(CoreFault { pc, kind });
        }
        if i.op.info().dst == DstKind::Reg && usize::from(i.dst) >= registers {
            let kind = beyond("the destination", usize::from(i.dst));
            return Err(CoreFault { pc, kind });
        }
    }
    for (what, map) in [
        ("the input map", &image.inputs),
        ("the output map", &image.outputs),
    ] {
        if let Some(m) = map.iter().find(|m| usize::from(m.reg) >= registers) {
            return whole(beyond(what, usize::from(m.reg)));
        }
    }
    Ok(())
}

/// The register file R (per register, per lane) and the constant file K a run starts with: zero,
/// then the image's input map applied to `inputs.inputs` and its constant slots filled from image
/// data, `inputs.constants`, `inputs.geometry_inputs` and the sampler descriptors of the bound
/// textures ([`texture_placement`]). Every engine of the core starts here.
pub fn initial_state(image: &Image, inputs: &RunInputs) -> (Vec<[[u32; 4]; LANES]>, Vec<[u32; 4]>) {
    let regs = usize::from(image.config.registers);
    let mut r = vec![[[0u32; 4]; LANES]; regs];
    for m in &image.inputs {
        if let (Some(v), Some(slot)) = (
            inputs.inputs.get(&u32::from(m.tgsi)),
            r.get_mut(usize::from(m.reg)),
        ) {
            *slot = *v;
        }
    }
    let placement = texture_placement(image, inputs);
    let mut k = vec![[0u32; 4]; usize::from(image.config.constants)];
    for c in &image.constants {
        let v = match c.source {
            ConstSource::Data(d) => d,
            ConstSource::Buffer { buffer, index } => inputs.constant(buffer, index),
            ConstSource::Geometry { vertex, index } => inputs
                .geometry_inputs
                .get(&(u32::from(vertex), u32::from(index)))
                .copied()
                .unwrap_or([0; 4]),
            // Part 2 is the sampler's size (TXQ), whatever kind of sampler it is.
            ConstSource::Texture { unit, part: 2 } => inputs
                .textures
                .get(usize::from(unit))
                .and_then(Option::as_ref)
                .map_or([0; 4], |t| t.size()),
            ConstSource::Texture { unit, part } => placement
                .get(usize::from(unit))
                .copied()
                .flatten()
                .map_or([0; 4], |(layout, base)| {
                    texel::descriptor(&layout, base, part)
                }),
        };
        if let Some(slot) = k.get_mut(usize::from(c.k)) {
            *slot = v;
        }
    }
    (r, k)
}

/// Where each texture the image's texel fetches read lives in texture memory: its layout and its
/// first texel, one after another in unit order (other units, and samplers without a layout,
/// take no room). The
/// descriptors of [`initial_state`] and the hardware engines' texture upload both follow it.
pub fn texture_placement(
    image: &Image,
    inputs: &RunInputs,
) -> Vec<Option<(texel::SamplerLayout, u32)>> {
    let used = sampled_units(image);
    let mut next = 0u32;
    inputs
        .textures
        .iter()
        .enumerate()
        .map(|(unit, t)| {
            if !used.contains(&unit) {
                return None;
            }
            let layout = t.as_ref()?.layout()?;
            let base = next;
            next = next.saturating_add(layout.footprint());
            Some((layout, base))
        })
        .collect()
}

/// The sampler units the image's texel fetches (`TFET`) read, in order.
pub fn sampled_units(image: &Image) -> std::collections::BTreeSet<usize> {
    image
        .code
        .iter()
        .filter(|i| i.op == microcode::core::isa::Op::Tfet)
        .map(|i| usize::from(i.target))
        .collect()
}

/// Runs the image on `inputs`.
pub fn run(image: &Image, inputs: &RunInputs) -> Result<RunOutput, CoreFault> {
    check_image(image)?;
    machine::Machine::new(image, inputs).run()
}

/// An image made ready to run many quads: one machine, its constant file K filled once from the
/// batch's constants and textures, its register file reused from quad to quad.
pub struct Prepared<'i> {
    image: &'i Image,
}

impl<'i> Prepared<'i> {
    /// Prepares `image`.
    pub fn new(image: &'i Image) -> Prepared<'i> {
        Prepared { image }
    }

    /// Runs one quad: the same result as [`run`].
    pub fn run(&self, inputs: &RunInputs) -> Result<RunOutput, CoreFault> {
        run(self.image, inputs)
    }

    /// Runs every quad of `quads`, each with its own per-lane inputs (in place of
    /// `base.inputs`) and the constants, textures and budget of `base`. Each result, cycle count
    /// included, equals [`run`] on `base` with that quad's inputs.
    pub fn run_batch(
        &self,
        base: &RunInputs,
        quads: &[QuadInputs],
    ) -> Vec<Result<RunOutput, CoreFault>> {
        // An image the core cannot hold fails every quad, as `run` would.
        if let Err(e) = check_image(self.image) {
            return quads.iter().map(|_| Err(e.clone())).collect();
        }
        let mut machine = machine::Machine::new(self.image, base);
        quads
            .iter()
            .map(|q| {
                machine.reset(q);
                machine.run()
            })
            .collect()
    }

    /// Runs every quad of `inputs` with the constants, textures and budget of `base`
    /// (`base.inputs` is ignored) into `out`, whose buffers are reused: per quad the requested
    /// output registers per lane, the killed lanes and the clock cycles, each equal to [`run`]'s;
    /// warnings and errors only for the quads that have them.
    pub fn run_flat(
        &self,
        base: &RunInputs,
        inputs: &BatchInputs,
        out: &mut BatchOutputs<CoreFault>,
    ) {
        let quads = inputs.quads();
        out.begin(quads, CountUnit::Cycles);
        // An image the core cannot hold fails every quad, as `run` would.
        if let Err(e) = check_image(self.image) {
            for q in 0..quads {
                out.fail(q, e.clone());
            }
            return;
        }
        let mut machine = machine::Machine::new(self.image, base);
        let slots = machine.input_slots(inputs);
        let regs = machine.output_regs(out.registers());
        // Groups of quads run across when the program allows it (the quads of a group that
        // part go on one by one from there).
        let Some(mut across) = machine.across() else {
            for q in 0..quads {
                machine.reset_flat(inputs, q, &slots);
                match machine.execute() {
                    Ok(()) => machine.store_flat(out, q, &regs),
                    Err(e) => out.fail(q, e),
                }
            }
            return;
        };
        for first in (0..quads).step_by(machine::ACROSS_QUADS) {
            let group = first..(first + machine::ACROSS_QUADS).min(quads);
            across.run_group(&mut machine, inputs, group, out, &slots, &regs);
        }
    }
}

/// Runs the first `n` instructions of the image (fewer if it ends first) and returns the whole
/// register file R (per register, per lane) and the address of each executed instruction: the
/// hardware engines compare their registers with it to find the first instruction that differs.
#[allow(clippy::type_complexity)]
pub fn run_prefix(
    image: &Image,
    inputs: &RunInputs,
    n: u64,
) -> Result<(Vec<[[u32; 4]; LANES]>, Vec<usize>), CoreFault> {
    check_image(image)?;
    machine::Machine::new(image, inputs).run_prefix(n)
}

/// Runs the image and hands every executed instruction's trace line to `trace`.
pub fn run_traced(
    image: &Image,
    inputs: &RunInputs,
    trace: &mut dyn FnMut(&str),
) -> Result<RunOutput, CoreFault> {
    check_image(image)?;
    machine::Machine::new(image, inputs).run_traced(trace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use microcode::core::isa::{Instr, Op, Operand};
    use microcode::core::CoreConfig;

    fn image(code: Vec<Instr>) -> Image {
        Image {
            config: CoreConfig::default(),
            processor: 0,
            origin: vec![0; code.len()],
            code,
            constants: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }

    fn instr(op: Op) -> Instr {
        Instr::new(op)
    }

    /// Issue #20 item 6: images the core cannot hold are refused before they run.
    #[test]
    fn images_the_core_cannot_hold_are_refused() {
        let kind = |img: &Image| run(img, &RunInputs::default()).unwrap_err().kind;
        assert_eq!(kind(&image(Vec::new())), FaultKind::EmptyCode);
        assert_eq!(kind(&image(vec![instr(Op::Mov)])), FaultKind::MissingEnd);
        let size = usize::from(CoreConfig::default().program_size);
        let mut big = vec![instr(Op::Mov); size];
        big.push(instr(Op::End));
        assert_eq!(
            kind(&image(big)),
            FaultKind::ProgramTooLarge {
                instructions: size + 1,
                program_size: size
            }
        );
        let mut small = image(vec![instr(Op::Mov), instr(Op::End)]);
        small.config.registers = 16;
        small.code[0].src[0] = Operand {
            file: microcode::core::isa::SrcFile::R,
            index: 63,
            ..Operand::default()
        };
        let f = run(&small, &RunInputs::default()).unwrap_err();
        assert_eq!(f.pc, 0);
        assert_eq!(
            f.kind,
            FaultKind::RegisterOutOfRange {
                what: "a source",
                reg: 63,
                registers: 16
            }
        );
        small.code[0].src[0].index = 1;
        small.code[0].dst = 16;
        assert!(matches!(
            kind(&small),
            FaultKind::RegisterOutOfRange { reg: 16, .. }
        ));
        small.code[0].dst = 15;
        assert!(run(&small, &RunInputs::default()).is_ok());
    }
}
