//! `Crc32Serial`: the CRC-32 of [`crate::crc32::Crc32`] (IEEE, as zlib), one bit per clock: the
//! on-chip loader's checksum unit, where bytes come at most once every ten UART bit times.
//!
//! Why bit-serial: the byte-parallel step is 32 XOR trees (about 100 LUT4s); one bit per clock is
//! a 32-bit shift register with an XOR in front of each of the polynomial's 14 taps. Every user
//! of the loader's unit is slower than 8 clocks per byte: received bytes arrive every
//! `10 x divisor` clocks (at least 80), answer bytes leave as slowly, and COMMIT's firmware loop
//! takes about 11 clocks per image byte.
//!
//! Ports and timing:
//! - `clear`: at this edge the register starts a new message (all ones);
//! - `start`/`data`: at an edge where `start` is high (and `busy` low) `data` is taken; the next 8
//!   clocks absorb it, low bit first, with `busy` high; a `start` while `busy` is ignored;
//! - `shift`: at an edge where `shift` is high (and `busy` low) the register shifts 8 bits right
//!   without the polynomial (8 clocks, `busy`): the answer's CRC leaves byte by byte through
//!   `low`;
//! - `low`: the low byte of the CRC so far (the published value: the register complemented);
//! - `residue`: the message absorbed so far ends with its own CRC-32 (little-endian), which
//!   checks a received frame or a COMMIT's expected CRC appended to the image.
use rust_hdl::prelude::*;

/// The CRC-32 of any message followed by its own CRC-32 (little-endian): zlib's residue.
pub const RESIDUE: u64 = 0x2144_DF1C;
/// The reflected polynomial.
pub const POLY: u64 = 0xEDB8_8320;

/// The unit; see the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct Crc32Serial {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// Start a new message at this edge.
    pub clear: Signal<In, Bit>,
    /// Take `data` at this edge (ignored while `busy`).
    pub start: Signal<In, Bit>,
    /// The byte to absorb.
    pub data: Signal<In, Bits<8>>,
    /// Shift the register 8 bits without the polynomial (ignored while `busy`).
    pub shift: Signal<In, Bit>,
    /// Absorbing a byte or shifting.
    pub busy: Signal<Out, Bit>,
    /// The low byte of the CRC so far.
    pub low: Signal<Out, Bits<8>>,
    /// The message so far ends with its own CRC.
    pub residue: Signal<Out, Bit>,
    poly: Constant<Bits<32>>,
    msb: Constant<Bits<32>>,
    resid: Constant<Bits<32>>,
    // The complement of the CRC register, which is exactly the published CRC, and makes the
    // power-up value 0 the register's initial value 0xFFFFFFFF.
    state: DFF<Bits<32>>,
    shreg: DFF<Bits<8>>,
    count: DFF<Bits<3>>,
    run: DFF<Bit>,
    raw: DFF<Bit>,
    fb: Signal<Local, Bit>,
}

impl Default for Crc32Serial {
    fn default() -> Self {
        Crc32Serial {
            clock: Default::default(),
            clear: Default::default(),
            start: Default::default(),
            data: Default::default(),
            shift: Default::default(),
            busy: Default::default(),
            low: Default::default(),
            residue: Default::default(),
            poly: Constant::new(POLY.to_bits()),
            msb: Constant::new(0x8000_0000_u64.to_bits()),
            resid: Constant::new(RESIDUE.to_bits()),
            state: Default::default(),
            shreg: Default::default(),
            count: Default::default(),
            run: Default::default(),
            raw: Default::default(),
            fb: Default::default(),
        }
    }
}

impl Logic for Crc32Serial {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, shreg, count, run, raw);
        self.busy.next = self.run.q.val();
        self.low.next = self.state.q.val().get_bits::<8>(0);
        self.residue.next = self.state.q.val() == self.resid.val();
        // The register's bit 0 is the state's complement; a one falling out XORs the polynomial
        // in (not while shifting raw). The register shifts a zero in: the state a one.
        self.fb.next =
            (!self.state.q.val().get_bit(0) ^ self.shreg.q.val().get_bit(0)) & !self.raw.q.val();
        if self.run.q.val() {
            self.state.d.next = (self.state.q.val() >> 1) | self.msb.val();
            if self.fb.val() {
                self.state.d.next = ((self.state.q.val() >> 1) | self.msb.val()) ^ self.poly.val();
            }
            self.shreg.d.next = self.shreg.q.val() >> 1;
            self.count.d.next = self.count.q.val() + 1;
            if self.count.q.val() == 7 {
                self.run.d.next = false;
            }
        } else if self.start.val() | self.shift.val() {
            self.shreg.d.next = self.data.val();
            self.raw.d.next = self.shift.val();
            self.run.d.next = true;
        }
        if self.clear.val() {
            self.state.d.next = 0.into();
        }
    }
}
