//! The on-chip loader (`hdl::loader::Loader`, rust-hdl simulation driven directly) against the
//! protocol's executable model (`firmware_loader::device::Device`): the same request streams,
//! good and damaged, must give byte-identical answers and the same STATUS.
//!
//! The core on the loader's host port is a behavioural stub ([`StubCore`]) whose results depend on
//! every register the loader writes, the image's program and constant words and the PARAMS slots;
//! the model's [`StubRunner`] computes the same from the model's memories. So a byte the loader moves
//! to the wrong place, or not at all, shows up in an answer. Programs can ask the stub to pause
//! like a geometry program at EMIT / ENDPRIM ([`pauses`]), with other outputs, kill masks, lanes
//! and cycles at each pause, so RUN's stop at a pause and RESUME (right, repeated and wrong pause
//! counts, damaged) are compared too.

use firmware_loader::device::{ActiveImage, Device, DeviceConfig, QuadOutcome, QuadRunner};
use firmware_loader::frame::{encode, Frame};
use firmware_loader::image::read_maps;
use hdl::host_port::fault_code::{self, is_pause};
use hdl::loader::Loader;
use hdl::loader_layout as layout;
use microcode::core::CoreConfig;
use microcode::rng::XorShift;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

const CLOCK_HZ: u32 = 100_000_000;
const BAUD: u32 = 3_000_000;
/// Clocks the line stays quiet in a cut frame before the model is told of its inter-byte
/// timeout (the loader has no timer: the next request's opening END drops the segment, which
/// counts it as the timeout does; `hdl::frame_rx`).
const TIMEOUT: u64 = 300;
/// Clocks from one received byte to the next: a UART byte is 10 bit times of at least 8 clocks
/// (80; 333 under `tgsi-core emulate`, 4,340 on the board). The loader needs 9 (its CRC unit takes
/// 8 clocks per byte) and, after a dropped segment, about 45 to count it and listen again: a
/// garbage burst holding several `END`s then counts every segment, as the model does (after a
/// frame with a right CRC and a wrong length field, about 100: `PROTOCOL.md` section 8).
const BYTE_CLOCKS: usize = 64;

/// What the stub core's results depend on besides its registers, set by the test before a RUN
/// from the model's active image (the hardware memories also hold stale bytes past the image).
#[derive(Clone, Default)]
struct Scope {
    program_words: usize,
    constant_slots: usize,
    param_slots: Vec<u16>,
}

/// The first program word's low byte that makes the stub fault (the code in the next byte).
const FAULT_MARK: u32 = 0xFA;
/// The second program word's low byte that makes the stub pause ([`pauses`]).
const PAUSE_MARK: u32 = 0xE5;

/// The pauses a program asks the stub for: with [`PAUSE_MARK`] in its second word, 1 to 4 pauses
/// (bits 8-9), pause i at ENDPRIM when bit 12 + i is set, else at EMIT.
fn pauses(program: &dyn Fn(usize) -> u32, scope: &Scope) -> Vec<u8> {
    if scope.program_words < 2 || program(1) & 0xFF != PAUSE_MARK {
        return Vec::new();
    }
    let w = program(1);
    (0..1 + (w >> 8 & 3))
        .map(|i| {
            if w >> (12 + i) & 1 == 1 {
                fault_code::ENDPRIM
            } else {
                fault_code::EMIT
            }
        })
        .collect()
}

/// What the stub ends a stretch of a run with.
struct Stage {
    out: [[u32; 16]; 16],
    kill: u8,
    cycles: u32,
    fault: u8,
    lanes: u8,
}

/// The stub's computation, shared by the stub core and the model runner: the registers, kill
/// mask, cycles, fault and lanes at the end of stretch `stage` of a run that started with
/// registers `regs` (the pauses first, then the end).
#[allow(clippy::needless_range_loop)]
fn stub_stage(
    program: &dyn Fn(usize) -> u32,
    konst: &dyn Fn(usize) -> u32,
    scope: &Scope,
    regs: &[[u32; 16]; 16],
    stage: usize,
) -> Stage {
    let mut h: u32 = 0x1234_5678;
    for i in 0..scope.program_words {
        h = h.rotate_left(5) ^ program(i).wrapping_mul(i as u32 + 1);
    }
    let mut slots: Vec<usize> = (0..scope.constant_slots.min(64)).collect();
    slots.extend(
        scope
            .param_slots
            .iter()
            .map(|&k| usize::from(k))
            .filter(|&k| k < 64),
    );
    for k in slots {
        for c in 0..4 {
            h = h.rotate_left(3) ^ konst(4 * k + c).wrapping_add((4 * k + c) as u32);
        }
    }
    h ^= (stage as u32).wrapping_mul(0x9E37_79B9);
    let mut out = [[0u32; 16]; 16];
    for (r, o) in out.iter_mut().enumerate() {
        for (w, x) in o.iter_mut().enumerate() {
            *x = regs[(r + 1) % 16][w].rotate_left(w as u32) ^ h ^ (16 * r + w) as u32;
        }
    }
    let pause = pauses(program, scope);
    let (fault, lanes) = match pause.get(stage) {
        Some(&code) => (code, (h >> 12 & 0xF) as u8),
        None if scope.program_words > 0 && program(0) & 0xFF == FAULT_MARK => {
            (((program(0) >> 8) & 7) as u8, 0)
        }
        None => (0, 0),
    };
    Stage {
        out,
        kill: (h & 0xF) as u8,
        cycles: 20 + ((h >> 4) & 0x3F) + 64 * stage as u32,
        fault,
        lanes,
    }
}

/// A behavioural core on the host port: memories (program, constants, registers, texture
/// memory), `clear`, `start`, two-edge reads.
struct StubCore {
    mem: Vec<u32>,
    r1: u32,
    r2: u32,
    busy_left: u32,
    running: bool,
    done: bool,
    fault: u8,
    killed: u8,
    cycles: u32,
    /// At a pause: the lanes on the `lanes` port (as the core, they are there after a run
    /// ends too: the loader must not report them then).
    lanes: u8,
    /// The registers the run started with, and the stretch it is in.
    start_regs: [[u32; 16]; 16],
    stage: usize,
    paused: bool,
    scope: Rc<RefCell<Scope>>,
}

impl StubCore {
    fn new(scope: Rc<RefCell<Scope>>) -> Self {
        StubCore {
            mem: vec![0; 0x1200],
            r1: 0,
            r2: 0,
            busy_left: 0,
            running: false,
            done: false,
            fault: 0,
            killed: 0,
            cycles: 0,
            lanes: 0,
            start_regs: [[0; 16]; 16],
            stage: 0,
            paused: false,
            scope,
        }
    }

    fn mapped(addr: u16) -> bool {
        let a = usize::from(addr);
        a < 0x400
            || (0x400..0x500).contains(&a)
            || (0x800..0x900).contains(&a)
            || (0x1000..0x1200).contains(&a)
    }

    /// One rising edge with the loader's outputs as presented before it.
    fn edge(&mut self, addr: u16, we: bool, wdata: u32, clear: bool, start: bool, resume: bool) {
        self.r2 = self.r1;
        self.r1 = if Self::mapped(addr) {
            self.mem[usize::from(addr)]
        } else {
            0
        };
        self.done = false;
        if self.busy_left > 0 {
            self.busy_left -= 1;
            if self.busy_left == 0 && self.running {
                self.finish();
            }
            return;
        }
        if we && Self::mapped(addr) {
            // The core stores 112 bits of each instruction (`isa::WORD_BITS`).
            self.mem[usize::from(addr)] = if addr < 0x400 && addr % 4 == 3 {
                wdata & 0xFFFF
            } else {
                wdata
            };
        }
        if clear {
            for w in &mut self.mem[0x800..0x900] {
                *w = 0;
            }
            self.busy_left = 256;
            self.paused = false;
        } else if start {
            for (r, reg) in self.start_regs.iter_mut().enumerate() {
                reg.copy_from_slice(&self.mem[0x800 + 16 * r..0x810 + 16 * r]);
            }
            self.stage = 0;
            self.paused = false;
            self.running = true;
            self.busy_left = 37;
        } else if resume && self.paused {
            self.stage += 1;
            self.paused = false;
            self.running = true;
            self.busy_left = 23;
        }
    }

    fn finish(&mut self) {
        self.running = false;
        let scope = self.scope.borrow().clone();
        let mem = &self.mem;
        let s = stub_stage(
            &|i| mem[i],
            &|i| mem[0x400 + i],
            &scope,
            &self.start_regs,
            self.stage,
        );
        for (r, reg) in s.out.iter().enumerate() {
            self.mem[0x800 + 16 * r..0x810 + 16 * r].copy_from_slice(reg);
        }
        self.killed = s.kill;
        self.cycles = s.cycles;
        self.fault = s.fault;
        self.paused = is_pause(s.fault);
        // The core's `lanes` are its execution mask, whatever the run did.
        self.lanes = if self.paused {
            s.lanes
        } else {
            (s.kill ^ 0xF) | 1
        };
        self.done = true;
    }
}

/// The model's runner with the stub's semantics and the loader's data movement.
struct StubRunner {
    scope: Rc<RefCell<Scope>>,
    /// The paused quad's starting registers and output entries, and its stretch.
    paused: Option<([[u32; 16]; 16], Vec<u16>, usize)>,
}

impl StubRunner {
    /// Stretch `stage` of a run from `regs`, its outputs (unless it faults) into `outputs`.
    fn stage(
        &mut self,
        img: &ActiveImage<'_>,
        regs: [[u32; 16]; 16],
        outs: Vec<u16>,
        stage: usize,
        outputs: &mut [u8],
    ) -> QuadOutcome {
        let Some((_, _, params)) = read_maps(img.maps) else {
            return QuadOutcome {
                fault: fault_code::BUDGET,
                ..QuadOutcome::default()
            };
        };
        let program = |i: usize| le32(img.program, 4 * i);
        let konst = |i: usize| {
            let k = i / 4;
            if params.contains(&(k as u16)) {
                le32(img.params, 4 * i)
            } else {
                le32(img.constants, 4 * i)
            }
        };
        let scope = self.scope.borrow().clone();
        let s = stub_stage(&program, &konst, &scope, &regs, stage);
        if s.fault == 0 || is_pause(s.fault) {
            for (j, &reg) in outs.iter().enumerate() {
                let r = usize::from(reg & 0xFF);
                for w in 0..16 {
                    let o = 64 * j + 4 * w;
                    if o + 4 <= outputs.len() {
                        let v = if r < 16 { s.out[r][w] } else { 0 };
                        outputs[o..o + 4].copy_from_slice(&v.to_le_bytes());
                    }
                }
            }
        }
        self.paused = is_pause(s.fault).then_some((regs, outs, stage));
        QuadOutcome {
            kill_mask: s.kill,
            cycles: s.cycles,
            fault: s.fault,
            lanes: s.lanes,
        }
    }
}

fn le32(b: &[u8], o: usize) -> u32 {
    b.get(o..o + 4)
        .map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

impl QuadRunner for StubRunner {
    #[allow(clippy::needless_range_loop)]
    fn run_quad(
        &mut self,
        img: &ActiveImage<'_>,
        inputs: &[u8],
        outputs: &mut [u8],
    ) -> QuadOutcome {
        let Some((ins, outs, _)) = read_maps(img.maps) else {
            return QuadOutcome {
                fault: fault_code::BUDGET,
                ..QuadOutcome::default()
            };
        };
        // The words of each input entry within the stride (the clear zeroed the others).
        let mut regs = [[0u32; 16]; 16];
        for (i, m) in ins.iter().enumerate() {
            let r = usize::from(m.reg & 0xFF);
            for w in 0..16 {
                let o = 64 * i + 4 * w;
                if r < 16 && o + 4 <= inputs.len() {
                    regs[r][w] = le32(inputs, o);
                }
            }
        }
        let outs = outs.iter().map(|m| m.reg).collect();
        self.stage(img, regs, outs, 0, outputs)
    }

    fn resume_quad(&mut self, img: &ActiveImage<'_>, outputs: &mut [u8]) -> QuadOutcome {
        match self.paused.take() {
            Some((regs, outs, stage)) => self.stage(img, regs, outs, stage + 1, outputs),
            None => QuadOutcome::default(),
        }
    }
}

/// The loader in simulation with the stub on its host port.
struct Bench {
    uut: Box<Loader>,
    core: StubCore,
    clocks: u64,
    sent: Vec<u8>,
}

impl Bench {
    fn new(cfg: &DeviceConfig, scope: Rc<RefCell<Scope>>) -> Bench {
        let mut uut = Box::new(
            sim::hardware::board::loader(cfg, false).expect("the loader firmware assembles"),
        );
        uut.connect_all();
        check_all(uut.as_ref()).expect("loader checks");
        let mut b = Bench {
            uut,
            core: StubCore::new(scope),
            clocks: 0,
            sent: Vec::new(),
        };
        b.uut.tx_ready.next = true;
        b.drive_core();
        simulate(b.uut.as_mut(), 100);
        // The firmware starts (clears its state) before it listens, as a board does long before
        // a host can send.
        for _ in 0..1000 {
            if b.uut.idle.val() {
                return b;
            }
            b.tick(None);
        }
        panic!("the loader never started listening");
    }

    fn drive_core(&mut self) {
        let c = &self.core;
        self.uut.host.rdata.next = u64::from(c.r2).to_bits();
        self.uut.host.busy.next = c.busy_left > 0;
        self.uut.host.done.next = c.done;
        self.uut.host.fault.next = u64::from(c.fault).to_bits();
        self.uut.host.killed.next = u64::from(c.killed).to_bits();
        self.uut.host.cycles.next = u64::from(c.cycles).to_bits();
        self.uut.host.lanes.next = u64::from(c.lanes).to_bits();
    }

    /// One clock with `byte` offered by the UART receiver.
    fn tick(&mut self, byte: Option<u8>) {
        self.uut.rx_valid.next = byte.is_some();
        self.uut.rx_data.next = u64::from(byte.unwrap_or(0)).to_bits();
        assert!(simulate(self.uut.as_mut(), 100), "settles");
        if self.uut.tx_valid.val() {
            self.sent.push(self.uut.tx_data.val().index() as u8);
        }
        let (addr, we, wdata) = (
            self.uut.host.addr.val().index() as u16,
            self.uut.host.we.val(),
            self.uut.host.wdata.val().index() as u32,
        );
        let (clear, start, resume) = (
            self.uut.host.clear.val(),
            self.uut.host.start.val(),
            self.uut.host.resume.val(),
        );
        self.uut.clock.next = true.into();
        assert!(simulate(self.uut.as_mut(), 100), "settles");
        self.core.edge(addr, we, wdata, clear, start, resume);
        self.drive_core();
        self.uut.rx_valid.next = false;
        assert!(simulate(self.uut.as_mut(), 100), "settles");
        self.uut.clock.next = false.into();
        assert!(simulate(self.uut.as_mut(), 100), "settles");
        self.clocks += 1;
    }

    /// Feeds wire bytes (one every [`BYTE_CLOCKS`] clocks), then runs until the loader is idle
    /// again with its answer sent; returns the wire bytes it sent.
    fn exchange(&mut self, bytes: &[u8]) -> Vec<u8> {
        self.sent.clear();
        for &b in bytes {
            self.tick(Some(b));
            for _ in 1..BYTE_CLOCKS {
                self.tick(None);
            }
        }
        let mut idle_for = 0;
        for _ in 0..2_000_000 {
            self.tick(None);
            let idle = !self.uut.tx_valid.val() && self.uut.idle.val();
            idle_for = if idle { idle_for + 1 } else { 0 };
            if idle_for > 8 {
                return std::mem::take(&mut self.sent);
            }
        }
        panic!("the loader did not return to idle");
    }
}

fn wire(cmd: u8, seq: u8, payload: Vec<u8>) -> Vec<u8> {
    encode(&Frame { cmd, seq, payload }).expect("payload within the limit")
}

/// A SLIP-framed body with its CRC whatever its length field says: frames the receiver passes
/// (good CRC) that the firmware must drop by their length, as the model's decoder does.
fn raw_frame(body: &[u8]) -> Vec<u8> {
    let mut b = body.to_vec();
    b.extend(crc32fast::hash(body).to_le_bytes());
    let mut w = vec![0xC0];
    for x in b {
        match x {
            0xC0 => w.extend([0xDB, 0xDC]),
            0xDB => w.extend([0xDB, 0xDD]),
            _ => w.push(x),
        }
    }
    w.push(0xC0);
    w
}

fn begin_payload(isa: u32, lengths: [u32; 4]) -> Vec<u8> {
    let mut p = isa.to_le_bytes().to_vec();
    for l in lengths {
        p.extend_from_slice(&l.to_le_bytes());
    }
    p
}

fn write_payload(region: u8, addr: u32, data: &[u8]) -> Vec<u8> {
    let mut p = vec![region];
    p.extend_from_slice(&addr.to_le_bytes());
    p.extend_from_slice(data);
    p
}

/// A MAPS region: `n` inputs, `m` outputs, `p` PARAMS slots (registers and slots mostly valid).
fn maps(rng: &mut XorShift, n: usize, m: usize, p: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for x in [n, m, p, 0] {
        v.extend_from_slice(&(x as u16).to_le_bytes());
    }
    for _ in 0..n + m {
        let reg = if rng.below(10) == 0 {
            16 + rng.below(200)
        } else {
            rng.below(16)
        };
        v.extend_from_slice(&(rng.below(32) as u16).to_le_bytes());
        v.extend_from_slice(&(reg as u16).to_le_bytes());
    }
    for _ in 0..p {
        let k = if rng.below(8) == 0 {
            rng.below(100)
        } else {
            rng.below(16)
        };
        v.extend_from_slice(&(k as u16).to_le_bytes());
        v.extend_from_slice(&[0, 0]);
    }
    v
}

struct Session {
    rng: XorShift,
    model: Device<StubRunner>,
    bench: Bench,
    scope: Rc<RefCell<Scope>>,
    cfg: DeviceConfig,
    seq: u8,
    steps: usize,
    /// (command, result byte) of every answer: what the stream covered.
    seen: std::collections::BTreeMap<(u8, u8), usize>,
    /// RUN and RESUME answers that stopped at a pause.
    pause_answers: usize,
}

impl Session {
    fn new(seed: u64, core: &CoreConfig) -> Session {
        let cfg = sim::hardware::board::loader_device_config(
            microcode::board::Board::AlchitryCu,
            1,
            core,
            CLOCK_HZ,
            BAUD,
        );
        let scope = Rc::new(RefCell::new(Scope::default()));
        Session {
            rng: XorShift::new(seed),
            model: Device::new(
                cfg,
                StubRunner {
                    scope: scope.clone(),
                    paused: None,
                },
            ),
            bench: Bench::new(&cfg, scope.clone()),
            scope,
            cfg,
            seq: 0,
            steps: 0,
            seen: Default::default(),
            pause_answers: 0,
        }
    }

    /// Sends wire bytes to both and compares what comes back.
    fn send(&mut self, bytes: &[u8]) {
        if let Some(img) = self.model.active_image() {
            *self.scope.borrow_mut() = Scope {
                program_words: img.program.len() / 4,
                constant_slots: img.constants.len() / 16,
                param_slots: read_maps(img.maps).map(|m| m.2).unwrap_or_default(),
            };
        }
        let want = self.model.receive(bytes);
        let got = self.bench.exchange(bytes);
        self.steps += 1;
        for f in firmware_loader::frame::Decoder::new()
            .push_all(&want)
            .into_iter()
            .flatten()
        {
            *self.seen.entry((f.cmd & 0x7F, f.payload[0])).or_default() += 1;
            let run_answer = [6, 10].contains(&(f.cmd & 0x7F)) && f.payload[0] == 0;
            if run_answer && f.payload.get(1).is_some_and(|&c| is_pause(c)) {
                self.pause_answers += 1;
            }
        }
        assert_eq!(
            got, want,
            "step {}: answers differ to request {:02x?} (hardware first, model second)",
            self.steps, bytes
        );
    }

    fn request(&mut self, cmd: u8, payload: Vec<u8>) {
        self.seq = self.seq.wrapping_add(1);
        let w = wire(cmd, self.seq, payload);
        self.send(&w);
    }

    /// Uploads a random image; `fault_program`: its quads fault at their end; `pausing`: they
    /// pause like a geometry program first.
    fn upload(&mut self, fault_program: bool, pausing: bool) {
        let rng = &mut self.rng;
        let plen = 16 * (1 + rng.below(40));
        let clen = 16 * rng.below(20);
        let (n, m, p) = (rng.below(4), 1 + rng.below(3), rng.below(4));
        let mut mp = maps(rng, n, m, p);
        if rng.below(10) == 0 {
            mp.truncate(mp.len() - 2); // counts larger than the region
        }
        let mut prog = rng.bytes(plen);
        if fault_program {
            prog[0] = FAULT_MARK as u8;
            prog[1] = 1 + rng.below(6) as u8;
        }
        if pausing {
            // 1 to 4 pauses, EMIT or ENDPRIM each (`pauses`).
            prog[4] = PAUSE_MARK as u8;
            prog[5] = rng.below(256) as u8;
        }
        let konst = rng.bytes(clen);
        // Texels in half the images, any length up to the texture memory (2048 bytes, none
        // without the texture unit).
        let textures = self.cfg.limits.textures as usize;
        let tlen = if rng.below(2) == 0 || textures == 0 {
            0
        } else {
            1 + rng.below(textures)
        };
        let tex = rng.bytes(tlen);
        let isa = self.cfg.isa_hash;
        self.request(
            3,
            begin_payload(
                isa,
                [plen as u32, clen as u32, tlen as u32, mp.len() as u32],
            ),
        );
        for (region, data) in [(0u8, &prog), (1, &konst), (2, &tex), (7, &mp)] {
            let mut at = 0;
            while at < data.len() {
                let n = (data.len() - at).min(1 + self.rng.below(251));
                self.request(4, write_payload(region, at as u32, &data[at..at + n]));
                at += n;
            }
        }
        let crc = self.model.staged_crc();
        self.request(5, crc.to_le_bytes().to_vec());
    }

    /// A RUN of random shape (some refused).
    fn run(&mut self) {
        let rng = &mut self.rng;
        let quads = if rng.below(12) == 0 {
            rng.below(12)
        } else {
            1 + rng.below(3)
        } as u16;
        let is = (16 * rng.below(20)) as u16 + [0, 4, 7][rng.below(3)];
        let os = (16 * rng.below(20)) as u16;
        self.run_shaped(quads, is, os);
    }

    /// PARAMS and INPUTS written, a RUN of `quads` with strides `is` and `os` (its pauses
    /// resumed), and reads of what it left.
    fn run_shaped(&mut self, quads: u16, is: u16, os: u16) {
        let rng = &mut self.rng;
        let np = 16 * (1 + rng.below(16));
        let params = rng.bytes(np);
        self.request(4, write_payload(6, 0, &params[..params.len().min(251)]));
        let inline = (quads as usize * is as usize).min(250);
        let inline = if self.rng.below(3) == 0 { 0 } else { inline };
        if inline == 0 && is > 0 {
            let data = self
                .rng
                .bytes((quads as usize * is as usize).min(layout::INPUTS as usize));
            let mut at = 0;
            while at < data.len() {
                let n = (data.len() - at).min(251);
                self.request(4, write_payload(3, at as u32, &data[at..at + n]));
                at += n;
            }
        }
        let mut p = Vec::new();
        for x in [quads, is, os] {
            p.extend_from_slice(&x.to_le_bytes());
        }
        p.extend(self.rng.bytes(inline));
        self.request(6, p);
        // A paused run: its vertices read and RESUMEs until it ends, with repeated and wrong
        // counts and damaged RESUMEs on the way.
        let mut guard = 0;
        while is_pause(self.model.status().fault) && guard < 40 {
            guard += 1;
            self.pause_traffic();
        }
        // Read back what the run left.
        for (region, size) in [(4u8, layout::OUTPUTS), (5, 64)] {
            let len = 1 + self.rng.below(255) as u16;
            let addr = self.rng.below(size as usize) as u32;
            let mut p = vec![region];
            p.extend_from_slice(&addr.to_le_bytes());
            p.extend_from_slice(&len.to_le_bytes());
            self.request(7, p);
        }
    }

    /// At a pause: perhaps read the paused quad's RESULTS record and OUTPUTS, then a RESUME
    /// (mostly with the right count, else the previous one, a wrong one, a wrong length, or a
    /// damaged frame).
    fn pause_traffic(&mut self) {
        let quad = u32::from(self.model.status().quads_run.saturating_sub(1));
        if self.rng.below(2) == 0 {
            let mut p = vec![5u8];
            p.extend_from_slice(&(8 * quad).to_le_bytes());
            p.extend_from_slice(&8u16.to_le_bytes());
            self.request(7, p);
            let mut p = vec![4u8];
            p.extend_from_slice(&(self.rng.below(200) as u32).to_le_bytes());
            p.extend_from_slice(&(1 + self.rng.below(255) as u16).to_le_bytes());
            self.request(7, p);
        }
        let n = self.model.pauses();
        match self.rng.below(10) {
            0 => self.request(10, n.wrapping_sub(1).to_le_bytes().to_vec()),
            1 => {
                let wrong = self.rng.next_u64() as u32;
                self.request(10, wrong.to_le_bytes().to_vec());
            }
            2 => {
                let short = self.rng.below(4);
                self.request(10, n.to_le_bytes()[..short].to_vec());
            }
            3 => {
                // Damaged: dropped and counted, the run still paused.
                self.seq = self.seq.wrapping_add(1);
                let mut w = wire(10, self.seq, n.to_le_bytes().to_vec());
                let i = 1 + self.rng.below(w.len() - 2);
                w[i] ^= 1 << self.rng.below(8);
                self.send(&w);
            }
            4 => {
                // Resumed, then repeated (its answer lost): answered again, not run again.
                self.request(10, n.to_le_bytes().to_vec());
                let w = wire(10, self.seq, n.to_le_bytes().to_vec());
                self.send(&w);
            }
            _ => self.request(10, n.to_le_bytes().to_vec()),
        }
    }

    /// A RENDER of a random shape: mostly valid (small images, one or four words per lane, the
    /// largest blocks and small ones), sometimes refused.
    fn render(&mut self) {
        let rng = &mut self.rng;
        let row = 1 + rng.below(5) as u16;
        let lw = if rng.below(2) == 0 { 1u8 } else { 4 };
        let most = (256 - 4) / (1 + 16 * usize::from(lw));
        let mut r = microcode::protocol::RenderRequest {
            row_quads: row,
            x: rng.below(usize::from(row)) as u16,
            y: rng.below(3) as u16,
            quads: 1 + rng.below(12) as u16,
            lane_words: lw,
            block_quads: if rng.below(2) == 0 {
                most as u8
            } else {
                1 + rng.below(most) as u8
            },
        };
        match rng.below(12) {
            0 => r.quads = 0,
            1 => r.x = r.row_quads,
            2 => r.lane_words = rng.below(6) as u8,
            3 => r.block_quads = if rng.below(2) == 0 { 0 } else { most as u8 + 1 },
            4 => r.row_quads = 0,
            _ => {}
        }
        let mut p = r.to_bytes();
        if rng.below(16) == 0 {
            p.pop();
        }
        self.request(11, p);
    }

    fn random_request(&mut self) {
        let isa = self.cfg.isa_hash;
        match self.rng.below(16) {
            0 => self.request(1, vec![]),
            1 => self.request(2, vec![]),
            2 => {
                let cmd = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10][self.rng.below(10)];
                let n = self.rng.below(24);
                let p = self.rng.bytes(n);
                self.request(cmd, p);
            }
            3 => {
                let mut l = [0u32; 4];
                for x in &mut l {
                    *x = match self.rng.below(4) {
                        0 => self.rng.next_u64() as u32,
                        1 => self.rng.below(5000) as u32,
                        2 => 2040 + self.rng.below(16) as u32,
                        _ => self.rng.below(200) as u32,
                    };
                }
                let isa = if self.rng.below(4) == 0 {
                    self.rng.next_u64() as u32
                } else {
                    isa
                };
                self.request(3, begin_payload(isa, l));
            }
            4 | 5 => {
                let region = self.rng.below(9) as u8;
                let addr = if self.rng.below(5) == 0 {
                    self.rng.next_u64() as u32
                } else {
                    self.rng.below(700) as u32
                };
                let n = 1 + self.rng.below(60);
                let data = self.rng.bytes(n);
                self.request(4, write_payload(region, addr, &data));
            }
            6 => {
                let crc = if self.rng.below(2) == 0 {
                    self.model.staged_crc()
                } else {
                    self.rng.next_u64() as u32
                };
                self.request(5, crc.to_le_bytes().to_vec());
            }
            7 | 8 => {
                let region = self.rng.below(9) as u8;
                let addr = if self.rng.below(6) == 0 {
                    self.rng.next_u64() as u32
                } else {
                    self.rng.below(4200) as u32
                };
                let len = if self.rng.below(8) == 0 {
                    self.rng.below(400)
                } else {
                    1 + self.rng.below(255)
                } as u16;
                let mut p = vec![region];
                p.extend_from_slice(&addr.to_le_bytes());
                p.extend_from_slice(&len.to_le_bytes());
                self.request(7, p);
            }
            9 => self.request(8, vec![]),
            10 => {
                let baud = [BAUD, 115_200, 12345][self.rng.below(3)];
                self.request(9, baud.to_le_bytes().to_vec());
            }
            11 => {
                let cmd = [0u8, 11, 0x55, 0x7F, 0x81, 0x86][self.rng.below(6)];
                self.request(cmd, vec![]);
            }
            12 => {
                // A damaged frame: one byte changed, cut short, or garbage.
                self.seq = self.seq.wrapping_add(1);
                let mut w = wire(2, self.seq, vec![]);
                match self.rng.below(3) {
                    0 => {
                        let i = 1 + self.rng.below(w.len() - 2);
                        w[i] ^= 1 << self.rng.below(8);
                    }
                    1 => {
                        let cut = 1 + self.rng.below(w.len() - 1);
                        w.truncate(cut);
                        w.push(0xC0);
                    }
                    _ => {
                        let n = 1 + self.rng.below(30);
                        w = self.rng.bytes(n);
                        w.push(0xC0);
                    }
                }
                self.send(&w);
            }
            13 if self.rng.below(2) == 0 => {
                // A correct CRC around a wrong length field or a body shorter than a header:
                // dropped by the firmware and counted; then perhaps garbage (in its own burst:
                // the firmware listens again about 100 clocks after such a frame).
                self.seq = self.seq.wrapping_add(1);
                let n = self.rng.below(12);
                let mut body = vec![0, 0, 2, self.seq];
                body.extend(self.rng.bytes(n));
                let len = match self.rng.below(4) {
                    0 => n as u16 + 1,
                    1 => (n as u16).wrapping_sub(1),
                    2 => n as u16 | 0x100,
                    _ => n as u16,
                };
                body[..2].copy_from_slice(&len.to_le_bytes());
                let w = match self.rng.below(4) {
                    // Shorter than a header: only the CRC.
                    0 => raw_frame(&[]),
                    1 => raw_frame(&body[2..4]),
                    _ => raw_frame(&body),
                };
                self.send(&w);
                if self.rng.below(2) == 0 {
                    let n = 1 + self.rng.below(6);
                    let mut garbage = self.rng.bytes(n);
                    garbage.push(0xC0);
                    self.send(&garbage);
                }
                self.request(2, vec![]);
            }
            13 => {
                // A frame cut off by the inter-byte timeout.
                self.seq = self.seq.wrapping_add(1);
                let w = wire(2, self.seq, vec![]);
                let cut = 2 + self.rng.below(w.len() - 3);
                let want = self.model.receive(&w[..cut]);
                let got = self.bench.exchange(&w[..cut]);
                assert_eq!(got, want);
                for _ in 0..TIMEOUT {
                    self.bench.tick(None);
                }
                self.model.interbyte_timeout();
                self.request(2, vec![]);
            }
            14 => {
                let fault = self.rng.below(6) == 0;
                let pausing = self.rng.below(3) == 0;
                self.upload(fault, pausing);
            }
            15 if self.rng.below(4) == 0 => {
                // A RESUME out of the blue: the summary again or BAD_STATE.
                let n = self.model.pauses().wrapping_add(self.rng.below(3) as u32);
                self.request(10, n.to_le_bytes().to_vec());
            }
            _ => self.run(),
        }
    }
}

#[test]
fn loader_answers_like_the_protocol_model() {
    let seed: u64 = std::env::var("LOADER_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let mut s = Session::new(seed, &CoreConfig::default());
    // A full upload and run first, so that the interesting paths are always covered.
    s.request(1, vec![]);
    s.request(6, vec![1, 0, 0, 0, 0, 0]); // no image yet
    s.upload(false, false);
    s.request(2, vec![]);
    s.run();
    // A geometry-like image whose quads pause.
    s.upload(false, true);
    s.run();
    for _ in 0..500 {
        s.random_request();
    }
    // More geometry-like images and runs that fit the memories (a run's RESUMEs and reads
    // between them).
    for _ in 0..6 {
        s.upload(false, true);
        let quads = 1 + s.rng.below(3) as u16;
        let is = 16 * s.rng.below(8) as u16;
        let os = 16 * (1 + s.rng.below(7) as u16);
        s.run_shaped(quads, is, os);
    }
    s.request(2, vec![]);
    // Every command was acknowledged, every NAK reason the loader can give was given.
    for cmd in 1..=10u8 {
        assert!(
            s.seen.contains_key(&(cmd, 0)),
            "no ACK for command {cmd}: {:?}",
            s.seen
        );
    }
    // RESUME refused for a count the run is not at.
    assert!(s.seen.contains_key(&(10, 4)), "{:?}", s.seen);
    assert!(
        s.pause_answers >= 20,
        "only {} answers stopped at a pause",
        s.pause_answers
    );
    for reason in 1..=10u8 {
        assert!(
            s.seen.keys().any(|&(_, r)| r == reason),
            "NAK reason {reason} never given: {:?}",
            s.seen
        );
    }
    let runs_with_outputs = s.seen.get(&(6, 0)).copied().unwrap_or(0);
    assert!(
        runs_with_outputs >= 5,
        "only {runs_with_outputs} RUNs acknowledged"
    );
    let status = s.model.status();
    eprintln!(
        "{} requests, {} clocks; final state {:?}, bad frames {}; {} answers at a pause; answers {:?}",
        s.steps, s.bench.clocks, status.state, status.bad_frames, s.pause_answers, s.seen
    );
}

/// RENDER (PROTOCOL.md section 3.2): the firmware's stream of block frames and end frame equals
/// the model's, byte for byte, for random shapes, images (faulting ones and ones whose MAPS is
/// short or lacks an entry) and refusals.
#[test]
fn render_streams_like_the_protocol_model() {
    let mut s = Session::new(23, &CoreConfig::default());
    s.render(); // no image yet
    for i in 0..16 {
        s.upload(i % 5 == 4, false);
        for _ in 0..3 {
            s.render();
        }
        if i % 4 == 0 {
            s.request(2, vec![]);
            s.request(6, vec![1, 0, 0, 0, 0, 0]);
        }
    }
    let render = |r: u8| s.seen.get(&(11, r)).copied().unwrap_or(0);
    assert!(render(0) >= 20, "{:?}", s.seen);
    for reason in [1u8, 4, 7, 10] {
        assert!(
            render(reason) >= 1,
            "RENDER NAK {reason} never given: {:?}",
            s.seen
        );
    }
    eprintln!(
        "{} requests, {} clocks; answers {:?}",
        s.steps, s.bench.clocks, s.seen
    );
}

/// A build without the texture unit has no TEXTURES region (INFO says 0 bytes): the firmware's
/// limits follow, so BEGIN, WRITE and READ of textures answer as the model's.
#[test]
fn a_loader_without_texture_memory_answers_like_the_model() {
    let core = CoreConfig {
        features: CoreConfig::default().features & !microcode::core::config::Features::TEXTURE,
        ..CoreConfig::default()
    };
    let mut s = Session::new(1, &core);
    assert_eq!(s.cfg.limits.textures, 0);
    s.upload(false, false);
    s.run();
    // BEGIN with one texture byte is out of range; a READ of the region too.
    let isa = s.cfg.isa_hash;
    s.request(3, begin_payload(isa, [16, 0, 1, 0]));
    s.request(7, vec![2, 0, 0, 0, 0, 1, 0]);
    for _ in 0..120 {
        s.random_request();
    }
    assert!(
        s.seen.get(&(6, 0)).copied().unwrap_or(0) >= 1,
        "{:?}",
        s.seen
    );
    assert!(
        s.seen.contains_key(&(3, 3)),
        "BEGIN with texels refused: {:?}",
        s.seen
    );
}
