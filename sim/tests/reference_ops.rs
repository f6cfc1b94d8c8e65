//! Opcode results of the reference model against literal bit patterns or independent host
//! computations (binary32 host arithmetic is correctly rounded; approximations use host f64).

mod reference_support;

use microcode::tgsi::TextureTarget;
use reference_support::*;
use sim::run_io::{RunInputs, Sampler};

/// Runs `body` with IN[0..3] set and returns OUT[0..7] of lane 0.
fn eval(body: &str, ins: &[[u32; 4]]) -> Vec<[u32; 4]> {
    let text = format!(
        "FRAG\nDCL IN[0..3]\nDCL OUT[0..7]\nDCL TEMP[0..7]\nDCL CONST[0..7]\nDCL SAMP[0..1]\n{body}\nEND\n"
    );
    let mut i = RunInputs::default();
    for (n, v) in ins.iter().enumerate() {
        i.set_input(n as u32, *v);
    }
    for n in 0..4 {
        // Rows of a matrix: row r = (r+1, r+2, r+3, r+4).
        i.set_const(
            0,
            n,
            v4(std::array::from_fn(|c| (n as usize + c + 1) as f32)),
        );
    }
    let o = run_text(&text, &i);
    (0..8).map(|k| o.lanes[0].outputs[&k]).collect()
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[test]
fn arithmetic_is_literal_left_to_right() {
    let a = [0.1f32, 3.0, -7.5, 1e30];
    let b = [0.2f32, -0.3, 2.25, 1e10];
    let c = [0.7f32, 5.0, -1.0, -1e30];
    let r = eval(
        "MAD OUT[0], IN[0], IN[1], IN[2]\nLRP OUT[1], IN[0], IN[1], IN[2]\nDP3 OUT[2], IN[0], IN[1]\n\
         DPH OUT[3], IN[0], IN[1]\nDP2A OUT[4], IN[0], IN[1], IN[2]\nXPD OUT[5], IN[0], IN[1]\n\
         X2D OUT[6], IN[0], IN[1], IN[2]\nDIV OUT[7], IN[0], IN[1]",
        &[v4(a), v4(b), v4(c)],
    );
    let mad: Vec<f32> = (0..4).map(|k| a[k] * b[k] + c[k]).collect();
    assert_eq!(r[0].map(f).to_vec(), mad);
    let lrp: Vec<f32> = (0..4).map(|k| a[k] * (b[k] - c[k]) + c[k]).collect();
    assert_eq!(r[1].map(f).to_vec(), lrp);
    let dp3 = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    assert_eq!(r[2].map(f), [dp3; 4]);
    assert_eq!(r[3].map(f), [dp3 + b[3]; 4]);
    assert_eq!(r[4].map(f), [a[0] * b[0] + a[1] * b[1] + c[0]; 4]);
    let xpd = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
        1.0,
    ];
    assert_eq!(r[5].map(f), xpd);
    let x = a[0] + b[0] * c[0] + b[1] * c[1];
    let y = a[1] + b[0] * c[2] + b[1] * c[3];
    assert_eq!(r[6].map(f), [x, y, x, y]);
    assert_eq!(
        r[7].map(f).to_vec(),
        (0..4).map(|k| a[k] / b[k]).collect::<Vec<_>>()
    );
}

#[test]
fn flush_and_nan_rules_on_arithmetic() {
    let tiny = 0x0080_0000; // 2^-126, the smallest normal
    let half = 0.5f32.to_bits();
    let r = eval(
        "MUL OUT[0], IN[0], IN[1]\nADD OUT[1], IN[2], IN[2]\nMOV OUT[2], IN[2]\nMIN OUT[3], IN[2], IN[1]",
        &[[tiny, 0x8080_0000, 0x7F80_0000, 0x7FC0_0001], [half, half, 0, 0x3F80_0000], [0x0000_0001, 0x8000_0003, 0xFFC0_1234, 0]],
    );
    // 2^-127 is subnormal: flushed with its sign; inf * 0 and NaN * 1 give the canonical NaN.
    assert_eq!(r[0], [0, 0x8000_0000, 0x7FC0_0000, 0x7FC0_0000]);
    // Subnormal inputs count as zero; NaN payloads do not survive arithmetic.
    assert_eq!(r[1], [0, 0x8000_0000, 0x7FC0_0000, 0]);
    // Moves keep bits, subnormals included.
    assert_eq!(r[2], [0x0000_0001, 0x8000_0003, 0xFFC0_1234, 0]);
    // Selects keep bits but flush a chosen subnormal: min(sub, 0.5) -> +0; min(-sub, 0.5) -> -0;
    // min(NaN, 0) -> 0 (second operand); min(0, 1) -> 0.
    assert_eq!(r[3], [0, 0x8000_0000, 0, 0]);
}

#[test]
fn compares_and_selects() {
    let a = v4([1.0, -2.0, 0.0, f32::NAN]);
    let b = v4([1.0, 3.0, -0.0, 0.0]);
    let c = v4([0.5, 0.75, -1.0, 9.0]);
    let r = eval(
        "SLT OUT[0], IN[0], IN[1]\nSGE OUT[1], IN[0], IN[1]\nSEQ OUT[2], IN[0], IN[1]\nSNE OUT[3], IN[0], IN[1]\n\
         CMP OUT[4], IN[0], IN[1], IN[2]\nCND OUT[5], IN[0], IN[1], IN[2]\nSSG OUT[6], IN[0]\nCLAMP OUT[7], IN[2], IN[1], IN[0]",
        &[a, b, c],
    );
    assert_eq!(r[0], v4([0.0, 1.0, 0.0, 0.0]));
    assert_eq!(r[1], v4([1.0, 0.0, 1.0, 0.0]));
    assert_eq!(r[2], v4([1.0, 0.0, 1.0, 0.0]));
    assert_eq!(r[3], v4([0.0, 1.0, 0.0, 1.0]));
    // CMP: a < 0 ? b : c.
    assert_eq!(r[4], [c[0], b[1], c[2], c[3]]);
    // CND: c > 0.5 ? a : b.
    assert_eq!(r[5], [b[0], a[1], b[2], a[3]]);
    assert_eq!(r[6], v4([1.0, -1.0, 0.0, 0.0]));
    // CLAMP(c, b, a) = (c < b) ? b : (c > a) ? a : c, the spec's selects: a lower bound above
    // the upper one wins when c is below it (component 1), -0 is chosen with its sign
    // (component 2), and a NaN bound is never chosen (component 3).
    assert_eq!(r[7], [b[0], b[1], b[2], c[3]]);
    assert_eq!(r[7][2], 0x8000_0000);
}

#[test]
fn rounding_opcodes() {
    let a = v4([2.5, -2.5, -0.25, 1e20]);
    let r = eval(
        "FLR OUT[0], IN[0]\nCEIL OUT[1], IN[0]\nTRUNC OUT[2], IN[0]\nROUND OUT[3], IN[0]\nFRC OUT[4], IN[0]",
        &[a],
    );
    assert_eq!(r[0], v4([2.0, -3.0, -1.0, 1e20]));
    assert_eq!(r[1], v4([3.0, -2.0, -0.0, 1e20]));
    assert_eq!(r[2], v4([2.0, -2.0, -0.0, 1e20]));
    assert_eq!(r[3], v4([2.0, -2.0, -0.0, 1e20]));
    assert_eq!(r[4], v4([0.5, 0.5, 0.75, 0.0]));
}

#[test]
fn approximated_functions_are_the_exact_value_rounded() {
    let x = 0.7f32;
    let y = 3.3f32;
    let r = eval(
        "RSQ OUT[0], IN[0].xxxx\nEX2 OUT[1], IN[0].yyyy\nLG2 OUT[2], IN[0].xxxx\nPOW OUT[3], IN[0].xxxx, IN[0].yyyy\n\
         SIN OUT[4], IN[0].yyyy\nCOS OUT[5], IN[0].yyyy\nSCS OUT[6], IN[0].yyyy\nRCC OUT[7], IN[0].zzzz",
        &[v4([x, y, 1e-30, 0.0])],
    );
    let (xd, yd) = (f64::from(x), f64::from(y));
    assert_eq!(r[0][0], ((1.0 / xd.sqrt()) as f32).to_bits());
    assert_eq!(r[1][0], (yd.exp2() as f32).to_bits());
    assert_eq!(r[2][0], (xd.log2() as f32).to_bits());
    assert_eq!(r[3][0], (xd.powf(yd) as f32).to_bits());
    assert_eq!(r[4][0], (yd.sin() as f32).to_bits());
    assert_eq!(r[5][0], (yd.cos() as f32).to_bits());
    assert_eq!(r[6], [r[5][0], r[4][0], 0, 0x3F80_0000]);
    // 1 / 1e-30 = 1e30 > 2^64: clamped to 2^64.
    assert_eq!(r[7], [0x5F80_0000; 4]);
}

#[test]
fn lit_exp_log_dst() {
    let r = eval(
        "LIT OUT[0], IN[0]\nLIT OUT[1], IN[1]\nEXP OUT[2], IN[2].xxxx\nLOG OUT[3], IN[2].yyyy\nLOG OUT[4], IN[2].zzzz\n\
         DST OUT[5], IN[0], IN[1]",
        &[v4([0.5, 0.25, 0.0, 3.0]), v4([2.0, 0.0, 0.0, 0.0]), v4([-1.25, -6.0, 0.0, 0.0])],
    );
    assert_eq!(r[0], v4([1.0, 0.5, 0.015625, 1.0]));
    // max(y, 0) = 0 and w = 0: z = 1.
    assert_eq!(r[1], v4([1.0, 2.0, 1.0, 1.0]));
    // EXP(-1.25) = (2^-2, 0.75, 2^-1.25, 1).
    assert_eq!(r[2], v4([0.25, 0.75, (-1.25f64).exp2() as f32, 1.0]));
    // LOG(-6) = (2, 1.5, log2 6, 1).
    assert_eq!(r[3], v4([2.0, 1.5, 6f64.log2() as f32, 1.0]));
    assert_eq!(r[4], [0xFF80_0000, 0x7FC0_0000, 0xFF80_0000, 0x3F80_0000]);
    // DST = (1, a.y*b.y, a.z, b.w).
    assert_eq!(r[5], v4([1.0, 0.0, 0.0, 0.0]));
}

#[test]
fn normalise_reflect_and_matrices() {
    let a = [3.0f32, 4.0, 12.0, 2.0];
    let b = [1.0f32, -2.0, 0.5, 7.0];
    let r = eval(
        "NRM OUT[0], IN[0]\nNRM4 OUT[1], IN[0]\nRFL OUT[2], IN[0], IN[1]\nM4X4 OUT[3], IN[0], CONST[0]\n\
         MOV OUT[4], IN[2]\nM3X2 OUT[4], IN[0], CONST[1]\nM4X3 OUT[5], IN[0], CONST[0]\nM3X4 OUT[6], IN[0], CONST[0]",
        &[v4(a), v4(b), v4([9.0; 4])],
    );
    let rsq = |d: f32| (1.0 / f64::from(d).sqrt()) as f32;
    let d3 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    let k3 = rsq(d3);
    assert_eq!(r[0].map(f), [a[0] * k3, a[1] * k3, a[2] * k3, 1.0]);
    let k4 = rsq(d3 + a[3] * a[3]);
    assert_eq!(r[1].map(f), a.map(|x| x * k4));
    let d1 = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let k = (2.0 * d1) / d3;
    assert_eq!(
        r[2].map(f),
        [k * a[0] - b[0], k * a[1] - b[1], k * a[2] - b[2], 1.0]
    );
    let row = |n: usize| -> [f32; 4] { std::array::from_fn(|c| (n + c + 1) as f32) };
    let dot4 = |m: [f32; 4]| a[0] * m[0] + a[1] * m[1] + a[2] * m[2] + a[3] * m[3];
    let dot3 = |m: [f32; 4]| a[0] * m[0] + a[1] * m[1] + a[2] * m[2];
    assert_eq!(
        r[3].map(f),
        [dot4(row(0)), dot4(row(1)), dot4(row(2)), dot4(row(3))]
    );
    assert_eq!(r[4].map(f), [dot3(row(1)), dot3(row(2)), 9.0, 9.0]);
    assert_eq!(r[5].map(f), [dot4(row(0)), dot4(row(1)), dot4(row(2)), 0.0]);
    assert_eq!(
        r[6].map(f),
        [dot3(row(0)), dot3(row(1)), dot3(row(2)), dot3(row(3))]
    );
}

#[test]
fn integer_opcodes() {
    let a = [7u32, (-7i32) as u32, 0x8000_0000, 0xF0F0_F0F0];
    let b = [3u32, 3, (-1i32) as u32, 0];
    let r = eval(
        "MOD OUT[0], IN[0], IN[1]\nSHL OUT[1], IN[0], IN[1]\nSHR OUT[2], IN[0], IN[1]\nSAD OUT[3], IN[0], IN[1], IN[1]\n\
         NOT OUT[4], IN[0]\nAND OUT[5], IN[0], IN[1]\nOR OUT[6], IN[0], IN[1]\nXOR OUT[7], IN[0], IN[1]",
        &[a, b],
    );
    assert_eq!(r[0], [1, (-1i32) as u32, 0, 0xFFFF_FFFF]);
    // Shift counts come from src1.x (3) for every component.
    assert_eq!(r[1], [56, (-56i32) as u32, 0, 0x8787_8780]);
    assert_eq!(r[2], [0, (-1i32) as u32, 0xF000_0000, 0xFE1E_1E1E]);
    // |a - b| + b, wrapping: |0x80000000 + 1| = 0x7FFFFFFF, + -1.
    assert_eq!(r[3], [7, 13, 0x7FFF_FFFE, 0xF0F0_F0F0u32.wrapping_neg()]);
    assert_eq!(r[4], a.map(|x| !x));
    assert_eq!(r[5], [3, 1, 0x8000_0000, 0]);
    assert_eq!(r[6], [7, (-5i32) as u32, 0xFFFF_FFFF, 0xF0F0_F0F0]);
    assert_eq!(r[7], [4, (-6i32) as u32, 0x7FFF_FFFF, 0xF0F0_F0F0]);
    let r = eval(
        "I2F OUT[0], IN[0]",
        &[[16_777_217, (-3i32) as u32, 0x7FFF_FFFF, 0]],
    );
    assert_eq!(r[0], v4([16_777_216.0, -3.0, 2_147_483_648.0, 0.0]));
}

/// The later-Mesa opcodes' result types (ARCHITECTURE.md): UADD writes int32, so a condition code
/// compares it as signed (0x80000000 is LT); UMUL writes uint32 (0x80000000 is GT).
#[test]
fn later_mesa_result_types_set_condition_codes() {
    let one = 0x3F80_0000;
    let r = eval(
        "UADD.CC TEMP[0], IN[0], IN[1]\nMOV OUT[0] (LT), IN[2]\n\
         UMUL.CC1 TEMP[1], IN[0], IN[3]\nMOV OUT[1] (GT1), IN[2]",
        &[
            [0x7FFF_FFFF, 0x8000_0000, 0, 5],
            [1, 0, 0, 0xFFFF_FFFF],
            [one; 4],
            [1; 4],
        ],
    );
    // UADD: 0x80000000, 0x80000000, 0, 4 -> LT, LT, EQ, GT.
    assert_eq!(r[0], [one, one, 0, 0]);
    // UMUL by 1: 0x7FFFFFFF, 0x80000000, 0, 5 -> GT, GT, EQ, GT.
    assert_eq!(r[1], [one, one, 0, one]);
}

fn pair(x: f64, y: f64) -> [u32; 4] {
    let (a, b) = (x.to_bits(), y.to_bits());
    [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
}

fn unpair(v: [u32; 4]) -> (f64, f64) {
    let j = |lo: u32, hi: u32| f64::from_bits(u64::from(lo) | u64::from(hi) << 32);
    (j(v[0], v[1]), j(v[2], v[3]))
}

#[test]
fn double_opcodes() {
    let a = pair(1.0 / 3.0, -2.5);
    let b = pair(3.0, 8.0);
    let c = pair(1e-310, -0.0);
    let r = eval(
        "DADD OUT[0], IN[0], IN[1]\nDMUL OUT[1], IN[0], IN[1]\nDDIV OUT[2], IN[0], IN[1]\nDMAD OUT[3], IN[0], IN[1], IN[2]\n\
         DSEQ OUT[4], IN[1], IN[1]\nDSLT OUT[5], IN[0], IN[1]\nDFRACEXP OUT[6], OUT[7], IN[1]",
        &[a, b, c],
    );
    let (a0, a1, b0, b1) = (1.0 / 3.0, -2.5, 3.0, 8.0);
    assert_eq!(unpair(r[0]), (a0 + b0, a1 + b1));
    assert_eq!(unpair(r[1]), (a0 * b0, a1 * b1));
    assert_eq!(unpair(r[2]), (a0 / b0, a1 / b1));
    assert_eq!(unpair(r[3]), (a0 * b0 + 1e-310, a1 * b1 + -0.0));
    assert_eq!(r[4], v4([1.0; 4]));
    assert_eq!(r[5], v4([1.0; 4]));
    // 3 = 0.75 * 2^2, 8 = 0.5 * 2^4.
    assert_eq!(unpair(r[6]), (2.0, 4.0));
    assert_eq!(unpair(r[7]), (0.75, 0.5));

    let r = eval(
        "DSQRT OUT[0], IN[0]\nDRCP OUT[1], IN[1]\nDMIN OUT[2], IN[1], IN[2]\nDMAX OUT[3], IN[1], IN[2]\n\
         DFRAC OUT[4], IN[0]\nDLDEXP OUT[5], IN[2], IN[1]\nDADD OUT[6], IN[2], IN[2]",
        &[pair(-4.0, 2.0), pair(-0.5, 1e-320), pair(-0.5, 2.9)],
    );
    assert_eq!(r[0][..2], [0, 0x7FF8_0000]);
    assert_eq!(unpair(r[0]).1, 2f64.sqrt());
    assert_eq!(unpair(r[1]), (-2.0, f64::INFINITY));
    // DMIN(-0.5, -0.5) picks src1 (not less); DMIN(1e-320, 2.9) keeps the subnormal.
    assert_eq!(unpair(r[2]), (-0.5, 1e-320));
    assert_eq!(unpair(r[3]), (-0.5, 2.9));
    assert_eq!(unpair(r[4]), (0.0, 0.0));
    // -0.5 * 2^trunc(-0.5) = -0.5; 2.9 * 2^trunc(1e-320) = 2.9.
    assert_eq!(unpair(r[5]), (-0.5, 2.9));
    assert_eq!(unpair(r[6]), (-1.0, 5.8));
}

#[test]
fn pack_and_unpack() {
    let r = eval(
        "PK2H OUT[0], IN[0]\nPK2US OUT[1], IN[0]\nPK4B OUT[2], IN[1]\nPK4UB OUT[3], IN[1]\n\
         UP2H OUT[4], IN[2].xxxx\nUP2US OUT[5], IN[2].yyyy\nUP4B OUT[6], IN[2].zzzz\nUP4UB OUT[7], IN[2].zzzz",
        &[v4([1.0, -2.0, 0.0, 0.0]), v4([-1.0, 0.5, 1.0, f32::NAN]), [0xC000_3C00, 0xFFFF_0000, 0x80FF_0001, 0]],
    );
    assert_eq!(r[0], [0xC000_3C00; 4]);
    // x = 1 -> 65535; y = -2 clamps to 0.
    assert_eq!(r[1], [0x0000_FFFF; 4]);
    // bytes: round(127*c) + 128: -1 -> 1, 0.5 -> 63.5 -> 64 (even) + 128 = 192, 1 -> 255, NaN -> 0.
    assert_eq!(r[2], [0x00FF_C001; 4]);
    // bytes: round(255*c): 0, 127.5 -> 128, 255, 0.
    assert_eq!(r[3], [0x00FF_8000; 4]);
    assert_eq!(r[4], v4([1.0, -2.0, 1.0, -2.0]));
    assert_eq!(r[5], v4([0.0, 1.0, 0.0, 1.0]));
    let b = |x: i32| ((x - 128) as f32 / 127.0).to_bits();
    assert_eq!(r[6], [b(1), b(0), b(0xFF), b(0x80)]);
    assert_eq!(
        r[7],
        [
            (1.0f32 / 255.0).to_bits(),
            0,
            0x3F80_0000,
            (128.0f32 / 255.0).to_bits()
        ]
    );
}

/// A texture that reports what it was asked.
struct Probe;

impl Sampler for Probe {
    fn sample(&self, target: TextureTarget, coord: [f32; 4]) -> [u32; 4] {
        [
            coord[0].to_bits(),
            coord[1].to_bits(),
            coord[2].to_bits(),
            target as u32,
        ]
    }
    fn fetch(&self, _: TextureTarget, texel: [i32; 4]) -> [u32; 4] {
        texel.map(|t| t.wrapping_mul(10) as u32)
    }
    fn size(&self) -> [u32; 4] {
        [16, 8, 1, 1]
    }
}

#[test]
fn texture_opcodes_go_through_the_sampler() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0..4]\nDCL SAMP[1]\n\
        TEX OUT[0], IN[0], SAMP[1], 2D\nTXP OUT[1], IN[0], SAMP[1], 3D\nTXB OUT[2], IN[0], SAMP[1], SHADOW2D\n\
        TXF OUT[3], IN[0], SAMP[1], 2D\nTXQ OUT[4], IN[0], SAMP[1], 2D\nEND\n";
    let mut i = RunInputs::default();
    i.set_input(0, v4([1.0, 3.0, 0.5, 2.0]));
    i.textures = vec![None, Some(Box::new(Probe))];
    let o = run_text(text, &i);
    let r: Vec<[u32; 4]> = (0..5).map(|k| o.lanes[0].outputs[&k]).collect();
    assert_eq!(r[0], [fb(1.0), fb(3.0), fb(0.5), 2]);
    assert_eq!(r[1], [fb(0.5), fb(1.5), fb(0.25), 3]);
    assert_eq!(r[2], [fb(1.0), fb(3.0), fb(0.5), 7]);
    // TXF reads integer coordinates: the float bits as int32.
    assert_eq!(
        r[3],
        v4([1.0, 3.0, 0.5, 2.0]).map(|x| (x as i32).wrapping_mul(10) as u32)
    );
    assert_eq!(r[4], [16, 8, 1, 1]);
    i.textures.clear();
    let e = run_text_err(text, &i);
    assert_eq!(e.index, 0);
    assert_eq!(
        e.kind,
        sim::reference::RunErrorKind::MissingTexture { unit: 1 }
    );
}
