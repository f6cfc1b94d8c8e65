//! `FrameRx`: the receiving half of the loader's framing (`firmware-loader/PROTOCOL.md` section 1):
//! SLIP unstuffing, the byte counter and the frame CRC check, writing the unstuffed body into the
//! loader's frame buffer as it arrives.
//!
//! A segment is the bytes between two `END`s. Each unstuffed byte `k` of a segment is written to
//! buffer address `k` (only the first [`MAX_BODY`] of them; a longer segment is bad anyway). When
//! the closing `END` arrives the segment is judged: empty segments are ignored; a segment passes
//! when it has at most 264 bytes, no bad escape and a correct CRC (checked by the CRC-32 residue
//! of body and CRC together). The rest of the protocol model's checks
//! (`firmware_loader::frame::Decoder`: at least 8 bytes, a `len` field equal to the size less 8)
//! are the firmware's, which reads the length field from the buffer anyway
//! (`crate::loader_firmware`).
//!
//! Ports and timing (one clock):
//! - `data`/`valid`: a byte from the UART receiver, absorbed at the edge where `valid` is high;
//!   bytes come at least 9 clocks apart (the CRC unit takes 8 clocks per byte; a UART byte is
//!   10 bit times of at least 8 clocks);
//! - `enable`: bytes arriving while it is low are discarded and the segment is forgotten (the
//!   loader is busy executing or answering a request; the host waits for that answer anyway);
//! - `we`/`wa`/`wd`: the buffer write, combinational from `data` (the loader routes it to its RAM);
//! - `closed`: a registered one-clock pulse one edge after a non-empty segment ends (its closing
//!   `END`); `body_len` then holds the segment's size if it passed, 0 if it was dropped, until
//!   the next segment; `bad` pulses with `closed` for a dropped one;
//! - no inter-byte timer: a segment left open by a glitch is closed, and dropped, by the `END`
//!   that opens the host's next request (every request begins with one, `PROTOCOL.md` section
//!   1), which counts it as the timeout would have: the answers and the STATUS counts are the
//!   protocol model's (`firmware_loader::device::Device::interbyte_timeout` counts it earlier,
//!   but no request is answered in between). That saves a 24-bit counter;
//! - `crc_clear`/`crc_start`/`crc_data`/`crc_residue`: the loader's CRC unit
//!   ([`crate::crc32_serial::Crc32Serial`]), lent to the receiver while it waits for a request.
use rust_hdl::prelude::*;

/// Longest frame body: 4 header bytes, 256 payload bytes, 4 CRC bytes.
pub const MAX_BODY: u64 = 264;
/// SLIP frame delimiter.
pub const END: u64 = 0xC0;
/// SLIP escape.
pub const ESC: u64 = 0xDB;

/// The frame receiver; see the module documentation.
#[derive(LogicBlock)]
pub struct FrameRx {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// Byte from the UART receiver.
    pub data: Signal<In, Bits<8>>,
    /// `data` is a received byte.
    pub valid: Signal<In, Bit>,
    /// Receive (high) or discard (low) bytes.
    pub enable: Signal<In, Bit>,
    /// Write an unstuffed byte to the frame buffer.
    pub we: Signal<Out, Bit>,
    /// Its buffer address.
    pub wa: Signal<Out, Bits<9>>,
    /// The byte.
    pub wd: Signal<Out, Bits<8>>,
    /// Pulse: a non-empty segment ended (`body_len` says whether it passed).
    pub closed: Signal<Out, Bit>,
    /// Pulse: a non-empty segment was dropped.
    pub bad: Signal<Out, Bit>,
    /// Bytes of the last segment's body (header, payload and CRC) if it passed, else 0.
    pub body_len: Signal<Out, Bits<9>>,
    /// The loader's CRC unit: start a new message at this edge.
    pub crc_clear: Signal<Out, Bit>,
    /// Absorb `crc_data` from this edge.
    pub crc_start: Signal<Out, Bit>,
    /// The byte to absorb.
    pub crc_data: Signal<Out, Bits<8>>,
    /// The unit's message so far ends with its own CRC.
    pub crc_residue: Signal<In, Bit>,
    count: DFF<Bits<9>>,
    escaped: DFF<Bit>,
    error: DFF<Bit>,
    closed_q: DFF<Bit>,
    bad_q: DFF<Bit>,
    body_len_q: DFF<Bits<9>>,
    unstuffed: Signal<Local, Bits<8>>,
    store: Signal<Local, Bit>,
    close: Signal<Local, Bit>,
    in_frame: Signal<Local, Bit>,
}

impl Default for FrameRx {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameRx {
    /// A receiver.
    pub fn new() -> FrameRx {
        FrameRx {
            clock: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            enable: Default::default(),
            we: Default::default(),
            wa: Default::default(),
            wd: Default::default(),
            closed: Default::default(),
            bad: Default::default(),
            body_len: Default::default(),
            crc_clear: Default::default(),
            crc_start: Default::default(),
            crc_data: Default::default(),
            crc_residue: Default::default(),
            count: Default::default(),
            escaped: Default::default(),
            error: Default::default(),
            closed_q: Default::default(),
            bad_q: Default::default(),
            body_len_q: Default::default(),
            unstuffed: Default::default(),
            store: Default::default(),
            close: Default::default(),
            in_frame: Default::default(),
        }
    }
}

impl Logic for FrameRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, escaped, error, closed_q, bad_q, body_len_q);
        self.closed.next = self.closed_q.q.val();
        self.bad.next = self.bad_q.q.val();
        self.body_len.next = self.body_len_q.q.val();
        self.closed_q.d.next = false;
        self.bad_q.d.next = false;

        // The unstuffed byte, and whether this edge stores one or closes a segment.
        self.unstuffed.next = self.data.val();
        self.store.next = false;
        self.close.next = false;
        if self.valid.val() & self.enable.val() {
            if self.data.val() == 0xC0 {
                self.close.next = true;
            } else if self.escaped.q.val() {
                self.store.next = true;
                if self.data.val() == 0xDC {
                    self.unstuffed.next = 0xC0.into();
                } else if self.data.val() == 0xDD {
                    self.unstuffed.next = 0xDB.into();
                } else {
                    self.error.d.next = true;
                }
                self.escaped.d.next = false;
            } else if self.data.val() == 0xDB {
                self.escaped.d.next = true;
            } else {
                self.store.next = true;
            }
        }

        self.we.next = self.store.val() & !self.error.q.val();
        self.wa.next = self.count.q.val();
        self.wd.next = self.unstuffed.val();
        self.crc_data.next = self.unstuffed.val();
        self.crc_start.next = self.store.val();
        self.crc_clear.next = self.store.val() & (self.count.q.val() == 0);
        if self.store.val() {
            // Byte 264 is one too many: the segment is bad and nothing more is stored.
            if self.count.q.val() == 264 {
                self.error.d.next = true;
            } else {
                self.count.d.next = self.count.q.val() + 1;
            }
        }

        self.in_frame.next = (self.count.q.val() != 0) | self.escaped.q.val();
        if self.close.val() & self.in_frame.val() {
            self.closed_q.d.next = true;
            self.body_len_q.d.next = 0.into();
            if !self.error.q.val() & !self.escaped.q.val() & self.crc_residue.val() {
                self.body_len_q.d.next = self.count.q.val();
            } else {
                self.bad_q.d.next = true;
            }
        }
        if self.close.val() | !self.enable.val() {
            self.count.d.next = 0.into();
            self.escaped.d.next = false;
            self.error.d.next = false;
        }
    }
}
