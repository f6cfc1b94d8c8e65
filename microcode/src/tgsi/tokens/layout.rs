//! Token type numbers and bit positions (the 004 document, `tgsi-reference.md` and
//! `decisions.md` section 5), shared by the encoder and the decoder so that each fact lives once.

/// The only major version this crate reads.
pub const MAJOR: u32 = 1;
/// Minor version of streams that use nothing beyond the 004 document.
pub const MINOR_V11: u32 = 1;
/// Minor version of streams that use a `decisions.md` section 5 addition; the newest we know.
pub const MINOR_V12: u32 = 2;
/// HeaderSize of every stream we write: the HEADER and the PROCESSOR token.
pub const HEADER_SIZE: u32 = 2;

/// Sized token types (bits 0-3).
pub const TOKEN_DECLARATION: u32 = 0;
pub const TOKEN_IMMEDIATE: u32 = 1;
pub const TOKEN_INSTRUCTION: u32 = 2;
/// Version 1.2.
pub const TOKEN_PROPERTY: u32 = 3;

/// INSTRUCTION extension token types.
pub const INST_EXT_NV: u32 = 0;
pub const INST_EXT_LABEL: u32 = 1;
pub const INST_EXT_TEXTURE: u32 = 2;

/// SRC_REGISTER extension token types.
pub const SRC_EXT_SWZ: u32 = 0;
pub const SRC_EXT_MOD: u32 = 1;

/// DST_REGISTER extension token types.
pub const DST_EXT_CONDCODE: u32 = 0;
pub const DST_EXT_MODULATE: u32 = 1;

/// DECLARATION Declare values.
pub const DECLARE_RANGE: u32 = 0;
pub const DECLARE_MASK: u32 = 1;

/// The Extended bit of every token that has one.
pub const EXTENDED: u32 = 1 << 31;

/// A bit field of a token: `width` bits starting at bit `lo`.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub lo: u32,
    pub width: u32,
}

impl Field {
    const fn new(lo: u32, width: u32) -> Field {
        Field { lo, width }
    }

    fn mask(self) -> u32 {
        if self.width >= 32 {
            u32::MAX
        } else {
            (1u32 << self.width) - 1
        }
    }

    /// The field's value in `word`.
    pub fn get(self, word: u32) -> u32 {
        (word >> self.lo) & self.mask()
    }

    /// The field's value read as a two's complement number of `width` bits.
    pub fn get_signed(self, word: u32) -> i32 {
        let shift = 32 - self.width;
        ((self.get(word) << shift) as i32) >> shift
    }

    /// `value` placed in the field; bits that do not fit are dropped (the validator keeps valid
    /// programs inside every field).
    pub fn put(self, value: u32) -> u32 {
        (value & self.mask()) << self.lo
    }

    /// A signed value placed in the field (two's complement, truncated to the width).
    pub fn put_signed(self, value: i32) -> u32 {
        self.put(value as u32)
    }

    /// A flag placed in a one-bit field.
    pub fn flag(self, on: bool) -> u32 {
        self.put(u32::from(on))
    }
}

/// Bits 0-3 of every typed token.
pub const TYPE: Field = Field::new(0, 4);
/// Bits 4-11 of every sized token.
pub const SIZE: Field = Field::new(4, 8);

pub const VERSION_MAJOR: Field = Field::new(0, 8);
pub const VERSION_MINOR: Field = Field::new(8, 8);
pub const VERSION_PADDING: Field = Field::new(16, 16);
pub const HEADER_HEADER_SIZE: Field = Field::new(0, 8);
pub const HEADER_BODY_SIZE: Field = Field::new(8, 24);
pub const PROCESSOR: Field = Field::new(0, 4);

pub const DECL_FILE: Field = Field::new(12, 4);
pub const DECL_DECLARE: Field = Field::new(16, 4);
pub const DECL_INTERPOLATE: Field = Field::new(20, 1);
/// Version 1.2: a SEMANTIC token follows.
pub const DECL_SEMANTIC: Field = Field::new(21, 1);
/// Version 1.2: usage mask, 0 = all four components.
pub const DECL_USAGE_MASK: Field = Field::new(22, 4);
/// Version 1.2: a declaration DIMENSION token follows.
pub const DECL_DIMENSION: Field = Field::new(26, 1);
pub const RANGE_FIRST: Field = Field::new(0, 16);
pub const RANGE_LAST: Field = Field::new(16, 16);
pub const INTERPOLATION: Field = Field::new(0, 4);
pub const DECL_DIM_INDEX: Field = Field::new(0, 16);
pub const DECL_DIM_EMPTY: Field = Field::new(16, 1);
pub const SEMANTIC_NAME: Field = Field::new(0, 8);
pub const SEMANTIC_INDEX: Field = Field::new(8, 16);

pub const IMM_DATA_TYPE: Field = Field::new(12, 4);
pub const PROPERTY_NAME: Field = Field::new(12, 8);

pub const INST_OPCODE: Field = Field::new(12, 8);
pub const INST_SATURATE: Field = Field::new(20, 2);
pub const INST_NUM_DST: Field = Field::new(22, 2);
pub const INST_NUM_SRC: Field = Field::new(24, 4);

pub const NV_PRECISION: Field = Field::new(4, 4);
pub const NV_COND_DST_INDEX: Field = Field::new(8, 4);
pub const NV_COND_FLOW_INDEX: Field = Field::new(12, 4);
pub const NV_COND_MASK: Field = Field::new(16, 4);
/// First of four 2-bit swizzle fields.
pub const NV_COND_SWIZZLE: u32 = 20;
pub const NV_COND_DST_UPDATE: Field = Field::new(28, 1);
pub const NV_COND_FLOW_ENABLE: Field = Field::new(29, 1);
pub const LABEL_LABEL: Field = Field::new(4, 24);
pub const LABEL_TARGET: Field = Field::new(28, 1);
pub const TEXTURE_TARGET: Field = Field::new(4, 8);

pub const SRC_FILE: Field = Field::new(0, 4);
/// First of four 2-bit swizzle fields.
pub const SRC_SWIZZLE: u32 = 4;
pub const SRC_NEGATE: Field = Field::new(12, 1);
pub const SRC_INDIRECT: Field = Field::new(13, 1);
pub const SRC_DIMENSION: Field = Field::new(14, 1);
pub const SRC_INDEX: Field = Field::new(15, 16);

/// First of four 4-bit selector fields.
pub const SWZ_SELECT: u32 = 4;
/// First of four 1-bit negate fields.
pub const SWZ_NEGATE: u32 = 20;
pub const SWZ_DIVIDE: Field = Field::new(24, 4);
pub const MOD_COMPLEMENT: Field = Field::new(4, 1);
pub const MOD_BIAS: Field = Field::new(5, 1);
pub const MOD_SCALE2X: Field = Field::new(6, 1);
pub const MOD_ABSOLUTE: Field = Field::new(7, 1);
pub const MOD_NEGATE: Field = Field::new(8, 1);

pub const DIM_INDIRECT: Field = Field::new(0, 1);
pub const DIM_DIMENSION: Field = Field::new(1, 1);
pub const DIM_INDEX: Field = Field::new(15, 16);

pub const DST_FILE: Field = Field::new(0, 4);
pub const DST_WRITE_MASK: Field = Field::new(4, 4);
pub const DST_INDIRECT: Field = Field::new(8, 1);
pub const DST_DIMENSION: Field = Field::new(9, 1);
pub const DST_INDEX: Field = Field::new(10, 16);
pub const CC_MASK: Field = Field::new(4, 4);
/// First of four 2-bit swizzle fields.
pub const CC_SWIZZLE: u32 = 8;
pub const CC_SRC_INDEX: Field = Field::new(16, 4);
pub const MODULATE: Field = Field::new(4, 4);

/// Four 2-bit swizzle selectors starting at bit `lo`.
pub fn put_swizzle(lo: u32, swizzle: [u8; 4]) -> u32 {
    swizzle
        .iter()
        .enumerate()
        .map(|(c, &s)| Field::new(lo + 2 * c as u32, 2).put(u32::from(s)))
        .fold(0, |a, b| a | b)
}

/// Reads four 2-bit swizzle selectors starting at bit `lo`.
pub fn get_swizzle(lo: u32, word: u32) -> [u8; 4] {
    let mut s = [0u8; 4];
    for (c, v) in s.iter_mut().enumerate() {
        *v = Field::new(lo + 2 * c as u32, 2).get(word) as u8;
    }
    s
}

/// Field `c` of four consecutive fields `width` bits wide starting at bit `lo`.
pub fn nth(lo: u32, width: u32, c: usize) -> Field {
    Field::new(lo + width * c as u32, width)
}
