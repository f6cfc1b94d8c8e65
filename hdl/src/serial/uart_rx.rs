//! UART receiver: 8N1 frames sampled at the clock rate, start bit validated mid-bit, framing errors
//! flagged.

use rust_hdl::prelude::*;

use crate::baud::BaudDivisor;

/// Where the receiver is in a frame.
#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum UartRxState {
    /// Waiting for the line to go low.
    Idle,
    /// Timing half a bit to the middle of the start bit.
    Start,
    /// Sampling the eight data bits in their middles.
    Data,
    /// Timing one bit to the middle of the stop bit.
    Stop,
    /// After a framing error: waiting for the line to go high again (a break holds it low).
    Break,
}

/// Receives 8N1 frames (start bit 0, eight data bits LSB first, stop bit 1; idle high).
///
/// The line is sampled on every clock, i.e. oversampled `d` times per bit (`d` = the baud divisor):
/// two flip-flops synchronise it to `clock` and a majority vote over the next three samples
/// removes single-clock glitches. A frame starts when the filtered line is seen low; half a bit
/// later the start bit is checked again, and a line that is high by then was noise (the receiver
/// goes back to idle). Then each data bit and the stop bit are sampled in their middle, `d`
/// clocks apart.
///
/// Timing: `valid` (or `framing_error`) is a registered one-clock pulse, high after the 3rd clock
/// edge following the edge that samples the middle of the stop bit (the synchroniser, the majority
/// filter and the output register); if edge 0 is the first to see the start bit low, that is edge
/// `9 * d + d / 2 + 3`. `data` changes at the same edge and then holds until the next frame ends.
/// The receiver is ready for the next start bit from the middle of the stop bit on, so a slightly
/// faster transmitter sending back to back cannot overrun it. Sampling mid-bit tolerates a baud
/// mismatch of up to about 5% (half a bit of drift by the stop bit's middle, less a few clocks of
/// sampling quantisation); the tests cover +-2%.
///
/// A frame whose stop bit is sampled low sets `framing_error` instead of `valid` (with the data
/// bits as received on `data`); the receiver then waits for the line to return high.
#[derive(Clone, Debug, LogicBlock)]
pub struct UartRx {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// The serial line (asynchronous to `clock`; idle high).
    pub rx: Signal<In, Bit>,
    /// The last byte received; valid with `valid`, held until the next frame ends.
    pub data: Signal<Out, Bits<8>>,
    /// One-clock pulse: `data` holds a correctly framed byte.
    pub valid: Signal<Out, Bit>,
    /// One-clock pulse: a frame ended with a low stop bit (`data` holds its bits anyway).
    pub framing_error: Signal<Out, Bit>,
    last_count: Constant<Bits<16>>,
    half_count: Constant<Bits<16>>,
    top_bit: Constant<Bits<8>>,
    // The line inverted (so the power-up zeros read as idle), through a synchroniser (sync1,
    // sync2) and a three-sample history (sync2..sync4) for the majority vote.
    sync1: DFF<Bit>,
    sync2: DFF<Bit>,
    sync3: DFF<Bit>,
    sync4: DFF<Bit>,
    line_low: Signal<Local, Bit>,
    state: DFF<UartRxState>,
    count: DFF<Bits<16>>,
    bit_index: DFF<Bits<3>>,
    shift: DFF<Bits<8>>,
    data_q: DFF<Bits<8>>,
    valid_q: DFF<Bit>,
    framing_error_q: DFF<Bit>,
}

impl UartRx {
    /// A receiver for bits `divisor` clocks long.
    pub fn new(divisor: BaudDivisor) -> Self {
        let cycles = u64::from(divisor.cycles());
        UartRx {
            clock: Default::default(),
            rx: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            framing_error: Default::default(),
            last_count: Constant::new((cycles - 1).to_bits()),
            // The start check happens `half_count + 1` clocks after the first low sample, the
            // middle of the start bit (the filter delays the edge and the samples alike).
            half_count: Constant::new((cycles / 2 - 1).to_bits()),
            top_bit: Constant::new(0x80_u64.to_bits()),
            sync1: Default::default(),
            sync2: Default::default(),
            sync3: Default::default(),
            sync4: Default::default(),
            line_low: Default::default(),
            state: Default::default(),
            count: Default::default(),
            bit_index: Default::default(),
            shift: Default::default(),
            data_q: Default::default(),
            valid_q: Default::default(),
            framing_error_q: Default::default(),
        }
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sync1,
            sync2,
            sync3,
            sync4,
            state,
            count,
            bit_index,
            shift,
            data_q,
            valid_q,
            framing_error_q
        );
        self.sync1.d.next = !self.rx.val();
        self.sync2.d.next = self.sync1.q.val();
        self.sync3.d.next = self.sync2.q.val();
        self.sync4.d.next = self.sync3.q.val();
        self.line_low.next = (self.sync2.q.val() & self.sync3.q.val())
            | (self.sync2.q.val() & self.sync4.q.val())
            | (self.sync3.q.val() & self.sync4.q.val());

        self.data.next = self.data_q.q.val();
        self.valid.next = self.valid_q.q.val();
        self.framing_error.next = self.framing_error_q.q.val();
        self.valid_q.d.next = false;
        self.framing_error_q.d.next = false;

        match self.state.q.val() {
            UartRxState::Idle => {
                self.count.d.next = 0.into();
                if self.line_low.val() {
                    self.state.d.next = UartRxState::Start;
                }
            }
            UartRxState::Start => {
                if self.count.q.val() == self.half_count.val() {
                    self.count.d.next = 0.into();
                    self.bit_index.d.next = 0.into();
                    if self.line_low.val() {
                        self.state.d.next = UartRxState::Data;
                    } else {
                        self.state.d.next = UartRxState::Idle;
                    }
                } else {
                    self.count.d.next = self.count.q.val() + 1;
                }
            }
            UartRxState::Data => {
                if self.count.q.val() == self.last_count.val() {
                    self.count.d.next = 0.into();
                    self.shift.d.next = self.shift.q.val() >> 1;
                    if !self.line_low.val() {
                        self.shift.d.next = (self.shift.q.val() >> 1) | self.top_bit.val();
                    }
                    self.bit_index.d.next = self.bit_index.q.val() + 1;
                    if self.bit_index.q.val() == 7 {
                        self.state.d.next = UartRxState::Stop;
                    }
                } else {
                    self.count.d.next = self.count.q.val() + 1;
                }
            }
            UartRxState::Stop => {
                if self.count.q.val() == self.last_count.val() {
                    self.count.d.next = 0.into();
                    self.data_q.d.next = self.shift.q.val();
                    if self.line_low.val() {
                        self.framing_error_q.d.next = true;
                        self.state.d.next = UartRxState::Break;
                    } else {
                        self.valid_q.d.next = true;
                        self.state.d.next = UartRxState::Idle;
                    }
                } else {
                    self.count.d.next = self.count.q.val() + 1;
                }
            }
            UartRxState::Break => {
                if !self.line_low.val() {
                    self.state.d.next = UartRxState::Idle;
                }
            }
        }
    }
}
