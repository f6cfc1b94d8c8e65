//! Binary32 opcode kernels: one lane, sources already modified, formulas evaluated literally left
//! to right with one rounding per operation (`decisions.md` sections 1 and 2).

use super::float::{self as f, bool_bits, flush, ONE, ZERO};
use super::state::{Vec4, Written};
use microcode::tgsi::Opcode;

const SIGN: u32 = 0x8000_0000;
const HALF: u32 = 0x3F00_0000;
const TWO: u32 = 0x4000_0000;
const MINUS_ONE: u32 = 0xBF80_0000;
/// -128.0 and 128.0, LIT's exponent clamp.
const M128: u32 = 0xC300_0000;
const P128: u32 = 0x4300_0000;

/// Matrix opcodes: (rows, dot-product width).
pub fn matrix_rows(op: Opcode) -> Option<(usize, usize)> {
    op.info().matrix()
}

fn all(f: impl Fn(usize) -> u32) -> Written {
    std::array::from_fn(|c| Some(f(c)))
}

fn rep(x: u32) -> Written {
    [Some(x); 4]
}

/// `((a0*b0 + a1*b1) + a2*b2) + ...` over the first `n` components.
pub fn dot(a: &Vec4, b: &Vec4, n: usize) -> u32 {
    let mut acc = f::mul(a[0], b[0]);
    for c in 1..n {
        acc = f::add(acc, f::mul(a[c], b[c]));
    }
    acc
}

/// Evaluates a float opcode; `None` when the opcode is not one of these.
pub fn eval(op: Opcode, s: &[Vec4]) -> Option<Written> {
    use Opcode as O;
    let a = s.first().copied().unwrap_or([0; 4]);
    let b = s.get(1).copied().unwrap_or([0; 4]);
    let c3 = s.get(2).copied().unwrap_or([0; 4]);
    let w = match op {
        O::Mov | O::Swz => all(|c| a[c]),
        O::Abs => all(|c| a[c] & !SIGN),
        O::Add => all(|c| f::add(a[c], b[c])),
        O::Sub => all(|c| f::sub(a[c], b[c])),
        O::Mul => all(|c| f::mul(a[c], b[c])),
        O::Div => all(|c| f::div(a[c], b[c])),
        O::Mad => all(|c| f::mad(a[c], b[c], c3[c])),
        O::Lrp => all(|c| f::add(f::mul(a[c], f::sub(b[c], c3[c])), c3[c])),
        O::Cnd => all(|c| flush(if f::gt(c3[c], HALF) { a[c] } else { b[c] })),
        O::Cmp => all(|c| flush(if f::lt(a[c], ZERO) { b[c] } else { c3[c] })),
        O::Min => all(|c| f::min(a[c], b[c])),
        O::Max => all(|c| f::max(a[c], b[c])),
        // The spec's clamp(x, y, z) = (x < y) ? y : (x > z) ? z : x, literally (decisions.md),
        // not Mesa's min(max(x, y), z): they differ when y > z and for a NaN x (kept).
        O::Clamp => all(|c| {
            let (x, y, z) = (a[c], b[c], c3[c]);
            flush(if f::lt(x, y) {
                y
            } else if f::gt(x, z) {
                z
            } else {
                x
            })
        }),
        O::Frc => all(|c| f::frc(a[c])),
        O::Flr => all(|c| f::floor(a[c])),
        O::Ceil => all(|c| f::ceil(a[c])),
        O::Trunc => all(|c| f::trunc(a[c])),
        O::Round => all(|c| f::round_even(a[c])),
        O::Slt => all(|c| bool_bits(f::lt(a[c], b[c]))),
        O::Sge => all(|c| bool_bits(f::ge(a[c], b[c]))),
        O::Sgt => all(|c| bool_bits(f::gt(a[c], b[c]))),
        O::Sle => all(|c| bool_bits(f::le(a[c], b[c]))),
        O::Seq => all(|c| bool_bits(f::eq(a[c], b[c]))),
        O::Sne => all(|c| bool_bits(!f::eq(a[c], b[c]))),
        O::Sfl => rep(ZERO),
        O::Str => rep(ONE),
        O::Ssg => all(|c| {
            if f::gt(a[c], ZERO) {
                ONE
            } else if f::lt(a[c], ZERO) {
                MINUS_ONE
            } else {
                ZERO
            }
        }),
        O::Rcp => rep(f::div(ONE, a[0])),
        O::Rsq => rep(f::rsq(a[0])),
        O::Ex2 => rep(f::ex2(a[0])),
        O::Lg2 => rep(f::lg2(a[0])),
        O::Pow => rep(f::pow(a[0], b[0])),
        O::Sin => rep(f::sin(a[0])),
        O::Cos => rep(f::cos(a[0])),
        O::Rcc => rep(f::rcc(a[0])),
        O::Dp2 => rep(dot(&a, &b, 2)),
        O::Dp3 => rep(dot(&a, &b, 3)),
        O::Dp4 => rep(dot(&a, &b, 4)),
        O::Dph => rep(f::add(dot(&a, &b, 3), b[3])),
        O::Dp2a => rep(f::add(dot(&a, &b, 2), c3[0])),
        O::Nrm => {
            let r = f::rsq(dot(&a, &a, 3));
            [
                Some(f::mul(a[0], r)),
                Some(f::mul(a[1], r)),
                Some(f::mul(a[2], r)),
                Some(ONE),
            ]
        }
        O::Nrm4 => {
            let r = f::rsq(dot(&a, &a, 4));
            all(|c| f::mul(a[c], r))
        }
        O::Lit => lit(&a),
        O::Exp => exp(a[0]),
        O::Log => log(a[0]),
        O::Dst => [Some(ONE), Some(f::mul(a[1], b[1])), Some(a[2]), Some(b[3])],
        O::Xpd => [
            Some(f::sub(f::mul(a[1], b[2]), f::mul(a[2], b[1]))),
            Some(f::sub(f::mul(a[2], b[0]), f::mul(a[0], b[2]))),
            Some(f::sub(f::mul(a[0], b[1]), f::mul(a[1], b[0]))),
            Some(ONE),
        ],
        O::Rfl => {
            let k = f::div(f::mul(TWO, dot(&a, &b, 3)), dot(&a, &a, 3));
            [
                Some(f::sub(f::mul(k, a[0]), b[0])),
                Some(f::sub(f::mul(k, a[1]), b[1])),
                Some(f::sub(f::mul(k, a[2]), b[2])),
                Some(ONE),
            ]
        }
        O::X2d => {
            let x = f::add(f::add(a[0], f::mul(b[0], c3[0])), f::mul(b[1], c3[1]));
            let y = f::add(f::add(a[1], f::mul(b[0], c3[2])), f::mul(b[1], c3[3]));
            [Some(x), Some(y), Some(x), Some(y)]
        }
        O::Scs => [
            Some(f::cos(a[0])),
            Some(f::sin(a[0])),
            Some(ZERO),
            Some(ONE),
        ],
        _ => {
            let (rows, width) = matrix_rows(op)?;
            let mut out = [None; 4];
            for (r, slot) in out.iter_mut().enumerate().take(rows) {
                *slot = Some(dot(&a, s.get(1 + r)?, width));
            }
            out
        }
    };
    Some(w)
}

/// LIT (`decisions.md` section 1): z = 1 when max(y,0) = 0 and the clamped w = 0.
fn lit(a: &Vec4) -> Written {
    let y = f::max(a[1], ZERO);
    let w = f::min(f::max(a[3], M128), P128);
    let z = if f::gt(a[0], ZERO) {
        if f::eq(y, ZERO) && f::eq(w, ZERO) {
            ONE
        } else {
            f::pow(y, w)
        }
    } else {
        ZERO
    };
    [Some(ONE), Some(f::max(a[0], ZERO)), Some(z), Some(ONE)]
}

/// EXP: (2^floor(x), x - floor(x), EX2(x), 1).
fn exp(x: u32) -> Written {
    let fl = f::floor(x);
    let p = f::output64(f64::from(f::input(fl)).exp2());
    [Some(p), Some(f::sub(x, fl)), Some(f::ex2(x)), Some(ONE)]
}

/// LOG: (exponent of |x|, significand of |x| in [1, 2), LG2(|x|), 1); exact x and y.
fn log(x: u32) -> Written {
    let v = f::input(x).abs();
    let z = f::lg2(v.to_bits());
    if v.is_nan() {
        return [
            Some(f::CANONICAL_NAN),
            Some(f::CANONICAL_NAN),
            Some(z),
            Some(ONE),
        ];
    }
    if v == 0.0 {
        return [
            Some(f32::NEG_INFINITY.to_bits()),
            Some(f::CANONICAL_NAN),
            Some(z),
            Some(ONE),
        ];
    }
    if v.is_infinite() {
        return [
            Some(f32::INFINITY.to_bits()),
            Some(f::CANONICAL_NAN),
            Some(z),
            Some(ONE),
        ];
    }
    // Normal (subnormals were flushed): exponent field minus the bias, significand with exponent 0.
    let bits = v.to_bits();
    let e = ((bits >> 23) & 0xFF) as i32 - 127;
    let m = (bits & 0x007F_FFFF) | 0x3F80_0000;
    [Some((e as f32).to_bits()), Some(m), Some(z), Some(ONE)]
}
