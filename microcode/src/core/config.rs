//! The ONE configuration value of the shader core: limits and feature flags shared by the compiler,
//! the core model, the loader and the hardware. The image records it (in [`CoreConfig::to_bytes`]
//! form) so that a loader can refuse an image built for a different core.

use thiserror::Error;

/// Number of entries in the literal set (the operand index of the literal file is 4 bits).
pub const LITERALS: usize = 16;

/// PUSHA / POPA entries (vec4) per lane of the board's address stack: it lives in the block RAM
/// pair of the multiply-add's addend delay line, which leaves 15 entries of each lane free
/// (`hdl::shader_core`).
pub const ADDRESS_STACK_ENTRIES: u16 = 15;

/// Size of [`CoreConfig::to_bytes`].
pub const CONFIG_BYTES: usize = 2 * 8 + 4 + 4 + 4 * LITERALS;

/// Feature parameters and limits of one core build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreConfig {
    /// Instruction memory, in core instructions.
    pub program_size: u16,
    /// Per-lane register file R, in vec4 registers.
    pub registers: u16,
    /// Shared constant file K, in vec4 registers.
    pub constants: u16,
    /// Depth of the execution-mask stack (open IF blocks and loops).
    pub mask_stack_depth: u16,
    /// Depth of the call stack (CAL).
    pub call_stack_depth: u16,
    /// Texture memory, in texels.
    pub texture_texels: u16,
    /// Number of per-lane predicate vectors (P registers).
    pub predicates: u16,
    /// Depth of the per-lane address stack (PUSHA / POPA), in vec4 entries.
    pub address_stack_depth: u16,
    /// Which optional units exist ([`Features`] bits).
    pub features: u32,
    /// Read-to-writeback latency of the pipeline in clocks (at most 13: see the ISA's cycle model).
    pub latency: u32,
    /// Values of the literal file L, as binary32 bits (`L[i]`).
    pub literals: [u32; LITERALS],
}

/// Feature bits of [`CoreConfig::features`].
pub struct Features;

impl Features {
    /// RCP, DIV and IMOD are native operations of the core: only the core model has them (no
    /// hardware builds the iterative divider); without the bit the compiler writes DIV, RCP
    /// and the divisions of TXP, CUBE, RFL and ExtDivide as multiply-add sequences and MOD as
    /// an integer ALU sequence (`compile/div.rs`), bit-exact with the divider.
    pub const DIVIDER: u32 = 1;
    /// The texture unit exists.
    pub const TEXTURE: u32 = 2;
    /// The integer ALU exists.
    pub const INTEGER: u32 = 4;
    /// The transcendental step unit (`Seq`: the bit operations and tables of the RSQ, EX2, LG2,
    /// SIN/COS sequences) exists.
    pub const TRANSCENDENTAL: u32 = 8;
    /// The per-lane address stack of PUSHA / POPA exists.
    pub const ADDRESS_STACK: u32 = 16;

    /// Every optional unit with the name the tools print for it.
    pub const UNITS: [(u32, &'static str); 5] = [
        (Features::TRANSCENDENTAL, "transcendental steps"),
        (Features::ADDRESS_STACK, "address stack"),
        (Features::TEXTURE, "texture unit"),
        (Features::DIVIDER, "divider"),
        (Features::INTEGER, "integer ALU"),
    ];

    /// The names of the units among `bits`, joined with "or" ("the divider", "the integer ALU
    /// or the transcendental steps"); empty for no unit.
    pub fn names(bits: u32) -> String {
        let names: Vec<String> = Features::UNITS
            .iter()
            .filter(|(bit, _)| bits & bit != 0)
            .map(|(_, name)| format!("the {name}"))
            .collect();
        names.join(" or ")
    }
}

/// The literal set of the board build: 0, 1, 0.5, 2, 4, 8, 0.25, 0.125, 128, 3, 255, 0.75, 1.5,
/// integer -1, 2^-64, 2^64 (signs come from the operand's negate bits).
pub const BOARD_LITERALS: [u32; LITERALS] = [
    0x0000_0000, // 0.0
    0x3F80_0000, // 1.0
    0x3F00_0000, // 0.5
    0x4000_0000, // 2.0
    0x4080_0000, // 4.0
    0x4100_0000, // 8.0
    0x3E80_0000, // 0.25
    0x3E00_0000, // 0.125
    0x4300_0000, // 128.0
    0x4040_0000, // 3.0
    0x437F_0000, // 255.0
    0x3F40_0000, // 0.75
    0x3FC0_0000, // 1.5
    0xFFFF_FFFF, // integer -1 (ENDFOR's count); never read as a float
    0x1F80_0000, // 2^-64
    0x5F80_0000, // 2^64
];

impl Default for CoreConfig {
    /// The board build (Alchitry Cu, iCE40 HX8K), what `tgsi-core synth` builds and `emulate`
    /// emulates: every optional unit but the divider (RCP, DIV, MOD and the divisions of TXP
    /// and CUBE are multiply-add and integer sequences), 256 texels of texture memory and a
    /// 4-frame mask stack; see ARCHITECTURE.md "The shader core".
    fn default() -> Self {
        CoreConfig {
            program_size: 256,
            registers: 16,
            constants: 64,
            mask_stack_depth: 4,
            call_stack_depth: 8,
            texture_texels: 256,
            predicates: 1,
            address_stack_depth: ADDRESS_STACK_ENTRIES,
            features: Features::TEXTURE
                | Features::INTEGER
                | Features::TRANSCENDENTAL
                | Features::ADDRESS_STACK,
            latency: 13,
            literals: BOARD_LITERALS,
        }
    }
}

impl CoreConfig {
    /// The board build, [`CoreConfig::default`] (the name `synth --minimal` and
    /// `emulate --minimal` keep from when the build that fitted left units out).
    pub fn minimal() -> CoreConfig {
        CoreConfig::default()
    }

    /// The board build with the larger memories it cannot hold (`synth --full`, for
    /// measuring them): 512 texels and an 8-frame mask stack.
    pub fn full() -> CoreConfig {
        CoreConfig {
            texture_texels: 512,
            mask_stack_depth: 8,
            ..CoreConfig::default()
        }
    }
}

/// A config that cannot be read back from bytes.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// Fewer bytes than a serialised config ([`CONFIG_BYTES`]): an image or INFO answer cut
    /// short.
    #[error("config needs {need} bytes, got {got}")]
    Truncated {
        /// Bytes a config takes.
        need: usize,
        /// Bytes there were.
        got: usize,
    },
    /// The latency field is above 13: a pipeline that deep would need hazard logic the core
    /// does not have, so no core can be built with it.
    #[error("config latency {0} exceeds 13 (the hazard-free limit of a 16-slot issue)")]
    Latency(u32),
}

impl CoreConfig {
    /// True when the feature bit is set.
    pub fn has(&self, feature: u32) -> bool {
        self.features & feature != 0
    }

    /// The ISA hash: the CRC-32 of [`CoreConfig::to_bytes`]. A board reports it in INFO and an
    /// upload names it, so an image for another core is refused.
    pub fn isa_hash(&self) -> u32 {
        crc32fast::hash(&self.to_bytes())
    }

    /// Little-endian fixed layout of [`CONFIG_BYTES`] bytes, in field order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(CONFIG_BYTES);
        for x in [
            self.program_size,
            self.registers,
            self.constants,
            self.mask_stack_depth,
            self.call_stack_depth,
            self.texture_texels,
            self.predicates,
            self.address_stack_depth,
        ] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v.extend_from_slice(&self.features.to_le_bytes());
        v.extend_from_slice(&self.latency.to_le_bytes());
        for l in self.literals {
            v.extend_from_slice(&l.to_le_bytes());
        }
        v
    }

    /// Reads [`CoreConfig::to_bytes`] back.
    pub fn from_bytes(b: &[u8]) -> Result<CoreConfig, ConfigError> {
        if b.len() < CONFIG_BYTES {
            return Err(ConfigError::Truncated {
                need: CONFIG_BYTES,
                got: b.len(),
            });
        }
        let h = |i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
        let w = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let mut literals = [0; LITERALS];
        for (i, l) in literals.iter_mut().enumerate() {
            *l = w(24 + 4 * i);
        }
        let c = CoreConfig {
            program_size: h(0),
            registers: h(1),
            constants: h(2),
            mask_stack_depth: h(3),
            call_stack_depth: h(4),
            texture_texels: h(5),
            predicates: h(6),
            address_stack_depth: h(7),
            features: w(16),
            latency: w(20),
            literals,
        };
        if c.latency > 13 {
            return Err(ConfigError::Latency(c.latency));
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        let mut literals = BOARD_LITERALS;
        literals[15] = 0x1234_5678;
        let c = CoreConfig {
            registers: 32,
            literals,
            ..CoreConfig::default()
        };
        let b = c.to_bytes();
        assert_eq!(b.len(), CONFIG_BYTES);
        assert_eq!(CoreConfig::from_bytes(&b), Ok(c));
        assert_eq!(
            CoreConfig::from_bytes(&b[..10]),
            Err(ConfigError::Truncated {
                need: CONFIG_BYTES,
                got: 10
            })
        );
    }
}
