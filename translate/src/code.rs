//! The translator's own instruction list: TGSI instructions over virtual temporaries, then the
//! passes that make it tight (copy coalescing, dead-code removal, register allocation) and the
//! printer that turns it into TGSI text.

use microcode::tgsi::opcode::{Kind, OutputMode};
use microcode::tgsi::Opcode;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// A register file the translator writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    /// A virtual temporary before allocation, a `TEMP` register after it.
    Temp,
    /// `IN`.
    In,
    /// `OUT`.
    Out,
    /// `CONST`.
    Const,
    /// `IMM`.
    Imm,
    /// `SAMP`.
    Samp,
    /// `ADDR` (only ADDR[0], only written by ARL).
    Addr,
}

/// One register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg {
    pub file: RegFile,
    pub index: u32,
}

impl Reg {
    pub fn temp(index: u32) -> Reg {
        Reg {
            file: RegFile::Temp,
            index,
        }
    }
}

/// A source operand: a register, a swizzle (component `i` reads `swz[i]`), negate and absolute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    pub reg: Reg,
    pub swz: [u8; 4],
    pub neg: bool,
    pub abs: bool,
    /// Read `reg.file[ADDR[0].x + reg.index]` (a uniform array indexed at run time).
    pub rel: bool,
}

impl Src {
    pub fn reg(reg: Reg) -> Src {
        Src {
            reg,
            swz: [0, 1, 2, 3],
            neg: false,
            abs: false,
            rel: false,
        }
    }
    /// Component `c` replicated to all four.
    pub fn comp(self, c: usize) -> Src {
        Src {
            swz: [self.swz[c]; 4],
            ..self
        }
    }
    pub fn negated(self) -> Src {
        Src {
            neg: !self.neg,
            ..self
        }
    }
}

/// A texture target name as the text syntax spells it.
pub type Target = &'static str;

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub op: Opcode,
    pub dst: Option<(Reg, u8)>,
    pub src: Vec<Src>,
    pub sat: bool,
    pub target: Option<Target>,
}

fn mask_iter(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask & (1 << c) != 0)
}

/// Which components of each source an instruction reads when it writes `mask`.
fn src_reads(inst: &Inst, mask: u8) -> Vec<u8> {
    let info = inst.op.info();
    let all = |s: &Src, comps: &[usize]| comps.iter().fold(0u8, |m, &c| m | 1 << s.swz[c]);
    inst.src
        .iter()
        .enumerate()
        .map(|(i, s)| match (inst.op, info.output) {
            // SHL and SHR shift every component by src1.x.
            (Opcode::Shl | Opcode::Shr, _) if i == 1 => all(s, &[0]),
            (_, OutputMode::ComponentWise) => mask_iter(mask).fold(0, |m, c| m | 1 << s.swz[c]),
            (Opcode::Dp2, _) => all(s, &[0, 1]),
            (Opcode::Dp2a, _) => {
                if i == 2 {
                    all(s, &[0])
                } else {
                    all(s, &[0, 1])
                }
            }
            (Opcode::Dp3 | Opcode::Nrm | Opcode::Xpd, _) => all(s, &[0, 1, 2]),
            (Opcode::Pow, _) => all(s, &[0]),
            (_, OutputMode::Replicated) => all(s, &[0]),
            (Opcode::If, _) => all(s, &[0]),
            _ => all(s, &[0, 1, 2, 3]),
        })
        .collect()
}

/// Liveness keys of outputs: the OUT index with this bit set (temporaries are plain indices).
const OUT_KEY: u32 = 1 << 31;

fn live_key(r: Reg) -> Option<u32> {
    match r.file {
        RegFile::Temp => Some(r.index),
        RegFile::Out => Some(OUT_KEY | r.index),
        _ => None,
    }
}

fn is_flow(op: Opcode) -> bool {
    matches!(op.info().kind, Kind::Flow(_))
}

/// A program under construction: instructions, immediates and declarations.
#[derive(Default)]
pub struct Code {
    pub insts: Vec<Inst>,
    pub imms: Vec<Vec<u32>>,
    /// Per immediate: true when it holds integers (printed `UINT32`), false for floats (`FLT32`).
    pub imm_is_int: Vec<bool>,
    pub next_temp: u32,
    /// Declarations of IN: index -> (semantic text, interpolation text).
    pub inputs: BTreeMap<u32, (String, Option<&'static str>)>,
    /// Declarations of OUT: index -> semantic text.
    pub outputs: BTreeMap<u32, String>,
    /// Highest CONST index used plus one.
    pub consts: u32,
    /// SAMP indices used.
    pub samplers: Vec<u32>,
    /// ADDR[0] is written (ARL) for run-time indexing of uniform arrays.
    pub uses_address: bool,
}

impl Code {
    pub fn temp(&mut self) -> Reg {
        self.next_temp += 1;
        Reg::temp(self.next_temp - 1)
    }

    pub fn push(&mut self, op: Opcode, dst: Option<(Reg, u8)>, src: Vec<Src>) {
        self.insts.push(Inst {
            op,
            dst,
            src,
            sat: false,
            target: None,
        });
    }

    /// A float immediate holding `values` (bit patterns), sharing an existing `IMM` where it can.
    pub fn imm(&mut self, values: &[u32]) -> Src {
        self.imm_of(values, false)
    }

    /// An integer immediate holding `values`, sharing an existing integer `IMM` where it can.
    pub fn imm_int(&mut self, values: &[u32]) -> Src {
        self.imm_of(values, true)
    }

    fn imm_of(&mut self, values: &[u32], int: bool) -> Src {
        let mut slot = None;
        for (i, imm) in self.imms.iter_mut().enumerate() {
            if self.imm_is_int[i] != int {
                continue;
            }
            let missing: Vec<u32> =
                values
                    .iter()
                    .copied()
                    .filter(|v| !imm.contains(v))
                    .fold(Vec::new(), |mut m, v| {
                        if !m.contains(&v) {
                            m.push(v);
                        }
                        m
                    });
            if imm.len() + missing.len() <= 4 {
                imm.extend(missing);
                slot = Some(i);
                break;
            }
        }
        let i = slot.unwrap_or_else(|| {
            let mut imm = Vec::new();
            for v in values {
                if !imm.contains(v) {
                    imm.push(*v);
                }
            }
            self.imms.push(imm);
            self.imm_is_int.push(int);
            self.imms.len() - 1
        });
        let imm = &self.imms[i];
        let mut swz = [0u8; 4];
        for (c, v) in values.iter().enumerate() {
            swz[c] = imm.iter().position(|x| x == v).unwrap_or(0) as u8;
        }
        for c in values.len()..4 {
            swz[c] = swz[values.len().saturating_sub(1)];
        }
        Src {
            reg: Reg {
                file: RegFile::Imm,
                index: i as u32,
            },
            swz,
            neg: false,
            abs: false,
            rel: false,
        }
    }

    /// Runs the passes: coalescing, dead code, register allocation.
    pub fn optimise(&mut self) {
        // Each pass can open work for the others (a narrowed mask, a removed use): to a fixed point.
        loop {
            let before = self.insts.clone();
            self.coalesce();
            self.fuse_mad();
            self.propagate_read_only();
            self.merge_adjacent();
            self.common_subexpressions();
            self.remove_dead();
            if self.insts == before {
                break;
            }
        }
        self.allocate();
        self.remove_self_moves();
        self.compact_immediates();
    }

    /// An instruction computing what an earlier one of the same block computed (the same opcode and
    /// operands, none of them written in between; whole nested blocks may lie between) is dropped
    /// and its readers read the earlier result. Both results are temporaries written once, and
    /// every reader of the later one follows it in its block, where both hold this pass's values
    /// (an I2F of a loop counter for the test and another for a use, say).
    // The scan rewrites instructions after j while it walks: indices, not iterators.
    #[allow(clippy::needless_range_loop)]
    fn common_subexpressions(&mut self) {
        let n = self.insts.len();
        let mut defs: HashMap<u32, usize> = HashMap::new();
        for x in &self.insts {
            if let Some((d, _)) = x.dst {
                if d.file == RegFile::Temp {
                    *defs.entry(d.index).or_default() += 1;
                }
            }
        }
        let once = |r: Reg| r.file == RegFile::Temp && defs.get(&r.index) == Some(&1);
        // The end of the block holding instruction j (its ELSE, ENDIF or ENDLOOP, or the end).
        let block_end = |insts: &[Inst], j: usize| {
            let mut depth = 0usize;
            for (k, x) in insts.iter().enumerate().skip(j + 1) {
                match x.op {
                    Opcode::If | Opcode::BgnLoop => depth += 1,
                    Opcode::Else if depth == 0 => return k,
                    Opcode::EndIf | Opcode::EndLoop => {
                        if depth == 0 {
                            return k;
                        }
                        depth -= 1;
                    }
                    _ => {}
                }
            }
            insts.len()
        };
        let mut dead = vec![false; n];
        for i in 0..n {
            let a = self.insts[i].clone();
            let Some((ti, mi)) = a.dst else { continue };
            if dead[i] || !once(ti) || is_flow(a.op) || a.src.iter().any(|s| s.reg == ti || s.rel) {
                continue;
            }
            let mut depth = 0usize;
            for j in i + 1..n {
                let b = &self.insts[j];
                match b.op {
                    Opcode::If | Opcode::BgnLoop => depth += 1,
                    Opcode::Else if depth == 0 => break,
                    Opcode::EndIf | Opcode::EndLoop => {
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                    }
                    _ => {}
                }
                if depth == 0
                    && !dead[j]
                    && b.op == a.op
                    && b.src == a.src
                    && b.sat == a.sat
                    && b.target == a.target
                {
                    if let Some((tj, mj)) = b.dst {
                        let end = block_end(&self.insts, j);
                        let readers_after =
                            self.insts.iter().enumerate().all(|(k, x)| {
                                (k > j && k < end) || x.src.iter().all(|s| s.reg != tj)
                            });
                        if tj != ti && once(tj) && mj & !mi == 0 && readers_after {
                            for x in &mut self.insts[j + 1..end] {
                                for s in &mut x.src {
                                    if s.reg == tj {
                                        s.reg = ti;
                                    }
                                }
                            }
                            dead[j] = true;
                            continue;
                        }
                    }
                }
                let b = &self.insts[j];
                if let Some((d, _)) = b.dst {
                    if d == ti || a.src.iter().any(|s| s.reg == d) {
                        break;
                    }
                }
            }
        }
        let mut k = dead.into_iter();
        self.insts.retain(|_| !k.next().unwrap_or(false));
    }

    /// Replaces reads of a temporary written once, at the top level, by a MOV from a read-only
    /// register (IN, CONST, IMM) with reads of that register.
    fn propagate_read_only(&mut self) -> bool {
        let mut depth = 0usize;
        let mut changed = false;
        let mut i = 0;
        while i < self.insts.len() {
            let inst = &self.insts[i];
            if matches!(inst.op, Opcode::EndIf | Opcode::EndLoop) {
                depth = depth.saturating_sub(1);
            }
            let top = depth == 0;
            if matches!(inst.op, Opcode::If | Opcode::BgnLoop) {
                depth += 1;
            }
            if !top || inst.op != Opcode::Mov || inst.sat {
                i += 1;
                continue;
            }
            let Some((t, mask)) = inst.dst else {
                i += 1;
                continue;
            };
            let s = inst.src[0];
            if t.file != RegFile::Temp
                || s.rel
                || !matches!(s.reg.file, RegFile::In | RegFile::Const | RegFile::Imm)
            {
                i += 1;
                continue;
            }
            let single = self
                .insts
                .iter()
                .enumerate()
                .all(|(k, x)| k == i || x.dst.map(|d| d.0) != Some(t));
            // A negate or absolute value moves into the readers only where they read it as a
            // float (integer opcodes negate as int32).
            let modified = s.neg || s.abs;
            let uses_ok = self.insts.iter().enumerate().all(|(k, x)| {
                let m = x.dst.map(|d| d.1).unwrap_or(0xF);
                let int_view = x.op.info().src_type.is_integer();
                x.src.iter().zip(src_reads(x, m)).all(|(y, reads)| {
                    y.reg != t || (k > i && reads & !mask == 0 && !(modified && int_view))
                })
            });
            if !single || !uses_ok {
                i += 1;
                continue;
            }
            for x in &mut self.insts[i + 1..] {
                for y in &mut x.src {
                    if y.reg == t {
                        let swz = y.swz.map(|c| s.swz[c as usize]);
                        *y = Src {
                            rel: false,
                            reg: s.reg,
                            swz,
                            abs: y.abs || s.abs,
                            neg: if y.abs { y.neg } else { y.neg ^ s.neg },
                        };
                    }
                }
            }
            self.insts.remove(i);
            changed = true;
        }
        changed
    }

    /// `MUL t, a, b` then `ADD d, t, c` (t read nowhere else) is `MAD d, a, b, c`: MAD rounds the
    /// product and the sum separately (`decisions.md`), so the result is the same bits.
    fn fuse_mad(&mut self) {
        let mut i = 0;
        while i < self.insts.len() {
            if let Some(d) = self.fuse_at(i) {
                // The MUL before i is gone: the MAD is now at i - 1.
                self.insts.remove(d);
                continue;
            }
            i += 1;
        }
    }

    fn fuse_at(&mut self, i: usize) -> Option<usize> {
        let add = &self.insts[i];
        if add.op != Opcode::Add {
            return None;
        }
        let (_, amask) = add.dst?;
        for k in 0..2 {
            let t = add.src[k];
            if t.reg.file != RegFile::Temp || t.abs {
                continue;
            }
            let other = add.src[1 - k];
            let mut defs = Vec::new();
            let mut other_use = false;
            for (j, x) in self.insts.iter().enumerate() {
                if j != i && x.src.iter().any(|y| y.reg == t.reg) {
                    other_use = true;
                }
                if x.dst.map(|d| d.0) == Some(t.reg) {
                    defs.push(j);
                }
            }
            if other_use || defs.len() != 1 || defs[0] > i || other.reg == t.reg {
                continue;
            }
            let d = defs[0];
            let mul = &self.insts[d];
            if mul.op != Opcode::Mul || mul.sat {
                continue;
            }
            let (_, mmask) = mul.dst?;
            if mask_iter(amask).any(|c| mmask & (1 << t.swz[c]) == 0) {
                continue;
            }
            // MUL's operands unchanged and nothing but straight-line code between.
            let regs: Vec<Reg> = mul.src.iter().map(|y| y.reg).collect();
            let clean = self.insts[d + 1..i].iter().all(|x| {
                !is_flow(x.op)
                    && x.op.info().kind != Kind::Kill
                    && !x.dst.is_some_and(|(r, _)| regs.contains(&r))
            });
            if !clean {
                continue;
            }
            let mut a = mul.src[0];
            let mut b = mul.src[1];
            let mut swz_a = [0u8; 4];
            let mut swz_b = [0u8; 4];
            for c in 0..4 {
                swz_a[c] = a.swz[t.swz[c] as usize];
                swz_b[c] = b.swz[t.swz[c] as usize];
            }
            a.swz = swz_a;
            b.swz = swz_b;
            if t.neg {
                a.neg = !a.neg;
                if a.abs {
                    // -|a| * b cannot be said with one modifier set on a: negate b instead.
                    a.neg = !a.neg;
                    b.neg = !b.neg;
                    if b.abs {
                        continue;
                    }
                }
            }
            let new = Inst {
                op: Opcode::Mad,
                dst: add.dst,
                src: vec![a, b, other],
                sat: add.sat,
                target: None,
            };
            self.insts[i] = new;
            return Some(d);
        }
        None
    }

    /// Two neighbouring component-wise instructions of one opcode writing different components of
    /// one register from the same registers (`MUL R.x, A.x, B.x` then `MUL R.y, A.x, B.y`) are one
    /// instruction (`MUL R.xy, A.x, B.xy`), unless the second reads what the first wrote.
    fn merge_adjacent(&mut self) {
        let mut i = 0;
        while i + 1 < self.insts.len() {
            let (a, b) = (&self.insts[i], &self.insts[i + 1]);
            // Not SHL / SHR: one instruction shifts every component by the same src1.x.
            let mergeable = a.op == b.op
                && !matches!(a.op, Opcode::Shl | Opcode::Shr)
                && a.op.info().output == OutputMode::ComponentWise
                && a.op.info().kind == Kind::Alu
                && a.sat == b.sat
                && a.src.len() == b.src.len()
                && match (a.dst, b.dst) {
                    (Some((ra, ma)), Some((rb, mb))) => {
                        ra == rb
                            && ma & mb == 0
                            && a.src.iter().zip(&b.src).all(|(x, y)| {
                                x.reg == y.reg
                                    && x.neg == y.neg
                                    && x.abs == y.abs
                                    && !x.rel
                                    && !y.rel
                            })
                            && b.src.iter().all(|y| {
                                y.reg != ra || mask_iter(mb).all(|c| ma & (1 << y.swz[c]) == 0)
                            })
                    }
                    _ => false,
                };
            if !mergeable {
                i += 1;
                continue;
            }
            let b = self.insts.remove(i + 1);
            let a = &mut self.insts[i];
            let (Some((_, ma)), Some((_, mb))) = (a.dst, b.dst) else {
                continue;
            };
            for (x, y) in a.src.iter_mut().zip(&b.src) {
                for c in mask_iter(mb) {
                    x.swz[c] = y.swz[c];
                }
            }
            if let Some((_, m)) = &mut a.dst {
                *m = ma | mb;
            }
        }
    }

    /// `MOV R.m, R` with the identity swizzle on `m` (what allocation can leave) does nothing.
    fn remove_self_moves(&mut self) {
        self.insts.retain(|x| {
            !(x.op == Opcode::Mov
                && !x.sat
                && x.dst.is_some_and(|(d, m)| {
                    let s = x.src[0];
                    d == s.reg && !s.neg && !s.abs && mask_iter(m).all(|c| s.swz[c] as usize == c)
                }))
        });
    }

    /// Drops immediate values no instruction reads and renumbers what is left.
    fn compact_immediates(&mut self) {
        let mut used: Vec<Vec<u32>> = Vec::new();
        let mut kinds: Vec<bool> = Vec::new();
        let mut remap: HashMap<(u32, u8), (u32, u8)> = HashMap::new();
        let old = std::mem::take(&mut self.imms);
        let old_kinds = std::mem::take(&mut self.imm_is_int);
        // Group per old register: an instruction's operand must stay inside one register.
        for (oi, imm) in old.iter().enumerate() {
            let mut comps: Vec<u8> = Vec::new();
            for x in &self.insts {
                let m = x.dst.map(|d| d.1).unwrap_or(0xF);
                for (y, reads) in x.src.iter().zip(src_reads(x, m)) {
                    if y.reg.file == RegFile::Imm && y.reg.index == oi as u32 {
                        for c in mask_iter(reads) {
                            if !comps.contains(&(c as u8)) {
                                comps.push(c as u8);
                            }
                        }
                    }
                }
            }
            if comps.is_empty() {
                continue;
            }
            comps.sort_unstable();
            let ni = used.len() as u32;
            used.push(comps.iter().map(|&c| imm[c as usize]).collect());
            kinds.push(old_kinds.get(oi).copied().unwrap_or(false));
            for (k, &c) in comps.iter().enumerate() {
                remap.insert((oi as u32, c), (ni, k as u8));
            }
        }
        for x in &mut self.insts {
            let m = x.dst.map(|d| d.1).unwrap_or(0xF);
            let reads = src_reads(x, m);
            for (y, r) in x.src.iter_mut().zip(reads) {
                if y.reg.file != RegFile::Imm {
                    continue;
                }
                let oi = y.reg.index;
                let mut ni = None;
                for c in 0..4 {
                    if let Some(&(n, k)) = remap.get(&(oi, y.swz[c])) {
                        ni = Some(n);
                        y.swz[c] = k;
                    } else if r & (1 << y.swz[c]) == 0 {
                        // An unread component: point it at one that exists.
                        y.swz[c] = 0;
                    }
                }
                if let Some(n) = ni {
                    y.reg.index = n;
                }
            }
        }
        self.imms = used;
        self.imm_is_int = kinds;
    }

    /// Successors of each instruction (index `len` is the exit).
    fn successors(&self) -> Vec<Vec<usize>> {
        let n = self.insts.len();
        let mut succ = vec![Vec::new(); n];
        let mut stack: Vec<usize> = Vec::new();
        // Matching pairs first.
        let mut else_of = HashMap::new();
        let mut end_of = HashMap::new();
        let mut loop_end = HashMap::new();
        let mut loop_of = vec![None; n];
        let mut loops: Vec<usize> = Vec::new();
        for (i, inst) in self.insts.iter().enumerate() {
            match inst.op {
                Opcode::If | Opcode::BgnLoop => {
                    stack.push(i);
                    if inst.op == Opcode::BgnLoop {
                        loops.push(i);
                    }
                }
                Opcode::Else => {
                    if let Some(&o) = stack.last() {
                        else_of.insert(o, i);
                    }
                }
                Opcode::EndIf => {
                    if let Some(o) = stack.pop() {
                        end_of.insert(o, i);
                        if let Some(&e) = else_of.get(&o) {
                            end_of.insert(e, i);
                        }
                    }
                }
                Opcode::EndLoop => {
                    if let Some(o) = stack.pop() {
                        loop_end.insert(o, i);
                        loop_end.insert(i, o);
                        loops.pop();
                    }
                }
                _ => {}
            }
            loop_of[i] = loops.last().copied();
        }
        for (i, inst) in self.insts.iter().enumerate() {
            succ[i] = match inst.op {
                Opcode::If => vec![i + 1, else_of.get(&i).map(|e| e + 1).unwrap_or(end_of[&i])],
                Opcode::Else => vec![end_of[&i]],
                Opcode::EndLoop => vec![loop_end[&i] + 1],
                Opcode::Brk => vec![loop_end[&loop_of[i].unwrap()] + 1],
                Opcode::Cont => vec![loop_end[&loop_of[i].unwrap()]],
                Opcode::Ret | Opcode::End => vec![n],
                _ => vec![i + 1],
            };
            if inst.op == Opcode::EndLoop {
                // The loop runs again or is left by a BRK: both reach BGNLOOP's successor or the exit.
                succ[i] = vec![loop_end[&i] + 1];
            }
        }
        succ
    }

    /// Live temporaries and outputs (per component mask) at the entry of each instruction; an
    /// output is keyed `OUT_KEY | index`, and every output is live at the exit.
    fn liveness(&self) -> Vec<HashMap<u32, u8>> {
        let n = self.insts.len();
        let succ = self.successors();
        let mut live_in: Vec<HashMap<u32, u8>> = vec![HashMap::new(); n + 1];
        for &o in self.outputs.keys() {
            live_in[n].insert(OUT_KEY | o, 0xF);
        }
        loop {
            let mut changed = false;
            for i in (0..n).rev() {
                let mut out: HashMap<u32, u8> = HashMap::new();
                for &s in &succ[i] {
                    for (&r, &m) in &live_in[s] {
                        *out.entry(r).or_default() |= m;
                    }
                }
                let inst = &self.insts[i];
                if let Some((d, mask)) = inst.dst {
                    if let Some(key) = live_key(d) {
                        if let Some(m) = out.get_mut(&key) {
                            *m &= !mask;
                            if *m == 0 {
                                out.remove(&key);
                            }
                        }
                    }
                }
                let mask = inst.dst.map(|d| d.1).unwrap_or(0xF);
                for (s, reads) in inst.src.iter().zip(src_reads(inst, mask)) {
                    if s.reg.file == RegFile::Temp {
                        *out.entry(s.reg.index).or_default() |= reads;
                    }
                }
                if out != live_in[i] {
                    live_in[i] = out;
                    changed = true;
                }
            }
            if !changed {
                return live_in;
            }
        }
    }

    /// Live temporaries after each instruction (union over successors).
    fn live_out(&self, live_in: &[HashMap<u32, u8>]) -> Vec<HashMap<u32, u8>> {
        let succ = self.successors();
        succ.iter()
            .map(|ss| {
                let mut out: HashMap<u32, u8> = HashMap::new();
                for &s in ss {
                    for (&r, &m) in &live_in[s] {
                        *out.entry(r).or_default() |= m;
                    }
                }
                out
            })
            .collect()
    }

    /// Removes writes to temporaries nobody reads; narrows write masks to what is read.
    fn remove_dead(&mut self) {
        let live_in = self.liveness();
        let live_out = self.live_out(&live_in);
        let mut keep = vec![true; self.insts.len()];
        for (i, inst) in self.insts.iter_mut().enumerate() {
            if let Some((d, mask)) = &mut inst.dst {
                let Some(key) = live_key(*d) else {
                    continue;
                };
                let live = live_out[i].get(&key).copied().unwrap_or(0) & *mask;
                if live == 0 {
                    keep[i] = false;
                } else if matches!(
                    inst.op.info().output,
                    OutputMode::ComponentWise | OutputMode::Replicated
                ) || matches!(
                    inst.op,
                    Opcode::Tex | Opcode::Txb | Opcode::Txl | Opcode::Txd
                ) {
                    *mask = live;
                }
            }
        }
        let mut k = keep.into_iter();
        self.insts.retain(|_| k.next().unwrap());
    }

    /// Folds `MOV x, t` into the instruction that computed `t` when `t` has no other use.
    fn coalesce(&mut self) {
        let mut i = 0;
        while i < self.insts.len() {
            match self.coalesce_at(i) {
                // The MOV at i is gone: the next instruction is now at i.
                Some(j) => {
                    self.insts.remove(j);
                }
                None => i += 1,
            }
        }
    }

    /// Tries to fold the MOV at `i` into its source's definitions (all in the straight-line code
    /// before it); returns the MOV's index to remove.
    fn coalesce_at(&mut self, i: usize) -> Option<usize> {
        let mv = &self.insts[i];
        if mv.op != Opcode::Mov {
            return None;
        }
        let (dst, dmask) = mv.dst?;
        let s = mv.src[0];
        if s.reg.file != RegFile::Temp || s.neg || s.abs || s.reg == dst {
            return None;
        }
        // Uses of t anywhere else, and its definitions.
        let mut defs = Vec::new();
        for (k, inst) in self.insts.iter().enumerate() {
            if k != i && inst.src.iter().any(|x| x.reg == s.reg) {
                return None;
            }
            if inst.dst.map(|d| d.0) == Some(s.reg) {
                defs.push(k);
            }
        }
        if defs.is_empty() || defs.iter().any(|&d| d > i) {
            return None;
        }
        let d0 = defs[0];
        // Straight-line code between, and nothing else touching dst there.
        for (k, inst) in self.insts[d0..i].iter().enumerate() {
            if is_flow(inst.op) || inst.op.info().kind == Kind::Kill {
                return None;
            }
            if inst.dst.map(|x| x.0) == Some(dst)
                || (k > 0 && inst.src.iter().any(|x| x.reg == dst))
            {
                return None;
            }
            if k > 0 && defs.contains(&(d0 + k)) && inst.src.iter().any(|x| x.reg == dst) {
                return None;
            }
        }
        // Component map: t's component s.swz[c] goes to dst component c.
        let mut map = [None::<usize>; 4];
        for c in mask_iter(dmask) {
            let from = s.swz[c] as usize;
            if map[from].is_some() {
                return None;
            }
            map[from] = Some(c);
        }
        let mut news = Vec::new();
        for &d in &defs {
            let def = &self.insts[d];
            let (_, tmask) = def.dst?;
            let mut new_mask = 0u8;
            for c in mask_iter(tmask) {
                new_mask |= 1 << map[c]?;
            }
            let mut new = def.clone();
            match def.op.info().output {
                OutputMode::ComponentWise => {
                    for src in &mut new.src {
                        let mut swz = src.swz;
                        for (from, to) in map.iter().enumerate() {
                            if let Some(to) = to {
                                swz[*to] = src.swz[from];
                            }
                        }
                        src.swz = swz;
                    }
                }
                OutputMode::Replicated => {}
                _ => {
                    if mask_iter(tmask).any(|c| map[c] != Some(c)) {
                        return None;
                    }
                }
            }
            // Saturation is a float operation: never onto an integer or untyped result.
            if mv.sat
                && (!matches!(def.op.info().kind, Kind::Alu | Kind::Texture)
                    || def.op.info().dst_type != microcode::tgsi::opcode::OperandType::Float)
            {
                return None;
            }
            new.dst = Some((dst, new_mask));
            new.sat = def.sat || mv.sat;
            news.push((d, new));
        }
        for (d, new) in news {
            self.insts[d] = new;
        }
        Some(i)
    }

    /// Maps virtual temporaries onto as few TEMP registers as interference allows.
    fn allocate(&mut self) {
        let live_in = self.liveness();
        let live_out = self.live_out(&live_in);
        let n = self.next_temp as usize;
        let mut interfere = vec![std::collections::BTreeSet::new(); n];
        let mut used = vec![false; n];
        for (i, inst) in self.insts.iter().enumerate() {
            let mut live: Vec<u32> = live_out[i]
                .keys()
                .copied()
                .filter(|k| k & OUT_KEY == 0)
                .collect();
            if let Some((d, _)) = inst.dst {
                if d.file == RegFile::Temp {
                    used[d.index as usize] = true;
                    live.push(d.index);
                }
            }
            for s in &inst.src {
                if s.reg.file == RegFile::Temp {
                    used[s.reg.index as usize] = true;
                }
            }
            live.sort_unstable();
            live.dedup();
            for &a in &live {
                for &b in &live {
                    if a != b {
                        interfere[a as usize].insert(b);
                    }
                }
            }
        }
        let mut colour = vec![u32::MAX; n];
        for v in 0..n {
            if !used[v] {
                continue;
            }
            let taken: std::collections::BTreeSet<u32> = interfere[v]
                .iter()
                .map(|&w| colour[w as usize])
                .filter(|&c| c != u32::MAX)
                .collect();
            colour[v] = (0..).find(|c| !taken.contains(c)).unwrap_or(0);
        }
        let map = |r: &mut Reg| {
            if r.file == RegFile::Temp {
                r.index = colour[r.index as usize];
            }
        };
        for inst in &mut self.insts {
            if let Some((d, _)) = &mut inst.dst {
                map(d);
            }
            for s in &mut inst.src {
                map(&mut s.reg);
            }
        }
        self.next_temp = colour
            .iter()
            .filter(|&&c| c != u32::MAX)
            .map(|c| c + 1)
            .max()
            .unwrap_or(0);
    }

    /// The program as TGSI text.
    pub fn print(&self, header: &str) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "{header}");
        for (i, (sem, interp)) in &self.inputs {
            let _ = write!(t, "DCL IN[{i}]");
            if !sem.is_empty() {
                let _ = write!(t, ", {sem}");
            }
            if let Some(ip) = interp {
                let _ = write!(t, ", {ip}");
            }
            t.push('\n');
        }
        for (i, sem) in &self.outputs {
            let _ = writeln!(t, "DCL OUT[{i}], {sem}");
        }
        let mut samps = self.samplers.clone();
        samps.sort_unstable();
        samps.dedup();
        for s in samps {
            let _ = writeln!(t, "DCL SAMP[{s}]");
        }
        if self.uses_address {
            let _ = writeln!(t, "DCL ADDR[0]");
        }
        if self.consts > 0 {
            let _ = writeln!(t, "DCL CONST[0..{}]", self.consts - 1);
        }
        if self.next_temp > 0 {
            let _ = writeln!(t, "DCL TEMP[0..{}]", self.next_temp - 1);
        }
        for (imm, &int) in self.imms.iter().zip(&self.imm_is_int) {
            // Integers: decimal below 2^16, bit patterns (masks, hash constants) in hex.
            let vals: Vec<String> = imm
                .iter()
                .map(|&b| match int {
                    false => microcode::tgsi::text::number::format_f32(b),
                    true if b < 1 << 16 => b.to_string(),
                    true => format!("0x{b:08x}"),
                })
                .collect();
            let ty = if int { "UINT32" } else { "FLT32" };
            let _ = writeln!(t, "IMM {ty} {{ {} }}", vals.join(", "));
        }
        let mut depth = 0usize;
        for (n, inst) in self.insts.iter().enumerate() {
            if matches!(inst.op, Opcode::Else | Opcode::EndIf | Opcode::EndLoop) {
                depth = depth.saturating_sub(1);
            }
            let _ = write!(t, "{n:3}: {}", "  ".repeat(depth));
            t.push_str(inst.op.info().mnemonic);
            if inst.sat {
                t.push_str("_SAT");
            }
            let mut ops = Vec::new();
            if let Some((d, mask)) = inst.dst {
                let mut s = reg_name(d);
                if mask != 0xF {
                    s.push('.');
                    for c in mask_iter(mask) {
                        s.push(b"xyzw"[c] as char);
                    }
                }
                ops.push(s);
            }
            for s in &inst.src {
                ops.push(src_text(s));
            }
            if !ops.is_empty() {
                t.push(' ');
                t.push_str(&ops.join(", "));
            }
            if let Some(target) = inst.target {
                let _ = write!(t, ", {target}");
            }
            t.push('\n');
            if matches!(inst.op, Opcode::If | Opcode::Else | Opcode::BgnLoop) {
                depth += 1;
            }
        }
        t
    }
}

fn reg_name(r: Reg) -> String {
    let f = match r.file {
        RegFile::Temp => "TEMP",
        RegFile::In => "IN",
        RegFile::Out => "OUT",
        RegFile::Const => "CONST",
        RegFile::Imm => "IMM",
        RegFile::Samp => "SAMP",
        RegFile::Addr => "ADDR",
    };
    format!("{f}[{}]", r.index)
}

fn src_text(s: &Src) -> String {
    let mut r = reg_name(s.reg);
    if s.rel {
        let file = r.split('[').next().unwrap_or("CONST").to_string();
        r = format!("{file}[ADDR[0].x+{}]", s.reg.index);
    }
    if s.reg.file != RegFile::Samp && s.swz != [0, 1, 2, 3] {
        r.push('.');
        if s.swz.iter().all(|&c| c == s.swz[0]) {
            r.push(b"xyzw"[s.swz[0] as usize] as char);
        } else {
            for c in s.swz {
                r.push(b"xyzw"[c as usize] as char);
            }
        }
    }
    match (s.neg, s.abs) {
        (false, false) => r,
        (true, false) => format!("-{r}"),
        (false, true) => format!("|{r}|"),
        (true, true) => format!("-|{r}|"),
    }
}
