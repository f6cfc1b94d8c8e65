//! A device model whose quads run on the core model, served on a pseudo-terminal: a stand-in board.
#![allow(dead_code)]

use firmware_loader::device::{
    ActiveImage, CopyRunner, Device, DeviceConfig, QuadOutcome, QuadRunner,
};
use firmware_loader::image::read_maps;
use firmware_loader::port::pty_pair;
use firmware_loader::server::{serve, ServeOptions};
use microcode::core::image::{ConstSlot, ConstSource};
use microcode::core::isa::decode;
use microcode::core::{CoreConfig, Image};
use sim::hardware::emulate::{self, EmuEngine, Emulation, EMULATED_BAUD};
use sim::run_io::RunInputs;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

fn words(b: &[u8], at: usize) -> [u32; 4] {
    let mut w = [0u32; 4];
    for (c, x) in w.iter_mut().enumerate() {
        let o = at + 4 * c;
        if let Some(s) = b.get(o..o + 4) {
            *x = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        }
    }
    w
}

/// Runs quads on `sim::core_model`, reading the image from the device's memories the way the
/// hardware core does (PROGRAM words, K from CONSTANTS or PARAMS per MAPS, register maps). A
/// geometry program runs whole: its vertices are not streamed (the core model emits them all at
/// once), so its quads never pause.
pub struct CoreRunner;

impl QuadRunner for CoreRunner {
    fn run_quad(
        &mut self,
        img: &ActiveImage<'_>,
        inputs: &[u8],
        outputs: &mut [u8],
    ) -> QuadOutcome {
        run_on_core_model(&CoreConfig::default(), img, inputs, outputs)
    }

    /// Never called: these quads do not pause.
    fn resume_quad(&mut self, _: &ActiveImage<'_>, _: &mut [u8]) -> QuadOutcome {
        QuadOutcome::default()
    }
}

/// [`CoreRunner`] for a core built with `config` (another board's units).
fn run_on_core_model(
    config: &CoreConfig,
    img: &ActiveImage<'_>,
    inputs: &[u8],
    outputs: &mut [u8],
) -> QuadOutcome {
    let fault = QuadOutcome {
        fault: sim::hardware::fault_code::BUDGET,
        ..QuadOutcome::default()
    };
    let Some((ins, outs, param_slots)) = read_maps(img.maps) else {
        return fault;
    };
    let mut code = Vec::new();
    for w in img.program.chunks_exact(16) {
        let mut b = [0u8; 16];
        b.copy_from_slice(w);
        match decode(u128::from_le_bytes(b)) {
            Ok(i) => code.push(i),
            Err(_) => return fault,
        }
    }
    let slots = (img.constants.len() / 16).max(
        param_slots
            .iter()
            .map(|&k| usize::from(k) + 1)
            .max()
            .unwrap_or(0),
    );
    let constants = (0..slots)
        .map(|k| {
            let from_params = param_slots.contains(&(k as u16));
            let src = if from_params {
                img.params
            } else {
                img.constants
            };
            ConstSlot {
                k: k as u16,
                source: ConstSource::Data(words(src, 16 * k)),
            }
        })
        .collect();
    let image = Image {
        config: config.clone(),
        processor: 0,
        origin: vec![0; code.len()],
        code,
        constants,
        inputs: ins.clone(),
        outputs: outs.clone(),
    };
    let mut run = RunInputs::default();
    for (i, m) in ins.iter().enumerate() {
        let lanes = [0, 1, 2, 3].map(|l| words(inputs, 64 * i + 16 * l));
        run.inputs.insert(u32::from(m.tgsi), lanes);
    }
    let Ok(out) = sim::core_model::run(&image, &run) else {
        return fault;
    };
    let mut kill_mask = 0;
    for (l, lane) in out.lanes.iter().enumerate() {
        kill_mask |= u8::from(lane.killed) << l;
        for (j, m) in outs.iter().enumerate() {
            let v = lane
                .outputs
                .get(&u32::from(m.tgsi))
                .copied()
                .unwrap_or([0; 4]);
            for (c, w) in v.iter().enumerate() {
                let o = 64 * j + 16 * l + 4 * c;
                if let Some(d) = outputs.get_mut(o..o + 4) {
                    d.copy_from_slice(&w.to_le_bytes());
                }
            }
        }
    }
    QuadOutcome {
        kill_mask,
        cycles: out.cycles.unwrap_or(0) as u32,
        fault: 0,
        lanes: 0,
    }
}

/// Either runner, so one board type serves every test.
pub enum Runner {
    Copy(CopyRunner),
    Core(CoreRunner),
    /// The core model for a core built with this configuration.
    CoreWith(CoreConfig),
}

impl QuadRunner for Runner {
    fn run_quad(
        &mut self,
        img: &ActiveImage<'_>,
        inputs: &[u8],
        outputs: &mut [u8],
    ) -> QuadOutcome {
        match self {
            Runner::Copy(r) => r.run_quad(img, inputs, outputs),
            Runner::Core(r) => r.run_quad(img, inputs, outputs),
            Runner::CoreWith(c) => run_on_core_model(c, img, inputs, outputs),
        }
    }

    fn resume_quad(&mut self, img: &ActiveImage<'_>, outputs: &mut [u8]) -> QuadOutcome {
        match self {
            Runner::Copy(r) => r.resume_quad(img, outputs),
            Runner::Core(r) => r.resume_quad(img, outputs),
            Runner::CoreWith(_) => QuadOutcome::default(),
        }
    }
}

/// A device model served on the master end of a pseudo-terminal; stops when dropped.
pub struct Board {
    pub slave_path: String,
    pub device: Arc<Mutex<Device<Runner>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Board {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A board for the core configuration `config_bytes` (its ISA hash) with `runner`.
pub fn board(config_bytes: &[u8], runner: Runner) -> Board {
    let pty = pty_pair(115_200).expect("a pseudo-terminal pair");
    let isa = crc32fast::hash(config_bytes);
    let mut cfg = DeviceConfig::board(isa);
    // INFO reports the configuration's feature bits, as the hardware loader does.
    if let Ok(core) = CoreConfig::from_bytes(config_bytes) {
        cfg.features = core.features;
    }
    let device = Arc::new(Mutex::new(Device::new(cfg, runner)));
    let stop = Arc::new(AtomicBool::new(false));
    let (d, s) = (device.clone(), stop.clone());
    let slave_path = pty.slave_path.clone();
    let thread = std::thread::spawn(move || {
        let mut master = pty.master;
        let _slave = pty.slave;
        serve(&mut master, &d, &s, ServeOptions::default()).expect("device server");
    });
    Board {
        slave_path,
        device,
        stop,
        thread: Some(thread),
    }
}

/// The board's core configuration bytes.
pub fn board_config() -> Vec<u8> {
    CoreConfig::default().to_bytes()
}

/// The emulated board of the default build (Verilator), its messages on stderr.
pub fn emulation() -> Emulation {
    emulate::start(
        EmuEngine::Verilator,
        &CoreConfig::default(),
        EMULATED_BAUD,
        &mut |m| eprintln!("{m}"),
    )
    .expect("the emulated board starts (the toolchain comes from `cargo xtask setup`)")
}
