//! Source modifiers, the destination pipeline, condition codes and indirect addressing.

mod reference_support;

use reference_support::*;
use sim::run_io::RunInputs;

const HEAD: &str = "FRAG\nDCL IN[0..3]\nDCL OUT[0..3]\nDCL TEMP[0..7]\nDCL ADDR[0]\n";

fn frag(body: &str) -> String {
    format!("{HEAD}{body}\nEND\n")
}

fn with_in0(v: [u32; 4]) -> RunInputs {
    let mut i = RunInputs::default();
    i.set_input(0, v);
    i
}

#[test]
fn negate_and_absolute_keep_bits() {
    let o = run_text(
        &frag("MOV OUT[0], -IN[0]\nMOV OUT[1], |IN[0]|\nMOV OUT[2], -|IN[0]|"),
        &with_in0([0x7FC0_0001, 0x8000_0001, 0xBF80_0000, 0]),
    );
    assert_eq!(
        outs(&o, 0)[0],
        [0xFFC0_0001, 0x0000_0001, 0x3F80_0000, 0x8000_0000]
    );
    assert_eq!(outs(&o, 1)[0], [0x7FC0_0001, 0x0000_0001, 0x3F80_0000, 0]);
    assert_eq!(
        outs(&o, 2)[0],
        [0xFFC0_0001, 0x8000_0001, 0xBF80_0000, 0x8000_0000]
    );
}

#[test]
fn ext_mod_applies_in_dumper_nesting_order() {
    // -( | 2*( ( 1-( -x ) ) - 0.5 ) | ) with x = 0.25: -0.25, 1.25, 0.75, 1.5, 1.5, -1.5.
    let o = run_text(
        &frag("MOV OUT[0], -( | 2*( ( 1-( -IN[0] ) ) - 0.5 ) | )"),
        &with_in0(v4([0.25, -3.0, 0.0, 1.0])),
    );
    // y: x = -3: 3, -2, -2.5, -5, 5, -5.   z: -0, 1, 0.5, 1, 1, -1.   w: -1, 2, 1.5, 3, 3, -3.
    assert_eq!(outs(&o, 0)[0], v4([-1.5, -5.0, -1.0, -3.0]));
}

#[test]
fn extended_swizzle_composes_with_the_simple_swizzle() {
    // component c = simple[ext[c]]: simple = wzyx, ext = {x, -y, 0, 1} -> (w, -z, 0, 1).
    let o = run_text(
        &frag("MOV OUT[0], IN[0].wzyx{x,-y,0,1}\nMOV OUT[1], -IN[0].wzyx{x,-y,0,1}"),
        &with_in0(v4([1.0, 2.0, 3.0, 4.0])),
    );
    assert_eq!(outs(&o, 0)[0], v4([4.0, -3.0, 0.0, 1.0]));
    assert_eq!(outs(&o, 1)[0], v4([-4.0, 3.0, -0.0, -1.0]));
}

#[test]
fn ext_divide_divides_xyz_by_w_last() {
    let o = run_text(
        &frag("MOV OUT[0], -IN[0]/w"),
        &with_in0(v4([2.0, 4.0, 6.0, 2.0])),
    );
    // Negated first (-2, -4, -6, -2), then divided by the negated w.
    assert_eq!(outs(&o, 0)[0], v4([1.0, 2.0, 3.0, -2.0]));
}

#[test]
fn integer_opcodes_negate_as_integers() {
    let o = run_text(
        &frag("I2F OUT[0], -IN[0]\nI2F OUT[1], |IN[0]|"),
        &with_in0([5, (-3i32) as u32, 0x8000_0000, 0]),
    );
    assert_eq!(outs(&o, 0)[0], v4([-5.0, 3.0, -2147483648.0, 0.0]));
    assert_eq!(outs(&o, 1)[0], v4([5.0, 3.0, -2147483648.0, 0.0]));
}

#[test]
fn double_opcodes_negate_the_high_word() {
    let a = 1.5f64.to_bits();
    let b = 0.25f64.to_bits();
    let mut inputs = RunInputs::default();
    inputs.set_input(0, [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]);
    let o = run_text(
        &frag("DADD OUT[0], -IN[0], IN[1]\nDADD OUT[1], |-IN[0]|, IN[1]"),
        &inputs,
    );
    let r = outs(&o, 0)[0];
    let join = |lo: u32, hi: u32| f64::from_bits(u64::from(lo) | u64::from(hi) << 32);
    assert_eq!((join(r[0], r[1]), join(r[2], r[3])), (-1.5, -0.25));
    let r = outs(&o, 1)[0];
    assert_eq!((join(r[0], r[1]), join(r[2], r[3])), (1.5, 0.25));
}

#[test]
fn modulate_then_saturate() {
    let o = run_text(
        &frag(
            "MUL_SAT OUT[0]_X2, IN[0], IN[1]\nMOV_SATNV OUT[1]_D2, IN[0].wzyx\nMOV_SAT OUT[2], IN[2]\nMOV OUT[3]_X2, IN[2]",
        ),
        &{
            let mut i = RunInputs::default();
            i.set_input(0, v4([0.75, 0.25, -3.0, 8.0]));
            i.set_input(1, v4([1.0; 4]));
            i.set_input(2, [0x7FC0_0000, 0x8000_0000, 0x0000_0001, 0xC000_0000]);
            i
        },
    );
    assert_eq!(outs(&o, 0)[0], v4([1.0, 0.5, 0.0, 1.0]));
    // (8, -3, 0.25, 0.75) / 2 = (4, -1.5, 0.125, 0.375) then [-1, 1].
    assert_eq!(outs(&o, 1)[0], v4([1.0, -1.0, 0.125, 0.375]));
    // NaN, -0 and subnormals saturate to +0.
    assert_eq!(outs(&o, 2)[0], [0, 0, 0, 0]);
    // MODULATE is a float operation: NaN canonical, subnormal flushed.
    assert_eq!(outs(&o, 3)[0], [0x7FC0_0000, 0x8000_0000, 0, 0xC080_0000]);
}

#[test]
fn condition_codes_mask_writes_per_component() {
    // CC0 = (GT, LT, EQ, UN) from (1, -1, -0, NaN).
    let tests = [
        ("GT", [true, false, false, false]),
        ("EQ", [false, false, true, false]),
        ("LT", [false, true, false, false]),
        ("GE", [true, false, true, false]),
        ("LE", [false, true, true, false]),
        ("NE", [true, true, false, true]),
        ("TR", [true, true, true, true]),
        ("FL", [false, false, false, false]),
    ];
    for (name, expect) in tests {
        let o = run_text(
            &frag(&format!(
                "MOV.CC TEMP[0], IN[0]\nMOV OUT[0] ({name}), IN[1]"
            )),
            &{
                let mut i = with_in0([0x3F80_0000, 0xBF80_0000, 0x8000_0000, 0x7FC0_0000]);
                i.set_input(1, v4([9.0; 4]));
                i
            },
        );
        let written: Vec<bool> = outs(&o, 0)[0].iter().map(|&x| x == fb(9.0)).collect();
        assert_eq!(written, expect, "{name}");
    }
}

#[test]
fn condition_code_swizzle_and_second_register() {
    let o = run_text(
        &frag("MOV.CC1 TEMP[0], IN[0]\nMOV OUT[0] (GT1.xxxx), IN[1]\nMOV OUT[1] (GT1.wzyx), IN[1]\nMOV OUT[2] (GT0), IN[1]"),
        &{
            let mut i = with_in0(v4([1.0, 0.0, 0.0, 0.0]));
            i.set_input(1, v4([9.0; 4]));
            i
        },
    );
    assert_eq!(outs(&o, 0)[0], v4([9.0; 4]));
    assert_eq!(outs(&o, 1)[0], v4([0.0, 0.0, 0.0, 9.0]));
    // CC0 still holds its initial EQ.
    assert_eq!(outs(&o, 2)[0], [0; 4]);
}

#[test]
fn cc_update_uses_the_saturated_value_and_only_written_components() {
    let o = run_text(
        &frag("MOV_SAT.CC TEMP[0].xy, IN[0]\nMOV OUT[0] (EQ), IN[1]"),
        &{
            let mut i = with_in0(v4([-2.0, 3.0, 5.0, -5.0]));
            i.set_input(1, v4([9.0; 4]));
            i
        },
    );
    // x saturates to 0 (EQ), y to 1 (GT); z, w are not written and keep EQ.
    assert_eq!(outs(&o, 0)[0], v4([9.0, 0.0, 9.0, 9.0]));
}

#[test]
fn cond_flow_on_arithmetic_and_kilp_acts_per_lane() {
    let o = run_text(
        &frag("MOV.CC TEMP[0].x, IN[0].x\n(GT.x) MOV OUT[0], IN[1]\n(LT.xxxx) KILP"),
        &{
            let mut i = lanes_input(0, [[1.0; 4], [-1.0; 4], [0.0; 4], [2.0; 4]]);
            i.set_input(1, v4([9.0; 4]));
            i
        },
    );
    assert_eq!(outs(&o, 0), [v4([9.0; 4]), [0; 4], [0; 4], v4([9.0; 4])]);
    let killed: Vec<bool> = o.lanes.iter().map(|l| l.killed).collect();
    assert_eq!(killed, [false, true, false, false]);
}

#[test]
fn address_register_conversions() {
    let text = frag("ARL ADDR[0], IN[0]\nMOV OUT[0], ADDR[0]\nARR ADDR[0], IN[0]\nMOV OUT[1], ADDR[0]\nARR ADDR[0], IN[1]\nMOV OUT[2], ADDR[0]\nARA ADDR[0], IN[2]\nMOV OUT[3], ADDR[0]");
    let mut i = with_in0(v4([2.5, -0.5, 3.5, -2.5]));
    i.set_input(1, [0x7FC0_0000, 0x4F80_0000, 0xCF80_0000, 0x3F00_0000]); // NaN, 2^32, -2^32, 0.5
    i.set_input(2, [1, 2, 0x7FFF_FFFF, (-5i32) as u32]);
    let o = run_text(&text, &i);
    let ints = |v: [u32; 4]| v.map(|x| x as i32);
    assert_eq!(ints(outs(&o, 0)[0]), [2, -1, 3, -3]);
    assert_eq!(ints(outs(&o, 1)[0]), [2, 0, 4, -2]);
    assert_eq!(ints(outs(&o, 2)[0]), [0, i32::MAX, i32::MIN, 0]);
    // ARA: (x+z, y+w, x+z, y+w) wrapping.
    assert_eq!(ints(outs(&o, 3)[0]), [i32::MIN, -3, i32::MIN, -3]);
}

#[test]
fn float_results_written_to_address_are_floored() {
    let o = run_text(
        &frag("ADD ADDR[0], IN[0], IN[0]\nMOV OUT[0], ADDR[0]"),
        &with_in0(v4([0.75, -0.75, 1e10, f32::NAN])),
    );
    assert_eq!(outs(&o, 0)[0].map(|x| x as i32), [1, -2, i32::MAX, 0]);
}

#[test]
fn indirect_reads_and_writes() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0..2]\nDCL TEMP[0..3]\nDCL CONST[0..5]\nDCL ADDR[0]\n\
        IMM FLT32 { 10.0, 11.0, 12.0, 13.0 }\n\
        ARL ADDR[0].x, IN[0].x\n\
        MOV TEMP[0], IMM[0].xxxx\nMOV TEMP[1], IMM[0].yyyy\nMOV TEMP[2], IMM[0].zzzz\nMOV TEMP[3], IMM[0].wwww\n\
        MOV OUT[0], TEMP[ADDR[0].x+1]\n\
        MOV OUT[1], CONST[ADDR[0].x+4]\n\
        MOV TEMP[ADDR[0].x+2], IMM[0].xxxx\n\
        MOV OUT[2], TEMP[3]\nEND\n";
    let mut i = lanes_input(0, [[0.0; 4], [1.7; 4], [-0.5; 4], [2.0; 4]]);
    for n in 0..6 {
        i.set_const(0, n, v4([n as f32 * 100.0; 4]));
    }
    let o = run_text(text, &i);
    // Lane address: 0, 1, -1, 2.
    let xs: Vec<f32> = outs(&o, 0).iter().map(|v| f32::from_bits(v[0])).collect();
    assert_eq!(xs, [11.0, 12.0, 10.0, 13.0]);
    // CONST[4], CONST[5], CONST[3], CONST[6] (out of range: 0).
    let cs: Vec<f32> = outs(&o, 1).iter().map(|v| f32::from_bits(v[0])).collect();
    assert_eq!(cs, [400.0, 500.0, 300.0, 0.0]);
    // TEMP[2], TEMP[3], TEMP[1], TEMP[4] (dropped): only lane 1 overwrote TEMP[3].
    let ts: Vec<f32> = outs(&o, 2).iter().map(|v| f32::from_bits(v[0])).collect();
    assert_eq!(ts, [13.0, 10.0, 13.0, 13.0]);
    assert_eq!(o.warnings.len(), 2, "{:?}", o.warnings);
    assert!(o
        .warnings
        .iter()
        .any(|w| w.contains("CONST[6]") && w.contains("lane 3")));
    assert!(o
        .warnings
        .iter()
        .any(|w| w.contains("TEMP[4]") && w.contains("dropped")));
}

#[test]
fn two_dimensional_constants_and_immediate_arrays() {
    let text = "FRAG\nDCL OUT[0..1]\nDCL CONST[1][0..3]\nDCL ADDR[0]\n\
        DCL IMMX[0..2] {{ 1.0, 2.0, 3.0, 4.0 }, { 5.0, 6.0, 7.0, 8.0 }, { 9.0, 10.0, 11.0, 12.0 }}\n\
        IMM FLT32 { 2.0, 0.0, 0.0, 0.0 }\n\
        ARL ADDR[0].x, IMM[0].xxxx\n\
        MOV OUT[0], CONST[1][ADDR[0].x+1]\n\
        MOV OUT[1], IMMX[ADDR[0].x]\nEND\n";
    let mut i = RunInputs::default();
    i.set_const(1, 3, v4([7.0; 4]));
    i.set_const(0, 3, v4([99.0; 4]));
    let o = run_text(text, &i);
    assert_eq!(outs(&o, 0)[0], v4([7.0; 4]));
    assert_eq!(outs(&o, 1)[0], v4([9.0, 10.0, 11.0, 12.0]));
}

#[test]
fn face_input_follows_the_semantic() {
    let text = "FRAG\nDCL IN[1], FACE, CONSTANT\nDCL OUT[0]\nMOV OUT[0], IN[1]\nEND\n";
    let mut i = RunInputs {
        face: Some(sim::run_io::Face::Back),
        ..RunInputs::default()
    };
    let o = run_text(text, &i);
    assert_eq!(outs(&o, 0)[0], v4([-1.0, 0.0, 0.0, 1.0]));
    i.set_input(1, v4([5.0; 4]));
    let o = run_text(text, &i);
    assert_eq!(outs(&o, 0)[0], v4([5.0; 4]));
}

#[test]
fn derivatives_are_fine_and_read_inactive_lanes() {
    let text = frag("IF IN[1].xxxx\nDDX OUT[0], IN[0]\nDDY OUT[1], IN[0]\nENDIF");
    let mut i = lanes_input(0, [[1.0; 4], [3.0; 4], [10.0; 4], [30.0; 4]]);
    for l in 0..4 {
        i.set_input_lane(1, l, v4([if l == 1 { 0.0 } else { 1.0 }; 4]));
    }
    let o = run_text(&text, &i);
    let x0: Vec<f32> = outs(&o, 0).iter().map(|v| f32::from_bits(v[0])).collect();
    let y0: Vec<f32> = outs(&o, 1).iter().map(|v| f32::from_bits(v[0])).collect();
    // Lane 1 is inactive: not written, but its value feeds lane 0.
    assert_eq!(x0, [2.0, 0.0, 20.0, 20.0]);
    assert_eq!(y0, [9.0, 0.0, 9.0, 27.0]);
}

#[test]
fn sources_are_read_before_the_destination_is_written() {
    let o = run_text(
        &frag("MOV TEMP[0], IN[0]\nMOV TEMP[0], TEMP[0].wzyx\nM4X4 TEMP[1], TEMP[0], TEMP[0]\nMOV OUT[0], TEMP[0]\nMOV OUT[1], TEMP[1]"),
        &with_in0(v4([1.0, 2.0, 3.0, 4.0])),
    );
    assert_eq!(outs(&o, 0)[0], v4([4.0, 3.0, 2.0, 1.0]));
    // Rows are TEMP[0..3] as they were: TEMP[0] . TEMP[0] = 30, the other rows are zero.
    assert_eq!(outs(&o, 1)[0], v4([30.0, 0.0, 0.0, 0.0]));
}

#[test]
fn float_ext_mods_on_integer_and_double_operands() {
    // Integer opcode: 2*(x) is a binary32 operation on the bits (1.0 -> 2.0), then integer abs.
    let o = run_text(
        &frag("I2F OUT[0], 2*(IN[0])\nI2F OUT[1], |1-(IN[0])|"),
        &with_in0([0x3F80_0000, 0x4000_0000, 0, 0xBF80_0000]),
    );
    assert_eq!(
        outs(&o, 0)[0],
        v4([1_073_741_824.0, 1_082_130_432.0, 0.0, -1_073_741_824.0])
    );
    // 1-(1.0) = 0, 1-(2.0) = -1.0 = 0xBF800000 -> |int| = 0x40800000, 1-0 = 1.0, 1-(-1) = 2.0.
    assert_eq!(
        outs(&o, 1)[0],
        v4([0.0, 1_082_130_432.0, 1_065_353_216.0, 1_073_741_824.0])
    );
    // Double opcode: ExtDivide divides the xy pair by the zw pair; Scale2X doubles each pair.
    let (x, w) = (6.0f64.to_bits(), 4.0f64.to_bits());
    let mut i = RunInputs::default();
    i.set_input(0, [x as u32, (x >> 32) as u32, w as u32, (w >> 32) as u32]);
    let o = run_text(
        &frag("DADD OUT[0], IN[0]/w, IN[1]\nDADD OUT[1], 2*(IN[0]), IN[1]"),
        &i,
    );
    let join = |v: [u32; 4]| {
        let j = |lo: u32, hi: u32| f64::from_bits(u64::from(lo) | u64::from(hi) << 32);
        (j(v[0], v[1]), j(v[2], v[3]))
    };
    assert_eq!(join(outs(&o, 0)[0]), (1.5, 4.0));
    assert_eq!(join(outs(&o, 1)[0]), (12.0, 8.0));
}
