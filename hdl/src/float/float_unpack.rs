//! `FloatUnpack`: a binary32 operand taken apart the way the float units read it (combinational):
//! its class under the core's number rules (a zero exponent field is a zero, subnormals
//! included: `decisions.md` section 2) and its significand with the hidden bit. [`crate::fadd::FAdd`]
//! and [`crate::fmul::FMul`] unpack both operands with it.
//!
//! Ports: `x` in; `zero`, `inf`, `nan`, `sig` out. Latency 0 (purely combinational).
use rust_hdl::prelude::*;

/// The class and significand of `x`; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct FloatUnpack {
    /// The operand's bits.
    pub x: Signal<In, Bits<32>>,
    /// Exponent field zero: a zero or a subnormal, which the units treat as a signed zero.
    pub zero: Signal<Out, Bit>,
    /// An infinity.
    pub inf: Signal<Out, Bit>,
    /// A NaN.
    pub nan: Signal<Out, Bit>,
    /// The fraction with the hidden bit set, whatever the class (callers that need a zero's
    /// significand to read zero test `zero`).
    pub sig: Signal<Out, Bits<24>>,

    exp_max: Signal<Local, Bit>,
    frac_zero: Signal<Local, Bit>,
}

impl Logic for FloatUnpack {
    #[hdl_gen]
    fn update(&mut self) {
        self.exp_max.next = self.x.val().get_bits::<8>(23) == 255;
        self.frac_zero.next = self.x.val().get_bits::<23>(0) == 0;
        self.zero.next = self.x.val().get_bits::<8>(23) == 0;
        self.inf.next = self.exp_max.val() & self.frac_zero.val();
        self.nan.next = self.exp_max.val() & !self.frac_zero.val();
        self.sig.next = bit_cast::<24, 23>(self.x.val().get_bits::<23>(0)) | bits::<24>(0x800000);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class boundary, against the bit patterns' definition.
    #[test]
    fn classes_and_significands() {
        let mut u = FloatUnpack::default();
        u.connect_all();
        rust_hdl::core::check_error::check_all(&u).expect("passes rust-hdl's checks");
        for x in [
            0u32,
            0x8000_0000,
            1,
            0x007F_FFFF,
            0x0080_0000,
            0x3F80_0000,
            0xBF80_0001,
            0x7F7F_FFFF,
            0x7F80_0000,
            0xFF80_0000,
            0x7F80_0001,
            0x7FC0_0000,
            0xFFFF_FFFF,
        ] {
            u.x.next = Bits::<32>::from(u64::from(x));
            assert!(simulate(&mut u, 10), "settles");
            let exp = (x >> 23) & 0xFF;
            let frac = x & 0x7F_FFFF;
            assert_eq!(u.zero.val(), exp == 0, "{x:08x}");
            assert_eq!(u.inf.val(), exp == 255 && frac == 0, "{x:08x}");
            assert_eq!(u.nan.val(), exp == 255 && frac != 0, "{x:08x}");
            assert_eq!(u.sig.val().index() as u32, frac | 0x80_0000, "{x:08x}");
        }
    }
}
