//! The device the on-chip loader implements, in the protocol's terms (`microcode::protocol`):
//! its `DeviceConfig` (version, ISA hash, line rate, region sizes, board and cores) and INFO's
//! answer, which the host tools, the emulator and the tests describe it by, and whose record the
//! loader's memory holds ([`crate::loader::for_device`]).
use crate::loader_layout as layout;
use microcode::core::config::Features;
use microcode::core::CoreConfig;
use microcode::protocol::{
    DeviceConfig, Info, Limits, INFO_RECORD_BYTES, MAX_PAYLOAD, PROTOCOL_VERSION, SUPPORTED_BAUDS,
};

/// Core version the board reports in INFO.
pub const CORE_VERSION: (u16, u16) = (1, 0);

/// The device the on-chip loader implements for `cores` cores built for `core` on `board`,
/// clocked at `clock_hz`, with its line rate fixed at `baud`.
pub fn device_config(
    board: microcode::board::Board,
    cores: u16,
    core: &CoreConfig,
    clock_hz: u32,
    baud: u32,
) -> DeviceConfig {
    let bauds: &'static [u32] = match SUPPORTED_BAUDS.iter().position(|&b| b == baud) {
        Some(i) => &SUPPORTED_BAUDS[i..=i],
        // A non-standard rate (an emulator's): one small allocation per configuration.
        None => Box::leak(Box::new([baud])),
    };
    let mut cfg = DeviceConfig {
        core_version: CORE_VERSION,
        isa_hash: core.isa_hash(),
        features: core.features,
        clock_hz,
        baud,
        bauds,
        limits: Limits {
            program: layout::PROGRAM,
            constants: layout::CONSTANTS,
            // The region is the texture unit's memory: a build without the unit has none.
            textures: if core.has(Features::TEXTURE) {
                u32::from(core.texture_texels).min(layout::TEXTURES / 4) * 4
            } else {
                0
            },
            inputs: layout::INPUTS,
            outputs: layout::OUTPUTS,
            params: layout::PARAMS,
            maps: layout::MAPS,
            max_quads: layout::MAX_QUADS,
            max_payload: (MAX_PAYLOAD as u16).min(layout::MAX_PAYLOAD),
        },
        board: 0,
        cores: 1,
        config: [0; microcode::core::config::CONFIG_BYTES],
    };
    cfg = cfg.with_cores(board.id(), cores, core);
    cfg
}

/// INFO's whole answer for `cfg` (the record the loader memory holds, then the board, core
/// count and configuration the firmware sends from its tables).
pub fn info_bytes(cfg: &DeviceConfig) -> Vec<u8> {
    Info {
        protocol: PROTOCOL_VERSION,
        core_version: cfg.core_version,
        isa_hash: cfg.isa_hash,
        features: cfg.features,
        clock_hz: cfg.clock_hz,
        baud: cfg.baud,
        limits: cfg.limits,
        board: cfg.board,
        cores: cfg.cores,
        config: cfg.config,
    }
    .to_bytes()
}

/// The INFO record the loader's memory holds for `cfg` (INFO's first
/// [`INFO_RECORD_BYTES`]).
pub fn info_record(cfg: &DeviceConfig) -> [u8; INFO_RECORD_BYTES] {
    let mut out = [0u8; INFO_RECORD_BYTES];
    out.copy_from_slice(&info_bytes(cfg)[..INFO_RECORD_BYTES]);
    out
}
