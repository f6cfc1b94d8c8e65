//! CRC-32 (IEEE 802.3, the zlib/`crc32fast` checksum), one byte per clock.

use rust_hdl::prelude::*;

/// Computes the CRC-32 used by zlib, PNG and Ethernet (reflected polynomial `0xEDB88320`, initial
/// value and final XOR `0xFFFFFFFF`) over the bytes fed to it, one byte per clock.
///
/// Timing: at each rising edge of `clock` where `valid` is high, `data` is absorbed; `crc` is
/// registered and equals `crc32fast::hash` of all bytes absorbed since the last `clear` (or since
/// configuration) from the next edge on. `clear` at an edge starts a new message: if `valid` is
/// high at the same edge, that byte is the new message's first byte. With neither, `crc` holds.
///
/// The whole byte step (eight shift-and-XOR stages) is combinational: synthesis turns it into one
/// XOR tree per output bit, each over at most 8 data and 32 state bits.
#[derive(Clone, Debug, LogicBlock)]
pub struct Crc32 {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// Start a new message at this edge.
    pub clear: Signal<In, Bit>,
    /// The next byte of the message, absorbed when `valid`.
    pub data: Signal<In, Bits<8>>,
    /// `data` holds a message byte.
    pub valid: Signal<In, Bit>,
    /// The CRC-32 of the message so far.
    pub crc: Signal<Out, Bits<32>>,
    poly: Constant<Bits<32>>,
    all_ones: Constant<Bits<32>>,
    // The complement of the CRC register, which is exactly the published CRC, and makes the
    // power-up value 0 the register's initial value 0xFFFFFFFF.
    state: DFF<Bits<32>>,
    register: Signal<Local, Bits<32>>,
    stage0: Signal<Local, Bits<32>>,
    stage1: Signal<Local, Bits<32>>,
    stage2: Signal<Local, Bits<32>>,
    stage3: Signal<Local, Bits<32>>,
    stage4: Signal<Local, Bits<32>>,
    stage5: Signal<Local, Bits<32>>,
    stage6: Signal<Local, Bits<32>>,
    stage7: Signal<Local, Bits<32>>,
    stage8: Signal<Local, Bits<32>>,
}

impl Default for Crc32 {
    fn default() -> Self {
        Crc32 {
            clock: Default::default(),
            clear: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            crc: Default::default(),
            poly: Constant::new(0xEDB8_8320_u64.to_bits()),
            all_ones: Constant::new(0xFFFF_FFFF_u64.to_bits()),
            state: Default::default(),
            register: Default::default(),
            stage0: Default::default(),
            stage1: Default::default(),
            stage2: Default::default(),
            stage3: Default::default(),
            stage4: Default::default(),
            stage5: Default::default(),
            stage6: Default::default(),
            stage7: Default::default(),
            stage8: Default::default(),
        }
    }
}

impl Logic for Crc32 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state);
        self.crc.next = self.state.q.val();

        self.register.next = !self.state.q.val();
        if self.clear.val() {
            self.register.next = self.all_ones.val();
        }
        self.stage0.next = self.register.val() ^ bit_cast::<32, 8>(self.data.val());
        // One stage per bit: shift right, XOR the polynomial in when a one falls out.
        self.stage1.next = self.stage0.val() >> 1;
        if self.stage0.val().get_bit(0) {
            self.stage1.next = (self.stage0.val() >> 1) ^ self.poly.val();
        }
        self.stage2.next = self.stage1.val() >> 1;
        if self.stage1.val().get_bit(0) {
            self.stage2.next = (self.stage1.val() >> 1) ^ self.poly.val();
        }
        self.stage3.next = self.stage2.val() >> 1;
        if self.stage2.val().get_bit(0) {
            self.stage3.next = (self.stage2.val() >> 1) ^ self.poly.val();
        }
        self.stage4.next = self.stage3.val() >> 1;
        if self.stage3.val().get_bit(0) {
            self.stage4.next = (self.stage3.val() >> 1) ^ self.poly.val();
        }
        self.stage5.next = self.stage4.val() >> 1;
        if self.stage4.val().get_bit(0) {
            self.stage5.next = (self.stage4.val() >> 1) ^ self.poly.val();
        }
        self.stage6.next = self.stage5.val() >> 1;
        if self.stage5.val().get_bit(0) {
            self.stage6.next = (self.stage5.val() >> 1) ^ self.poly.val();
        }
        self.stage7.next = self.stage6.val() >> 1;
        if self.stage6.val().get_bit(0) {
            self.stage7.next = (self.stage6.val() >> 1) ^ self.poly.val();
        }
        self.stage8.next = self.stage7.val() >> 1;
        if self.stage7.val().get_bit(0) {
            self.stage8.next = (self.stage7.val() >> 1) ^ self.poly.val();
        }

        if self.valid.val() {
            self.state.d.next = !self.stage8.val();
        } else if self.clear.val() {
            self.state.d.next = 0.into();
        }
    }
}
