//! Programs and inputs shared by the differential tests (`core_diff.rs`: reference model
//! against core model; `hw_cross.rs`: core model against the hardware engines).

use microcode::rng::XorShift;
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::*;
use sim::run_io::RunInputs;

pub const F: fn(f32) -> u32 = f32::to_bits;

/// Values the lanes get: ordinary numbers, signed zeros, specials, a subnormal.
pub const POOL: [u32; 16] = [
    0x0000_0000,
    0x8000_0000,
    0x3F80_0000,
    0xBF80_0000,
    0x3F00_0000,
    0x4000_0000,
    0x406C_CCCD, // 3.7
    0xC144_0000, // -12.25
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0x0000_0123,
    0x7149_F2CA, // 1e30
    0x3DCC_CCCD, // 0.1
    0xBE80_0000, // -0.25
    0x42C8_0000, // 100
];

/// Inputs 0, 1 and 2 of every lane as two binary64 pairs each (x, z the low words): random bits,
/// zeros, infinities, NaN, subnormals, the largest value, and values equal or next to the
/// previous one (so that comparisons meet equal high words), or numbers in [-8, 8).
pub fn random_double_inputs(rng: &mut XorShift) -> RunInputs {
    const SPECIAL: [f64; 10] = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0,
        -1.0,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0001),
        f64::MAX,
    ];
    let mut inputs = RunInputs::default();
    let mut last = 1.5f64;
    let mut value = |rng: &mut XorShift| {
        let x = match rng.next_u32() % 5 {
            0 => f64::from_bits(u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())),
            1 => SPECIAL[rng.next_u32() as usize % SPECIAL.len()],
            2 => last,
            3 => f64::from_bits(last.to_bits() ^ u64::from(rng.next_u32() & 3)),
            _ => rng.uniform(-8.0, 8.0),
        };
        last = x;
        let b = x.to_bits();
        [b as u32, (b >> 32) as u32]
    };
    for i in 0..3 {
        for l in 0..4 {
            let (a, b) = (value(rng), value(rng));
            inputs.set_input_lane(i, l, [a[0], a[1], b[0], b[1]]);
        }
    }
    inputs
}

pub fn random_value(rng: &mut XorShift) -> u32 {
    if rng.next_u32().is_multiple_of(3) {
        POOL[(rng.next_u32() % 16) as usize]
    } else {
        F(rng.uniform(-8.0, 8.0) as f32)
    }
}

/// Values inside every approximation's accuracy range (SIN/COS |x| <= 100 pi, POW
/// |y log2 x| <= 64 with the source modifiers applied): the pool without 1e30 and 100.
pub fn tame_value(rng: &mut XorShift) -> u32 {
    loop {
        let v = random_value(rng);
        if v != 0x7149_F2CA && v != 0x42C8_0000 {
            return v;
        }
    }
}

/// IN[0] and the constants get any value, IN[1] only tame values (approximated operations of
/// the generator read only IN[1] and IMM[0]); `tame` makes IN[0] tame as well.
pub fn random_inputs_with(rng: &mut XorShift, tame: bool) -> RunInputs {
    let mut inp = RunInputs::default();
    for i in 0..2 {
        for l in 0..4 {
            let v = [0; 4].map(|_: u32| {
                if tame || i == 1 {
                    tame_value(rng)
                } else {
                    random_value(rng)
                }
            });
            inp.set_input_lane(i, l, v);
        }
    }
    for i in 0..2 {
        let v = [0; 4].map(|_: u32| random_value(rng));
        inp.set_const(0, i, v);
    }
    for v in 0..6 {
        for n in 0..4 {
            let val = [0; 4].map(|_: u32| tame_value(rng));
            inp.geometry_inputs.insert((v, n), val);
        }
    }
    inp.budget = 100_000;
    inp.textures = vec![Some(Box::new(test_texture()))];
    inp
}

/// The texture bound to unit 0: 8x4 RGBA with 8-bit channels (as the hardware's texture memory
/// holds them), bilinear, repeating in s and clamped in t, so both wrap modes, both axes and the
/// filter's arithmetic are exercised by every TEX the generators emit.
pub fn test_texture() -> sim::texture::Texture {
    use sim::texture::{Filter, Format, Texture, Wrap};
    let texels: Vec<[u32; 4]> = (0..32u32)
        .map(|i| {
            [0, 1, 2, 3]
                .map(|c| microcode::arith::texel::unorm8((i * 37 + c * 71 + i * i * c) as u8))
        })
        .collect();
    Texture::new(8, 4, 1, Format::Rgba, texels)
        .expect("a valid texture")
        .with_filter(Filter::Bilinear)
        .with_wrap([Wrap::Repeat, Wrap::ClampToEdge, Wrap::Repeat])
}

pub fn random_inputs(rng: &mut XorShift) -> RunInputs {
    random_inputs_with(rng, false)
}

/// A geometry program reading `IN[ADDR[0].x + n][i]` in a loop over the triangle's vertices (a
/// multi-index declaration; the last vertex + 1 lies outside the primitive and reads 0): three
/// vertices.
pub const VERTEX_RELATIVE_GEOMETRY: &str =
    "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n\
               PROPERTY GS_MAX_OUTPUT_VERTICES 8\nDCL IN[][0..1]\nDCL OUT[0..1]\nDCL TEMP[0]\n\
               DCL ADDR[0]\nIMM FLT32 { 0.0, 1.0, 3.0, 4.0 }\nMOV TEMP[0].x, IMM[0].xxxx\n\
               BGNLOOP\n  ARL ADDR[0].x, TEMP[0].xxxx\n  MOV OUT[0], IN[ADDR[0].x][0]\n\
                 ADD OUT[1], IN[ADDR[0].x+1][1], -IN[ADDR[0].x][0]\n  EMIT\n\
                 ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
                 SGE TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz\n  IF TEMP[0].yyyy\n    BRK\n  ENDIF\n\
               ENDLOOP\nEND\n";

pub const HEADER: &str = "FRAG\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL TEMP[0..3]\nDCL ADDR[0]\nDCL LOOP[0..1]\nDCL SAMP[0]\nDCL CONST[0..1]\nIMM FLT32 { 0.0, 1.0, 3.0, 0.5 }\nIMM FLT32 { -2.0, 0.25, 7.5, -0.75 }\n";

pub fn parse(body: &str) -> Program {
    let src = format!("{HEADER}{body}");
    let p = text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, "test")));
    if let Err(e) = validate(&p, &Limits::default()) {
        panic!("invalid test program: {e:?}\n{src}");
    }
    p
}

/// Hand-written programs: (body, OUT registers that hold approximated results).
pub const HAND: &[(&str, &[u32])] = &[
    ("MOV OUT[0], -IN[0].wzyx\nABS OUT[1], -IN[1]\nEND\n", &[]),
    ("ADD OUT[0].xy, IN[0], -IN[1]\nSUB OUT[0].zw, IN[0], IN[1].x\nMUL_SAT OUT[1], IN[0], CONST[0]\nEND\n", &[]),
    ("MAD OUT[0], IN[0], IN[1], CONST[1]\nMAD_SATNV OUT[1], IN[0].y, -IN[1], IMM[1]\nEND\n", &[]),
    ("DP2 OUT[0].x, IN[0], IN[1]\nDP3 OUT[0].y, IN[0], IN[1]\nDP4 OUT[0].zw, IN[0], IN[1]\nDPH OUT[1], IN[0], CONST[0]\nEND\n", &[]),
    ("MIN OUT[0], IN[0], IN[1]\nMAX OUT[1], IN[0], -IN[1]\nEND\n", &[]),
    ("SLT OUT[0].x, IN[0], IN[1]\nSGE OUT[0].y, IN[0], IN[1]\nSEQ OUT[0].z, IN[0], IN[1]\nSNE OUT[0].w, IN[0], IN[1]\nSGT OUT[1].x, IN[0], IN[1]\nSLE OUT[1].y, IN[0], IN[1]\nSFL OUT[1].z, IN[0], IN[1]\nSTR OUT[1].w, IN[0], IN[1]\nEND\n", &[]),
    ("FLR OUT[0].x, IN[0]\nCEIL OUT[0].y, IN[0]\nTRUNC OUT[0].z, IN[0]\nROUND OUT[0].w, IN[0]\nFRC OUT[1], IN[1]\nEND\n", &[]),
    ("CMP OUT[0], IN[0], IN[1], CONST[0]\nCND OUT[1], IN[0], IN[1], IN[1].wzyx\nEND\n", &[]),
    ("LRP OUT[0], IN[0], IN[1], CONST[0]\nXPD OUT[1], IN[0], IN[1]\nEND\n", &[]),
    ("RCP OUT[0].xy, IN[0].y\nDIV OUT[0].zw, IN[0], IN[1]\nEND\n", &[]),
    ("RSQ OUT[1].x, IN[0].x\nEX2 OUT[1].y, IN[0].y\nLG2 OUT[1].z, IN[0].z\nPOW OUT[1].w, IN[0].w, IN[1].x\nEND\n", &[1]),
    ("SIN OUT[1].xy, IN[0].x\nCOS OUT[1].zw, IN[1].y\nEND\n", &[1]),
    ("SCS OUT[1], IN[0].x\nEND\n", &[1]),
    ("EXP OUT[1], IN[0].x\nEND\n", &[1]),
    ("LOG OUT[1], IN[0].y\nEND\n", &[1]),
    ("LIT OUT[1], IN[0]\nEND\n", &[1]),
    ("NRM OUT[1], IN[0]\nEND\n", &[1]),
    ("MOV TEMP[0], IN[0]\nIF TEMP[0].xxxx\n  MOV OUT[0], IN[1]\nELSE\n  MOV OUT[0], -IN[1]\nENDIF\nEND\n", &[]),
    ("MOV TEMP[0], IMM[0].xxxx\nBGNLOOP\n  ADD TEMP[0].x, TEMP[0].x, IMM[0].y\n  SGE TEMP[0].y, TEMP[0].x, IMM[0].z\n  IF TEMP[0].yyyy\n    BRK\n  ENDIF\n  SLT TEMP[0].z, IN[0].x, TEMP[0].x\n  IF TEMP[0].zzzz\n    CONT\n  ENDIF\n  ADD OUT[0], OUT[0], IN[1]\nENDLOOP\nEND\n", &[]),
    ("KIL IN[0]\nMOV OUT[0], IN[1]\nEND\n", &[]),
    ("IF IN[0].yyyy\n  KILP\nENDIF\nMOV OUT[0], IN[1]\nEND\n", &[]),
    ("ADD_SAT OUT[0], |IN[0]|, -|IN[1]|\nEND\n", &[]),
    ("SSG OUT[0], IN[0]\nCLAMP OUT[1], IN[0], IN[1], CONST[0]\nEND\n", &[]),
    ("DST OUT[0], IN[0], IN[1]\nDP2A OUT[1], IN[0], IN[1], CONST[0]\nEND\n", &[]),
    ("ARL ADDR[0].xy, IN[0].yxzw\nMOV OUT[0], CONST[ADDR[0].x+1]\nADD OUT[1], -TEMP[ADDR[0].y], CONST[ADDR[0].x].wzyx\nEND\n", &[]),
    ("ARR ADDR[0], IN[0]\nFLR ADDR[0].y, IN[1]\nMOV OUT[0], CONST[ADDR[0].y]\nMOV OUT[1], CONST[ADDR[0].x+1]\nEND\n", &[]),
    ("DDX OUT[0], IN[0]\nIF IN[1].xxxx\nDDY OUT[1], -IN[0].wzyx\nENDIF\nEND\n", &[]),
    ("MOV TEMP[0], IN[0]\nMOV TEMP[1], IN[1]\nMOV TEMP[2], CONST[0]\nMOV TEMP[3], CONST[1]\nM4X4 OUT[0], IN[1], TEMP[0]\nM3X2 OUT[1].xzw, IN[0], TEMP[1]\nEND\n", &[]),
    ("MOV TEMP[0], IN[0]\nMOV TEMP[1], IN[1]\nMOV TEMP[2], CONST[0]\nM4X3 OUT[0], IN[1], TEMP[0]\nM3X3 TEMP[0], TEMP[0], TEMP[0]\nM3X4 OUT[1], TEMP[0], TEMP[0]\nEND\n", &[]),
    ("MOV TEMP[0], IN[0]\nCAL :9\nCALLNZ IN[0].yyyy :9\nMOV OUT[0], TEMP[0]\nREP IN[1].xxxx\n  ADD OUT[1], OUT[1], IMM[0].yyyy\n  BREAKC IN[0].zzzz\nENDREP\nEND\nBGNSUB\n  ADD TEMP[0], TEMP[0], IN[1]\n  IF IN[1].xxxx\n    RET\n  ENDIF\n  MUL TEMP[0], TEMP[0], IMM[0].zzzz\n  RET\nENDSUB\n", &[]),
    ("IFC IN[0].wwww\n  RET\nENDIF\nMOV OUT[0], IN[1]\nEND\n", &[]),
    ("REP IMM[0].zzzz\n  REP IN[1].yyyy\n    CAL :9\n    IF IN[0].xxxx\n      CONT\n    ENDIF\n  ENDREP\nENDREP\nEND\nBGNSUB\n  REP IMM[0].zzzz\n    ADD OUT[0], OUT[0], IN[0]\n  ENDREP\n  ADD OUT[1], OUT[1], IMM[0].yyyy\nENDSUB\n", &[]),
    ("AND OUT[0], IN[0], IN[1]\nOR OUT[1].xy, IN[0], -IN[1]\nXOR OUT[1].zw, |IN[0]|, IN[1].wzyx\nEND\n", &[]),
    ("SHL TEMP[0], IN[0], IN[1].y\nSHR TEMP[1], -IN[0], IN[1].z\nNOT TEMP[2], TEMP[0]\nAND OUT[0], TEMP[1], TEMP[2]\nMOD OUT[1].xy, IN[0], IN[1]\nSAD OUT[1].zw, IN[0], IN[1], CONST[0]\nEND\n", &[]),
    ("I2F OUT[0], -|IN[0]|\nARA ADDR[0], IN[1]\nMOV OUT[1], CONST[ADDR[0].x]\nMOV ADDR[0], IMM[0]\nMOV OUT[1].y, CONST[ADDR[0].y]\nEND\n", &[]),
    ("MOV.CC TEMP[0], IN[0]\nMOV OUT[0] (GT.xyzw), IN[1]\n(LT.x) MOV OUT[1], IN[0]\nADD_SAT.CC1 TEMP[1], IN[0], IN[1]\nMOV OUT[1].yz (NE1.yxzw), IN[1]\n(EQ1.wzyx) ADD.CC OUT[0].xw (LE.zzzz), -IN[1], CONST[0]\nEND\n", &[]),
    ("SLT.CC TEMP[0], IN[0], IN[1]\nBGNLOOP\n  (GE.xxxx) BRK\n  ADD.CC TEMP[0].x, TEMP[0], -IMM[0].wwww\n  (NE.y) CONT\n  ADD OUT[0], OUT[0], IN[0]\nENDLOOP\n(FL.x) KILP\n(NE.yyyy) KILP\nEND\n", &[]),
    ("BGNFOR LOOP[0], IMM[0].xzyy\n  ADD OUT[0], OUT[0], CONST[LOOP[0].x]\n  BGNFOR LOOP[1], IN[1]\n    ADD OUT[1], OUT[1], IN[0]\n    BRK\n  ENDFOR LOOP[1]\nENDFOR LOOP[0]\nEND\n", &[]),
    ("BGNFOR LOOP[0], IN[1].xzyw\n  ADD OUT[0], OUT[0], IN[0]\n  IF IN[0].xxxx\n    CONT\n  ENDIF\n  ADD OUT[1], OUT[1], IMM[0].yyyy\nENDFOR LOOP[0]\nEND\n", &[]),
    ("TEX OUT[0], IN[0], SAMP[0], 2D\nTXP OUT[1], -IN[1].yxzw, SAMP[0], 3D\nEND\n", &[]),
    ("TXB_SAT OUT[0], IN[0], SAMP[0], CUBE\nIF IN[1].xxxx\n  TXL OUT[1].xy, |IN[1]|, SAMP[0], RECT\n  TXD OUT[1].zw, IN[0], IN[1], IN[1], SAMP[0], 1D\nENDIF\nEND\n", &[]),
    ("TXF OUT[0], -IN[0], SAMP[0], 2D\nTXQ OUT[1], IN[0], SAMP[0], 2D\nEND\n", &[]),
    ("ARL ADDR[0], IN[0]\nPUSHA ADDR[0]\nPUSHA -ADDR[0].yxwz\nARL ADDR[0], IMM[0]\nPOPA ADDR[0].xy\nMOV OUT[0], CONST[ADDR[0].x+1]\nPOPA ADDR[0]\nMOV OUT[1], CONST[ADDR[0].y]\nEND\n", &[]),
    ("MOV OUT[0], IN[0]\nBRA :3\nMOV OUT[0], IN[1]\nADD OUT[1], OUT[0], IN[0]\nEND\n", &[]),
    ("MOV.CC TEMP[0], IMM[0].wyxx\n(GT.x) BRA :4\n(EQ.z) BRA :5\nMOV OUT[0], IN[1]\nMOV OUT[1], IN[0]\n(LT.y) BRA :1\nEND\n", &[]),
    ("ARL ADDR[0], IN[0]\nMOV.CC TEMP[ADDR[0].x+1].xy (GT.xyzw), IN[1]\n(LT.y) ADD.CC1 OUT[ADDR[0].y], IN[0], -IN[1]\nMOV OUT[0] (GE1), TEMP[1]\n(NE.x) MOV TEMP[ADDR[0].z+2], IN[0]\nADD OUT[1], TEMP[2], TEMP[3]\nEND\n", &[]),
    ("AND.CC TEMP[0], IN[0], IN[1]\nARL.CC1 ADDR[0], IN[0]\n(NE.xyzw) MOV OUT[0], IN[1]\nMOV OUT[1] (LT1.xyzw), IN[0]\nSHR.CC TEMP[1], IN[1], IN[0]\nMOV OUT[1].xy (GT.wzyx), IN[1]\nEND\n", &[]),
    ("ARL ADDR[0], IN[0]\nMOV TEMP[ADDR[0].x], IN[1]\nADD_SAT OUT[ADDR[0].y+1].xz, IN[1], IN[0]\nMOV OUT[0].yw, TEMP[1]\nDP3 TEMP[ADDR[0].w+2], IN[0], IN[1]\nADD OUT[1].w, TEMP[2], TEMP[3]\nEND\n", &[]),
    ("RCC OUT[0].xy, IN[0].x\nRCC OUT[0].zw, -IN[1].y\nRCC_SAT OUT[1], IN[0].w\nEND\n", &[]),
    ("PK4UB OUT[0], IN[0]\nPK2US OUT[1].xy, -IN[1].wzyx\nPK4UB OUT[1].zw, (IN[1])-0.5\nEND\n", &[]),
    ("PK4B OUT[0], IN[0]\nPK4B OUT[1], -IN[1].wzyx\nEND\n", &[]),
    ("PK2H OUT[0], IN[0]\nPK2H OUT[1], -IN[1].wzyx\nEND\n", &[]),
    ("UP2H OUT[0], IN[0].x\nUP2H_SAT OUT[1].xy, IN[1].y\nUP2H OUT[1].zw, IMM[1].wzyx\nEND\n", &[]),
    ("UP4UB OUT[0], IN[0]\nUP2US_SAT OUT[1].xy, -IN[1]\nUP4B OUT[1].zw, IN[0].y\nEND\n", &[]),
    ("X2D OUT[0], IN[0], IN[1], CONST[0]\nRFL OUT[1], IN[0], -IN[1].wzyx\nX2D TEMP[0].yw, TEMP[0], TEMP[0].zxyw, IN[1]\nMOV OUT[1].w, TEMP[0]\nEND\n", &[]),
    ("MOV TEMP[1], IN[0]\nDP3 TEMP[1], TEMP[1], TEMP[1].zyxw\nMOV OUT[0], TEMP[1]\nXPD TEMP[2], TEMP[2].yzxw, IN[1]\nMOV OUT[1], TEMP[2]\nEND\n", &[]),
];
