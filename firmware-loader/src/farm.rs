//! One frame over several boards: RENDER (PROTOCOL.md section 3.2) in blocks of whole rows of
//! quads, handed out from one queue to whichever board is free, one thread per board (the links
//! are independent).
//!
//! A board whose RENDER fails (its port gone, no answer after the client's retries, a refused
//! request) puts its block back at the head of the queue for the others and gets no more; the
//! frame fails only when every board has failed. Each block's records are kept by its position
//! and stored once, from the one board that delivered all of them, so a block a failed board had
//! half streamed is rendered again whole by another and never lands in the frame twice.
//!
//! The boards may differ (an HX8K and an ECP5, other core configurations): each holds its own
//! image of the same transformed program, compiled for its own core, with its PARAMS written
//! (see [`crate::board::write_params`]). Every board shades a quad alike, so the frame does not
//! depend on which board drew which block.

use crate::board::{render_block_quads, RENDER_CHUNK_QUADS};
use crate::host::{Client, HostError, RenderRecord};
use crate::port::Transport;
use crate::protocol::RenderRequest;
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// One board of a farm: its link, its image active and its PARAMS written.
pub struct FarmBoard<T> {
    /// What messages call the board (its port).
    pub name: String,
    /// The link.
    pub client: Client<T>,
}

/// The frame to render: its shape in quads and how it is cut into blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FarmJob {
    /// Quads per row of the frame (its width / 2).
    pub row_quads: u16,
    /// Rows of quads (its height / 2).
    pub rows: u16,
    /// Words sent per lane: 1 (packed RGBA8) or 4 (the float vector).
    pub lane_words: u8,
    /// Rows of quads per block (at least 1).
    pub block_rows: u16,
}

/// Blocks per board a frame is cut into at the least (when it has the rows): a board that is
/// slower than the others, or fails, leaves at most about this fraction of its share to wait for.
pub const BLOCKS_PER_BOARD: usize = 4;

impl FarmJob {
    /// The job for a frame of `rows` rows of `row_quads` quads over `boards` boards: blocks of
    /// whole rows, at least [`BLOCKS_PER_BOARD`] per board where the frame has the rows, each
    /// one RENDER request of at most [`RENDER_CHUNK_QUADS`] quads (or one row, if a row is
    /// longer).
    pub fn new(row_quads: u16, rows: u16, lane_words: u8, boards: usize) -> FarmJob {
        let per_request = (RENDER_CHUNK_QUADS / usize::from(row_quads).max(1))
            .clamp(1, usize::from(u16::MAX / row_quads.max(1)).max(1));
        let blocks = BLOCKS_PER_BOARD * boards.max(1);
        let spread = usize::from(rows).div_ceil(blocks).max(1);
        FarmJob {
            row_quads,
            rows,
            lane_words,
            block_rows: spread.min(per_request) as u16,
        }
    }

    /// Quads in the frame.
    pub fn quads(&self) -> usize {
        usize::from(self.row_quads) * usize::from(self.rows)
    }

    /// The blocks' first rows and row counts, top to bottom.
    fn blocks(&self) -> Vec<(u16, u16)> {
        let step = self
            .block_rows
            .clamp(1, (u16::MAX / self.row_quads.max(1)).max(1));
        (0..self.rows)
            .step_by(usize::from(step))
            .map(|y| (y, step.min(self.rows - y)))
            .collect()
    }
}

/// What the farm tells its caller while it works (from the boards' threads).
#[derive(Debug)]
pub enum FarmEvent<'a> {
    /// `board` delivered the block of `rows` rows of quads from row `y`.
    Delivered {
        /// The board's name.
        board: &'a str,
        /// The block's first row of quads.
        y: u16,
        /// Its rows of quads.
        rows: u16,
    },
    /// `board` failed on the block from row `y`, which went back to the queue; it gets no more.
    Failed {
        /// The board's name.
        board: &'a str,
        /// The block's first row of quads.
        y: u16,
        /// Its rows of quads.
        rows: u16,
        /// Why.
        error: &'a HostError,
    },
}

/// What one board did for a frame.
#[derive(Debug)]
pub struct BoardShare {
    /// The board's name.
    pub name: String,
    /// Blocks it delivered.
    pub blocks: usize,
    /// Quads it delivered.
    pub quads: usize,
    /// Core cycles its RENDER end frames reported for the blocks it delivered.
    pub cycles: u64,
    /// Wall time of its RENDER requests that delivered.
    pub busy: Duration,
    /// Why it stopped before the frame was done (its block went to the others).
    pub failure: Option<HostError>,
}

/// A frame the farm rendered.
#[derive(Debug)]
pub struct FarmFrame {
    /// One record per quad, in frame order (row after row).
    pub records: Vec<RenderRecord>,
    /// Per board, in the order given.
    pub shares: Vec<BoardShare>,
    /// Wall time of the whole frame.
    pub elapsed: Duration,
}

impl FarmFrame {
    /// Core cycles of every block delivered.
    pub fn cycles(&self) -> u64 {
        self.shares.iter().map(|s| s.cycles).sum()
    }
}

/// Why a farm's frame failed.
#[derive(Debug, Error)]
pub enum FarmError {
    /// No board was given.
    #[error("no board to render on")]
    NoBoards,
    /// Every board failed before the frame was done.
    #[error("every board failed, {rows_left} of {rows} rows of quads not rendered: {}", list(.failures))]
    AllFailed {
        /// Each board's name and its error.
        failures: Vec<(String, HostError)>,
        /// Rows of quads no board delivered.
        rows_left: usize,
        /// Rows of quads of the frame.
        rows: u16,
    },
    /// A quad stopped the core with a fault (the program's doing: every board would).
    #[error("{board}: quad ({column}, {row}) of the frame stopped the core with fault {fault}")]
    Fault {
        /// The board that ran it.
        board: String,
        /// The quad's column.
        column: u16,
        /// The quad's row.
        row: u16,
        /// The fault code.
        fault: u8,
    },
}

fn list(failures: &[(String, HostError)]) -> String {
    failures
        .iter()
        .map(|(name, e)| format!("{name}: {e}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The work shared by the boards' threads.
struct Shared {
    state: Mutex<State>,
    /// Signalled when a block is put back, finished, or the frame stops.
    changed: Condvar,
}

struct State {
    /// Blocks (indices into the job's blocks) no board holds.
    pending: VecDeque<usize>,
    /// Blocks a board is rendering.
    in_flight: usize,
    /// Per block, its records once delivered.
    done: Vec<Option<Vec<RenderRecord>>>,
    /// The fault of the first quad in frame order that faulted (its index), which stops the
    /// frame.
    fault: Option<(usize, FarmError)>,
}

/// Renders `job` on `boards` (each ready: image active, PARAMS written), calling `on_event`
/// for each block delivered and each board that fails. See the module's description.
pub fn render_farm<T: Transport>(
    boards: &mut [FarmBoard<T>],
    job: &FarmJob,
    on_event: &(dyn Fn(&FarmEvent) + Sync),
) -> Result<FarmFrame, FarmError> {
    if boards.is_empty() {
        return Err(FarmError::NoBoards);
    }
    let blocks = job.blocks();
    let shared = Shared {
        state: Mutex::new(State {
            pending: (0..blocks.len()).collect(),
            in_flight: 0,
            done: vec![None; blocks.len()],
            fault: None,
        }),
        changed: Condvar::new(),
    };
    let started = Instant::now();
    let shares: Vec<BoardShare> = std::thread::scope(|scope| {
        let threads: Vec<_> = boards
            .iter_mut()
            .map(|board| {
                let (shared, blocks) = (&shared, &blocks);
                scope.spawn(move || work(board, job, blocks, shared, on_event))
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let elapsed = started.elapsed();
    let state = shared.state.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some((_, fault)) = state.fault {
        return Err(fault);
    }
    if state.done.iter().any(Option::is_none) {
        let rows_left = blocks
            .iter()
            .zip(&state.done)
            .filter(|(_, d)| d.is_none())
            .map(|((_, n), _)| usize::from(*n))
            .sum();
        let failures = shares
            .into_iter()
            .filter_map(|s| s.failure.map(|e| (s.name, e)))
            .collect();
        return Err(FarmError::AllFailed {
            failures,
            rows_left,
            rows: job.rows,
        });
    }
    Ok(FarmFrame {
        records: state.done.into_iter().flatten().flatten().collect(),
        shares,
        elapsed,
    })
}

/// The next block for a board: one from the queue, or `None` when nothing is left to take
/// (every block done, or the frame stopped at a fault). While other boards hold blocks, an idle
/// board waits: one of them may fail and put its block back.
fn take(shared: &Shared) -> Option<usize> {
    let mut s = shared.state.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        if s.fault.is_some() {
            return None;
        }
        if let Some(b) = s.pending.pop_front() {
            s.in_flight += 1;
            return Some(b);
        }
        if s.in_flight == 0 {
            return None;
        }
        s = shared.changed.wait(s).unwrap_or_else(|p| p.into_inner());
    }
}

/// One board's thread: blocks from the queue until none is left or the board fails.
fn work<T: Transport>(
    board: &mut FarmBoard<T>,
    job: &FarmJob,
    blocks: &[(u16, u16)],
    shared: &Shared,
    on_event: &(dyn Fn(&FarmEvent) + Sync),
) -> BoardShare {
    let mut share = BoardShare {
        name: board.name.clone(),
        blocks: 0,
        quads: 0,
        cycles: 0,
        busy: Duration::ZERO,
        failure: None,
    };
    while let Some(b) = take(shared) {
        let (y, rows) = blocks[b];
        let quads = rows * job.row_quads;
        let t = Instant::now();
        let got = board.client.render(&RenderRequest {
            row_quads: job.row_quads,
            x: 0,
            y,
            quads,
            lane_words: job.lane_words,
            block_quads: render_block_quads(job.lane_words),
        });
        let mut s = shared.state.lock().unwrap_or_else(|p| p.into_inner());
        s.in_flight -= 1;
        // The client returns every record unless a quad faulted.
        let got = got.and_then(|got| {
            if got.fault == 0 && got.records.len() != usize::from(quads) {
                return Err(HostError::Malformed {
                    cmd: crate::protocol::Command::Render,
                    source: crate::protocol::LayoutError::Short {
                        what: "RENDER records",
                        len: got.records.len(),
                        need: usize::from(quads),
                    },
                });
            }
            Ok(got)
        });
        match got {
            Ok(got) if got.fault == 0 => {
                debug_assert!(s.done[b].is_none(), "block {b} delivered twice");
                s.done[b] = Some(got.records);
                drop(s);
                shared.changed.notify_all();
                share.blocks += 1;
                share.quads += usize::from(quads);
                share.cycles += got.cycles;
                share.busy += t.elapsed();
                on_event(&FarmEvent::Delivered {
                    board: &board.name,
                    y,
                    rows,
                });
            }
            Ok(got) => {
                let q = usize::from(y) * usize::from(job.row_quads) + got.records.len();
                let row_quads = usize::from(job.row_quads.max(1));
                if s.fault.as_ref().is_none_or(|(first, _)| q < *first) {
                    let fault = FarmError::Fault {
                        board: board.name.clone(),
                        column: (q % row_quads) as u16,
                        row: (q / row_quads) as u16,
                        fault: got.fault,
                    };
                    s.fault = Some((q, fault));
                }
                drop(s);
                shared.changed.notify_all();
                break;
            }
            Err(e) => {
                s.pending.push_front(b);
                drop(s);
                shared.changed.notify_all();
                on_event(&FarmEvent::Failed {
                    board: &board.name,
                    y,
                    rows,
                    error: &e,
                });
                share.failure = Some(e);
                break;
            }
        }
    }
    share
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_the_frame_once_in_whole_rows() {
        for (row_quads, rows, boards) in [(8, 8, 2), (16, 7, 3), (128, 128, 2), (2048, 5, 4)] {
            let job = FarmJob::new(row_quads, rows, 1, boards);
            let blocks = job.blocks();
            let mut next = 0;
            for &(y, n) in &blocks {
                assert_eq!(y, next, "{job:?}");
                assert!(n >= 1 && usize::from(n) * usize::from(row_quads) <= 2048);
                next += n;
            }
            assert_eq!(next, rows, "{job:?}");
            assert!(
                blocks.len() >= (BLOCKS_PER_BOARD * boards).min(usize::from(rows)),
                "{job:?}: {} blocks",
                blocks.len()
            );
        }
        // A long row is a block of its own, within one request's quads.
        assert_eq!(FarmJob::new(2048, 4, 1, 1).block_rows, 1);
        assert_eq!(FarmJob::new(128, 128, 1, 2).block_rows, 4);
    }
}
