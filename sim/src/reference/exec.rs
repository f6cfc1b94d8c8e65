//! The interpreter loop: execution masks, control flow and the destination pipeline.
//!
//! A lane executes an instruction when it is alive (not killed), inside the current IF branches
//! (`cond`), still in the current loop (`loop_m`), has not continued this iteration (`cont`) and has
//! not returned from the current subroutine (`func`); a CondFlow test then narrows the lanes for
//! that one instruction. Blocks no lane enters are skipped to their closing instruction, which
//! still executes (and counts) so that the mask stacks stay balanced.

use super::control::{CallFrame, LoopFrame};
use super::flow::Structure;
use super::kernels::{self, Decoded};
use super::operand::{self, fetch, View};
use super::state::{clear, Cc, Mask, State, Vec4, Written, ALL};
use super::{float, ops_double, ops_float, ops_int, pack, texture};
use super::{RunError, RunErrorKind, ADDRESS_STACK_LIMIT, ENGINE};
use crate::run_io::{LaneOutput, RunInputs, RunOutput, Vertex, LANES};
use microcode::tgsi::opcode::{Kind, OpcodeInfo, OperandType};
use microcode::tgsi::{File, Instruction, Modulate, Opcode, Processor, Saturate};
use std::collections::BTreeMap;

/// What to do after an instruction.
pub(super) enum Next {
    /// Continue at this instruction.
    Go(usize),
    /// End the run.
    Stop,
}

/// The state of one run.
pub struct Machine<'a> {
    pub(super) st: State<'a>,
    pub(super) insts: &'a [Instruction],
    /// `insts[i].opcode.info()`, looked up once.
    infos: &'a [&'static OpcodeInfo],
    /// How each instruction runs (fast kernels or this interpreter).
    decoded: &'a [Decoded],
    pub(super) structure: &'a Structure,
    pub(super) alive: Mask,
    pub(super) cond: Mask,
    pub(super) loop_m: Mask,
    pub(super) cont: Mask,
    pub(super) func: Mask,
    pub(super) cond_stack: Vec<Mask>,
    pub(super) loop_stack: Vec<LoopFrame>,
    pub(super) call_stack: Vec<CallFrame>,
    pub(super) addr_stack: [Vec<Vec4>; LANES],
    pub(super) vertices: [Vec<Vertex>; LANES],
    pub(super) count: u64,
    /// Source operands of the current instruction, kept between instructions for its allocation.
    srcs: Vec<[Vec4; LANES]>,
}

impl<'a> Machine<'a> {
    /// A machine for `prepared` with the constants and textures of `inputs`; [`Machine::run`]
    /// then runs one quad.
    pub fn new(prepared: &'a super::Prepared<'a>, inputs: &'a RunInputs) -> Machine<'a> {
        Machine {
            st: State::new(prepared.program, &prepared.layout, inputs),
            insts: prepared.program.instructions.as_slice(),
            infos: &prepared.infos,
            decoded: &prepared.decoded,
            structure: &prepared.structure,
            alive: ALL,
            cond: ALL,
            loop_m: ALL,
            cont: ALL,
            func: ALL,
            cond_stack: Vec::new(),
            loop_stack: Vec::new(),
            call_stack: Vec::new(),
            addr_stack: Default::default(),
            vertices: Default::default(),
            count: 0,
            srcs: Vec::new(),
        }
    }

    /// Executes one quad with the per-lane inputs `quad` until END, the end of the instruction
    /// list, or every lane is killed. The machine is reset first, so it can run quad after quad.
    pub fn run(&mut self, quad: &BTreeMap<u32, [[u32; 4]; LANES]>) -> Result<RunOutput, RunError> {
        self.st.reset(quad);
        self.execute()?;
        Ok(self.finish())
    }

    /// Executes one quad of a flat batch (`registers` and `values` as `BatchInputs` holds them)
    /// and writes `OUT[r]` of each `Some(r)` of `outputs` to `out` (`[slot * LANES + lane]`;
    /// `None` slots are left as they are). Returns the killed lanes and the executed count;
    /// warnings stay in `self.st.warnings`.
    pub fn run_flat(
        &mut self,
        registers: &[u32],
        values: &[[u32; 4]],
        outputs: &[Option<u32>],
        out: &mut [[u32; 4]],
    ) -> Result<([bool; LANES], u64), RunError> {
        self.st.reset_flat(registers, values);
        self.execute()?;
        for (s, r) in outputs.iter().enumerate() {
            if let Some(r) = *r {
                for (l, o) in out[s * LANES..(s + 1) * LANES].iter_mut().enumerate() {
                    *o = self.st.output(l, r);
                }
            }
        }
        Ok((self.alive.map(|a| !a), self.count))
    }

    /// The main loop of one quad whose inputs are loaded: resets masks, stacks and count first.
    fn execute(&mut self) -> Result<(), RunError> {
        self.alive = ALL;
        self.cond = ALL;
        self.loop_m = ALL;
        self.cont = ALL;
        self.func = ALL;
        self.cond_stack.clear();
        self.loop_stack.clear();
        self.call_stack.clear();
        for l in 0..LANES {
            self.addr_stack[l].clear();
            self.vertices[l].clear();
        }
        self.count = 0;
        let mut pc = 0usize;
        while pc < self.insts.len() && self.alive.iter().any(|&a| a) {
            let inst = &self.insts[pc];
            if self.count >= self.st.inputs.budget {
                return Err(RunError {
                    index: pc,
                    opcode: inst.opcode,
                    kind: RunErrorKind::BudgetExhausted {
                        budget: self.st.inputs.budget,
                    },
                });
            }
            self.count += 1;
            match &self.decoded[pc] {
                Decoded::Alu(k) => {
                    let exec = self.active();
                    k.run(&mut self.st.file, exec);
                    pc += 1;
                    continue;
                }
                Decoded::Kil(src) => {
                    let kill = kernels::kil(src, &self.st.file, self.active());
                    clear(&mut self.alive, &kill);
                    pc += 1;
                    continue;
                }
                Decoded::General => {}
            }
            let next = self.step(pc).map_err(|kind| RunError {
                index: pc,
                opcode: inst.opcode,
                kind,
            })?;
            match next {
                Next::Go(n) => pc = n,
                Next::Stop => break,
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> RunOutput {
        let geometry = self.st.program.processor == Processor::Geometry;
        let lanes: [LaneOutput; LANES] = std::array::from_fn(|l| {
            let mut vertices = std::mem::take(&mut self.vertices[l]);
            if let Some(v) = vertices.last_mut() {
                v.primitive_end = true;
            }
            LaneOutput {
                killed: !self.alive[l],
                outputs: self.st.outputs(l),
                vertices,
            }
        });
        RunOutput {
            engine: ENGINE.to_string(),
            lanes,
            instructions: Some(self.count),
            cycles: None,
            fault: None,
            geometry,
            warnings: std::mem::take(&mut self.st.warnings).into_iter().collect(),
        }
    }

    /// Lanes that execute ordinary instructions now.
    pub(super) fn active(&self) -> Mask {
        std::array::from_fn(|l| {
            self.alive[l] && self.cond[l] && self.loop_m[l] && self.cont[l] && self.func[l]
        })
    }

    /// Active lanes that also pass the instruction's CondFlow test.
    pub(super) fn exec_mask(&self, inst: &Instruction) -> Mask {
        let a = self.active();
        std::array::from_fn(|l| a[l] && inst.cond_flow.is_none_or(|t| self.st.cc_any(l, &t)))
    }

    pub(super) fn partner(&self, at: usize) -> Result<usize, RunErrorKind> {
        self.structure
            .partner
            .get(at)
            .copied()
            .flatten()
            .ok_or_else(|| RunErrorKind::Structure("unmatched block".into()))
    }

    pub(super) fn label(&self, inst: &Instruction) -> Result<usize, RunErrorKind> {
        let target = inst.label.unwrap_or(u32::MAX);
        let t = target as usize;
        if t < self.insts.len() {
            Ok(t)
        } else {
            Err(RunErrorKind::BadLabel { target })
        }
    }

    /// Source `k` of the lanes in `mask` (others read as zero).
    pub(super) fn fetch_lanes(
        &mut self,
        at: usize,
        inst: &Instruction,
        k: usize,
        mask: Mask,
        view: View,
        offset: i64,
    ) -> Result<[Vec4; LANES], RunErrorKind> {
        let src = inst
            .src
            .get(k)
            .ok_or_else(|| RunErrorKind::Unsupported(format!("missing source {k}")))?;
        let mut out = [[0u32; 4]; LANES];
        // A register every lane reads alike is resolved and range-checked once (a register out
        // of range takes the per-lane path, which warns per lane).
        if let Some(slot) = operand::uniform_slot(src, offset).filter(|&s| self.st.in_range(s)) {
            for l in 0..LANES {
                if mask[l] {
                    out[l] = operand::modify(self.st.read_in_range(l, slot), src, view)?;
                }
            }
            return Ok(out);
        }
        for l in 0..LANES {
            if mask[l] {
                out[l] = fetch(&mut self.st, l, at, src, view, offset)?;
            }
        }
        Ok(out)
    }

    /// `src.x != 0.0` as a float test (-0 and subnormals false, NaN true) for the lanes in `mask`.
    pub(super) fn test_x(
        &mut self,
        at: usize,
        inst: &Instruction,
        mask: Mask,
    ) -> Result<Mask, RunErrorKind> {
        let v = self.fetch_lanes(at, inst, 0, mask, View::Float, 0)?;
        Ok(std::array::from_fn(|l| {
            mask[l] && float::input(v[l][0]) != 0.0
        }))
    }

    fn step(&mut self, at: usize) -> Result<Next, RunErrorKind> {
        let insts = self.insts;
        let inst = &insts[at];
        let info = self.infos[at];
        let next = Next::Go(at + 1);
        match info.kind {
            Kind::Nop => Ok(next),
            Kind::Flow(f) => self.flow(at, inst, f),
            Kind::Kill => {
                let exec = self.exec_mask(inst);
                let kill = if inst.opcode == Opcode::Kil {
                    let v = self.fetch_lanes(at, inst, 0, exec, View::Float, 0)?;
                    std::array::from_fn(|l| exec[l] && v[l].iter().any(|&x| float::lt(x, 0)))
                } else {
                    exec
                };
                clear(&mut self.alive, &kill);
                Ok(next)
            }
            Kind::Geometry => {
                let exec = self.exec_mask(inst);
                for l in (0..LANES).filter(|&l| exec[l]) {
                    if inst.opcode == Opcode::Emit {
                        let outputs = self.st.outputs(l);
                        self.vertices[l].push(Vertex {
                            outputs,
                            primitive_end: false,
                        });
                    } else if let Some(v) = self.vertices[l].last_mut() {
                        v.primitive_end = true;
                    }
                }
                Ok(next)
            }
            Kind::AddressStack => {
                self.address_stack(at, inst)?;
                Ok(next)
            }
            Kind::Texture => {
                let exec = self.exec_mask(inst);
                let mut results = [[None; 4]; LANES];
                for l in (0..LANES).filter(|&l| exec[l]) {
                    results[l] = texture::execute(&mut self.st, l, at, inst)?;
                }
                self.write_lanes(at, inst, 0, exec, &results, info.dst_type);
                Ok(next)
            }
            Kind::Alu => {
                self.alu(at, inst)?;
                Ok(next)
            }
        }
    }

    fn address_stack(&mut self, at: usize, inst: &Instruction) -> Result<(), RunErrorKind> {
        let exec = self.exec_mask(inst);
        if inst.opcode == Opcode::Pusha {
            let v = self.fetch_lanes(at, inst, 0, exec, View::Int, 0)?;
            for l in (0..LANES).filter(|&l| exec[l]) {
                if self.addr_stack[l].len() >= ADDRESS_STACK_LIMIT {
                    return Err(RunErrorKind::AddressStackOverflow {
                        lane: l,
                        limit: ADDRESS_STACK_LIMIT,
                    });
                }
                self.addr_stack[l].push(v[l]);
            }
        } else {
            let mut results = [[None; 4]; LANES];
            for l in (0..LANES).filter(|&l| exec[l]) {
                let v = self.addr_stack[l]
                    .pop()
                    .ok_or(RunErrorKind::AddressStackUnderflow { lane: l })?;
                results[l] = v.map(Some);
            }
            self.write_lanes(at, inst, 0, exec, &results, OperandType::Int);
        }
        Ok(())
    }

    fn alu(&mut self, at: usize, inst: &Instruction) -> Result<(), RunErrorKind> {
        let info = self.infos[at];
        let exec = self.exec_mask(inst);
        let view = View::of(info.src_type);
        let derivative = matches!(inst.opcode, Opcode::Ddx | Opcode::Ddy);
        // Derivatives read all four lanes, whatever their masks.
        let read_mask = if derivative { ALL } else { exec };
        let rows = ops_float::matrix_rows(inst.opcode);
        let mut srcs = std::mem::take(&mut self.srcs);
        srcs.clear();
        let result = self.alu_with(
            at, inst, info, exec, view, derivative, read_mask, rows, &mut srcs,
        );
        self.srcs = srcs;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn alu_with(
        &mut self,
        at: usize,
        inst: &Instruction,
        info: &OpcodeInfo,
        exec: Mask,
        view: View,
        derivative: bool,
        read_mask: Mask,
        rows: Option<(usize, usize)>,
        srcs: &mut Vec<[Vec4; LANES]>,
    ) -> Result<(), RunErrorKind> {
        if let Some((rows, _)) = rows {
            srcs.push(self.fetch_lanes(at, inst, 0, read_mask, view, 0)?);
            for r in 0..rows {
                srcs.push(self.fetch_lanes(at, inst, 1, read_mask, view, r as i64)?);
            }
        } else {
            for k in 0..inst.src.len() {
                srcs.push(self.fetch_lanes(at, inst, k, read_mask, view, 0)?);
            }
        }
        let mut results: [[Written; LANES]; 2] = [[[None; 4]; LANES]; 2];
        if derivative {
            let s = &srcs[0];
            let (a, b): ([usize; 4], [usize; 4]) = if inst.opcode == Opcode::Ddx {
                ([0, 0, 2, 2], [1, 1, 3, 3])
            } else {
                ([0, 1, 0, 1], [2, 3, 2, 3])
            };
            for l in 0..LANES {
                results[0][l] = std::array::from_fn(|c| Some(float::sub(s[b[l]][c], s[a[l]][c])));
            }
        } else {
            // The sources of one lane, on the stack unless there are more than eight.
            let mut small = [[0u32; 4]; 8];
            let mut large = Vec::new();
            for l in (0..LANES).filter(|&l| exec[l]) {
                let lane_srcs: &[Vec4] = if srcs.len() <= small.len() {
                    for (d, s) in small.iter_mut().zip(srcs.iter()) {
                        *d = s[l];
                    }
                    &small[..srcs.len()]
                } else {
                    large.clear();
                    large.extend(srcs.iter().map(|s| s[l]));
                    &large
                };
                let out = evaluate(inst.opcode, info, lane_srcs)?;
                results[0][l] = out[0];
                results[1][l] = out[1];
            }
        }
        for (d, res) in results.iter().enumerate().take(inst.dst.len()) {
            self.write_lanes(at, inst, d, exec, res, info.dst_type);
        }
        Ok(())
    }

    /// The destination pipeline for every lane in `mask`.
    fn write_lanes(
        &mut self,
        at: usize,
        inst: &Instruction,
        d: usize,
        mask: Mask,
        results: &[Written; LANES],
        dst_type: OperandType,
    ) {
        for l in (0..LANES).filter(|&l| mask[l]) {
            self.write_dst(at, l, inst, d, results[l], dst_type);
        }
    }

    /// result -> MODULATE -> saturate -> CC update -> writemask and CC write test.
    pub(super) fn write_dst(
        &mut self,
        at: usize,
        lane: usize,
        inst: &Instruction,
        d: usize,
        result: Written,
        ty: OperandType,
    ) {
        let Some(dst) = inst.dst.get(d) else {
            return;
        };
        let slot = operand::resolve(&self.st, lane, &dst.reg, 0);
        let float_ty = matches!(ty, OperandType::Float | OperandType::Untyped);
        let to_addr = dst.reg.file == File::Address && ty == OperandType::Float;
        let mut vals = [0u32; 4];
        let mut written = [false; 4];
        for c in 0..4 {
            let Some(mut v) = result[c] else {
                continue;
            };
            if float_ty && dst.modulate != Modulate::X1 {
                v = float::mul(v, dst.modulate.factor().to_bits());
            }
            if float_ty {
                v = match inst.saturate {
                    Saturate::None => v,
                    Saturate::ZeroOne => float::saturate(v, 0.0),
                    Saturate::MinusPlusOne => float::saturate(v, -1.0),
                };
            }
            if to_addr {
                v = float::floor_to_i32(v) as u32;
            }
            vals[c] = v;
            written[c] = dst.write_mask & (1 << c) != 0
                && dst.cond.is_none_or(|t| self.st.cc_passes(lane, &t, c));
        }
        if let Some(k) = inst.cond_update {
            let cc_ty = if to_addr { OperandType::Int } else { ty };
            for c in (0..4).filter(|&c| written[c]) {
                self.st.cc[lane][usize::from(k.min(1))][c] = classify(&vals, c, cc_ty);
            }
        }
        let dropped =
            written.iter().any(|&w| w) && !self.st.write_masked(lane, slot, written, vals);
        if dropped {
            self.st.warnings.insert(format!(
                "instruction {at}: write to {} (lane {lane}) is outside the declared range; dropped",
                operand::slot_text(slot, dst.reg.dimension.is_some())
            ));
        }
    }
}

/// Condition code of component `c` of a written value.
fn classify(vals: &Vec4, c: usize, ty: OperandType) -> Cc {
    match ty {
        OperandType::Int => match (vals[c] as i32).cmp(&0) {
            std::cmp::Ordering::Greater => Cc::Gt,
            std::cmp::Ordering::Equal => Cc::Eq,
            std::cmp::Ordering::Less => Cc::Lt,
        },
        OperandType::Uint => {
            if vals[c] == 0 {
                Cc::Eq
            } else {
                Cc::Gt
            }
        }
        OperandType::Double => {
            let p = c / 2;
            let x = f64::from_bits(u64::from(vals[2 * p]) | u64::from(vals[2 * p + 1]) << 32);
            float_cc(x)
        }
        _ => float_cc(f64::from(float::input(vals[c]))),
    }
}

fn float_cc(x: f64) -> Cc {
    if x.is_nan() {
        Cc::Un
    } else if x > 0.0 {
        Cc::Gt
    } else if x < 0.0 {
        Cc::Lt
    } else {
        Cc::Eq
    }
}

/// Results of one lane for both destinations.
fn evaluate(op: Opcode, info: &OpcodeInfo, s: &[Vec4]) -> Result<[Written; 2], RunErrorKind> {
    if s.len() < usize::from(info.num_src) {
        return Err(RunErrorKind::Unsupported(format!(
            "{op} needs {} sources",
            info.num_src
        )));
    }
    if let Some(w) = ops_float::eval(op, s) {
        return Ok([w, [None; 4]]);
    }
    if let Some(w) = ops_int::eval(op, s) {
        return Ok([w, [None; 4]]);
    }
    if let Some(w) = pack::eval(op, s) {
        return Ok([w, [None; 4]]);
    }
    if let Some(w) = ops_double::eval(op, s) {
        return Ok(w);
    }
    Err(RunErrorKind::Unsupported(format!("{op} is not executable")))
}
