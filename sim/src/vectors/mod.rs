//! Per-opcode test vectors, reusable by every engine.
//!
//! A [`Vector`] is one opcode with source values given as bits (per lane and component), optional
//! source modifiers and saturate, and the expected destination bits (or a tolerance for the
//! approximated operations of `decisions.md` section 2). [`run_vectors`] builds a tiny program per
//! vector, runs it on any engine and reports pass/fail per opcode with the worst error seen.
//!
//! Which classes of values an opcode must be tested with is derived from the opcode table
//! ([`coverage::applicable`]); [`coverage::missing`] lists every supported opcode that lacks a vector of
//! an applicable class, and `sim/tests/opcode_vectors.rs` fails when that list is not empty.
//!
//! Edge-case expectations are literal bit patterns written here; ordinary and rounding expectations
//! come from [`oracle`] (host `f64` arithmetic rounded once), never from a model.
//!
//! Sources reach the opcode through `IN[i]` (per lane, so derivatives can differ between lanes) and
//! a `MOV` into `TEMP[i]`; results go through a temporary to `OUT[0]` (see [`program_for`]). Address
//! results are read back through an indirect `CONST` table, texture opcodes sample Mesa's graw test
//! texture. Control flow, vertex emission and NOP are exempt ([`coverage::exempt`] says why).
//!
//! ```
//! // Any engine with this shape works: the reference model, the core model, a hardware runner.
//! let report = sim::vectors::run_vectors(sim::reference::run);
//! assert!(report.all_passed(), "{}", report.to_table());
//! ```

pub mod coverage;
mod harness;
pub mod oracle;
mod program;
mod report;

mod address;
mod compare_select;
mod dot_matrix;
mod double;
mod float_approx;
mod float_arith;
mod float_integral;
mod float_special;
mod fragment;
mod integer;
mod later_integer;
mod pack;
mod texture;

pub use harness::{run_vector_set, run_vectors};
pub use program::{program_for, ADDRESS_TABLE_RADIUS};
pub use report::{Deviation, OpcodeResult, VectorFailure, VectorReport};

/// Constant buffer 0 as Mesa's graw test harness fills it for the corpus shaders
/// (`shared/notes/tgsi-reference.md`, "Inputs Mesa's own graw tests feed these shaders"):
/// `conformance` and the Mesa comparison of `sim/tests/corpus_mesa.rs` both feed it.
pub const MESA_GRAW_CONST0: [[f32; 4]; 12] = [
    [0.4, 0.0, 0.0, 1.0],
    [1.0, 1.0, 1.0, 1.0],
    [2.0, 2.0, 2.0, 2.0],
    [4.0, 8.0, 16.0, 32.0],
    [3.0, 0.0, 0.0, 0.0],
    [0.0, 0.5, 0.0, 0.0],
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 0.0, 0.0, 1.0],
    [1.0, 0.0, 0.0, 0.5],
    [0.0, 1.0, 0.0, 0.5],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

use microcode::tgsi::{ExtSwizzle, Modulate, Opcode, Saturate, TextureTarget};
use std::fmt;

/// The class of values a vector exercises. [`coverage::applicable`] says which classes an opcode needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Plain values with an exactly representable or easily rounded result.
    Ordinary,
    /// +0 and -0 as operands or results.
    SignedZero,
    /// Infinite operands or results (overflow included).
    Infinity,
    /// NaN operands or results.
    Nan,
    /// Results that are not representable and must be rounded (or rounded to an integral value).
    Rounding,
    /// Subnormal operands or results: flushed to signed zero by binary32 operations, kept by moves
    /// and by binary64 operations.
    Subnormal,
    /// Integer sign handling (negative operands, arithmetic shifts, signed remainders).
    IntSign,
    /// Integer wrap-around, saturation or clamping at the ends of the range.
    IntOverflow,
}

impl Class {
    /// Every class, in order.
    pub const ALL: [Class; 8] = [
        Class::Ordinary,
        Class::SignedZero,
        Class::Infinity,
        Class::Nan,
        Class::Rounding,
        Class::Subnormal,
        Class::IntSign,
        Class::IntOverflow,
    ];
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Class::Ordinary => "ordinary",
            Class::SignedZero => "signed-zero",
            Class::Infinity => "infinity",
            Class::Nan => "nan",
            Class::Rounding => "rounding",
            Class::Subnormal => "subnormal",
            Class::IntSign => "int-sign",
            Class::IntOverflow => "int-overflow",
        };
        f.write_str(s)
    }
}

/// What one destination component must hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// Exactly these bits.
    Bits(u32),
    /// Within `ulps` units in the last place of the correctly rounded binary32 result `want`
    /// (zero, infinite and NaN results must match exactly).
    Ulp {
        /// The correctly rounded result, as bits.
        want: u32,
        /// The largest distance allowed, in units in the last place (`decisions.md` section 2).
        ulps: u32,
    },
    /// Within `tol` of `want` (NaN and infinite results must match exactly).
    Abs {
        /// The exact result.
        want: f64,
        /// The largest absolute error allowed.
        tol: f64,
    },
    /// Within `tol * |want|` of `want` (zero, infinite and NaN results must match exactly).
    Rel {
        /// The exact result.
        want: f64,
        /// The largest error allowed, relative to `|want|`.
        tol: f64,
    },
    /// Not checked (a value the contract leaves open).
    Any,
}

/// How the harness wraps the opcode into a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Sources from `IN[i]` moved into `TEMP[i]`, the opcode reads `TEMP[0..num_src]` and writes
    /// `TEMP[n]` (and `TEMP[n+1]` for a second destination), which are moved to `OUT[0]` (`OUT[1]`).
    /// Extra operands beyond `num_src` land in the following temporaries (matrix rows).
    Alu,
    /// Like [`Shape::Alu`] but in a fragment program (derivatives).
    Fragment,
    /// The opcode writes `ADDR[0]`; `OUT[0].c` reads an address table through `ADDR[0].c`. The
    /// expected bits are the int32 address values.
    Address,
    /// `PUSHA TEMP[0]`, then `POPA ADDR[0]`, read back as in [`Shape::Address`].
    PushPop,
    /// A kill opcode in a fragment program; `expect_killed` holds the lanes that must die.
    Kill,
    /// A texture opcode with this target in a fragment program; the last operand is `SAMP[0]`,
    /// bound to Mesa's graw test texture (16x16 RGBA, nearest, repeat; `sim::texture`).
    Texture(TextureTarget),
}

/// A source operand: bits per lane and component, with modifiers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Operand {
    /// `lanes[l][c]`.
    pub lanes: [[u32; 4]; 4],
    /// The negate modifier (integer negate on integer opcodes).
    pub negate: bool,
    /// The absolute-value modifier (applied before negate).
    pub absolute: bool,
    /// Simple swizzle.
    pub swizzle: [u8; 4],
    /// Extended swizzle (SWZ).
    pub ext_swizzle: Option<ExtSwizzle>,
}

impl Operand {
    /// The same four components in every lane.
    pub fn uniform(v: [u32; 4]) -> Operand {
        Operand::per_lane([v; 4])
    }

    /// Different values per lane.
    pub fn per_lane(lanes: [[u32; 4]; 4]) -> Operand {
        Operand {
            lanes,
            negate: false,
            absolute: false,
            swizzle: [0, 1, 2, 3],
            ext_swizzle: None,
        }
    }
}

/// One test vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Vector {
    /// The opcode under test.
    pub opcode: Opcode,
    /// The class of values it exercises, for the coverage report.
    pub class: Class,
    /// What the vector shows, for failure messages.
    pub note: &'static str,
    /// The instruction's saturate mode (`_SAT` vectors check the clamp).
    pub saturate: Saturate,
    /// MODULATE destination scale, applied before saturate.
    pub modulate: Modulate,
    /// How the harness builds the program around the opcode.
    pub shape: Shape,
    /// The source operands: values per lane and their modifiers.
    pub src: Vec<Operand>,
    /// Per destination, `[lane][component]`.
    pub expect: Vec<[[Check; 4]; 4]>,
    /// For [`Shape::Kill`]: which lanes must be killed.
    pub expect_killed: [bool; 4],
}

impl Vector {
    /// A vector with no sources and no expectations yet.
    pub fn new(opcode: Opcode, class: Class, note: &'static str) -> Vector {
        Vector {
            opcode,
            class,
            note,
            saturate: Saturate::None,
            modulate: Modulate::X1,
            shape: Shape::Alu,
            src: Vec::new(),
            expect: Vec::new(),
            expect_killed: [false; 4],
        }
    }

    /// Adds a source with the same bits in every lane.
    pub fn src(mut self, v: [u32; 4]) -> Vector {
        self.src.push(Operand::uniform(v));
        self
    }

    /// Adds a source with bits per lane.
    pub fn src_lanes(mut self, lanes: [[u32; 4]; 4]) -> Vector {
        self.src.push(Operand::per_lane(lanes));
        self
    }

    /// Negates the most recently added source.
    pub fn negate(mut self) -> Vector {
        if let Some(s) = self.src.last_mut() {
            s.negate = true;
        }
        self
    }

    /// Takes the absolute value of the most recently added source.
    pub fn abs(mut self) -> Vector {
        if let Some(s) = self.src.last_mut() {
            s.absolute = true;
        }
        self
    }

    /// Sets the simple swizzle of the most recently added source.
    pub fn swizzle(mut self, swz: [u8; 4]) -> Vector {
        if let Some(s) = self.src.last_mut() {
            s.swizzle = swz;
        }
        self
    }

    /// Sets the extended swizzle of the most recently added source.
    pub fn ext_swizzle(mut self, e: ExtSwizzle) -> Vector {
        if let Some(s) = self.src.last_mut() {
            s.ext_swizzle = Some(e);
        }
        self
    }

    /// Sets the saturate mode.
    pub fn sat(mut self, s: Saturate) -> Vector {
        self.saturate = s;
        self
    }

    /// Sets the MODULATE scale of the destination.
    pub fn modulate(mut self, m: Modulate) -> Vector {
        self.modulate = m;
        self
    }

    /// Sets the program shape.
    pub fn shape(mut self, s: Shape) -> Vector {
        self.shape = s;
        self
    }

    /// Adds a destination expectation, the same in every lane.
    pub fn expect(mut self, c: [Check; 4]) -> Vector {
        self.expect.push([c; 4]);
        self
    }

    /// Adds a destination expectation of exact bits, the same in every lane.
    pub fn bits(self, v: [u32; 4]) -> Vector {
        self.expect(v.map(Check::Bits))
    }

    /// Adds a destination expectation per lane.
    pub fn expect_lanes(mut self, c: [[Check; 4]; 4]) -> Vector {
        self.expect.push(c);
        self
    }

    /// Sets the lanes a kill vector must kill.
    pub fn killed(mut self, k: [bool; 4]) -> Vector {
        self.expect_killed = k;
        self
    }
}

/// Every vector, for every covered opcode.
pub fn all_vectors() -> Vec<Vector> {
    let mut v = Vec::new();
    v.extend(float_arith::vectors());
    v.extend(dot_matrix::vectors());
    v.extend(float_integral::vectors());
    v.extend(float_special::vectors());
    v.extend(fragment::vectors());
    v.extend(float_approx::vectors());
    v.extend(compare_select::vectors());
    v.extend(integer::vectors());
    v.extend(later_integer::vectors());
    v.extend(address::vectors());
    v.extend(pack::vectors());
    v.extend(double::vectors());
    v.extend(texture::vectors());
    v
}

// Short names for the bit patterns the families use.
/// +0.0
pub(crate) const PZ: u32 = 0x0000_0000;
/// -0.0
pub(crate) const NZ: u32 = 0x8000_0000;
/// +inf
pub(crate) const PINF: u32 = 0x7F80_0000;
/// -inf
pub(crate) const NINF: u32 = 0xFF80_0000;
/// The canonical NaN.
pub(crate) const QNAN: u32 = oracle::NAN;
/// A negative NaN with a payload (must come out canonical from arithmetic).
pub(crate) const XNAN: u32 = 0xFFC0_0001;
/// A signalling NaN (must come out canonical from arithmetic).
pub(crate) const SNAN: u32 = 0x7F80_0001;
/// The smallest positive subnormal.
pub(crate) const SUB: u32 = 0x0000_0001;
/// The largest negative subnormal magnitude.
pub(crate) const NSUB: u32 = 0x807F_FFFF;
/// The smallest positive normal, 2^-126.
pub(crate) const MINN: u32 = 0x0080_0000;
/// The largest finite binary32.
pub(crate) const MAXF: u32 = 0x7F7F_FFFF;
/// 1.0
pub(crate) const ONE: u32 = 0x3F80_0000;

/// Bits of four floats.
pub(crate) fn fl(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// The same bits in all four components.
pub(crate) fn x4(v: u32) -> [u32; 4] {
    [v; 4]
}
