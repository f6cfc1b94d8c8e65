//! Shared test fixtures: a device model served over an in-memory pipe, and images.
#![allow(dead_code)]

use firmware_loader::device::{CopyRunner, Device, DeviceConfig};
use firmware_loader::host::{Client, ClientOptions};
use firmware_loader::image::Upload;
use firmware_loader::port::{mem_pipe, MemPort, Transport};
use firmware_loader::server::{serve, ServeOptions};
use microcode::rng::XorShift;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub const ISA: u32 = 0x1CE4_0001;

pub type Dev = Arc<Mutex<Device<CopyRunner>>>;

/// A device model serving one end of a pipe in a thread; stops when dropped.
pub struct Served {
    pub device: Dev,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

pub fn serve_on<T: Transport + 'static>(mut t: T, opts: ServeOptions) -> Served {
    let device = Arc::new(Mutex::new(Device::new(
        DeviceConfig::board(ISA),
        CopyRunner,
    )));
    let stop = Arc::new(AtomicBool::new(false));
    let (d, s) = (device.clone(), stop.clone());
    let thread = std::thread::spawn(move || {
        serve(&mut t, &d, &s, opts).expect("device server");
    });
    Served {
        device,
        stop,
        thread: Some(thread),
    }
}

/// A client and a served device model over an in-memory pipe.
pub fn setup(opts: ClientOptions) -> (Client<MemPort>, Served) {
    let (host, dev) = mem_pipe(115_200);
    (
        Client::new(host, opts),
        serve_on(dev, ServeOptions::default()),
    )
}

pub fn fast() -> ClientOptions {
    ClientOptions {
        timeout: Duration::from_millis(100),
        retries: 3,
        run_timeout: Duration::from_millis(500),
        min_chunk: 16,
    }
}

/// An image with PROGRAM, CONSTANTS and TEXTURES of the given sizes and 8 bytes of MAPS, all
/// seeded random content.
pub fn image(seed: u64, sizes: [usize; 3]) -> Upload {
    let mut rng = XorShift::new(seed);
    let [mut p, c, t] = sizes.map(|n| rng.bytes(n));
    // Instruction words are 112 bits: the device keeps bytes 14 and 15 of each slot at zero.
    for (i, b) in p.iter_mut().enumerate() {
        if i % 16 >= firmware_loader::protocol::PROGRAM_WORD_BYTES {
            *b = 0;
        }
    }
    Upload {
        isa_hash: ISA,
        regions: [p, c, t, rng.bytes(8)],
    }
}

/// CRC-32 of the concatenated regions, computed here independently of the crate.
pub fn image_crc(u: &Upload) -> u32 {
    crc32fast::hash(&u.regions.concat())
}
