//! The Alchitry Cu top level as built today: the serial link and the floating-point datapath,
//! wired so that every block is exercised and kept by synthesis until the shader core and its
//! loader take their place.
//!
//! Behaviour ("MAD echo"): the board receives 12 bytes over the USB serial port (8N1), three
//! big-endian binary32 operands `a`, `b`, `c`, computes `fadd(fmul(a, b), c)` on the core's pipelined
//! multiplier and adder (two roundings, as the shader core's MAD) and sends the 4-byte big-endian
//! result back. LEDs: 0 heartbeat (about 1.5 Hz at 100 MHz), 1 toggles per received byte, 2 a
//! framing error was seen, 3 busy (operands complete, answer not yet sent).
//!
//! Ports: `clock` (100 MHz, pad P7), `reset_n` (active-low button, P8; synchronised, clears the
//! operand counter and the error LED), `rx` (P14), `tx` (M9), `leds` (J11 ... N14). The pin names
//! match `constraints/alchitry_cu.pcf`.
//!
//! Timing: the answer starts `FMul` + `FAdd` latency + 2 clocks after the stop bit of the 12th byte.

use crate::baud::BaudDivisor;
use crate::fadd::FAdd;
use crate::fmul::FMul;
use crate::uart_rx::UartRx;
use crate::uart_tx::UartTx;
use rust_hdl::prelude::*;

/// Clocks from operands to a stable MAD result (FMul 5 + FAdd 5) plus margin.
const MAD_WAIT: u64 = 12;

/// The board's top level (see the module documentation).
#[derive(LogicBlock)]
pub struct BoardTop {
    /// 100 MHz oscillator.
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub reset_n: Signal<In, Bit>,
    /// Serial data from the host (FTDI TX).
    pub rx: Signal<In, Bit>,
    /// Serial data to the host (FTDI RX).
    pub tx: Signal<Out, Bit>,
    /// The eight LEDs, bit 0 = LED 0.
    pub leds: Signal<Out, Bits<8>>,
    uart_rx: UartRx,
    uart_tx: UartTx,
    fmul: FMul,
    fadd: FAdd,
    reset_sync: DFF<Bits<2>>,
    rx_sync: DFF<Bits<2>>,
    w0: DFF<Bits<32>>,
    w1: DFF<Bits<32>>,
    w2: DFF<Bits<32>>,
    received: DFF<Bits<4>>,
    wait: DFF<Bits<4>>,
    busy: DFF<Bit>,
    result: DFF<Bits<32>>,
    to_send: DFF<Bits<3>>,
    heartbeat: DFF<Bits<26>>,
    activity: DFF<Bit>,
    framing_seen: DFF<Bit>,
    mad_wait: Constant<Bits<4>>,
}

impl BoardTop {
    /// A top level whose serial link runs at `divisor` clocks per bit.
    pub fn new(divisor: BaudDivisor) -> BoardTop {
        BoardTop {
            clock: Default::default(),
            reset_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            leds: Default::default(),
            uart_rx: UartRx::new(divisor),
            uart_tx: UartTx::new(divisor),
            fmul: FMul::default(),
            fadd: FAdd::default(),
            reset_sync: Default::default(),
            rx_sync: Default::default(),
            w0: Default::default(),
            w1: Default::default(),
            w2: Default::default(),
            received: Default::default(),
            wait: Default::default(),
            busy: Default::default(),
            result: Default::default(),
            to_send: Default::default(),
            heartbeat: Default::default(),
            activity: Default::default(),
            framing_seen: Default::default(),
            mad_wait: Constant::new(MAD_WAIT.to_bits()),
        }
    }
}

impl Logic for BoardTop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            reset_sync,
            rx_sync,
            w0,
            w1,
            w2,
            received,
            wait,
            busy,
            result,
            to_send,
            heartbeat,
            activity,
            framing_seen
        );
        clock!(self, clock, uart_rx, uart_tx, fmul, fadd);
        // Two-flop synchronisers for the asynchronous pads.
        self.reset_sync.d.next =
            (self.reset_sync.q.val() << 1) | bit_cast::<2, 1>(self.reset_n.val().into());
        self.rx_sync.d.next = (self.rx_sync.q.val() << 1) | bit_cast::<2, 1>(self.rx.val().into());
        self.uart_rx.rx.next = self.rx_sync.q.val().get_bit(1);
        self.heartbeat.d.next = self.heartbeat.q.val() + 1;

        // The MAD datapath runs continuously on the operand registers.
        self.fmul.a.next = self.w0.q.val();
        self.fmul.b.next = self.w1.q.val();
        self.fadd.a.next = self.fmul.result.val();
        self.fadd.b.next = self.w2.q.val();
        self.fadd.sub.next = false;

        if self.uart_rx.valid.val() & !self.busy.q.val() {
            self.w0.d.next =
                (self.w0.q.val() << 8) | bit_cast::<32, 8>(self.w1.q.val().get_bits::<8>(24));
            self.w1.d.next =
                (self.w1.q.val() << 8) | bit_cast::<32, 8>(self.w2.q.val().get_bits::<8>(24));
            self.w2.d.next = (self.w2.q.val() << 8) | bit_cast::<32, 8>(self.uart_rx.data.val());
            self.activity.d.next = !self.activity.q.val();
            if self.received.q.val() == 11 {
                self.received.d.next = 0.into();
                self.busy.d.next = true;
                self.wait.d.next = self.mad_wait.val();
            } else {
                self.received.d.next = self.received.q.val() + 1;
            }
        }
        if self.uart_rx.framing_error.val() {
            self.framing_seen.d.next = true;
        }

        // After the pipeline latency, capture the result and send it, most significant byte first.
        if self.busy.q.val() & (self.to_send.q.val() == 0) {
            if self.wait.q.val() == 1 {
                self.result.d.next = self.fadd.result.val();
                self.to_send.d.next = 4.into();
            }
            if self.wait.q.val() != 0 {
                self.wait.d.next = self.wait.q.val() - 1;
            }
        }
        self.uart_tx.data.next = self.result.q.val().get_bits::<8>(24);
        self.uart_tx.valid.next = self.to_send.q.val() != 0;
        if (self.to_send.q.val() != 0) & self.uart_tx.ready.val() {
            self.result.d.next = self.result.q.val() << 8;
            self.to_send.d.next = self.to_send.q.val() - 1;
            if self.to_send.q.val() == 1 {
                self.busy.d.next = false;
            }
        }
        self.tx.next = self.uart_tx.tx.val();

        if !self.reset_sync.q.val().get_bit(1) {
            self.received.d.next = 0.into();
            self.busy.d.next = false;
            self.to_send.d.next = 0.into();
            self.wait.d.next = 0.into();
            self.framing_seen.d.next = false;
        }
        self.leds.next = bit_cast::<8, 1>(self.heartbeat.q.val().get_bit(25).into())
            | (bit_cast::<8, 1>(self.activity.q.val().into()) << 1)
            | (bit_cast::<8, 1>(self.framing_seen.q.val().into()) << 2)
            | (bit_cast::<8, 1>(self.busy.q.val().into()) << 3);
    }
}
