//! Integer helpers against Rust's wrapping i32/u32 arithmetic.

mod arith_common;

use microcode::arith::{
    iabs, iadd, imax, imin, imod, ineg, isad, ishl, ishr, isub, umax, umin, ushr,
};
use microcode::rng::XorShift;

#[test]
fn integer_ops_match_rust() {
    let mut rng = XorShift::new(9);
    let specials = [
        0u32,
        1,
        2,
        31,
        32,
        33,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
        0xFFFF_FFFE,
    ];
    let mut values: Vec<u32> = specials.to_vec();
    values.extend((0..300).map(|i| rng.next_u32() >> (i % 32)));
    for &a in &values {
        for &b in &values {
            let (ia, ib) = (a as i32, b as i32);
            let ctx = format!("({a:08x}, {b:08x})");
            assert_eq!(iadd(a, b), ia.wrapping_add(ib) as u32, "iadd{ctx}");
            assert_eq!(isub(a, b), ia.wrapping_sub(ib) as u32, "isub{ctx}");
            assert_eq!(ishl(a, b), a.wrapping_shl(b), "ishl{ctx}");
            assert_eq!(ishr(a, b), ia.wrapping_shr(b) as u32, "ishr{ctx}");
            assert_eq!(ushr(a, b), a.wrapping_shr(b), "ushr{ctx}");
            let m = if b == 0 {
                0xFFFF_FFFF
            } else {
                ia.wrapping_rem(ib) as u32
            };
            assert_eq!(imod(a, b), m, "imod{ctx}");
            assert_eq!(imin(a, b), ia.min(ib) as u32, "imin{ctx}");
            assert_eq!(imax(a, b), ia.max(ib) as u32, "imax{ctx}");
            assert_eq!(umin(a, b), a.min(b), "umin{ctx}");
            assert_eq!(umax(a, b), a.max(b), "umax{ctx}");
            let c = a.rotate_left(7);
            let sad = (ia.wrapping_sub(ib)).wrapping_abs().wrapping_add(c as i32) as u32;
            assert_eq!(isad(a, b, c), sad, "isad{ctx}");
        }
        assert_eq!(ineg(a), (a as i32).wrapping_neg() as u32);
        assert_eq!(iabs(a), (a as i32).wrapping_abs() as u32);
    }
}
