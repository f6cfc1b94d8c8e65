//! `Lzc32`: leading-zero count of a 32-bit word as a shallow tree (combinational).
//!
//! A priority chain (`if x[0] {..} if x[1] {..} ...`) maps to one LUT level per two or three
//! bits on the iCE40 (abc does not rebalance it: 9 levels for 28 bits, measured); this tree is
//! four LUT levels: per nibble, per byte, per half, whole word.
//!
//! Ports: `x` in, `count` out = number of leading zeros of `x`, valid for `x != 0` (for zero it
//! reads 31; callers test for zero separately). Latency 0 (purely combinational).
use rust_hdl::prelude::*;

/// Leading-zero counter for `x != 0`; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct Lzc32 {
    /// The word whose leading zeros are counted.
    pub x: Signal<In, Bits<32>>,
    /// Leading zeros of `x` (0..=31; meaningless when `x` is zero).
    pub count: Signal<Out, Bits<5>>,

    // Nibble 0 (bits 3..0): bit 2 = all zero, bits 1..0 = leading zeros.
    nib0: Signal<Local, Bits<3>>,
    // Nibble 1 (bits 7..4): bit 2 = all zero, bits 1..0 = leading zeros.
    nib1: Signal<Local, Bits<3>>,
    // Nibble 2 (bits 11..8): bit 2 = all zero, bits 1..0 = leading zeros.
    nib2: Signal<Local, Bits<3>>,
    // Nibble 3 (bits 15..12): bit 2 = all zero, bits 1..0 = leading zeros.
    nib3: Signal<Local, Bits<3>>,
    // Nibble 4 (bits 19..16): bit 2 = all zero, bits 1..0 = leading zeros.
    nib4: Signal<Local, Bits<3>>,
    // Nibble 5 (bits 23..20): bit 2 = all zero, bits 1..0 = leading zeros.
    nib5: Signal<Local, Bits<3>>,
    // Nibble 6 (bits 27..24): bit 2 = all zero, bits 1..0 = leading zeros.
    nib6: Signal<Local, Bits<3>>,
    // Nibble 7 (bits 31..28): bit 2 = all zero, bits 1..0 = leading zeros.
    nib7: Signal<Local, Bits<3>>,
    // Byte 0: bit 3 = all zero, bits 2..0 = leading zeros.
    byte0: Signal<Local, Bits<4>>,
    // Byte 1: bit 3 = all zero, bits 2..0 = leading zeros.
    byte1: Signal<Local, Bits<4>>,
    // Byte 2: bit 3 = all zero, bits 2..0 = leading zeros.
    byte2: Signal<Local, Bits<4>>,
    // Byte 3: bit 3 = all zero, bits 2..0 = leading zeros.
    byte3: Signal<Local, Bits<4>>,
    // Half 0: bit 4 = all zero, bits 3..0 = leading zeros.
    half0: Signal<Local, Bits<5>>,
    // Half 1: bit 4 = all zero, bits 3..0 = leading zeros.
    half1: Signal<Local, Bits<5>>,
}

impl Logic for Lzc32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.nib0.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(0) < 8 {
            self.nib0.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(0) < 4 {
            self.nib0.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(0) < 2 {
            self.nib0.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(0) == 0 {
            self.nib0.next = bits::<3>(7);
        }
        self.nib1.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(4) < 8 {
            self.nib1.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(4) < 4 {
            self.nib1.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(4) < 2 {
            self.nib1.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(4) == 0 {
            self.nib1.next = bits::<3>(7);
        }
        self.nib2.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(8) < 8 {
            self.nib2.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(8) < 4 {
            self.nib2.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(8) < 2 {
            self.nib2.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(8) == 0 {
            self.nib2.next = bits::<3>(7);
        }
        self.nib3.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(12) < 8 {
            self.nib3.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(12) < 4 {
            self.nib3.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(12) < 2 {
            self.nib3.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(12) == 0 {
            self.nib3.next = bits::<3>(7);
        }
        self.nib4.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(16) < 8 {
            self.nib4.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(16) < 4 {
            self.nib4.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(16) < 2 {
            self.nib4.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(16) == 0 {
            self.nib4.next = bits::<3>(7);
        }
        self.nib5.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(20) < 8 {
            self.nib5.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(20) < 4 {
            self.nib5.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(20) < 2 {
            self.nib5.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(20) == 0 {
            self.nib5.next = bits::<3>(7);
        }
        self.nib6.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(24) < 8 {
            self.nib6.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(24) < 4 {
            self.nib6.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(24) < 2 {
            self.nib6.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(24) == 0 {
            self.nib6.next = bits::<3>(7);
        }
        self.nib7.next = bits::<3>(0);
        if self.x.val().get_bits::<4>(28) < 8 {
            self.nib7.next = bits::<3>(1);
        }
        if self.x.val().get_bits::<4>(28) < 4 {
            self.nib7.next = bits::<3>(2);
        }
        if self.x.val().get_bits::<4>(28) < 2 {
            self.nib7.next = bits::<3>(3);
        }
        if self.x.val().get_bits::<4>(28) == 0 {
            self.nib7.next = bits::<3>(7);
        }
        self.byte0.next = bit_cast::<4, 3>(self.nib1.val()) & 3;
        if self.nib1.val().get_bit(2) {
            self.byte0.next = ((bit_cast::<4, 3>(self.nib0.val()) & 4) << 1)
                | (bit_cast::<4, 3>(self.nib0.val()) & 3)
                | 4;
        }
        self.byte1.next = bit_cast::<4, 3>(self.nib3.val()) & 3;
        if self.nib3.val().get_bit(2) {
            self.byte1.next = ((bit_cast::<4, 3>(self.nib2.val()) & 4) << 1)
                | (bit_cast::<4, 3>(self.nib2.val()) & 3)
                | 4;
        }
        self.byte2.next = bit_cast::<4, 3>(self.nib5.val()) & 3;
        if self.nib5.val().get_bit(2) {
            self.byte2.next = ((bit_cast::<4, 3>(self.nib4.val()) & 4) << 1)
                | (bit_cast::<4, 3>(self.nib4.val()) & 3)
                | 4;
        }
        self.byte3.next = bit_cast::<4, 3>(self.nib7.val()) & 3;
        if self.nib7.val().get_bit(2) {
            self.byte3.next = ((bit_cast::<4, 3>(self.nib6.val()) & 4) << 1)
                | (bit_cast::<4, 3>(self.nib6.val()) & 3)
                | 4;
        }
        self.half0.next = bit_cast::<5, 4>(self.byte1.val()) & 7;
        if self.byte1.val().get_bit(3) {
            self.half0.next = ((bit_cast::<5, 4>(self.byte0.val()) & 8) << 1)
                | (bit_cast::<5, 4>(self.byte0.val()) & 7)
                | 8;
        }
        self.half1.next = bit_cast::<5, 4>(self.byte3.val()) & 7;
        if self.byte3.val().get_bit(3) {
            self.half1.next = ((bit_cast::<5, 4>(self.byte2.val()) & 8) << 1)
                | (bit_cast::<5, 4>(self.byte2.val()) & 7)
                | 8;
        }
        self.count.next = self.half1.val() & 15;
        if self.half1.val().get_bit(4) {
            self.count.next = (self.half0.val() & 15) | 16;
        }
    }
}
