//! The JSON of `decisions.md` section 7 and geometry vertex lists, with expected text written by hand.

mod reference_support;

use reference_support::*;
use sim::run_io::{LaneOutput, RunInputs, RunOutput, Vertex};
use std::collections::BTreeMap;

#[test]
fn fragment_json_matches_the_contract() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[2]\nIMM FLT32 { 1.0, 0.5, -0.0, 0.1 }\n\
        MOV OUT[0], IMM[0]\nRCP OUT[2], IN[0].xxxx\nKIL IN[0]\nEND\n";
    let mut i = RunInputs::default();
    i.set_input_lane(0, 0, [0, 0, 0, 0]);
    i.set_input_lane(0, 1, v4([-4.0, 0.0, 0.0, 0.0]));
    i.set_input_lane(0, 2, [0x7FC0_0000, 0, 0, 0]);
    i.set_input_lane(0, 3, v4([1e-7, 0.0, 0.0, 0.0]));
    let o = run_text(text, &i);
    let lane = |killed: bool, out2: &str, bits2: &str| {
        format!(
            "{{\"killed\":{killed},\"outputs\":{{\"OUT[0]\":[1.0,0.5,-0.0,0.1],\"OUT[2]\":[{out2}]}},\
             \"bits\":{{\"OUT[0]\":[\"3f800000\",\"3f000000\",\"80000000\",\"3dcccccd\"],\"OUT[2]\":[{bits2}]}}}}"
        )
    };
    let rep = |s: &str| [s; 4].join(",");
    let expected = format!(
        "{{\"engine\":\"reference\",\"lanes\":[{},{},{},{}],\"instructions\":4}}",
        lane(false, &rep("\"inf\""), &rep("\"7f800000\"")),
        lane(true, &rep("-0.25"), &rep("\"be800000\"")),
        lane(false, &rep("\"nan\""), &rep("\"7fc00000\"")),
        lane(false, &rep("10000000.0"), &rep("\"4b189680\"")),
    );
    assert_eq!(o.to_json(), expected);
}

#[test]
fn engine_fields_and_registers_in_index_order() {
    let mut outputs = BTreeMap::new();
    outputs.insert(10, [0x7F80_0000, 0xFF80_0000, 1, 0x4B80_0000]);
    outputs.insert(2, [0; 4]);
    let lane = LaneOutput {
        killed: false,
        outputs,
        vertices: vec![],
    };
    let run = RunOutput {
        engine: "rtl".into(),
        lanes: [lane.clone(), lane.clone(), lane.clone(), lane],
        instructions: None,
        cycles: Some(1234),
        fault: None,
        geometry: false,
        warnings: vec!["not printed".into()],
    };
    let one = "{\"killed\":false,\"outputs\":{\"OUT[2]\":[0.0,0.0,0.0,0.0],\"OUT[10]\":[\"inf\",\"-inf\",1e-45,16777216.0]},\
        \"bits\":{\"OUT[2]\":[\"00000000\",\"00000000\",\"00000000\",\"00000000\"],\
        \"OUT[10]\":[\"7f800000\",\"ff800000\",\"00000001\",\"4b800000\"]}}";
    let expected =
        format!("{{\"engine\":\"rtl\",\"lanes\":[{one},{one},{one},{one}],\"cycles\":1234}}");
    assert_eq!(run.to_json(), expected);
}

#[test]
fn geometry_program_emits_vertices_with_primitive_ends() {
    let text = "GEOM\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n\
        MOV OUT[0], IN[0][0]\nEMIT\nMOV OUT[0], IN[1][0]\nEMIT\nENDPRIM\nMOV OUT[0], IN[2][0]\nEMIT\nEND\n";
    let mut i = RunInputs::default();
    for v in 0..3u32 {
        i.geometry_inputs.insert((v, 0), v4([v as f32 + 1.0; 4]));
    }
    let o = run_text(text, &i);
    let vertex = |x: f32, end: bool| Vertex {
        outputs: BTreeMap::from([(0, v4([x; 4]))]),
        primitive_end: end,
    };
    for lane in &o.lanes {
        assert_eq!(
            lane.vertices,
            vec![vertex(1.0, false), vertex(2.0, true), vertex(3.0, true)]
        );
    }
    let v = |x: &str, bits: &str, end: bool| {
        format!(
            "{{\"outputs\":{{\"OUT[0]\":[{x},{x},{x},{x}]}},\"bits\":{{\"OUT[0]\":[\"{bits}\",\"{bits}\",\"{bits}\",\"{bits}\"]}},\"primitive_end\":{end}}}"
        )
    };
    let lane = format!(
        "{{\"killed\":false,\"outputs\":{{\"OUT[0]\":[3.0,3.0,3.0,3.0]}},\"bits\":{{\"OUT[0]\":[\"40400000\",\"40400000\",\"40400000\",\"40400000\"]}},\"vertices\":[{},{},{}]}}",
        v("1.0", "3f800000", false),
        v("2.0", "40000000", true),
        v("3.0", "40400000", true)
    );
    let expected = format!(
        "{{\"engine\":\"reference\",\"lanes\":[{lane},{lane},{lane},{lane}],\"instructions\":8}}"
    );
    assert_eq!(o.to_json(), expected);
}
