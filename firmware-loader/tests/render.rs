//! RENDER on the device model (`PROTOCOL.md`, section 3.2): the quads walked in row order from
//! the request's first quad, each lane's coordinate input made from its pixel, the first output
//! entry's words streamed in blocks of the requested size, then the end frame. The copy runner
//! returns the inputs as the outputs, so the streamed words are the coordinates the device made,
//! checked here against the pixel positions computed from the request.

mod common;

use common::ISA;
use firmware_loader::device::{CopyRunner, Device, DeviceConfig};
use firmware_loader::frame::{encode, Decoder, Frame};
use firmware_loader::image::{maps_region, RegMap, Upload};
use firmware_loader::protocol::{
    Begin, Command, Reason, RenderEnd, RenderRequest, ANSWER_BIT, RENDER_BLOCK,
    RENDER_BLOCK_HEADER, RENDER_COORD_BIAS, RENDER_END,
};

/// A device with a valid image of `inputs` input entries and one output entry (register 0
/// both, so the copy runner's outputs are the coordinate input).
fn device(inputs: usize) -> Device<CopyRunner> {
    let mut d = Device::new(DeviceConfig::board(ISA), CopyRunner);
    let ins: Vec<RegMap> = (0..inputs)
        .map(|i| RegMap {
            tgsi: i as u16,
            reg: i as u16,
        })
        .collect();
    let u = Upload {
        isa_hash: ISA,
        regions: [
            vec![0; 32],
            Vec::new(),
            Vec::new(),
            maps_region(&ins, &[RegMap { tgsi: 0, reg: 0 }], &[]),
        ],
    };
    let lengths = u.regions.clone().map(|r| r.len() as u32);
    let b = Begin {
        isa_hash: ISA,
        lengths,
    };
    assert_eq!(ask(&mut d, Command::Begin, &b.to_bytes()), [vec![0]]);
    for (r, data) in [(0u8, &u.regions[0]), (7, &u.regions[3])] {
        let p = firmware_loader::protocol::write_payload(
            firmware_loader::protocol::Region::from_code(r).unwrap(),
            0,
            data,
        );
        assert_eq!(ask(&mut d, Command::Write, &p), [vec![0]]);
    }
    assert_eq!(
        ask(&mut d, Command::Commit, &u.crc().to_le_bytes()),
        [vec![0]]
    );
    d
}

/// The payloads of every frame one request brings, through the wire (encoder and decoder).
fn ask(d: &mut Device<CopyRunner>, cmd: Command, payload: &[u8]) -> Vec<Vec<u8>> {
    let wire = encode(&Frame {
        cmd: cmd as u8,
        seq: 7,
        payload: payload.to_vec(),
    })
    .unwrap();
    let out = d.receive(&wire);
    let mut dec = Decoder::new();
    dec.push_all(&out)
        .into_iter()
        .map(|f| {
            let f = f.expect("an intact frame");
            assert_eq!((f.cmd, f.seq), (cmd as u8 | ANSWER_BIT, 7));
            f.payload
        })
        .collect()
}

#[test]
fn render_streams_each_lanes_coordinates_in_blocks() {
    let mut d = device(2);
    // 3 quads per row; from quad (2, 1): (2,1) (0,2) (1,2) (2,2) (0,3); blocks of 2.
    let r = RenderRequest {
        row_quads: 3,
        x: 2,
        y: 1,
        quads: 5,
        lane_words: 4,
        block_quads: 2,
    };
    let frames = ask(&mut d, Command::Render, &r.to_bytes());
    assert_eq!(frames.len(), 4, "three blocks and the end");
    let quads = [(2u32, 1u32), (0, 2), (1, 2), (2, 2), (0, 3)];
    let mut q = 0;
    for (b, f) in frames[..3].iter().enumerate() {
        assert_eq!(&f[..2], [0, RENDER_BLOCK]);
        assert_eq!(u16::from_le_bytes([f[2], f[3]]), 2 * b as u16);
        let records = &f[RENDER_BLOCK_HEADER..];
        assert_eq!(records.len() % r.record_bytes(), 0);
        for rec in records.chunks(r.record_bytes()) {
            let (qx, qy) = quads[q];
            assert_eq!(rec[0], 0, "kill mask");
            for lane in 0..4u32 {
                let w = |c: usize| {
                    let at = 1 + 16 * lane as usize + 4 * c;
                    u32::from_le_bytes(rec[at..at + 4].try_into().unwrap())
                };
                let (px, py) = (2 * qx + (lane & 1), 2 * qy + (lane >> 1));
                assert_eq!(f32::from_bits(w(0)) - 8_388_608.0, px as f32);
                assert_eq!(w(0), RENDER_COORD_BIAS + px);
                assert_eq!(w(1), RENDER_COORD_BIAS + py);
                assert_eq!((w(2), w(3)), (0, 0));
            }
            q += 1;
        }
    }
    assert_eq!(q, 5);
    assert_eq!(frames[3][1], RENDER_END);
    let end = RenderEnd::from_bytes(&frames[3]).unwrap();
    assert_eq!((end.fault, end.quads, end.cycles), (0, 5, 5 * 2));
    // A RENDER leaves no run behind: STATUS's run fields are zero.
    let s = d.status();
    assert_eq!((s.quads_run, s.cycles, s.fault), (0, 0, 0));
}

#[test]
fn render_packs_one_word_per_lane_and_refuses_bad_shapes() {
    let mut d = device(1);
    let r = RenderRequest {
        row_quads: 32,
        x: 0,
        y: 0,
        quads: 32,
        lane_words: 1,
        block_quads: 14,
    };
    assert_eq!(r.record_bytes(), 17);
    let frames = ask(&mut d, Command::Render, &r.to_bytes());
    let sizes: Vec<usize> = frames.iter().map(Vec::len).collect();
    assert_eq!(sizes, [4 + 14 * 17, 4 + 14 * 17, 4 + 4 * 17, 9]);
    // Quad 31 (the last block's fourth): lane 3's x word.
    let last = &frames[2][RENDER_BLOCK_HEADER + 3 * 17..];
    let at = 1 + 4 * 3;
    assert_eq!(
        u32::from_le_bytes(last[at..at + 4].try_into().unwrap()),
        RENDER_COORD_BIAS + 2 * 31 + 1
    );
    let nak = |d: &mut Device<CopyRunner>, r: RenderRequest| ask(d, Command::Render, &r.to_bytes());
    let too_many = vec![vec![Reason::TooManyQuads as u8]];
    for bad in [
        RenderRequest { quads: 0, ..r },
        RenderRequest { row_quads: 0, ..r },
        RenderRequest { x: 32, ..r },
        RenderRequest { lane_words: 2, ..r },
        RenderRequest {
            block_quads: 0,
            ..r
        },
        // 4 + 15 * 17 = 259 bytes: beyond a payload.
        RenderRequest {
            block_quads: 15,
            ..r
        },
    ] {
        assert_eq!(nak(&mut d, bad), too_many, "{bad:?}");
    }
    assert_eq!(
        ask(&mut d, Command::Render, &r.to_bytes()[..9]),
        [vec![Reason::BadLength as u8]]
    );
    let mut fresh = Device::new(DeviceConfig::board(ISA), CopyRunner);
    assert_eq!(
        ask(&mut fresh, Command::Render, &r.to_bytes()),
        [vec![Reason::NoValidImage as u8]]
    );
}

/// A count-only RENDER (lane words 0) shades the same quads and answers only the end frame,
/// with the quads and cycles of the render that streams them.
#[test]
fn a_count_only_render_answers_only_its_end_frame() {
    let mut d = device(1);
    let r = RenderRequest {
        row_quads: 8,
        x: 3,
        y: 2,
        quads: 40,
        lane_words: firmware_loader::protocol::RENDER_COUNT_ONLY,
        block_quads: 1,
    };
    let frames = ask(&mut d, Command::Render, &r.to_bytes());
    assert_eq!(frames.len(), 1, "the end frame alone");
    let end = RenderEnd::from_bytes(&frames[0]).unwrap();
    let streamed = ask(
        &mut d,
        Command::Render,
        &RenderRequest { lane_words: 1, ..r }.to_bytes(),
    );
    let full = RenderEnd::from_bytes(streamed.last().unwrap()).unwrap();
    assert_eq!(end, full);
    assert_eq!((end.fault, end.quads), (0, 40));
}

/// CORE on a device of two cores: each core and `ALL_CORES` are accepted and reported by
/// STATUS, a core beyond the count is refused without changing the selection, and RESET
/// selects every core again; INFO says how many there are.
#[test]
fn core_selects_below_the_core_count_and_reset_selects_all() {
    use firmware_loader::protocol::{Info, Status, ALL_CORES};
    let mut cfg = DeviceConfig::board(ISA);
    cfg.cores = 2;
    let mut d = Device::new(cfg, CopyRunner);
    let info = Info::from_bytes(&ask(&mut d, Command::Info, &[])[0][1..])
        .unwrap()
        .unwrap();
    assert_eq!(info.cores, 2);
    let status = |d: &mut Device<CopyRunner>| {
        Status::from_bytes(&ask(d, Command::Status, &[])[0][1..])
            .unwrap()
            .core
    };
    assert_eq!(status(&mut d), ALL_CORES, "every core after power-up");
    assert_eq!(ask(&mut d, Command::Core, &[1]), [vec![0]]);
    assert_eq!(status(&mut d), 1);
    assert_eq!(
        ask(&mut d, Command::Core, &[2]),
        [vec![Reason::OutOfRange as u8]]
    );
    assert_eq!(status(&mut d), 1, "a refused CORE keeps the selection");
    assert_eq!(
        ask(&mut d, Command::Core, &[]),
        [vec![Reason::BadLength as u8]]
    );
    assert_eq!(ask(&mut d, Command::Core, &[0]), [vec![0]]);
    assert_eq!(status(&mut d), 0);
    assert_eq!(ask(&mut d, Command::Reset, &[]), [vec![0]]);
    assert_eq!(status(&mut d), ALL_CORES, "RESET selects every core");
    assert_eq!(ask(&mut d, Command::Core, &[ALL_CORES]), [vec![0]]);
}

/// The host client's RENDER over a clean and a lossy line: every quad's record arrives intact
/// (a lost or damaged block is asked for again), each equal to the coordinates of its pixels.
#[test]
fn the_client_renders_every_quad_intact_over_a_lossy_line() {
    use firmware_loader::host::Client;
    use firmware_loader::image::{maps_region, RegMap};
    use firmware_loader::port::{mem_pipe, FaultyTransport};
    use firmware_loader::server::{serve, ServeOptions};
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};
    for (rate, seed) in [(0.0, 1u64), (0.002, 2), (0.004, 3)] {
        let (host, dev) = mem_pipe(115_200);
        let d = Arc::new(Mutex::new(Device::new(
            DeviceConfig::board(ISA),
            CopyRunner,
        )));
        let stop = Arc::new(AtomicBool::new(false));
        let (d2, s2) = (d.clone(), stop.clone());
        let server = std::thread::spawn(move || {
            let mut dev = dev;
            serve(&mut dev, &d2, &s2, ServeOptions::default()).expect("device server");
        });
        // Protocol 2's INFO answer (the board, its cores and their configuration) is long
        // enough that a line losing 0.4% of its bytes damages a good share of its frames: the
        // test is about RENDER's records, so the client may ask as often as it takes.
        let opts = firmware_loader::host::ClientOptions {
            retries: 12,
            ..common::fast()
        };
        let mut c = Client::new(FaultyTransport::new(host, rate, seed), opts);
        let u = Upload {
            isa_hash: ISA,
            regions: [
                vec![0; 32],
                Vec::new(),
                Vec::new(),
                maps_region(
                    &[RegMap { tgsi: 0, reg: 0 }],
                    &[RegMap { tgsi: 0, reg: 0 }],
                    &[],
                ),
            ],
        };
        c.upload(&u, &mut |_, _| {}).expect("upload");
        let req = RenderRequest {
            row_quads: 16,
            x: 0,
            y: 0,
            quads: 16 * 16,
            lane_words: 1,
            block_quads: 14,
        };
        let got = c.render(&req).expect("render");
        assert_eq!((got.fault, got.records.len()), (0, 256), "rate {rate}");
        for (q, r) in got.records.iter().enumerate() {
            let qx = q as u32 % 16;
            let want: Vec<u32> = (0..4u32)
                .map(|l| RENDER_COORD_BIAS + 2 * qx + (l & 1))
                .collect();
            assert_eq!(
                (r.kill_mask, &r.words),
                (0, &want),
                "quad {q} at rate {rate}"
            );
        }
        if rate == 0.0 {
            assert_eq!(got.requests, 1);
        }
        eprintln!("rate {rate}: {} RENDER requests", got.requests);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        server.join().unwrap();
    }
}
