//! The device model against the host client over an in-memory pipe.

mod common;

use common::*;
use firmware_loader::frame::{encode, Decoder, Frame};
use firmware_loader::host::{pack_registers, run_quads, unpack_registers, Client, HostError};
use firmware_loader::image::Upload;
use firmware_loader::port::{mem_pipe, PortError, SerialTransport, Transport};
use firmware_loader::protocol::{
    read_payload, write_payload, Begin, Command, LoadState, Reason, Region, RunRequest,
};
use firmware_loader::server::ServeOptions;
use std::time::Duration;

fn nak(r: Result<Vec<u8>, HostError>) -> Reason {
    match r {
        Err(HostError::Nak { reason, .. }) => reason,
        other => panic!("expected a NAK, got {other:?}"),
    }
}

#[test]
fn upload_verify_commit_and_status_crc() {
    let (mut c, served) = setup(fast());
    let img = image(1, [1000, 300, 77]);
    let mut seen = Vec::new();
    let report = c
        .upload(&img, &mut |done, total| seen.push((done, total)))
        .unwrap();
    assert_eq!(report.crc, image_crc(&img));
    assert_eq!(report.bytes, 1385);
    assert_eq!(seen.first(), Some(&(0, 1385)));
    assert_eq!(seen.last(), Some(&(1385, 1385)));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
    let s = c.status().unwrap();
    assert_eq!(s.state, LoadState::Valid);
    assert_eq!(s.active_crc, image_crc(&img));
    let dev = served.device.lock().unwrap();
    let active = dev.active_image().unwrap();
    assert_eq!(active.program, &img.regions[0][..]);
    assert_eq!(active.constants, &img.regions[1][..]);
    assert_eq!(active.textures, &img.regions[2][..]);
    assert_eq!(active.maps, &img.regions[3][..]);
}

#[test]
fn second_upload_becomes_active_only_at_commit() {
    let (mut c, _served) = setup(fast());
    let a = image(2, [512, 64, 0]);
    let b = image(3, [256, 128, 32]);
    c.upload(&a, &mut |_, _| {}).unwrap();
    assert_eq!(c.status().unwrap().active_crc, image_crc(&a));
    // A valid image cannot be written over without BEGIN, and RESET keeps it.
    let w = write_payload(Region::Program, 0, &[0xEE; 4]);
    assert_eq!(nak(c.request(Command::Write, &w)), Reason::BadState);
    c.reset().unwrap();
    let s = c.status().unwrap();
    assert_eq!((s.state, s.active_crc), (LoadState::Valid, image_crc(&a)));

    // A BEGIN for another core, or one too large, leaves the active image alone.
    let foreign = Begin {
        isa_hash: ISA ^ 1,
        lengths: [16, 0, 0, 0],
    };
    assert_eq!(
        nak(c.request(Command::Begin, &foreign.to_bytes())),
        Reason::IsaMismatch
    );
    let huge = Begin {
        isa_hash: ISA,
        lengths: [1 << 20, 0, 0, 0],
    };
    assert_eq!(
        nak(c.request(Command::Begin, &huge.to_bytes())),
        Reason::OutOfRange
    );
    let s = c.status().unwrap();
    assert_eq!((s.state, s.active_crc), (LoadState::Valid, image_crc(&a)));

    // Writing B: nothing is active and RUN is refused until COMMIT.
    c.begin(&Begin {
        isa_hash: ISA,
        lengths: [256, 128, 32, 8],
    })
    .unwrap();
    for (data, region) in b.regions.iter().zip(Region::IMAGE) {
        c.write_region(region, 0, data, 100, &mut |_| {}).unwrap();
        let s = c.status().unwrap();
        assert_eq!((s.state, s.active_crc), (LoadState::Uploading, 0));
    }
    let run = RunRequest {
        quads: 1,
        input_stride: 0,
        output_stride: 0,
        inline_inputs: vec![],
    };
    assert_eq!(
        nak(c.request(Command::Run, &run.to_bytes())),
        Reason::NoValidImage
    );

    // A COMMIT with the wrong CRC fails and activates nothing.
    assert!(matches!(
        c.commit(image_crc(&b) ^ 1),
        Err(HostError::Nak {
            reason: Reason::CrcMismatch,
            ..
        })
    ));
    let s = c.status().unwrap();
    assert_eq!((s.state, s.active_crc), (LoadState::Failed, 0));
    assert_eq!(
        nak(c.request(Command::Run, &run.to_bytes())),
        Reason::NoValidImage
    );

    c.commit(image_crc(&b)).unwrap();
    let s = c.status().unwrap();
    assert_eq!((s.state, s.active_crc), (LoadState::Valid, image_crc(&b)));
    // A repeated COMMIT (a retry whose ACK was lost) is acknowledged; another CRC changes nothing.
    c.commit(image_crc(&b)).unwrap();
    assert!(c.commit(image_crc(&a)).is_err());
    assert_eq!(c.status().unwrap().active_crc, image_crc(&b));
}

#[test]
fn refusals_carry_reasons() {
    let (mut c, _served) = setup(fast());
    // Image writes need BEGIN.
    let w = write_payload(Region::Program, 0, &[1, 2, 3]);
    assert_eq!(nak(c.request(Command::Write, &w)), Reason::BadState);
    assert_eq!(nak(c.request(Command::Commit, &[0; 4])), Reason::BadState);
    c.begin(&Begin {
        isa_hash: ISA,
        lengths: [32, 0, 0, 0],
    })
    .unwrap();
    // Past the declared image length, and past the memory.
    let w = write_payload(Region::Program, 30, &[1, 2, 3]);
    assert_eq!(nak(c.request(Command::Write, &w)), Reason::OutOfRange);
    let w = write_payload(Region::Inputs, 1023, &[1, 2]);
    assert_eq!(nak(c.request(Command::Write, &w)), Reason::OutOfRange);
    let w = write_payload(Region::Program, u32::MAX, &[1]);
    assert_eq!(nak(c.request(Command::Write, &w)), Reason::OutOfRange);
    let w = write_payload(Region::Outputs, 0, &[1]);
    assert_eq!(nak(c.request(Command::Write, &w)), Reason::BadRegion);
    let mut w = write_payload(Region::Program, 0, &[1]);
    w[0] = 9;
    assert_eq!(nak(c.request(Command::Write, &w)), Reason::BadRegion);
    assert_eq!(nak(c.request(Command::Status, &[0])), Reason::BadLength);
    assert_eq!(
        nak(c.request(Command::Read, &read_payload(Region::Inputs, 0, 0))),
        Reason::BadLength
    );
    assert_eq!(
        nak(c.request(Command::SetBaud, &9600u32.to_le_bytes())),
        Reason::BadBaud
    );
    assert_eq!(c.status().unwrap().last_nak, Reason::BadBaud as u8);
    // RESET aborts the upload.
    c.reset().unwrap();
    let s = c.status().unwrap();
    assert_eq!((s.state, s.last_nak), (LoadState::NoImage, 0));
}

#[test]
fn unknown_command_is_refused_with_its_own_code() {
    let (mut host, dev) = mem_pipe(115_200);
    let _served = serve_on(dev, ServeOptions::default());
    host.write_all(
        &encode(&Frame {
            cmd: 0x42,
            seq: 7,
            payload: vec![],
        })
        .unwrap(),
    )
    .unwrap();
    let mut d = Decoder::new();
    let mut buf = [0u8; 64];
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    let answer = loop {
        assert!(std::time::Instant::now() < deadline, "no answer");
        let n = host.read(&mut buf, Duration::from_millis(50)).unwrap();
        if let Some(f) = d.push_all(&buf[..n]).into_iter().find_map(Result::ok) {
            break f;
        }
    };
    assert_eq!(
        answer,
        Frame {
            cmd: 0xC2,
            seq: 7,
            payload: vec![Reason::UnknownCommand as u8]
        }
    );
}

#[test]
fn run_quads_moves_inputs_and_outputs() {
    let (mut c, _served) = setup(fast());
    let img = image(4, [64, 0, 0]);
    c.upload(&img, &mut |_, _| {}).unwrap();
    // 20 quads of two registers each: more than one batch (16 quads) and more than one frame.
    let quads: Vec<Vec<u8>> = (0..20u32)
        .map(|q| {
            pack_registers(&[
                [[q, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]],
                [[q << 8; 4]; 4],
            ])
        })
        .collect();
    let got = run_quads(&mut c, image_crc(&img), &[9; 48], &quads, 64).unwrap();
    assert_eq!(got.len(), 20);
    for (q, r) in got.iter().enumerate() {
        // The copy runner passes the first 64 input bytes (register 0) through.
        let regs = unpack_registers(&r.outputs);
        assert_eq!(regs[0][0], [q as u32, 1, 2, 3]);
        assert_eq!(regs[0][3], [12, 13, 14, 15]);
        assert_eq!(r.kill_mask, 0);
        assert_eq!(r.cycles, 64 / 16);
    }
    // Another image's CRC is refused before anything runs.
    assert!(matches!(
        run_quads(&mut c, image_crc(&img) ^ 1, &[], &quads, 64),
        Err(HostError::NotLoaded { .. })
    ));
}

#[test]
fn baud_change_and_fallback() {
    let (host, dev) = mem_pipe(115_200);
    let served = serve_on(
        dev,
        ServeOptions {
            interbyte_timeout: Duration::from_millis(20),
            baud_confirm: Duration::from_millis(100),
        },
    );
    let mut c = Client::new(host, fast());
    c.set_baud(3_000_000).unwrap();
    assert_eq!(c.info().unwrap().baud, 3_000_000);
    assert_eq!(c.transport_mut().baud(), 3_000_000);
    // Ask for a new rate but stay at the old one: the device falls back after the confirmation time.
    c.request(Command::SetBaud, &1_000_000u32.to_le_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(served.device.lock().unwrap().baud(), 3_000_000);
    assert_eq!(c.info().unwrap().baud, 3_000_000);
}

/// Something that answers every request with a fixed answer payload, or with damaged frames.
fn fake_device(
    payload: Vec<u8>,
    damage: bool,
) -> (
    Client<firmware_loader::port::MemPort>,
    std::thread::JoinHandle<()>,
) {
    let (host, mut dev) = mem_pipe(115_200);
    let t = std::thread::spawn(move || {
        let mut d = Decoder::new();
        let mut buf = [0u8; 256];
        while let Ok(n) = dev.read(&mut buf, Duration::from_millis(20)) {
            for f in d.push_all(&buf[..n]).into_iter().flatten() {
                let mut wire = encode(&Frame {
                    cmd: f.cmd | 0x80,
                    seq: f.seq,
                    payload: payload.clone(),
                })
                .unwrap();
                if damage {
                    let i = wire.len() - 2;
                    wire[i] ^= 0x10;
                }
                if dev.write_all(&wire).is_err() {
                    return;
                }
            }
        }
    });
    let mut o = fast();
    o.timeout = Duration::from_millis(30);
    o.retries = 2;
    (Client::new(host, o), t)
}

#[test]
fn wrong_device_no_answer_and_crc_failures_are_told_apart() {
    let (mut c, _t) = fake_device(b"\0NOPE-not-a-loader".to_vec(), false);
    assert!(matches!(c.info(), Err(HostError::WrongDevice { .. })));

    let (mut c, _t) = fake_device(vec![0], true);
    match c.status() {
        Err(HostError::CrcFailures {
            attempts: 3,
            bad_frames,
            ..
        }) => assert!(bad_frames >= 3),
        other => panic!("expected CRC failures, got {other:?}"),
    }

    let (host, _dev) = mem_pipe(115_200);
    let mut o = fast();
    o.timeout = Duration::from_millis(20);
    o.retries = 1;
    let mut c = Client::new(host, o);
    match c.info() {
        Err(e @ HostError::NoAnswer { attempts: 2, .. }) => {
            assert!(e.to_string().contains("no answer"), "{e}")
        }
        other => panic!("expected no answer, got {other:?}"),
    }
}

#[test]
fn isa_mismatch_and_oversized_images_are_refused_before_writing() {
    let (mut c, served) = setup(fast());
    let mut img = image(5, [32, 0, 0]);
    img.isa_hash ^= 0xFF;
    assert!(matches!(
        c.upload(&img, &mut |_, _| {}),
        Err(HostError::IsaMismatch { device: ISA, .. })
    ));
    let big = Upload {
        isa_hash: ISA,
        regions: [vec![0; 5000], vec![], vec![], vec![]],
    };
    assert!(matches!(
        c.upload(&big, &mut |_, _| {}),
        Err(HostError::TooLarge {
            region: Region::Program,
            len: 5000,
            limit: 4096
        })
    ));
    assert_eq!(served.device.lock().unwrap().status().staged_bytes, 0);
}

#[test]
fn missing_port_is_named() {
    match SerialTransport::open("/dev/tgsi-core-no-such-port", 115_200) {
        Err(e @ PortError::NoSuchPort { .. }) => {
            assert!(e.to_string().contains("/dev/tgsi-core-no-such-port"))
        }
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("opened a port that does not exist"),
    }
}

#[test]
fn a_frame_cut_off_mid_way_is_dropped_by_the_interbyte_timeout() {
    let (mut host, dev) = mem_pipe(115_200);
    let served = serve_on(dev, ServeOptions::default());
    let wire = encode(&Frame {
        cmd: Command::Status as u8,
        seq: 1,
        payload: vec![],
    })
    .unwrap();
    host.write_all(&wire[..4]).unwrap();
    std::thread::sleep(Duration::from_millis(150));
    {
        let dev = served.device.lock().unwrap();
        assert!(!dev.in_frame());
        assert_eq!(dev.status().bad_frames, 1);
    }
    // The link works normally afterwards.
    let mut c = Client::new(host, fast());
    assert_eq!(c.status().unwrap().bad_frames, 1);
}

#[test]
fn run_image_maps_tgsi_registers_and_constants() {
    use firmware_loader::board::run_image;
    use firmware_loader::image::{ImageFile, RegMap};
    use microcode::core::image::{ConstSlot, ConstSource, Image};
    use microcode::core::isa::{Instr, Op};
    let (mut c, served) = setup(fast());
    // The fixture device has a fixed ISA hash; it replaces the image's own.
    let code = vec![Instr::new(Op::Mov), Instr::new(Op::End)];
    let mut img = ImageFile::from_image(&Image {
        config: microcode::core::CoreConfig::default(),
        processor: 0,
        origin: vec![0; code.len()],
        code,
        constants: vec![
            ConstSlot {
                k: 0,
                source: ConstSource::Data([1, 2, 3, 4]),
            },
            ConstSlot {
                k: 2,
                source: ConstSource::Buffer {
                    buffer: 0,
                    index: 7,
                },
            },
        ],
        inputs: vec![RegMap { tgsi: 0, reg: 0 }, RegMap { tgsi: 2, reg: 1 }],
        outputs: vec![RegMap { tgsi: 0, reg: 5 }, RegMap { tgsi: 1, reg: 6 }],
    });
    img.upload.isa_hash = ISA;
    c.upload(&img.upload, &mut |_, _| {}).unwrap();
    let in0 = [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
    ];
    let in2 = [[0x3F80_0000; 4]; 4];
    let quads = vec![
        vec![(2, in2), (0, [[9; 4]; 4]), (0, in0), (5, [[7; 4]; 4])],
        vec![],
    ];
    let got = run_image(&mut c, &img, &quads, &|b, i| {
        [u32::from(b), u32::from(i), 0, 0]
    })
    .unwrap();
    assert_eq!(got.len(), 2);
    // The copy runner copies INPUTS (IN[0], IN[2]) into OUTPUTS (OUT[0], OUT[1]).
    assert_eq!(got[0].outputs, vec![(0, in0), (1, in2)]);
    assert_eq!(got[1].outputs, vec![(0, [[0; 4]; 4]), (1, [[0; 4]; 4])]);
    let dev = served.device.lock().unwrap();
    let params = dev.memory(Region::Params);
    assert_eq!(
        &params[32..48],
        &[0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
}

/// Corrupts the data of the first WRITE behind a valid CRC, as a receiver writing before its CRC
/// check could.
struct CorruptFirstWrite<T> {
    inner: T,
    done: bool,
}

impl<T: Transport> Transport for CorruptFirstWrite<T> {
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), PortError> {
        let frames: Vec<Frame> = Decoder::new()
            .push_all(bytes)
            .into_iter()
            .flatten()
            .collect();
        match frames.as_slice() {
            [f] if f.cmd == Command::Write as u8 && !self.done => {
                self.done = true;
                let mut f = f.clone();
                f.payload[5] ^= 0x01;
                self.inner.write_all(&encode(&f).unwrap())
            }
            _ => self.inner.write_all(bytes),
        }
    }
    fn read(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, PortError> {
        self.inner.read(buf, timeout)
    }
    fn set_baud(&mut self, baud: u32) -> Result<(), PortError> {
        self.inner.set_baud(baud)
    }
    fn baud(&self) -> u32 {
        self.inner.baud()
    }
}

#[test]
fn a_commit_crc_mismatch_is_repaired_by_one_rewrite() {
    let (host, dev) = mem_pipe(115_200);
    let served = serve_on(dev, ServeOptions::default());
    let mut c = Client::new(
        CorruptFirstWrite {
            inner: host,
            done: false,
        },
        fast(),
    );
    let img = image(9, [600, 0, 0]);
    let r = c.upload(&img, &mut |_, _| {}).unwrap();
    // INFO, BEGIN, 4 WRITEs (3 program, 1 maps), COMMIT (refused), 4 WRITEs, COMMIT, STATUS.
    assert_eq!(r.stats.requests, 13);
    assert_eq!(r.stats.image_bytes, 2 * 608);
    let dev = served.device.lock().unwrap();
    assert_eq!(dev.active_image().unwrap().program, &img.regions[0][..]);
}

#[test]
fn ensure_loaded_uploads_only_when_the_active_image_differs() {
    use firmware_loader::board::ensure_loaded;
    let (mut c, _served) = setup(fast());
    let a = image(21, [64, 16, 0]);
    let b = image(22, [64, 16, 0]);
    assert!(ensure_loaded(&mut c, &a, &mut |_, _| {}).unwrap());
    let writes = c.stats.image_bytes;
    assert!(!ensure_loaded(&mut c, &a, &mut |_, _| {}).unwrap());
    assert_eq!(c.stats.image_bytes, writes);
    assert!(ensure_loaded(&mut c, &b, &mut |_, _| {}).unwrap());
    assert_eq!(c.status().unwrap().active_crc, image_crc(&b));
}

/// INFO describes the device's build, which does not change while the link is open: the client
/// asks once for what uploads and runs need (a round trip saved per upload and per run), and
/// again after a line-rate change, which INFO reports.
#[test]
fn device_info_is_asked_once_per_link_and_again_after_a_baud_change() {
    let (mut c, _served) = setup(fast());
    let first = c.device_info().unwrap();
    let requests = c.stats.requests;
    assert_eq!(c.device_info().unwrap(), first);
    let img = image(4, [256, 64, 0]);
    c.upload(&img, &mut |_, _| {}).unwrap();
    let upload_requests = c.stats.requests - requests;
    // A fresh client asks INFO as part of its upload: one request more.
    let (mut fresh, _s) = setup(fast());
    let before = fresh.stats.requests;
    fresh.upload(&img, &mut |_, _| {}).unwrap();
    assert_eq!(fresh.stats.requests - before, upload_requests + 1);
    c.set_baud(1_000_000).unwrap();
    let requests = c.stats.requests;
    assert_eq!(c.device_info().unwrap().baud, 1_000_000);
    assert_eq!(
        c.stats.requests,
        requests + 1,
        "asked again after the change"
    );
}
