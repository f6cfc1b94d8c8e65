//! The `--json` form of a run (`decisions.md` section 7).
//!
//! Key order is fixed (engine, lanes, instructions, cycles, fault; per lane killed, outputs, bits,
//! vertices) and registers are listed in index order, so the text can be compared byte for byte.
//! Floats are written with the shortest text that reads back to the same binary32, which serde's
//! float formatting does not promise for every printer, hence the raw values.

use super::{format_f32, LaneOutput, RunOutput, Vertex};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// One component as a JSON number, or "nan" / "inf" / "-inf".
struct Component(u32);

impl Serialize for Component {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = f32::from_bits(self.0);
        if v.is_finite() {
            let raw =
                RawValue::from_string(format_f32(self.0)).map_err(serde::ser::Error::custom)?;
            raw.serialize(s)
        } else {
            s.serialize_str(&format_f32(self.0))
        }
    }
}

/// `{"OUT[i]": [x, y, z, w], ...}` in index order.
struct Values<'a>(&'a BTreeMap<u32, [u32; 4]>);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (i, v) in self.0 {
            let comps = [
                Component(v[0]),
                Component(v[1]),
                Component(v[2]),
                Component(v[3]),
            ];
            m.serialize_entry(&format!("OUT[{i}]"), &comps)?;
        }
        m.end()
    }
}

/// `{"OUT[i]": ["hex8", ...], ...}` in index order.
struct Bits<'a>(&'a BTreeMap<u32, [u32; 4]>);

impl Serialize for Bits<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (i, v) in self.0 {
            let hex: Vec<String> = v.iter().map(|b| format!("{b:08x}")).collect();
            m.serialize_entry(&format!("OUT[{i}]"), &hex)?;
        }
        m.end()
    }
}

struct VertexJson<'a>(&'a Vertex);

impl Serialize for VertexJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Vertex", 3)?;
        st.serialize_field("outputs", &Values(&self.0.outputs))?;
        st.serialize_field("bits", &Bits(&self.0.outputs))?;
        st.serialize_field("primitive_end", &self.0.primitive_end)?;
        st.end()
    }
}

struct LaneJson<'a> {
    lane: &'a LaneOutput,
    geometry: bool,
}

impl Serialize for LaneJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Lane", 4)?;
        st.serialize_field("killed", &self.lane.killed)?;
        st.serialize_field("outputs", &Values(&self.lane.outputs))?;
        st.serialize_field("bits", &Bits(&self.lane.outputs))?;
        if self.geometry {
            let vs: Vec<VertexJson> = self.lane.vertices.iter().map(VertexJson).collect();
            st.serialize_field("vertices", &vs)?;
        }
        st.end()
    }
}

struct Lanes<'a>(&'a RunOutput);

impl Serialize for Lanes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.lanes.len()))?;
        for lane in &self.0.lanes {
            seq.serialize_element(&LaneJson {
                lane,
                geometry: self.0.geometry,
            })?;
        }
        seq.end()
    }
}

struct RunJson<'a>(&'a RunOutput);

impl Serialize for RunJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut st = s.serialize_struct("Run", 5)?;
        st.serialize_field("engine", &r.engine)?;
        st.serialize_field("lanes", &Lanes(r))?;
        if let Some(n) = r.instructions {
            st.serialize_field("instructions", &n)?;
        }
        if let Some(n) = r.cycles {
            st.serialize_field("cycles", &n)?;
        }
        if let Some(f) = &r.fault {
            st.serialize_field("fault", f)?;
        }
        st.end()
    }
}

pub(super) fn to_json(run: &RunOutput) -> String {
    // Serialising these types cannot fail: every map key is a string and every raw value is a
    // number printed by `format_f32` for a finite float.
    serde_json::to_string(&RunJson(run)).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
