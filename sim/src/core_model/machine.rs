//! The core model's machine: state and the per-instruction step, for every run (`run`,
//! `run_batch`, `run_flat`, `run_traced`, `run_prefix`). It evaluates only the components an
//! instruction writes (its write mask, and the predicate of a predicated write), each in the
//! quad's four lanes at once: the core's sequences (transcendental steps, dot products, texel
//! addressing) are mostly one-component instructions. Cycle counts come from the ISA's timing
//! table (`isa::Timing`). [`wide`] runs groups of quads across.

use super::{CoreFault, FaultKind, ENGINE};
use crate::run_io::batch::{BatchInputs, BatchOutputs};
use crate::run_io::{LaneOutput, QuadInputs, RunInputs, RunOutput, Vertex, LANES};
use microcode::arith;
use microcode::arith::texel;
use microcode::core::disasm::instr_text;
use microcode::core::eval::{component, component_lanes, cond, reads_predicate};
use microcode::core::isa::{
    Cond, DstKind, Instr, Op, Operand, SrcFile, StepTiming, Unit, SWZ_ONE, SWZ_ZERO,
};
use microcode::core::Image;

const SIGN: u32 = 0x8000_0000;
const ONE: u32 = 0x3F80_0000;
type Mask = [bool; LANES];
/// One component of a register in each lane.
type Lanes = [u32; LANES];

/// A register of R: per component, its value in each lane. Component-major, so that one
/// component of an instruction is one operation on a quad's four lanes ([`component_lanes`]),
/// which the compiler's sequences (one component at a time) spend their time in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Reg([Lanes; 4]);

impl Reg {
    /// The register from its value in each lane (the layout of the run's inputs and outputs).
    fn from_lanes(v: &[[u32; 4]; LANES]) -> Reg {
        Reg(std::array::from_fn(|c| std::array::from_fn(|l| v[l][c])))
    }

    /// The register's value in lane `l`.
    fn lane(&self, l: usize) -> [u32; 4] {
        std::array::from_fn(|c| self.0[c][l])
    }

    /// The register's value in each lane.
    fn lanes(&self) -> [[u32; 4]; LANES] {
        std::array::from_fn(|l| self.lane(l))
    }
}

#[derive(Clone)]
enum Frame {
    If { entry: Mask, cond: Mask },
    Loop { entry: Mask, live: Mask },
    Call { entry: Mask, live: Mask, ret: usize },
}

pub(super) struct Machine<'a> {
    img: &'a Image,
    inputs: &'a RunInputs,
    budget: u64,
    r: Vec<Reg>,
    k: Vec<[u32; 4]>,
    p: [[bool; 4]; LANES],
    e: Mask,
    killed: Mask,
    /// Lanes that have not executed RET in the main program.
    main_live: Mask,
    stack: Vec<Frame>,
    /// PUSHA / POPA stacks, per lane.
    addr_stack: [Vec<[u32; 4]>; LANES],
    /// Geometry programs: the vertices each lane emitted.
    vertices: [Vec<Vertex>; LANES],
    timing: microcode::core::isa::Timing,
    count: u64,
    /// Input map entries that fit the register file: (TGSI input, register).
    input_map: Vec<(u32, usize)>,
    /// The image's instructions decoded once ([`Decoded`]), by address.
    code: Vec<Decoded>,
    /// The registers of R a run can make nonzero (the input map's, every destination, MOVW's
    /// ranges), those [`Machine::reset`] clears: every other register stays zero.
    dirty: Vec<usize>,
}

/// One component of an operand resolved once per machine: its value in a lane is
/// `(R[reg][lane][comp] & and) ^ xor`. The constant file K and the literals do not change during
/// a run, so their components (and the ZERO and ONE selectors, an operand the operation does not
/// read, a register beyond R) are constants: `and` 0 and the value in `xor`. A register's
/// component carries its swizzle selector in `comp`, abs in `and` (the sign cleared) and neg in
/// `xor` (the sign flipped).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Comp {
    reg: usize,
    comp: usize,
    and: u32,
    xor: u32,
}

impl Comp {
    fn constant(v: u32) -> Comp {
        Comp {
            reg: 0,
            comp: 0,
            and: 0,
            xor: v,
        }
    }
}

/// An operand's four components.
type Src = [Comp; 4];

/// How the machine executes an instruction.
#[derive(Clone, Copy)]
enum Exec {
    /// A component-wise operation of [`component`] on the decoded operands.
    Alu(Op),
    /// SETP on the decoded operands.
    Setp,
    /// Flow control: [`Machine::flow`] on the image's instruction.
    Flow,
    /// Everything else (texture, relative moves, derivatives, doubles, the address stack, an
    /// operation whose unit the core lacks): [`Machine::step`] on the image's instruction.
    Other,
}

/// One instruction decoded when the machine is made, so that a run does not look up its ISA
/// row, operand files, swizzles and timing again per execution, lane and component.
#[derive(Clone, Copy)]
struct Decoded {
    exec: Exec,
    cond: Cond,
    dst: usize,
    wmask: u8,
    pw: u8,
    sat: u8,
    src: [Src; 3],
    /// The component written, when it is one component written in every active lane (no
    /// predicated write).
    single: Option<usize>,
    /// The components written in every active lane, one after another, when that is the same
    /// as computing them all first: no predicated write, and no operand reads the destination.
    direct: Option<u8>,
    /// Every written component has the same result: the operands' components are the same
    /// (TGSI's scalar operations replicate one value) and the operation does not read the
    /// predicates, so the value is computed once.
    broadcast: bool,
    timing: StepTiming,
    /// The compiler sequence ([`Fused`]) that starts here, when the instructions from here on
    /// are one: [`Machine::run_fused`] runs them at once.
    fused: Option<Fused>,
}

/// Declares the fused sequences: each name with its operations, in the order the compiler
/// emits them (`microcode/src/compile/trans.rs`). From the one list come [`Fused::ops`] (what
/// [`Machine::new`] recognises) and [`Machine::run_fused`] (each operation's lane loop with its
/// arithmetic inlined, one after another).
macro_rules! fused_sequences {
    ($($(#[$doc:meta])* $name:ident: [$($op:ident),* $(,)?];)*) => {
        /// A straight-line run of component-wise instructions that the compiler emits as one
        /// sequence (a transcendental function's steps). [`Machine::run_fused`] executes its
        /// instructions in order, each as [`Machine::alu_decoded`] would, without the
        /// per-instruction budget check, trace, dispatch on the execution kind and on the
        /// operation (the operations are known where the sequence's code is made). None of them
        /// changes the execution mask, the predicates or the lanes' liveness, so nothing between
        /// them needs looking at. Only the operations are matched: any operands, destinations,
        /// write masks, predicated writes and saturates. (Measured, 2026-11-27: RSQ and EX2 gain;
        /// the SIN / COS sequence lost in rings, so it is not fused.)
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Fused {
            $($(#[$doc])* $name,)*
        }

        impl Fused {
            /// Every sequence, the longest first (a sequence that starts another one wins).
            const ALL: &'static [Fused] = &[$(Fused::$name),*];

            /// The sequence's operations, in order.
            fn ops(self) -> &'static [Op] {
                match self {
                    $(Fused::$name => &[$(Op::$op),*],)*
                }
            }
        }

        impl Machine<'_> {
            /// Executes the fused sequence `kind`, decoded as `ds` (its instructions, in order),
            /// in the active lanes. The caller counts the instructions and their clocks.
            fn run_fused(&mut self, kind: Fused, ds: &[Decoded]) {
                match kind {
                    $(Fused::$name => {
                        let mut ds = ds.iter();
                        $(
                            if let Some(d) = ds.next() {
                                self.alu_known(d, Op::$op);
                            }
                        )*
                    })*
                }
            }
        }
    };
}

fused_sequences! {
    /// RSQ (and the square roots built on it).
    Rsq: [Rsqr, Rsqt, U2f, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Rsqf];
    /// EX2 (and POW's exponential).
    Ex2: [Fmad, F2ir, I2f, Fmad, Fmad, Fmad, Fmad, Ex2t, Fmad, Ex2f];
}

/// `$body` with `$o` the operation `$op`, a constant in the arm of each operation listed here
/// (the component-wise operations the compiler emits most), so that each of them gets its own
/// copy of `$body` with its arithmetic inlined; any other operation shares one copy.
macro_rules! by_op {
    ($op:expr, $o:ident => $body:expr) => {
        by_op!(@each $op, $o => $body;
            Mov, Fmad, Min, Max, Set, Sel, Flr, Ceil, Trnc, Rnde, Expx, Expn, Mant, F2if, F2ir,
            I2f, U2f, Rsqr, Rsqt, Rsqf, Ex2t, Ex2f, Lg2m, Lg2h, Lg2e, Lg2i, Lg2a, Lg2b, Lg2f, Scq,
            Scf, Tidx, Tidxf, Tfrc, Tsel, Tor, Iadd, And, Or)
    };
    (@each $op:expr, $o:ident => $body:expr; $($name:ident),*) => {
        match $op {
            $(Op::$name => {
                const $o: Op = Op::$name;
                $body
            })*
            other => {
                #[allow(non_snake_case)]
                let $o = other;
                $body
            }
        }
    };
}

mod wide;
pub use wide::QUADS as ACROSS_QUADS;

fn any(m: Mask) -> bool {
    m.iter().any(|&x| x)
}

fn and_not(a: Mask, b: Mask) -> Mask {
    std::array::from_fn(|l| a[l] && !b[l])
}

/// The destination stage's saturate: 0 none, 1 [0, 1], 2 [-1, 1].
#[inline(always)]
fn saturate(sat: u8, v: u32) -> u32 {
    match sat {
        1 => arith::fsat01(v),
        2 => arith::fsat11(v),
        _ => v,
    }
}

impl<'a> Machine<'a> {
    pub fn new(img: &'a Image, inputs: &'a RunInputs) -> Machine<'a> {
        let (r, k) = super::initial_state(img, inputs);
        let mut m = Machine {
            img,
            inputs,
            budget: inputs.budget,
            r: r.iter().map(Reg::from_lanes).collect(),
            k,
            p: [[false; 4]; LANES],
            e: [true; LANES],
            killed: [false; LANES],
            main_live: [true; LANES],
            stack: Vec::new(),
            vertices: Default::default(),
            addr_stack: Default::default(),
            timing: Default::default(),
            count: 0,
            input_map: img
                .inputs
                .iter()
                .map(|m| (u32::from(m.tgsi), usize::from(m.reg)))
                .filter(|&(_, reg)| reg < usize::from(img.config.registers))
                .collect(),
            code: Vec::new(),
            dirty: Vec::new(),
        };
        let mut code: Vec<Decoded> = img.code.iter().map(|i| m.decode(i)).collect();
        for pc in 0..code.len() {
            code[pc].fused = Machine::fused_at(&code, pc);
        }
        m.code = code;
        m.dirty = m.dirty_registers();
        m
    }

    /// A machine for the flow instructions of one quad of a group run across
    /// ([`wide::Across`]): their state (predicates, masks, stacks, kills) without a register
    /// file, constants or decoded code, which the group keeps for all its quads.
    fn control_only(img: &'a Image, inputs: &'a RunInputs) -> Machine<'a> {
        Machine {
            img,
            inputs,
            budget: inputs.budget,
            r: Vec::new(),
            k: Vec::new(),
            p: [[false; 4]; LANES],
            e: [true; LANES],
            killed: [false; LANES],
            main_live: [true; LANES],
            stack: Vec::new(),
            vertices: Default::default(),
            addr_stack: Default::default(),
            timing: Default::default(),
            count: 0,
            input_map: Vec::new(),
            code: Vec::new(),
            dirty: Vec::new(),
        }
    }

    /// Takes over a quad of a group run across ([`wide::Across`]) where its quads parted: the
    /// control state of its machine `control`, and its registers (`value(register, component,
    /// lane)`).
    fn take_over(&mut self, control: &Machine, value: impl Fn(usize, usize, usize) -> u32) {
        for (reg, r) in self.r.iter_mut().enumerate() {
            *r = Reg(std::array::from_fn(|c| {
                std::array::from_fn(|l| value(reg, c, l))
            }));
        }
        self.p = control.p;
        self.e = control.e;
        self.killed = control.killed;
        self.main_live = control.main_live;
        self.stack.clone_from(&control.stack);
        for l in 0..LANES {
            self.addr_stack[l].clear();
            self.vertices[l].clear();
        }
    }

    /// See [`Machine::dirty`]: every register of R the run's start or an instruction may write.
    fn dirty_registers(&self) -> Vec<usize> {
        let mut dirty = vec![false; self.r.len()];
        for &(_, reg) in &self.input_map {
            dirty[reg] = true;
        }
        for i in &self.img.code {
            if i.op.info().dst != DstKind::Reg {
                continue;
            }
            let first = usize::from(i.dst);
            // MOVW writes R[dst + k] for 0 <= k <= C.index.
            let last = if i.op == Op::Movw {
                first + usize::from(i.src[2].index)
            } else {
                first
            };
            for d in dirty.iter_mut().take(last + 1).skip(first) {
                *d = true;
            }
        }
        (0..dirty.len()).filter(|&r| dirty[r]).collect()
    }

    /// Resolves `o` for [`Decoded`]: what [`Machine::read`] gives in every lane.
    fn decode_src(&self, o: &Operand) -> Src {
        let reg = usize::from(o.index);
        if o.file != SrcFile::R || reg >= self.r.len() {
            // The same in every lane: lane 0's value.
            return self.read(o, 0).map(Comp::constant);
        }
        let and = if o.abs { !SIGN } else { !0 };
        std::array::from_fn(|c| {
            let neg = u32::from((o.neg >> c) & 1) << 31;
            match o.swz[c] {
                s @ 0..=3 => Comp {
                    reg,
                    comp: usize::from(s),
                    and,
                    xor: neg,
                },
                SWZ_ONE => Comp::constant((ONE & and) ^ neg),
                // ZERO, and selectors beyond ONE, read 0.
                _ => Comp::constant(neg),
            }
        })
    }

    fn decode(&self, i: &Instr) -> Decoded {
        let info = i.op.info();
        let need = info.unit.feature();
        let available = need == 0 || self.img.config.has(need);
        let exec = match i.op {
            _ if !available => Exec::Other,
            _ if info.unit == Unit::Flow => Exec::Flow,
            Op::Pusha | Op::Popa | Op::Tfet | Op::Txq | Op::Tex | Op::Txf | Op::Dop => Exec::Other,
            Op::Movr | Op::Movw | Op::Ddx | Op::Ddy => Exec::Other,
            _ if info.dst == DstKind::Pred => Exec::Setp,
            op => Exec::Alu(op),
        };
        // Operands the operation does not read (its ISA row's source count) stay zero.
        let sources = usize::from(info.sources);
        let src = std::array::from_fn(|n| {
            if n < sources.max(1) {
                self.decode_src(&i.src[n])
            } else {
                [Comp::constant(0); 4]
            }
        });
        let written = || (0..4).filter(|c| i.wmask & (1 << c) != 0);
        let broadcast = !reads_predicate(i.op)
            && written().all(|c| written().all(|c2| src.iter().all(|s: &Src| s[c] == s[c2])));
        let dst = usize::from(i.dst);
        let aliased = src
            .iter()
            .any(|s| s.iter().any(|comp| comp.and != 0 && comp.reg == dst));
        let direct = (!matches!(i.pw, 1 | 2) && !aliased).then_some(i.wmask & 0xF);
        Decoded {
            exec,
            direct,
            cond: i.cond,
            dst: usize::from(i.dst),
            wmask: i.wmask,
            pw: i.pw,
            sat: i.sat,
            src,
            broadcast,
            // Write mask bits beyond w name no component.
            single: ((i.wmask & 0xF).count_ones() == 1 && !matches!(i.pw, 1 | 2))
                .then(|| (i.wmask & 0xF).trailing_zeros() as usize),
            timing: StepTiming::of(i),
            fused: None,
        }
    }

    /// The fused sequence ([`Fused`]) that starts at `pc` of the decoded `code`, if any: its
    /// operations in order, each instruction a decoded component-wise one ([`Exec::Alu`]: its
    /// unit present).
    fn fused_at(code: &[Decoded], pc: usize) -> Option<Fused> {
        let fits = |d: &Decoded, op: Op| matches!(d.exec, Exec::Alu(o) if o == op);
        Fused::ALL.iter().copied().find(|kind| {
            let ops = kind.ops();
            code.get(pc..pc + ops.len())
                .is_some_and(|ds| ds.iter().zip(ops).all(|(d, &op)| fits(d, op)))
        })
    }

    /// A decoded operand component's value in each lane (what [`Machine::read`] gives for it).
    #[inline(always)]
    fn get_lanes(&self, s: &Comp) -> Lanes {
        // A constant's `and` is 0: the register it names (R0, or none) does not matter. Loops
        // rather than array adaptors: this runs for every operand of every instruction, and the
        // adaptors' closures were measured not inlined here.
        let mut v = match self.r.get(s.reg) {
            Some(r) => r.0[s.comp & 3],
            None => [0; LANES],
        };
        for x in &mut v {
            *x = (*x & s.and) ^ s.xor;
        }
        v
    }

    /// The predicate bit P.c in each lane.
    #[inline(always)]
    fn pred(&self, c: usize) -> Mask {
        let mut p = [false; LANES];
        for (l, p) in p.iter_mut().enumerate() {
            *p = self.p[l][c];
        }
        p
    }

    /// Component `c` of the decoded component-wise operation `d`, `f` on its operands, in each
    /// lane, saturated.
    #[inline(always)]
    fn eval(
        &self,
        d: &Decoded,
        c: usize,
        f: &impl Fn(Lanes, Lanes, Lanes, Mask) -> Lanes,
    ) -> Lanes {
        let x = self.get_lanes(&d.src[0][c]);
        let y = self.get_lanes(&d.src[1][c]);
        let z = self.get_lanes(&d.src[2][c]);
        let mut v = f(x, y, z, self.pred(c));
        if d.sat != 0 {
            for v in &mut v {
                *v = saturate(d.sat, *v);
            }
        }
        v
    }

    /// Starts a new run on `quad` (in place of `RunInputs::inputs`), keeping the constant file:
    /// the state [`super::initial_state`] gives for the same inputs, without recomputing K.
    pub fn reset(&mut self, quad: &QuadInputs) {
        // Only the registers a run can have changed are not zero.
        for &reg in &self.dirty {
            self.r[reg] = Reg::default();
        }
        for &(tgsi, reg) in &self.input_map {
            if let Some(v) = quad.get(&tgsi) {
                self.r[reg] = Reg::from_lanes(v);
            }
        }
        self.reset_control();
    }

    /// The start of a run for everything but the register file: predicates, masks, stacks,
    /// counts.
    fn reset_control(&mut self) {
        self.p = [[false; 4]; LANES];
        self.e = [true; LANES];
        self.killed = [false; LANES];
        self.main_live = [true; LANES];
        self.stack.clear();
        for l in 0..LANES {
            self.addr_stack[l].clear();
            self.vertices[l].clear();
        }
        self.timing = Default::default();
        self.count = 0;
    }

    #[inline]
    fn read(&self, o: &Operand, lane: usize) -> [u32; 4] {
        let base = match o.file {
            SrcFile::R => self
                .r
                .get(usize::from(o.index))
                .map_or([0; 4], |v| v.lane(lane)),
            SrcFile::K => self.k.get(usize::from(o.index)).copied().unwrap_or([0; 4]),
            SrcFile::L => {
                [self.img
                    .config
                    .literals
                    .get(usize::from(o.index))
                    .copied()
                    .unwrap_or(0); 4]
            }
        };
        // Most operands read the register as it is.
        if o.swz == [0, 1, 2, 3] && !o.abs && o.neg == 0 {
            return base;
        }
        // Swizzle by table (selectors beyond ONE read 0), abs and neg as masks: no branch per
        // component.
        let mut ext = [0u32; 8];
        ext[..4].copy_from_slice(&base);
        ext[usize::from(SWZ_ZERO)] = 0;
        ext[usize::from(SWZ_ONE)] = ONE;
        let abs = if o.abs { !SIGN } else { !0 };
        std::array::from_fn(|c| {
            let v = ext.get(usize::from(o.swz[c])).copied().unwrap_or(0);
            (v & abs) ^ (u32::from((o.neg >> c) & 1) << 31)
        })
    }

    fn fault(&self, pc: usize, kind: FaultKind) -> CoreFault {
        CoreFault { pc, kind }
    }

    /// Starts a new run on quad `q` of a flat batch, keeping the constant file; `slots` pairs
    /// each input slot of the batch with the register the image's input map loads it into, in
    /// the map's order (what [`Machine::reset`] does with a quad's map).
    pub fn reset_flat(&mut self, inputs: &BatchInputs, q: usize, slots: &[(usize, usize)]) {
        self.reset(&QuadInputs::new());
        let values = inputs.quad(q);
        for &(slot, reg) in slots {
            self.r[reg] = Reg(std::array::from_fn(|c| {
                std::array::from_fn(|l| values[slot * LANES + l][c])
            }));
        }
    }

    /// The input slots of a flat batch paired with the registers the input map loads them into.
    pub fn input_slots(&self, inputs: &BatchInputs) -> Vec<(usize, usize)> {
        self.input_map
            .iter()
            .filter_map(|&(tgsi, reg)| {
                let slot = inputs.registers().iter().position(|&r| r == tgsi)?;
                Some((slot, reg))
            })
            .collect()
    }

    /// For each requested output register, the register of R that holds it (the output map's
    /// last entry for it, as the outputs of [`Machine::run`] keep), if the image maps it.
    pub fn output_regs(&self, registers: &[u32]) -> Vec<Option<usize>> {
        registers
            .iter()
            .map(|&tgsi| {
                self.img
                    .outputs
                    .iter()
                    .rev()
                    .find(|m| u32::from(m.tgsi) == tgsi)
                    .map(|m| usize::from(m.reg))
            })
            .collect()
    }

    /// Quad `q`'s results after [`Machine::execute`]: the requested outputs per lane (`regs` from
    /// [`Machine::output_regs`]), the killed lanes and the clock cycles.
    pub fn store_flat(&self, out: &mut BatchOutputs<CoreFault>, q: usize, regs: &[Option<usize>]) {
        let values = out.quad_mut(q);
        for (s, reg) in regs.iter().enumerate() {
            let v = reg
                .and_then(|r| self.r.get(r))
                .map(Reg::lanes)
                .unwrap_or_default();
            values[s * LANES..(s + 1) * LANES].copy_from_slice(&v);
        }
        out.set(q, self.killed, self.timing.clocks());
    }

    /// Runs the quad from the start to END, a fault or the end of every lane.
    pub fn run(&mut self) -> Result<RunOutput, CoreFault> {
        self.execute()?;
        Ok(self.finish())
    }

    /// Executes the quad from the start to END, a fault or the end of every lane, leaving the
    /// results in the machine's state.
    pub fn execute(&mut self) -> Result<(), CoreFault> {
        self.execute_traced(None)
    }

    /// Runs the quad like [`Machine::run`], handing every executed instruction's trace line
    /// (address, instruction, execution mask, clocks so far) to `trace`.
    pub fn run_traced(&mut self, trace: &mut dyn FnMut(&str)) -> Result<RunOutput, CoreFault> {
        self.execute_traced(Some(trace))?;
        Ok(self.finish())
    }

    /// [`Machine::execute`], with the trace lines handed to `trace` when there is one.
    fn execute_traced(&mut self, trace: Option<&mut dyn FnMut(&str)>) -> Result<(), CoreFault> {
        self.execute_from(0, trace)
    }

    /// Executes from `pc` on, in the machine's state, to END, a fault or the end of every lane.
    fn execute_from(
        &mut self,
        pc: usize,
        trace: Option<&mut dyn FnMut(&str)>,
    ) -> Result<(), CoreFault> {
        // The decoded code is read while the state changes: held apart for the run.
        let code = std::mem::take(&mut self.code);
        let result = self.execute_code(&code, pc, trace);
        self.code = code;
        result
    }

    fn execute_code(
        &mut self,
        code: &[Decoded],
        mut pc: usize,
        mut trace: Option<&mut dyn FnMut(&str)>,
    ) -> Result<(), CoreFault> {
        let img = self.img;
        let mut alive = self.alive();
        while let Some(d) = code.get(pc) {
            if !alive {
                break;
            }
            if self.count >= self.budget {
                return Err(self.fault(
                    pc,
                    FaultKind::BudgetExhausted {
                        budget: self.budget,
                    },
                ));
            }
            if let Some(kind) = d.fused.filter(|_| trace.is_none()) {
                // A whole sequence within the budget: its instructions counted, each with its
                // own clocks in order, then executed at once. (A trace, or a budget that ends
                // inside it, takes it one instruction at a time.)
                let n = kind.ops().len();
                if self.count + n as u64 <= self.budget {
                    let ds = &code[pc..pc + n];
                    self.count += n as u64;
                    for t in ds {
                        self.timing.step_row(&t.timing);
                    }
                    self.run_fused(kind, ds);
                    pc += n;
                    continue;
                }
            }
            self.count += 1;
            self.timing.step_row(&d.timing);
            if let Some(t) = trace.as_mut() {
                let e: String = self.e.iter().map(|&x| if x { '1' } else { '0' }).collect();
                t(&format!(
                    "{pc:4}: {:<52} E={e} clk={}",
                    instr_text(&img.code[pc]),
                    self.timing.clocks()
                ));
            }
            match self.exec(pc, d)? {
                Some(next) => pc = next,
                None => break,
            }
            // Only flow instructions kill lanes or end them.
            if matches!(d.exec, Exec::Flow) {
                alive = self.alive();
            }
        }
        Ok(())
    }

    /// Whether some lane has neither ended nor been killed.
    fn alive(&self) -> bool {
        any(and_not(self.main_live, self.killed))
    }

    /// Executes the decoded instruction `d` at `pc`; returns the next address, or `None` at END.
    #[inline(always)]
    fn exec(&mut self, pc: usize, d: &Decoded) -> Result<Option<usize>, CoreFault> {
        match d.exec {
            Exec::Alu(op) => {
                if op == Op::Fmad {
                    self.alu_known(d, Op::Fmad);
                } else {
                    self.alu_decoded(d, op);
                }
                Ok(Some(pc + 1))
            }
            Exec::Setp => {
                self.setp(d);
                Ok(Some(pc + 1))
            }
            Exec::Flow => {
                let img = self.img;
                self.flow(pc, &img.code[pc])
            }
            Exec::Other => {
                let img = self.img;
                self.step(pc, &img.code[pc])
            }
        }
    }

    /// Runs the first `n` instructions (or to the end); returns the whole register file and the
    /// address of every executed instruction.
    #[allow(clippy::type_complexity)]
    pub fn run_prefix(mut self, n: u64) -> Result<(Vec<[[u32; 4]; LANES]>, Vec<usize>), CoreFault> {
        let mut pcs = Vec::new();
        self.budget = self.budget.max(n);
        let code = std::mem::take(&mut self.code);
        let mut pc = 0usize;
        while let Some(d) = code.get(pc) {
            if !self.alive() || self.count >= n {
                break;
            }
            pcs.push(pc);
            self.count += 1;
            match self.exec(pc, d)? {
                Some(next) => pc = next,
                None => break,
            }
        }
        Ok((self.r.iter().map(Reg::lanes).collect(), pcs))
    }

    /// The output registers of one lane, by TGSI index.
    fn outputs(&self, l: usize) -> std::collections::BTreeMap<u32, [u32; 4]> {
        self.img
            .outputs
            .iter()
            .map(|m| {
                let v = self.r.get(usize::from(m.reg)).map_or([0; 4], |v| v.lane(l));
                (u32::from(m.tgsi), v)
            })
            .collect()
    }

    fn finish(&mut self) -> RunOutput {
        let lanes: [LaneOutput; LANES] = std::array::from_fn(|l| {
            let mut vertices = std::mem::take(&mut self.vertices[l]);
            if let Some(v) = vertices.last_mut() {
                v.primitive_end = true;
            }
            LaneOutput {
                killed: self.killed[l],
                outputs: self.outputs(l),
                vertices,
            }
        });
        RunOutput {
            engine: ENGINE.to_string(),
            lanes,
            instructions: Some(self.count),
            cycles: Some(self.timing.clocks()),
            fault: None,
            geometry: self.img.processor == 2,
            warnings: Vec::new(),
        }
    }

    fn require(&self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let need = i.op.info().unit.feature();
        if need != 0 && !self.img.config.has(need) {
            return Err(self.fault(
                pc,
                FaultKind::MissingUnit {
                    op: i.op.mnemonic(),
                },
            ));
        }
        Ok(())
    }

    /// Executes one instruction; returns the next address, or `None` at END.
    fn step(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        self.require(pc, i)?;
        let info = i.op.info();
        if matches!(i.op, Op::Pusha | Op::Popa) {
            self.address_stack(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if i.op == Op::Tfet {
            self.texel_fetch(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if i.op == Op::Txq {
            // A move of the size descriptor, once a texture is known to be bound.
            let unit = usize::from(i.target);
            if self
                .inputs
                .textures
                .get(unit)
                .and_then(Option::as_ref)
                .is_none()
            {
                return Err(self.fault(pc, FaultKind::MissingTexture { unit }));
            }
            self.alu(i);
            return Ok(Some(pc + 1));
        }
        if matches!(i.op, Op::Tex | Op::Txf) {
            self.texture(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if i.op == Op::Dop {
            self.double(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if info.unit != Unit::Flow {
            // The relative moves and the derivatives ([`Exec::Other`]); every other
            // component-wise operation runs decoded.
            self.alu(i);
            return Ok(Some(pc + 1));
        }
        self.flow(pc, i)
    }

    /// Executes the flow instruction `i` (its unit present); returns the next address, or
    /// `None` at END.
    fn flow(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        let next = pc + 1;
        let target = usize::from(i.target);
        let mismatch = |op| CoreFault {
            pc,
            kind: FaultKind::StackMismatch { op },
        };
        match i.op {
            Op::If => {
                let cond: Mask = std::array::from_fn(|l| {
                    (0..4).any(|c| i.wmask & (1 << c) != 0 && self.p[l][c])
                });
                self.push(
                    pc,
                    Frame::If {
                        entry: self.e,
                        cond,
                    },
                )?;
                self.e = std::array::from_fn(|l| self.e[l] && cond[l]);
                if !any(self.e) {
                    return Ok(Some(target));
                }
            }
            Op::Else => match self.stack.last() {
                Some(Frame::If { entry, cond }) => {
                    self.e = and_not(*entry, *cond);
                    if !any(self.e) {
                        return Ok(Some(target));
                    }
                }
                _ => return Err(mismatch("ELSE")),
            },
            Op::Endif => match self.stack.pop() {
                Some(Frame::If { entry, .. }) => self.e = entry,
                _ => return Err(mismatch("ENDIF")),
            },
            Op::Loop => self.push(
                pc,
                Frame::Loop {
                    entry: self.e,
                    live: self.e,
                },
            )?,
            Op::Endloop => {
                return self
                    .end_loop(target, next)
                    .map(Some)
                    .ok_or_else(|| mismatch("ENDLOOP"))
            }
            Op::Brk | Op::Brkp | Op::Cont => {
                let lanes: Mask = if i.op == Op::Brkp {
                    std::array::from_fn(|l| self.e[l] && self.p[l][0])
                } else {
                    self.e
                };
                self.e = and_not(self.e, lanes);
                for f in self.stack.iter_mut().rev() {
                    match f {
                        Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                        Frame::Call { .. } => break,
                        Frame::Loop { live, .. } => {
                            if i.op != Op::Cont {
                                *live = and_not(*live, lanes);
                            }
                            break;
                        }
                    }
                }
            }
            Op::Kilp => {
                let lanes: Mask = std::array::from_fn(|l| {
                    self.e[l] && (0..4).any(|c| i.wmask & (1 << c) != 0 && self.p[l][c])
                });
                self.kill(lanes);
            }
            Op::Kill => self.kill(self.e),
            Op::Jmp => return Ok(Some(target)),
            Op::Jmpp => {
                let active = and_not(self.e, self.killed);
                let taken: Mask = std::array::from_fn(|l| {
                    active[l] && (0..4).any(|c| i.wmask & (1 << c) != 0 && self.p[l][c])
                });
                let all = (0..LANES).all(|l| !active[l] || taken[l]);
                if any(taken) && !all {
                    return Err(self.fault(pc, FaultKind::DivergentBranch { taken }));
                }
                if any(taken) {
                    return Ok(Some(target));
                }
            }
            Op::Emit => {
                for l in (0..LANES).filter(|&l| self.e[l]) {
                    let outputs = self.outputs(l);
                    self.vertices[l].push(Vertex {
                        outputs,
                        primitive_end: false,
                    });
                }
            }
            Op::Endprim => {
                for l in (0..LANES).filter(|&l| self.e[l]) {
                    if let Some(v) = self.vertices[l].last_mut() {
                        v.primitive_end = true;
                    }
                }
            }
            Op::Cal | Op::Calp => {
                let callers: Mask = if i.op == Op::Calp {
                    std::array::from_fn(|l| self.e[l] && self.p[l][0])
                } else {
                    self.e
                };
                if !any(callers) {
                    return Ok(Some(next));
                }
                let depth = usize::from(self.img.config.call_stack_depth);
                let calls = self
                    .stack
                    .iter()
                    .filter(|f| matches!(f, Frame::Call { .. }))
                    .count();
                if calls >= depth {
                    return Err(self.fault(pc, FaultKind::CallStackOverflow { depth }));
                }
                // Call frames live on the mask stack too.
                let mask_depth = usize::from(self.img.config.mask_stack_depth);
                if self.stack.len() >= mask_depth {
                    return Err(self.fault(pc, FaultKind::StackOverflow { depth: mask_depth }));
                }
                self.stack.push(Frame::Call {
                    entry: self.e,
                    live: callers,
                    ret: next,
                });
                self.e = callers;
                return Ok(Some(target));
            }
            Op::Ret => return Ok(self.ret(next)),
            Op::Endsub if self.stack.iter().any(|f| matches!(f, Frame::Call { .. })) => {
                return Ok(Some(self.return_from_call()));
            }
            Op::Loopp => {
                let live: Mask = std::array::from_fn(|l| self.e[l] && self.p[l][0]);
                self.push(
                    pc,
                    Frame::Loop {
                        entry: self.e,
                        live,
                    },
                )?;
                self.e = live;
                if !any(live) {
                    return Ok(Some(target));
                }
            }
            Op::Next => match self.stack.last() {
                Some(Frame::Loop { live, .. }) => self.e = *live,
                _ => return Err(mismatch("NEXT")),
            },
            Op::Endloopp => {
                // The lanes whose predicate is false leave the loop here, then as ENDLOOP.
                let p = self.p;
                if let Some(Frame::Loop { live, .. }) = self.stack.last_mut() {
                    *live = std::array::from_fn(|l| live[l] && p[l][0]);
                }
                return self
                    .end_loop(target, next)
                    .map(Some)
                    .ok_or_else(|| mismatch("ENDLOOPP"));
            }
            Op::End => return Ok(None),
            _ => {}
        }
        Ok(Some(next))
    }

    /// The end of the innermost loop: the pc to go on at, `target` with the loop's live lanes
    /// while any is left, else `next` with the lanes that entered it (`None`: the innermost frame
    /// is not a loop).
    fn end_loop(&mut self, target: usize, next: usize) -> Option<usize> {
        let Some(&Frame::Loop { entry, live }) = self.stack.last() else {
            return None;
        };
        if any(live) {
            self.e = live;
            return Some(target);
        }
        self.e = entry;
        self.stack.pop();
        Some(next)
    }

    fn push(&mut self, pc: usize, f: Frame) -> Result<(), CoreFault> {
        let depth = usize::from(self.img.config.mask_stack_depth);
        if self.stack.len() >= depth {
            return Err(self.fault(pc, FaultKind::StackOverflow { depth }));
        }
        self.stack.push(f);
        Ok(())
    }

    /// RET: the active lanes leave the innermost function (or the program).
    fn ret(&mut self, next: usize) -> Option<usize> {
        let lanes = self.e;
        self.e = [false; LANES];
        let mut in_call = false;
        for f in self.stack.iter_mut().rev() {
            match f {
                Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                Frame::Loop { entry, live } => {
                    *entry = and_not(*entry, lanes);
                    *live = and_not(*live, lanes);
                }
                Frame::Call { live, .. } => {
                    *live = and_not(*live, lanes);
                    in_call = true;
                    if any(and_not(*live, self.killed)) {
                        return Some(next);
                    }
                    break;
                }
            }
        }
        if in_call {
            return Some(self.return_from_call());
        }
        self.main_live = and_not(self.main_live, lanes);
        if any(and_not(self.main_live, self.killed)) {
            Some(next)
        } else {
            None
        }
    }

    /// Pops frames up to and including the innermost call frame; returns its return address.
    fn return_from_call(&mut self) -> usize {
        while let Some(f) = self.stack.pop() {
            if let Frame::Call { entry, ret, .. } = f {
                self.e = and_not(entry, self.killed);
                return ret;
            }
        }
        0
    }

    fn kill(&mut self, lanes: Mask) {
        for (k, &x) in self.killed.iter_mut().zip(lanes.iter()) {
            *k |= x;
        }
        self.e = and_not(self.e, lanes);
        for f in &mut self.stack {
            match f {
                Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                Frame::Loop { entry, live } | Frame::Call { entry, live, .. } => {
                    *entry = and_not(*entry, lanes);
                    *live = and_not(*live, lanes);
                }
            }
        }
    }

    /// DOP: the double opcode `target & 0xFF` through the reference model's binary64 kernels
    /// (`crate::reference::ops_double`), on operands whose swizzles the core applies and whose
    /// neg (high components) and abs act on each pair's sign.
    fn double(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let bad = |m: &Self| m.fault(pc, FaultKind::BadDoubleOp { target: i.target });
        let op = microcode::tgsi::Opcode::from_number((i.target & 0xFF) as u8)
            .filter(|o| o.info().src_type == microcode::tgsi::opcode::OperandType::Double)
            .ok_or_else(|| bad(self))?;
        let second = i.target & microcode::core::isa::DOP_SECOND != 0;
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let s = i.src.map(|o| {
                let mut v = self.read(
                    &Operand {
                        neg: 0,
                        abs: false,
                        ..o
                    },
                    l,
                );
                for hi in [1, 3] {
                    if o.abs {
                        v[hi] &= 0x7FFF_FFFF;
                    }
                    if o.neg & (1 << hi) != 0 {
                        v[hi] ^= 0x8000_0000;
                    }
                }
                v
            });
            let results = crate::reference::ops_double::eval(op, &s).ok_or_else(|| bad(self))?;
            let out = results[usize::from(second)].map(|w| w.unwrap_or(0));
            self.write(i, l, out);
        }
        Ok(())
    }

    /// TEX / TXF / TXQ through the sampler bound to the unit (the texture memory's contents and
    /// the filtering sequence, shared with the reference model: `decisions.md` section 6).
    fn texture(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let unit = usize::from(i.src[1].index);
        let sampler = self
            .inputs
            .textures
            .get(unit)
            .and_then(Option::as_ref)
            .ok_or(CoreFault {
                pc,
                kind: FaultKind::MissingTexture { unit },
            })?;
        let target = microcode::tgsi::TextureTarget::from_number(u32::from(i.src[2].index))
            .unwrap_or(microcode::tgsi::TextureTarget::Unknown);
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let a = self.read(&i.src[0], l);
            let out = match i.op {
                Op::Txf => sampler.fetch(target, a.map(|x| x as i32)),
                _ => sampler.sample(target, a.map(|x| f32::from_bits(arith::bits::flush(x)))),
            };
            self.write(i, l, out);
        }
        Ok(())
    }

    /// TFET: channel c of the texel at address A.c of the texture bound to unit `target` (the
    /// address is relative to the texture's base: `arith::texel::SamplerLayout::texel_of`).
    fn texel_fetch(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let unit = usize::from(i.target);
        let sampler = self
            .inputs
            .textures
            .get(unit)
            .and_then(Option::as_ref)
            .ok_or(CoreFault {
                pc,
                kind: FaultKind::MissingTexture { unit },
            })?;
        let layout = sampler.layout();
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let a = self.read(&i.src[0], l);
            let out: [u32; 4] = std::array::from_fn(|c| {
                if a[c] & texel::OUTSIDE != 0 {
                    return 0;
                }
                layout.map_or(0, |layout| {
                    let (x, y, z) = layout.texel_of(a[c]);
                    sampler.fetch(layout.fetch_target(), [x as i32, y as i32, z as i32, 0])[c]
                })
            });
            self.write(i, l, out);
        }
        Ok(())
    }

    fn address_stack(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let depth = usize::from(self.img.config.address_stack_depth);
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            if i.op == Op::Pusha {
                if self.addr_stack[l].len() >= depth {
                    return Err(self.fault(pc, FaultKind::AddressStackOverflow { lane: l, depth }));
                }
                let v = self.read(&i.src[0], l);
                self.addr_stack[l].push(v);
            } else {
                let v = self.addr_stack[l].pop().ok_or(CoreFault {
                    pc,
                    kind: FaultKind::AddressStackUnderflow { lane: l },
                })?;
                self.write(i, l, v);
            }
        }
        Ok(())
    }

    fn setp(&mut self, d: &Decoded) {
        // The operands are registers of R and constants, never P: component by component.
        let e = self.e;
        for c in (0..4).filter(|c| d.wmask & (1 << c) != 0) {
            let a = self.get_lanes(&d.src[0][c]);
            let b = self.get_lanes(&d.src[1][c]);
            for l in 0..LANES {
                if e[l] {
                    self.p[l][c] = cond(d.cond, a[l], b[l]);
                }
            }
        }
    }

    /// The decoded component-wise operation `d` of operation `op`, known where the caller is
    /// compiled (FMAD, the fused sequences): its lane loop inlined there, an FMAD written in
    /// every active lane straight to the register.
    #[inline(always)]
    fn alu_known(&mut self, d: &Decoded, op: Op) {
        match (op, d.single, d.direct) {
            (Op::Fmad, Some(c), _) => self.fmad_single(d, c),
            (Op::Fmad, None, Some(mask)) => {
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    self.fmad_single(d, c);
                }
            }
            _ => self.lanes(d, |x, y, z, p| component_lanes(op, d.cond, x, y, z, p)),
        }
    }

    /// Component `c` of an FMAD written in every active lane ([`Decoded::single`] or
    /// [`Decoded::direct`]): most of the instructions the
    /// compiler's sequences execute, so its four lanes go straight from the operands through
    /// [`arith::fmad_lanes`] to the register, with nothing between them.
    #[inline(always)]
    fn fmad_single(&mut self, d: &Decoded, c: usize) {
        let x = self.get_lanes(&d.src[0][c]);
        let y = self.get_lanes(&d.src[1][c]);
        let z = self.get_lanes(&d.src[2][c]);
        let mut v = arith::fmad_lanes(x, y, z);
        if d.sat != 0 {
            for v in &mut v {
                *v = saturate(d.sat, *v);
            }
        }
        let e = self.e;
        if let Some(r) = self.r.get_mut(d.dst) {
            let dst = &mut r.0[c];
            for l in 0..LANES {
                if e[l] {
                    dst[l] = v[l];
                }
            }
        }
    }

    /// A component-wise operation on decoded operands: the lane loop is made once per
    /// operation, with the operation's arithmetic inlined into it.
    fn alu_decoded(&mut self, d: &Decoded, op: Op) {
        by_op!(op, OP => self.lanes(d, |x, y, z, p| component_lanes(OP, d.cond, x, y, z, p)))
    }

    /// The destination stage of a decoded component-wise operation `f(A.c, B.c, C.c, P.c)`,
    /// each a component in the quad's four lanes: write mask, predicated write, saturate, the
    /// execution mask. Only the written components are evaluated (once when they are the same,
    /// [`Decoded::broadcast`]).
    #[inline(always)]
    fn lanes(&mut self, d: &Decoded, f: impl Fn(Lanes, Lanes, Lanes, Mask) -> Lanes) {
        if d.dst >= self.r.len() {
            return;
        }
        let e = self.e;
        if let Some(c) = d.single {
            // One component, written unpredicated: the sequences' common case.
            let v = self.eval(d, c, &f);
            let dst = &mut self.r[d.dst].0[c];
            for l in 0..LANES {
                if e[l] {
                    dst[l] = v[l];
                }
            }
            return;
        }
        if let Some(mask) = d.direct {
            // No operand reads the destination: each component stored as it is computed.
            let mut first = None;
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                let v = match first {
                    Some(done) if d.broadcast => self.r[d.dst].0[done],
                    _ => self.eval(d, c, &f),
                };
                let dst = &mut self.r[d.dst].0[c];
                for l in 0..LANES {
                    if e[l] {
                        dst[l] = v[l];
                    }
                }
                first.get_or_insert(c);
            }
            return;
        }
        // Every written component is computed before any is written: a destination may be a
        // register the operands read.
        let mut out = [[0u32; LANES]; 4];
        let mut written = [[false; LANES]; 4];
        let mut first = None;
        for c in (0..4).filter(|c| d.wmask & (1 << c) != 0) {
            // Predicated writes: 1 where P.c, 2 where !P.c, any other value always.
            let lanes: Mask = match d.pw {
                1 => std::array::from_fn(|l| e[l] && self.p[l][c]),
                2 => std::array::from_fn(|l| e[l] && !self.p[l][c]),
                _ => e,
            };
            if !any(lanes) {
                continue;
            }
            written[c] = lanes;
            out[c] = match first {
                Some(done) if d.broadcast => out[done],
                _ => self.eval(d, c, &f),
            };
            first.get_or_insert(c);
        }
        let dst = &mut self.r[d.dst].0;
        for c in 0..4 {
            for l in 0..LANES {
                if written[c][l] {
                    dst[c][l] = out[c][l];
                }
            }
        }
    }

    /// MOVR's relative read for one lane (see its row in the ISA table).
    fn read_relative(&self, i: &Instr, lane: usize) -> [u32; 4] {
        let addr_reg = self
            .r
            .get(usize::from(i.src[1].index))
            .map_or([0; 4], |v| v.lane(lane));
        let addr = i64::from(addr_reg[usize::from(i.src[1].swz[0] & 3)] as i32);
        // The target field holds a 10-bit two's complement offset.
        let off = i64::from(i.offset());
        let k = addr + off;
        let mut o = i.src[0];
        if (0..=i64::from(i.src[2].index)).contains(&k) {
            // In range: the slot index fits the 8-bit operand index by construction.
            o.index = (i64::from(o.index) + k).clamp(0, 255) as u8;
            self.read(&o, lane)
        } else {
            o.file = SrcFile::L;
            o.index = 0;
            o.swz = o.swz.map(|s| if s < 4 { SWZ_ZERO } else { s });
            self.read(&o, lane)
        }
    }

    /// MOVW's relative write (see its row in the ISA table).
    fn write_relative(&mut self, i: &Instr) {
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let addr_reg = self
                .r
                .get(usize::from(i.src[1].index))
                .map_or([0; 4], |v| v.lane(l));
            let addr = i64::from(addr_reg[usize::from(i.src[1].swz[0] & 3)] as i32);
            let off = i64::from(i.offset());
            let k = addr + off;
            if !(0..=i64::from(i.src[2].index)).contains(&k) {
                continue;
            }
            let v = self.read(&i.src[0], l);
            let mut to = *i;
            to.dst = (i64::from(i.dst) + k).clamp(0, 255) as u8;
            self.write(&to, l, v);
        }
    }

    fn alu(&mut self, i: &Instr) {
        if i.op == Op::Movw {
            self.write_relative(i);
            return;
        }
        // Derivatives read every lane's operand; nothing else needs them.
        let all: [[u32; 4]; LANES] = if matches!(i.op, Op::Ddx | Op::Ddy) {
            std::array::from_fn(|l| self.read(&i.src[0], l))
        } else {
            [[0; 4]; LANES]
        };
        let active = self.e;
        // Operands the operation does not read (its ISA row's source count) stay zero.
        let sources = i.op.info().sources;
        let dst = usize::from(i.dst);
        if dst >= self.r.len() {
            return;
        }
        for l in (0..LANES).filter(|&l| active[l]) {
            // The components this lane writes: only those are evaluated.
            let p = self.p[l];
            let written: [bool; 4] = std::array::from_fn(|c| {
                i.wmask & (1 << c) != 0
                    && match i.pw {
                        1 => p[c],
                        2 => !p[c],
                        _ => true,
                    }
            });
            if !written.iter().any(|&w| w) {
                continue;
            }
            let a = if i.op == Op::Movr {
                self.read_relative(i, l)
            } else {
                self.read(&i.src[0], l)
            };
            let b = if sources >= 2 {
                self.read(&i.src[1], l)
            } else {
                [0; 4]
            };
            let c3 = if sources >= 3 {
                self.read(&i.src[2], l)
            } else {
                [0; 4]
            };
            for c in (0..4).filter(|&c| written[c]) {
                let (x, y, z) = (a[c], b[c], c3[c]);
                let v = match i.op {
                    Op::Ddx => arith::fsub(all[l | 1][c], all[l & 2][c]),
                    Op::Ddy => arith::fsub(all[l | 2][c], all[l & 1][c]),
                    op => component(op, i.cond, x, y, z, p[c]),
                };
                self.r[dst].0[c][l] = saturate(i.sat, v);
            }
        }
    }

    /// The destination stage: write mask, predicated write, saturate.
    fn write(&mut self, i: &Instr, l: usize, out: [u32; 4]) {
        let Some(dst) = self.r.get_mut(usize::from(i.dst)) else {
            return;
        };
        {
            for (c, &v) in out.iter().enumerate() {
                if i.wmask & (1 << c) == 0 {
                    continue;
                }
                let pass = match i.pw {
                    1 => self.p[l][c],
                    2 => !self.p[l][c],
                    _ => true,
                };
                if !pass {
                    continue;
                }
                dst.0[c][l] = saturate(i.sat, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use microcode::arith::accuracy::XorShift;
    use microcode::core::image::{ConstSlot, ConstSource};
    use microcode::core::isa::OPS;
    use microcode::core::CoreConfig;

    /// A random instruction of operation `op`: any destination (R beyond the register file
    /// included), write mask (bits beyond w included), predicated write, saturate, condition;
    /// operands of any file, register, selector (beyond ONE included), abs and neg.
    fn random_instr(op: Op, regs: u64, next: &mut impl FnMut() -> u64) -> Instr {
        let mut i = Instr::new(op);
        i.dst = (next() % (regs + 2)) as u8;
        i.wmask = next() as u8;
        i.sat = (next() % 4) as u8;
        i.pw = (next() % 4) as u8;
        i.cond = Cond::ALL[(next() % 8) as usize];
        i.src = [0; 3].map(|_| Operand {
            file: [SrcFile::R, SrcFile::R, SrcFile::K, SrcFile::L][(next() % 4) as usize],
            // Mostly the first registers (random values), else any (beyond R included).
            index: (next()
                % if next().is_multiple_of(4) {
                    regs + 2
                } else {
                    8
                }) as u8,
            swz: [0; 4].map(|_| (next() % 9) as u8),
            neg: next() as u8 & 0xF,
            abs: next().is_multiple_of(4),
        });
        if next().is_multiple_of(3) {
            // A scalar operation's replicated operands (one value in every component).
            for o in &mut i.src {
                o.swz = [o.swz[0]; 4];
                o.neg = if o.neg & 1 != 0 { 0xF } else { 0 };
            }
        }
        i
    }

    /// [`random_instr`], mostly (seven times in eight) writing and reading only the first
    /// `first` registers, so that a program's instructions read each other's results.
    fn random_local_instr(op: Op, regs: u64, first: u8, next: &mut impl FnMut() -> u64) -> Instr {
        let mut i = random_instr(op, regs, next);
        if !next().is_multiple_of(8) {
            i.dst %= first;
            for o in &mut i.src {
                if o.file == SrcFile::R {
                    o.index %= first;
                }
            }
        }
        i
    }

    /// A random value of any kind: numbers near 1, small ones, any bits.
    fn random_value(next: &mut dyn FnMut() -> u64) -> u32 {
        match next() % 4 {
            0 => 0x3F80_0000 ^ (next() as u32 & 0x807F_FFFF),
            1 => next() as u32 & 0x80FF_FFFF,
            _ => next() as u32,
        }
    }

    /// Random values of every kind in the first registers; random predicates and active lanes.
    fn random_state(m: &mut Machine, next: &mut impl FnMut() -> u64) {
        for reg in m.r.iter_mut().take(8) {
            *reg = Reg([[0; LANES]; 4].map(|comp| comp.map(|_| random_value(next))));
        }
        m.p = [[false; 4]; LANES].map(|p| p.map(|_| next().is_multiple_of(2)));
        m.e = [false; LANES].map(|_| !next().is_multiple_of(4));
    }

    /// An image of the default configuration with `code` and four constants.
    fn image(code: Vec<Instr>) -> Image {
        Image {
            config: CoreConfig::default(),
            processor: 0,
            origin: vec![0],
            code,
            constants: (0..4)
                .map(|k| ConstSlot {
                    k,
                    source: ConstSource::Data([0x3F80_0000 + u32::from(k), 0xC040_0000, 0, 7]),
                })
                .collect(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// The decoded component-wise operations ([`Machine::alu_decoded`]: operands resolved once,
    /// the one-component lane loop) against the instruction path ([`Machine::alu`]: operands
    /// read through [`Machine::read`] per lane) on random instructions and states: any file,
    /// register (R beyond the register file included), selector (beyond ONE included), abs,
    /// neg, write mask (bits beyond w included), predicated write, saturate, condition and
    /// execution mask. The registers and every value must agree.
    #[test]
    fn decoded_operations_equal_the_instruction_path() {
        let mut rng = XorShift::new(0xC0DE_5EED);
        let mut next = move || rng.next_u64();
        let img = image(vec![Instr::new(Op::End)]);
        let inputs = RunInputs::default();
        let mut m = Machine::new(&img, &inputs);
        let regs = m.r.len() as u64;
        let alu_ops: Vec<Op> = OPS
            .iter()
            .map(|row| row.op)
            .filter(|&op| matches!(m.decode(&Instr::new(op)).exec, Exec::Alu(_)))
            .collect();
        assert!(alu_ops.len() > 40, "{} decoded operations", alu_ops.len());
        for trial in 0..40_000u64 {
            let op = alu_ops[(next() % alu_ops.len() as u64) as usize];
            let mut i = random_instr(op, regs, &mut next);
            if trial % 2 == 0 {
                i.dst %= 8;
            }
            random_state(&mut m, &mut next);
            let start = m.r.clone();
            m.alu(&i);
            let want = std::mem::replace(&mut m.r, start);
            let d = m.decode(&i);
            m.alu_decoded(&d, op);
            assert_eq!(m.r, want, "trial {trial}: {}", instr_text(&i));
        }
    }

    /// Groups of quads run across ([`Machine::across`], [`wide`]) against each quad run on its
    /// own ([`Machine::reset_flat`], [`Machine::execute`], [`Machine::store_flat`]): random
    /// component-wise instructions and SETPs (any fields, as above, mostly on the first
    /// registers so that they read each other's results), KILL and KILP (quads whose lanes are
    /// all killed and quads with some left part the group), IF / ELSE / ENDIF on random
    /// predicates (lanes of one quad on both sides) up to END and more after it; 37
    /// quads of random inputs (two full groups and a part, so that a group starts from what
    /// the one before left), an input the batch does not give, outputs mapped to the inputs'
    /// registers and beyond the register file, budgets that end inside the run. Each quad's
    /// outputs, killed lanes and clock count, or fault, must be its own, whether its group's
    /// quads agree to the end or part on the way (and go on one by one).
    #[test]
    fn groups_across_equal_quads_on_their_own() {
        use crate::run_io::batch::CountUnit;
        use microcode::core::image::RegMap;
        let mut rng = XorShift::new(0x57A1_6E7E);
        let mut next = move || rng.next_u64();
        let probe = image(vec![Instr::new(Op::End)]);
        let regs = u64::from(probe.config.registers);
        let probe_inputs = RunInputs::default();
        let probe = Machine::new(&probe, &probe_inputs);
        let mut ops: Vec<Op> = OPS
            .iter()
            .map(|row| row.op)
            .filter(|&op| matches!(probe.decode(&Instr::new(op)).exec, Exec::Alu(_)))
            .collect();
        ops.extend([Op::Setp, Op::Setp, Op::Setp]);
        let (mut across, mut parted) = (0, 0);
        for trial in 0..400u64 {
            let n = 1 + next() % 24;
            let mut code: Vec<Instr> = (0..n)
                .map(|_| {
                    let op = ops[(next() % ops.len() as u64) as usize];
                    random_local_instr(op, regs, 6, &mut next)
                })
                .collect();
            if trial % 4 == 1 {
                let mut kill = Instr::new([Op::Kill, Op::Kilp][(next() % 2) as usize]);
                kill.wmask = next() as u8;
                let at = (next() % n) as usize;
                code.insert(at, kill);
                // Predicates from the inputs right before: some quads lose every lane.
                let mut setp = Instr::new(Op::Setp);
                setp.cond = [Cond::Lt, Cond::Ge][(next() % 2) as usize];
                setp.wmask = 0xF;
                for (k, o) in setp.src.iter_mut().take(2).enumerate() {
                    o.file = SrcFile::R;
                    o.index = k as u8;
                }
                code.insert(at, setp);
            }
            if trial % 4 == 2 {
                // IF (ELSE) ENDIF around part of the code: lanes of a quad on both sides, so
                // that writes must keep to the execution mask.
                let a = (next() % (n + 1)) as usize;
                let b = a + (next() % (n + 1 - a as u64)) as usize;
                let m = a + (next() % (b - a + 1) as u64) as usize;
                let with_else = next() % 2 == 0;
                let mut body = code.split_off(a);
                let after = body.split_off(b - a);
                let second = body.split_off(m - a);
                let if_at = a;
                let else_at = if_at + 1 + body.len();
                let endif_at = else_at + usize::from(with_else) + second.len();
                let mut iff = Instr::new(Op::If);
                iff.wmask = 1 + (next() % 15) as u8;
                iff.target = (if with_else { else_at } else { endif_at }) as u16;
                code.push(iff);
                code.extend(body);
                if with_else {
                    let mut els = Instr::new(Op::Else);
                    els.target = endif_at as u16;
                    code.push(els);
                }
                code.extend(second);
                code.push(Instr::new(Op::Endif));
                code.extend(after);
                // The predicates the IF tests, set first.
                let mut setp = random_instr(Op::Setp, regs, &mut next);
                setp.cond = Cond::Lt;
                setp.wmask = 0xF;
                code.insert(0, setp);
                for i in &mut code {
                    if matches!(i.op, Op::If | Op::Else) {
                        i.target += 1;
                    }
                }
            }
            code.push(Instr::new(Op::End));
            code.push(random_instr(Op::Fmad, regs, &mut next));
            let mut img = image(code);
            img.inputs = vec![
                RegMap { tgsi: 0, reg: 0 },
                RegMap { tgsi: 1, reg: 1 },
                RegMap { tgsi: 7, reg: 5 },
            ];
            img.outputs = vec![
                RegMap { tgsi: 0, reg: 2 },
                RegMap { tgsi: 1, reg: 3 },
                RegMap { tgsi: 2, reg: 0 },
                RegMap { tgsi: 3, reg: 200 },
            ];
            let mut base = RunInputs::default();
            if trial % 10 == 4 {
                base.budget = next() % (n + 1);
            }
            let mut batch = BatchInputs::new(vec![0, 1]);
            for _ in 0..37 {
                for v in batch.push_quad() {
                    *v = std::array::from_fn(|_| random_value(&mut next));
                }
            }
            let outputs = vec![0, 1, 2, 3, 9];
            let m = Machine::new(&img, &base);
            let slots = m.input_slots(&batch);
            let out_regs = m.output_regs(&outputs);
            let mut group_out = BatchOutputs::<CoreFault>::new(outputs.clone());
            group_out.begin(batch.quads(), CountUnit::Cycles);
            let mut state = m.across().expect("every instruction runs across");
            let mut group_machine = Machine::new(&img, &base);
            let mut one = Machine::new(&img, &base);
            for first in (0..batch.quads()).step_by(wide::QUADS) {
                let group = first..(first + wide::QUADS).min(batch.quads());
                state.run_group(
                    &mut group_machine,
                    &batch,
                    group.clone(),
                    &mut group_out,
                    &slots,
                    &out_regs,
                );
                let mut results = Vec::new();
                for q in group.clone() {
                    one.reset_flat(&batch, q, &slots);
                    let result = one.execute();
                    let mut o = BatchOutputs::<CoreFault>::new(outputs.clone());
                    o.begin(1, CountUnit::Cycles);
                    one.store_flat(&mut o, 0, &out_regs);
                    results.push((result, o.quad(0).to_vec(), o.killed(0), o.count(0)));
                }
                // Groups whose quads part: their paths (instruction counts) or liveness
                // differ, or one faults.
                let faults = results.iter().any(|r| r.0.is_err());
                let paths: std::collections::BTreeSet<u64> = results.iter().map(|r| r.3).collect();
                let lives: std::collections::BTreeSet<bool> =
                    results.iter().map(|r| r.2.iter().all(|&k| k)).collect();
                if faults || paths.len() > 1 || lives.len() > 1 {
                    parted += 1;
                } else {
                    across += 1;
                }
                for (q, (result, values, killed, count)) in group.zip(results) {
                    let error = group_out.errors().iter().find(|(n, _)| *n == q);
                    match result {
                        Ok(()) => {
                            assert_eq!(error, None, "trial {trial} quad {q}");
                            assert_eq!(group_out.quad(q), &values[..], "trial {trial} quad {q}");
                            assert_eq!(group_out.killed(q), killed, "trial {trial} quad {q}");
                            assert_eq!(group_out.count(q), count, "trial {trial} quad {q}");
                        }
                        Err(e) => assert_eq!(error.map(|x| &x.1), Some(&e), "trial {trial}"),
                    }
                }
            }
        }
        assert!(
            across > 800 && parted > 20,
            "{across} groups whose quads agree, {parted} whose quads part"
        );
    }

    /// Each fused sequence ([`Fused`], [`Machine::run_fused`]) against its instructions one
    /// after another on the instruction path ([`Machine::alu`]), on random instructions of the
    /// sequence's operations (random fields as above, mostly writing and reading the same few
    /// registers, so that the instructions read each other's results) and random states. The
    /// sequence must be recognised, and the registers must agree. Then a whole run of the image
    /// (the sequence, END) against a traced run, which is not fused: the same outputs,
    /// instruction count and clocks; and a budget that ends inside the sequence faults at the
    /// same instruction as the traced run.
    #[test]
    fn fused_sequences_equal_the_instruction_path() {
        let mut rng = XorShift::new(0xF05E_D5EC);
        let mut next = move || rng.next_u64();
        for &kind in Fused::ALL {
            let ops = kind.ops();
            for trial in 0..3_000u64 {
                let regs = u64::from(CoreConfig::default().registers);
                let mut code: Vec<Instr> = ops
                    .iter()
                    .map(|&op| random_local_instr(op, regs, 4, &mut next))
                    .collect();
                code.push(Instr::new(Op::End));
                let img = image(code);
                let inputs = RunInputs::default();
                let mut m = Machine::new(&img, &inputs);
                assert_eq!(m.code[0].fused, Some(kind), "{kind:?} recognised");
                random_state(&mut m, &mut next);
                let start = m.r.clone();
                for i in &img.code[..ops.len()] {
                    m.alu(i);
                }
                let want = std::mem::replace(&mut m.r, start);
                let code = std::mem::take(&mut m.code);
                m.run_fused(kind, &code[..ops.len()]);
                assert_eq!(m.r, want, "{kind:?} trial {trial}");

                // Whole runs: fused (run) and one instruction at a time (run_traced).
                let mut inputs = RunInputs::default();
                let fused = Machine::new(&img, &inputs).run();
                let traced = Machine::new(&img, &inputs).run_traced(&mut |_| {});
                assert_eq!(fused, traced, "{kind:?} trial {trial}: whole run");
                inputs.budget = next() % ops.len() as u64;
                let fused = Machine::new(&img, &inputs).run();
                let traced = Machine::new(&img, &inputs).run_traced(&mut |_| {});
                assert_eq!(
                    fused, traced,
                    "{kind:?} trial {trial}: budget {}",
                    inputs.budget
                );
            }
        }
    }
}
