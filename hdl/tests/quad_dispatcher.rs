//! The RENDER dispatcher (`hdl::quad_dispatcher`) in rust-hdl's simulation, driven directly, with
//! behavioural cores on its port (clear and run take a while, a run writes output words from the
//! coordinates it was given): every quad is launched with its own coordinates, the records come
//! out in image order whatever order the cores finish in, blocks are consumed as the loader's
//! firmware does, a faulting quad stops the render (it counts, later quads do not), and a
//! count-only render frees its slots by itself.

mod common;

use common::sim::tick;
use hdl::host_port::{ctl, READ_LATENCY};
use hdl::quad_dispatcher::QuadDispatcher;
use microcode::protocol::RENDER_COORD_BIAS;
use rust_hdl::prelude::*;
use std::collections::HashMap;

const REG_BASE: u16 = hdl::host_port::REG_BASE;
const IN_REG: u16 = 3;
const OUT_REG: u16 = 5;

/// A core as the dispatcher sees it: clear and run are busy stretches; a run's outputs depend on
/// the coordinate words written before it.
#[derive(Default)]
struct FakeCore {
    regs: HashMap<u16, u32>,
    busy_left: u32,
    running: bool,
    done: bool,
    fault: u8,
    killed: u8,
    cycles: u32,
    // Read pipeline (READ_LATENCY edges).
    rd: [u32; 2],
}

/// What quad (qx, qy) computes: lane l, word w of the output register.
fn out_word(px: u32, py: u32, w: u32) -> u32 {
    (px << 16) ^ (py << 4) ^ w
}

impl FakeCore {
    fn coord(&self, lane: u16, c: u16) -> u32 {
        self.regs
            .get(&(REG_BASE + 16 * IN_REG + 4 * lane + c))
            .copied()
            .unwrap_or(0)
            .wrapping_sub(RENDER_COORD_BIAS)
    }

    /// One rising edge with these inputs (presented before it).
    fn edge(&mut self, addr: u16, we: bool, wdata: u32, clear: bool, start: bool, fault_at: u32) {
        self.rd[1] = self.rd[0];
        self.rd[0] = self.regs.get(&addr).copied().unwrap_or(0);
        self.done = false;
        if self.busy_left > 0 {
            self.busy_left -= 1;
            if self.busy_left == 0 && self.running {
                self.running = false;
                self.done = true;
            }
            return;
        }
        if we {
            self.regs.insert(addr, wdata);
        }
        if clear {
            self.regs.clear();
            self.busy_left = 7;
        } else if start {
            let (px, py) = (self.coord(0, 0), self.coord(0, 1));
            assert_eq!((px % 2, py % 2), (0, 0), "lane 0 is the quad's top left");
            for lane in 0..4u16 {
                let (x, y) = (self.coord(lane, 0), self.coord(lane, 1));
                assert_eq!(
                    (x, y),
                    (px + u32::from(lane & 1), py + u32::from(lane >> 1))
                );
                for w in 0..4u16 {
                    let v = out_word(x, y, u32::from(w));
                    self.regs.insert(REG_BASE + 16 * OUT_REG + 4 * lane + w, v);
                }
            }
            // Quads take different times, so the cores finish out of order.
            self.cycles = 40 + (px * 7 + py * 13) % 50;
            self.killed = ((px / 2 + py / 2) % 16) as u8;
            self.fault = if px / 2 + 100 * (py / 2) == fault_at {
                7
            } else {
                0
            };
            self.busy_left = self.cycles;
            self.running = true;
        }
    }
}

struct Bench {
    uut: QuadDispatcher,
    cores: Vec<FakeCore>,
    fault_at: u32,
    clocks: u64,
}

impl Bench {
    fn new(n: usize) -> Bench {
        let mut uut = QuadDispatcher::new(n);
        uut.connect_all();
        rust_hdl::core::check_error::check_all(&uut).expect("the dispatcher checks");
        Bench {
            uut,
            cores: (0..n).map(|_| FakeCore::default()).collect(),
            fault_at: u32::MAX,
            clocks: 0,
        }
    }

    /// Presents the cores' outputs, then one clock.
    fn tick(&mut self) {
        let pick = self.uut.pick.val().index();
        let mut busy = 0u64;
        let mut done = 0u64;
        for (i, c) in self.cores.iter().enumerate() {
            busy |= u64::from(c.busy_left > 0) << i;
            done |= u64::from(c.done) << i;
        }
        self.uut.core_busy.next = busy.to_bits();
        self.uut.core_done.next = done.to_bits();
        let p = &self.cores[pick];
        self.uut.picked_rdata.next = u64::from(p.rd[1]).to_bits();
        self.uut.picked_fault.next = u64::from(p.fault).to_bits();
        self.uut.picked_killed.next = u64::from(p.killed).to_bits();
        self.uut.picked_cycles.next = u64::from(p.cycles).to_bits();
        assert!(simulate(&mut self.uut, 100));
        let addr = self.uut.addr.val().index() as u16;
        let wdata = self.uut.wdata.val().index() as u32;
        let (we, clear, start) = (
            self.uut.we.val().index(),
            self.uut.clear.val().index(),
            self.uut.start.val().index(),
        );
        for (i, c) in self.cores.iter_mut().enumerate() {
            let bit = |m: usize| m >> i & 1 == 1;
            c.edge(addr, bit(we), wdata, bit(clear), bit(start), self.fault_at);
        }
        tick(&mut self.uut, |u| &mut u.clock);
        self.uut.reg_we.next = false;
        self.clocks += 1;
    }

    fn write(&mut self, reg: u16, value: u32) {
        self.uut.reg_we.next = true;
        self.uut.reg_addr.next = u64::from(reg).to_bits();
        self.uut.reg_wdata.next = u64::from(value).to_bits();
        self.tick();
    }

    /// The word at window offset `off` (the loader's read, a clock later).
    fn read(&mut self, off: u16) -> u32 {
        self.uut.win_addr.next = u64::from(off).to_bits();
        self.tick();
        assert!(simulate(&mut self.uut, 100));
        self.uut.win_rdata.val().index() as u32
    }

    fn start(&mut self, row: u16, x: u16, y: u16, quads: u16, lw: u8) {
        self.write(ctl::RENDER_ROW_X, u32::from(row) | u32::from(x) << 16);
        self.write(ctl::RENDER_Y_QUADS, u32::from(y) | u32::from(quads) << 16);
        let go = u32::from(lw) | u32::from(IN_REG) << 8 | u32::from(OUT_REG) << 16;
        self.write(ctl::RENDER_GO, go);
    }

    fn status(&mut self) -> u32 {
        self.read(0x400 + ctl::RENDER_GO)
    }
}

/// The expected record of quad (qx, qy): kill mask and, lane after lane, `lw` words.
fn expected(qx: u32, qy: u32, lw: u32) -> (u8, Vec<u32>) {
    let kill = ((qx + qy) % 16) as u8;
    let mut words = Vec::new();
    for lane in 0..4 {
        let (x, y) = (2 * qx + (lane & 1), 2 * qy + (lane >> 1));
        for w in 0..lw {
            words.push(out_word(x, y, w));
        }
    }
    (kill, words)
}

/// Renders and streams the records as the firmware does (a block waits for its records, each
/// is read from the head and consumed): every record in image order, then the end's counts.
/// `slow` clocks pass before each record is read (a consumer slower than the cores, as the
/// serial line is: the frontier runs ahead of it).
#[allow(clippy::too_many_arguments)]
fn render(
    b: &mut Bench,
    row: u16,
    x: u16,
    y: u16,
    quads: u16,
    lw: u8,
    block: u16,
    slow: u32,
) -> Vec<(u8, Vec<u32>)> {
    b.start(row, x, y, quads, lw);
    let mut got = Vec::new();
    let mut left = quads;
    'blocks: while left > 0 {
        let want = block.min(left);
        let n = loop {
            let s = b.status();
            let avail = (s & 0xFFFF) as u16;
            if avail >= want {
                break want;
            }
            if (s >> 16) & 0xFF != 0 {
                if avail == 0 {
                    break 'blocks;
                }
                break avail;
            }
            assert!(b.clocks < 2_000_000, "the render stalls");
        };
        for _ in 0..n {
            for _ in 0..slow {
                b.tick();
            }
            let status = b.read(0);
            assert_eq!(status & 0xFF, 0, "a streamed record has no fault");
            let words = (0..4 * u16::from(lw)).map(|w| b.read(1 + w)).collect();
            got.push(((status >> 24) as u8, words));
            b.write(ctl::RENDER_NEXT, 0);
            left -= 1;
        }
        if n < want {
            break;
        }
    }
    while b.status() >> 24 & 1 == 0 {
        assert!(b.clocks < 2_000_000, "never finished");
    }
    assert!(!b.uut.active.val(), "the cores are handed back");
    got
}

#[test]
fn records_come_back_in_image_order_from_several_cores() {
    for (cores, lw, slow) in [
        (1, 1, 0),
        (3, 1, 0),
        (4, 4, 0),
        (5, 1, 0),
        (3, 1, 400),
        (8, 4, 90),
    ] {
        let mut b = Bench::new(cores);
        let (row, x, y, quads) = (7u16, 5u16, 2u16, 80u16);
        let got = render(&mut b, row, x, y, quads, lw, 6, slow);
        assert_eq!(got.len(), usize::from(quads), "{cores} cores");
        for (i, rec) in got.iter().enumerate() {
            let q = u32::from(y) * u32::from(row) + u32::from(x) + i as u32;
            let (qx, qy) = (q % u32::from(row), q / u32::from(row));
            assert_eq!(
                *rec,
                expected(qx, qy, u32::from(lw)),
                "quad {i}, {cores} cores"
            );
        }
        let counted = b.read(0x400 + ctl::RENDER_NEXT);
        assert_eq!(counted, u32::from(quads));
        let cycles: u32 = (0..u32::from(quads))
            .map(|i| {
                let q = u32::from(y) * u32::from(row) + u32::from(x) + i;
                let (px, py) = (2 * (q % u32::from(row)), 2 * (q / u32::from(row)));
                40 + (px * 7 + py * 13) % 50
            })
            .sum();
        assert_eq!(b.read(0x400 + ctl::RENDER_CYCLES), cycles, "{cores} cores");
    }
}

#[test]
fn a_fault_ends_the_render_at_its_quad() {
    let mut b = Bench::new(3);
    // Quad (qx 4, qy 1) faults: the 4 + 1 * 9 = 13th of a 9-wide image from (0, 0).
    b.fault_at = 4 + 100;
    let got = render(&mut b, 9, 0, 0, 30, 1, 5, 0);
    assert_eq!(got.len(), 13, "the records before the faulting quad");
    let s = b.status();
    assert_eq!((s >> 16) & 0xFF, 7, "its fault");
    assert_eq!(b.read(0x400 + ctl::RENDER_NEXT), 14, "it counts");
    // A new render starts afresh.
    b.fault_at = u32::MAX;
    let again = render(&mut b, 9, 0, 0, 30, 1, 5, 200);
    assert_eq!(again.len(), 30);
    assert_eq!(b.status() >> 16 & 0xFF, 0);
}

#[test]
fn a_count_only_render_needs_no_consumer() {
    let mut b = Bench::new(4);
    // More quads than the reorder buffer's slots: nothing consumes, yet the render finishes.
    b.start(16, 0, 0, 100, 0);
    while b.status() >> 24 & 1 == 0 {
        assert!(b.clocks < 2_000_000, "never finished");
    }
    assert_eq!(b.read(0x400 + ctl::RENDER_NEXT), 100);
    let _ = READ_LATENCY;
}
