//! The board's device side: what the on-chip loader is in the protocol's terms and the board top
//! built for a board, a core and a core count (in `hdl`, next to the hardware:
//! [`hdl::loader::device_config`], [`hdl::board_top::build`] for the one-core board,
//! [`hdl::multi_board_top::build`] for the ECP5 boards' several cores, [`hdl::board_chip::files`];
//! re-exported here under the names the engines and tests use), and what the loader uploads for
//! an image with its textures.

pub use hdl::board_chip::{files as board_chip_files, verilog as board_chip_verilog};
pub use hdl::board_top::{BoardError, BoardTop};
pub use hdl::loader::{
    device_config as loader_device_config, for_device as loader, info_record, CORE_VERSION,
};
pub use hdl::multi_board_top::MultiBoardTop;
use microcode::board::{Board, Family};
use microcode::core::CoreConfig;
use microcode::protocol::DeviceConfig;
use rust_hdl::prelude::*;

/// What a board's build holds: the board (its FPGA family picks the top level: the iCE40's
/// [`BoardTop`] with one core, the ECP5's [`MultiBoardTop`] with `cores`), the core
/// configuration and the number of cores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardBuild {
    /// The board.
    pub board: Board,
    /// Each core's configuration.
    pub core: CoreConfig,
    /// Shader cores behind the loader.
    pub cores: u16,
}

impl BoardBuild {
    /// `board`'s own build (its core configuration) with `cores` cores.
    pub fn new(board: Board, cores: u16) -> BoardBuild {
        BoardBuild {
            board,
            core: board.core_config(),
            cores,
        }
    }

    /// The Alchitry Cu's top level with one core built for `core` (what `synth` builds with
    /// `--no-*` options, and the tests' builds).
    pub fn alchitry(core: &CoreConfig) -> BoardBuild {
        BoardBuild {
            board: Board::AlchitryCu,
            core: core.clone(),
            cores: 1,
        }
    }

    /// Whether the top level is the multi-core one (the ECP5 boards).
    pub fn multi(&self) -> bool {
        self.board.family() == Family::Ecp5
    }

    /// The device the build's loader implements at `clock_hz` and `baud`.
    pub fn device(&self, clock_hz: u32, baud: u32) -> DeviceConfig {
        loader_device_config(self.board, self.cores, &self.core, clock_hz, baud)
    }

    /// The top level's Verilog (module `top`) at `clock_hz` and `baud`.
    pub fn verilog(&self, clock_hz: u32, baud: u32) -> Result<String, BoardError> {
        if self.multi() {
            hdl::multi_board_top::verilog(self.board, &self.core, self.cores, clock_hz, baud)
        } else if self.cores != 1 {
            Err(BoardError::Check(format!(
                "the {} builds one core, not {}",
                self.board, self.cores
            )))
        } else {
            hdl::board_top::verilog(self.board, &self.core, clock_hz, baud)
        }
    }

    /// The top level for rust-hdl's simulation, with the device it implements.
    pub fn top(
        &self,
        clock_hz: u32,
        baud: u32,
    ) -> Result<(Box<dyn EmulatedTop + Send>, DeviceConfig), BoardError> {
        if self.multi() {
            let (t, d) =
                hdl::multi_board_top::build(self.board, &self.core, self.cores, clock_hz, baud)?;
            Ok((Box::new(t), d))
        } else {
            let (t, d) = hdl::board_top::build(self.board, &self.core, clock_hz, baud)?;
            Ok((Box::new(t), d))
        }
    }
}

/// A board top level's pins, for driving it in rust-hdl's simulation.
pub trait EmulatedTop {
    /// Drives the clock, the UART's receive pin and the reset button (not pressed) for the
    /// next step, and simulates; false when the simulation fails.
    fn step(&mut self, clock: bool, rx: bool) -> bool;
    /// The UART's transmit pin.
    fn tx(&self) -> bool;
    /// The loader is working or answering (LED 5).
    fn busy(&self) -> bool;
}

macro_rules! emulated_top {
    ($t:ty) => {
        impl EmulatedTop for $t {
            fn step(&mut self, clock: bool, rx: bool) -> bool {
                self.reset_n.next = true;
                self.rx.next = rx;
                self.clock.next = clock.into();
                simulate(self, 100)
            }
            fn tx(&self) -> bool {
                self.tx.val()
            }
            fn busy(&self) -> bool {
                self.leds.val().get_bit(5)
            }
        }
    };
}
emulated_top!(BoardTop);
emulated_top!(MultiBoardTop);

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
