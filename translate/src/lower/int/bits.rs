//! The bit-counting, bit-reversing and bit-field built-ins on `u32` / `i32`, as exact sequences
//! of TGSI's integer opcodes (SWAR: sums of bit groups in parallel within one word).
//!
//! - `countOneBits`: pairs, nibbles and bytes summed (`x - ((x >> 1) & 0x55555555)`, ...);
//! - `reverseBits`: swaps of bits, pairs, nibbles, bytes and halves;
//! - `countTrailingZeros`: the ones below the lowest set bit, `countOneBits((x & -x) - 1)`;
//! - `countLeadingZeros`: 32 less the ones of x smeared rightwards;
//! - `firstTrailingBit` / `firstLeadingBit`: those, with -1 for no such bit (for a negative
//!   `i32`, the highest clear bit);
//! - `extractBits` / `insertBits`: shifts and masks with WGSL's clamping of offset and count.

use crate::code::Src;
use crate::lower::Lower;
use microcode::tgsi::Opcode;

impl Lower<'_> {
    /// `countOneBits(x)`.
    pub(super) fn count_one_bits(&mut self, n: usize, x: Src) -> Src {
        let m1 = self.iimm(&[0x5555_5555]);
        let t = self.lshr_const(n, x, 1);
        let t = self.ialu(Opcode::And, n, vec![t, m1]);
        let x = self.isub(n, x, t);
        let m2 = self.iimm(&[0x3333_3333]);
        let a = self.ialu(Opcode::And, n, vec![x, m2]);
        let b = self.lshr_const(n, x, 2);
        let b = self.ialu(Opcode::And, n, vec![b, m2]);
        let x = self.iadd(n, a, b);
        let b = self.lshr_const(n, x, 4);
        let x = self.iadd(n, x, b);
        let m4 = self.iimm(&[0x0F0F_0F0F]);
        let x = self.ialu(Opcode::And, n, vec![x, m4]);
        let b = self.lshr_const(n, x, 8);
        let x = self.iadd(n, x, b);
        let b = self.lshr_const(n, x, 16);
        let x = self.iadd(n, x, b);
        let m6 = self.iimm(&[0x3F]);
        self.ialu(Opcode::And, n, vec![x, m6])
    }

    /// `reverseBits(x)`.
    pub(super) fn reverse_bits(&mut self, n: usize, x: Src) -> Src {
        let mut x = x;
        for (k, m) in [
            (1, 0x5555_5555u32),
            (2, 0x3333_3333),
            (4, 0x0F0F_0F0F),
            (8, 0x00FF_00FF),
        ] {
            let mask = self.iimm(&[m]);
            let hi = self.lshr_const(n, x, k);
            let hi = self.ialu(Opcode::And, n, vec![hi, mask]);
            let lo = self.ialu(Opcode::And, n, vec![x, mask]);
            let kk = self.iimm(&[k]);
            let lo = self.ialu(Opcode::Shl, n, vec![lo, kk]);
            x = self.ialu(Opcode::Or, n, vec![hi, lo]);
        }
        let hi = self.lshr_const(n, x, 16);
        let k16 = self.iimm(&[16]);
        let lo = self.ialu(Opcode::Shl, n, vec![x, k16]);
        self.ialu(Opcode::Or, n, vec![hi, lo])
    }

    /// `countTrailingZeros(x)` (32 for 0).
    pub(super) fn count_trailing_zeros(&mut self, n: usize, x: Src) -> Src {
        let zero = self.iimm(&[0]);
        let neg = self.isub(n, zero, x);
        let low = self.ialu(Opcode::And, n, vec![x, neg]);
        let one = self.iimm(&[1]);
        let below = self.isub(n, low, one);
        self.count_one_bits(n, below)
    }

    /// `countLeadingZeros(x)` (32 for 0).
    pub(super) fn count_leading_zeros(&mut self, n: usize, x: Src) -> Src {
        let mut x = x;
        for k in [1, 2, 4, 8, 16] {
            let s = self.lshr_const(n, x, k);
            x = self.ialu(Opcode::Or, n, vec![x, s]);
        }
        let ones = self.count_one_bits(n, x);
        let k32 = self.iimm(&[32]);
        self.isub(n, k32, ones)
    }

    /// `firstTrailingBit(x)`: the lowest set bit's index, -1 for 0.
    pub(super) fn first_trailing_bit(&mut self, n: usize, x: Src) -> Src {
        let c = self.count_trailing_zeros(n, x);
        let none = self.iimm(&[u32::MAX]);
        self.ialu(Opcode::Ucmp, n, vec![x, c, none])
    }

    /// `firstLeadingBit(x)`: the highest set bit's index (of a negative `i32`, the highest clear
    /// bit's), -1 where there is none.
    pub(super) fn first_leading_bit(&mut self, n: usize, x: Src, signed: bool) -> Src {
        let y = if signed {
            let k31 = self.iimm(&[31]);
            let s = self.ialu(Opcode::Shr, n, vec![x, k31]);
            self.ialu(Opcode::Xor, n, vec![x, s])
        } else {
            x
        };
        let z = self.count_leading_zeros(n, y);
        let k31 = self.iimm(&[31]);
        let r = self.isub(n, k31, z);
        let none = self.iimm(&[u32::MAX]);
        self.ialu(Opcode::Ucmp, n, vec![y, r, none])
    }

    /// WGSL's clamped offset and count: `o = min(offset, 32)`, `c = min(count, 32 - o)`.
    fn field(&mut self, offset: Src, count: Src) -> (Src, Src) {
        let k32 = self.iimm(&[32]);
        let o = self.iminmax(1, offset.comp(0), k32, false, false);
        let room = self.isub(1, k32, o);
        let c = self.iminmax(1, count.comp(0), room, false, false);
        (o, c)
    }

    /// `extractBits(e, offset, count)`: bits `[o, o + c)` of e, zero- (u32) or sign- (i32)
    /// extended; 0 when c is 0.
    pub(super) fn extract_bits(
        &mut self,
        n: usize,
        e: Src,
        offset: Src,
        count: Src,
        signed: bool,
    ) -> Src {
        let (o, c) = self.field(offset, count);
        let k32 = self.iimm(&[32]);
        let up = self.isub(1, k32, o);
        let up = self.isub(1, up, c);
        let t = self.shift(Opcode::Shl, n, e, up.comp(0));
        let down = self.isub(1, k32, c);
        let r = if signed {
            self.shift(Opcode::Shr, n, t, down.comp(0))
        } else {
            self.lshr(n, t, down.comp(0))
        };
        let zero = self.iimm(&[0]);
        self.ialu(Opcode::Ucmp, n, vec![c.comp(0), r, zero])
    }

    /// `insertBits(e, newbits, offset, count)`: e with bits `[o, o + c)` from newbits.
    pub(super) fn insert_bits(
        &mut self,
        n: usize,
        e: Src,
        newbits: Src,
        offset: Src,
        count: Src,
    ) -> Src {
        let (o, c) = self.field(offset, count);
        let k32 = self.iimm(&[32]);
        let ones = self.iimm(&[u32::MAX]);
        let down = self.isub(1, k32, c);
        let m = self.lshr(1, ones, down.comp(0));
        let zero = self.iimm(&[0]);
        let m = self.ialu(Opcode::Ucmp, 1, vec![c.comp(0), m, zero]);
        let mask = self.ialu(Opcode::Shl, 1, vec![m, o.comp(0)]);
        let keep = self.ialu(Opcode::Not, 1, vec![mask]);
        let kept = self.ialu(Opcode::And, n, vec![e, keep.comp(0)]);
        let moved = self.ialu(Opcode::Shl, n, vec![newbits, o.comp(0)]);
        let moved = self.ialu(Opcode::And, n, vec![moved, mask.comp(0)]);
        self.ialu(Opcode::Or, n, vec![kept, moved])
    }
}
