//! Cross-check of the hardware engines against the core model, bit for bit: outputs, kill masks
//! and cycle counts, on the differential tests' hand-written programs, on random core programs
//! (every operation the hardware builds, every operand form, nested flow control) and on the
//! Mesa corpus. A mismatch names the first core instruction after which the register files
//! differ (`sim::hardware::first_difference`).

mod common;

use common::programs::{random_inputs, HAND, HEADER, VERTEX_RELATIVE_GEOMETRY};
use hdl::decoder::implemented;
use microcode::compile::compile;
use microcode::core::image::{ConstSlot, ConstSource, RegMap};
use microcode::core::isa::{Cond, Instr, Op, Operand, SrcFile, OPS, SWZ_ZERO};
use microcode::core::{CoreConfig, Image};
use microcode::rng::XorShift;
use microcode::tgsi::text;
use sim::hardware::{
    first_difference, rtl::RtlCore, run_image, verilator::VerilatorCore, HostPort, HwError,
};
use sim::run_io::RunInputs;

/// Compares one run; on a mismatch, locates the first differing instruction.
fn cross(
    port: &mut dyn HostPort,
    image: &Image,
    inputs: &RunInputs,
    what: &str,
) -> Result<(), String> {
    let model = sim::core_model::run(image, inputs);
    let hw = run_image(port, image, inputs);
    let listing = || {
        image
            .code
            .iter()
            .enumerate()
            .map(|(pc, i)| format!("{pc:4}: {}", microcode::core::disasm::instr_text(i)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mismatch = |port: &mut dyn HostPort, why: String| {
        let at = match first_difference(port, image, inputs, 2000) {
            Ok(Some(d)) => format!(
                "first difference after step {} at core instruction {}: {} (R{}[lane {}].{}: model {:#010x}, {} {:#010x})",
                d.step, d.pc, d.text, d.word.0, d.word.1, d.word.2, d.word.3, port.engine(), d.word.4
            ),
            Ok(None) => "the register files never differ (the difference is in kills or cycles)".into(),
            Err(e) => format!("(diagnosis failed: {e})"),
        };
        Err(format!("{what}: {why}\n{at}\n{}", listing()))
    };
    match (model, hw) {
        (Ok(m), Ok(h)) => {
            for l in 0..4 {
                if m.lanes[l].killed != h.lanes[l].killed {
                    return mismatch(
                        port,
                        format!(
                            "lane {l} kill: model {} hw {}",
                            m.lanes[l].killed, h.lanes[l].killed
                        ),
                    );
                }
                if m.lanes[l].vertices != h.lanes[l].vertices {
                    return mismatch(
                        port,
                        format!(
                            "lane {l} vertices: model {:x?} hw {:x?}",
                            m.lanes[l].vertices, h.lanes[l].vertices
                        ),
                    );
                }
                if m.lanes[l].outputs != h.lanes[l].outputs {
                    return mismatch(
                        port,
                        format!(
                            "lane {l} outputs: model {:x?} hw {:x?}",
                            m.lanes[l].outputs, h.lanes[l].outputs
                        ),
                    );
                }
            }
            if m.cycles != h.cycles {
                return mismatch(
                    port,
                    format!("cycles: model {:?} hw {:?}", m.cycles, h.cycles),
                );
            }
            Ok(())
        }
        (Err(mf), Err(HwError::Fault { code, .. })) => {
            let want = mf.kind.code();
            if want == code {
                Ok(())
            } else {
                Err(format!(
                    "{what}: model fault {mf}, hardware fault {code}\n{}",
                    listing()
                ))
            }
        }
        (m, h) => Err(format!(
            "{what}: model {:?} hardware {:?}\n{}",
            m.err(),
            h.err(),
            listing()
        )),
    }
}

/// The reference model and the core model give the same outputs on every lane.
fn models_agree(p: &microcode::tgsi::Program, image: &Image, inputs: &RunInputs, what: &str) {
    let reference = sim::reference::run(p, inputs).expect("the reference runs");
    let model = sim::core_model::run(image, inputs).expect("the core model runs");
    for l in 0..4 {
        assert_eq!(
            reference.lanes[l].outputs, model.lanes[l].outputs,
            "{what}, lane {l}: reference and core model differ"
        );
    }
}

/// [`cross`] on every engine of `cores` (rust-hdl's, which is slow, only when `with_rtl`);
/// returns how many ran.
fn cross_all(
    cores: &mut [Box<dyn HostPort>],
    image: &Image,
    inputs: &RunInputs,
    what: &str,
    with_rtl: bool,
) -> usize {
    let mut runs = 0;
    for core in cores.iter_mut() {
        if core.engine() == "rtl" && !with_rtl {
            continue;
        }
        let what = format!("{what} on {}", core.engine());
        cross(core.as_mut(), image, inputs, &what).unwrap_or_else(|e| panic!("{e}"));
        runs += 1;
    }
    runs
}

/// Both hardware engines (Verilator only when it is installed: `cargo xtask setup`).
fn engines() -> Vec<Box<dyn HostPort>> {
    engines_of(&CoreConfig::default())
}

/// Both hardware engines built for `cfg`.
fn engines_of(cfg: &CoreConfig) -> Vec<Box<dyn HostPort>> {
    let mut v: Vec<Box<dyn HostPort>> = vec![Box::new(RtlCore::new(cfg).expect("the core builds"))];
    match toolchain::find(toolchain::Tool::Verilator) {
        Ok(_) => {
            let core = VerilatorCore::new(cfg, &mut |m| eprintln!("{m}"))
                .unwrap_or_else(|e| panic!("the verilator engine does not build: {e}"));
            v.push(Box::new(core));
        }
        Err(e) => toolchain::missing(format!("the verilator engine: {e}")),
    }
    v
}

#[test]
fn hand_written_programs_match_on_rtl_and_verilator() {
    for mut core in engines() {
        hand_written_on(core.as_mut());
    }
}

fn hand_written_on(core: &mut dyn HostPort) {
    let cfg = CoreConfig::default();
    let mut rng = XorShift::new(11);
    let (mut ran, mut skipped) = (0, Vec::new());
    for (body, _) in HAND {
        let p = text::parse(&format!("{HEADER}{body}")).expect("parses");
        let Ok(c) = compile(&p, &cfg) else { continue };
        if let Some(i) = c.image.code.iter().find(|i| !implemented(i.op)) {
            skipped.push(i.op.mnemonic());
            continue;
        }
        for _ in 0..2 {
            let inputs = random_inputs(&mut rng);
            cross(core, &c.image, &inputs, body).unwrap_or_else(|e| panic!("{e}"));
        }
        ran += 1;
    }
    eprintln!("ran {ran} programs; skipped (operation not built yet): {skipped:?}");
    assert!(
        ran >= 25,
        "only {ran} hand-written programs run on the hardware"
    );
}

/// Random core programs over every operation the hardware builds.
struct CoreGen {
    rng: XorShift,
    code: Vec<Instr>,
}

/// The ISA's constant rule (one K view per instruction, as the compiler emits): every K
/// operand after the first reads the first one's view, so two operands sharing the one K read
/// stay covered.
fn obey_constant_rule(i: &mut Instr) {
    let reads: Vec<usize> = i.value_operands().map(|(k, _)| k).collect();
    let mut view = None;
    for k in reads {
        let o = &mut i.src[k];
        if o.file != SrcFile::K {
            continue;
        }
        match view {
            None => view = Some((o.index, o.swz)),
            Some((index, swz)) => {
                o.index = index;
                o.swz = swz;
            }
        }
    }
    assert!(!i.breaks_constant_rule());
}

/// Register the loops count in (never a random destination).
const COUNTER: u8 = 15;

impl CoreGen {
    fn pick(&mut self, n: u32) -> u32 {
        self.rng.next_u32() % n
    }

    fn operand(&mut self) -> Operand {
        let file = match self.pick(4) {
            0 => SrcFile::K,
            1 => SrcFile::L,
            _ => SrcFile::R,
        };
        Operand {
            file,
            index: self.pick(16) as u8,
            swz: [0; 4].map(|_| self.pick(6) as u8),
            neg: if self.pick(3) == 0 {
                self.pick(16) as u8
            } else {
                0
            },
            abs: self.pick(5) == 0,
        }
    }

    fn alu(&mut self) {
        let ops: Vec<Op> = OPS
            .iter()
            .map(|o| o.op)
            .filter(|&o| implemented(o) && o.info().unit != microcode::core::isa::Unit::Flow)
            .collect();
        let mut op = ops[self.pick(ops.len() as u32) as usize];
        // POPA only after a PUSHA of the program (an empty stack ends the run with its fault;
        // a few still do, through branches and loops).
        if op == Op::Popa && !self.code.iter().any(|i| i.op == Op::Pusha) {
            op = Op::Pusha;
        }
        let mut i = Instr::new(op);
        i.dst = self.pick(COUNTER as u32) as u8;
        i.wmask = 1 + self.pick(15) as u8;
        if self.pick(4) == 0 {
            i.sat = self.pick(3) as u8;
        }
        i.cond = Cond::ALL[self.pick(8) as usize];
        if self.pick(5) == 0 {
            i.pw = 1 + self.pick(2) as u8;
        }
        i.src = [self.operand(), self.operand(), self.operand()];
        if matches!(op, Op::Movr | Op::Movw) {
            // The ISA rule of the relative moves: A.index + C.index (MOVR, A in R or K) and
            // dst + C.index (MOVW) lie inside their file. The index register holds small
            // integers often enough to land in range.
            let span = self.pick(4) as u8;
            i.src[2].index = span;
            if i.src[0].file == SrcFile::L {
                i.src[0].file = SrcFile::R;
            }
            i.src[0].index %= COUNTER - span;
            i.dst %= COUNTER - span;
            i.target = (self.pick(7) as u16).wrapping_sub(3) & 0x3FF;
        }
        if op == Op::Tidx {
            // The hardware wraps by masking: axis words (C) with power-of-two sizes, here the
            // literals 0.0 and 1.0 (size 1); `tex_unit.rs` tests every size.
            i.src[2] = Operand {
                file: SrcFile::L,
                swz: [0; 4].map(|_| SWZ_ZERO + self.pick(2) as u8),
                ..Operand::default()
            };
        }
        if op == Op::Tfet {
            // The ISA rule of texel fetches: the address is one the TIDX sequence formed and the
            // base is the texture's; texel 0 of unit 0 here (compiled TEX covers the rest).
            let zero = Operand {
                file: SrcFile::L,
                swz: [SWZ_ZERO; 4],
                ..Operand::default()
            };
            i.src[0] = zero;
            i.src[1] = zero;
            i.target = 0;
        }
        if op.info().unit == microcode::core::isa::Unit::Div {
            // The ISA rule of the divider: its destination is none of its sources.
            for o in i.src.iter_mut() {
                if o.file == SrcFile::R && o.index == i.dst {
                    o.index = (o.index + 1) % COUNTER;
                }
            }
        }
        obey_constant_rule(&mut i);
        self.code.push(i);
    }

    fn setp(&mut self) {
        let mut i = Instr::new(Op::Setp);
        i.cond = Cond::ALL[self.pick(6) as usize];
        i.src = [self.operand(), self.operand(), Operand::default()];
        obey_constant_rule(&mut i);
        self.code.push(i);
    }

    fn flow(&mut self, op: Op) -> usize {
        let mut i = Instr::new(op);
        i.wmask = 1 + self.pick(15) as u8;
        self.code.push(i);
        self.code.len() - 1
    }

    fn block(&mut self, depth: u32) {
        for _ in 0..2 + self.pick(4) {
            match self.pick(10) {
                0 if depth < 3 => {
                    self.setp();
                    let at_if = self.flow(Op::If);
                    self.block(depth + 1);
                    if self.pick(2) == 0 {
                        let at_else = self.flow(Op::Else);
                        self.code[at_if].target = (at_else + 1) as u16;
                        self.block(depth + 1);
                        let end = self.flow(Op::Endif);
                        self.code[at_else].target = end as u16;
                    } else {
                        let end = self.flow(Op::Endif);
                        self.code[at_if].target = end as u16;
                    }
                }
                1 if depth < 2 => {
                    // A loop that runs at most three times per lane, maybe left early by BRKP.
                    let mut reset = Instr::new(Op::Mov);
                    reset.dst = COUNTER;
                    reset.wmask = 1;
                    self.code.push(reset);
                    let top = self.flow(Op::Loop);
                    self.block(depth + 1);
                    let mut inc = Instr::new(Op::Fmad);
                    inc.dst = COUNTER;
                    inc.wmask = 1;
                    inc.src[0] = Operand {
                        file: SrcFile::R,
                        index: COUNTER,
                        ..Operand::default()
                    };
                    inc.src[1] = Operand {
                        file: SrcFile::L,
                        index: 1,
                        ..Operand::default()
                    };
                    inc.src[2] = Operand {
                        file: SrcFile::L,
                        index: 1,
                        ..Operand::default()
                    };
                    self.code.push(inc);
                    let mut test = Instr::new(Op::Setp);
                    test.wmask = 1;
                    test.cond = Cond::Ge;
                    test.src[0] = inc.src[0];
                    test.src[1] = Operand {
                        file: SrcFile::L,
                        index: 9,
                        ..Operand::default()
                    };
                    self.code.push(test);
                    self.flow(Op::Brkp);
                    let end = self.flow(Op::Endloop);
                    self.code[end].target = (top + 1) as u16;
                }
                2 => {
                    self.setp();
                    let op = if self.pick(2) == 0 { Op::Kilp } else { Op::Nop };
                    self.flow(op);
                }
                3 if depth > 0 && self.pick(3) == 0 => {
                    self.flow(Op::Kill);
                }
                4 => {
                    let at = self.flow(Op::Jmp);
                    self.alu();
                    self.code[at].target = self.code.len() as u16;
                }
                // Geometry output under whatever masks the blocks around it left.
                5 if self.pick(3) == 0 => {
                    let op = if self.pick(3) == 0 {
                        Op::Endprim
                    } else {
                        Op::Emit
                    };
                    self.flow(op);
                }
                _ => self.alu(),
            }
        }
    }

    fn image(&mut self) -> Image {
        self.code.clear();
        self.block(0);
        let call_at = if self.pick(2) == 0 {
            Some(self.flow(Op::Cal))
        } else {
            None
        };
        self.alu();
        self.flow(Op::End);
        if let Some(at) = call_at {
            self.code[at].target = self.code.len() as u16;
            self.alu();
            self.setp();
            let at_if = self.flow(Op::If);
            self.flow(Op::Ret);
            let end = self.flow(Op::Endif);
            self.code[at_if].target = end as u16;
            self.alu();
            self.flow(Op::Endsub);
        }
        let constants = (0..16u16)
            .map(|k| ConstSlot {
                k,
                source: ConstSource::Data(
                    [0; 4].map(|_| common::programs::random_value(&mut self.rng)),
                ),
            })
            .collect();
        Image {
            config: CoreConfig::default(),
            processor: 0,
            origin: vec![0; self.code.len()],
            code: self.code.clone(),
            constants,
            inputs: (0..2).map(|r| RegMap { tgsi: r, reg: r }).collect(),
            outputs: (0..16).map(|r| RegMap { tgsi: r, reg: r }).collect(),
        }
    }
}

#[test]
fn random_core_programs_match_on_rtl_and_verilator() {
    let seed = std::env::var("HW_CROSS_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut g = CoreGen {
        rng: XorShift::new(seed),
        code: Vec::new(),
    };
    let mut cores = engines();
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..60 {
        let img = g.image();
        seen.extend(img.code.iter().map(|i| i.op));
        let inputs = random_inputs(&mut g.rng);
        for core in cores.iter_mut() {
            let what = format!("random program {n} (seed {seed}) on {}", core.engine());
            cross(core.as_mut(), &img, &inputs, &what).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    let missing: Vec<&str> = OPS
        .iter()
        .filter(|o| implemented(o.op) && !seen.contains(&o.op))
        .map(|o| o.mnemonic)
        .collect();
    assert!(
        missing.len() <= 8,
        "the generator never produced {missing:?} (flow operations it does not generate are allowed)"
    );
}

/// A core built without the transcendental steps faults `MISSING_UNIT` on RSQ's first step, as
/// the core model faults for that configuration. (The engines refuse such images up front;
/// here the program is written word by word to reach the hardware's own check.)
#[test]
fn a_left_out_unit_faults_like_the_model() {
    use microcode::core::config::Features;
    let cfg = CoreConfig {
        features: Features::INTEGER,
        ..CoreConfig::default()
    };
    let p = text::parse(&format!("{HEADER}RSQ OUT[0], IN[0].xxxx\nEND\n")).expect("parses");
    let image = compile(&p, &cfg).expect("compiles").image;
    let inputs = random_inputs(&mut XorShift::new(3));
    let model = sim::core_model::run(&image, &inputs);
    assert!(
        matches!(model, Err(ref f) if matches!(f.kind, sim::core_model::FaultKind::MissingUnit { .. })),
        "{model:?}"
    );
    assert!(matches!(
        sim::hardware::check_supported(&image, "rtl"),
        Err(HwError::NotBuilt { op: "RSQR", .. })
    ));
    let mut core = RtlCore::new(&cfg).expect("the core builds");
    sim::hardware::write_program(&mut core, &image).expect("writes");
    match sim::hardware::run_loaded(&mut core, &image, &inputs) {
        Err(HwError::Fault { code, .. }) => {
            assert_eq!(code, hdl::host_port::fault_code::MISSING_UNIT)
        }
        other => panic!("expected the MISSING_UNIT fault, got {other:?}"),
    }
}

/// Every budget from 0 up: the hardware stops with the budget fault exactly where the core model
/// does, and finishes exactly when the model does.
#[test]
fn budget_faults_match_on_rtl() {
    let cfg = CoreConfig::default();
    let mut core = RtlCore::new(&cfg).expect("the core builds");
    let body = "MOV TEMP[0], IMM[0].xxxx\nBGNLOOP\n  ADD TEMP[0].x, TEMP[0].x, IMM[0].y\n  SGE TEMP[0].y, TEMP[0].x, IMM[0].z\n  IF TEMP[0].yyyy\n    BRK\n  ENDIF\n  ADD OUT[0], OUT[0], IN[1]\nENDLOOP\nEND\n";
    let p = text::parse(&format!("{HEADER}{body}")).expect("parses");
    let image = compile(&p, &cfg).expect("compiles").image;
    let mut rng = XorShift::new(9);
    let mut inputs = random_inputs(&mut rng);
    let (mut faults, mut finished) = (0, 0);
    for budget in 0..40 {
        inputs.budget = budget;
        cross(&mut core, &image, &inputs, &format!("budget {budget}"))
            .unwrap_or_else(|e| panic!("{e}"));
        match sim::core_model::run(&image, &inputs) {
            Ok(_) => finished += 1,
            Err(_) => faults += 1,
        }
    }
    assert!(
        faults > 10 && finished > 0,
        "budgets covered both outcomes: {faults} faults, {finished} finished"
    );
}

/// Divisions whose destination is also their source (DIV, RCP, MOD: multiply-add and integer
/// sequences on every build): the hardware agrees with the core model and the reference model.
#[test]
fn divides_in_place_match() {
    let cfg = CoreConfig::default();
    let body = "MOV TEMP[0], IN[0]\nDIV TEMP[0], TEMP[0].wzyx, IN[1]\nRCP TEMP[0].y, TEMP[0].x\nMOD TEMP[1], IN[0], IN[1]\nMOD TEMP[1].yz, TEMP[1].zyxw, IN[0]\nMOV OUT[0], TEMP[0]\nMOV OUT[1], TEMP[1]\nEND\n";
    let p = text::parse(&format!("{HEADER}{body}")).expect("parses");
    let image = compile(&p, &cfg).expect("compiles").image;
    sim::hardware::check_supported(&image, "rtl").expect("the divisions run on the hardware");
    let mut core = RtlCore::new(&cfg).expect("the core builds");
    let mut rng = XorShift::new(12);
    for _ in 0..3 {
        let inputs = random_inputs(&mut rng);
        cross(&mut core, &image, &inputs, body).unwrap_or_else(|e| panic!("{e}"));
        let reference = sim::reference::run(&p, &inputs).expect("reference runs");
        let model = sim::core_model::run(&image, &inputs).expect("model runs");
        for l in 0..4 {
            assert_eq!(
                reference.lanes[l].outputs, model.lanes[l].outputs,
                "lane {l}"
            );
        }
    }
}

/// `--vcd` on the Verilator engine: a traced model writes every signal, one timestamp per clock
/// edge, and still agrees with the core model.
#[test]
fn verilator_engine_writes_a_vcd() {
    if toolchain::or_missing(toolchain::find(toolchain::Tool::Verilator)).is_none() {
        return;
    }
    let cfg = CoreConfig::default();
    let p = text::parse(&format!("{HEADER}ADD OUT[0], IN[0], IN[1]\nEND\n")).expect("parses");
    let image = compile(&p, &cfg).expect("compiles").image;
    let path = std::env::temp_dir().join(format!("tgsi-hw-{}.vcd", std::process::id()));
    let mut core = VerilatorCore::new_traced(&cfg, &path, &mut |m| eprintln!("{m}"))
        .expect("the traced model builds");
    let inputs = random_inputs(&mut XorShift::new(1));
    cross(&mut core, &image, &inputs, "traced").unwrap_or_else(|e| panic!("{e}"));
    let clocks = core.clocks();
    drop(core);
    let vcd = std::fs::read_to_string(&path).expect("the VCD exists");
    let _ = std::fs::remove_file(&path);
    assert!(
        vcd.contains("$var wire 32") && vcd.contains("host$wdata"),
        "a VCD header"
    );
    let stamps = vcd.lines().filter(|l| l.starts_with('#')).count() as u64;
    assert!(
        stamps >= 2 * clocks,
        "{stamps} timestamps for {clocks} clocks"
    );
}

/// Sampling compiled for the texture unit, three ways bit for bit: the reference model's texture
/// sampling, the core model running the compiled sequence, and both hardware engines. Every
/// filter and wrap mode, 1D / 2D / RECT / UNKNOWN targets, TXP and TXB, power-of-two sizes from
/// 1x1 to 16x16 and a non-square one, coordinates with infinities, NaNs, subnormals and values
/// far outside the texture.
#[test]
fn textured_programs_match_the_reference_on_rtl_and_verilator() {
    use common::programs::random_value;
    use sim::texture::{Filter, Format, Texture, Wrap};
    let body = "TEX OUT[0], IN[0], SAMP[0], 2D\nTXP TEMP[0], IN[1], SAMP[0], RECT\n\
                TEX TEMP[1], IN[1].yxzw, SAMP[0], 1D\nTXB TEMP[2], -IN[0].wzyx, SAMP[0], UNKNOWN\n\
                ADD TEMP[0], TEMP[0], TEMP[1]\nADD OUT[1], TEMP[0], TEMP[2]\nEND\n";
    let p = text::parse(&format!("{HEADER}{body}")).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert!(image.code.iter().any(|i| i.op == Op::Tfet));
    let mut cores = engines();
    let mut rng = XorShift::new(77);
    let sizes = [(1, 1), (2, 2), (4, 8), (16, 16), (8, 1), (16, 4)];
    let mut runs = 0;
    for (n, &(w, h)) in sizes.iter().cycle().take(24).enumerate() {
        let texels: Vec<[u32; 4]> = (0..w * h)
            .map(|_| [0; 4].map(|_| microcode::arith::texel::unorm8(rng.next_u32() as u8)))
            .collect();
        let filter = [Filter::Nearest, Filter::Bilinear][n % 2];
        let wrap = [Wrap::Repeat, Wrap::ClampToEdge];
        let texture = Texture::new(w, h, 1, Format::Rgba, texels)
            .expect("a valid texture")
            .with_filter(filter)
            .with_wrap([wrap[(n / 2) % 2], wrap[(n / 4) % 2], Wrap::Repeat]);
        let mut inputs = RunInputs::default();
        for i in 0..2 {
            for l in 0..4 {
                let v = [0; 4].map(|_| match rng.next_u32() % 3 {
                    0 => random_value(&mut rng),
                    _ => (rng.uniform(-3.0, 3.0) as f32).to_bits(),
                });
                inputs.set_input_lane(i, l, v);
            }
        }
        inputs.textures = vec![Some(Box::new(texture))];
        let what = format!("texture {w}x{h} {filter:?}");
        models_agree(&p, &image, &inputs, &what);
        // rust-hdl's simulation is slow: every fourth texture there, all on Verilator.
        runs += cross_all(&mut cores, &image, &inputs, &what, n % 4 == 0);
    }
    assert!(runs >= 6);
}

/// 3D, CUBE and SHADOW sampling and TXF on 3D and CUBE, compiled for the texture unit, three
/// ways bit for bit (reference, core model, both hardware engines): volumes of several shapes
/// (repeating power-of-two, clamped odd sizes) and cube maps, nearest and bilinear, each also
/// sampled through the other targets (a CUBE target reads face 0 of a volume, a 3D target slice
/// 0 of a cube map); coordinates from far outside the texture, the cube's edges and corners
/// (ties between axes, zeros) and non-finite values; integer TXF coordinates around the edges.
#[test]
fn volume_cube_and_shadow_sampling_match_the_reference_on_rtl_and_verilator() {
    use common::programs::random_value;
    use sim::texture::{Filter, Format, Texture, Wrap};
    let header = "FRAG\nDCL IN[0..1]\nDCL OUT[0..3]\nDCL TEMP[0..3]\nDCL SAMP[0]\n";
    let volume = "TEX OUT[0], IN[0], SAMP[0], 3D\nTXF OUT[1], IN[1], SAMP[0], 3D\n\
                  TEX TEMP[0], IN[0].zxyw, SAMP[0], SHADOW2D\n\
                  TXP TEMP[1], IN[0], SAMP[0], SHADOW1D\nADD OUT[2], TEMP[0], TEMP[1]\n\
                  TEX OUT[3], -IN[0].yzxw, SAMP[0], CUBE\nEND\n";
    let cube = "TEX OUT[0], IN[0], SAMP[0], CUBE\nTXF OUT[1], IN[1], SAMP[0], CUBE\n\
                TEX OUT[2], |IN[0]|, SAMP[0], SHADOWRECT\nTEX OUT[3], IN[0], SAMP[0], 3D\nEND\n";
    let programs = [volume, cube].map(|body| {
        let p = text::parse(&format!("{header}{body}")).expect("parses");
        let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
        assert!(
            !image
                .code
                .iter()
                .any(|i| i.op == Op::Tex || i.op == Op::Txf),
            "every sampling compiles for the texture unit"
        );
        (p, image)
    });
    let mut cores = engines();
    let mut rng = XorShift::new(2026);
    let wrap = [Wrap::Repeat, Wrap::ClampToEdge];
    let mut runs = 0;
    for n in 0..16usize {
        let filter = [Filter::Nearest, Filter::Bilinear][n % 2];
        let is_cube = n % 4 >= 2;
        // Half the channels and some coordinates take one of four levels, so that depth
        // comparisons meet equal values.
        let level = |rng: &mut XorShift| match rng.next_u32() % 2 {
            0 => [0, 64, 128, 255][rng.next_u32() as usize % 4],
            _ => rng.next_u32() as u8,
        };
        let unorm = |rng: &mut XorShift, count: u32| -> Vec<[u32; 4]> {
            (0..count)
                .map(|_| [0; 4].map(|_| microcode::arith::texel::unorm8(level(rng))))
                .collect()
        };
        let (texture, what) = if is_cube {
            // The board's 256 texels hold cube maps of up to 4 x 4 faces (the faces are laid
            // out a power of two apart, and a repeating face's size is a power of two).
            let size = [1, 2, 4, 4][(n / 4) % 4];
            let t = Texture::new_cube(size, Format::Rgba, unorm(&mut rng, 6 * size * size))
                .expect("a valid cube map")
                .with_wrap([wrap[(n / 4) % 2], wrap[(n / 8) % 2], Wrap::Repeat]);
            (t, format!("cube map {size} {filter:?}"))
        } else {
            let (w, h, d, clamp) = [
                (4, 4, 4, false),
                (3, 5, 3, true),
                (8, 8, 4, false),
                (2, 1, 8, false),
            ][(n / 4) % 4];
            let t = Texture::new(w, h, d, Format::Rgba, unorm(&mut rng, w * h * d))
                .expect("a valid volume")
                .with_wrap([
                    wrap[usize::from(clamp)],
                    wrap[usize::from(clamp)],
                    wrap[(n / 8 % 2) | usize::from(clamp)],
                ]);
            (t, format!("volume {w}x{h}x{d} {filter:?}"))
        };
        let texture = texture.with_filter(filter);
        let (p, image) = &programs[usize::from(is_cube)];
        let mut inputs = RunInputs::default();
        for l in 0..4 {
            let v = [0; 4].map(|_| match rng.next_u32() % 6 {
                0 => random_value(&mut rng),
                5 => microcode::arith::texel::unorm8(level(&mut rng)),
                // Cube edges and corners: ties between the axes, signed zeros.
                1 => [0x3F80_0000, 0xBF80_0000, 0, 0x8000_0000][rng.next_u32() as usize % 4],
                _ => (rng.uniform(-2.5, 2.5) as f32).to_bits(),
            });
            inputs.set_input_lane(0, l, v);
            let ints = [0; 4].map(|_| (rng.next_u32() % 11) as i32 - 1);
            inputs.set_input_lane(1, l, ints.map(|i| i as u32));
        }
        inputs.textures = vec![Some(Box::new(texture))];
        models_agree(p, image, &inputs, &what);
        runs += cross_all(&mut cores, image, &inputs, &what, n % 4 == 0);
    }
    assert!(runs >= 4);
    // A 3D lookup whose six scratch registers the program does not leave free becomes the
    // model-only TEX: the core model still equals the reference, the hardware refuses it.
    let crowded = "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..9]\nDCL SAMP[0]\n\
                   TEX TEMP[9], IN[0], SAMP[0], 3D\nMOV OUT[0], TEMP[9]\nEND\n";
    let p = text::parse(crowded).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert!(image.code.iter().any(|i| i.op == Op::Tex));
    let mut inputs = RunInputs::default();
    inputs.set_input_lane(
        0,
        0,
        [0.3f32.to_bits(), 0.6f32.to_bits(), 0.2f32.to_bits(), 0],
    );
    let texture = Texture::new(2, 2, 2, Format::Rgba, vec![[0x3F80_0000; 4]; 8])
        .expect("a valid volume")
        .with_filter(Filter::Bilinear);
    inputs.textures = vec![Some(Box::new(texture))];
    models_agree(&p, &image, &inputs, "a crowded 3D lookup");
    let err = run_image(cores[0].as_mut(), &image, &inputs).expect_err("refused");
    assert!(err.to_string().contains("TEX"), "{err}");
}

/// Relative addressing in the last bracket of 2-D registers: TEMPX arrays read and written at
/// `TEMPX[a][ADDR + n]` (also with a condition-code update and write test), a constant buffer
/// read at `CONST[b][ADDR + n]`; indices in and out of the declared ranges (reads 0, writes
/// dropped). Reference and core model over many inputs, both hardware engines on some.
#[test]
fn relative_tempx_and_constant_buffer_indices_match() {
    let text = "FRAG\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL TEMPX[0][0..3]\nDCL TEMPX[1][0..1]\n\
                DCL CONST[1][0..3]\nDCL ADDR[0]\nARL ADDR[0], IN[0]\nMOV TEMPX[0][0], IN[1]\n\
                MOV TEMPX[0][1], -IN[1]\nMOV TEMPX[0][ADDR[0].x+1], IN[0]\n\
                ADD TEMPX[1][ADDR[0].y], IN[0], CONST[1][ADDR[0].z+1]\n\
                ADD OUT[0], TEMPX[0][ADDR[0].w], TEMPX[1][1]\n\
                MOV.CC TEMPX[0][ADDR[0].x+2].xy (GT), TEMPX[0][ADDR[0].y]\n\
                MOV OUT[1], TEMPX[0][3]\nMOV OUT[1].w (LT), TEMPX[1][0]\nEND\n";
    let p = text::parse(text).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert!(image.code.iter().any(|i| i.op == Op::Movw));
    assert!(image.code.iter().any(|i| i.op == Op::Movr));
    let mut cores = engines();
    let mut rng = XorShift::new(303);
    for n in 0..120 {
        let mut inputs = RunInputs::default();
        for l in 0..4 {
            let idx = [0; 4].map(|_| ((rng.next_u32() % 8) as f32 - 2.5).to_bits());
            inputs.set_input_lane(0, l, idx);
            let v = [0; 4].map(|_| (rng.uniform(-4.0, 4.0) as f32).to_bits());
            inputs.set_input_lane(1, l, v);
        }
        for i in 0..4 {
            let v = [0; 4].map(|_| (rng.uniform(-4.0, 4.0) as f32).to_bits());
            inputs.set_const(1, i, v);
        }
        let what = format!("relative TEMPX, inputs {n}");
        models_agree(&p, &image, &inputs, &what);
        if n % 40 == 0 {
            cross_all(&mut cores, &image, &inputs, &what, true);
        }
    }
}

/// The double comparisons and selects (DSEQ, DSLT, DMIN, DMAX) are integer sequences: equal to
/// the reference's binary64 results over values with NaNs, infinities, signed zeros, subnormals,
/// equal and nearly equal pairs, with negate, absolute and swizzles, and bit for bit on both
/// hardware engines.
#[test]
fn double_comparisons_run_on_the_hardware() {
    let body = "DSLT TEMP[0], IN[0], IN[1]\nDSEQ TEMP[1], IN[0], -IN[1].zwxy\n\
                DMIN TEMP[2], |IN[0]|, IN[1]\nDMAX TEMP[3].zw, -IN[0], IN[1].zwxy\n\
                ADD OUT[0], TEMP[0], TEMP[1]\nMOV OUT[1].xy, TEMP[2]\nMOV OUT[1].zw, TEMP[3]\n\
                END\n";
    let p = text::parse(&format!("{HEADER}{body}")).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert!(
        image.code.iter().all(|i| implemented(i.op)),
        "the comparisons use only built operations"
    );
    let mut cores = engines();
    let mut rng = XorShift::new(64);
    for n in 0..300 {
        let inputs = common::programs::random_double_inputs(&mut rng);
        let what = format!("double comparisons, inputs {n}");
        models_agree(&p, &image, &inputs, &what);
        if n % 100 == 0 {
            cross_all(&mut cores, &image, &inputs, &what, true);
        }
    }
}

/// The double arithmetic is the binary64 library's integer sequences: every routine of it runs
/// on rtl and Verilator bit- and cycle-equal to the core model, which equals the reference.
#[test]
fn double_arithmetic_runs_on_the_hardware() {
    let programs = [
        "DCL IN[0..2]\nDCL OUT[0]\nDMAD OUT[0], IN[0], -IN[1].zwxy, IN[2]\n",
        "DCL IN[0..2]\nDCL OUT[0]\nDDIV OUT[0].xy, IN[0], |IN[1]|\nDRCP OUT[0].zw, IN[2]\n",
        "DCL IN[0..1]\nDCL OUT[0]\nDSQRT OUT[0], IN[0]\n",
        "DCL IN[0..1]\nDCL OUT[0]\nDFRAC OUT[0], IN[0]\n",
        "DCL IN[0..1]\nDCL OUT[0..1]\nDLDEXP OUT[0], IN[0], IN[1]\nDFRACEXP OUT[1], OUT[0], IN[0]\n",
    ];
    let mut cores = engines();
    let mut rng = XorShift::new(65);
    for body in programs {
        let p = text::parse(&format!("FRAG\n{body}END\n")).expect("parses");
        let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
        assert!(
            image.code.iter().all(|i| implemented(i.op)),
            "{body}: only built operations (no model-only DOP)"
        );
        for n in 0..40 {
            let inputs = common::programs::random_double_inputs(&mut rng);
            let what = format!("{body} inputs {n}");
            models_agree(&p, &image, &inputs, &what);
            if n < 2 {
                cross_all(&mut cores, &image, &inputs, &what, n == 0);
            }
        }
    }
}

/// UMUL, UMUL_HI and IMUL_HI are multiply-add sequences on limbs (`compile/imul.rs`), UADD an
/// IADD: on rtl and Verilator bit- and cycle-equal to the core model, which equals the reference.
#[test]
fn integer_multiplication_runs_on_the_hardware() {
    let body = "VERT\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL TEMP[0]\n\
                UMUL_HI TEMP[0], IN[0], -IN[1].yxwz\nIMUL_HI OUT[0].xyz, |IN[1]|, IN[0]\n\
                UMUL OUT[1], TEMP[0], IN[1]\nUADD OUT[0].w, TEMP[0].x, IN[0].y\nEND\n";
    let p = text::parse(body).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert!(image.code.iter().all(|i| implemented(i.op)));
    let mut cores = engines();
    let mut rng = XorShift::new(91);
    for n in 0..60 {
        let mut word = || match rng.next_u32() % 4 {
            0 => [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF][rng.next_u32() as usize % 5],
            1 => rng.next_u32() | 0xFFC0_0000,
            _ => rng.next_u32(),
        };
        let mut inputs = RunInputs::default();
        for r in 0..2 {
            let v: [[u32; 4]; 4] = std::array::from_fn(|_| std::array::from_fn(|_| word()));
            inputs.inputs.insert(r, v);
        }
        let what = format!("integer products, inputs {n}");
        models_agree(&p, &image, &inputs, &what);
        if n < 3 {
            cross_all(&mut cores, &image, &inputs, &what, n == 0);
        }
    }
}

/// Vertex-relative geometry inputs `IN[ADDR + n][i]` (MOVR over K) stream the same vertices on
/// the hardware, a vertex beyond the triangle reading 0.
#[test]
fn vertex_relative_geometry_inputs_run_on_the_hardware() {
    let p = text::parse(VERTEX_RELATIVE_GEOMETRY).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    let mut cores = engines();
    let mut rng = XorShift::new(77);
    let mut inputs = RunInputs::default();
    for v in 0..3 {
        for i in 0..2 {
            let val = [0; 4].map(|_| (rng.uniform(-2.0, 2.0) as f32).to_bits());
            inputs.geometry_inputs.insert((v, i), val);
        }
    }
    let reference = sim::reference::run(&p, &inputs).expect("the reference runs");
    let model = sim::core_model::run(&image, &inputs).expect("the core model runs");
    assert_eq!(reference.lanes[0].vertices, model.lanes[0].vertices);
    assert_eq!(model.lanes[0].vertices.len(), 3);
    cross_all(&mut cores, &image, &inputs, "vertex-relative inputs", true);
}

/// Texture memory reads back through the host port on both engines (the on-chip loader's
/// read-modify-write of texel bytes and COMMIT's checksum read it), also after a run.
#[test]
fn texture_memory_reads_back_through_the_host_port() {
    let mut rng = XorShift::new(512);
    let texels = usize::from(CoreConfig::default().texture_texels);
    let words: Vec<u32> = (0..texels).map(|_| rng.next_u32()).collect();
    let p = text::parse(&format!("{HEADER}MOV OUT[0], IN[0]\nEND\n")).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    for core in engines().iter_mut() {
        for (i, &w) in words.iter().enumerate() {
            core.write(hdl::host_port::texel_addr(i), w)
                .expect("writes");
        }
        run_image(core.as_mut(), &image, &RunInputs::default()).expect("runs");
        for (i, &w) in words.iter().enumerate().step_by(7) {
            let got = core.read(hdl::host_port::texel_addr(i)).expect("reads");
            assert_eq!(got, w, "texel {i} on {}", core.engine());
        }
    }
}

/// Textures the texture unit cannot hold are refused before anything is written, naming the
/// sampler and the reason.
#[test]
fn textures_the_hardware_cannot_hold_are_refused() {
    use sim::texture::{Format, Texture, Wrap};
    let p = text::parse(&format!("{HEADER}TEX OUT[0], IN[0], SAMP[0], 2D\nEND\n")).expect("parses");
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    let mut core = RtlCore::new(&CoreConfig::default()).expect("the core builds");
    let has_texels = format!("the hardware has {}", CoreConfig::default().texture_texels);
    let cases: Vec<(Texture, &str)> = vec![
        (
            Texture::from_floats(2, 2, 1, Format::Rgba, &[[0.3, 0.0, 0.0, 1.0]; 4]).unwrap(),
            "not an 8-bit unorm value",
        ),
        (
            Texture::from_floats(3, 2, 1, Format::Rgba, &[[1.0; 4]; 6]).unwrap(),
            "width 3 repeats but is not a power of two",
        ),
        (
            Texture::from_floats(32, 32, 1, Format::Rgba, &[[1.0; 4]; 1024])
                .unwrap()
                .with_wrap([Wrap::ClampToEdge; 3]),
            has_texels.as_str(),
        ),
    ];
    for (texture, want) in cases {
        let inputs = RunInputs {
            textures: vec![Some(Box::new(texture))],
            ..RunInputs::default()
        };
        match run_image(&mut core, &image, &inputs) {
            Err(e @ HwError::Texture { unit: 0, .. }) => {
                assert!(e.to_string().contains(want), "{e} (wanted {want:?})")
            }
            other => panic!("expected a texture error containing {want:?}, got {other:?}"),
        }
    }
    let inputs = RunInputs {
        textures: vec![None],
        ..RunInputs::default()
    };
    let err = run_image(&mut core, &image, &inputs).expect_err("no texture bound");
    assert!(
        err.to_string().contains("sampler unit 0: no texture bound"),
        "{err}"
    );
}

/// Geometry programs stream their vertices through the host port: the core pauses at each EMIT
/// and ENDPRIM, the engine reads the emitting lanes' outputs and resumes. Vertices, primitive
/// ends, outputs and cycles equal the core model's, with EMIT inside a loop, under an IF that
/// a constant decides, and an ENDPRIM in a subroutine (random core programs add EMIT and
/// ENDPRIM under divergent control flow).
#[test]
fn geometry_programs_stream_vertices_like_the_model() {
    let src =
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n\
               PROPERTY GS_MAX_OUTPUT_VERTICES 16\nDCL IN[][0], POSITION\nDCL IN[][1], COLOR\n\
               DCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL TEMP[0..1]\nDCL CONST[0]\n\
               IMM FLT32 { 1.0, 0.5, 0.0, 3.0 }\n\
               MOV TEMP[0], IN[0][0]\nMOV TEMP[1].x, IMM[0].zzzz\n\
               BGNLOOP\n  ADD TEMP[0], TEMP[0], IN[1][0]\n  MOV OUT[0], TEMP[0]\n\
                 MUL OUT[1], IN[2][1], TEMP[1].xxxx\n  EMIT\n\
                 ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx\n\
                 SGE TEMP[1].y, TEMP[1].xxxx, IMM[0].wwww\n  IF TEMP[1].yyyy\n    BRK\n  ENDIF\n\
               ENDLOOP\nCAL :20\n\
               SLT TEMP[1].z, CONST[0].xxxx, IMM[0].yyyy\nIF TEMP[1].zzzz\n\
                 MOV OUT[0], IN[1][0]\n  EMIT\nENDIF\nEND\n\
               ENDPRIM\nRET\n";
    let p = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src, "geometry")));
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    let mut cores = engines();
    let mut rng = XorShift::new(31);
    for n in 0..4 {
        let mut inputs = RunInputs::default();
        for v in 0..3 {
            for i in 0..2 {
                let val = [0; 4].map(|_| (rng.uniform(-2.0, 2.0) as f32).to_bits());
                inputs.geometry_inputs.insert((v, i), val);
            }
        }
        // CONST[0].x < 0.5 decides the last EMIT: every run takes the other way from the last.
        inputs.set_const(0, 0, [if n % 2 == 0 { 0 } else { 0x3F80_0000 }; 4]);
        let model = sim::core_model::run(&image, &inputs).expect("the model runs");
        assert_eq!(model.lanes[0].vertices.len(), 3 + (n % 2 == 0) as usize);
        for core in cores.iter_mut() {
            let what = format!("geometry run {n} on {}", core.engine());
            cross(core.as_mut(), &image, &inputs, &what).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// The board build that fits the HX8K (`CoreConfig::minimal`: no int-to-float converter, so
/// EXPN takes its narrow path; 256 texels of texture memory; a mask stack of 4 frames) against
/// the core model and the reference, bit for bit: LOG's exponent and significand, EXP,
/// bilinear and nearest sampling of a 16x16 texture that fills the memory, IFs nested four deep
/// (the full stack) and a loop with BRK, on random inputs.
#[test]
fn the_board_build_that_fits_matches_the_model() {
    use sim::texture::{Filter, Format, Texture, Wrap};
    let cfg = CoreConfig::minimal();
    let body = "LOG TEMP[0].xy, IN[0]\nEXP TEMP[1].xy, IN[1]\nRCP TEMP[1].zw, IN[1].x\n\
                TEX TEMP[2], IN[0].yxzw, SAMP[0], 2D\n\
                SLT TEMP[3], IN[0], IN[1]\n\
                IF TEMP[3].xxxx\n  IF TEMP[3].yyyy\n    IF TEMP[3].zzzz\n      IF TEMP[3].wwww\n\
                        ADD TEMP[0], TEMP[0], TEMP[2]\n      ELSE\n        MUL TEMP[0], TEMP[0], TEMP[1]\n\
                      ENDIF\n    ENDIF\n  ENDIF\nENDIF\n\
                MOV TEMP[3], IMM[0].xxxx\nBGNLOOP\n  ADD TEMP[3].x, TEMP[3].x, IMM[0].y\n\
                  SGE TEMP[3].y, TEMP[3].x, IMM[0].z\n  IF TEMP[3].yyyy\n    BRK\n  ENDIF\nENDLOOP\n\
                MAD OUT[0], TEMP[0], TEMP[3].xxxx, TEMP[2]\n\
                UCMP OUT[1].xy, TEMP[3].yxzw, -TEMP[1], IN[0]\nF2U OUT[1].zw, IN[1].zwxy\nEND\n";
    let p = text::parse(&format!("{HEADER}{body}")).expect("parses");
    let image = compile(&p, &cfg).expect("compiles").image;
    // UCMP and F2U need no integer ALU: USGN, predicated moves, MIN/MAX, SEL and F2IF.
    assert!(image.code.iter().any(|i| i.op == Op::Usgn));
    assert!(image.code.iter().any(|i| i.op == Op::Expn));
    assert!(image.code.iter().any(|i| i.op == Op::Tfet));
    // RCP without the divider: its multiply-add sequence (`compile/div.rs`).
    assert!(image.code.iter().all(|i| i.op != Op::Rcp));
    sim::hardware::check_supported(&image, "verilator").expect("the build runs it");
    let mut cores: Vec<Box<dyn HostPort>> =
        vec![Box::new(RtlCore::new(&cfg).expect("the core builds"))];
    match toolchain::find(toolchain::Tool::Verilator) {
        Ok(_) => cores.push(Box::new(
            VerilatorCore::new(&cfg, &mut |m| eprintln!("{m}"))
                .unwrap_or_else(|e| panic!("the verilator engine does not build: {e}")),
        )),
        Err(e) => toolchain::missing(format!("the verilator engine: {e}")),
    }
    let mut rng = XorShift::new(256);
    for n in 0..12 {
        let texels: Vec<[u32; 4]> = (0..256)
            .map(|_| [0; 4].map(|_| microcode::arith::texel::unorm8(rng.next_u32() as u8)))
            .collect();
        let filter = [Filter::Bilinear, Filter::Nearest][n % 2];
        let texture = Texture::new(16, 16, 1, Format::Rgba, texels)
            .expect("a valid texture")
            .with_filter(filter)
            .with_wrap([Wrap::Repeat, Wrap::ClampToEdge, Wrap::Repeat]);
        let mut inputs = random_inputs(&mut rng);
        inputs.textures = vec![Some(Box::new(texture))];
        let what = format!("minimal build, run {n}");
        models_agree(&p, &image, &inputs, &what);
        cross_all(&mut cores, &image, &inputs, &what, n < 2);
    }
}

/// The divisions without the divider (`compile/div.rs`) on the hardware of the build that fits
/// (`CoreConfig::minimal`) and, for MOD, the unpack opcodes and ExtDivide on integer operands,
/// of a build with every unit but the divider: bit- and cycle-equal to the core model, and the
/// core model equal to the reference, on random and hard operands. The programs cover a vec4
/// DIV in groups of two (the common header's registers) and of four, RCP and RCC (one division
/// for every component), TXP and ExtDivide (three divisions sharing a divisor), CUBE (a known
/// positive divisor), RFL, and the shared division routine of a program with more divisions than
/// its instructions hold inline.
#[test]
fn division_sequences_match_on_rtl_and_verilator() {
    use microcode::arith::div_steps::operand_pair;
    use microcode::core::config::Features;
    use sim::texture::{Filter, Format, Texture};
    let minimal = CoreConfig::minimal();
    let no_divider = CoreConfig {
        features: CoreConfig::default().features & !Features::DIVIDER,
        ..CoreConfig::default()
    };
    let small = "FRAG\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL TEMP[0..1]\nDCL SAMP[0]\n";
    let cube = Texture::new_cube(
        2,
        Format::Rgba,
        (0..24u32)
            .map(|i| [0, 1, 2, 3].map(|c| microcode::arith::texel::unorm8((i * 41 + c * 13) as u8)))
            .collect(),
    )
    .expect("a valid cube")
    .with_filter(Filter::Bilinear);
    // Six vec4 DIVs and RCC: more than 256 instructions inline, so they call the shared
    // division routine.
    let routine = format!(
        "{small}MOV TEMP[0], IN[0]\n{}RCC TEMP[1].x, TEMP[0].w\nMOV OUT[0], TEMP[0]\nMOV OUT[1], TEMP[1]\nEND\n",
        "DIV TEMP[0], TEMP[0], IN[1].yzwx\n".repeat(6)
    );
    let programs: [(String, &CoreConfig, Option<Texture>); 6] = [
        (routine, &minimal, None),
        (
            format!("{HEADER}DIV OUT[0], IN[0], IN[1]\nRCP OUT[1].xy, IN[1].w\nRCC OUT[1].zw, IN[0].z\nEND\n"),
            &minimal,
            None,
        ),
        (
            format!("{small}DIV TEMP[0], IN[1].wzyx, IN[0]\nMOV TEMP[1], -IN[0]/w\nADD OUT[0], TEMP[0], TEMP[1]\nRFL OUT[1], IN[0], IN[1]\nEND\n"),
            &minimal,
            None,
        ),
        (
            format!("{small}TXP OUT[0], IN[0], SAMP[0], 2D\nTXP OUT[1], IN[1].zyxw, SAMP[0], 1D\nEND\n"),
            &minimal,
            Some(common::programs::test_texture()),
        ),
        (
            format!("{small}TEX OUT[0], IN[0], SAMP[0], CUBE\nTXP OUT[1], IN[1], SAMP[0], CUBE\nEND\n"),
            &minimal,
            Some(cube),
        ),
        (
            format!("{small}MOD OUT[0], IN[0], IN[1]\nMOD OUT[1].xy, -IN[1], IN[0].z\nUP2US TEMP[0], IN[0].y\nUP4B TEMP[1], IN[1].x\nXOR OUT[1].zw, IN[0]/w, IN[1]\nADD OUT[1].zw, TEMP[0], TEMP[1]\nEND\n"),
            &no_divider,
            None,
        ),
    ];
    let mut rng = XorShift::new(0xD1F);
    let mut built: Vec<(CoreConfig, Vec<Box<dyn HostPort>>)> = Vec::new();
    for (n, (src, cfg, texture)) in programs.into_iter().enumerate() {
        let p = text::parse(&src).expect("parses");
        let image = compile(&p, cfg).expect("compiles").image;
        assert!(
            image
                .code
                .iter()
                .all(|i| !matches!(i.op, Op::Div | Op::Rcp | Op::Imod)),
            "no divider instruction in\n{src}"
        );
        sim::hardware::check_supported(&image, "verilator").expect("the build runs it");
        assert_eq!(
            image
                .origin
                .contains(&microcode::core::image::DIVISION_ORIGIN),
            n == 0,
            "the shared routine only where the sequences do not fit inline"
        );
        if !built.iter().any(|(c, _)| c == cfg) {
            built.push((cfg.clone(), engines_of(cfg)));
        }
        let cores = built
            .iter_mut()
            .find(|(c, _)| c == cfg)
            .map(|(_, e)| e)
            .expect("engines built");
        for run in 0..12 {
            let mut inputs = random_inputs(&mut rng);
            for l in 0..4 {
                let (a, b) = operand_pair(&mut rng, run * 4 + l as u32);
                let (c, d) = operand_pair(&mut rng, run * 4 + l as u32 + 1);
                inputs.set_input_lane(0, l, [a, c, b, d]);
                inputs.set_input_lane(1, l, [b, d, c, a]);
            }
            inputs.textures = vec![texture.clone().map(|t| Box::new(t) as _)];
            let what = format!("division program {n}, run {run}");
            models_agree(&p, &image, &inputs, &what);
            cross_all(cores, &image, &inputs, &what, run < 1);
        }
    }
}

/// A run that faults in the first clock of an instruction that was waiting for its retire slot
/// (POPA on an empty address stack right after a multiply-add) must not leave that wait behind:
/// the next run's first instruction issues all 16 of its slots (found by the formal proof
/// core-stacks, `formal/`; before the fix the stale wait delayed the slots and the last ones
/// never issued).
#[test]
fn a_fault_while_waiting_leaves_no_wait_for_the_next_run() {
    let cfg = CoreConfig::default();
    let mut core = RtlCore::new(&cfg).expect("the core builds");
    let faulting = text::parse(&format!(
        "{HEADER}MAD TEMP[0], IN[0], IN[1], IN[1]\nPOPA ADDR[0]\nMOV OUT[0], TEMP[0]\nEND\n"
    ))
    .expect("parses");
    let plain = text::parse(&format!(
        "{HEADER}MOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nEND\n"
    ))
    .expect("parses");
    let faulting = compile(&faulting, &cfg).expect("compiles").image;
    let plain = compile(&plain, &cfg).expect("compiles").image;
    let mut rng = XorShift::new(0xA5A5);
    let inputs = random_inputs(&mut rng);
    assert!(
        sim::core_model::run(&faulting, &inputs).is_err(),
        "the first program faults (POPA on an empty stack)"
    );
    cross(&mut core, &faulting, &inputs, "the faulting run").unwrap_or_else(|e| panic!("{e}"));
    cross(&mut core, &plain, &inputs, "the run after the fault").unwrap_or_else(|e| panic!("{e}"));
}
