//! TGSI -> core compiler: a validated [`Program`] becomes an [`Image`] for a [`CoreConfig`], plus a
//! listing that maps every core instruction to the TGSI instruction it came from.
//!
//! - `alloc`: register files onto the core's memories (TEMP, IN, OUT and per-instruction scratch
//!   onto R; CONST, IMM, IMMX onto K).
//! - `operand`: TGSI source operands (swizzle, EXT_SWZ, negate, EXT_MOD, ExtDivide) to core operands,
//!   with short FMAD / DIV sequences into scratch for the modifiers the read path cannot do.
//! - `div`: division without the divider (DIV, RCP, RCC, TXP, CUBE, RFL, ExtDivide, MOD) as
//!   sequences of the units every build has, and the unpack opcodes' constant divisors.
//! - `lower`: one function per opcode family (`int`: integer opcodes; `imul`: integer
//!   multiplication as exact multiply-add sequences; `texture`: sampling on the texture unit);
//!   `flow`: structured control
//!   flow to mask-stack instructions with patched targets; `cc`: condition codes on predicates and
//!   shadow registers, relative destinations and BRA, wrapped around `lower`.
//!
//! Anything not lowered gives [`CompileError::Unsupported`] naming the opcode and instruction index;
//! a program over a limit of the config gives [`CompileError::Limit`] naming the limit and by how
//! much.

mod alloc;
mod binary64;
mod condition_codes;
mod depth;
mod div;
mod double;
mod flow;
mod imul;
mod int;
mod lower;
mod operand;
pub mod render_program;
mod texture;
mod trans;

/// Registers of R the binary64 library takes in a program with double arithmetic.
pub const LIBRARY_REGISTERS: usize = binary64::REGISTERS;

use crate::core::image::Image;
use crate::core::isa::{DstKind, Instr, Op, Operand, SrcFile, Unit};
use crate::core::CoreConfig;
use crate::tgsi::{text, Opcode, Program};
use std::fmt::Write;
use thiserror::Error;

/// Why a program could not be compiled. Every variant about an instruction names its index in
/// [`Program::instructions`] and its opcode; those about one operand name the operand.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// An instruction, or one of its operands, that the core compiler does not lower.
    #[error("instruction {index} ({opcode}){}: not supported by the core compiler yet: {detail}", operand_text(.operand))]
    Unsupported {
        /// The instruction's opcode.
        opcode: Opcode,
        /// The instruction's index in [`Program::instructions`].
        index: usize,
        /// The operand at fault, when one is.
        operand: Option<OperandRef>,
        /// What is not supported, in TGSI's words.
        detail: String,
    },
    /// The program needs more of something than the core configuration has.
    #[error("{limit}: the program needs {needed}, the core has {available} (over by {})", .needed - .available)]
    Limit {
        /// What ran out, with the files it counts: `registers per lane (R: TEMP, IN, OUT)`,
        /// `program size (core instructions)`, `constant file (K vec4: CONST, IMM, IMMX)`, ...
        limit: &'static str,
        /// How many the program needs.
        needed: usize,
        /// How many the configuration has.
        available: usize,
    },
    /// A declaration the compiler cannot map onto the core's register files.
    #[error("declaration {index} ({file}): a 2-D declaration of this file is not supported by the core compiler yet")]
    Declaration2D {
        /// The declaration's index in [`Program::declarations`].
        index: usize,
        /// The declaration's register file.
        file: crate::tgsi::File,
    },
    /// A call that re-enters the subroutine it is in (the validator refuses these first).
    #[error("instruction {index} ({opcode}): recursive call into the subroutine at instruction {target}")]
    Recursion {
        /// The calling instruction's index in [`Program::instructions`].
        index: usize,
        /// CAL or CALLNZ.
        opcode: Opcode,
        /// The subroutine's first instruction.
        target: usize,
    },
    /// A lowering needs a constant that the configuration's literal set lacks.
    #[error("instruction {index} ({opcode}): the core's literal set lacks {bits:#010x}, which its lowering needs")]
    MissingLiteral {
        /// The instruction's index in [`Program::instructions`].
        index: usize,
        /// The instruction's opcode.
        opcode: Opcode,
        /// The binary32 bits of the constant the lowering needs (`CoreConfig::literals`).
        bits: u32,
    },
    /// A token stream of a newer minor version: loaded, not executable (the 004 document).
    #[error("the program is of a newer token version and is not executable")]
    NotExecutable,
    /// A structure the validator would have refused (an ELSE without IF, a label that is no
    /// instruction): the program was compiled without being validated.
    #[error("instruction {index} ({opcode}): {what} (the program was not validated?)")]
    Structure {
        /// The instruction's index in [`Program::instructions`].
        index: usize,
        /// The instruction's opcode.
        opcode: Opcode,
        /// What is wrong with the structure.
        what: String,
    },
    /// An invariant of the compiler itself broke; a bug to report.
    #[error("instruction {index} ({opcode}): internal compiler error: {what}; please report it")]
    Internal {
        /// The index of the instruction being lowered when it broke.
        index: usize,
        /// Its opcode.
        opcode: Opcode,
        /// Which invariant broke.
        what: String,
    },
}

/// One operand of a TGSI instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandRef {
    /// Destination `n` (`dst[n]`).
    Dst(usize),
    /// Source `n` (`src[n]`).
    Src(usize),
}

impl std::fmt::Display for OperandRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OperandRef::Dst(n) => write!(f, "dst {n}"),
            OperandRef::Src(n) => write!(f, "src {n}"),
        }
    }
}

fn operand_text(o: &Option<OperandRef>) -> String {
    o.map_or(String::new(), |o| format!(", {o}"))
}

/// The result of a compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The image a loader writes to the core (and `tgsi-core compile` saves); its `origin`
    /// column ties each core instruction to its TGSI instruction for [`Compiled::listing`].
    pub image: Image,
}

impl Compiled {
    /// The listing: every TGSI instruction followed by the core instructions it became.
    pub fn listing(&self, program: &Program) -> String {
        let printed = text::print(program);
        let mut tgsi: Vec<String> = vec![String::new(); program.instructions.len()];
        for line in printed.lines() {
            let t = line.trim_start();
            if let Some((n, rest)) = t.split_once(':') {
                if let Ok(n) = n.parse::<usize>() {
                    if let Some(slot) = tgsi.get_mut(n) {
                        *slot = rest.trim().to_string();
                    }
                }
            }
        }
        let mut out = String::new();
        let mut last = None;
        for (pc, i) in self.image.code.iter().enumerate() {
            let o = self.image.origin.get(pc).copied().map(usize::from);
            if o != last {
                if let Some(o) = o {
                    if o == usize::from(crate::core::image::LIBRARY_ORIGIN) {
                        let _ =
                            writeln!(out, "; binary64 library (compiler-generated subroutines)");
                    } else if o == usize::from(crate::core::image::DIVISION_ORIGIN) {
                        let _ = writeln!(out, "; division (a compiler-generated subroutine)");
                    } else {
                        let t = tgsi.get(o).map_or("", |s| s.as_str());
                        let _ = writeln!(out, "; tgsi {o}: {t}");
                    }
                }
                last = o;
            }
            let cyc = i.op.info().cycles(i.wmask);
            let _ = writeln!(
                out,
                "{pc:4}: {:<52} ; {cyc} clk",
                crate::core::disasm::instr_text(i)
            );
        }
        out
    }
}

/// Compiles a validated program for `config`.
///
/// Double arithmetic becomes calls of the binary64 library (`binary64`), which runs on the
/// hardware; a program that cannot hold the library (its registers or its instructions beside
/// the program's own) gets the model-only DOP instead, which only the core model executes.
/// Likewise on a build without the divider: a program whose division sequences (`div`) do not
/// fit its instructions keeps the divider's operations, which such a build faults on (naming
/// the divider) and the core model runs.
pub fn compile(program: &Program, config: &CoreConfig) -> Result<Compiled, CompileError> {
    use div::DivMode;
    let libraries: &[bool] = if double::uses_library(program) {
        &[true, false]
    } else {
        &[true]
    };
    let modes: &[DivMode] = if config.has(crate::core::config::Features::DIVIDER) {
        &[DivMode::Inline]
    } else {
        &[DivMode::Inline, DivMode::Routine, DivMode::Divider]
    };
    let mut last = None;
    for &library in libraries {
        for &mode in modes {
            match compile_with(program, config, library, mode) {
                Err(e @ CompileError::Limit { .. }) => last = Some(e),
                r => return r,
            }
        }
    }
    // Every combination of `libraries` and `modes` was tried and each ended at a limit.
    Err(last.unwrap_or(CompileError::Limit {
        limit: "no compilation was tried",
        needed: 1,
        available: 0,
    }))
}

fn compile_with(
    program: &Program,
    config: &CoreConfig,
    library: bool,
    div_mode: div::DivMode,
) -> Result<Compiled, CompileError> {
    if !program.executable {
        return Err(CompileError::NotExecutable);
    }
    let mut alloc = alloc::Alloc::new(program, config)?;
    let rep_base = alloc.fixed_registers;
    alloc.fixed_registers += flow::rep_count(program);
    let cc_base = condition_codes::uses_cc(program).then(|| {
        let b = alloc.fixed_registers.min(254) as u8;
        alloc.fixed_registers += 2;
        b
    });
    // The binary64 library's registers: reserved when the program has double arithmetic and
    // can spare them, else DOP stands in (as it does, by the retry in `compile`, when the
    // program's own scratch or instructions then do not fit).
    let mut dlib = binary64::Lib::default();
    if library
        && double::uses_library(program)
        && alloc.fixed_registers + binary64::REGISTERS <= usize::from(config.registers)
    {
        dlib.base = Some(alloc.fixed_registers.min(255) as u8);
        alloc.fixed_registers += binary64::REGISTERS;
    }
    // The shared division routine's registers (the retry after inline division sequences).
    let mut div_routine = div::DivRoutine::default();
    let div_mode = match div_mode {
        div::DivMode::Routine
            if alloc.fixed_registers + div::ROUTINE_REGISTERS <= usize::from(config.registers) =>
        {
            div_routine.base = Some(alloc.fixed_registers.min(255) as u8);
            alloc.fixed_registers += div::ROUTINE_REGISTERS;
            div::DivMode::Routine
        }
        div::DivMode::Routine => div::DivMode::Divider,
        m => m,
    };
    let mut c = Ctx {
        program,
        config,
        alloc,
        code: Vec::new(),
        origin: Vec::new(),
        index: 0,
        opcode: Opcode::Nop,
        scratch_used: 0,
        scratch_max: 0,
        flow: flow::FlowState::default(),
        rep_base,
        cc_base,
        redirect: None,
        dlib,
        div_mode,
        div_routine,
    };
    let mut starts = Vec::with_capacity(program.instructions.len());
    for (index, inst) in program.instructions.iter().enumerate() {
        c.index = index;
        c.opcode = inst.opcode;
        c.scratch_used = 0;
        starts.push(c.code.len());
        condition_codes::instruction(&mut c, inst)?;
    }
    c.patch_calls(&starts)?;
    if c.code.last().map(|i| i.op) != Some(Op::End) {
        c.emit(Instr::new(Op::End));
    }
    c.dlib_emit()?;
    c.div_routine_emit()?;
    // The compiler's subroutines are called from the program, never from each other.
    let lib_depth = if c.dlib.base.is_some() {
        binary64::DEPTH
    } else {
        0
    }
    .max(c.div_routine.depth());
    let regs = c.alloc.fixed_registers + c.scratch_max;
    check_limit(
        "registers per lane (R)",
        regs,
        usize::from(config.registers),
    )?;
    let indexable = 1usize << crate::core::isa::INDEX_BITS;
    check_limit("registers addressable by the dst field", regs, indexable)?;
    check_limit(
        "program size (core instructions)",
        c.code.len(),
        usize::from(config.program_size),
    )?;
    check_limit(
        "branch target field",
        c.code.len(),
        1 << crate::core::isa::TARGET_BITS,
    )?;
    let (mask_depth, call_depth) = depth::depths(program)?;
    check_limit(
        "mask stack depth (nested IF, loops and calls)",
        mask_depth.max(c.flow.max_depth) + lib_depth,
        usize::from(config.mask_stack_depth),
    )?;
    check_limit(
        "call stack depth (nested CAL)",
        call_depth + lib_depth,
        usize::from(config.call_stack_depth),
    )?;
    check_limit(
        "constant file (K vec4: CONST, IMM, IMMX, compiler constants)",
        c.alloc.constants.len(),
        usize::from(config.constants),
    )?;
    check_limit(
        "constants addressable by the index field",
        c.alloc.constants.len(),
        indexable,
    )?;
    let image = Image {
        config: config.clone(),
        processor: program.processor as u8,
        code: c.code,
        constants: c.alloc.constants.clone(),
        inputs: c.alloc.inputs.clone(),
        outputs: c.alloc.outputs.clone(),
        origin: c.origin,
    };
    Ok(Compiled { image })
}

fn check_limit(limit: &'static str, needed: usize, available: usize) -> Result<(), CompileError> {
    if needed > available {
        Err(CompileError::Limit {
            limit,
            needed,
            available,
        })
    } else {
        Ok(())
    }
}

/// Compiler state shared by the lowering functions.
pub(crate) struct Ctx<'a> {
    program: &'a Program,
    config: &'a CoreConfig,
    alloc: alloc::Alloc,
    code: Vec<Instr>,
    origin: Vec<u16>,
    /// TGSI instruction being lowered.
    index: usize,
    opcode: Opcode,
    scratch_used: usize,
    scratch_max: usize,
    flow: flow::FlowState,
    /// First of the registers reserved for REP counters (one per REP block).
    rep_base: usize,
    /// First of the two condition-code shadow registers, when the program uses condition codes.
    cc_base: Option<u8>,
    /// Write the current instruction's result here instead of its destination.
    redirect: Option<u8>,
    /// The binary64 library (`binary64`).
    dlib: binary64::Lib,
    /// How divisions are compiled on a build without the divider (`div`).
    div_mode: div::DivMode,
    /// The shared division routine (`div`), in [`div::DivMode::Routine`].
    div_routine: div::DivRoutine,
}

impl Ctx<'_> {
    /// Appends a core instruction; returns its address.
    fn emit(&mut self, i: Instr) -> usize {
        // The registers the rules below borrow hold a value only until the instruction has
        // read it, so they are free again for the rest of the sequence.
        let mark = self.scratch_used;
        let at = self.emit_obeying_rules(i);
        self.scratch_used = mark;
        at
    }

    fn emit_obeying_rules(&mut self, mut i: Instr) -> usize {
        // The constant rule (one K vector view per instruction, `Instr::breaks_constant_rule`;
        // the model-only operations never reach the hardware and are left alone).
        if i.breaks_constant_rule() && !matches!(i.op.info().unit, Unit::Double | Unit::Div) {
            // A multiply-add whose addend is one K view and whose product reads another is a
            // multiply into the destination and an add of the addend: FMAD rounds twice anyway,
            // so the bits are the same, and no register is needed.
            let k_view = |o: &Operand| (o.file == SrcFile::K).then_some((o.index, o.swz));
            let c = k_view(&i.src[2]);
            let product_k = [k_view(&i.src[0]), k_view(&i.src[1])];
            if i.op == Op::Fmad && c.is_some() && product_k.iter().any(|v| v.is_some() && *v != c) {
                if let (Ok(one), Ok(minus_zero)) =
                    (self.lit(operand::ONE, false), self.lit(operand::ZERO, true))
                {
                    let mut mul = i;
                    mul.src[2] = minus_zero;
                    mul.sat = 0;
                    self.emit(mul);
                    let mut add = i;
                    add.src[0] = Ctx::reg(i.dst);
                    add.src[1] = one;
                    return self.emit(add);
                }
            }
            // Otherwise the first K view stays and every other one is moved into a register
            // (the whole vector, bits kept) and read from there with its own swizzle and
            // modifiers: into the destination when the instruction writes all of it
            // unpredicated and reads it nowhere (no register borrowed), else into scratch.
            let mut spare = (i.op.info().dst == DstKind::Reg
                && i.wmask == 0xF
                && i.pw == 0
                && !i
                    .value_operands()
                    .any(|(_, o)| o.file == SrcFile::R && o.index == i.dst))
            .then_some(i.dst);
            let mut first = None;
            let reads: Vec<usize> = i.value_operands().map(|(k, _)| k).collect();
            for k in reads {
                let Some(view) = k_view(&i.src[k]) else {
                    continue;
                };
                match first {
                    None => first = Some(view),
                    Some(v) if v == view => {}
                    Some(_) => {
                        let t = match spare.take() {
                            Some(d) => d,
                            None => self.scratch(),
                        };
                        let mut m = Instr::new(Op::Mov);
                        m.dst = t;
                        m.src[0] = Operand {
                            file: SrcFile::K,
                            index: view.0,
                            ..Operand::default()
                        };
                        self.push(m);
                        i.src[k].file = SrcFile::R;
                        i.src[k].index = t;
                    }
                }
            }
        }
        // The divider issues a lane's components one after another, each reading its operands
        // when it issues, so it must not write a register it reads (ISA rule): compute into
        // scratch and move (the move keeps the bits and takes over the predicated write).
        if i.breaks_divider_rule() {
            let t = self.scratch();
            let mut d = i;
            d.dst = t;
            d.pw = 0;
            self.push(d);
            let mut m = Instr::new(Op::Mov);
            m.dst = i.dst;
            m.wmask = i.wmask;
            m.pw = i.pw;
            m.src[0] = Operand {
                file: SrcFile::R,
                index: t,
                ..Operand::default()
            };
            return self.push(m);
        }
        self.push(i)
    }

    fn push(&mut self, i: Instr) -> usize {
        self.code.push(i);
        // Program sizes are checked against the config at the end; the origin saturates meanwhile.
        self.origin
            .push(u16::try_from(self.index).unwrap_or(u16::MAX));
        self.code.len() - 1
    }

    /// A fresh scratch register of R for the current TGSI instruction.
    fn scratch(&mut self) -> u8 {
        let r = self.alloc.fixed_registers + self.scratch_used;
        self.scratch_used += 1;
        self.scratch_max = self.scratch_max.max(self.scratch_used);
        // Beyond 255 the registers limit fails at the end of compilation.
        r.min(255) as u8
    }

    /// Whether `n` more scratch registers fit the registers the program leaves free: sequences
    /// that would not fit fall back to a model-only operation instead of failing to compile.
    fn scratch_fits(&self, n: usize) -> bool {
        self.alloc.fixed_registers + self.scratch_used + n <= usize::from(self.config.registers)
    }

    /// The current instruction is not supported: `detail` says what of it.
    fn unsupported(&self, detail: impl Into<String>) -> CompileError {
        self.unsupported_at(None, detail)
    }

    fn unsupported_at(
        &self,
        operand: Option<OperandRef>,
        detail: impl Into<String>,
    ) -> CompileError {
        CompileError::Unsupported {
            opcode: self.opcode,
            index: self.index,
            operand,
            detail: detail.into(),
        }
    }

    /// Source `k` of the current instruction is not supported.
    fn unsupported_src(&self, k: usize, detail: impl Into<String>) -> CompileError {
        self.unsupported_at(Some(OperandRef::Src(k)), detail)
    }

    /// `e` with the operand at fault set to `operand`, unless it names one already.
    fn blame(&self, e: CompileError, operand: OperandRef) -> CompileError {
        match e {
            CompileError::Unsupported {
                opcode,
                index,
                operand: None,
                detail,
            } => CompileError::Unsupported {
                opcode,
                index,
                operand: Some(operand),
                detail,
            },
            e => e,
        }
    }

    /// `e` blamed on source `s` of the current instruction, found by identity (the lowering
    /// of an operand is handed the operand, not its position).
    fn blame_src(&self, e: CompileError, s: &crate::tgsi::SrcOperand) -> CompileError {
        let k = self.program.instructions.get(self.index).and_then(|i| {
            i.src
                .iter()
                .position(|x| std::ptr::eq(x, s))
                .or_else(|| i.src.iter().position(|x| x == s))
        });
        match k {
            Some(k) => self.blame(e, OperandRef::Src(k)),
            None => e,
        }
    }

    /// The destination of the current instruction is not supported.
    fn unsupported_dst(&self, detail: impl Into<String>) -> CompileError {
        self.unsupported_at(Some(OperandRef::Dst(0)), detail)
    }

    /// The opcode table sent the current opcode to `routine`, which has no case for it.
    fn not_lowered_by(&self, routine: &str) -> CompileError {
        self.internal(format!(
            "the opcode table sends it to {routine}, which has no case for it"
        ))
    }

    /// An invariant of the compiler broke at the current instruction.
    fn internal(&self, what: impl Into<String>) -> CompileError {
        CompileError::Internal {
            index: self.index,
            opcode: self.opcode,
            what: what.into(),
        }
    }
}
