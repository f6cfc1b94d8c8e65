//! The boards: the chips (pads and PLLs), the one-core and multi-core board tops, the core mux and the RENDER dispatcher of the multi-core boards.

pub mod board_chip;
pub mod board_status;
pub mod board_top;
pub mod core_mux;
pub mod ecp5_pll;
pub mod multi_board_top;
pub mod quad_dispatcher;
pub mod ulx3s_chip;
