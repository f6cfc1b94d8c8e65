//! Cube-map face selection (OpenGL 2.1, table 3.21).

use super::float::{abs, add, div, ge, lt, mul};

/// Cube faces in storage order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// +X (face 0).
    PositiveX,
    /// -X (face 1).
    NegativeX,
    /// +Y (face 2).
    PositiveY,
    /// -Y (face 3).
    NegativeY,
    /// +Z (face 4).
    PositiveZ,
    /// -Z (face 5).
    NegativeZ,
}

impl Face {
    /// Storage index: +X, -X, +Y, -Y, +Z, -Z are 0..=5.
    pub fn index(self) -> u32 {
        self as u32
    }
}

/// A direction resolved to a face and normalised face coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeCoord {
    /// The face of the largest |coordinate|.
    pub face: Face,
    /// Horizontal face coordinate, `(sc / |ma| + 1) / 2`.
    pub s: f32,
    /// Vertical face coordinate, `(tc / |ma| + 1) / 2`.
    pub t: f32,
}

/// Picks the face of the largest |coordinate| and computes `s`, `t` as OpenGL does.
///
/// Comparisons are float comparisons (subnormals count as zero; a NaN compares false): x wins when
/// |x| >= |y| and |x| >= |z|, else y when |y| >= |z|, else z; so ties go x before y before z. The
/// positive face is chosen unless the major coordinate is < 0 (so -0 and NaN pick the positive
/// face). `s = (sc / |ma| + 1) * 0.5`, one rounding per operation (the halving is exact up to the
/// flush); an all-zero direction divides 0 by 0 and gives NaN coordinates, which address texel 0.
pub fn select_face(x: f32, y: f32, z: f32) -> CubeCoord {
    let (ax, ay, az) = (abs(x), abs(y), abs(z));
    // (face, sc, tc, major) per the OpenGL table.
    let (face, sc, tc, major) = if ge(ax, ay) && ge(ax, az) {
        if lt(x, 0.0) {
            (Face::NegativeX, z, -y, ax)
        } else {
            (Face::PositiveX, -z, -y, ax)
        }
    } else if ge(ay, az) {
        if lt(y, 0.0) {
            (Face::NegativeY, x, -z, ay)
        } else {
            (Face::PositiveY, x, z, ay)
        }
    } else if lt(z, 0.0) {
        (Face::NegativeZ, -x, -y, az)
    } else {
        (Face::PositiveZ, x, -y, az)
    };
    let project = |c: f32| mul(add(div(c, major), 1.0), 0.5);
    CubeCoord {
        face,
        s: project(sc),
        t: project(tc),
    }
}
