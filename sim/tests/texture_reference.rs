//! Textures through the reference model: TEX, TXP, TXB, TXF and TXQ on the graw test texture.

use microcode::tgsi::text::parse;
use sim::reference::run;
use sim::run_io::{RunInputs, Sampler};
use sim::texture::{Filter, Texture};

const PROGRAM: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0..4], COLOR
DCL SAMP[0]
IMM INT32 { 4, 9, 0, 0 }
IMM FLT32 { 2.0, 0.0, 0.0, 0.0 }
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: TXP OUT[1], IN[0], SAMP[0], 2D
  2: TXB OUT[2], IN[0], SAMP[0], 2D
  3: TXF OUT[3], IMM[0], SAMP[0], 2D
  4: TXQ OUT[4], IMM[1], SAMP[0], 2D
  5: END
";

#[test]
fn texture_opcodes_read_the_bound_texture() {
    let program = parse(PROGRAM).unwrap();
    let graw = Texture::graw_test();
    let texel = |s, t| graw.texel(0, s, t, 0).unwrap();
    // Lane l samples texel (4 + l, 9): coordinates at texel centres; w = 2 halves them for TXP
    // (texel (2 + l/2, 4)) and is TXB's bias (no effect).
    let mut inputs = RunInputs::default();
    let lanes: [[u32; 4]; 4] =
        std::array::from_fn(|l| [(4.5 + l as f32) / 16.0, 9.5 / 16.0, 0.0, 2.0].map(f32::to_bits));
    inputs.inputs.insert(0, lanes);
    inputs.textures = vec![Some(Box::new(graw.clone()) as Box<dyn Sampler>)];
    let out = run(&program, &inputs).unwrap();
    for (l, lane) in out.lanes.iter().enumerate() {
        let s = 4 + l as u32;
        assert_eq!(lane.outputs[&0], texel(s, 9), "TEX lane {l}");
        // TXP: u = (4.5 + l)/32 -> floor((4.5 + l)/2), v = 9.5/32 -> 4.
        assert_eq!(
            lane.outputs[&1],
            texel((9 + 2 * l as u32) / 4, 4),
            "TXP lane {l}"
        );
        assert_eq!(lane.outputs[&2], texel(s, 9), "TXB lane {l}");
        assert_eq!(lane.outputs[&3], texel(4, 9), "TXF lane {l}");
        assert_eq!(lane.outputs[&4], [16, 16, 1, 1], "TXQ lane {l}");
    }
    // With bilinear filtering, TEX at texel centres still returns the texel (f = g = 0).
    inputs.textures = vec![Some(
        Box::new(graw.clone().with_filter(Filter::Bilinear)) as Box<dyn Sampler>
    )];
    let out = run(&program, &inputs).unwrap();
    assert_eq!(out.lanes[2].outputs[&0], texel(6, 9));
}
