//! Integer and address opcode kernels: two's complement, wrapping (`decisions.md` section 2), and
//! UCMP, the raw-bit select of later Mesa.

use super::float;
use super::state::{Vec4, Written};
use microcode::tgsi::Opcode;

fn all(f: impl Fn(usize) -> u32) -> Written {
    std::array::from_fn(|c| Some(f(c)))
}

/// Evaluates an integer or address opcode; `None` when the opcode is not one of these.
pub fn eval(op: Opcode, s: &[Vec4]) -> Option<Written> {
    use Opcode as O;
    let a = s.first().copied().unwrap_or([0; 4]);
    let b = s.get(1).copied().unwrap_or([0; 4]);
    let c3 = s.get(2).copied().unwrap_or([0; 4]);
    let i = |v: u32| v as i32;
    let w = match op {
        O::Arl => all(|c| float::floor_to_i32(a[c]) as u32),
        O::Arr => all(|c| float::round_to_i32(a[c]) as u32),
        O::Ara => {
            let x = i(a[0]).wrapping_add(i(a[2])) as u32;
            let y = i(a[1]).wrapping_add(i(a[3])) as u32;
            [Some(x), Some(y), Some(x), Some(y)]
        }
        // int32 -> binary32 rounds to nearest-even; no result can be subnormal.
        O::I2f => all(|c| float::output(i(a[c]) as f32)),
        O::Not => all(|c| !a[c]),
        O::And => all(|c| a[c] & b[c]),
        O::Or => all(|c| a[c] | b[c]),
        O::Xor => all(|c| a[c] ^ b[c]),
        O::Shl => all(|c| a[c] << (b[0] & 31)),
        O::Shr => all(|c| (i(a[c]) >> (b[0] & 31)) as u32),
        O::Mod => all(|c| {
            if b[c] == 0 {
                0xFFFF_FFFF
            } else {
                i(a[c]).wrapping_rem(i(b[c])) as u32
            }
        }),
        O::Sad => all(|c| {
            i(a[c])
                .wrapping_sub(i(b[c]))
                .wrapping_abs()
                .wrapping_add(i(c3[c])) as u32
        }),
        // The later-Mesa opcodes (`decisions.md` section 1; F2U and UMUL as ARCHITECTURE.md
        // defines them), in host 64-bit arithmetic.
        O::Ucmp => all(|c| if a[c] != 0 { b[c] } else { c3[c] }),
        O::Uadd => all(|c| a[c].wrapping_add(b[c])),
        O::Umul => all(|c| (u64::from(a[c]) * u64::from(b[c])) as u32),
        O::UmulHi => all(|c| ((u64::from(a[c]) * u64::from(b[c])) >> 32) as u32),
        O::ImulHi => all(|c| ((i64::from(i(a[c])) * i64::from(i(b[c]))) >> 32) as u32),
        O::F2u => all(|c| float::trunc_to_u32(a[c])),
        _ => return None,
    };
    Some(w)
}
