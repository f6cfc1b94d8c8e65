//! A small, independent evaluator of straight-line TGSI with Mesa 7.9 `tgsi_exec` semantics, for the
//! corpus checks. It shares nothing with the reference model but the program representation.
//!
//! Mesa 7.9: host binary32 arithmetic, source absolute then negate, no flushing, ARL = floor,
//! ARR = floor(x + 0.5), MIN/MAX/CMP as selects, EX2/LG2/POW (and LIT's power) through tables with
//! ~0.3% error (here: host math, every derived value carrying a 1% tolerance).
//!
//! [`Mode::Documented`] switches on the deliberate differences of `decisions.md` section 8 that
//! straight-line code can show (round halves to even, flushed subnormals, canonical NaN, conversion
//! of float results written to ADDR) and logs every place where that changed a value, so a test can
//! name the case and check the documented behaviour instead of Mesa's.

use microcode::tgsi::{File, Opcode, Program, Register, SrcOperand};
use std::collections::{BTreeSet, HashMap};

/// Relative tolerance of values derived from Mesa's table approximations (EX2, LG2, POW, LIT.z).
pub const TABLE_TOL: f64 = 0.01;
/// Relative tolerance of RSQ (Mesa: 1/sqrtf, two roundings; ours within 1 ULP).
pub const RSQ_TOL: f64 = 1.0 / 2_097_152.0;

/// The rule for indirect reads beyond the declared range.
pub const OUT_OF_RANGE: &str = "decisions.md 2/8: indirect reads out of the declared range read 0 (Mesa 7.9: undefined for IMM)";

/// Which semantics to evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Mesa,
    Documented,
}

/// One component: its value and the relative tolerance it carries (0 = exact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Val {
    pub v: f32,
    pub tol: f64,
}

const ZERO: Val = Val { v: 0.0, tol: 0.0 };

/// Per-lane inputs of one run.
pub struct Inputs {
    /// `IN[n]` per lane.
    pub inputs: HashMap<u32, [[f32; 4]; 4]>,
    /// `CONST[b][n]` keyed by (b, n).
    pub constants: HashMap<(i32, i32), [f32; 4]>,
    /// Geometry inputs `IN[v][n]` keyed by (v, n), the same in every lane.
    pub geometry: HashMap<(i32, i32), [f32; 4]>,
}

/// The result of one lane.
#[derive(Clone, Debug, Default)]
pub struct Lane {
    pub killed: bool,
    /// `OUT[n]` for every output the program writes.
    pub outputs: HashMap<u32, [Val; 4]>,
    /// Geometry programs: the emitted vertices (outputs at EMIT, primitive end flag).
    pub vertices: Vec<(HashMap<u32, [Val; 4]>, bool)>,
}

/// Outputs of one run, and the `decisions.md` rules that changed a value (documented mode).
pub struct Run {
    pub lanes: Vec<Lane>,
    pub rules: BTreeSet<&'static str>,
}

/// Register key: (file, outer index, element). 1-D operands have outer 0; 2-D operands `F[a][b]`
/// have outer `a` (the constant buffer or the temporary array) and element `b`.
type Key = (File, i32, i32);

struct Machine<'a> {
    program: &'a Program,
    mode: Mode,
    lane: usize,
    inputs: &'a Inputs,
    regs: HashMap<Key, [Val; 4]>,
    addr: [i32; 4],
    killed: bool,
    vertices: Vec<(HashMap<u32, [Val; 4]>, bool)>,
    rules: BTreeSet<&'static str>,
}

/// Evaluates `program` on four lanes.
pub fn run(program: &Program, inputs: &Inputs, mode: Mode) -> Result<Run, String> {
    let mut lanes = Vec::new();
    let mut rules = BTreeSet::new();
    for lane in 0..4 {
        let mut m = Machine {
            program,
            mode,
            lane,
            inputs,
            regs: HashMap::new(),
            addr: [0; 4],
            killed: false,
            vertices: Vec::new(),
            rules: BTreeSet::new(),
        };
        m.load_arrays();
        for inst in &program.instructions {
            if inst.opcode == Opcode::End {
                break;
            }
            m.exec(inst)?;
        }
        // The end of the program ends the last primitive.
        if let Some(last) = m.vertices.last_mut() {
            last.1 = true;
        }
        let out = Lane {
            killed: m.killed,
            outputs: m.outputs(),
            vertices: std::mem::take(&mut m.vertices),
        };
        rules.extend(m.rules);
        lanes.push(out);
    }
    Ok(Run { lanes, rules })
}

fn val(v: f32) -> Val {
    Val { v, tol: 0.0 }
}

impl Machine<'_> {
    fn outputs(&self) -> HashMap<u32, [Val; 4]> {
        self.regs
            .iter()
            .filter(|((file, outer, _), _)| *file == File::Output && *outer == 0)
            .map(|((_, _, el), v)| (*el as u32, *v))
            .collect()
    }

    fn load_arrays(&mut self) {
        for d in &self.program.declarations {
            if d.file == File::ImmediateArray {
                for (k, data) in d.array_data.iter().enumerate() {
                    self.regs.insert(
                        (File::ImmediateArray, 0, d.first + k as i32),
                        data.map(|b| val(f32::from_bits(b))),
                    );
                }
            }
        }
    }

    fn key(&self, reg: &Register) -> Result<Key, String> {
        let mut index = reg.index;
        if let Some(ind) = reg.indirect {
            if ind.file != File::Address || ind.index != 0 {
                return Err("indirect through something other than ADDR[0]".into());
            }
            index += self.addr[usize::from(ind.component)];
        }
        Ok(match reg.dimension {
            Some(d) => (reg.file, index, d.index),
            None => (reg.file, 0, index),
        })
    }

    fn read(&mut self, reg: &Register) -> Result<[Val; 4], String> {
        let (file, outer, el) = self.key(reg)?;
        Ok(match file {
            File::Input if reg.dimension.is_some() => self
                .inputs
                .geometry
                .get(&(outer, el))
                .map(|c| c.map(val))
                .unwrap_or([ZERO; 4]),
            File::Input => match self.inputs.inputs.get(&(el as u32)) {
                Some(l) => l[self.lane].map(val),
                None => [ZERO; 4],
            },
            File::Constant => self
                .inputs
                .constants
                .get(&(outer, el))
                .map(|c| c.map(val))
                .unwrap_or([ZERO; 4]),
            File::Immediate => {
                let Some(imm) = usize::try_from(el)
                    .ok()
                    .and_then(|i| self.program.immediates.get(i))
                else {
                    // Mesa 7.9 reads past its immediate array (undefined).
                    if self.mode == Mode::Mesa {
                        return Err(format!(
                            "Mesa 7.9: IMM[{el}] reads past the immediates (undefined)"
                        ));
                    }
                    self.rules.insert(OUT_OF_RANGE);
                    return Ok([ZERO; 4]);
                };
                let mut v = [ZERO; 4];
                for (c, b) in imm.values.iter().enumerate().take(4) {
                    v[c] = val(f32::from_bits(*b));
                }
                v
            }
            _ => self
                .regs
                .get(&(file, outer, el))
                .copied()
                .unwrap_or([ZERO; 4]),
        })
    }

    /// Swizzle, then absolute value, then negate (Mesa 7.9's order).
    fn fetch(&mut self, s: &SrcOperand) -> Result<[Val; 4], String> {
        if s.ext_swizzle.is_some() || s.ext_mod.complement || s.ext_mod.bias || s.ext_mod.scale2x {
            return Err("extended source modifiers are not straight Mesa 7.9 operands".into());
        }
        let r = self.read(&s.reg)?;
        let neg = s.negate ^ s.ext_mod.negate;
        Ok(std::array::from_fn(|c| {
            let mut x = r[usize::from(s.swizzle[c])];
            if s.ext_mod.absolute {
                x.v = x.v.abs();
            }
            if neg {
                x.v = -x.v;
            }
            x
        }))
    }

    /// The documented number rules on a float-operation result (flush, canonical NaN).
    fn finish(&mut self, x: Val) -> Val {
        if self.mode == Mode::Mesa {
            return x;
        }
        let b = x.v.to_bits();
        if x.v.is_nan() && b != 0x7FC0_0000 {
            self.rules
                .insert("decisions.md 2/8: NaN results are canonical 0x7FC00000");
            return Val {
                v: f32::from_bits(0x7FC0_0000),
                tol: x.tol,
            };
        }
        if x.v != 0.0 && x.v.abs() < f32::MIN_POSITIVE {
            self.rules
                .insert("decisions.md 2/8: subnormal results flush to signed zero");
            return Val {
                v: f32::from_bits(b & 0x8000_0000),
                tol: x.tol,
            };
        }
        x
    }

    /// A float operand as the documented model reads it (subnormal -> signed zero).
    fn input(&mut self, x: Val) -> Val {
        if self.mode == Mode::Documented && x.v != 0.0 && x.v.abs() < f32::MIN_POSITIVE {
            self.rules
                .insert("decisions.md 2/8: subnormal operands count as zero");
            return Val {
                v: f32::from_bits(x.v.to_bits() & 0x8000_0000),
                tol: x.tol,
            };
        }
        x
    }

    fn op1(&mut self, a: Val, tol: f64, f: impl Fn(f32) -> f32) -> Val {
        let a = self.input(a);
        let r = Val {
            v: f(a.v),
            tol: a.tol.max(tol),
        };
        self.finish(r)
    }

    fn op2(&mut self, a: Val, b: Val, f: impl Fn(f32, f32) -> f32) -> Val {
        let (a, b) = (self.input(a), self.input(b));
        let r = Val {
            v: f(a.v, b.v),
            tol: a.tol.max(b.tol),
        };
        self.finish(r)
    }

    /// Selects keep the chosen operand (documented: a chosen subnormal becomes signed zero).
    fn select(&mut self, pick_a: bool, a: Val, b: Val) -> Val {
        let x = if pick_a { a } else { b };
        self.input(x)
    }

    fn dot(&mut self, a: &[Val; 4], b: &[Val; 4], n: usize) -> Val {
        let mut acc = self.op2(a[0], b[0], |x, y| x * y);
        for c in 1..n {
            let p = self.op2(a[c], b[c], |x, y| x * y);
            acc = self.op2(acc, p, |x, y| x + y);
        }
        acc
    }

    fn exec(&mut self, inst: &microcode::tgsi::Instruction) -> Result<(), String> {
        use Opcode as O;
        let src: Vec<[Val; 4]> = inst
            .src
            .iter()
            .map(|s| self.fetch(s))
            .collect::<Result<_, _>>()?;
        let one = val(1.0);
        let cw1 = |m: &mut Self, tol: f64, f: fn(f32) -> f32| -> [Val; 4] {
            let a = src[0];
            std::array::from_fn(|c| m.op1(a[c], tol, f))
        };
        let cw2 = |m: &mut Self, f: fn(f32, f32) -> f32| -> [Val; 4] {
            let (a, b) = (src[0], src[1]);
            std::array::from_fn(|c| m.op2(a[c], b[c], f))
        };
        let rep = |x: Val| [x; 4];
        let result: [Val; 4] = match inst.opcode {
            O::Mov => src[0],
            O::Abs => src[0].map(|x| Val {
                v: x.v.abs(),
                tol: x.tol,
            }),
            O::Add => cw2(self, |x, y| x + y),
            O::Sub => cw2(self, |x, y| x - y),
            O::Mul => cw2(self, |x, y| x * y),
            O::Mad => {
                let p = cw2(self, |x, y| x * y);
                std::array::from_fn(|c| self.op2(p[c], src[2][c], |x, y| x + y))
            }
            O::Lrp => {
                let (a, b, c3) = (src[0], src[1], src[2]);
                std::array::from_fn(|c| {
                    let d = self.op2(b[c], c3[c], |x, y| x - y);
                    let p = self.op2(a[c], d, |x, y| x * y);
                    self.op2(p, c3[c], |x, y| x + y)
                })
            }
            O::Dp3 => rep(self.dot(&src[0], &src[1], 3)),
            O::Dp4 => rep(self.dot(&src[0], &src[1], 4)),
            O::Dst => {
                let y = self.op2(src[0][1], src[1][1], |x, y| x * y);
                [one, y, src[0][2], src[1][3]]
            }
            O::Xpd => {
                let (a, b) = (src[0], src[1]);
                let mut t = |i: usize, j: usize| {
                    let p = self.op2(a[i], b[j], |x, y| x * y);
                    let q = self.op2(a[j], b[i], |x, y| x * y);
                    self.op2(p, q, |x, y| x - y)
                };
                [t(1, 2), t(2, 0), t(0, 1), one]
            }
            O::Min => std::array::from_fn(|c| {
                self.select(src[0][c].v < src[1][c].v, src[0][c], src[1][c])
            }),
            O::Max => std::array::from_fn(|c| {
                self.select(src[0][c].v > src[1][c].v, src[0][c], src[1][c])
            }),
            O::Cmp => std::array::from_fn(|c| self.select(src[0][c].v < 0.0, src[1][c], src[2][c])),
            O::Slt => {
                std::array::from_fn(|c| val(if src[0][c].v < src[1][c].v { 1.0 } else { 0.0 }))
            }
            O::Sge => {
                std::array::from_fn(|c| val(if src[0][c].v >= src[1][c].v { 1.0 } else { 0.0 }))
            }
            O::Flr => cw1(self, 0.0, f32::floor),
            O::Frc => cw1(self, 0.0, |x| x - x.floor()),
            O::Rcp => rep(self.op1(src[0][0], 0.0, |x| 1.0 / x)),
            O::Rsq => rep(self.op1(src[0][0], RSQ_TOL, |x| 1.0 / x.abs().sqrt())),
            O::Ex2 => rep(self.op1(src[0][0], TABLE_TOL, f32::exp2)),
            O::Lg2 => rep(self.op1(src[0][0], TABLE_TOL, f32::log2)),
            O::Lit => {
                let a = src[0];
                let y = self.select(a[0].v > 0.0, a[0], ZERO);
                let base = self.select(a[1].v > 0.0, a[1], ZERO);
                let w = a[3].v.clamp(-128.0, 128.0);
                let z = if a[0].v > 0.0 {
                    self.op2(
                        base,
                        Val {
                            v: w,
                            tol: a[3].tol,
                        },
                        |b, e| b.powf(e),
                    )
                } else {
                    ZERO
                };
                [
                    one,
                    y,
                    Val {
                        v: z.v,
                        tol: z.tol.max(if a[0].v > 0.0 { TABLE_TOL } else { 0.0 }),
                    },
                    one,
                ]
            }
            O::Arl | O::Arr => {
                let round_half_up = |x: f32| (x + 0.5).floor();
                let conv = src[0].map(|x| {
                    let x = self.input(x).v;
                    let f = if inst.opcode == O::Arl {
                        x.floor()
                    } else if self.mode == Mode::Mesa {
                        round_half_up(x)
                    } else {
                        let even = x.round_ties_even();
                        if even != round_half_up(x) {
                            self.rules.insert(
                                "decisions.md 8: ARR rounds halves to even (Mesa: floor(x + 0.5))",
                            );
                        }
                        even
                    };
                    f as i32
                });
                return self.write_addr(inst, conv);
            }
            O::Emit => {
                let v = self.outputs();
                self.vertices.push((v, false));
                return Ok(());
            }
            O::EndPrim => {
                if let Some(last) = self.vertices.last_mut() {
                    last.1 = true;
                }
                return Ok(());
            }
            O::Kil => {
                if src[0].iter().any(|x| x.v < 0.0) {
                    self.killed = true;
                }
                return Ok(());
            }
            other => {
                return Err(format!(
                    "{other} is not implemented by the Mesa 7.9 evaluator"
                ))
            }
        };
        let d = inst
            .dst
            .first()
            .ok_or("instruction without a destination")?;
        if d.reg.file == File::Address {
            // Mesa 7.9 converts only in ARL/ARR; a float opcode writing ADDR stores the float's bits,
            // an index near 2^30. decisions.md section 2 converts with floor.
            if self.mode == Mode::Mesa {
                return Err(
                    "Mesa 7.9: a float opcode writing ADDR stores float bits (undefined indexing)"
                        .into(),
                );
            }
            self.rules
                .insert("decisions.md 2: float results written to ADDR convert with floor");
            return self.write_addr(inst, result.map(|x| x.v.floor() as i32));
        }
        let key = self.key(&d.reg)?;
        let mut cur = self.regs.get(&key).copied().unwrap_or([ZERO; 4]);
        for (c, slot) in cur.iter_mut().enumerate() {
            if d.write_mask & (1 << c) != 0 {
                *slot = result[c];
            }
        }
        self.regs.insert(key, cur);
        Ok(())
    }

    fn write_addr(
        &mut self,
        inst: &microcode::tgsi::Instruction,
        v: [i32; 4],
    ) -> Result<(), String> {
        let d = inst
            .dst
            .first()
            .ok_or("instruction without a destination")?;
        for (c, a) in v.iter().enumerate() {
            if d.write_mask & (1 << c) != 0 {
                self.addr[c] = *a;
            }
        }
        Ok(())
    }
}
