//! One frame over several device models (`farm`): every quad's record lands at its position once,
//! whichever board drew it; a board whose port dies or falls silent mid-block has that block
//! drawn by the others; a frame fails only when every board has failed (naming each), or at a
//! quad that faults (the first in frame order).

mod common;

use common::{fast, ISA};
use firmware_loader::device::QuadRunner;
use firmware_loader::device::{ActiveImage, CopyRunner, Device, DeviceConfig, QuadOutcome};
use firmware_loader::farm::{render_farm, FarmBoard, FarmError, FarmEvent, FarmJob};
use firmware_loader::host::{Client, HostError};
use firmware_loader::image::{maps_region, RegMap, Upload};
use firmware_loader::port::{mem_pipe, MemPort, PortError, Transport};
use firmware_loader::protocol::RENDER_COORD_BIAS;
use firmware_loader::server::{serve, ServeOptions};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The copy runner, faulting (code 5) on the quad whose top-left pixel is `fault_at`.
struct Runner {
    fault_at: Option<(u32, u32)>,
}

impl QuadRunner for Runner {
    fn run_quad(
        &mut self,
        img: &ActiveImage<'_>,
        inputs: &[u8],
        outputs: &mut [u8],
    ) -> QuadOutcome {
        let word = |at: usize| u32::from_le_bytes(inputs[at..at + 4].try_into().unwrap());
        let pixel = (word(0) - RENDER_COORD_BIAS, word(4) - RENDER_COORD_BIAS);
        if self.fault_at == Some(pixel) {
            return QuadOutcome {
                fault: 5,
                ..QuadOutcome::default()
            };
        }
        CopyRunner.run_quad(img, inputs, outputs)
    }

    fn resume_quad(&mut self, img: &ActiveImage<'_>, outputs: &mut [u8]) -> QuadOutcome {
        CopyRunner.resume_quad(img, outputs)
    }
}

/// How a board's link behaves after `budget` bytes have come back from the device.
#[derive(Clone, Copy, PartialEq)]
enum Death {
    /// The port is gone (an unplugged adapter, a killed emulator).
    Gone,
    /// Nothing more arrives (a hung board).
    Silent,
}

/// Another board's budget a link waits on (see [`Mortal`]'s `gate`).
type Gate = Arc<Mutex<Option<Arc<AtomicUsize>>>>;

/// The host's end of a board's link, which dies after `budget` received bytes.
struct Mortal {
    inner: MemPort,
    budget: Arc<AtomicUsize>,
    death: Death,
    /// While set, requests wait until that budget is spent (at most 10 s): the order in which
    /// the boards take blocks is then the test's, not the scheduler's.
    gate: Gate,
}

impl Transport for Mortal {
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), PortError> {
        let gate = self.gate.lock().unwrap().clone();
        if let Some(other) = gate {
            let start = std::time::Instant::now();
            while other.load(Ordering::Relaxed) != 0 && start.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        if self.budget.load(Ordering::Relaxed) == 0 && self.death == Death::Gone {
            return Err(PortError::Disconnected);
        }
        self.inner.write_all(bytes)
    }

    fn read(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, PortError> {
        let left = self.budget.load(Ordering::Relaxed);
        if left == 0 {
            return match self.death {
                Death::Gone => Err(PortError::Disconnected),
                Death::Silent => {
                    std::thread::sleep(timeout);
                    Ok(0)
                }
            };
        }
        let n = buf.len().min(left);
        let got = self.inner.read(&mut buf[..n], timeout)?;
        self.budget.fetch_sub(got, Ordering::Relaxed);
        Ok(got)
    }

    fn set_baud(&mut self, baud: u32) -> Result<(), PortError> {
        self.inner.set_baud(baud)
    }

    fn baud(&self) -> u32 {
        self.inner.baud()
    }
}

/// A device model served in a thread, its image (one coordinate input copied to the output)
/// uploaded, and the farm's board for it; the device stops when dropped.
struct Served {
    board: Option<FarmBoard<Mortal>>,
    budget: Arc<AtomicUsize>,
    gate: Gate,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.board = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn board(name: &str, fault_at: Option<(u32, u32)>, death: Death) -> Served {
    let (host, dev) = mem_pipe(115_200);
    let device = Arc::new(Mutex::new(Device::new(
        DeviceConfig::board(ISA),
        Runner { fault_at },
    )));
    let stop = Arc::new(AtomicBool::new(false));
    let (d, s) = (device.clone(), stop.clone());
    let thread = std::thread::spawn(move || {
        let mut dev = dev;
        serve(&mut dev, &d, &s, ServeOptions::default()).expect("device server");
    });
    let budget = Arc::new(AtomicUsize::new(usize::MAX));
    let gate = Gate::default();
    let link = Mortal {
        inner: host,
        budget: budget.clone(),
        death,
        gate: gate.clone(),
    };
    let mut client = Client::new(link, fast());
    let map = [RegMap { tgsi: 0, reg: 0 }];
    let upload = Upload {
        isa_hash: ISA,
        regions: [
            vec![0; 32],
            Vec::new(),
            Vec::new(),
            maps_region(&map, &map, &[]),
        ],
    };
    client.upload(&upload, &mut |_, _| {}).expect("upload");
    Served {
        board: Some(FarmBoard {
            name: name.into(),
            client,
        }),
        budget,
        gate,
        stop,
        thread: Some(thread),
    }
}

/// Every quad's record holds its own pixels' coordinates, so a record at the wrong position,
/// missing or repeated shows.
fn check_frame(records: &[firmware_loader::host::RenderRecord], job: &FarmJob) {
    assert_eq!(records.len(), job.quads());
    for (q, r) in records.iter().enumerate() {
        let (qx, qy) = (
            q as u32 % u32::from(job.row_quads),
            q as u32 / u32::from(job.row_quads),
        );
        let want: Vec<u32> = (0..4u32)
            .flat_map(|l| {
                [
                    RENDER_COORD_BIAS + 2 * qx + (l & 1),
                    RENDER_COORD_BIAS + 2 * qy + (l >> 1),
                    0,
                    0,
                ]
            })
            .collect();
        assert_eq!((r.kill_mask, &r.words), (0, &want), "quad {q}");
    }
}

/// The events heard: (board, first row, delivered?).
type Log = Arc<Mutex<Vec<(String, u16, bool)>>>;

/// Records the events in a [`Log`].
fn recorder() -> (Log, impl Fn(&FarmEvent) + Sync) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    let on_event = move |e: &FarmEvent| {
        let entry = match e {
            FarmEvent::Delivered { board, y, .. } => (board.to_string(), *y, true),
            FarmEvent::Failed { board, y, .. } => (board.to_string(), *y, false),
        };
        l.lock().unwrap().push(entry);
    };
    (log, on_event)
}

fn boards_of(served: &mut [Served]) -> Vec<FarmBoard<Mortal>> {
    served.iter_mut().map(|s| s.board.take().unwrap()).collect()
}

#[test]
fn a_frame_over_three_boards_lands_every_quad_once_at_its_position() {
    let mut served: Vec<Served> = ["a", "b", "c"]
        .iter()
        .map(|n| board(n, None, Death::Gone))
        .collect();
    let mut boards = boards_of(&mut served);
    let job = FarmJob::new(12, 30, 4, boards.len());
    assert!(job.block_rows < 30 / 3, "{job:?}: several blocks per board");
    let (log, on_event) = recorder();
    let frame = render_farm(&mut boards, &job, &on_event).expect("the frame");
    check_frame(&frame.records, &job);
    let log = log.lock().unwrap();
    assert!(log.iter().all(|e| e.2), "no failure: {log:?}");
    let mut rows: Vec<u16> = log.iter().map(|e| e.1).collect();
    rows.sort_unstable();
    rows.dedup();
    assert_eq!(rows.len(), log.len(), "each block delivered once: {log:?}");
    assert_eq!(
        frame.shares.iter().map(|s| s.quads).sum::<usize>(),
        job.quads()
    );
    assert!(frame.shares.iter().all(|s| s.failure.is_none()));
    // The copy runner counts one cycle per 16 program bytes: 2 a quad.
    assert_eq!(frame.cycles(), 2 * job.quads() as u64);
}

/// A board whose link dies in the middle of its second block (gone, then silent): the block is
/// put back and drawn by the other board; the frame is whole, the failed board named.
#[test]
fn a_board_lost_mid_block_has_its_block_drawn_by_the_others() {
    for death in [Death::Gone, Death::Silent] {
        let mut served = vec![
            board("dies", None, death),
            board("lives", None, Death::Gone),
        ];
        let job = FarmJob::new(8, 16, 4, 2);
        // A block's stream: its records (65 bytes a quad with 4 words a lane) and the frames.
        let block_bytes = usize::from(job.block_rows) * 8 * 65;
        served[0]
            .budget
            .store(block_bytes + block_bytes / 2, Ordering::Relaxed);
        // The other board asks for nothing until this one has died: however the threads are
        // scheduled, this one takes a second block and dies in it.
        *served[1].gate.lock().unwrap() = Some(served[0].budget.clone());
        let mut boards = boards_of(&mut served);
        let (log, on_event) = recorder();
        let frame = render_farm(&mut boards, &job, &on_event).expect("the frame");
        check_frame(&frame.records, &job);
        let log = log.lock().unwrap();
        let failed: Vec<_> = log.iter().filter(|e| !e.2).collect();
        assert_eq!(failed.len(), 1, "{log:?}");
        assert_eq!(failed[0].0, "dies");
        // The failed block was delivered once, by the other board.
        let redone: Vec<_> = log.iter().filter(|e| e.2 && e.1 == failed[0].1).collect();
        assert_eq!(redone.len(), 1, "{log:?}");
        assert_eq!(redone[0].0, "lives");
        let [dies, lives] = &frame.shares[..] else {
            panic!("two shares")
        };
        assert_eq!(
            dies.blocks, 1,
            "the first block came back before the link died"
        );
        assert!(dies.failure.is_some());
        assert_eq!(dies.quads + lives.quads, job.quads());
        let expected = match death {
            Death::Gone => matches!(dies.failure, Some(HostError::Port(_))),
            Death::Silent => matches!(dies.failure, Some(HostError::NoAnswer { .. })),
        };
        assert!(expected, "{:?}", dies.failure);
        drop(boards);
    }
}

#[test]
fn a_frame_fails_naming_every_board_when_all_fail() {
    let mut served = vec![
        board("first", None, Death::Gone),
        board("second", None, Death::Gone),
    ];
    for s in &served {
        s.budget.store(100, Ordering::Relaxed);
    }
    let mut boards = boards_of(&mut served);
    let job = FarmJob::new(8, 8, 1, 2);
    let err = render_farm(&mut boards, &job, &|_| {}).expect_err("no board left");
    let FarmError::AllFailed {
        failures,
        rows_left,
        rows,
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((*rows_left, *rows), (8, 8));
    let names: Vec<&str> = failures.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["first", "second"]);
    let said = err.to_string();
    assert!(
        said.contains("first: ") && said.contains("second: "),
        "{said}"
    );
    assert!(matches!(
        render_farm::<Mortal>(&mut [], &job, &|_| {}),
        Err(FarmError::NoBoards)
    ));
}

/// A quad that faults stops the frame (whichever board runs it): the error names the quad.
#[test]
fn a_faulting_quad_stops_the_frame_and_is_named() {
    let mut served = vec![
        board("a", Some((6, 10)), Death::Gone),
        board("b", Some((6, 10)), Death::Gone),
    ];
    let mut boards = boards_of(&mut served);
    let job = FarmJob::new(8, 16, 1, 2);
    let err = render_farm(&mut boards, &job, &|_| {}).expect_err("a fault");
    let FarmError::Fault {
        column, row, fault, ..
    } = err
    else {
        panic!("{err}")
    };
    assert_eq!((column, row, fault), (3, 5, 5));
}
