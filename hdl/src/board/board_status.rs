//! `BoardStatus`: the reset synchroniser and the status LEDs every board top level shares
//! ([`crate::board_top::BoardTop`], [`crate::multi_board_top::MultiBoardTop`]).
//!
//! Ports: `reset_n` (the active-low button, asynchronous) becomes `reset` (active high, two
//! flip-flops later: the loader's reset). The LEDs (`leds`, bit 0 = LED 0) show: 0 heartbeat
//! (bit 25 of a free-running counter: about 0.75 Hz at 50 MHz), 1 a valid image is loaded
//! (`load_state` is `LoadState::Valid`), 2 a quad is running (`running`), 3 the last RUN faulted
//! (`faulted`), 4 an upload is in progress or failed (the odd load states), 5 the loader is
//! answering or working (`!idle`), 6 toggles per received byte (`rx_valid`), 7 toggles per
//! dropped frame (`dropped`).
//!
//! Timing: `reset` and LEDs 0, 6 and 7 come from registers; the other LEDs are combinational
//! from their inputs.
use microcode::protocol::LoadState;
use rust_hdl::prelude::*;

/// The reset synchroniser and status LEDs; see the module documentation.
#[derive(LogicBlock)]
pub struct BoardStatus {
    /// The board clock.
    pub clock: Signal<In, Clock>,
    /// Reset button, active low, asynchronous.
    pub reset_n: Signal<In, Bit>,
    /// The button, synchronised and active high: the loader's reset.
    pub reset: Signal<Out, Bit>,
    /// The UART received a byte this clock.
    pub rx_valid: Signal<In, Bit>,
    /// Pulse: the loader dropped a received segment.
    pub dropped: Signal<In, Bit>,
    /// The loader's load state (`microcode::protocol::LoadState`'s code).
    pub load_state: Signal<In, Bits<2>>,
    /// A quad is running.
    pub running: Signal<In, Bit>,
    /// The last RUN faulted.
    pub faulted: Signal<In, Bit>,
    /// The loader waits for a request.
    pub idle: Signal<In, Bit>,
    /// The eight LEDs, bit 0 = LED 0.
    pub leds: Signal<Out, Bits<8>>,
    // Power-up zeros read as "pressed" until the synchroniser has filled, so the loader sees
    // one reset clock at configuration, which is harmless (it starts in that state anyway).
    reset_sync: DFF<Bits<2>>,
    heartbeat: DFF<Bits<26>>,
    activity: DFF<Bit>,
    dropped_led: DFF<Bit>,
    valid: Constant<Bits<2>>,
}

impl Default for BoardStatus {
    fn default() -> BoardStatus {
        BoardStatus {
            clock: Default::default(),
            reset_n: Default::default(),
            reset: Default::default(),
            rx_valid: Default::default(),
            dropped: Default::default(),
            load_state: Default::default(),
            running: Default::default(),
            faulted: Default::default(),
            idle: Default::default(),
            leds: Default::default(),
            reset_sync: Default::default(),
            heartbeat: Default::default(),
            activity: Default::default(),
            dropped_led: Default::default(),
            valid: Constant::new((LoadState::Valid as u64).to_bits()),
        }
    }
}

impl Logic for BoardStatus {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, reset_sync, heartbeat, activity, dropped_led);
        self.reset_sync.d.next =
            (self.reset_sync.q.val() << 1) | bit_cast::<2, 1>(self.reset_n.val().into());
        self.reset.next = !self.reset_sync.q.val().get_bit(1);
        self.heartbeat.d.next = self.heartbeat.q.val() + 1;
        if self.rx_valid.val() {
            self.activity.d.next = !self.activity.q.val();
        }
        if self.dropped.val() {
            self.dropped_led.d.next = !self.dropped_led.q.val();
        }
        self.leds.next = bit_cast::<8, 1>(self.heartbeat.q.val().get_bit(25).into())
            | (bit_cast::<8, 1>((self.load_state.val() == self.valid.val()).into()) << 1)
            | (bit_cast::<8, 1>(self.running.val().into()) << 2)
            | (bit_cast::<8, 1>(self.faulted.val().into()) << 3)
            | (bit_cast::<8, 1>(self.load_state.val().get_bit(0).into()) << 4)
            | (bit_cast::<8, 1>((!self.idle.val()).into()) << 5)
            | (bit_cast::<8, 1>(self.activity.q.val().into()) << 6)
            | (bit_cast::<8, 1>(self.dropped_led.q.val().into()) << 7);
    }
}
