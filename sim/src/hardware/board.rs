//! The board's device side in hardware: what the on-chip loader (`hdl::loader::Loader`) is, in the
//! protocol's terms ([`loader_device_config`], [`info_record`]), so that the host tools, the
//! emulator and the tests describe the same device the HDL builds.

use firmware_loader::device::DeviceConfig;
use firmware_loader::frame::MAX_PAYLOAD;
use firmware_loader::protocol::{Info, Limits, PROTOCOL_VERSION, SUPPORTED_BAUDS};
use hdl::loader::{layout, INFO_BYTES};
use microcode::core::config::Features;
use microcode::core::CoreConfig;

/// Core version the board reports in INFO.
pub const CORE_VERSION: (u16, u16) = (1, 0);

/// The device the on-chip loader implements for a core built for `core`, clocked at `clock_hz`,
/// with its line rate fixed at `baud`.
pub fn loader_device_config(core: &CoreConfig, clock_hz: u32, baud: u32) -> DeviceConfig {
    let bauds: &'static [u32] = match SUPPORTED_BAUDS.iter().position(|&b| b == baud) {
        Some(i) => &SUPPORTED_BAUDS[i..=i],
        // A non-standard rate (an emulator's): one small allocation per configuration.
        None => Box::leak(Box::new([baud])),
    };
    DeviceConfig {
        core_version: CORE_VERSION,
        isa_hash: crc32fast::hash(&core.to_bytes()),
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
    }
}

/// The INFO record the loader's ROM holds for `cfg`.
pub fn info_record(cfg: &DeviceConfig) -> [u8; INFO_BYTES] {
    let info = Info {
        protocol: PROTOCOL_VERSION,
        core_version: cfg.core_version,
        isa_hash: cfg.isa_hash,
        features: cfg.features,
        clock_hz: cfg.clock_hz,
        baud: cfg.baud,
        limits: cfg.limits,
    };
    let mut out = [0u8; INFO_BYTES];
    let bytes = info.to_bytes();
    out.copy_from_slice(&bytes[..INFO_BYTES]);
    out
}

/// The on-chip loader for `cfg` (its INFO record, which carries the ISA hash, line rate and
/// region sizes the firmware checks against).
pub fn loader(cfg: &DeviceConfig) -> hdl::loader::Loader {
    hdl::loader::Loader::new(&info_record(cfg))
}

/// What the board's loader uploads for `image`: its regions, with the textures `inputs` binds
/// in TEXTURES and their sampler descriptors in CONSTANTS, and a geometry program's inputs
/// (`inputs.geometry_inputs`, `IN[vertex][index]`, which the core reads from K) in CONSTANTS.
/// Both are image data on the board (the COMMIT checksum covers them), so other textures or
/// other geometry inputs make another upload.
pub fn upload_file(
    image: &microcode::core::Image,
    inputs: &crate::run_io::RunInputs,
) -> Result<firmware_loader::image::ImageFile, super::HwError> {
    let mut file = firmware_loader::image::ImageFile::from_image(image);
    if !file.texture_slots.is_empty() {
        let words = super::texture_words(image, inputs)?;
        let mut texels = vec![0u32; words.iter().map(|w| w.0 as usize + 1).max().unwrap_or(0)];
        for (addr, w) in words {
            texels[addr as usize] = w;
        }
        // The descriptors every engine starts from (`core_model::initial_state`).
        let k = crate::core_model::initial_state(image, inputs).1;
        let descriptors: Vec<(u16, [u32; 4])> = file
            .texture_slots
            .iter()
            .map(|&(slot, _, _)| (slot, k.get(usize::from(slot)).copied().unwrap_or([0; 4])))
            .collect();
        file.bind_textures(&texels, &descriptors);
    }
    if !file.geometry_slots.is_empty() {
        file.bind_geometry_inputs(&|vertex, index| {
            inputs
                .geometry_inputs
                .get(&(u32::from(vertex), u32::from(index)))
                .copied()
                .unwrap_or([0; 4])
        });
    }
    Ok(file)
}

/// Why a board top level cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    /// The line rate cannot be made from the clock.
    #[error("{baud} baud at {clock_hz} Hz: {source}")]
    Baud {
        baud: u32,
        clock_hz: u32,
        source: hdl::baud::BaudError,
    },
    /// rust-hdl's structural checks refused the design.
    #[error("the board top does not check: {0}")]
    Check(String),
}

/// The board's top level (core for `core`, loader, UART at `baud` from a `clock_hz` clock),
/// connected and checked, with the device it implements.
pub fn board_top(
    core: &CoreConfig,
    clock_hz: u32,
    baud: u32,
) -> Result<(hdl::board_top::BoardTop, DeviceConfig), BoardError> {
    let divisor = hdl::baud::BaudDivisor::for_rate(u64::from(clock_hz), u64::from(baud)).map_err(
        |source| BoardError::Baud {
            baud,
            clock_hz,
            source,
        },
    )?;
    let cfg = loader_device_config(core, clock_hz, baud);
    let mut top = hdl::board_top::BoardTop::new(core, loader(&cfg), divisor);
    use rust_hdl::prelude::Block;
    top.connect_all();
    rust_hdl::core::check_error::check_all(&top)
        .map_err(|e| BoardError::Check(format!("{e:?}")))?;
    Ok((top, cfg))
}

/// The Verilog of [`board_top`] (module `top`), as Verilator and the netlist tests read it.
pub fn board_verilog(core: &CoreConfig, clock_hz: u32, baud: u32) -> Result<String, BoardError> {
    let (top, _) = board_top(core, clock_hz, baud)?;
    Ok(rust_hdl::prelude::generate_verilog(&top))
}

/// The Verilog synthesis reads (module `top`): [`hdl::board_chip::BoardChip`], the PLL and the
/// board top built for the PLL's clock ([`hdl::board_chip::CORE_CLOCK_HZ`]), whose blocks are
/// below the instance `board`.
pub fn board_chip_verilog(core: &CoreConfig, baud: u32) -> Result<String, BoardError> {
    Ok(board_chip_files(core, baud)?.0)
}

/// [`board_chip_verilog`] and the chip's pin constraints ([`hdl::board_chip::BoardChip::pcf`]).
pub fn board_chip_files(core: &CoreConfig, baud: u32) -> Result<(String, String), BoardError> {
    let (top, _) = board_top(core, hdl::board_chip::CORE_CLOCK_HZ as u32, baud)?;
    let mut chip = hdl::board_chip::BoardChip::new(top);
    use rust_hdl::prelude::Block;
    chip.connect_all();
    rust_hdl::core::check_error::check_all(&chip)
        .map_err(|e| BoardError::Check(format!("{e:?}")))?;
    Ok((rust_hdl::prelude::generate_verilog(&chip), chip.pcf()))
}
