//! Byte transports: a serial port, an in-memory pipe, a pseudo-terminal pair, and a fault injector.

use microcode::rng::XorShift;
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// A transport that failed.
#[derive(Debug, Error)]
pub enum PortError {
    /// The port does not exist.
    #[error("{path}: no such serial port (see `tgsi-core ports`)")]
    NoSuchPort {
        /// The path asked for.
        path: String,
    },
    /// The port exists but may not be opened.
    #[error("{path}: permission denied (on Linux, join the `dialout` group and log in again)")]
    PermissionDenied {
        /// The path asked for.
        path: String,
    },
    /// The port is held by another program.
    #[error("{path}: port busy (another program has it open)")]
    Busy {
        /// The path asked for.
        path: String,
    },
    /// Any other failure of the port.
    #[error("{path}: {message}")]
    Other {
        /// The path asked for.
        path: String,
        /// What the system said.
        message: String,
    },
    /// The other end of an in-memory pipe is gone.
    #[error("the other end of the link is closed")]
    Disconnected,
}

/// A byte link to a device.
pub trait Transport: Send {
    /// Sends all bytes.
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), PortError>;
    /// Receives at least one byte into `buf`, waiting at most `timeout`; `Ok(0)` on timeout.
    fn read(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, PortError>;
    /// Changes the line rate.
    fn set_baud(&mut self, baud: u32) -> Result<(), PortError>;
    /// The current line rate.
    fn baud(&self) -> u32;
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), PortError> {
        (**self).write_all(bytes)
    }
    fn read(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, PortError> {
        (**self).read(buf, timeout)
    }
    fn set_baud(&mut self, baud: u32) -> Result<(), PortError> {
        (**self).set_baud(baud)
    }
    fn baud(&self) -> u32 {
        (**self).baud()
    }
}

/// A serial port opened through the `serialport` crate (USB serial adapters, pseudo-terminals).
pub struct SerialTransport {
    port: Box<dyn serialport::SerialPort>,
    path: String,
    baud: u32,
}

fn port_error(path: &str, e: serialport::Error) -> PortError {
    let path = path.to_string();
    match e.kind() {
        serialport::ErrorKind::Io(io::ErrorKind::NotFound) => PortError::NoSuchPort { path },
        serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied) => {
            PortError::PermissionDenied { path }
        }
        serialport::ErrorKind::NoDevice => PortError::Busy { path },
        _ => PortError::Other {
            path,
            message: e.to_string(),
        },
    }
}

fn io_error(path: &str, e: &io::Error) -> PortError {
    PortError::Other {
        path: path.to_string(),
        message: e.to_string(),
    }
}

impl SerialTransport {
    /// Opens `path` at `baud`, 8N1, no flow control.
    pub fn open(path: &str, baud: u32) -> Result<SerialTransport, PortError> {
        // serialport reports a missing device node only as a generic error on some systems. (Windows
        // COM names are not paths, so only Unix checks.)
        if cfg!(unix) && !std::path::Path::new(path).exists() {
            return Err(PortError::NoSuchPort {
                path: path.to_string(),
            });
        }
        let port = serialport::new(path, baud)
            .timeout(Duration::from_millis(10))
            .open()
            .map_err(|e| port_error(path, e))?;
        // Bytes left in the adapter from before are stale; losing them is harmless either way.
        let _ = port.clear(serialport::ClearBuffer::All);
        Ok(SerialTransport {
            port,
            path: path.to_string(),
            baud,
        })
    }

    /// Wraps a port opened elsewhere.
    pub fn from_port(port: Box<dyn serialport::SerialPort>, path: &str, baud: u32) -> Self {
        SerialTransport {
            port,
            path: path.to_string(),
            baud,
        }
    }

    /// The path the port was opened with.
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl Transport for SerialTransport {
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), PortError> {
        self.port
            .write_all(bytes)
            .and_then(|()| self.port.flush())
            .map_err(|e| io_error(&self.path, &e))
    }

    fn read(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, PortError> {
        self.port
            .set_timeout(timeout)
            .map_err(|e| port_error(&self.path, e))?;
        match self.port.read(buf) {
            Ok(n) => Ok(n),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                Ok(0)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(0),
            Err(e) => Err(io_error(&self.path, &e)),
        }
    }

    fn set_baud(&mut self, baud: u32) -> Result<(), PortError> {
        self.port
            .set_baud_rate(baud)
            .map_err(|e| port_error(&self.path, e))?;
        self.baud = baud;
        Ok(())
    }

    fn baud(&self) -> u32 {
        self.baud
    }
}

/// A pseudo-terminal: the master end as a transport (where the device model or emulator serves)
/// and the path of the slave end (what `--port` names).
#[cfg(unix)]
pub struct PtyPair {
    /// The master end.
    pub master: SerialTransport,
    /// Path of the slave end, e.g. `/dev/pts/7`.
    pub slave_path: String,
    /// The slave end, held open so the master never sees a hang-up between clients.
    pub slave: serialport::TTYPort,
}

/// Opens a new pseudo-terminal pair in raw mode.
#[cfg(unix)]
pub fn pty_pair(baud: u32) -> Result<PtyPair, PortError> {
    // The pair's slave end holds no lock (TIOCEXCL or flock), so a client can open its path
    // exclusively while it stays open here.
    let (master, slave) = serialport::TTYPort::pair().map_err(|e| port_error("pty", e))?;
    let slave_path = serialport::SerialPort::name(&slave).ok_or_else(|| PortError::Other {
        path: "pty".into(),
        message: "the slave end has no path".into(),
    })?;
    Ok(PtyPair {
        master: SerialTransport::from_port(Box::new(master), "pty master", baud),
        slave_path,
        slave,
    })
}

#[derive(Default)]
struct Lane {
    /// Each byte with the line rate it was sent at.
    bytes: VecDeque<(u8, u32)>,
    closed: bool,
}

type Shared = Arc<(Mutex<Lane>, Condvar)>;

/// One end of an in-memory full-duplex link. A byte sent at one line rate and received at another
/// arrives garbled, as on a real line, so baud changes can be tested.
pub struct MemPort {
    rx: Shared,
    tx: Shared,
    baud: u32,
}

/// Two connected in-memory ends, both at `baud`.
pub fn mem_pipe(baud: u32) -> (MemPort, MemPort) {
    let a: Shared = Arc::default();
    let b: Shared = Arc::default();
    (
        MemPort {
            rx: a.clone(),
            tx: b.clone(),
            baud,
        },
        MemPort { rx: b, tx: a, baud },
    )
}

impl Drop for MemPort {
    fn drop(&mut self) {
        for lane in [&self.rx, &self.tx] {
            if let Ok(mut l) = lane.0.lock() {
                l.closed = true;
            }
            lane.1.notify_all();
        }
    }
}

impl Transport for MemPort {
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), PortError> {
        let (lock, cv) = &*self.tx;
        let mut lane = lock.lock().map_err(|_| PortError::Disconnected)?;
        if lane.closed {
            return Err(PortError::Disconnected);
        }
        lane.bytes.extend(bytes.iter().map(|&b| (b, self.baud)));
        cv.notify_all();
        Ok(())
    }

    fn read(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, PortError> {
        let (lock, cv) = &*self.rx;
        let deadline = Instant::now() + timeout;
        let mut lane = lock.lock().map_err(|_| PortError::Disconnected)?;
        while lane.bytes.is_empty() {
            if lane.closed {
                return Err(PortError::Disconnected);
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(0);
            }
            lane = cv
                .wait_timeout(lane, deadline - now)
                .map_err(|_| PortError::Disconnected)?
                .0;
        }
        let mut n = 0;
        while n < buf.len() {
            let Some((b, baud)) = lane.bytes.pop_front() else {
                break;
            };
            // A receiver at the wrong rate samples nonsense; never a frame delimiter by luck.
            buf[n] = if baud == self.baud { b } else { 0xFF };
            n += 1;
        }
        Ok(n)
    }

    fn set_baud(&mut self, baud: u32) -> Result<(), PortError> {
        self.baud = baud;
        Ok(())
    }

    fn baud(&self) -> u32 {
        self.baud
    }
}

/// Counts of injected faults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultCounts {
    /// Bytes dropped.
    pub dropped: u64,
    /// Bytes sent twice.
    pub duplicated: u64,
    /// Bytes with one bit flipped.
    pub flipped: u64,
}

/// A proxy that drops, duplicates or flips bytes in both directions with probability `rate` each
/// byte (one of the three, equally likely).
pub struct FaultyTransport<T> {
    inner: T,
    rate: f64,
    /// The workspace's seeded generator, so that a fault pattern replays from its seed.
    rng: XorShift,
    /// Faults injected so far.
    pub counts: FaultCounts,
}

impl<T: Transport> FaultyTransport<T> {
    /// Wraps `inner`.
    pub fn new(inner: T, rate: f64, seed: u64) -> Self {
        FaultyTransport {
            inner,
            rate,
            rng: XorShift::new(seed),
            counts: FaultCounts::default(),
        }
    }

    /// Changes the fault rate (0 makes the link clean).
    pub fn set_rate(&mut self, rate: f64) {
        self.rate = rate;
    }

    fn mangle(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len() + 4);
        for &b in bytes {
            if self.rng.next_f64() >= self.rate {
                out.push(b);
                continue;
            }
            match self.rng.below(3) {
                0 => self.counts.dropped += 1,
                1 => {
                    self.counts.duplicated += 1;
                    out.extend_from_slice(&[b, b]);
                }
                _ => {
                    self.counts.flipped += 1;
                    out.push(b ^ (1 << self.rng.below(8)));
                }
            }
        }
        out
    }
}

impl<T: Transport> Transport for FaultyTransport<T> {
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), PortError> {
        let m = self.mangle(bytes);
        self.inner.write_all(&m)
    }

    fn read(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, PortError> {
        // Read into a smaller buffer so a duplicated byte still fits.
        let half = (buf.len() / 2).max(1);
        let mut tmp = vec![0; half];
        let n = self.inner.read(&mut tmp, timeout)?;
        let m = self.mangle(&tmp[..n]);
        let k = m.len().min(buf.len());
        buf[..k].copy_from_slice(&m[..k]);
        Ok(k)
    }

    fn set_baud(&mut self, baud: u32) -> Result<(), PortError> {
        self.inner.set_baud(baud)
    }

    fn baud(&self) -> u32 {
        self.inner.baud()
    }
}

/// A serial port as `serialport` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortDescription {
    /// Device path.
    pub path: String,
    /// Kind and, for USB, vendor/product/serial/manufacturer.
    pub details: String,
}

/// Lists the serial ports the system knows.
pub fn list_ports() -> Result<Vec<PortDescription>, PortError> {
    let ports = serialport::available_ports().map_err(|e| port_error("(enumeration)", e))?;
    Ok(ports
        .into_iter()
        .map(|p| {
            let details = match p.port_type {
                serialport::SerialPortType::UsbPort(u) => {
                    let mut s = format!("USB {:04x}:{:04x}", u.vid, u.pid);
                    for (label, v) in [
                        ("manufacturer", &u.manufacturer),
                        ("product", &u.product),
                        ("serial", &u.serial_number),
                    ] {
                        if let Some(v) = v {
                            s.push_str(&format!(", {label} {v}"));
                        }
                    }
                    if u.vid == 0x0403 {
                        s.push_str(" (FTDI; an Alchitry Cu shows up as this)");
                    }
                    s
                }
                serialport::SerialPortType::PciPort => "PCI".into(),
                serialport::SerialPortType::BluetoothPort => "Bluetooth".into(),
                serialport::SerialPortType::Unknown => "unknown type".into(),
            };
            PortDescription {
                path: p.port_name,
                details,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_errors_are_classified() {
        let e = |kind| serialport::Error::new(kind, "system message");
        assert!(matches!(
            port_error("/dev/x", e(serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied))),
            PortError::PermissionDenied { path } if path == "/dev/x"
        ));
        assert!(matches!(
            port_error(
                "/dev/x",
                e(serialport::ErrorKind::Io(io::ErrorKind::NotFound))
            ),
            PortError::NoSuchPort { .. }
        ));
        assert!(matches!(
            port_error("/dev/x", e(serialport::ErrorKind::NoDevice)),
            PortError::Busy { .. }
        ));
        let other = port_error("/dev/x", e(serialport::ErrorKind::Unknown));
        assert_eq!(other.to_string(), "/dev/x: system message");
        let denied = PortError::PermissionDenied {
            path: "/dev/ttyUSB1".into(),
        };
        assert!(denied.to_string().contains("dialout"));
    }

    #[test]
    fn faulty_transport_is_reproducible_and_clean_at_rate_zero() {
        let data: Vec<u8> = (0..=255).collect();
        let run = |rate, seed| {
            let (a, mut b) = mem_pipe(115_200);
            let mut f = FaultyTransport::new(a, rate, seed);
            f.write_all(&data).unwrap();
            let mut buf = vec![0; 1024];
            let n = b.read(&mut buf, Duration::from_millis(100)).unwrap();
            (buf[..n].to_vec(), f.counts)
        };
        assert_eq!(run(0.0, 1), (data.clone(), FaultCounts::default()));
        let (x, cx) = run(0.2, 7);
        assert_eq!(run(0.2, 7), (x.clone(), cx));
        assert_ne!(x, data);
        let faults = cx.dropped + cx.duplicated + cx.flipped;
        assert!((20..=90).contains(&faults), "{cx:?}");
        assert_eq!(x.len() as u64, 256 - cx.dropped + cx.duplicated);
    }
}
