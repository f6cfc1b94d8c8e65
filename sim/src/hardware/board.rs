//! The board's device side: what the on-chip loader is in the protocol's terms and the board top
//! built for a core (both in `hdl`, next to the hardware: [`hdl::loader::device_config`],
//! [`hdl::board_top::build`], [`hdl::board_chip::files`]; re-exported here under the names the
//! engines and tests use), and what the loader uploads for an image with its textures.

pub use hdl::board_chip::{files as board_chip_files, verilog as board_chip_verilog};
pub use hdl::board_top::{build as board_top, verilog as board_verilog, BoardError};
pub use hdl::loader::{
    device_config as loader_device_config, for_device as loader, info_record, CORE_VERSION,
};

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
