//! The host side: requests with timeouts and bounded retries, chunked uploads with progress,
//! verification through STATUS, and runs.

use crate::frame::{self, Decoder, EncodeError, Frame};
use crate::image::Upload;
use crate::port::{PortError, Transport};
use crate::protocol::{
    read_payload, write_payload, Begin, Command, Info, LayoutError, LoadState, Reason, Region,
    RenderEnd, RenderRequest, RunRequest, RunSummary, Status, ANSWER_BIT, IMAGE_REGIONS,
    PROTOCOL_VERSION, RENDER_BLOCK, RENDER_BLOCK_HEADER, RENDER_END, RENDER_END_BYTES,
    RESULT_PAUSE_LANES, RESULT_RECORD, RUN_HEADER, WRITE_HEADER,
};
use microcode::core::fault_code::{self, is_pause};
use std::time::{Duration, Instant};
use thiserror::Error;

/// How patient the client is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientOptions {
    /// Wait for an answer this long per attempt.
    pub timeout: Duration,
    /// Attempts after the first, with the same sequence number.
    pub retries: u32,
    /// Per-attempt wait for RUN and RESUME (they run quads).
    pub run_timeout: Duration,
    /// Smallest WRITE chunk: after a failed attempt chunks are halved down to this size.
    pub min_chunk: usize,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            timeout: Duration::from_millis(250),
            retries: 8,
            run_timeout: Duration::from_secs(2),
            min_chunk: 16,
        }
    }
}

/// What crossed the link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Requests completed or abandoned.
    pub requests: u64,
    /// Frames sent (first attempts and retries).
    pub attempts: u64,
    /// Wire bytes sent.
    pub bytes_sent: u64,
    /// Wire bytes received.
    pub bytes_received: u64,
    /// Received segments dropped as bad frames.
    pub bad_frames: u64,
    /// Image bytes acknowledged by WRITE.
    pub image_bytes: u64,
}

/// A failure of the host side.
#[derive(Debug, Error)]
pub enum HostError {
    /// The port failed (no such port, permission denied, ...).
    #[error(transparent)]
    Port(#[from] PortError),
    /// No answer, not even a damaged one.
    #[error("{cmd:?}: no answer after {attempts} attempts ({timeout_ms} ms each); is the board connected and configured with the tgsi-core bitstream?")]
    NoAnswer {
        /// The request.
        cmd: Command,
        /// Attempts made.
        attempts: u32,
        /// Wait per attempt.
        timeout_ms: u64,
    },
    /// Answers came back damaged every time.
    #[error("{cmd:?}: {bad_frames} damaged answers (CRC or framing) in {attempts} attempts; check the cable and the line rate")]
    CrcFailures {
        /// The request.
        cmd: Command,
        /// Attempts made.
        attempts: u32,
        /// Damaged segments received.
        bad_frames: u64,
    },
    /// The device refused the request.
    #[error("{cmd:?} refused by the device: {reason}")]
    Nak {
        /// The request.
        cmd: Command,
        /// Why.
        reason: Reason,
    },
    /// A NAK with a code this host does not know.
    #[error("{cmd:?} refused by the device with unknown reason code {code}")]
    UnknownNak {
        /// The request.
        cmd: Command,
        /// The code.
        code: u8,
    },
    /// The answer's data does not have the expected layout.
    #[error("{cmd:?}: malformed answer: {source}")]
    Malformed {
        /// The request.
        cmd: Command,
        /// The layout problem.
        source: LayoutError,
    },
    /// Something answers, but it is not a tgsi-core loader.
    #[error("the device is not a tgsi-core loader (INFO starts with {found:02x?})")]
    WrongDevice {
        /// First bytes of INFO's data.
        found: Vec<u8>,
    },
    /// A loader speaking another protocol version.
    #[error("the device speaks loader protocol {found}; this host speaks {PROTOCOL_VERSION}")]
    ProtocolVersion {
        /// Version reported.
        found: u8,
    },
    /// The image was compiled for another core.
    #[error("ISA hash mismatch: the device's core is {device:08x}, the image is for {image:08x}; recompile for this bitstream or load the matching bitstream")]
    IsaMismatch {
        /// Device's hash.
        device: u32,
        /// Image's hash.
        image: u32,
    },
    /// An image region larger than the device's memory.
    #[error("{region:?}: {len} bytes, the device holds {limit}")]
    TooLarge {
        /// The region.
        region: Region,
        /// Bytes needed.
        len: usize,
        /// Bytes available.
        limit: u32,
    },
    /// STATUS after COMMIT does not show the uploaded image.
    #[error("verification failed: expected active image CRC {expected:08x}, device reports {state:?} with {found:08x}")]
    VerifyFailed {
        /// CRC of the upload.
        expected: u32,
        /// Active CRC reported.
        found: u32,
        /// State reported.
        state: LoadState,
    },
    /// RUN asked for an image that is not the active one.
    #[error("the device's active image is not the expected one (expected CRC {expected:08x}, device reports {state:?} with {found:08x}); load it first")]
    NotLoaded {
        /// CRC the caller expects.
        expected: u32,
        /// Active CRC reported.
        found: u32,
        /// State reported.
        state: LoadState,
    },
    /// A RUN or RESUME answer that names a paused quad outside the RUN.
    #[error("{cmd:?}: the device reports a pause in quad {quads_run} of a RUN of {quads}")]
    PauseOutsideRun {
        /// The request.
        cmd: Command,
        /// Quads the answer counts (the paused one is the last).
        quads_run: u16,
        /// Quads the RUN asked for.
        quads: usize,
    },
    /// A request that does not fit a frame (a bug in the caller).
    #[error(transparent)]
    Encode(#[from] EncodeError),
}

/// The result of an upload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UploadReport {
    /// CRC-32 of the image now active.
    pub crc: u32,
    /// Image bytes.
    pub bytes: usize,
    /// Link traffic of this upload alone.
    pub stats: LinkStats,
    /// Wall time.
    pub elapsed: Duration,
}

/// A client of one device.
pub struct Client<T> {
    t: T,
    seq: u8,
    decoder: Decoder,
    /// Timeouts and retries.
    pub opts: ClientOptions,
    /// Traffic so far.
    pub stats: LinkStats,
    /// The last INFO answer: the device's build does not change while the link is open.
    known: Option<Info>,
}

fn sub(a: LinkStats, b: LinkStats) -> LinkStats {
    LinkStats {
        requests: a.requests - b.requests,
        attempts: a.attempts - b.attempts,
        bytes_sent: a.bytes_sent - b.bytes_sent,
        bytes_received: a.bytes_received - b.bytes_received,
        bad_frames: a.bad_frames - b.bad_frames,
        image_bytes: a.image_bytes - b.image_bytes,
    }
}

impl<T: Transport> Client<T> {
    /// A client on `transport`.
    pub fn new(transport: T, opts: ClientOptions) -> Self {
        Client {
            t: transport,
            seq: 0,
            decoder: Decoder::new(),
            opts,
            stats: LinkStats::default(),
            known: None,
        }
    }

    /// The transport.
    pub fn transport_mut(&mut self) -> &mut T {
        &mut self.t
    }

    /// Gives the transport back.
    pub fn into_transport(self) -> T {
        self.t
    }

    /// Sends a request with the usual timeout and retries; returns ACK's data.
    pub fn request(&mut self, cmd: Command, payload: &[u8]) -> Result<Vec<u8>, HostError> {
        let timeout = if matches!(cmd, Command::Run | Command::Resume) {
            self.opts.run_timeout
        } else {
            self.opts.timeout
        };
        self.exchange(cmd, payload, self.opts.retries.saturating_add(1), timeout)
    }

    /// One request, up to `attempts` sends of the same frame (same sequence number).
    fn exchange(
        &mut self,
        cmd: Command,
        payload: &[u8],
        attempts: u32,
        timeout: Duration,
    ) -> Result<Vec<u8>, HostError> {
        self.seq = self.seq.wrapping_add(1);
        let seq = self.seq;
        let wire = frame::encode(&Frame {
            cmd: cmd as u8,
            seq,
            payload: payload.to_vec(),
        })?;
        self.stats.requests += 1;
        let mut bad = 0u64;
        let mut buf = [0u8; 512];
        for _ in 0..attempts {
            self.t.write_all(&wire)?;
            self.stats.attempts += 1;
            self.stats.bytes_sent += wire.len() as u64;
            let deadline = Instant::now() + timeout;
            loop {
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                let n = self.t.read(&mut buf, deadline - now)?;
                self.stats.bytes_received += n as u64;
                for &b in &buf[..n] {
                    match self.decoder.push(b) {
                        None => {}
                        Some(Err(_)) => {
                            bad += 1;
                            self.stats.bad_frames += 1;
                        }
                        // Answers to older requests (late or duplicated) are ignored.
                        Some(Ok(f)) if f.seq == seq && f.cmd == cmd as u8 | ANSWER_BIT => {
                            return answer(cmd, f.payload);
                        }
                        Some(Ok(_)) => {}
                    }
                }
            }
        }
        if bad > 0 {
            Err(HostError::CrcFailures {
                cmd,
                attempts,
                bad_frames: bad,
            })
        } else {
            Err(HostError::NoAnswer {
                cmd,
                attempts,
                timeout_ms: timeout.as_millis() as u64,
            })
        }
    }

    /// INFO, checked to come from a tgsi-core loader of this protocol version.
    pub fn info(&mut self) -> Result<Info, HostError> {
        let data = self.request(Command::Info, &[])?;
        let info = Info::from_bytes(&data)
            .map_err(|source| HostError::Malformed {
                cmd: Command::Info,
                source,
            })?
            .ok_or_else(|| HostError::WrongDevice {
                found: data.iter().take(8).copied().collect(),
            })?;
        if info.protocol != PROTOCOL_VERSION {
            return Err(HostError::ProtocolVersion {
                found: info.protocol,
            });
        }
        self.known = Some(info);
        Ok(info)
    }

    /// INFO as this link last heard it, asking only the first time: what the device's build
    /// is (units, limits, ISA hash) does not change while the link is open.
    pub fn device_info(&mut self) -> Result<Info, HostError> {
        match self.known {
            Some(info) => Ok(info),
            None => self.info(),
        }
    }

    /// STATUS.
    pub fn status(&mut self) -> Result<Status, HostError> {
        let data = self.request(Command::Status, &[])?;
        Status::from_bytes(&data).map_err(|source| HostError::Malformed {
            cmd: Command::Status,
            source,
        })
    }

    /// RESET (the device selects every core again).
    pub fn reset(&mut self) -> Result<(), HostError> {
        self.request(Command::Reset, &[]).map(drop)
    }

    /// CORE: RUN, RESUME and READ address core `core` (below INFO's core count), or every core
    /// at once (`protocol::ALL_CORES`: a RUN then runs each quad on all of them and faults
    /// `CORES_DIFFER` unless they agree).
    pub fn select_core(&mut self, core: u8) -> Result<(), HostError> {
        self.request(Command::Core, &[core]).map(drop)
    }

    /// RENDER of `req`'s quads without block frames (`protocol::RENDER_COUNT_ONLY`): the board
    /// shades them and answers only the end frame, waiting up to `wait` for it (a count-only
    /// render of many quads takes as long as the board shades them). How fast the board
    /// shades, without the serial line's limit.
    pub fn render_count(
        &mut self,
        req: &RenderRequest,
        wait: Duration,
    ) -> Result<RenderEnd, HostError> {
        let req = RenderRequest {
            lane_words: crate::protocol::RENDER_COUNT_ONLY,
            ..*req
        };
        let data = self.exchange(
            Command::Render,
            &req.to_bytes(),
            self.opts.retries.saturating_add(1),
            wait,
        )?;
        let mut full = vec![0];
        full.extend_from_slice(&data);
        if data.first() != Some(&RENDER_END) {
            return Err(HostError::Malformed {
                cmd: Command::Render,
                source: LayoutError::Short {
                    what: "RENDER end frame (a count-only render sends no blocks)",
                    len: data.len(),
                    need: RENDER_END_BYTES,
                },
            });
        }
        RenderEnd::from_bytes(&full).map_err(|source| HostError::Malformed {
            cmd: Command::Render,
            source,
        })
    }

    /// BEGIN.
    pub fn begin(&mut self, b: &Begin) -> Result<(), HostError> {
        self.request(Command::Begin, &b.to_bytes()).map(drop)
    }

    /// COMMIT.
    pub fn commit(&mut self, crc: u32) -> Result<(), HostError> {
        self.request(Command::Commit, &crc.to_le_bytes()).map(drop)
    }

    /// RUN: the summary of the quads it ran (up to a fault or a pause).
    pub fn run(&mut self, req: &RunRequest) -> Result<RunSummary, HostError> {
        let data = self.request(Command::Run, &req.to_bytes())?;
        RunSummary::from_bytes(&data).map_err(|source| HostError::Malformed {
            cmd: Command::Run,
            source,
        })
    }

    /// RESUME: continues the RUN paused at its `seen`-th pause (the count of its pauses this
    /// host has seen, which makes a retried RESUME harmless); the run's summary after it.
    pub fn resume(&mut self, seen: u32) -> Result<RunSummary, HostError> {
        let data = self.request(Command::Resume, &seen.to_le_bytes())?;
        RunSummary::from_bytes(&data).map_err(|source| HostError::Malformed {
            cmd: Command::Resume,
            source,
        })
    }

    /// SET_BAUD: switches both ends, then confirms with STATUS at the new rate (the device returns
    /// to the old rate by itself if that confirmation never arrives).
    pub fn set_baud(&mut self, baud: u32) -> Result<(), HostError> {
        let old = self.t.baud();
        // INFO reports the line rate: ask again after a change.
        self.known = None;
        self.request(Command::SetBaud, &baud.to_le_bytes())?;
        self.t.set_baud(baud)?;
        match self.status() {
            Ok(_) => Ok(()),
            Err(e) => {
                self.t.set_baud(old)?;
                Err(e)
            }
        }
    }

    /// Writes `data` into `region` from `addr`, in chunks that shrink after failed attempts and grow
    /// after good ones; `progress` gets the bytes acknowledged so far (of this call).
    pub fn write_region(
        &mut self,
        region: Region,
        addr: u32,
        data: &[u8],
        max_chunk: usize,
        progress: &mut dyn FnMut(usize),
    ) -> Result<(), HostError> {
        let max = max_chunk.clamp(1, frame::MAX_PAYLOAD - WRITE_HEADER);
        let min = self.opts.min_chunk.clamp(1, max);
        let mut chunk = max;
        let mut off = 0;
        while off < data.len() {
            let n = chunk.min(data.len() - off);
            let payload = write_payload(region, addr.wrapping_add(off as u32), &data[off..off + n]);
            // Big chunks get one attempt: on a noisy line a smaller one is likelier to get through.
            let attempts = if chunk > min {
                1
            } else {
                self.opts.retries.saturating_add(1)
            };
            match self.exchange(Command::Write, &payload, attempts, self.opts.timeout) {
                Ok(_) => {
                    off += n;
                    self.stats.image_bytes += n as u64;
                    progress(off);
                    chunk = (chunk * 2).min(max);
                }
                Err(HostError::NoAnswer { .. } | HostError::CrcFailures { .. }) if chunk > min => {
                    chunk = (chunk / 2).max(min);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads `len` bytes of `region` from `addr`, in frame-sized pieces.
    pub fn read_region(
        &mut self,
        region: Region,
        addr: u32,
        len: usize,
    ) -> Result<Vec<u8>, HostError> {
        let mut out = Vec::with_capacity(len);
        while out.len() < len {
            let n = (len - out.len()).min(frame::MAX_PAYLOAD - 1);
            let data = self.request(
                Command::Read,
                &read_payload(region, addr.wrapping_add(out.len() as u32), n as u16),
            )?;
            if data.len() != n {
                return Err(HostError::Malformed {
                    cmd: Command::Read,
                    source: LayoutError::Short {
                        what: "READ",
                        len: data.len(),
                        need: n,
                    },
                });
            }
            out.extend(data);
        }
        Ok(out)
    }

    /// STATUS, checked to show `crc` as the active image.
    pub fn verify(&mut self, crc: u32) -> Result<Status, HostError> {
        let s = self.status()?;
        if s.state != LoadState::Valid || s.active_crc != crc {
            return Err(HostError::VerifyFailed {
                expected: crc,
                found: s.active_crc,
                state: s.state,
            });
        }
        Ok(s)
    }

    /// Uploads an image: INFO (device and ISA check), BEGIN, WRITE in chunks, COMMIT, and STATUS to
    /// verify. `progress(done, total)` counts image bytes.
    pub fn upload(
        &mut self,
        image: &Upload,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<UploadReport, HostError> {
        let start = Instant::now();
        let before = self.stats;
        let info = self.device_info()?;
        if info.isa_hash != image.isa_hash {
            return Err(HostError::IsaMismatch {
                device: info.isa_hash,
                image: image.isa_hash,
            });
        }
        let mut lengths = [0u32; IMAGE_REGIONS];
        for ((len, data), region) in lengths.iter_mut().zip(&image.regions).zip(Region::IMAGE) {
            let limit = info.limits.size(region);
            if data.len() > limit as usize {
                return Err(HostError::TooLarge {
                    region,
                    len: data.len(),
                    limit,
                });
            }
            *len = data.len() as u32;
        }
        let max_chunk = usize::from(info.limits.max_payload).saturating_sub(WRITE_HEADER);
        let total = image.total_bytes();
        let crc = image.crc();
        self.begin(&Begin {
            isa_hash: image.isa_hash,
            lengths,
        })?;
        // A COMMIT that finds another CRC means a chunk landed damaged (a hardware receiver may write
        // before it checks the frame CRC): write everything once more before giving up.
        for pass in 0..2 {
            progress(0, total);
            let mut done = 0;
            for (data, region) in image.regions.iter().zip(Region::IMAGE) {
                let base = done;
                self.write_region(region, 0, data, max_chunk, &mut |n| {
                    progress(base + n, total)
                })?;
                done += data.len();
            }
            match self.commit(crc) {
                Err(HostError::Nak {
                    reason: Reason::CrcMismatch,
                    ..
                }) if pass == 0 => continue,
                other => other?,
            }
            break;
        }
        self.verify(crc)?;
        Ok(UploadReport {
            crc,
            bytes: total,
            stats: sub(self.stats, before),
            elapsed: start.elapsed(),
        })
    }
}

fn answer(cmd: Command, payload: Vec<u8>) -> Result<Vec<u8>, HostError> {
    match payload.first() {
        None => Err(HostError::Malformed {
            cmd,
            source: LayoutError::Short {
                what: "answer",
                len: 0,
                need: 1,
            },
        }),
        Some(0) => Ok(payload[1..].to_vec()),
        Some(&code) => Err(match Reason::from_code(code) {
            Some(reason) => HostError::Nak { cmd, reason },
            None => HostError::UnknownNak { cmd, code },
        }),
    }
}

/// One quad's record of a RENDER stream: its kill mask and, lane after lane, the words the
/// request asked for (4 bytes each, little-endian).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderRecord {
    /// Bit L: lane L was killed.
    pub kill_mask: u8,
    /// `4 x lane_words` words, lane 0 first.
    pub words: Vec<u32>,
}

/// What a whole RENDER brought, after any re-requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// One record per quad shaded, in request order (up to a faulting quad, which has none).
    pub records: Vec<RenderRecord>,
    /// The fault that ended the render (0: none).
    pub fault: u8,
    /// Cycles the device reported in the end frames received (a re-requested quad's shading
    /// counts again; an end frame lost on the line does not count).
    pub cycles: u64,
    /// RENDER requests sent (1 on a clean line; each lost or damaged block costs one more).
    pub requests: u32,
}

impl<T: Transport> Client<T> {
    /// RENDER (PROTOCOL.md section 3.2) of `req`'s quads: the stream read block by block; a
    /// block lost or damaged (its CRC) is asked for again with a RENDER from its first quad,
    /// so every record returned arrived intact. A refused RENDER is [`HostError::Nak`]; a line
    /// that loses the stream `retries + 1` times in a row is [`HostError::NoAnswer`].
    pub fn render(&mut self, req: &RenderRequest) -> Result<Rendered, HostError> {
        let total = usize::from(req.quads);
        let record = req.record_bytes();
        let mut got: Vec<Option<RenderRecord>> = vec![None; total];
        let mut cycles: Vec<u64> = Vec::new();
        let mut requests = 0u32;
        let mut failures = 0u32;
        let mut fault_at: Option<(usize, u8)> = None;
        let row = u32::from(req.row_quads.max(1));
        loop {
            let end_at = fault_at.map_or(total, |(q, _)| q);
            let Some(first) = (0..end_at).find(|&q| got[q].is_none()) else {
                break;
            };
            // The first missing quad's position, from the request's first.
            let index = u32::from(req.y) * row + u32::from(req.x) + first as u32;
            let sub = RenderRequest {
                x: (index % row) as u16,
                y: u16::try_from(index / row).unwrap_or(u16::MAX),
                quads: (total - first) as u16,
                ..*req
            };
            self.seq = self.seq.wrapping_add(1);
            let seq = self.seq;
            let wire = frame::encode(&Frame {
                cmd: Command::Render as u8,
                seq,
                payload: sub.to_bytes(),
            })?;
            requests += 1;
            self.stats.requests += 1;
            self.stats.attempts += 1;
            self.t.write_all(&wire)?;
            self.stats.bytes_sent += wire.len() as u64;
            let mut buf = [0u8; 4096];
            let mut deadline = Instant::now() + self.opts.run_timeout;
            let mut ended = false;
            let mut progress = false;
            'read: while Instant::now() < deadline {
                let n = self.t.read(&mut buf, deadline - Instant::now())?;
                self.stats.bytes_received += n as u64;
                for &b in &buf[..n] {
                    let f = match self.decoder.push(b) {
                        None => continue,
                        Some(Err(_)) => {
                            self.stats.bad_frames += 1;
                            continue;
                        }
                        Some(Ok(f)) => f,
                    };
                    if f.seq != seq || f.cmd != Command::Render as u8 | ANSWER_BIT {
                        continue;
                    }
                    // Each frame restarts the wait: a long render is a stream of them.
                    deadline = Instant::now() + self.opts.run_timeout;
                    let p = answer(Command::Render, f.payload)?;
                    let malformed = |what| HostError::Malformed {
                        cmd: Command::Render,
                        source: LayoutError::Short {
                            what,
                            len: 0,
                            need: 1,
                        },
                    };
                    match p.first() {
                        Some(&RENDER_BLOCK) if p.len() >= RENDER_BLOCK_HEADER - 1 => {
                            let base = first + usize::from(u16::from_le_bytes([p[1], p[2]]));
                            let body = &p[RENDER_BLOCK_HEADER - 1..];
                            if body.len() % record != 0 || base + body.len() / record > total {
                                return Err(malformed("RENDER block"));
                            }
                            for (i, r) in body.chunks(record).enumerate() {
                                got[base + i] = Some(RenderRecord {
                                    kill_mask: r[0],
                                    words: r[1..]
                                        .chunks(4)
                                        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                                        .collect(),
                                });
                            }
                            progress = true;
                        }
                        Some(&RENDER_END) => {
                            let mut full = vec![0];
                            full.extend_from_slice(&p);
                            let e = RenderEnd::from_bytes(&full).map_err(|source| {
                                HostError::Malformed {
                                    cmd: Command::Render,
                                    source,
                                }
                            })?;
                            cycles.push(u64::from(e.cycles));
                            if e.fault != 0 {
                                let q = first + usize::from(e.quads).saturating_sub(1);
                                fault_at = Some((q.min(total), e.fault));
                            }
                            ended = true;
                            break 'read;
                        }
                        _ => return Err(malformed("RENDER frame")),
                    }
                }
            }
            if ended || progress {
                failures = 0;
            } else {
                failures += 1;
                if failures > self.opts.retries {
                    return Err(HostError::NoAnswer {
                        cmd: Command::Render,
                        attempts: failures,
                        timeout_ms: self.opts.run_timeout.as_millis() as u64,
                    });
                }
            }
        }
        let end_at = fault_at.map_or(total, |(q, _)| q);
        Ok(Rendered {
            records: got.into_iter().take(end_at).flatten().collect(),
            fault: fault_at.map_or(0, |(_, f)| f),
            cycles: cycles.iter().sum(),
            requests,
        })
    }
}

/// One pause of a geometry program's quad at EMIT or ENDPRIM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pause {
    /// `fault_code::EMIT` or `fault_code::ENDPRIM`.
    pub code: u8,
    /// The lanes that executed it (bit L = lane L).
    pub lanes: u8,
    /// At EMIT: the quad's OUTPUTS bytes at the pause (`output_stride` of them), the emitting
    /// lanes' vertex; empty at ENDPRIM.
    pub outputs: Vec<u8>,
}

/// What one quad produced on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadResult {
    /// The quad's OUTPUTS bytes (`output_stride` of them).
    pub outputs: Vec<u8>,
    /// Bit L: lane L killed.
    pub kill_mask: u8,
    /// Core cycles.
    pub cycles: u32,
    /// Fault code (0: none).
    pub fault: u8,
    /// Its pauses at EMIT and ENDPRIM, in order (none unless it is a geometry program's).
    pub pauses: Vec<Pause>,
}

/// Register values as INPUTS/OUTPUTS hold them: register i at `64 * i`, lane L at `+16 * L`,
/// component c at `+4 * c`, little-endian.
pub fn pack_registers(regs: &[[[u32; 4]; 4]]) -> Vec<u8> {
    regs.iter()
        .flatten()
        .flatten()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

/// The inverse of [`pack_registers`] (a trailing partial register is ignored).
pub fn unpack_registers(bytes: &[u8]) -> Vec<[[u32; 4]; 4]> {
    bytes
        .chunks_exact(64)
        .map(|r| {
            let mut v = [[0u32; 4]; 4];
            for (i, w) in r.chunks_exact(4).enumerate() {
                v[i / 4][i % 4] = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            }
            v
        })
        .collect()
}

/// Runs quads on the active image, which must be the one with CRC `image_crc`: writes `params` to
/// PARAMS at 0 (if any), each quad's `inputs` (all the same length) to INPUTS, runs in batches the
/// memories hold, and reads `output_stride` bytes of OUTPUTS and the RESULTS record per quad. A
/// quad that pauses at EMIT or ENDPRIM has its pause lanes (and at EMIT its outputs) read and is
/// resumed, until it ends. Stops after the first faulting quad (its result is the last one
/// returned).
pub fn run_quads<T: Transport>(
    client: &mut Client<T>,
    image_crc: u32,
    params: &[u8],
    inputs: &[Vec<u8>],
    output_stride: usize,
) -> Result<Vec<QuadResult>, HostError> {
    let status = client.status()?;
    if status.state != LoadState::Valid || status.active_crc != image_crc {
        return Err(HostError::NotLoaded {
            expected: image_crc,
            found: status.active_crc,
            state: status.state,
        });
    }
    let info = client.device_info()?;
    let l = info.limits;
    let is = inputs.first().map_or(0, Vec::len);
    let too_large = |region, len: usize, limit: u32| HostError::TooLarge { region, len, limit };
    if inputs.iter().any(|i| i.len() != is) || is > l.inputs as usize || is > usize::from(u16::MAX)
    {
        return Err(too_large(Region::Inputs, is, l.inputs));
    }
    if output_stride > l.outputs as usize || output_stride > usize::from(u16::MAX) {
        return Err(too_large(Region::Outputs, output_stride, l.outputs));
    }
    if params.len() > l.params as usize {
        return Err(too_large(Region::Params, params.len(), l.params));
    }
    let max_chunk = usize::from(l.max_payload).saturating_sub(WRITE_HEADER);
    if !params.is_empty() {
        client.write_region(Region::Params, 0, params, max_chunk, &mut |_| {})?;
    }
    let mut batch = usize::from(l.max_quads).max(1);
    if let Some(n) = (l.inputs as usize).checked_div(is) {
        batch = batch.min(n);
    }
    if let Some(n) = (l.outputs as usize).checked_div(output_stride) {
        batch = batch.min(n);
    }
    let mut results = Vec::with_capacity(inputs.len());
    for quads in inputs.chunks(batch.max(1)) {
        let block: Vec<u8> = quads.concat();
        let inline = block.len() <= usize::from(l.max_payload).saturating_sub(RUN_HEADER);
        if !inline {
            client.write_region(Region::Inputs, 0, &block, max_chunk, &mut |_| {})?;
        }
        let req = RunRequest {
            quads: quads.len() as u16,
            input_stride: is as u16,
            output_stride: output_stride as u16,
            inline_inputs: if inline { block } else { Vec::new() },
        };
        let mut summary = client.run(&req)?;
        let mut pauses: Vec<Vec<Pause>> = vec![Vec::new(); quads.len()];
        let (mut seen, mut cmd) = (0u32, Command::Run);
        while is_pause(summary.fault) {
            let Some(q) = usize::from(summary.quads_run)
                .checked_sub(1)
                .filter(|&q| q < quads.len())
            else {
                return Err(HostError::PauseOutsideRun {
                    cmd,
                    quads_run: summary.quads_run,
                    quads: quads.len(),
                });
            };
            let rec =
                client.read_region(Region::Results, (q * RESULT_RECORD) as u32, RESULT_RECORD)?;
            let outputs = if summary.fault == fault_code::EMIT && output_stride > 0 {
                client.read_region(Region::Outputs, (q * output_stride) as u32, output_stride)?
            } else {
                Vec::new()
            };
            pauses[q].push(Pause {
                code: summary.fault,
                lanes: rec[RESULT_PAUSE_LANES],
                outputs,
            });
            seen = seen.wrapping_add(1);
            cmd = Command::Resume;
            summary = client.resume(seen)?;
        }
        let done = usize::from(summary.quads_run).min(quads.len());
        let outs = client.read_region(Region::Outputs, 0, done * output_stride)?;
        let recs = client.read_region(Region::Results, 0, done * RESULT_RECORD)?;
        for q in 0..done {
            let r = &recs[q * RESULT_RECORD..(q + 1) * RESULT_RECORD];
            results.push(QuadResult {
                outputs: outs[q * output_stride..(q + 1) * output_stride].to_vec(),
                kill_mask: r[0],
                cycles: u32::from_le_bytes([r[4], r[5], r[6], r[7]]),
                fault: r[1],
                pauses: std::mem::take(&mut pauses[q]),
            });
        }
        if summary.fault != 0 {
            break;
        }
    }
    Ok(results)
}
