//! The interpreter loop: the fast kernels or the general path per instruction, control-flow
//! instructions and the destination pipeline.
//!
//! The lanes that execute an instruction are the active lanes of [`Control`], narrowed by the
//! instruction's CondFlow test. Blocks no lane enters are skipped to their closing instruction,
//! which still executes (and counts) so that the mask stacks stay balanced.

use super::control::{Control, Next};
use super::defs::{RunError, RunErrorKind, ADDRESS_STACK_LIMIT, ENGINE};
use super::flow::Structure;
use super::kernels::{self, Decoded};
use super::operand::{self, fetch, View};
use super::state::{Cc, Layout, Mask, State, Vec4, Written, ALL, NONE};
use super::{float, ops_double, ops_float, ops_int, pack, texture};
use crate::run_io::{LaneOutput, RunInputs, RunOutput, Vertex, LANES};
use microcode::tgsi::opcode::{Flow, Kind, OpcodeInfo, OperandType};
use microcode::tgsi::{File, Instruction, Modulate, Opcode, Processor, Program, Saturate};
use std::collections::BTreeMap;

/// A program made ready to run (what [`super::Prepared`] holds): its block structure, register
/// layout, opcode rows and the way each instruction runs.
pub struct Code<'p> {
    program: &'p Program,
    structure: Structure,
    layout: Layout,
    infos: Vec<&'static OpcodeInfo>,
    /// How each instruction runs: most float instructions through `kernels` (with `fast`), the
    /// rest through this interpreter.
    decoded: Vec<Decoded>,
}

impl<'p> Code<'p> {
    /// Prepares `program` (assumed validated), with the fast kernels when `fast`; fails when its
    /// block structure does not match.
    pub fn new(program: &'p Program, fast: bool) -> Result<Code<'p>, RunError> {
        let insts = program.instructions.as_slice();
        let structure = Structure::build(insts).map_err(|(index, what)| RunError {
            index,
            opcode: insts.get(index).map_or(Opcode::End, |i| i.opcode),
            kind: RunErrorKind::Structure(what),
        })?;
        let layout = Layout::new(program);
        let decoded = insts
            .iter()
            .map(|i| {
                if fast {
                    Decoded::new(&layout, i)
                } else {
                    Decoded::General
                }
            })
            .collect();
        Ok(Code {
            program,
            structure,
            infos: insts.iter().map(|i| i.opcode.info()).collect(),
            layout,
            decoded,
        })
    }

    /// How many instructions run on the fast kernels.
    pub fn fast_instructions(&self) -> usize {
        self.decoded
            .iter()
            .filter(|d| !matches!(d, Decoded::General))
            .count()
    }
}

/// The state of one run.
pub struct Machine<'a> {
    pub(super) st: State<'a>,
    pub(super) insts: &'a [Instruction],
    /// `insts[i].opcode.info()`, looked up once.
    infos: &'a [&'static OpcodeInfo],
    /// How each instruction runs (fast kernels or this interpreter).
    decoded: &'a [Decoded],
    structure: &'a Structure,
    /// Execution masks and block stacks.
    ctl: Control,
    addr_stack: [Vec<Vec4>; LANES],
    vertices: [Vec<Vertex>; LANES],
    count: u64,
    /// Source operands of the current instruction, kept between instructions for its allocation.
    srcs: Vec<[Vec4; LANES]>,
}

impl<'a> Machine<'a> {
    /// A machine for `prepared` with the constants and textures of `inputs`; [`Machine::run`]
    /// then runs one quad.
    pub fn new(prepared: &'a Code<'a>, inputs: &'a RunInputs) -> Machine<'a> {
        Machine {
            st: State::new(prepared.program, &prepared.layout, inputs),
            insts: prepared.program.instructions.as_slice(),
            infos: &prepared.infos,
            decoded: &prepared.decoded,
            structure: &prepared.structure,
            ctl: Control::default(),
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
                out[s * LANES..(s + 1) * LANES].copy_from_slice(&self.st.output_lanes(r));
            }
        }
        Ok((self.ctl.alive.map(|a| !a), self.count))
    }

    /// The main loop of one quad whose inputs are loaded: resets masks, stacks and count first.
    fn execute(&mut self) -> Result<(), RunError> {
        self.ctl.reset();
        for l in 0..LANES {
            self.addr_stack[l].clear();
            self.vertices[l].clear();
        }
        self.count = 0;
        let mut pc = 0usize;
        while pc < self.insts.len() && self.ctl.alive.iter().any(|&a| a) {
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
                    k.run(&mut self.st.file, self.ctl.active());
                    pc += 1;
                    continue;
                }
                Decoded::Kil(src) => {
                    let kill = kernels::kil(src, &self.st.file, self.ctl.active());
                    self.ctl.kill(&kill);
                    pc += 1;
                    continue;
                }
                Decoded::If(src) => {
                    let test = kernels::test_x(src, &self.st.file, self.ctl.active());
                    self.ctl.if_(test);
                    pc = self
                        .ctl
                        .skip_if_idle(self.structure, pc)
                        .map_err(|kind| RunError {
                            index: pc,
                            opcode: inst.opcode,
                            kind,
                        })?;
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
                killed: !self.ctl.alive[l],
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

    /// Active lanes that also pass the instruction's CondFlow test.
    fn exec_mask(&self, inst: &Instruction) -> Mask {
        let a = self.ctl.active();
        std::array::from_fn(|l| a[l] && inst.cond_flow.is_none_or(|t| self.st.cc_any(l, &t)))
    }

    fn label(&self, inst: &Instruction) -> Result<usize, RunErrorKind> {
        let target = inst.label.unwrap_or(u32::MAX);
        let t = target as usize;
        if t < self.insts.len() {
            Ok(t)
        } else {
            Err(RunErrorKind::BadLabel { target })
        }
    }

    /// Source `k` of the lanes in `mask` (others read as zero).
    fn fetch_lanes(
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
    fn test_x(&mut self, at: usize, inst: &Instruction, mask: Mask) -> Result<Mask, RunErrorKind> {
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
                self.ctl.kill(&kill);
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

    /// Executes one control-flow instruction and says where to continue: the operands it tests
    /// or counts and the registers it writes here, the masks and stacks in [`Control`].
    fn flow(&mut self, at: usize, inst: &Instruction, f: Flow) -> Result<Next, RunErrorKind> {
        let next = Next::Go(at + 1);
        let structure = self.structure;
        match f {
            Flow::If | Flow::Ifc => {
                let exec = self.exec_mask(inst);
                let test = self.test_x(at, inst, exec)?;
                self.ctl.if_(test);
                Ok(Next::Go(self.ctl.skip_if_idle(structure, at)?))
            }
            Flow::Else => {
                self.ctl.else_()?;
                Ok(Next::Go(self.ctl.skip_if_idle(structure, at)?))
            }
            Flow::EndIf => {
                self.ctl.end_if()?;
                Ok(next)
            }
            Flow::BgnLoop => {
                let a = self.ctl.active();
                self.ctl.enter_loop(a, [0; LANES]);
                Ok(Next::Go(self.ctl.skip_if_idle(structure, at)?))
            }
            Flow::BgnFor => {
                let a = self.ctl.active();
                let v = self.fetch_lanes(at, inst, 0, a, View::Float, 0)?;
                let mut enter = NONE;
                for l in (0..LANES).filter(|&l| a[l]) {
                    let [x, y, z] = [0, 1, 2].map(|c| float::floor_to_i32(v[l][c]));
                    self.write_dst(
                        at,
                        l,
                        inst,
                        0,
                        [Some(x as u32), Some(y as u32), Some(z as u32), None],
                        OperandType::Int,
                    );
                    enter[l] = y > 0;
                }
                self.ctl.enter_loop(enter, [0; LANES]);
                Ok(Next::Go(self.ctl.skip_if_idle(structure, at)?))
            }
            Flow::Rep => {
                let a = self.ctl.active();
                let v = self.fetch_lanes(at, inst, 0, a, View::Float, 0)?;
                let counts: [i64; LANES] =
                    std::array::from_fn(|l| i64::from(float::floor_to_i32(v[l][0])));
                let enter = std::array::from_fn(|l| a[l] && counts[l] > 0);
                self.ctl.enter_loop(enter, counts);
                Ok(Next::Go(self.ctl.skip_if_idle(structure, at)?))
            }
            Flow::EndLoop | Flow::EndFor | Flow::EndRep => self.end_loop(at, inst, f),
            Flow::Brk | Flow::BreakC => {
                let exec = self.exec_mask(inst);
                let hit = if f == Flow::BreakC {
                    self.test_x(at, inst, exec)?
                } else {
                    exec
                };
                self.ctl.brk(&hit);
                Ok(next)
            }
            Flow::Cont => {
                let exec = self.exec_mask(inst);
                self.ctl.cont(&exec);
                Ok(next)
            }
            Flow::Cal | Flow::CallNz => {
                let exec = self.exec_mask(inst);
                let callers = if f == Flow::CallNz {
                    self.test_x(at, inst, exec)?
                } else {
                    exec
                };
                if !callers.iter().any(|&c| c) {
                    return Ok(next);
                }
                let target = self.label(inst)?;
                self.ctl.call(at + 1, callers)?;
                Ok(Next::Go(target))
            }
            Flow::Ret => {
                let exec = self.exec_mask(inst);
                Ok(self.ctl.ret(at, &exec))
            }
            Flow::EndSub => Ok(self.ctl.end_sub(at)),
            Flow::BgnSub => Ok(next),
            Flow::End => Ok(Next::Stop),
            Flow::Bra => {
                let target = self.label(inst)?;
                let Some(test) = inst.cond_flow else {
                    return self.ctl.branch(structure, self.insts, at, target);
                };
                let a = self.ctl.active();
                let taken: Mask = std::array::from_fn(|l| a[l] && self.st.cc_any(l, &test));
                let any_taken = taken.iter().any(|&t| t);
                let all_taken = (0..LANES).all(|l| !a[l] || taken[l]);
                if any_taken && !all_taken {
                    return Err(RunErrorKind::DivergentBranch { taken });
                }
                if any_taken {
                    self.ctl.branch(structure, self.insts, at, target)
                } else {
                    Ok(next)
                }
            }
        }
    }

    /// ENDLOOP / ENDFOR / ENDREP: update counters, then repeat while any lane is still in the loop.
    fn end_loop(&mut self, at: usize, inst: &Instruction, f: Flow) -> Result<Next, RunErrorKind> {
        let in_loop = self.ctl.loop_end_lanes();
        for l in (0..LANES).filter(|&l| in_loop[l]) {
            match f {
                Flow::EndFor => {
                    let dst = inst.dst.first().ok_or_else(|| {
                        RunErrorKind::Unsupported("ENDFOR without a LOOP register".into())
                    })?;
                    let slot = operand::resolve(&self.st, l, &dst.reg, 0);
                    let v = self.st.read(l, slot);
                    let x = (v[0] as i32).wrapping_add(v[2] as i32);
                    let y = (v[1] as i32).wrapping_sub(1);
                    self.write_dst(
                        at,
                        l,
                        inst,
                        0,
                        [Some(x as u32), Some(y as u32), None, None],
                        OperandType::Int,
                    );
                    if y <= 0 {
                        self.ctl.leave_loop(l);
                    }
                }
                Flow::EndRep => self.ctl.rep_step(l)?,
                _ => {}
            }
        }
        self.ctl.loop_end(self.structure, at)
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
    fn write_dst(
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
