//! UART transmitter: 8N1 frames from bytes offered with a ready/valid handshake.

use rust_hdl::prelude::*;

use crate::baud::BaudDivisor;

/// Sends each accepted byte as an 8N1 frame: a start bit (0), eight data bits least significant
/// first, a stop bit (1); the line idles high.
///
/// Timing (all on rising edges of `clock`; `d` is the baud divisor in clocks per bit):
/// - a byte is taken at an edge where `valid && ready`; `tx` is registered and shows the start bit
///   from that edge on;
/// - every bit, the stop bit included, lasts exactly `d` clocks, so a frame takes `10 * d` clocks;
/// - `ready` is high while idle and during the last clock of a stop bit, so bytes offered back to
///   back (valid held high) go out as frames with no gap between them;
/// - `data` is only read at the accepting edge.
///
/// After configuration the DFFs start at zero, which this block reads as idle: `tx` is high.
#[derive(Clone, Debug, LogicBlock)]
pub struct UartTx {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// The byte to send, read when `valid && ready`.
    pub data: Signal<In, Bits<8>>,
    /// The caller offers `data`.
    pub valid: Signal<In, Bit>,
    /// The transmitter takes `data` at this edge if `valid` is high.
    pub ready: Signal<Out, Bit>,
    /// The serial line (idle high).
    pub tx: Signal<Out, Bit>,
    last_count: Constant<Bits<16>>,
    stop_bit: Constant<Bits<9>>,
    busy: DFF<Bit>,
    // Inverted so that the power-up value 0 means a high (idle) line.
    line_low: DFF<Bit>,
    // The bits still to send after the current one: data (LSB first), then the stop bit.
    shift: DFF<Bits<9>>,
    count: DFF<Bits<16>>,
    bits_left: DFF<Bits<4>>,
}

impl UartTx {
    /// A transmitter sending one bit every `divisor` clocks.
    pub fn new(divisor: BaudDivisor) -> Self {
        UartTx {
            clock: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            ready: Default::default(),
            tx: Default::default(),
            last_count: Constant::new(u64::from(divisor.cycles() - 1).to_bits()),
            stop_bit: Constant::new(0x100_u64.to_bits()),
            busy: Default::default(),
            line_low: Default::default(),
            shift: Default::default(),
            count: Default::default(),
            bits_left: Default::default(),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, line_low, shift, count, bits_left);
        self.tx.next = !self.line_low.q.val();
        self.ready.next = !self.busy.q.val()
            | ((self.count.q.val() == self.last_count.val()) & (self.bits_left.q.val() == 0));
        if self.busy.q.val() {
            if self.count.q.val() == self.last_count.val() {
                self.count.d.next = 0.into();
                if self.bits_left.q.val() == 0 {
                    self.busy.d.next = false;
                } else {
                    self.line_low.d.next = !self.shift.q.val().get_bit(0);
                    self.shift.d.next = self.shift.q.val() >> 1;
                    self.bits_left.d.next = self.bits_left.q.val() - 1;
                }
            } else {
                self.count.d.next = self.count.q.val() + 1;
            }
        }
        if self.valid.val()
            & (!self.busy.q.val()
                | ((self.count.q.val() == self.last_count.val()) & (self.bits_left.q.val() == 0)))
        {
            self.busy.d.next = true;
            self.count.d.next = 0.into();
            self.line_low.d.next = true;
            self.shift.d.next = bit_cast::<9, 8>(self.data.val()) | self.stop_bit.val();
            self.bits_left.d.next = 9.into();
        }
    }
}
