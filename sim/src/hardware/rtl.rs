//! The `rtl` engine: rust-hdl's own simulation of `hdl::shader_core::ShaderCore`, driven directly
//! (one `simulate` call per clock edge, no testbench threads), with an optional VCD dump.

use super::{HostPort, HwError, HwRun};
use hdl::shader_core::ShaderCore;
use microcode::core::CoreConfig;
use rust_hdl::core::check_error::check_all;
use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_header, VCDProbe};
use rust_hdl::prelude::*;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// A writer shared between the VCD probe and the timestamps this engine writes between its
/// dumps (the probe owns its writer and has no timestamp call of its own).
#[derive(Clone)]
struct SharedWrite(Rc<RefCell<Box<dyn Write>>>);

impl Write for SharedWrite {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// Engine name.
pub const ENGINE: &str = "rtl";

/// The shader core in rust-hdl simulation.
pub struct RtlCore {
    uut: Box<ShaderCore>,
    clocks: u64,
    vcd: Option<(VCDProbe<SharedWrite>, SharedWrite)>,
    time: u64,
    trace: Option<Vec<(u64, usize)>>,
}

impl RtlCore {
    /// A core built for `config`.
    pub fn new(config: &CoreConfig) -> Result<RtlCore, HwError> {
        let mut uut = Box::new(ShaderCore::new(config));
        uut.connect_all();
        check_all(uut.as_ref()).map_err(|e| HwError::Rtl(format!("rust-hdl check: {e:?}")))?;
        Ok(RtlCore {
            uut,
            clocks: 0,
            vcd: None,
            time: 0,
            trace: None,
        })
    }

    /// Dumps every signal to `out` as VCD from now on (one timestep per clock edge).
    pub fn trace_vcd(&mut self, out: Box<dyn Write>) {
        let shared = SharedWrite(Rc::new(RefCell::new(out)));
        let probe = write_vcd_header(shared.clone(), self.uut.as_ref());
        self.vcd = Some((probe, shared));
    }

    /// Flushes the VCD output, if any.
    pub fn finish_vcd(&mut self) -> std::io::Result<()> {
        match self.vcd.as_mut() {
            Some((_, w)) => w.flush(),
            None => Ok(()),
        }
    }

    fn settle(&mut self) -> Result<(), HwError> {
        if !simulate(self.uut.as_mut(), 100) {
            return Err(HwError::Rtl(
                "rust-hdl simulation did not settle (combinational loop)".into(),
            ));
        }
        if let Some((probe, mut w)) = self.vcd.take() {
            // A failed timestamp write shows up as a truncated file; the run itself goes on.
            let _ = writeln!(w, "#{}", self.time);
            let probe = write_vcd_change(probe, self.uut.as_ref());
            self.vcd = Some((probe, w));
        }
        self.time += 1;
        Ok(())
    }

    /// One clock: settle the inputs just set, rising edge, settle, falling edge, settle (as
    /// `hdl/tests/common/sim.rs`'s `tick`). The first settle is what hardware guarantees
    /// (inputs stable before the edge): without it rust-hdl samples at the edge only what
    /// reaches a flip-flop in one evaluation pass, which an input such as `start` does not when
    /// it passes through a child block (`AddressStack`) on its way to a flip-flop.
    fn tick(&mut self) -> Result<(), HwError> {
        if !simulate(self.uut.as_mut(), 100) {
            return Err(HwError::Rtl(
                "rust-hdl simulation did not settle before the edge (combinational loop)".into(),
            ));
        }
        self.uut.clock.next = true.into();
        self.settle()?;
        self.uut.clock.next = false.into();
        self.settle()?;
        self.clocks += 1;
        Ok(())
    }

    fn idle_inputs(&mut self) {
        self.uut.host.we.next = false;
        self.uut.host.clear.next = false;
        self.uut.host.start.next = false;
        self.uut.host.resume.next = false;
    }

    /// Clocks until `done` (at most `max_clocks`), recording the trace; the run's report.
    fn until_done(&mut self, max_clocks: u64) -> Result<HwRun, HwError> {
        let mut n = 0u64;
        while !self.uut.host.done.val() {
            if let Some(t) = self.trace.as_mut() {
                if self.uut.dbg_first.val() {
                    t.push((
                        self.uut.host.cycles.val().index() as u64,
                        self.uut.dbg_pc.val().index(),
                    ));
                }
            }
            self.tick()?;
            n += 1;
            if n > max_clocks {
                return Err(HwError::Timeout {
                    engine: ENGINE,
                    clocks: n,
                });
            }
        }
        Ok(HwRun {
            fault: self.uut.host.fault.val().index() as u8,
            killed: self.uut.host.killed.val().index() as u8,
            cycles: self.uut.host.cycles.val().index() as u64,
            lanes: self.uut.host.lanes.val().index() as u8,
        })
    }
}

impl HostPort for RtlCore {
    fn engine(&self) -> &'static str {
        ENGINE
    }

    fn write(&mut self, addr: u16, data: u32) -> Result<(), HwError> {
        self.uut.host.addr.next = u64::from(addr).to_bits();
        self.uut.host.wdata.next = u64::from(data).to_bits();
        self.uut.host.we.next = true;
        self.tick()?;
        self.idle_inputs();
        Ok(())
    }

    fn read(&mut self, addr: u16) -> Result<u32, HwError> {
        self.idle_inputs();
        self.uut.host.addr.next = u64::from(addr).to_bits();
        for _ in 0..hdl::host_port::READ_LATENCY {
            self.tick()?;
        }
        Ok(self.uut.host.rdata.val().index() as u32)
    }

    fn clear(&mut self) -> Result<(), HwError> {
        self.idle_inputs();
        self.uut.host.clear.next = true;
        self.tick()?;
        self.uut.host.clear.next = false;
        let mut n = 0;
        while self.uut.host.busy.val() {
            self.tick()?;
            n += 1;
            if n > 2 * u64::from(hdl::host_port::CLEAR_CLOCKS) {
                return Err(HwError::Timeout {
                    engine: ENGINE,
                    clocks: n,
                });
            }
        }
        Ok(())
    }

    fn run(&mut self, budget: u32, max_clocks: u64) -> Result<HwRun, HwError> {
        self.idle_inputs();
        self.uut.host.budget.next = u64::from(budget).to_bits();
        self.uut.host.start.next = true;
        self.tick()?;
        self.uut.host.start.next = false;
        self.until_done(max_clocks)
    }

    fn resume(&mut self, max_clocks: u64) -> Result<HwRun, HwError> {
        self.idle_inputs();
        self.uut.host.resume.next = true;
        self.tick()?;
        self.uut.host.resume.next = false;
        self.until_done(max_clocks)
    }

    fn clocks(&self) -> u64 {
        self.clocks
    }

    fn set_trace(&mut self, on: bool) {
        self.trace = on.then(Vec::new);
    }

    fn take_trace(&mut self) -> Vec<(u64, usize)> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
