//! The protocol's on-chip side: the loader (a byte-serial processor), its instruction set, firmware and memory layout, the frame receiver and the CRC units.

pub mod crc32;
pub mod crc32_serial;
pub mod frame_rx;
pub mod loader;
pub mod loader_device;
pub mod loader_firmware;
pub mod loader_isa;
pub mod loader_layout;
