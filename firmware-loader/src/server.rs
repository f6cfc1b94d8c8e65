//! Serves a [`Device`] model over a transport: the loop a board (or an emulator) runs.

use crate::device::{Device, QuadRunner};
use crate::port::{PortError, Transport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Timing of the device side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// A frame in progress is dropped when no byte arrives for this long.
    pub interbyte_timeout: Duration,
    /// After SET_BAUD, the device returns to the old rate unless a good frame arrives within this.
    pub baud_confirm: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            interbyte_timeout: Duration::from_millis(20),
            baud_confirm: Duration::from_secs(1),
        }
    }
}

/// Answers requests until `stop` is set or the link closes. Other transport errors (a pseudo-terminal
/// whose client went away, for instance) are waited out.
pub fn serve<T: Transport, R: QuadRunner>(
    t: &mut T,
    device: &Mutex<Device<R>>,
    stop: &AtomicBool,
    opts: ServeOptions,
) -> Result<(), PortError> {
    let mut buf = [0u8; 512];
    let mut last_byte = Instant::now();
    let mut baud_since: Option<Instant> = None;
    while !stop.load(Ordering::Relaxed) {
        let n = match t.read(&mut buf, Duration::from_millis(2)) {
            Ok(n) => n,
            Err(PortError::Disconnected) => return Ok(()),
            Err(_) => {
                std::thread::sleep(Duration::from_millis(2));
                0
            }
        };
        let now = Instant::now();
        let Ok(mut dev) = device.lock() else {
            return Ok(());
        };
        let out = if n > 0 {
            last_byte = now;
            dev.receive(&buf[..n])
        } else {
            if dev.in_frame() && now.duration_since(last_byte) > opts.interbyte_timeout {
                dev.interbyte_timeout();
            }
            Vec::new()
        };
        match (dev.baud_unconfirmed(), baud_since) {
            (true, None) => baud_since = Some(now),
            (true, Some(since)) if now.duration_since(since) > opts.baud_confirm => {
                dev.baud_timeout();
                baud_since = None;
            }
            (false, _) => baud_since = None,
            _ => {}
        }
        let baud = dev.baud();
        drop(dev);
        if !out.is_empty() {
            match t.write_all(&out) {
                Ok(()) => {}
                Err(PortError::Disconnected) => return Ok(()),
                // The client is gone; it retries when it comes back.
                Err(_) => {}
            }
        }
        if baud != t.baud() {
            t.set_baud(baud)?;
        }
    }
    Ok(())
}
