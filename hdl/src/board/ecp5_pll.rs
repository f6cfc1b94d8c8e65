//! `Ecp5Pll`: the ECP5's PLL (`EHXPLLL`) making the board clock from the oscillator, with the
//! dividers chosen as Project Trellis's `ecppll` chooses them (the output frequency nearest the
//! request, among equals the VCO nearest 600 MHz).
//!
//! Ports: `clock_in` (the oscillator), `clock_out` (the PLL's primary output CLKOP, fed back
//! to it), `locked` (high once the PLL has locked).
//!
//! Only synthesis uses this block (yosys `synth_ecp5` knows `EHXPLLL`); it has no simulation
//! model, like the iCE40's PLL: simulations clock the board top directly.
use rust_hdl::prelude::*;

/// The ECP5 PLL's limits (MHz), from `ecppll`: phase-detector input, VCO.
const PFD_MHZ: (f64, f64) = (3.125, 400.0);
const VCO_MHZ: (f64, f64) = (400.0, 800.0);

/// The dividers of one PLL setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PllSettings {
    /// Reference divider (`CLKI_DIV`, 1..=128).
    pub input_div: u32,
    /// Feedback divider (`CLKFB_DIV`, 1..=80).
    pub feedback_div: u32,
    /// Primary output divider (`CLKOP_DIV`, 1..=128).
    pub output_div: u32,
    /// The VCO frequency in MHz.
    pub vco_mhz: f64,
    /// The output frequency in MHz.
    pub out_mhz: f64,
}

impl PllSettings {
    /// The dividers for `out_hz` from `in_hz`, or `None` when the output is not exactly
    /// reachable (the board clocks are chosen to be).
    pub fn exact(in_hz: u64, out_hz: u64) -> Option<PllSettings> {
        let (fin, fout) = (in_hz as f64 / 1e6, out_hz as f64 / 1e6);
        let mut best: Option<PllSettings> = None;
        for input_div in 1..=128u32 {
            let pfd = fin / f64::from(input_div);
            if !(PFD_MHZ.0..=PFD_MHZ.1).contains(&pfd) {
                continue;
            }
            for feedback_div in 1..=80u32 {
                for output_div in 1..=128u32 {
                    let out = pfd * f64::from(feedback_div);
                    let vco = out * f64::from(output_div);
                    if !(VCO_MHZ.0..=VCO_MHZ.1).contains(&vco) {
                        continue;
                    }
                    let better = match &best {
                        None => true,
                        Some(b) => {
                            let (e, eb) = ((out - fout).abs(), (b.out_mhz - fout).abs());
                            e < eb || (e == eb && (vco - 600.0).abs() < (b.vco_mhz - 600.0).abs())
                        }
                    };
                    if better {
                        best = Some(PllSettings {
                            input_div,
                            feedback_div,
                            output_div,
                            vco_mhz: vco,
                            out_mhz: out,
                        });
                    }
                }
            }
        }
        best.filter(|b| (b.out_mhz - fout).abs() < 1e-6)
    }

    /// The primary output's coarse phase: half a period of the output in VCO cycles, as
    /// `ecppll` sets it.
    pub fn cphase(&self) -> u32 {
        self.output_div / 2
    }
}

/// The ECP5 PLL; see the module documentation.
#[derive(LogicBlock)]
pub struct Ecp5Pll {
    /// The oscillator.
    pub clock_in: Signal<In, Clock>,
    /// The PLL's output (CLKOP).
    pub clock_out: Signal<Out, Clock>,
    /// High once the PLL is locked.
    pub locked: Signal<Out, Bit>,
    // Fields whose names start with `_` are not blocks to rust-hdl's derive.
    _settings: PllSettings,
    _in_hz: u64,
    _out_hz: u64,
}

impl Ecp5Pll {
    /// The PLL making `out_hz` from `in_hz`, or `None` when the ECP5 PLL cannot make it exactly.
    pub fn new(in_hz: u64, out_hz: u64) -> Option<Ecp5Pll> {
        Some(Ecp5Pll {
            clock_in: Default::default(),
            clock_out: Signal::new_with_default(Clock::default()),
            locked: Signal::new_with_default(false),
            _settings: PllSettings::exact(in_hz, out_hz)?,
            _in_hz: in_hz,
            _out_hz: out_hz,
        })
    }

    /// The dividers.
    pub fn settings(&self) -> PllSettings {
        self._settings
    }
}

impl Logic for Ecp5Pll {
    fn update(&mut self) {}

    fn connect(&mut self) {
        self.clock_out.connect();
        self.locked.connect();
    }

    fn hdl(&self) -> Verilog {
        let s = &self._settings;
        Verilog::Custom(format!(
            "\
(* FREQUENCY_PIN_CLKI=\"{fin}\" *)
(* FREQUENCY_PIN_CLKOP=\"{fout}\" *)
(* ICP_CURRENT=\"12\" *) (* LPF_RESISTOR=\"8\" *) (* MFG_ENABLE_FILTEROPAMP=\"1\" *) (* MFG_GMCREF_SEL=\"2\" *)
EHXPLLL #(
    .PLLRST_ENA(\"DISABLED\"),
    .INTFB_WAKE(\"DISABLED\"),
    .STDBY_ENABLE(\"DISABLED\"),
    .DPHASE_SOURCE(\"DISABLED\"),
    .OUTDIVIDER_MUXA(\"DIVA\"),
    .OUTDIVIDER_MUXB(\"DIVB\"),
    .OUTDIVIDER_MUXC(\"DIVC\"),
    .OUTDIVIDER_MUXD(\"DIVD\"),
    .CLKI_DIV({input_div}),
    .CLKOP_ENABLE(\"ENABLED\"),
    .CLKOP_DIV({output_div}),
    .CLKOP_CPHASE({cphase}),
    .CLKOP_FPHASE(0),
    .FEEDBK_PATH(\"CLKOP\"),
    .CLKFB_DIV({feedback_div})
) pll_i (
    .RST(1'b0),
    .STDBY(1'b0),
    .CLKI(clock_in),
    .CLKOP(clock_out),
    .CLKFB(clock_out),
    .PHASESEL0(1'b0),
    .PHASESEL1(1'b0),
    .PHASEDIR(1'b1),
    .PHASESTEP(1'b1),
    .PHASELOADREG(1'b1),
    .PLLWAKESYNC(1'b0),
    .ENCLKOP(1'b0),
    .LOCK(locked)
);
",
            fin = self._in_hz as f64 / 1e6,
            fout = self._out_hz as f64 / 1e6,
            input_div = s.input_div,
            output_div = s.output_div,
            cphase = s.cphase(),
            feedback_div = s.feedback_div,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ulx3s_clocks_are_exact_and_within_the_limits() {
        for mhz in [25u64, 40, 45, 50, 60, 65, 75, 100] {
            let s = PllSettings::exact(25_000_000, mhz * 1_000_000)
                .unwrap_or_else(|| panic!("{mhz} MHz"));
            let pfd = 25.0 / f64::from(s.input_div);
            assert!((3.125..=400.0).contains(&pfd));
            assert!((400.0..=800.0).contains(&s.vco_mhz), "{s:?}");
            assert!(
                (pfd * f64::from(s.feedback_div) - mhz as f64).abs() < 1e-9,
                "{s:?}"
            );
            assert!((1..=80).contains(&s.feedback_div) && (1..=128).contains(&s.output_div));
        }
        // 50 MHz: 25 x 2, VCO 600 MHz (ecppll's choice).
        let s = PllSettings::exact(25_000_000, 50_000_000).unwrap();
        assert_eq!((s.input_div, s.feedback_div, s.output_div), (1, 2, 12));
        // Not every frequency is exact: 25 MHz x k / d with d <= 128 and the VCO's range.
        assert!(PllSettings::exact(25_000_000, 1_000_000_000).is_none());
    }
}
