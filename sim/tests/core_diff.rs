//! Differential tests: the reference model (TGSI interpreter) against the core model (compiled
//! image), on hand-written programs for every lowered opcode and form, and on random programs
//! from a generator restricted to what the compiler lowers. Exact operations must agree bit for
//! bit; approximated results (written only to OUT[1], which nothing reads) within a tolerance;
//! kills and faults identically. Also: images round-trip through bytes and the disassembler,
//! every limit produces its error, and unsupported opcodes are reported, not miscompiled.

use microcode::compile::{compile, CompileError};
use microcode::core::disasm::listing;
use microcode::core::{CoreConfig, Image};
use microcode::rng::XorShift;
use microcode::tgsi::opcode::{Kind, Lowering, OperandType, OutputMode, OPCODES};
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::*;
use sim::run_io::{RunInputs, RunOutput};
use std::collections::BTreeMap;

mod common;
use common::programs::*;

fn close(a: u32, b: u32) -> bool {
    if a == b {
        return true;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if x.is_infinite() || y.is_infinite() {
        return false;
    }
    let (x, y) = (f64::from(x), f64::from(y));
    (x - y).abs() <= 1e-5 + 1e-4 * x.abs().max(y.abs())
}

/// Runs both models and compares; `approx` lists OUT registers compared with a tolerance.
fn diff(p: &Program, inputs: &RunInputs, approx: &[u32]) -> Result<(RunOutput, RunOutput), String> {
    diff_with(p, inputs, approx, &CoreConfig::default())
}

/// [`diff`] on a core of another configuration.
fn diff_with(
    p: &Program,
    inputs: &RunInputs,
    approx: &[u32],
    cfg: &CoreConfig,
) -> Result<(RunOutput, RunOutput), String> {
    let text = text::print(p);
    let compiled = compile(p, cfg).map_err(|e| format!("{e}\n{text}"))?;
    // The core model reads `inputs` directly: the tests never set FACE, so the effective inputs
    // are the inputs (and the textures are shared).
    assert!(inputs.face.is_none());
    let r = sim::reference::run(p, inputs);
    let c = sim::core_model::run(&compiled.image, inputs);
    let (r, c) = match (r, c) {
        (Ok(r), Ok(c)) => (r, c),
        (Err(re), Err(ce)) => {
            let both_budget =
                re.to_string().contains("budget") && ce.to_string().contains("budget");
            if both_budget {
                return Err("BUDGET".into());
            }
            // The same fault flag (the reference names the lane too): an agreement.
            for fault in ["address stack underflow", "address stack overflow"] {
                if re.to_string().contains(fault) && ce.to_string().contains(fault) {
                    return Err("FAULT".into());
                }
            }
            return Err(format!("both failed differently: {re} / {ce}\n{text}"));
        }
        (r, c) => {
            return Err(format!(
                "one model failed: reference {:?} core {:?}\n{text}\n{}",
                r.err(),
                c.err(),
                compiled.listing(p)
            ))
        }
    };
    for l in 0..4 {
        let (rv, cv) = (&r.lanes[l].vertices, &c.lanes[l].vertices);
        let same_vertices = rv.len() == cv.len()
            && rv.iter().zip(cv).all(|(a, b)| {
                a.primitive_end == b.primitive_end
                    && a.outputs.len() == b.outputs.len()
                    && a.outputs.iter().all(|(k, x)| {
                        b.outputs.get(k).is_some_and(|y| {
                            (0..4).all(|i| {
                                if approx.contains(k) {
                                    close(x[i], y[i])
                                } else {
                                    x[i] == y[i]
                                }
                            })
                        })
                    })
            });
        if !same_vertices {
            return Err(format!(
                "lane {l} vertices differ:\nreference {rv:?}\ncore {cv:?}\n{text}"
            ));
        }
        if r.lanes[l].killed != c.lanes[l].killed {
            return Err(format!(
                "lane {l} killed differs\n{text}\n{}",
                compiled.listing(p)
            ));
        }
        for (reg, rv) in &r.lanes[l].outputs {
            let cv = c.lanes[l].outputs.get(reg).copied().unwrap_or([0; 4]);
            for k in 0..4 {
                let ok = if approx.contains(reg) {
                    close(rv[k], cv[k])
                } else {
                    rv[k] == cv[k]
                };
                if !ok {
                    return Err(format!(
                        "lane {l} OUT[{reg}].{k}: reference {:#010x} ({}) core {:#010x} ({})\n{text}\n{}",
                        rv[k],
                        f32::from_bits(rv[k]),
                        cv[k],
                        f32::from_bits(cv[k]),
                        compiled.listing(p)
                    ));
                }
            }
        }
    }
    Ok((r, c))
}

#[test]
fn hand_written_programs_agree() {
    let mut rng = XorShift::new(7);
    for (body, approx) in HAND {
        let p = parse(body);
        let mut finished = 0;
        for _ in 0..40 {
            let inputs = random_inputs_with(&mut rng, !approx.is_empty());
            match diff(&p, &inputs, approx) {
                Ok(_) => finished += 1,
                // Both models hit the budget (a REP of inf): the fault is what is compared.
                Err(e) if e == "BUDGET" => {}
                Err(e) => panic!("{e}"),
            }
        }
        assert!(finished >= 20, "only {finished} runs finished for\n{body}");
    }
}

#[test]
fn source_modifiers_and_modulate_agree() {
    // EXT_MOD and EXT_SWZ forms are built in memory (the generator covers them too).
    let mut rng = XorShift::new(11);
    let base = parse("ADD OUT[0], IN[0], IN[1]\nEND\n");
    let mods = [
        ExtMod {
            complement: true,
            ..ExtMod::default()
        },
        ExtMod {
            bias: true,
            ..ExtMod::default()
        },
        ExtMod {
            scale2x: true,
            ..ExtMod::default()
        },
        ExtMod {
            complement: true,
            bias: true,
            scale2x: true,
            absolute: true,
            negate: true,
        },
    ];
    for (k, m) in mods.iter().enumerate() {
        let mut p = base.clone();
        p.instructions[0].src[0].ext_mod = *m;
        p.instructions[0].src[1].ext_swizzle = Some(ExtSwizzle {
            select: [ExtSel::W, ExtSel::Zero, ExtSel::One, ExtSel::X],
            negate: [k % 2 == 0, true, false, k % 3 == 0],
            divide: if k % 2 == 0 { ExtSel::W } else { ExtSel::One },
        });
        p.instructions[0].dst[0].modulate = Modulate::from_number(k as u32 + 1).unwrap_or_default();
        validate(&p, &Limits::default()).expect("valid");
        for _ in 0..40 {
            let inputs = random_inputs(&mut rng);
            diff(&p, &inputs, &[]).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random programs.

/// The opcodes the random programs draw from, read off the opcode table: every supported
/// float, integer, packing and texture opcode (flow, kills, the address stack, geometry and
/// binary64 have tests of their own; SWZ is MOV with an extended swizzle, which the operands
/// below draw anyway), exact ones apart from approximated ones (`OpcodeInfo::is_approximate`).
fn drawn_ops(approximate: bool) -> Vec<Opcode> {
    OPCODES
        .iter()
        .filter(|i| i.is_supported() && matches!(i.kind, Kind::Alu | Kind::Texture))
        .filter(|i| i.lowering != Lowering::Double && i.opcode != Opcode::Swz)
        .filter(|i| i.is_approximate() == approximate)
        .map(|i| i.opcode)
        .collect()
}

static EXACT_OPS: std::sync::LazyLock<Vec<Opcode>> = std::sync::LazyLock::new(|| drawn_ops(false));
static APPROX_OPS: std::sync::LazyLock<Vec<Opcode>> = std::sync::LazyLock::new(|| drawn_ops(true));

fn matrix(op: Opcode) -> bool {
    op.info().matrix().is_some()
}

struct Gen {
    rng: XorShift,
    hist: BTreeMap<String, usize>,
    out: Vec<Instruction>,
    /// (instruction index of a CAL / CALLNZ, subroutine number) to patch with the label.
    calls: Vec<(usize, usize)>,
    /// Inside a subroutine (no calls, no TEMP[3] loops there).
    in_sub: bool,
}

fn reg(file: File, index: i32) -> Register {
    Register::new(file, index)
}

impl Gen {
    fn pick(&mut self, n: usize) -> usize {
        (self.rng.next_u32() as usize) % n
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.rng.next_u32() % 100 < percent
    }
    fn note(&mut self, k: &str) {
        *self.hist.entry(k.to_string()).or_default() += 1;
    }

    fn src(&mut self) -> SrcOperand {
        self.src_from(false)
    }

    /// A source; `tame` restricts it to IN[1] and IMM[0] without ExtDivide (approximated
    /// operations stay inside their accuracy ranges).
    fn src_from(&mut self, tame: bool) -> SrcOperand {
        let r = if tame {
            if self.chance(80) {
                reg(File::Input, 1)
            } else {
                reg(File::Immediate, 0)
            }
        } else {
            match self.pick(4) {
                0 => reg(File::Input, self.pick(2) as i32),
                1 => reg(File::Constant, self.pick(2) as i32),
                2 => reg(File::Immediate, self.pick(2) as i32),
                _ => reg(File::Temporary, self.pick(4) as i32),
            }
        };
        let mut r = r;
        if !tame
            && matches!(r.file, File::Constant | File::Temporary | File::Immediate)
            && self.chance(10)
        {
            let by_loop = self.chance(30);
            r.indirect = Some(Indirect {
                file: if by_loop { File::Loop } else { File::Address },
                index: 0,
                component: if by_loop { 0 } else { self.pick(4) as u8 },
            });
            self.note(&format!("relative {}", r.file));
        }
        let mut s = SrcOperand::new(r);
        for c in 0..4 {
            s.swizzle[c] = self.pick(4) as u8;
        }
        if self.chance(25) {
            s.negate = true;
            self.note("negate");
        }
        if self.chance(12) {
            s.ext_mod.absolute = true;
            self.note("absolute");
            if self.chance(50) {
                s.ext_mod.negate = true;
                self.note("-absolute");
            }
        }
        if self.chance(6) {
            s.ext_mod.complement = true;
            self.note("complement");
        }
        if self.chance(6) {
            s.ext_mod.bias = true;
            self.note("bias");
        }
        if self.chance(6) {
            s.ext_mod.scale2x = true;
            self.note("scale2x");
        }
        if self.chance(8) {
            let mut e = ExtSwizzle::default();
            for c in 0..4 {
                e.select[c] = ExtSel::from_number(self.pick(6) as u32).unwrap_or(ExtSel::X);
                match e.select[c] {
                    ExtSel::Zero => self.note("extswz 0"),
                    ExtSel::One => self.note("extswz 1"),
                    _ => {}
                }
                e.negate[c] = self.chance(30);
                if e.negate[c] {
                    self.note("extswz negate");
                }
            }
            if !tame && self.chance(30) {
                e.divide = ExtSel::W;
                self.note("extdivide");
            }
            s.ext_swizzle = Some(e);
        }
        s
    }

    fn alu(&mut self) {
        let approx = self.chance(20);
        let op = if approx {
            APPROX_OPS[self.pick(APPROX_OPS.len())]
        } else {
            EXACT_OPS[self.pick(EXACT_OPS.len())]
        };
        self.note(op.mnemonic());
        let info = op.info();
        let mut i = Instruction::new(op);
        let dreg = if approx {
            reg(File::Output, 1)
        } else if matches!(op, Opcode::Arl | Opcode::Arr | Opcode::Ara) {
            reg(File::Address, 0)
        } else if self.chance(25) {
            reg(File::Output, 0)
        } else {
            reg(File::Temporary, self.pick(3) as i32)
        };
        let mut dreg = dreg;
        if !approx && dreg.file == File::Output && self.chance(15) {
            dreg.indirect = Some(Indirect {
                file: File::Address,
                index: 0,
                component: self.pick(4) as u8,
            });
            self.note("relative destination");
        }
        let mut d = DstOperand::new(dreg);
        if self.chance(40) {
            d.write_mask = 1 + self.pick(15) as u8;
            self.note("writemask");
        }
        let float_result = microcode::tgsi::validate::allows_saturate(info);
        if float_result && self.chance(10) {
            d.modulate = Modulate::from_number(1 + self.pick(6) as u32).unwrap_or_default();
            self.note(&format!("modulate {:?}", d.modulate));
        }
        i.saturate = match if float_result { self.pick(10) } else { 9 } {
            0 | 1 => {
                self.note("sat");
                Saturate::ZeroOne
            }
            2 => {
                self.note("satnv");
                Saturate::MinusPlusOne
            }
            _ => Saturate::None,
        };
        // Condition codes with a relative destination are not lowered.
        let cc_ok = info.dst_type != OperandType::Double && d.reg.indirect.is_none();
        if cc_ok {
            if !approx && self.chance(12) {
                i.cond_update = Some(self.pick(2) as u8);
                self.note("CC update");
            }
            if self.chance(8) {
                d.cond = Some(self.cond_test());
                self.note("CC write test");
            }
            if self.chance(8) {
                i.cond_flow = Some(self.cond_test());
                self.note("CC instruction test");
            }
        }
        if info.is_texture() {
            i.texture = TextureTarget::from_number(1 + self.pick(8) as u32);
        }
        i.dst.push(d);
        for k in 0..info.num_src {
            let mut s = self.src_from(approx);
            if info.src_type.is_integer() {
                // Integer operands: the integer 1 selector is not lowered.
                if let Some(e) = &mut s.ext_swizzle {
                    for sel in &mut e.select {
                        if *sel == ExtSel::One {
                            *sel = ExtSel::Zero;
                        }
                    }
                }
            }
            if matches!(op, Opcode::Ddx | Opcode::Ddy) {
                // The core lowers derivatives of operands the read path can modify.
                s.ext_mod.complement = false;
                s.ext_mod.bias = false;
                s.ext_mod.scale2x = false;
                s.reg.indirect = None;
                if let Some(e) = &mut s.ext_swizzle {
                    e.divide = ExtSel::One;
                }
            }
            if info.is_texture() && usize::from(k) == if op == Opcode::Txd { 3 } else { 1 } {
                s = SrcOperand::new(reg(File::Sampler, 0));
            }
            if k == 1 && op.info().output == OutputMode::Special && matrix(op) {
                // Matrix rows are TEMP[0..rows-1], all declared.
                s.reg = reg(File::Temporary, 0);
            }
            i.src.push(s);
        }
        self.out.push(i);
    }

    fn cond_test(&mut self) -> CondTest {
        CondTest {
            mask: CondMask::from_number(self.pick(8) as u32).unwrap_or(CondMask::Tr),
            index: self.pick(2) as u8,
            swizzle: [0; 4].map(|_: u8| self.pick(4) as u8),
        }
    }

    fn simple(&mut self, op: Opcode, src: Option<SrcOperand>) {
        let mut i = Instruction::new(op);
        i.src.extend(src);
        self.out.push(i);
    }

    fn block(&mut self, depth: usize, loops: usize, budget: &mut usize) {
        let n = 1 + self.pick(5);
        for _ in 0..n {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            match self.pick(16) {
                0 | 1 if depth < 3 => {
                    let s = self.src();
                    let op = if self.chance(20) {
                        Opcode::Ifc
                    } else {
                        Opcode::If
                    };
                    self.note(op.mnemonic());
                    self.simple(op, Some(s));
                    self.block(depth + 1, loops, budget);
                    if self.chance(50) {
                        self.note("ELSE");
                        self.simple(Opcode::Else, None);
                        self.block(depth + 1, loops, budget);
                    }
                    self.simple(Opcode::EndIf, None);
                }
                2 if depth < 3 && loops < 2 && !self.in_sub => self.lp(depth, loops, budget),
                6 if depth < 3 && loops < 2 && self.chance(50) => {
                    // REP of 0, 1 or 3 iterations (IMM[0] = 0, 1, 3, 0.5).
                    let mut s = SrcOperand::new(reg(File::Immediate, 0));
                    s.swizzle = [self.pick(4) as u8; 4];
                    self.note("REP");
                    self.simple(Opcode::Rep, Some(s));
                    self.block(depth + 1, loops + 1, budget);
                    self.simple(Opcode::EndRep, None);
                }
                9 if depth < 3 && loops < 2 && self.chance(50) => {
                    // BGNFOR LOOP[loops]: start, count and step from IMM[0] (0, 1, 3, 0.5).
                    let mut s = SrcOperand::new(reg(File::Immediate, 0));
                    s.swizzle = [0; 4].map(|_: u8| self.pick(4) as u8);
                    let l = DstOperand::new(reg(File::Loop, loops as i32));
                    self.note("BGNFOR");
                    let mut b = Instruction::new(Opcode::BgnFor);
                    b.dst.push(l);
                    b.src.push(s);
                    self.out.push(b);
                    self.block(depth + 1, loops + 1, budget);
                    let mut e = Instruction::new(Opcode::EndFor);
                    e.dst.push(l);
                    self.out.push(e);
                }
                7 if !self.in_sub && self.chance(50) => {
                    let at = self.out.len();
                    if self.chance(50) {
                        self.note("CAL");
                        self.simple(Opcode::Cal, None);
                    } else {
                        let s = self.src();
                        self.note("CALLNZ");
                        self.simple(Opcode::CallNz, Some(s));
                    }
                    let n = self.pick(2);
                    self.calls.push((at, n));
                }
                8 if self.chance(20) => {
                    let s = self.src();
                    self.note(if self.in_sub {
                        "RET in subroutine"
                    } else {
                        "RET in main"
                    });
                    self.simple(Opcode::If, Some(s));
                    self.simple(Opcode::Ret, None);
                    self.simple(Opcode::EndIf, None);
                }
                3 if loops > 0 && self.chance(25) => {
                    let s = self.src();
                    self.note("BREAKC");
                    self.simple(Opcode::BreakC, Some(s));
                }
                3 if loops > 0 && self.chance(25) => {
                    let ctl = if self.chance(50) {
                        Opcode::Brk
                    } else {
                        Opcode::Cont
                    };
                    self.note("CC BRK/CONT");
                    let mut i = Instruction::new(ctl);
                    i.cond_flow = Some(self.cond_test());
                    self.out.push(i);
                }
                3 if loops > 0 => {
                    let s = self.src();
                    let ctl = if self.chance(50) {
                        Opcode::Brk
                    } else {
                        Opcode::Cont
                    };
                    self.note(ctl.mnemonic());
                    self.simple(Opcode::If, Some(s));
                    self.simple(ctl, None);
                    self.simple(Opcode::EndIf, None);
                }
                10 if self.chance(30) => {
                    if self.chance(60) {
                        let mut s = self.src();
                        s.ext_mod.complement = false;
                        s.ext_mod.bias = false;
                        s.ext_swizzle = None;
                        self.note("PUSHA");
                        self.simple(Opcode::Pusha, Some(s));
                    } else {
                        self.note("POPA");
                        let mut i = Instruction::new(Opcode::Popa);
                        i.dst.push(DstOperand::new(reg(File::Address, 0)));
                        self.out.push(i);
                    }
                }
                4 if self.chance(30) => {
                    let s = self.src();
                    self.note("KIL");
                    self.simple(Opcode::Kil, Some(s));
                }
                5 if self.chance(15) => {
                    let s = self.src();
                    self.note("KILP");
                    self.simple(Opcode::If, Some(s));
                    self.simple(Opcode::Kilp, None);
                    self.simple(Opcode::EndIf, None);
                }
                _ => self.alu(),
            }
        }
    }

    /// A loop of at most three iterations: counter in TEMP[3].x (outer) / .y (inner), the
    /// comparison in TEMP[3].w / .z.
    fn lp(&mut self, depth: usize, loops: usize, budget: &mut usize) {
        self.note(if loops == 0 {
            "BGNLOOP"
        } else {
            "nested BGNLOOP"
        });
        let (ctr, cmp) = if loops == 0 { (0u8, 3u8) } else { (1, 2) };
        let t3 = reg(File::Temporary, 3);
        let imm0 = |c: u8| {
            let mut s = SrcOperand::new(reg(File::Immediate, 0));
            s.swizzle = [c; 4];
            s
        };
        let t3c = |c: u8| {
            let mut s = SrcOperand::new(t3);
            s.swizzle = [c; 4];
            s
        };
        let dst = |c: u8| DstOperand {
            write_mask: 1 << c,
            ..DstOperand::new(t3)
        };
        let mut mov = Instruction::new(Opcode::Mov);
        mov.dst.push(dst(ctr));
        mov.src.push(imm0(0));
        self.out.push(mov);
        self.simple(Opcode::BgnLoop, None);
        let mut add = Instruction::new(Opcode::Add);
        add.dst.push(dst(ctr));
        add.src.extend([t3c(ctr), imm0(1)]);
        self.out.push(add);
        let mut sge = Instruction::new(Opcode::Sgt);
        sge.dst.push(dst(cmp));
        sge.src.extend([t3c(ctr), imm0(2)]);
        self.out.push(sge);
        self.simple(Opcode::If, Some(t3c(cmp)));
        self.simple(Opcode::Brk, None);
        self.simple(Opcode::EndIf, None);
        self.block(depth + 1, loops + 1, budget);
        self.simple(Opcode::EndLoop, None);
    }

    fn program(&mut self) -> Program {
        self.out.clear();
        self.calls.clear();
        self.in_sub = false;
        let mut budget = 24;
        self.block(0, 0, &mut budget);
        self.simple(Opcode::End, None);
        let mut starts = Vec::new();
        self.in_sub = true;
        for _ in 0..2 {
            starts.push(self.out.len() as u32);
            self.simple(Opcode::BgnSub, None);
            let mut budget = 8;
            self.block(1, 0, &mut budget);
            self.simple(Opcode::Ret, None);
            self.simple(Opcode::EndSub, None);
        }
        for (at, n) in self.calls.clone() {
            self.out[at].label = Some(starts[n]);
        }
        let mut p = parse("END\n");
        p.immediates[1].values = (0..4).map(|_| random_value(&mut self.rng)).collect();
        p.instructions = std::mem::take(&mut self.out);
        p
    }
}

#[test]
fn random_programs_agree_and_cover_everything_lowered() {
    let mut g = Gen {
        // CORE_DIFF_SEED explores other program sets; the default is fixed for reproducibility.
        rng: XorShift::new(
            std::env::var("CORE_DIFF_SEED")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2026),
        ),
        hist: BTreeMap::new(),
        out: Vec::new(),
        calls: Vec::new(),
        in_sub: false,
    };
    let mut budget_faults = 0;
    let mut stack_faults = 0;
    for n in 0..1000 {
        let p = g.program();
        if let Err(e) = validate(&p, &Limits::default()) {
            panic!(
                "generator made an invalid program {n}: {e:?}\n{}",
                text::print(&p)
            );
        }
        for run in 0..3 {
            let inputs = random_inputs(&mut g.rng);
            // Random programs may need more registers, instructions and mask frames than the
            // board build; two runs in three are on the board's units (no divider:
            // `compile/div.rs`), the third on a build with the divider.
            let board = CoreConfig::default();
            let features = if run == 2 {
                board.features | microcode::core::config::Features::DIVIDER
            } else {
                board.features
            };
            let big = CoreConfig {
                registers: 48,
                program_size: 1024,
                mask_stack_depth: 8,
                features,
                ..board
            };
            match diff_with(&p, &inputs, &[1], &big) {
                Ok(_) => {}
                Err(e) if e == "BUDGET" => budget_faults += 1,
                Err(e) if e == "FAULT" => stack_faults += 1,
                Err(e) => panic!("random program {n}: {e}"),
            }
        }
    }
    assert_eq!(
        budget_faults, 0,
        "loops are bounded, no run may hit the budget"
    );
    eprintln!("address stack faults (identical in both models): {stack_faults}");
    let mut required: Vec<String> = EXACT_OPS
        .iter()
        .chain(APPROX_OPS.iter())
        .map(|o| o.mnemonic().to_string())
        .collect();
    for k in [
        "negate",
        "absolute",
        "-absolute",
        "complement",
        "bias",
        "scale2x",
        "extswz 0",
        "extswz 1",
        "extswz negate",
        "extdivide",
        "writemask",
        "sat",
        "satnv",
        "IF",
        "ELSE",
        "BGNLOOP",
        "nested BGNLOOP",
        "BRK",
        "CONT",
        "KIL",
        "KILP",
        "relative CONST",
        "relative IMM",
        "relative TEMP",
        "IFC",
        "REP",
        "CAL",
        "CALLNZ",
        "BREAKC",
        "RET in main",
        "RET in subroutine",
        "CC update",
        "CC write test",
        "CC instruction test",
        "CC BRK/CONT",
        "BGNFOR",
        "PUSHA",
        "POPA",
        "relative destination",
    ] {
        required.push(k.to_string());
    }
    for m in 1..=6 {
        required.push(format!(
            "modulate {:?}",
            Modulate::from_number(m).unwrap_or_default()
        ));
    }
    let missing: Vec<&String> = required
        .iter()
        .filter(|k| !g.hist.contains_key(*k))
        .collect();
    eprintln!("coverage: {:?}", g.hist);
    assert!(missing.is_empty(), "generator never produced {missing:?}");
}

// ---------------------------------------------------------------------------------------------
// Images, limits, errors.

#[test]
fn images_round_trip_through_bytes_and_disassembler() {
    for (body, _) in HAND {
        let p = parse(body);
        let c = compile(&p, &CoreConfig::default()).expect("compiles");
        let bytes = c.image.to_bytes();
        let back = Image::from_bytes(&bytes).expect("reads back");
        assert_eq!(back, c.image);
        let text = listing(&back);
        assert_eq!(text, listing(&c.image));
        for (pc, i) in back.code.iter().enumerate() {
            let line = format!("{pc:4}: {}", microcode::core::disasm::instr_text(i));
            assert!(text.contains(&line), "{line} missing from\n{text}");
            assert_eq!(
                microcode::core::isa::decode(microcode::core::isa::encode(i)),
                Ok(*i)
            );
        }
        let l = c.listing(&p);
        assert!(l.contains("; tgsi 0: "), "{l}");
    }
}

fn limit_of(e: CompileError) -> (&'static str, usize, usize) {
    match e {
        CompileError::Limit {
            limit,
            needed,
            available,
        } => (limit, needed, available),
        other => panic!("expected a limit error, got {other}"),
    }
}

#[test]
fn each_limit_produces_its_error() {
    let cfg = CoreConfig::default();
    let many_temps = text::parse("FRAG\nDCL TEMP[0..19]\nDCL OUT[0]\nMOV OUT[0], TEMP[19]\nEND\n")
        .expect("parses");
    let (l, n, a) = limit_of(compile(&many_temps, &cfg).expect_err("too many registers"));
    assert!(l.starts_with("registers"), "{l}");
    assert_eq!((n, a), (21, 16));
    let e = compile(&many_temps, &cfg).expect_err("again").to_string();
    assert!(e.contains("over by 5"), "{e}");

    let many_consts =
        text::parse("FRAG\nDCL CONST[0..69]\nDCL OUT[0]\nMOV OUT[0], CONST[3]\nEND\n")
            .expect("parses");
    let (l, n, a) = limit_of(compile(&many_consts, &cfg).expect_err("too many constants"));
    assert!(l.starts_with("constant file"), "{l}");
    assert_eq!((n, a), (70, 64));

    let long = format!(
        "FRAG\nDCL OUT[0]\n{}END\n",
        "ADD OUT[0], OUT[0], OUT[0]\n".repeat(300)
    );
    let long = text::parse(&long).expect("parses");
    let (l, n, a) = limit_of(compile(&long, &cfg).expect_err("too long"));
    assert!(l.starts_with("program size"), "{l}");
    assert_eq!((n, a), (301, 256));

    // Scratch registers count too: DP3 needs one beyond the 16 declared.
    let full =
        text::parse("FRAG\nDCL TEMP[0..14]\nDCL OUT[0]\nDP3 OUT[0], TEMP[0], TEMP[1]\nEND\n")
            .expect("parses");
    let (l, n, a) = limit_of(compile(&full, &cfg).expect_err("scratch over"));
    assert!(l.starts_with("registers"), "{l}");
    assert_eq!((n, a), (17, 16));

    let nested = parse("IF IN[0].xxxx\nIF IN[0].yyyy\nIF IN[0].zzzz\nMOV OUT[0], IN[1]\nENDIF\nENDIF\nENDIF\nEND\n");
    let small = CoreConfig {
        mask_stack_depth: 2,
        ..CoreConfig::default()
    };
    let (l, n, a) = limit_of(compile(&nested, &small).expect_err("too deep"));
    assert!(l.starts_with("mask stack"), "{l}");
    assert_eq!((n, a), (3, 2));

    // Calls count on the mask stack too: main's IF + a call frame + the callee's IF + a call
    // frame = 4 frames at the deepest point.
    let calls = parse("IF IN[0].xxxx\n  CAL :4\nENDIF\nEND\nBGNSUB\n  IF IN[1].xxxx\n    CAL :10\n  ENDIF\n  RET\nENDSUB\nBGNSUB\n  MOV OUT[0], IN[1]\nENDSUB\n");
    let (l, n, a) = limit_of(compile(&calls, &small).expect_err("calls too deep"));
    assert!(l.starts_with("mask stack"), "{l}");
    assert_eq!((n, a), (4, 2));
    let one_call = CoreConfig {
        call_stack_depth: 1,
        ..CoreConfig::default()
    };
    let (l, n, a) = limit_of(compile(&calls, &one_call).expect_err("two nested calls"));
    assert!(l.starts_with("call stack"), "{l}");
    assert_eq!((n, a), (2, 1));
}

#[test]
fn runtime_faults_budget_and_stack() {
    let p = parse("BGNLOOP\nADD TEMP[0], TEMP[0], IMM[0].y\nENDLOOP\nEND\n");
    let c = compile(&p, &CoreConfig::default()).expect("compiles");
    let inputs = RunInputs {
        budget: 1000,
        ..RunInputs::default()
    };
    let f = sim::core_model::run(&c.image, &inputs).expect_err("budget");
    assert!(matches!(
        f.kind,
        sim::core_model::FaultKind::BudgetExhausted { budget: 1000 }
    ));
    assert!(sim::reference::run(&p, &inputs).is_err());

    let nested = parse("IF IN[0].xxxx\nIF IN[0].yyyy\nMOV OUT[0], IN[1]\nENDIF\nENDIF\nEND\n");
    let mut img = compile(&nested, &CoreConfig::default())
        .expect("compiles")
        .image;
    img.config.mask_stack_depth = 1;
    let mut inputs = RunInputs::default();
    inputs.set_input(0, [F(1.0); 4]);
    let f = sim::core_model::run(&img, &inputs).expect_err("overflow");
    assert_eq!(
        f.kind,
        sim::core_model::FaultKind::StackOverflow { depth: 1 }
    );

    // A call from inside a subroutine needs two call frames.
    let calls =
        parse("CAL :2\nEND\nBGNSUB\nCAL :6\nRET\nENDSUB\nBGNSUB\nMOV OUT[0], IN[1]\nRET\nENDSUB\n");
    let mut img = compile(&calls, &CoreConfig::default())
        .expect("compiles")
        .image;
    let ok = sim::core_model::run(&img, &inputs).expect("two calls fit the board build");
    assert_eq!(ok.lanes[0].outputs.get(&0), Some(&[0u32; 4]));
    // BRA with a test that the lanes disagree on: both models stop with an error.
    let bra = parse("MOV.CC TEMP[0], IN[0]\n(GT.x) BRA :3\nMOV OUT[0], IN[1]\nEND\n");
    let bra_img = compile(&bra, &CoreConfig::default())
        .expect("compiles")
        .image;
    let mut split = RunInputs::default();
    split.set_input_lane(0, 0, [F(1.0); 4]);
    split.set_input_lane(0, 1, [F(-1.0); 4]);
    let f = sim::core_model::run(&bra_img, &split).expect_err("divergent");
    assert_eq!(
        f.kind,
        sim::core_model::FaultKind::DivergentBranch {
            taken: [true, false, false, false]
        }
    );
    assert!(sim::reference::run(&bra, &split).is_err());

    img.config.call_stack_depth = 1;
    let f = sim::core_model::run(&img, &inputs).expect_err("call overflow");
    assert_eq!(
        f.kind,
        sim::core_model::FaultKind::CallStackOverflow { depth: 1 }
    );
}

#[test]
fn unsupported_opcodes_are_reported_with_their_index() {
    // Condition codes on a double result have no lowering.
    let p = text::parse("FRAG\nDCL TEMP[0]\nDCL ADDR[0]\nDCL OUT[0]\nMOV OUT[0], TEMP[0]\nDADD.CC TEMP[0].xy, TEMP[0], TEMP[0]\nEND\n").expect("parses");
    match compile(&p, &CoreConfig::default()) {
        Err(CompileError::Unsupported { opcode, index, .. }) => {
            assert_eq!((opcode, index), (Opcode::Dadd, 1));
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

/// Double opcodes agree with the reference in a program that cannot spare the binary64
/// library's registers: the arithmetic falls back to the model-only DOP (the reference's
/// binary64 kernels), the comparisons and selects stay integer sequences; with negate and
/// absolute on the pairs, swizzled pairs, write masks, DFRACEXP's two results into registers
/// its sources alias; the hardware engines refuse DOP by name, saying why. (The library itself:
/// `double_sequences.rs`, and `hw_cross.rs` on the hardware.)
#[cfg(feature = "hardware")]
#[test]
fn double_opcodes_agree_and_the_hardware_refuses_them() {
    let body = "DADD TEMP[0], IN[0], -IN[1].zwxy\nDMUL TEMP[1].xy, |IN[0]|, IN[1]\n\
                DMAD TEMP[1].zw, IN[0], -|IN[1]|, TEMP[0]\nDDIV TEMP[2], TEMP[1], IN[0].zwzw\n\
                DSQRT TEMP[3], |TEMP[2]|\nDRCP TEMP[3].zw, TEMP[3]\nDFRAC TEMP[0].zw, -TEMP[3]\n\
                DMIN OUT[0], TEMP[0], TEMP[3]\nDMAX TEMP[2], TEMP[0], -TEMP[1]\n\
                DSEQ TEMP[1], TEMP[2], TEMP[0]\nDSLT TEMP[1].zw, TEMP[2], TEMP[3]\n\
                DLDEXP TEMP[3], TEMP[2], IN[1]\nDFRACEXP TEMP[2], TEMP[3], TEMP[3]\n\
                ADD OUT[1], TEMP[1], TEMP[2]\nMOV OUT[0].zw, TEMP[3]\nEND\n";
    let p = parse(body);
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert_eq!(
        image
            .code
            .iter()
            .filter(|i| i.op == microcode::core::isa::Op::Dop)
            .count(),
        10,
        "one DOP per double arithmetic opcode, two for DFRACEXP; the comparisons are integer sequences"
    );
    let mut rng = XorShift::new(64);
    for _ in 0..200 {
        let inputs = random_double_inputs(&mut rng);
        let reference = sim::reference::run(&p, &inputs).expect("the reference runs");
        let model = sim::core_model::run(&image, &inputs).expect("the core model runs");
        for l in 0..4 {
            assert_eq!(
                reference.lanes[l].outputs, model.lanes[l].outputs,
                "lane {l}"
            );
        }
    }
    let err = sim::hardware::check_supported(&image, "rtl").expect_err("refused");
    assert!(err.to_string().contains("DOP"), "{err}");
    assert!(err.to_string().contains("binary64 library"), "{err}");
    // A DOP naming no double opcode (a damaged image) faults instead of writing nothing.
    let mut bad = image.clone();
    let at = bad
        .code
        .iter()
        .position(|i| i.op == microcode::core::isa::Op::Dop)
        .expect("a DOP");
    bad.code[at].target = Opcode::Add as u16;
    let f = sim::core_model::run(&bad, &RunInputs::default()).expect_err("faults");
    assert_eq!(
        f.kind,
        sim::core_model::FaultKind::BadDoubleOp {
            target: Opcode::Add as u16
        }
    );
}

#[test]
fn cycles_follow_the_isa_table() {
    // ADD (16) + RCP of one component on the divider (16 + 15 * 4) + END (14).
    let p = parse("ADD OUT[0], IN[0], IN[1]\nRCP OUT[1].x, IN[0].x\nEND\n");
    let with_divider = CoreConfig {
        features: CoreConfig::default().features | microcode::core::config::Features::DIVIDER,
        ..CoreConfig::default()
    };
    let c = compile(&p, &with_divider).expect("compiles");
    let out = sim::core_model::run(&c.image, &RunInputs::default()).expect("runs");
    assert_eq!(out.cycles, Some(16 + 76 + 14));
    assert_eq!(out.instructions, Some(3));
    assert_eq!(out.engine, "core");
}

// ---------------------------------------------------------------------------------------------
// The real corpus.

fn corpus_dir() -> Option<std::path::PathBuf> {
    toolchain::corpus()
}

fn files_under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "sh" || x == "txt") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_programs_agree() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    files.sort();
    let mut rng = XorShift::new(99);
    let (mut compiled, mut exact) = (0, 0);
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let Ok(loaded) = microcode::tgsi::load::load(&bytes, None) else {
            continue;
        };
        let p = loaded.program;
        if validate(&p, &Limits::default()).is_err() {
            continue;
        }
        match compile(&p, &CoreConfig::default()) {
            Ok(_) => compiled += 1,
            Err(
                CompileError::Unsupported { .. }
                | CompileError::Declaration2D { .. }
                | CompileError::NotExecutable,
            ) => continue,
            Err(e) => panic!("{}: {e}", f.display()),
        }
        let approx_used = p
            .instructions
            .iter()
            .any(|i| i.opcode.info().is_approximate());
        // Programs with approximated operations are compared with the tolerance on every
        // output (their results may feed further arithmetic, not flow: the corpus has no such
        // comparison); the rest bit for bit.
        let approx: Vec<u32> = if approx_used {
            (0..32).collect()
        } else {
            Vec::new()
        };
        if !approx_used {
            exact += 1;
        }
        for _ in 0..8 {
            let inputs = random_inputs_with(&mut rng, true);
            match diff(&p, &inputs, &approx) {
                Ok(_) => {}
                Err(e) => panic!("{}: {e}", f.display()),
            }
        }
    }
    eprintln!(
        "corpus: {compiled} of {} files compiled and agree ({exact} bit for bit)",
        files.len()
    );
    assert!(compiled >= 100, "only {compiled} corpus programs compiled");
}

#[test]
fn geometry_programs_agree() {
    let src = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES 4\nDCL IN[][0..1]\nDCL OUT[0..1]\nMOV OUT[0], IN[0][0]\nADD OUT[1], IN[1][1], -IN[2][0]\nEMIT\nIF IN[0][1].xxxx\n  MUL OUT[0], OUT[0], IN[2][1]\n  EMIT\nENDIF\nENDPRIM\nMOV OUT[0], -IN[2][1].wzyx\nEMIT\nEND\n";
    let p = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src, "geom")));
    validate(&p, &Limits::default()).expect("valid");
    let mut rng = XorShift::new(5);
    let mut emitted = 0;
    for _ in 0..40 {
        let inputs = random_inputs(&mut rng);
        let (r, c) = diff(&p, &inputs, &[]).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.geometry);
        emitted += c.lanes[0].vertices.len();
        assert_eq!(r.lanes[0].vertices, c.lanes[0].vertices);
    }
    assert!(emitted >= 80, "{emitted} vertices in 40 runs");
}

/// Vertex-relative reads `IN[ADDR[0].x + n][i]` in a loop over the input primitive's vertices
/// (a multi-index declaration; the last vertex + 1 lies outside the primitive and reads 0).
#[test]
fn vertex_relative_geometry_inputs_agree() {
    let src = VERTEX_RELATIVE_GEOMETRY;
    let p = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src, "geom")));
    validate(&p, &Limits::default()).expect("valid");
    let img = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert!(img
        .code
        .iter()
        .any(|i| i.op == microcode::core::isa::Op::Movr));
    let mut rng = XorShift::new(9);
    for _ in 0..20 {
        let inputs = random_inputs(&mut rng);
        let (r, c) = diff(&p, &inputs, &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.lanes[0].vertices.len(), 3);
        assert_eq!(r.lanes[0].vertices, c.lanes[0].vertices);
    }
}

#[test]
fn up2h_special_halves_agree() {
    let p = parse("UP2H OUT[0], IN[0].x\nUP2H OUT[1], IN[0].y\nEND\n");
    let halves = [
        0x7C00_FC00u32, // +inf, -inf
        0x0001_8001,    // smallest subnormals, both signs
        0x3C00_BC00,    // 1, -1
        0x8000_0000,    // -0, +0
        0x7E00_7C01,    // NaNs
        0x03FF_7BFF,    // largest subnormal, largest normal
    ];
    for pair in halves.chunks(2) {
        let mut inputs = RunInputs::default();
        for l in 0..4 {
            inputs.set_input_lane(0, l, [pair[0], pair[1], 0, 0]);
        }
        let (r, c) = diff(&p, &inputs, &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.lanes[0].outputs, c.lanes[0].outputs);
    }
    // Spot values: 0x3C00 is 1.0 and 0xFC00 is -inf.
    let mut inputs = RunInputs::default();
    inputs.set_input(0, [0x3C00_FC00, 0, 0, 0]);
    let img = compile(&p, &CoreConfig::default()).expect("compiles").image;
    let out = sim::core_model::run(&img, &inputs).expect("runs");
    assert_eq!(
        out.lanes[0].outputs.get(&0),
        Some(&[0xFF80_0000, 0x3F80_0000, 0xFF80_0000, 0x3F80_0000])
    );
}

#[test]
fn pack_rounds_the_exact_product_near_half_way_points() {
    let p = parse("PK4UB OUT[0], IN[0]\nPK2US OUT[1].xy, IN[0]\nPK4B OUT[1].zw, -IN[0]\nEND\n");
    let mut values = vec![
        0xBF81_0204,
        0xBF81_0205,
        0xBF81_0203,
        0x7FC0_0000,
        0xFF80_0000,
    ];
    for k in 0..255u32 {
        for s in [255.0f64, 65535.0, 127.0] {
            let mid = ((f64::from(k) + 0.5) / s) as f32;
            let b = mid.to_bits();
            values.extend([b - 2, b - 1, b, b + 1, b + 2]);
        }
    }
    for chunk in values.chunks(4) {
        let mut v = [0u32; 4];
        v[..chunk.len()].copy_from_slice(chunk);
        let mut inputs = RunInputs::default();
        inputs.set_input(0, v);
        diff(&p, &inputs, &[]).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn pk2h_rounding_and_special_values_agree() {
    let p = parse("PK2H OUT[0], IN[0]\nPK2H OUT[1], IN[0].zwxy\nEND\n");
    let mut values: Vec<u32> = vec![
        0x477F_E000, // 65504, largest binary16
        0x477F_EFFF, // just below 65520
        0x477F_F000, // 65520: rounds to infinity
        0x3880_0000, // 2^-14, smallest normal binary16
        0x387F_FFFF, // just below it
        0x3300_0000, // 2^-25: tie between 0 and the smallest subnormal
        0x3340_0000, // 3 * 2^-26
        0x33C0_0000, // 3 * 2^-25: tie, rounds to even (2 * 2^-24)
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x8000_0000,
        0x0000_0001, // binary32 subnormal: flushed to zero
        0x8000_0001,
    ];
    for exp in [0x3F80_0000u32, 0x4100_0000, 0x3A00_0000, 0xC680_0000] {
        for low in [0x0FFF, 0x1000, 0x1001, 0x3000, 0x2FFF, 0x3001, 0x7F_F000] {
            values.push(exp | low);
        }
    }
    for chunk in values.chunks(4) {
        let mut v = [0u32; 4];
        v[..chunk.len()].copy_from_slice(chunk);
        let mut inputs = RunInputs::default();
        inputs.set_input(0, v);
        diff(&p, &inputs, &[]).unwrap_or_else(|e| panic!("{e}"));
    }
}
