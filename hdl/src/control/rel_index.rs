//! `RelIndex`: the relative moves' per-lane register index (MOVR reads `FILE[x + n]`, MOVW writes
//! it): `i = x + sext10(target)`, in range when `0 <= i <= limit`, computed from the index word
//! `x` each lane's read of operand B returns, and held per lane for the instruction's slots.
//!
//! The sum needs only the low 11 bits of `x` and whether its upper 21 bits are 0, 1 or all ones
//! (a 32-bit adder otherwise): the sum's upper bits are x's plus the carry, minus one for a
//! negative offset, so they are zero exactly when x's are 0 (no carry) or all ones (a carry) for
//! an offset >= 0, and 0 (a carry) or 1 (none) for a negative one.
//!
//! Ports and timing: `x`, `target`, `limit` are valid in a clock where `capture` is set; at the
//! rising edge ending it lane `capture_lane`'s index and range flag are stored. `index` and `ok`
//! are the stored values of lane `lane` (combinational from `lane`).
use rust_hdl::prelude::*;

/// Relative-move index per lane; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct RelIndex {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The index word read for a lane (operand B's raw word).
    pub x: Signal<In, Bits<32>>,
    /// The instruction's 10-bit signed offset.
    pub target: Signal<In, Bits<10>>,
    /// The highest index in range (operand C's index field).
    pub limit: Signal<In, Bits<8>>,
    /// Store this clock's sum for `capture_lane`.
    pub capture: Signal<In, Bit>,
    /// The lane whose index `x` is.
    pub capture_lane: Signal<In, Bits<2>>,
    /// The lane whose stored index `index` and `ok` give.
    pub lane: Signal<In, Bits<2>>,
    /// Lane `lane`'s index (low 8 bits of the sum).
    pub index: Signal<Out, Bits<8>>,
    /// Lane `lane`'s index is in range.
    pub ok: Signal<Out, Bit>,

    t11: Signal<Local, Bits<11>>,
    sum: Signal<Local, Bits<12>>,
    hi0: Signal<Local, Bit>,
    hi1: Signal<Local, Bit>,
    hi_f: Signal<Local, Bit>,
    hi_ok: Signal<Local, Bit>,
    in_range: Signal<Local, Bit>,
    idx: [DFF<Bits<8>>; 4],
    in_ok: [DFF<Bit>; 4],
}

impl Logic for RelIndex {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..4 {
            self.idx[i].clock.next = self.clock.val();
            self.idx[i].d.next = self.idx[i].q.val();
            self.in_ok[i].clock.next = self.clock.val();
            self.in_ok[i].d.next = self.in_ok[i].q.val();
        }
        self.t11.next = bit_cast::<11, 10>(self.target.val());
        if self.target.val().get_bit(9) {
            self.t11.next = self.t11.val() | bits::<11>(0x400);
        }
        self.sum.next =
            bit_cast::<12, 11>(self.x.val().get_bits::<11>(0)) + bit_cast::<12, 11>(self.t11.val());
        self.hi0.next = !self.x.val().get_bits::<21>(11).any();
        self.hi1.next = self.x.val().get_bits::<21>(11) == bits::<21>(1);
        self.hi_f.next = self.x.val().get_bits::<21>(11) == bits::<21>(0x1F_FFFF);
        self.hi_ok.next = (!self.sum.val().get_bit(11) & self.hi0.val())
            | (self.sum.val().get_bit(11) & self.hi_f.val());
        if self.target.val().get_bit(9) {
            self.hi_ok.next = (self.sum.val().get_bit(11) & self.hi0.val())
                | (!self.sum.val().get_bit(11) & self.hi1.val());
        }
        self.in_range.next = self.hi_ok.val()
            & !self.sum.val().get_bits::<3>(8).any()
            & (self.sum.val().get_bits::<8>(0) <= self.limit.val());
        if self.capture.val() {
            match self.capture_lane.val().index() {
                0 => {
                    self.idx[0].d.next = self.sum.val().get_bits::<8>(0);
                    self.in_ok[0].d.next = self.in_range.val();
                }
                1 => {
                    self.idx[1].d.next = self.sum.val().get_bits::<8>(0);
                    self.in_ok[1].d.next = self.in_range.val();
                }
                2 => {
                    self.idx[2].d.next = self.sum.val().get_bits::<8>(0);
                    self.in_ok[2].d.next = self.in_range.val();
                }
                _ => {
                    self.idx[3].d.next = self.sum.val().get_bits::<8>(0);
                    self.in_ok[3].d.next = self.in_range.val();
                }
            }
        }
        match self.lane.val().index() {
            0 => {
                self.index.next = self.idx[0].q.val();
                self.ok.next = self.in_ok[0].q.val();
            }
            1 => {
                self.index.next = self.idx[1].q.val();
                self.ok.next = self.in_ok[1].q.val();
            }
            2 => {
                self.index.next = self.idx[2].q.val();
                self.ok.next = self.in_ok[2].q.val();
            }
            _ => {
                self.index.next = self.idx[3].q.val();
                self.ok.next = self.in_ok[3].q.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settle(r: &mut RelIndex) {
        assert!(simulate(r, 100), "settles");
    }

    fn tick(r: &mut RelIndex) {
        settle(r);
        r.clock.next = true.into();
        settle(r);
        r.clock.next = false.into();
        settle(r);
    }

    /// Every lane keeps its own index; the range test against `x + sext10(target)` computed
    /// with 64-bit integers, across the sign and wrap cases of the shortened adder.
    #[test]
    fn indices_and_ranges_per_lane() {
        let mut r = RelIndex::default();
        r.connect_all();
        rust_hdl::core::check_error::check_all(&r).expect("passes rust-hdl's checks");
        let xs: [u32; 8] = [
            0,
            5,
            63,
            64,
            0xFFFF_FFFF,
            0xFFFF_FFF0,
            0x0000_0800,
            0x8000_0000,
        ];
        let targets: [i32; 5] = [0, 3, -1, -5, 511];
        for (k, &x) in xs.iter().enumerate() {
            for &t in &targets {
                let lane = (k % 4) as u64;
                r.x.next = Bits::<32>::from(u64::from(x));
                r.target.next = Bits::<10>::from((t as u64) & 0x3FF);
                r.limit.next = Bits::<8>::from(40u64);
                r.capture.next = true;
                r.capture_lane.next = Bits::<2>::from(lane);
                tick(&mut r);
                r.capture.next = false;
                // Another lane's capture must not touch this one.
                r.capture_lane.next = Bits::<2>::from((lane + 1) % 4);
                r.lane.next = Bits::<2>::from(lane);
                tick(&mut r);
                let i = i64::from(x as i32) + i64::from(t);
                let want_ok = (0..=40).contains(&i);
                assert_eq!(r.ok.val(), want_ok, "x {x:#x} t {t}");
                if want_ok {
                    assert_eq!(r.index.val().index() as i64, i, "x {x:#x} t {t}");
                }
            }
        }
    }
}
