//! `Writeback`: the destination stage of the pipeline: picks the multiply-add or the other
//! result and applies saturation, as the core model's `write` does (`fsat01` / `fsat11`).
//! TGSI's MODULATE is not here: the compiler multiplies by the power of two (one `FMAD`).
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
    /// 0 none, 1 clamp to [0, 1], 2 clamp to [-1, 1].
    pub sat: Signal<In, Bits<2>>,
    /// The value to write.
    pub value: Signal<Out, Bits<32>>,
    v: Signal<Local, Bits<32>>,
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
        self.mag.next = self.v.val().get_bits::<31>(0);
        self.out.next = self.v.val();
        if self.sat.val() == 1 {
            if self.v.val().get_bit(31)
                | !self.v.val().get_bits::<8>(23).any()
                | (self.mag.val() > bits::<31>(0x7F80_0000))
            {
                self.out.next = bits::<32>(0);
            } else if self.mag.val() >= bits::<31>(0x3F80_0000) {
                self.out.next = bits::<32>(0x3F80_0000);
            }
        }
        if self.sat.val() == 2 {
            if !self.v.val().get_bits::<8>(23).any() | (self.mag.val() > bits::<31>(0x7F80_0000)) {
                self.out.next = bits::<32>(0);
            } else if self.mag.val() >= bits::<31>(0x3F80_0000) {
                self.out.next = (self.v.val() & !bits::<32>(0x7FFF_FFFF)) | bits::<32>(0x3F80_0000);
            }
        }
        self.value.next = self.out.val();
    }
}
