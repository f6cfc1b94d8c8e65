//! `Writeback`: the destination stage of the pipeline: picks the multiply-add or the other
//! result, applies MODULATE (a power-of-two scale) and saturation, in that order, as the core
//! model's `write` does (`arith::fmul(v, 2^k)` then `fsat01` / `fsat11`).
//!
//! The scale is an exponent add, not a multiplier: a NaN becomes the canonical NaN, a subnormal
//! flushes to its signed zero, an infinity stays, an exponent beyond 254 overflows to infinity,
//! and a result below the normal range flushes, except that `(2 - 2^-23) * 2^-127` rounds to
//! `2^-126` on the subnormal grid (ties to even), exactly as the multiplier would.
//!
//! Timing: combinational (the result goes straight to the register memories' write port).
use rust_hdl::prelude::*;

/// The destination stage; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct Writeback {
    /// The multiply-add result.
    pub fmad: Signal<In, Bits<32>>,
    /// The other units' result.
    pub misc: Signal<In, Bits<32>>,
    /// Take `fmad`.
    pub use_fmad: Signal<In, Bit>,
    /// MODULATE: 0 none, 1..3 times 2, 4, 8; 4..6 divided by 2, 4, 8.
    pub scale: Signal<In, Bits<3>>,
    /// 0 none, 1 clamp to [0, 1], 2 clamp to [-1, 1].
    pub sat: Signal<In, Bits<2>>,
    /// The value to write.
    pub value: Signal<Out, Bits<32>>,
    v: Signal<Local, Bits<32>>,
    exp: Signal<Local, Bits<10>>,
    adj: Signal<Local, Bits<10>>,
    scaled: Signal<Local, Bits<32>>,
    sign: Signal<Local, Bits<32>>,
    mag: Signal<Local, Bits<31>>,
    out: Signal<Local, Bits<32>>,
}

impl Logic for Writeback {
    #[hdl_gen]
    fn update(&mut self) {
        self.v.next = self.misc.val();
        if self.use_fmad.val() {
            self.v.next = self.fmad.val();
        }
        self.sign.next = self.v.val() & !bits::<32>(0x7FFF_FFFF);
        // ---- MODULATE.
        self.exp.next = bit_cast::<10, 8>(self.v.val().get_bits::<8>(23));
        self.adj.next = bits::<10>(0);
        match self.scale.val().index() {
            1 => {
                self.adj.next = bits::<10>(1);
            }
            2 => {
                self.adj.next = bits::<10>(2);
            }
            3 => {
                self.adj.next = bits::<10>(3);
            }
            4 => {
                self.adj.next = bits::<10>(0x3FF);
            }
            5 => {
                self.adj.next = bits::<10>(0x3FE);
            }
            6 => {
                self.adj.next = bits::<10>(0x3FD);
            }
            _ => {}
        }
        // Biased exponent after the scale, as a 10-bit two's complement number.
        self.exp.next = self.exp.val() + self.adj.val();
        self.scaled.next = self.v.val();
        if self.scale.val().any() {
            if self.v.val().get_bits::<8>(23) == 255 {
                if self.v.val().get_bits::<23>(0).any() {
                    self.scaled.next = bits::<32>(0x7FC0_0000);
                }
            } else if (self.v.val().get_bits::<8>(23) == 0) | self.exp.val().get_bit(9) {
                // A subnormal input, or a result far below the normal range: signed zero.
                self.scaled.next = self.sign.val();
            } else if self.exp.val() == 0 {
                self.scaled.next = self.sign.val();
                if self.v.val().get_bits::<23>(0).all() {
                    self.scaled.next = self.sign.val() | bits::<32>(0x0080_0000);
                }
            } else if self.exp.val() >= bits::<10>(255) {
                self.scaled.next = self.sign.val() | bits::<32>(0x7F80_0000);
            } else {
                self.scaled.next = self.sign.val()
                    | (bit_cast::<32, 8>(self.exp.val().get_bits::<8>(0)) << 23)
                    | (self.v.val() & bits::<32>(0x007F_FFFF));
            }
        }
        // ---- Saturate.
        self.mag.next = self.scaled.val().get_bits::<31>(0);
        self.out.next = self.scaled.val();
        if self.sat.val() == 1 {
            if self.scaled.val().get_bit(31)
                | !self.scaled.val().get_bits::<8>(23).any()
                | (self.mag.val() > bits::<31>(0x7F80_0000))
            {
                self.out.next = bits::<32>(0);
            } else if self.mag.val() >= bits::<31>(0x3F80_0000) {
                self.out.next = bits::<32>(0x3F80_0000);
            }
        }
        if self.sat.val() == 2 {
            if !self.scaled.val().get_bits::<8>(23).any()
                | (self.mag.val() > bits::<31>(0x7F80_0000))
            {
                self.out.next = bits::<32>(0);
            } else if self.mag.val() >= bits::<31>(0x3F80_0000) {
                self.out.next =
                    (self.scaled.val() & !bits::<32>(0x7FFF_FFFF)) | bits::<32>(0x3F80_0000);
            }
        }
        self.value.next = self.out.val();
    }
}
