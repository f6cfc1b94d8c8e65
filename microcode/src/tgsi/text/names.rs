//! Text names that only the text form uses: property values (primitive types, origins, pixel
//! centers) and the spellings the parser accepts besides the canonical names in `ir.rs`.

use crate::tgsi::ir::*;

/// `PIPE_PRIM_*` names; the position is the number.
pub const PRIMITIVES: [&str; 14] = [
    "POINTS",
    "LINES",
    "LINE_LOOP",
    "LINE_STRIP",
    "TRIANGLES",
    "TRIANGLE_STRIP",
    "TRIANGLE_FAN",
    "QUADS",
    "QUAD_STRIP",
    "POLYGON",
    "LINES_ADJACENCY",
    "LINE_STRIP_ADJACENCY",
    "TRIANGLES_ADJACENCY",
    "TRIANGLE_STRIP_ADJACENCY",
];

/// `FS_COORD_ORIGIN` values.
pub const ORIGINS: [&str; 2] = ["UPPER_LEFT", "LOWER_LEFT"];

/// `FS_COORD_PIXEL_CENTER` values.
pub const PIXEL_CENTERS: [&str; 2] = ["HALF_INTEGER", "INTEGER"];

/// The value names of a property (empty when its values are plain numbers).
pub fn value_names(p: PropertyName) -> &'static [&'static str] {
    match p {
        PropertyName::GsInputPrimitive | PropertyName::GsOutputPrimitive => &PRIMITIVES,
        PropertyName::FsCoordOrigin => &ORIGINS,
        PropertyName::FsCoordPixelCenter => &PIXEL_CENTERS,
        PropertyName::GsMaxOutputVertices => &[],
    }
}

/// A property value by name, case-insensitively.
pub fn property_value(p: PropertyName, w: &str) -> Option<u32> {
    value_names(p)
        .iter()
        .position(|n| n.eq_ignore_ascii_case(w))
        .map(|n| n as u32)
}

/// A property by name; `GS_MAX_VERTICES` is accepted for `GS_MAX_OUTPUT_VERTICES`.
pub fn property(w: &str) -> Option<PropertyName> {
    if w.eq_ignore_ascii_case("GS_MAX_VERTICES") {
        return Some(PropertyName::GsMaxOutputVertices);
    }
    PropertyName::ALL
        .iter()
        .copied()
        .find(|p| p.name().eq_ignore_ascii_case(w))
}

/// A semantic by name; Mesa's dumper spells PRIMID `PRIM_ID`, so both are accepted.
pub fn semantic(w: &str) -> Option<SemanticName> {
    if w.eq_ignore_ascii_case("PRIM_ID") {
        return Some(SemanticName::PrimId);
    }
    SemanticName::from_name(w)
}

/// An interpolation mode by name.
pub fn interpolate(w: &str) -> Option<Interpolate> {
    [
        Interpolate::Constant,
        Interpolate::Linear,
        Interpolate::Perspective,
    ]
    .into_iter()
    .find(|m| m.name().eq_ignore_ascii_case(w))
}

/// A texture target by name.
pub fn texture(w: &str) -> Option<TextureTarget> {
    TextureTarget::ALL
        .iter()
        .copied()
        .find(|t| t.name().eq_ignore_ascii_case(w))
}
