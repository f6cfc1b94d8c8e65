//! The loader memory's layout: where the on-chip loader ([`crate::loader::Loader`]) keeps the
//! frame buffer, the protocol's regions, the firmware's variables and the INFO record, and the
//! region sizes its INFO record announces. The loader, its firmware
//! ([`crate::loader_firmware`]) and the assembler ([`crate::loader_isa::Asm`]) read these; this
//! file depends on none of them, so their imports flow one way (layout <- ISA <- firmware <-
//! loader).
/// PROGRAM: 256 instructions of 16 bytes (the core's instruction memory).
pub const PROGRAM: u32 = 4096;
/// CONSTANTS: 64 slots of 16 bytes (the core's K memory).
pub const CONSTANTS: u32 = 1024;
/// TEXTURES: the texture unit's memory, at most 512 RGBA8 texels of 4 bytes (a build's
/// region is its `texture_texels` times 4, 0 without the unit).
pub const TEXTURES: u32 = 2048;
/// INPUTS region size (six input registers of a quad: 6 x 4 lanes x 16 bytes); base in the
/// loader memory [`INPUTS_BASE`].
pub const INPUTS: u32 = 384;
/// OUTPUTS region size (six output registers of a quad).
pub const OUTPUTS: u32 = 384;
/// PARAMS: 10 K slots of run-time constants (an image whose CONST slots reach further gets
/// its CONST values in CONSTANTS from the host, `ImageFile::bind_buffer_constants`).
pub const PARAMS: u32 = 160;
/// MAPS region size: the 8-byte header and 22 entries (six inputs, six outputs and the ten
/// PARAMS slots).
pub const MAPS: u32 = 96;
/// Most quads per RUN (RESULTS holds one 8-byte record each).
pub const MAX_QUADS: u16 = 8;
/// Largest payload (`microcode::protocol::MAX_PAYLOAD`).
pub const MAX_PAYLOAD: u16 = microcode::protocol::MAX_PAYLOAD as u16;
/// Loader-memory base of RESULTS (the frame buffer is at 0).
pub const RESULTS_BASE: u32 = 0x110;
/// Loader-memory base of MAPS.
pub const MAPS_BASE: u32 = 0x150;
/// Loader-memory base of the firmware's variables (32 bits each,
/// [`VARS`] of them).
pub const VARS_BASE: u32 = 0x1B0;
/// Loader-memory base of the INFO record (`microcode::protocol::INFO_RECORD_BYTES`: initial
/// contents of the memory, never written; 2 more than a multiple of 4, so that its u32 fields
/// from byte 10 on are aligned words). The board, core count and core configuration INFO sends
/// after the record are firmware tables.
pub const INFO_BASE: u32 = 0x21E;
/// Loader-memory address of a u32 holding the RESULTS region's size (initial contents after
/// the INFO record, never written: READ's limit, as the record's sizes are the others').
pub const RESULTS_SIZE_WORD: u32 = 0x258;
/// Loader-memory base of PARAMS.
pub const PARAMS_BASE: u32 = 0x260;
/// Loader-memory base of INPUTS.
pub const INPUTS_BASE: u32 = 0x300;
/// Loader-memory base of OUTPUTS (ends at the memory's end, [`MEMORY`]).
pub const OUTPUTS_BASE: u32 = 0x480;
/// Bytes of loader memory: three 512 x 8 block RAMs.
pub const MEMORY: u32 = 0x600;
/// Variables available to the firmware (32 bits each, from [`VARS_BASE`]; `LDV v` and `STV v`
/// are `LDW` and `STW` of their address).
pub const VARS: usize = 27;

#[cfg(test)]
mod tests {
    use super::*;
    use microcode::protocol::INFO_RECORD_BYTES;

    #[test]
    fn the_regions_tile_the_loader_memory() {
        // The frame buffer (header and largest payload) at 0, then each region in address order.
        let regions = [
            (0, u32::from(MAX_PAYLOAD) + 16),
            (RESULTS_BASE, u32::from(MAX_QUADS) * 8),
            (MAPS_BASE, MAPS),
            (VARS_BASE, 4 * VARS as u32),
            (INFO_BASE, INFO_RECORD_BYTES as u32),
            (RESULTS_SIZE_WORD, 4),
            (PARAMS_BASE, PARAMS),
            (INPUTS_BASE, INPUTS),
            (OUTPUTS_BASE, OUTPUTS),
        ];
        for w in regions.windows(2) {
            assert!(
                w[0].0 + w[0].1 <= w[1].0,
                "{:x?} overlaps {:x?}",
                w[0],
                w[1]
            );
        }
        let (base, size) = regions[regions.len() - 1];
        assert!(base + size <= MEMORY);
        // Three 512 x 8 block RAMs.
        assert_eq!(MEMORY, 3 * 512);
    }
}
