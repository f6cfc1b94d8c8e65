//! `FrameRx`: the receiving half of the loader's framing (`firmware-loader/PROTOCOL.md` section 1):
//! SLIP unstuffing, the byte counter, the frame CRC check and the inter-byte timeout, writing the
//! unstuffed body into the loader's frame buffer as it arrives.
//!
//! A segment is the bytes between two `END`s. Each unstuffed byte `k` of a segment is written to
//! buffer address `k` (only the first [`MAX_BODY`] of them; a longer segment is bad anyway). When
//! the closing `END` arrives the segment is judged exactly as the protocol model
//! (`firmware_loader::frame::Decoder`) judges it: empty segments are ignored; a segment is good when
//! it has 8..=264 bytes, no bad escape, a `len` field equal to its size less 8 and a correct CRC
//! (checked by the CRC-32 residue of body and CRC together, [`CRC_RESIDUE`]).
//!
//! Ports and timing (one clock):
//! - `data`/`valid`: a byte from the UART receiver, absorbed at the edge where `valid` is high;
//! - `enable`: bytes arriving while it is low are discarded and the segment is forgotten (the
//!   loader is busy executing or answering a request; the host waits for that answer anyway);
//! - `we`/`wa`/`wd`: the buffer write, combinational from `data` (the loader routes it to its RAM);
//! - `good`: a registered one-clock pulse one edge after the closing `END`'s edge; the body is
//!   complete in the buffer from the same edge, `body_len` holds its size until the next segment;
//! - `bad`: a registered one-clock pulse for a dropped non-empty segment (bad frame, or the
//!   inter-byte timeout: `timeout` clocks without a byte inside a segment);
//! - `crc_clear`/`crc_valid`/`crc_data`/`crc`: the loader's CRC-32 unit, lent to the receiver
//!   while it waits for a request.
use rust_hdl::prelude::*;

/// Longest frame body: 4 header bytes, 256 payload bytes, 4 CRC bytes.
pub const MAX_BODY: u64 = 264;
/// CRC-32 of any message followed by its own CRC-32 (little-endian).
pub const CRC_RESIDUE: u64 = 0x2144_DF1C;
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
    /// Pulse: a good frame of `body_len` bytes is in the buffer.
    pub good: Signal<Out, Bit>,
    /// Pulse: a non-empty segment was dropped.
    pub bad: Signal<Out, Bit>,
    /// Bytes of the last good frame's body (header, payload and CRC).
    pub body_len: Signal<Out, Bits<9>>,
    /// The loader's CRC-32 unit (shared: receiving, answering and COMMIT never overlap):
    /// start a new message at this edge.
    pub crc_clear: Signal<Out, Bit>,
    /// Absorb `crc_data` at this edge.
    pub crc_valid: Signal<Out, Bit>,
    /// The byte to absorb.
    pub crc_data: Signal<Out, Bits<8>>,
    /// The shared unit's CRC of the message so far.
    pub crc: Signal<In, Bits<32>>,
    count: DFF<Bits<9>>,
    escaped: DFF<Bit>,
    error: DFF<Bit>,
    len_field: DFF<Bits<16>>,
    quiet: DFF<Bits<24>>,
    good_r: DFF<Bit>,
    bad_r: DFF<Bit>,
    len_r: DFF<Bits<9>>,
    timeout: Constant<Bits<24>>,
    residue: Constant<Bits<32>>,
    unstuffed: Signal<Local, Bits<8>>,
    store: Signal<Local, Bit>,
    close: Signal<Local, Bit>,
    in_frame: Signal<Local, Bit>,
    timed_out: Signal<Local, Bit>,
}

impl FrameRx {
    /// A receiver that drops a segment after `timeout_clocks` clocks without a byte (at most
    /// 2^24 - 1: 167 ms at 100 MHz).
    pub fn new(timeout_clocks: u64) -> FrameRx {
        FrameRx {
            clock: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            enable: Default::default(),
            we: Default::default(),
            wa: Default::default(),
            wd: Default::default(),
            good: Default::default(),
            bad: Default::default(),
            body_len: Default::default(),
            crc_clear: Default::default(),
            crc_valid: Default::default(),
            crc_data: Default::default(),
            crc: Default::default(),
            count: Default::default(),
            escaped: Default::default(),
            error: Default::default(),
            len_field: Default::default(),
            quiet: Default::default(),
            good_r: Default::default(),
            bad_r: Default::default(),
            len_r: Default::default(),
            timeout: Constant::new(timeout_clocks.min((1 << 24) - 1).to_bits()),
            residue: Constant::new(CRC_RESIDUE.to_bits()),
            unstuffed: Default::default(),
            store: Default::default(),
            close: Default::default(),
            in_frame: Default::default(),
            timed_out: Default::default(),
        }
    }
}

impl Logic for FrameRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, escaped, error, len_field, quiet, good_r, bad_r, len_r);
        self.good.next = self.good_r.q.val();
        self.bad.next = self.bad_r.q.val();
        self.body_len.next = self.len_r.q.val();
        self.good_r.d.next = false;
        self.bad_r.d.next = false;

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

        self.we.next = self.store.val() & (self.count.q.val() < 264);
        self.wa.next = self.count.q.val();
        self.wd.next = self.unstuffed.val();
        self.crc_data.next = self.unstuffed.val();
        self.crc_valid.next = self.store.val();
        self.crc_clear.next = self.store.val() & (self.count.q.val() == 0);
        if self.store.val() {
            if self.count.q.val() >= 264 {
                self.error.d.next = true;
            }
            if self.count.q.val() != 511 {
                self.count.d.next = self.count.q.val() + 1;
            }
            if self.count.q.val() == 0 {
                self.len_field.d.next = bit_cast::<16, 8>(self.unstuffed.val());
            }
            if self.count.q.val() == 1 {
                self.len_field.d.next =
                    self.len_field.q.val() | (bit_cast::<16, 8>(self.unstuffed.val()) << 8);
            }
        }

        // Inter-byte timeout inside a segment.
        if self.valid.val() | ((self.count.q.val() == 0) & !self.escaped.q.val()) {
            self.quiet.d.next = 0.into();
        } else {
            self.quiet.d.next = self.quiet.q.val() + 1;
        }
        self.in_frame.next = (self.count.q.val() != 0) | self.escaped.q.val();
        if self.close.val() & self.in_frame.val() {
            if !self.error.q.val()
                & !self.escaped.q.val()
                & (self.count.q.val() >= 8)
                & ((self.len_field.q.val() + 8) == bit_cast::<16, 9>(self.count.q.val()))
                & (self.crc.val() == self.residue.val())
            {
                self.good_r.d.next = true;
                self.len_r.d.next = self.count.q.val();
            } else {
                self.bad_r.d.next = true;
            }
        }
        self.timed_out.next = self.in_frame.val() & (self.quiet.q.val() == self.timeout.val());
        if self.timed_out.val() & !self.close.val() {
            self.bad_r.d.next = true;
        }
        if self.close.val() | self.timed_out.val() | !self.enable.val() {
            self.count.d.next = 0.into();
            self.escaped.d.next = false;
            self.error.d.next = false;
        }
    }
}
