//! Operand addressing and source modifiers (`decisions.md` section 3).
//!
//! Order: swizzle (EXT_SWZ composed with the simple swizzle), EXT_SWZ per-component negate, the
//! Negate bit, then EXT_MOD Complement, Bias, Scale2X, Absolute, Negate, then ExtDivide. Float
//! operands negate and take absolute values on the sign bit (bits kept); Complement, Bias, Scale2X
//! and ExtDivide are float operations. Integer opcodes negate and take absolute values as int32;
//! double opcodes act on the binary64 value of each component pair (the sign is bit 31 of the high
//! word, components y and w).

use super::defs::RunErrorKind;
use super::float::{self, ONE};
use super::ops_double::{get_pair, put_pair};
use super::state::{Slot, State};
use microcode::tgsi::opcode::OperandType;
use microcode::tgsi::{ExtSel, File, Register, SrcOperand};

const SIGN: u32 = 0x8000_0000;
const HALF: u32 = 0x3F00_0000;
const TWO: u32 = 0x4000_0000;

/// How modifiers treat an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Float,
    Int,
    Double,
}

impl View {
    /// The view of an opcode's source type (moves are floats for modifiers).
    pub fn of(t: OperandType) -> View {
        match t {
            OperandType::Int | OperandType::Uint => View::Int,
            OperandType::Double => View::Double,
            OperandType::Float | OperandType::Untyped | OperandType::None => View::Float,
        }
    }
}

/// Value of an address-register component used as an index.
fn indirect_value(st: &State, lane: usize, ind: &microcode::tgsi::Indirect) -> i64 {
    let slot = Slot {
        file: ind.file,
        dim: 0,
        index: i64::from(ind.index),
    };
    i64::from(st.read(lane, slot)[usize::from(ind.component & 3)] as i32)
}

/// Resolves a register reference for one lane. `offset` is added to the element index (matrix
/// rows). For 2-D operands the first bracket is the buffer or vertex and the second the element.
pub fn resolve(st: &State, lane: usize, reg: &Register, offset: i64) -> Slot {
    let mut first = i64::from(reg.index);
    if let Some(ind) = &reg.indirect {
        first += indirect_value(st, lane, ind);
    }
    match &reg.dimension {
        Some(d) => {
            let mut index = i64::from(d.index) + offset;
            if let Some(ind) = &d.indirect {
                index += indirect_value(st, lane, ind);
            }
            Slot {
                file: reg.file,
                dim: first,
                index,
            }
        }
        None => Slot {
            file: reg.file,
            dim: 0,
            index: first + offset,
        },
    }
}

/// Text of a slot for warnings.
pub fn slot_text(slot: Slot, two_d: bool) -> String {
    if two_d {
        format!("{}[{}][{}]", slot.file, slot.dim, slot.index)
    } else {
        format!("{}[{}]", slot.file, slot.index)
    }
}

/// Reads a source operand of one lane with all its modifiers applied.
pub fn fetch(
    st: &mut State,
    lane: usize,
    at: usize,
    src: &SrcOperand,
    view: View,
    offset: i64,
) -> Result<[u32; 4], RunErrorKind> {
    let slot = resolve(st, lane, &src.reg, offset);
    let in_range = st.in_range(slot);
    if !in_range
        && !matches!(
            slot.file,
            File::Sampler | File::SystemValue | File::Predicate
        )
    {
        st.warnings.insert(format!(
            "instruction {at}: read of {} (lane {lane}) is outside the declared range; read 0",
            slot_text(slot, src.reg.dimension.is_some())
        ));
    }
    let raw = if in_range {
        st.read_in_range(lane, slot)
    } else {
        [0; 4]
    };
    modify(raw, src, view)
}

/// The slot of a source that reads the same register in every lane (no relative addressing, one
/// dimension), `offset` added to its index.
pub fn uniform_slot(src: &SrcOperand, offset: i64) -> Option<Slot> {
    (src.reg.indirect.is_none() && src.reg.dimension.is_none()).then(|| Slot {
        file: src.reg.file,
        dim: 0,
        index: i64::from(src.reg.index) + offset,
    })
}

/// The swizzles and modifiers of `src` applied to the register value `raw`.
#[inline]
pub fn modify(raw: [u32; 4], src: &SrcOperand, view: View) -> Result<[u32; 4], RunErrorKind> {
    let one = if view == View::Int { 1 } else { ONE };
    let mut v = [0u32; 4];
    for (c, out) in v.iter_mut().enumerate() {
        *out = match &src.ext_swizzle {
            None => raw[usize::from(src.swizzle[c] & 3)],
            Some(e) => match e.select[c] {
                ExtSel::Zero => 0,
                ExtSel::One => one,
                sel => raw[usize::from(src.swizzle[sel as usize] & 3)],
            },
        };
    }
    match view {
        View::Float => float_modifiers(&mut v, src)?,
        View::Int => int_modifiers(&mut v, src)?,
        View::Double => double_modifiers(&mut v, src)?,
    }
    Ok(v)
}

fn ext_negate(src: &SrcOperand) -> [bool; 4] {
    src.ext_swizzle.map_or([false; 4], |e| e.negate)
}

fn float_modifiers(v: &mut [u32; 4], src: &SrcOperand) -> Result<(), RunErrorKind> {
    let neg = ext_negate(src);
    let m = &src.ext_mod;
    for c in 0..4 {
        let mut x = v[c];
        if neg[c] {
            x ^= SIGN;
        }
        if src.negate {
            x ^= SIGN;
        }
        if m.complement {
            x = float::sub(ONE, x);
        }
        if m.bias {
            x = float::sub(x, HALF);
        }
        if m.scale2x {
            x = float::mul(TWO, x);
        }
        if m.absolute {
            x &= !SIGN;
        }
        if m.negate {
            x ^= SIGN;
        }
        v[c] = x;
    }
    ext_divide(v, src)
}

/// Integer operands: negate and absolute are int32 operations (wrapping); Complement, Bias,
/// Scale2X and ExtDivide keep their float definitions and act on the bits as binary32.
fn int_modifiers(v: &mut [u32; 4], src: &SrcOperand) -> Result<(), RunErrorKind> {
    let neg = ext_negate(src);
    let m = &src.ext_mod;
    for c in 0..4 {
        let mut x = v[c] as i32;
        if neg[c] {
            x = x.wrapping_neg();
        }
        if src.negate {
            x = x.wrapping_neg();
        }
        let mut bits = x as u32;
        if m.complement {
            bits = float::sub(ONE, bits);
        }
        if m.bias {
            bits = float::sub(bits, HALF);
        }
        if m.scale2x {
            bits = float::mul(TWO, bits);
        }
        let mut x = bits as i32;
        if m.absolute {
            x = x.wrapping_abs();
        }
        if m.negate {
            x = x.wrapping_neg();
        }
        v[c] = x as u32;
    }
    ext_divide(v, src)
}

/// ExtDivide as binary32 (section 1): x, y, z divided by w after every other modifier.
fn ext_divide(v: &mut [u32; 4], src: &SrcOperand) -> Result<(), RunErrorKind> {
    if let Some(e) = &src.ext_swizzle {
        match e.divide {
            ExtSel::One => {}
            ExtSel::W => {
                let w = v[3];
                for x in v.iter_mut().take(3) {
                    *x = float::div(*x, w);
                }
            }
            other => return Err(RunErrorKind::Unsupported(format!("ExtDivide by {other:?}"))),
        }
    }
    Ok(())
}

/// Double operands: every modifier acts on the binary64 value of each pair; ExtDivide divides the
/// xy pair by the zw pair (all but the last component divided by the last, as for floats).
fn double_modifiers(v: &mut [u32; 4], src: &SrcOperand) -> Result<(), RunErrorKind> {
    let neg = ext_negate(src);
    let m = &src.ext_mod;
    for p in 0..2 {
        let hi = 2 * p + 1;
        // Per-component negates act on the pair's sign, named by its high component.
        if neg[hi] {
            v[hi] ^= SIGN;
        }
        if src.negate {
            v[hi] ^= SIGN;
        }
        if m.complement {
            let x = get_pair(v, p);
            put_pair(v, p, 1.0 - x);
        }
        if m.bias {
            let x = get_pair(v, p);
            put_pair(v, p, x - 0.5);
        }
        if m.scale2x {
            let x = get_pair(v, p);
            put_pair(v, p, 2.0 * x);
        }
        if m.absolute {
            v[hi] &= !SIGN;
        }
        if m.negate {
            v[hi] ^= SIGN;
        }
    }
    if let Some(e) = &src.ext_swizzle {
        match e.divide {
            ExtSel::One => {}
            ExtSel::W => {
                let (x, w) = (get_pair(v, 0), get_pair(v, 1));
                put_pair(v, 0, x / w);
            }
            other => return Err(RunErrorKind::Unsupported(format!("ExtDivide by {other:?}"))),
        }
    }
    Ok(())
}
