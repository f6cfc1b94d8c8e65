//! Geometry output through the protocol (`PROTOCOL.md`, "Geometry output"): a RUN stops at a
//! quad's pause at EMIT / ENDPRIM with the quad's outputs in OUTPUTS and the pause lanes in its
//! RESULTS record; RESUME continues it, and a repeated RESUME only answers again. Checked on the
//! device model frame by frame, and through the host client over a clean and a lossy line.

mod common;

use common::{fast, ISA};
use firmware_loader::device::{ActiveImage, Device, DeviceConfig, QuadOutcome, QuadRunner};
use firmware_loader::frame::Frame;
use firmware_loader::host::{pack_registers, run_quads, Client, ClientOptions, Pause};
use firmware_loader::image::Upload;
use firmware_loader::port::{mem_pipe, FaultyTransport};
use firmware_loader::protocol::{
    Begin, Command, Reason, Region, RunRequest, RunSummary, ANSWER_BIT, RESULT_PAUSE_LANES,
    RESULT_RECORD,
};
use firmware_loader::server::{serve, ServeOptions};
use microcode::core::fault_code::{BUDGET, EMIT, ENDPRIM};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One stretch of a [`Script`]ed quad: the pause it ends with (or the end, `fault` 0 / a fault).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Stretch {
    fault: u8,
    lanes: u8,
    kill_mask: u8,
    cycles: u32,
    /// XORed into every input byte to make the outputs at the stretch's end.
    mark: u8,
}

/// A quad's stretches from its first input byte: `b % 4` pauses (EMIT or ENDPRIM by the bits of
/// the second byte), then the end, or a budget fault when the third byte is odd.
fn script(inputs: &[u8]) -> Vec<Stretch> {
    let b = |i: usize| inputs.get(i).copied().unwrap_or(0);
    let pauses = usize::from(b(0) % 4);
    let mut v: Vec<Stretch> = (0..pauses)
        .map(|i| Stretch {
            fault: if b(1) >> i & 1 == 1 { ENDPRIM } else { EMIT },
            lanes: (b(2).rotate_left(i as u32) & 0xF) | 1,
            kill_mask: i as u8,
            cycles: 10 * (i as u32 + 1),
            mark: i as u8 + 1,
        })
        .collect();
    v.push(Stretch {
        fault: if b(2) & 1 == 1 { BUDGET } else { 0 },
        lanes: 0,
        kill_mask: 0xA,
        cycles: 100 + u32::from(b(3)),
        mark: 0xFF,
    });
    v
}

/// Runs quads by [`script`]: each stretch writes the inputs XOR its mark as the outputs (unless
/// it faults).
#[derive(Default)]
struct Scripted {
    left: Vec<Stretch>,
    inputs: Vec<u8>,
}

impl Scripted {
    fn next(&mut self, outputs: &mut [u8]) -> QuadOutcome {
        if self.left.is_empty() {
            return QuadOutcome::default();
        }
        let s = self.left.remove(0);
        if s.fault != BUDGET {
            for (o, i) in outputs
                .iter_mut()
                .zip(self.inputs.iter().chain([0u8; 256].iter()))
            {
                *o = i ^ s.mark;
            }
        }
        QuadOutcome {
            kill_mask: s.kill_mask,
            cycles: s.cycles,
            fault: s.fault,
            lanes: s.lanes,
        }
    }
}

impl QuadRunner for Scripted {
    fn run_quad(&mut self, _: &ActiveImage<'_>, inputs: &[u8], outputs: &mut [u8]) -> QuadOutcome {
        self.inputs = inputs.to_vec();
        self.left = script(inputs);
        self.next(outputs)
    }
    fn resume_quad(&mut self, _: &ActiveImage<'_>, outputs: &mut [u8]) -> QuadOutcome {
        self.next(outputs)
    }
}

fn config() -> DeviceConfig {
    DeviceConfig::board(ISA)
}

fn upload() -> Upload {
    Upload {
        isa_hash: ISA,
        regions: [vec![0; 32], Vec::new(), Vec::new(), vec![0; 8]],
    }
}

/// A device model with the scripted runner and a valid image.
fn device() -> Device<Scripted> {
    let mut d = Device::new(config(), Scripted::default());
    let u = upload();
    let mut lengths = [0u32; 4];
    for (l, r) in lengths.iter_mut().zip(&u.regions) {
        *l = r.len() as u32;
    }
    let b = Begin {
        isa_hash: ISA,
        lengths,
    };
    assert_eq!(ask(&mut d, Command::Begin, &b.to_bytes())[0], 0);
    for (r, data) in [Region::Program, Region::Maps]
        .iter()
        .zip([&u.regions[0], &u.regions[3]])
    {
        let p = firmware_loader::protocol::write_payload(*r, 0, data);
        assert_eq!(ask(&mut d, Command::Write, &p)[0], 0);
    }
    assert_eq!(ask(&mut d, Command::Commit, &u.crc().to_le_bytes())[0], 0);
    d
}

/// One request's answer payload (result byte first).
fn ask<R: QuadRunner>(d: &mut Device<R>, cmd: Command, payload: &[u8]) -> Vec<u8> {
    let f = d
        .handle(&Frame {
            cmd: cmd as u8,
            seq: 1,
            payload: payload.to_vec(),
        })
        .expect("an answer");
    assert_eq!(f.cmd, cmd as u8 | ANSWER_BIT);
    f.payload
}

fn summary(answer: &[u8]) -> RunSummary {
    assert_eq!(answer[0], 0, "NAK {}", answer[0]);
    RunSummary::from_bytes(&answer[1..]).expect("a RUN summary")
}

#[test]
fn a_run_stops_at_each_pause_and_resume_continues_it() {
    let mut d = device();
    // Quad 0: two pauses (EMIT, ENDPRIM), then the end; quad 1: one EMIT, then the end.
    let mut inputs = vec![0u8; 128];
    inputs[..4].copy_from_slice(&[2, 0b10, 0b0110, 5]);
    inputs[64..68].copy_from_slice(&[1, 0, 0b1000, 7]);
    let run = RunRequest {
        quads: 2,
        input_stride: 64,
        output_stride: 64,
        inline_inputs: inputs.clone(),
    };
    let s = summary(&ask(&mut d, Command::Run, &run.to_bytes()));
    assert_eq!((s.fault, s.quads_run, s.cycles), (EMIT, 1, 10));
    assert_eq!(s.kill_masks, vec![0]);
    let rec = d.memory(Region::Results)[..RESULT_RECORD].to_vec();
    assert_eq!(rec, [0, EMIT, 0b0111, 0, 10, 0, 0, 0]);
    assert_eq!(d.memory(Region::Outputs)[0], 2 ^ 1);
    assert_eq!(d.status().fault, EMIT);
    // A count the run is not at is refused; the one before it (a lost answer) only answers.
    assert_eq!(
        ask(&mut d, Command::Resume, &2u32.to_le_bytes()),
        [Reason::BadState as u8]
    );
    assert_eq!(
        ask(&mut d, Command::Resume, &[1, 0]),
        [Reason::BadLength as u8]
    );
    assert_eq!(
        summary(&ask(&mut d, Command::Resume, &0u32.to_le_bytes())),
        s
    );
    // The second pause: ENDPRIM, its lanes rotated, the outputs of that stretch.
    let s2 = summary(&ask(&mut d, Command::Resume, &1u32.to_le_bytes()));
    assert_eq!((s2.fault, s2.quads_run, s2.cycles), (ENDPRIM, 1, 20));
    assert_eq!(d.memory(Region::Results)[RESULT_PAUSE_LANES], 0b1101);
    assert_eq!(d.memory(Region::Outputs)[0], 2 ^ 2);
    // Repeated: the same answer, nothing run.
    assert_eq!(
        summary(&ask(&mut d, Command::Resume, &1u32.to_le_bytes())),
        s2
    );
    // Quad 0 ends, quad 1 starts and pauses: the cycles add up, the kill masks of both.
    let s3 = summary(&ask(&mut d, Command::Resume, &2u32.to_le_bytes()));
    assert_eq!((s3.fault, s3.quads_run, s3.cycles), (EMIT, 2, 105 + 10));
    assert_eq!(s3.kill_masks, vec![0xA, 0]);
    let res = d.memory(Region::Results).to_vec();
    assert_eq!(&res[..8], &[0xA, 0, 0, 0, 105, 0, 0, 0]);
    assert_eq!(&res[8..16], &[0, EMIT, 0b1001, 0, 10, 0, 0, 0]);
    assert_eq!(d.memory(Region::Outputs)[0], 2 ^ 0xFF);
    assert_eq!(d.memory(Region::Outputs)[64], 1 ^ 1);
    let s4 = summary(&ask(&mut d, Command::Resume, &3u32.to_le_bytes()));
    assert_eq!((s4.fault, s4.quads_run, s4.cycles), (0, 2, 105 + 107));
    assert_eq!(d.memory(Region::Results)[8 + RESULT_PAUSE_LANES], 0);
    // Nothing paused: the summary again (a lost answer), or BAD_STATE for another count.
    assert_eq!(
        summary(&ask(&mut d, Command::Resume, &3u32.to_le_bytes())),
        s4
    );
    assert_eq!(
        ask(&mut d, Command::Resume, &1u32.to_le_bytes()),
        [Reason::BadState as u8]
    );
    // RESET clears the run: RESUME 0 answers an empty summary.
    assert_eq!(ask(&mut d, Command::Reset, &[]), [0]);
    let empty = summary(&ask(&mut d, Command::Resume, &0u32.to_le_bytes()));
    assert_eq!((empty.fault, empty.quads_run, empty.cycles), (0, 0, 0));
    assert!(empty.kill_masks.is_empty());
}

#[test]
fn a_fault_after_a_pause_ends_the_run_and_keeps_the_pause_outputs() {
    let mut d = device();
    let mut inputs = vec![0u8; 64];
    inputs[..4].copy_from_slice(&[1, 0, 0b0011, 0]);
    let run = RunRequest {
        quads: 3,
        input_stride: 64,
        output_stride: 64,
        inline_inputs: inputs,
    };
    assert_eq!(
        summary(&ask(&mut d, Command::Run, &run.to_bytes())).fault,
        EMIT
    );
    let s = summary(&ask(&mut d, Command::Resume, &1u32.to_le_bytes()));
    assert_eq!((s.fault, s.quads_run, s.cycles), (BUDGET, 1, 100));
    assert_eq!(d.memory(Region::Outputs)[0], 1 ^ 1);
    assert_eq!(&d.memory(Region::Results)[..4], &[0xA, BUDGET, 0, 0]);
    // A RUN after a pause starts over.
    assert_eq!(
        summary(&ask(&mut d, Command::Run, &run.to_bytes())).fault,
        EMIT
    );
}

/// The host client streams every pause of every quad, in order, with its lanes and (at EMIT)
/// its outputs, and the final outputs; `seed` picks the scripts. Returns the link's traffic.
fn stream(client_opts: ClientOptions, rate: f64, seed: u64) -> firmware_loader::host::LinkStats {
    let (host, dev) = mem_pipe(115_200);
    let device = Arc::new(Mutex::new(Device::new(config(), Scripted::default())));
    let stop = Arc::new(AtomicBool::new(false));
    let (d, s) = (device.clone(), stop.clone());
    let server = std::thread::spawn(move || {
        let mut dev = dev;
        serve(&mut dev, &d, &s, ServeOptions::default()).expect("device server");
    });
    let mut c = Client::new(FaultyTransport::new(host, rate, seed), client_opts);
    let u = upload();
    c.upload(&u, &mut |_, _| {}).expect("upload");
    let mut rng = microcode::rng::XorShift::new(seed);
    let quads: Vec<Vec<u8>> = (0..5)
        .map(|_| {
            let regs: Vec<[[u32; 4]; 4]> = (0..2)
                .map(|_| [[0; 4]; 4].map(|l| l.map(|_| rng.next_u32() & !0x0001_0000)))
                .collect();
            pack_registers(&regs)
        })
        .collect();
    let got = run_quads(&mut c, u.crc(), &[], &quads, 128).expect("runs");
    assert_eq!(got.len(), 5);
    for (q, r) in got.iter().enumerate() {
        let script = script(&quads[q]);
        let (end, pauses) = script.split_last().expect("an end");
        let want: Vec<Pause> = pauses
            .iter()
            .map(|s| Pause {
                code: s.fault,
                lanes: s.lanes,
                outputs: if s.fault == EMIT {
                    quads[q].iter().map(|b| b ^ s.mark).collect()
                } else {
                    Vec::new()
                },
            })
            .collect();
        assert_eq!(r.pauses, want, "quad {q}");
        assert_eq!((r.fault, r.cycles, r.kill_mask), (0, end.cycles, 0xA));
        let out: Vec<u8> = quads[q].iter().map(|b| b ^ 0xFF).collect();
        assert_eq!(r.outputs, out, "quad {q}");
    }
    stop.store(true, Ordering::Relaxed);
    let stats = c.stats;
    drop(c);
    let _ = server.join();
    stats
}

#[test]
fn the_host_streams_every_pause_of_every_quad() {
    stream(fast(), 0.0, 3);
}

#[test]
fn a_lossy_line_streams_the_same_pauses() {
    // Lost and damaged answers make the host repeat RESUMEs: each is answered again, never run
    // twice, so the stream is the same.
    let opts = ClientOptions {
        timeout: Duration::from_millis(60),
        retries: 12,
        run_timeout: Duration::from_millis(60),
        min_chunk: 16,
    };
    let retried: u64 = [5, 6]
        .into_iter()
        .map(|seed| {
            let s = stream(opts, 0.005, seed);
            s.attempts - s.requests
        })
        .sum();
    assert!(retried > 0, "the line damaged nothing");
}
