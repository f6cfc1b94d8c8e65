//! `SlotRing`: the slot controls' trip from issue to the writeback stage. A slot's controls
//! (`meta_in`: bit 0 write R, 1 write P, 2 take the multiply-add, the long path; 3..5 zero; 6..7
//! saturate; 8..15 the R word: register, lane, component) spend a clock in flip-flops, then go
//! round a circular buffer read at one of two taps: the long path's (the slot issued 11 clocks
//! earlier) or, when that slot is a short-path writer's, the short path's (5 clocks earlier).
//! One write port serves both because the sequencer's retire rule (`isa::retire_wait`) keeps
//! their writes apart.
//!
//! Ports: `meta_in` and `short_slot` (a short-path writer's slot issues) at issue, t;
//! `meta_out` is the controls of the slot the writeback stage holds this clock, `take` whether
//! it writes (low when the long tap's slot went the short way and was written already).
//!
//! Timing: `meta_out` at t+11 on the long path, t+5 on the short one (a registered block-RAM
//! read). The buffer's addresses are its counter's low bits: all 8 on the iCE40 (its smallest
//! memory is a block RAM of 256 words anyway), 4 on the ECP5 ([`SlotRing::lut_ram`]: 16 words,
//! which yosys puts in LUT RAM, keeping an 18-Kbit block RAM per core free); the taps are at
//! most 9 words back.
use crate::bram::Bram;
use rust_hdl::prelude::*;

/// The slot controls' ring; see the module documentation.
#[derive(LogicBlock)]
pub struct SlotRing {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The controls of the slot issuing this clock.
    pub meta_in: Signal<In, Bits<16>>,
    /// A short-path writer's slot issues this clock.
    pub short_slot: Signal<In, Bit>,
    /// The controls of the slot whose result the writeback stage holds.
    pub meta_out: Signal<Out, Bits<16>>,
    /// That slot's writes happen (else its controls were read at the long tap but it took the
    /// short path).
    pub take: Signal<Out, Bit>,
    meta: DFF<Bits<16>>,
    ram: Bram<16, 8>,
    cnt: DFF<Bits<8>>,
    mask: Constant<Bits<8>>,
    // A short-path writer's slot issued 1..5 clocks ago (the tap to read for the writeback).
    sk: [DFF<Bit>; 5],
}

impl SlotRing {
    fn with(ram: Bram<16, 8>, mask: u64) -> SlotRing {
        SlotRing {
            clock: Default::default(),
            meta_in: Default::default(),
            short_slot: Default::default(),
            meta_out: Default::default(),
            take: Default::default(),
            meta: Default::default(),
            ram,
            cnt: Default::default(),
            mask: Constant::new(mask.to_bits()),
            sk: Default::default(),
        }
    }

    /// The ring in a block RAM (256 words, the iCE40's).
    pub fn block_ram() -> SlotRing {
        SlotRing::with(Bram::default(), 0xFF)
    }

    /// The ring in 16 words (LUT RAM on the ECP5).
    pub fn lut_ram() -> SlotRing {
        SlotRing::with(Bram::with_depth_and_contents(16, &[]), 0x0F)
    }
}

impl Logic for SlotRing {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, meta, cnt);
        clock!(self, clock, ram);
        for i in 0..5 {
            self.sk[i].clock.next = self.clock.val();
        }
        self.meta.d.next = self.meta_in.val();
        // The controls of the slot issued 1 clock ago go into the buffer; the read address
        // chosen now gives, next clock, those of the slot issued 11 clocks before it (the long
        // path) or, when that slot is a short-path writer's, 5 (the short path).
        self.cnt.d.next = self.cnt.q.val() + 1;
        self.ram.we.next = true;
        self.ram.wa.next = self.cnt.q.val() & self.mask.val();
        self.ram.wd.next = self.meta.q.val();
        self.sk[0].d.next = self.short_slot.val();
        for i in 1..5 {
            self.sk[i].d.next = self.sk[i - 1].q.val();
        }
        self.ram.ra.next = (self.cnt.q.val() - bits::<8>(9)) & self.mask.val();
        if self.sk[3].q.val() {
            self.ram.ra.next = (self.cnt.q.val() - bits::<8>(3)) & self.mask.val();
        }
        self.meta_out.next = self.ram.rd.val();
        self.take.next = self.sk[4].q.val() | self.ram.rd.val().get_bit(2);
    }
}
