//! The core model's machine: state and the per-instruction step, for every run (`run`,
//! `run_batch`, `run_flat`, `run_traced`, `run_prefix`). It evaluates only the components an
//! instruction writes (its write mask, and the predicate of a predicated write), each in the
//! quad's four lanes at once: the core's sequences (transcendental steps, dot products, texel
//! addressing) are mostly one-component instructions. Cycle counts come from the ISA's timing
//! table (`isa::Timing`). [`decode`] resolves each instruction once, [`flow`] runs the flow
//! instructions, [`step`] what does not run decoded, and [`wide`] runs groups of quads across.

use super::{CoreFault, FaultKind, ENGINE};
use crate::run_io::batch::{BatchInputs, BatchOutputs};
use crate::run_io::{LaneOutput, QuadInputs, RunInputs, RunOutput, Vertex, LANES};
use decode::{Comp, Decoded, Exec};
use flow::Frame;
use microcode::arith;
use microcode::core::disasm::instr_text;
use microcode::core::eval::{component_lanes, cond};
use microcode::core::isa::{Instr, Op, Operand, SrcFile, SWZ_ONE, SWZ_ZERO};
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

mod decode;
mod flow;
mod step;
mod wide;
pub use wide::QUADS as ACROSS_QUADS;

/// Whether any lane of `m` is set.
#[inline]
fn any(m: Mask) -> bool {
    m.iter().any(|&x| x)
}

/// The lanes of `a` that are not in `b`.
#[inline]
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
    use super::decode::Fused;
    use super::*;
    use microcode::core::image::{ConstSlot, ConstSource};
    use microcode::core::isa::{Cond, OPS};
    use microcode::core::CoreConfig;
    use microcode::rng::XorShift;

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
