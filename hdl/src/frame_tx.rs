//! `FrameTx`: the sending half of the loader's framing (`firmware-loader/PROTOCOL.md` section 1):
//! opens a frame with `END`, stuffs each body byte (SLIP), appends the CRC-32 of the body
//! (little-endian, stuffed too) and closes with `END`, feeding the UART transmitter.
//!
//! Ports and timing (one clock):
//! - `data`/`valid`/`last`/`ready`: the body bytes of one answer, header first; a byte is taken at
//!   an edge where `valid && ready`; `last` marks the final body byte, after which the CRC and the
//!   closing `END` go out by themselves (`ready` stays low meanwhile, and `idle` is high again
//!   once the closing `END` has been handed to the UART);
//! - `tx_data`/`tx_offer`/`tx_ready`: the UART transmitter's handshake, one wire byte per accepted
//!   handshake; the block adds no gap, so at most one clock passes between wire bytes beyond the
//!   UART's own frame time;
//! - `crc_clear`/`crc_valid`/`crc_data`/`crc`: the loader's CRC-32 unit, lent to the transmitter
//!   while an answer is sent (cleared while no frame is open).
use rust_hdl::prelude::*;

/// The frame transmitter; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct FrameTx {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// Next body byte.
    pub data: Signal<In, Bits<8>>,
    /// `data` is offered.
    pub valid: Signal<In, Bit>,
    /// `data` is the frame's last body byte.
    pub last: Signal<In, Bit>,
    /// The byte is taken at this edge if `valid`.
    pub ready: Signal<Out, Bit>,
    /// No frame is being sent.
    pub idle: Signal<Out, Bit>,
    /// Wire byte to the UART.
    pub tx_data: Signal<Out, Bits<8>>,
    /// The UART takes `tx_data` at this edge.
    pub tx_ready: Signal<In, Bit>,
    /// Offer `tx_data` (driven to the UART's `valid`).
    pub tx_offer: Signal<Out, Bit>,
    /// The loader's CRC-32 unit (shared: receiving, answering and COMMIT never overlap):
    /// start a new message at this edge.
    pub crc_clear: Signal<Out, Bit>,
    /// Absorb `crc_data` at this edge.
    pub crc_valid: Signal<Out, Bit>,
    /// The byte to absorb.
    pub crc_data: Signal<Out, Bits<8>>,
    /// The shared unit's CRC of the message so far.
    pub crc: Signal<In, Bits<32>>,
    // The wire byte offered to the UART, and whether one is.
    out: DFF<Bits<8>>,
    out_valid: DFF<Bit>,
    // The second byte of an escape, still to go.
    esc: DFF<Bits<8>>,
    esc_pending: DFF<Bit>,
    // The opening END has been sent.
    open: DFF<Bit>,
    // 0: body; 1: latch the CRC; 2..=5: CRC bytes; 6: closing END.
    phase: DFF<Bits<3>>,
    crc_bytes: DFF<Bits<32>>,
    free: Signal<Local, Bit>,
    plain: Signal<Local, Bits<8>>,
    take: Signal<Local, Bit>,
}

impl Logic for FrameTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            out,
            out_valid,
            esc,
            esc_pending,
            open,
            phase,
            crc_bytes
        );
        self.tx_data.next = self.out.q.val();
        self.tx_offer.next = self.out_valid.q.val();
        self.idle.next = !self.open.q.val() & (self.phase.q.val() == 0);
        // The output slot is free when empty or being taken at this edge.
        self.free.next = !self.out_valid.q.val() | self.tx_ready.val();
        if self.out_valid.q.val() & self.tx_ready.val() {
            self.out_valid.d.next = false;
        }
        self.ready.next = self.free.val()
            & self.open.q.val()
            & !self.esc_pending.q.val()
            & (self.phase.q.val() == 0);
        self.take.next = self.ready.val() & self.valid.val();
        self.crc_data.next = self.data.val();
        self.crc_valid.next = self.take.val();
        self.crc_clear.next = !self.open.q.val();

        // The byte to stuff: a body byte, or the next CRC byte.
        self.plain.next = self.data.val();
        if self.phase.q.val() != 0 {
            self.plain.next = self.crc_bytes.q.val().get_bits::<8>(0);
        }
        if self.free.val() {
            if self.esc_pending.q.val() {
                self.out.d.next = self.esc.q.val();
                self.out_valid.d.next = true;
                self.esc_pending.d.next = false;
            } else if self.phase.q.val() == 1 {
                self.crc_bytes.d.next = self.crc.val();
                self.phase.d.next = 2.into();
            } else if self.phase.q.val() == 6 {
                self.out.d.next = 0xC0.into();
                self.out_valid.d.next = true;
                self.phase.d.next = 0.into();
                self.open.d.next = false;
            } else if (self.phase.q.val() != 0) | self.take.val() {
                if self.plain.val() == 0xC0 {
                    self.out.d.next = 0xDB.into();
                    self.esc.d.next = 0xDC.into();
                    self.esc_pending.d.next = true;
                } else if self.plain.val() == 0xDB {
                    self.out.d.next = 0xDB.into();
                    self.esc.d.next = 0xDD.into();
                    self.esc_pending.d.next = true;
                } else {
                    self.out.d.next = self.plain.val();
                }
                self.out_valid.d.next = true;
                if self.phase.q.val() != 0 {
                    self.crc_bytes.d.next = self.crc_bytes.q.val() >> 8;
                    self.phase.d.next = self.phase.q.val() + 1;
                } else if self.last.val() {
                    self.phase.d.next = 1.into();
                }
            } else if self.valid.val() & !self.open.q.val() {
                // Open the frame before its first byte.
                self.out.d.next = 0xC0.into();
                self.out_valid.d.next = true;
                self.open.d.next = true;
            }
        }
    }
}
