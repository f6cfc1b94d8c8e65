//! The executable model of the device side: the state machine the on-chip loader implements.
//!
//! [`Device::handle`] answers one good frame ([`Device::handle_stream`] a RENDER's stream); [`Device::receive`] takes wire bytes and returns wire
//! bytes (the frame decoder included). Memories have configurable sizes; running a quad is delegated to
//! a [`QuadRunner`], so the core model can be plugged in. The HDL loader is tested against this model.
//!
//! Geometry programs pause at EMIT and ENDPRIM: the runner reports the pause code as the quad's
//! fault with the lanes that executed it, the RUN stops there with the quad's outputs in OUTPUTS,
//! and RESUME continues it (`PROTOCOL.md`, "Geometry output").

use crate::frame::{self, Decoder, Frame};
use crate::protocol::{
    le32, Begin, Command, Info, LoadState, Reason, Region, RenderEnd, RenderRequest, RunRequest,
    RunSummary, Status, ALL_CORES, ANSWER_BIT, BEGIN_BYTES, COMMIT_BYTES, CORE_BYTES,
    IMAGE_REGIONS, PROGRAM_WORD_BYTES, PROTOCOL_VERSION, READ_BYTES, RENDER_BLOCK,
    RENDER_BLOCK_HEADER, RENDER_BYTES, RENDER_COORD_BIAS, RENDER_COUNT_ONLY, RESULT_PAUSE_LANES,
    RESULT_RECORD, RESUME_BYTES, RUN_SUMMARY_HEADER, SET_BAUD_BYTES, WRITE_HEADER,
};
use microcode::core::fault_code::is_pause;

pub use microcode::protocol::DeviceConfig;

/// The active image as a runner sees it.
#[derive(Clone, Copy, Debug)]
pub struct ActiveImage<'a> {
    /// PROGRAM bytes of the image.
    pub program: &'a [u8],
    /// CONSTANTS bytes of the image.
    pub constants: &'a [u8],
    /// TEXTURES bytes of the image.
    pub textures: &'a [u8],
    /// MAPS bytes of the image.
    pub maps: &'a [u8],
    /// The whole PARAMS region (run-time CONST values).
    pub params: &'a [u8],
}

/// What running one quad (or a paused quad's next stretch) produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuadOutcome {
    /// Bit L: lane L was killed.
    pub kill_mask: u8,
    /// Core cycles used (by a paused quad: until this pause, its earlier stretches included).
    pub cycles: u32,
    /// Fault code (0: none); a fault stops the RUN after this quad. A pause code
    /// (`microcode::core::fault_code::EMIT`, `ENDPRIM`) stops it too, with the quad paused.
    pub fault: u8,
    /// At a pause: the lanes that executed the EMIT / ENDPRIM (bit L = lane L).
    pub lanes: u8,
}

/// Runs one quad of the active image: the seam where a core model (or the HDL core) plugs in.
pub trait QuadRunner {
    /// Reads `inputs` (the quad's INPUTS slice), writes `outputs` (its OUTPUTS slice, zeroed) with
    /// the output registers at the end of the quad or at its pause; a quad that faults leaves
    /// `outputs` as they are.
    fn run_quad(
        &mut self,
        image: &ActiveImage<'_>,
        inputs: &[u8],
        outputs: &mut [u8],
    ) -> QuadOutcome;

    /// Continues the quad the last call left paused, to its next pause or its end, writing
    /// `outputs` (the quad's OUTPUTS slice, holding what the pause wrote) as [`run_quad`] does.
    /// The device calls it only after an outcome with a pause code.
    ///
    /// [`run_quad`]: QuadRunner::run_quad
    fn resume_quad(&mut self, image: &ActiveImage<'_>, outputs: &mut [u8]) -> QuadOutcome;
}

/// A stand-in runner until the core model exists: copies the inputs to the outputs (as far as both
/// go), kills no lane and reports one cycle per 16 program bytes. It lets protocol tests check that
/// RUN and READ move the right bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct CopyRunner;

impl QuadRunner for CopyRunner {
    fn run_quad(
        &mut self,
        image: &ActiveImage<'_>,
        inputs: &[u8],
        outputs: &mut [u8],
    ) -> QuadOutcome {
        let n = inputs.len().min(outputs.len());
        outputs[..n].copy_from_slice(&inputs[..n]);
        QuadOutcome {
            kill_mask: 0,
            cycles: u32::try_from(image.program.len() / 16).unwrap_or(u32::MAX),
            fault: 0,
            lanes: 0,
        }
    }

    /// Never called: this runner's quads do not pause.
    fn resume_quad(&mut self, _image: &ActiveImage<'_>, _outputs: &mut [u8]) -> QuadOutcome {
        QuadOutcome::default()
    }
}

/// The RUN a RESUME continues: its shape and the cycles of its finished quads.
#[derive(Clone, Copy, Debug)]
struct RunState {
    quads: usize,
    input_stride: usize,
    output_stride: usize,
    /// Cycles of the quads before the current one (saturating).
    cycles_before: u32,
}

/// The device model.
#[derive(Debug)]
pub struct Device<R> {
    config: DeviceConfig,
    runner: R,
    /// One memory per region, indexed by region code (RESULTS included).
    mem: Vec<Vec<u8>>,
    state: LoadState,
    lengths: [u32; IMAGE_REGIONS],
    active_crc: u32,
    staged_bytes: u32,
    last_nak: u8,
    quads_run: u16,
    fault: u8,
    cycles: u32,
    /// Pauses (EMIT / ENDPRIM) the current RUN has stopped at.
    pauses: u32,
    run: Option<RunState>,
    bad_frames: u16,
    decoder: Decoder,
    baud: u32,
    /// After SET_BAUD: the rate to return to unless a good frame arrives at the new one in time.
    revert_baud: Option<u32>,
    /// The core RUN, RESUME and READ address (CORE), or `ALL_CORES`. The model's cores are one
    /// runner: they hold the same image (uploads go to every core) and always agree.
    core: u8,
}

fn range(addr: u32, len: usize, limit: u32) -> Option<std::ops::Range<usize>> {
    let start = usize::try_from(addr).ok()?;
    let end = start.checked_add(len)?;
    (end <= usize::try_from(limit).ok()?).then_some(start..end)
}

fn view(mem: &[Vec<u8>], lengths: [u32; IMAGE_REGIONS]) -> ActiveImage<'_> {
    let [p, c, t, m] = lengths.map(|l| l as usize);
    ActiveImage {
        program: &mem[Region::Program as usize][..p],
        constants: &mem[Region::Constants as usize][..c],
        textures: &mem[Region::Textures as usize][..t],
        maps: &mem[Region::Maps as usize][..m],
        params: &mem[Region::Params as usize],
    }
}

fn ack(data: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(1 + data.len());
    v.push(0);
    v.extend_from_slice(data);
    v
}

impl<R: QuadRunner> Device<R> {
    /// A device after power-up: no image, memories zero.
    pub fn new(config: DeviceConfig, runner: R) -> Self {
        let mem = Region::ALL
            .iter()
            .map(|&r| vec![0; config.limits.size(r) as usize])
            .collect();
        Device {
            config,
            runner,
            mem,
            state: LoadState::NoImage,
            lengths: [0; IMAGE_REGIONS],
            active_crc: 0,
            staged_bytes: 0,
            last_nak: 0,
            quads_run: 0,
            fault: 0,
            cycles: 0,
            pauses: 0,
            run: None,
            bad_frames: 0,
            decoder: Decoder::new(),
            baud: config.baud,
            revert_baud: None,
            core: ALL_CORES,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &DeviceConfig {
        &self.config
    }

    /// What STATUS would answer.
    pub fn status(&self) -> Status {
        Status {
            state: self.state,
            last_nak: self.last_nak,
            active_crc: if self.state == LoadState::Valid {
                self.active_crc
            } else {
                0
            },
            staged_bytes: self.staged_bytes,
            quads_run: self.quads_run,
            fault: self.fault,
            cycles: self.cycles,
            bad_frames: self.bad_frames,
            core: self.core,
        }
    }

    /// What INFO would answer.
    pub fn info(&self) -> Info {
        Info {
            protocol: PROTOCOL_VERSION,
            core_version: self.config.core_version,
            isa_hash: self.config.isa_hash,
            features: self.config.features,
            clock_hz: self.config.clock_hz,
            baud: self.baud,
            limits: self.config.limits,
            board: self.config.board,
            cores: self.config.cores,
            config: self.config.config,
        }
    }

    /// Pauses (EMIT / ENDPRIM) the current RUN has stopped at: the count a RESUME continuing
    /// it carries.
    pub fn pauses(&self) -> u32 {
        self.pauses
    }

    /// The line rate the device currently listens and answers at.
    pub fn baud(&self) -> u32 {
        self.baud
    }

    /// True while a baud change waits for its confirming frame.
    pub fn baud_unconfirmed(&self) -> bool {
        self.revert_baud.is_some()
    }

    /// No good frame arrived at the new rate in time: return to the previous rate.
    pub fn baud_timeout(&mut self) {
        if let Some(old) = self.revert_baud.take() {
            self.baud = old;
        }
    }

    /// The bytes of a region.
    pub fn memory(&self, region: Region) -> &[u8] {
        &self.mem[region as usize]
    }

    /// The image a RUN would execute, if there is a valid one.
    pub fn active_image(&self) -> Option<ActiveImage<'_>> {
        (self.state == LoadState::Valid).then(|| self.image_view())
    }

    fn image_view(&self) -> ActiveImage<'_> {
        view(&self.mem, self.lengths)
    }

    /// CRC-32 of the staged image regions, computed from the memories (as COMMIT does).
    pub fn staged_crc(&self) -> u32 {
        let v = self.image_view();
        let mut h = crc32fast::Hasher::new();
        h.update(v.program);
        h.update(v.constants);
        h.update(v.textures);
        h.update(v.maps);
        h.finalize()
    }

    /// Feeds received wire bytes; returns the wire bytes of the answers.
    pub fn receive(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for &b in bytes {
            match self.decoder.push(b) {
                None => {}
                Some(Err(_)) => self.bad_frames = self.bad_frames.saturating_add(1),
                Some(Ok(f)) => {
                    for answer in self.handle_stream(&f) {
                        // Answers are built within MAX_PAYLOAD, so encoding cannot fail.
                        if let Ok(wire) = frame::encode(&answer) {
                            out.extend(wire);
                        }
                    }
                }
            }
        }
        out
    }

    /// The inter-byte timeout expired: drop a partly received frame.
    pub fn interbyte_timeout(&mut self) {
        if self.decoder.timeout().is_some() {
            self.bad_frames = self.bad_frames.saturating_add(1);
        }
    }

    /// True while part of a frame has been received.
    pub fn in_frame(&self) -> bool {
        self.decoder.in_frame()
    }

    /// Every frame the device sends for one good frame: one answer, none for frames that are
    /// themselves answers, a RENDER's block frames and end frame (or its NAK).
    pub fn handle_stream(&mut self, f: &Frame) -> Vec<Frame> {
        if f.cmd & ANSWER_BIT == 0 && f.cmd == Command::Render as u8 {
            self.revert_baud = None;
            let frame = |payload| Frame {
                cmd: f.cmd | ANSWER_BIT,
                seq: f.seq,
                payload,
            };
            return match self.render(&f.payload) {
                Ok(payloads) => payloads.into_iter().map(frame).collect(),
                Err(reason) => {
                    self.last_nak = reason as u8;
                    vec![frame(vec![reason as u8])]
                }
            };
        }
        self.handle(f).into_iter().collect()
    }

    /// The answer to one good frame (`None` for frames that are themselves answers). A RENDER
    /// answers a stream: [`Device::handle_stream`]; this returns its last frame.
    pub fn handle(&mut self, f: &Frame) -> Option<Frame> {
        if f.cmd & ANSWER_BIT != 0 {
            return None;
        }
        if f.cmd == Command::Render as u8 {
            return self.handle_stream(f).pop();
        }
        // Any good frame confirms a pending baud change.
        self.revert_baud = None;
        let result = match Command::from_code(f.cmd) {
            None => Err(Reason::UnknownCommand),
            Some(cmd) => self.execute(cmd, &f.payload),
        };
        let payload = match result {
            Ok(data) => data,
            Err(reason) => {
                self.last_nak = reason as u8;
                vec![reason as u8]
            }
        };
        Some(Frame {
            cmd: f.cmd | ANSWER_BIT,
            seq: f.seq,
            payload,
        })
    }

    fn execute(&mut self, cmd: Command, p: &[u8]) -> Result<Vec<u8>, Reason> {
        let exact = |n: usize| {
            if p.len() == n {
                Ok(())
            } else {
                Err(Reason::BadLength)
            }
        };
        match cmd {
            Command::Info => {
                exact(0)?;
                Ok(ack(&self.info().to_bytes()))
            }
            Command::Status => {
                exact(0)?;
                Ok(ack(&self.status().to_bytes()))
            }
            Command::Begin => {
                exact(BEGIN_BYTES)?;
                let b = Begin::from_bytes(p).map_err(|_| Reason::BadLength)?;
                self.begin(b)
            }
            Command::Write => {
                if p.len() <= WRITE_HEADER {
                    return Err(Reason::BadLength);
                }
                self.write(p[0], le32(p, 1), &p[WRITE_HEADER..])
            }
            Command::Commit => {
                exact(COMMIT_BYTES)?;
                self.commit(le32(p, 0))
            }
            Command::Run => {
                let r = RunRequest::from_bytes(p).map_err(|_| Reason::BadLength)?;
                self.run(&r)
            }
            Command::Read => {
                exact(READ_BYTES)?;
                self.read(
                    p[0],
                    le32(p, 1),
                    usize::from(u16::from_le_bytes([p[5], p[6]])),
                )
            }
            Command::Reset => {
                exact(0)?;
                if self.state != LoadState::Valid {
                    self.state = LoadState::NoImage;
                }
                self.clear_run();
                self.last_nak = 0;
                self.core = ALL_CORES;
                Ok(ack(&[]))
            }
            Command::Core => {
                exact(CORE_BYTES)?;
                if p[0] != ALL_CORES && u16::from(p[0]) >= self.config.cores {
                    return Err(Reason::OutOfRange);
                }
                self.core = p[0];
                Ok(ack(&[]))
            }
            Command::SetBaud => {
                exact(SET_BAUD_BYTES)?;
                let baud = le32(p, 0);
                if !self.config.bauds.contains(&baud) {
                    return Err(Reason::BadBaud);
                }
                if baud != self.baud {
                    self.revert_baud = Some(self.baud);
                    self.baud = baud;
                }
                Ok(ack(&[]))
            }
            Command::Resume => {
                exact(RESUME_BYTES)?;
                self.resume(le32(p, 0))
            }
            // Streamed: `handle_stream` answers it.
            Command::Render => self.render(p).map(|mut v| v.pop().unwrap_or_default()),
        }
    }

    /// The PARAMS slots MAPS names copied over CONSTANTS (zeros for slots beyond PARAMS), as
    /// the on-chip loader does before a RUN's or a RENDER's first quad.
    fn params_into_constants(&mut self) {
        if let Some((_, _, slots)) = crate::image::read_maps(view(&self.mem, self.lengths).maps) {
            for k in slots {
                let at = 16 * usize::from(k);
                let konst = Region::Constants as usize;
                if at + 16 <= self.mem[konst].len() {
                    let mut v = [0u8; 16];
                    if let Some(p) = self.mem[Region::Params as usize].get(at..at + 16) {
                        v.copy_from_slice(p);
                    }
                    self.mem[konst][at..at + 16].copy_from_slice(&v);
                }
            }
        }
    }

    /// RENDER (PROTOCOL.md section 3.2): the payloads of its block frames and end frame.
    fn render(&mut self, p: &[u8]) -> Result<Vec<Vec<u8>>, Reason> {
        if p.len() != RENDER_BYTES {
            return Err(Reason::BadLength);
        }
        let r = RenderRequest::from_bytes(p).map_err(|_| Reason::BadLength)?;
        if self.state != LoadState::Valid {
            return Err(Reason::NoValidImage);
        }
        let record = r.record_bytes();
        if r.quads == 0
            || r.row_quads == 0
            || r.x >= r.row_quads
            || !matches!(r.lane_words, 0 | 1 | 4)
            || r.block_quads == 0
            || RENDER_BLOCK_HEADER + usize::from(r.block_quads) * record > frame::MAX_PAYLOAD
        {
            return Err(Reason::TooManyQuads);
        }
        let inputs_n = match crate::image::read_maps(self.image_view().maps) {
            Some((i, o, _)) if !i.is_empty() && !o.is_empty() => i.len(),
            _ => return Err(Reason::BadState),
        };
        self.clear_run();
        self.params_into_constants();
        self.mem[Region::Outputs as usize].fill(0);
        let mut frames = Vec::new();
        let mut block: Vec<u8> = Vec::new();
        let (mut qx, mut qy) = (u32::from(r.x), u32::from(r.y));
        let (mut done, mut cycles, mut fault) = (0u16, 0u32, 0u8);
        let mut inputs = vec![0u8; 64 * inputs_n];
        let mut outputs = [0u8; 64];
        while done < r.quads {
            if block.is_empty() {
                block.extend_from_slice(&[0, RENDER_BLOCK]);
                block.extend_from_slice(&done.to_le_bytes());
            }
            // The coordinate input: lane L's pixel (2x + (L & 1), 2y + (L >> 1)).
            inputs.fill(0);
            for lane in 0..4u32 {
                let px = RENDER_COORD_BIAS + 2 * qx + (lane & 1);
                let py = RENDER_COORD_BIAS + 2 * qy + (lane >> 1);
                let at = 16 * lane as usize;
                inputs[at..at + 4].copy_from_slice(&px.to_le_bytes());
                inputs[at + 4..at + 8].copy_from_slice(&py.to_le_bytes());
            }
            outputs.fill(0);
            let image = view(&self.mem, self.lengths);
            let o = self.runner.run_quad(&image, &inputs, &mut outputs);
            done += 1;
            cycles = cycles.saturating_add(o.cycles);
            fault = o.fault;
            if fault != 0 {
                // The faulting quad sends no record; the block so far goes out if it has any.
                if block.len() > RENDER_BLOCK_HEADER {
                    frames.push(block);
                }
                break;
            }
            qx += 1;
            if qx == u32::from(r.row_quads) {
                qx = 0;
                qy += 1;
            }
            if r.lane_words == RENDER_COUNT_ONLY {
                block.clear();
                continue;
            }
            block.push(o.kill_mask);
            for lane in 0..4 {
                block.extend_from_slice(&outputs[16 * lane..][..4 * usize::from(r.lane_words)]);
            }
            let full =
                block.len() + record > RENDER_BLOCK_HEADER + usize::from(r.block_quads) * record;
            if full || done == r.quads {
                frames.push(std::mem::take(&mut block));
            }
        }
        frames.push(
            RenderEnd {
                fault,
                quads: done,
                cycles,
            }
            .to_bytes(),
        );
        // The run state a RESUME would continue is gone, as after BEGIN: a RENDER leaves
        // STATUS's run fields zero.
        self.clear_run();
        Ok(frames)
    }

    fn clear_run(&mut self) {
        self.quads_run = 0;
        self.fault = 0;
        self.cycles = 0;
        self.pauses = 0;
        self.run = None;
        self.mem[Region::Results as usize].fill(0);
    }

    fn begin(&mut self, b: Begin) -> Result<Vec<u8>, Reason> {
        if b.isa_hash != self.config.isa_hash {
            return Err(Reason::IsaMismatch);
        }
        for (len, region) in b.lengths.iter().zip(Region::IMAGE) {
            if *len > self.config.limits.size(region) {
                return Err(Reason::OutOfRange);
            }
        }
        // From here on the old image is gone: it is overwritten in place (single buffer).
        self.state = LoadState::Uploading;
        self.lengths = b.lengths;
        self.active_crc = 0;
        self.staged_bytes = 0;
        self.clear_run();
        Ok(ack(&[]))
    }

    fn write(&mut self, region: u8, addr: u32, data: &[u8]) -> Result<Vec<u8>, Reason> {
        let region = Region::from_code(region).ok_or(Reason::BadRegion)?;
        let limit = match region {
            Region::Outputs | Region::Results => return Err(Reason::BadRegion),
            Region::Program | Region::Constants | Region::Textures | Region::Maps => {
                if !matches!(self.state, LoadState::Uploading | LoadState::Failed) {
                    return Err(Reason::BadState);
                }
                let i = Region::IMAGE.iter().position(|&r| r == region).unwrap_or(0);
                self.lengths[i]
            }
            Region::Inputs | Region::Params => self.config.limits.size(region),
        };
        let r = range(addr, data.len(), limit).ok_or(Reason::OutOfRange)?;
        let start = r.start;
        self.mem[region as usize][r].copy_from_slice(data);
        if region == Region::Program {
            // The core stores the instruction word's bits only: the last bytes of each 16 read
            // back as zero, whatever was written (a valid image has zeros there).
            for (i, b) in self.mem[region as usize][start..start + data.len()]
                .iter_mut()
                .enumerate()
            {
                if (start + i) % 16 >= PROGRAM_WORD_BYTES {
                    *b = 0;
                }
            }
        }
        if region.is_image() {
            self.state = LoadState::Uploading;
            let n = u32::try_from(data.len()).unwrap_or(u32::MAX);
            self.staged_bytes = self.staged_bytes.saturating_add(n);
        }
        Ok(ack(&[]))
    }

    fn commit(&mut self, crc: u32) -> Result<Vec<u8>, Reason> {
        match self.state {
            LoadState::NoImage => Err(Reason::BadState),
            // A repeated COMMIT of the active image is acknowledged again; any other CRC is refused
            // without touching the active image.
            LoadState::Valid if crc == self.active_crc => Ok(ack(&[])),
            LoadState::Valid => Err(Reason::CrcMismatch),
            LoadState::Uploading | LoadState::Failed => {
                if self.staged_crc() == crc {
                    self.state = LoadState::Valid;
                    self.active_crc = crc;
                    Ok(ack(&[]))
                } else {
                    self.state = LoadState::Failed;
                    Err(Reason::CrcMismatch)
                }
            }
        }
    }

    fn run(&mut self, r: &RunRequest) -> Result<Vec<u8>, Reason> {
        if self.state != LoadState::Valid {
            return Err(Reason::NoValidImage);
        }
        let l = self.config.limits;
        let quads = usize::from(r.quads);
        let (is, os) = (usize::from(r.input_stride), usize::from(r.output_stride));
        if quads == 0 || r.quads > l.max_quads {
            return Err(Reason::TooManyQuads);
        }
        if quads * is > l.inputs as usize || quads * os > l.outputs as usize {
            return Err(Reason::TooManyQuads);
        }
        if r.inline_inputs.len() > l.inputs as usize {
            return Err(Reason::OutOfRange);
        }
        self.mem[Region::Inputs as usize][..r.inline_inputs.len()]
            .copy_from_slice(&r.inline_inputs);
        self.clear_run();
        // Run-time constants live in the core's constant memory.
        self.params_into_constants();
        self.mem[Region::Outputs as usize].fill(0);
        self.run = Some(RunState {
            quads,
            input_stride: is,
            output_stride: os,
            cycles_before: 0,
        });
        self.run_quads(None);
        Ok(ack(&self.summary().to_bytes()))
    }

    /// RESUME with `seen` pauses of the run seen by the host: the paused quad continues when the
    /// run is at that pause; a run already past it (the RESUME's answer was lost) or with
    /// nothing paused answers its summary again; any other count is refused.
    fn resume(&mut self, seen: u32) -> Result<Vec<u8>, Reason> {
        let paused = is_pause(self.fault);
        if paused && seen == self.pauses {
            let (Some(rs), Some(q)) = (self.run, usize::from(self.quads_run).checked_sub(1)) else {
                return Err(Reason::BadState);
            };
            let mut outputs = std::mem::take(&mut self.mem[Region::Outputs as usize]);
            let image = view(&self.mem, self.lengths);
            let range = q * rs.output_stride..(q + 1) * rs.output_stride;
            let o = self.runner.resume_quad(&image, &mut outputs[range]);
            self.mem[Region::Outputs as usize] = outputs;
            self.run_quads(Some(o));
        } else if seen != self.pauses && seen.wrapping_add(1) != self.pauses {
            return Err(Reason::BadState);
        }
        Ok(ack(&self.summary().to_bytes()))
    }

    /// Runs the current RUN's quads, after `resumed` (the outcome of the paused quad's next
    /// stretch) if given, until one faults or pauses or the last one ends; each outcome goes
    /// into the quad's RESULTS record and the run's fault and cycles.
    fn run_quads(&mut self, mut resumed: Option<QuadOutcome>) {
        let Some(mut rs) = self.run else {
            return;
        };
        loop {
            let o = match resumed.take() {
                Some(o) => o,
                None if usize::from(self.quads_run) < rs.quads => {
                    let q = usize::from(self.quads_run);
                    self.quads_run += 1;
                    rs.cycles_before = self.cycles;
                    let mut outputs = std::mem::take(&mut self.mem[Region::Outputs as usize]);
                    let image = view(&self.mem, self.lengths);
                    let (is, os) = (rs.input_stride, rs.output_stride);
                    let inputs = &self.mem[Region::Inputs as usize][q * is..(q + 1) * is];
                    let o =
                        self.runner
                            .run_quad(&image, inputs, &mut outputs[q * os..(q + 1) * os]);
                    self.mem[Region::Outputs as usize] = outputs;
                    o
                }
                None => break,
            };
            let q = usize::from(self.quads_run).saturating_sub(1);
            let rec = &mut self.mem[Region::Results as usize][q * RESULT_RECORD..][..RESULT_RECORD];
            rec[0] = o.kill_mask;
            rec[1] = o.fault;
            rec[RESULT_PAUSE_LANES] = if is_pause(o.fault) { o.lanes } else { 0 };
            rec[4..8].copy_from_slice(&o.cycles.to_le_bytes());
            self.cycles = rs.cycles_before.saturating_add(o.cycles);
            self.fault = o.fault;
            if is_pause(o.fault) {
                self.pauses = self.pauses.wrapping_add(1);
            }
            if o.fault != 0 {
                break;
            }
        }
        self.run = Some(rs);
    }

    /// The RUN summary of the current run: its fault or pause, quads, cycles and the quads' kill
    /// masks from RESULTS.
    fn summary(&self) -> RunSummary {
        let results = &self.mem[Region::Results as usize];
        let listed = usize::from(self.quads_run).min(frame::MAX_PAYLOAD - 1 - RUN_SUMMARY_HEADER);
        RunSummary {
            fault: self.fault,
            quads_run: self.quads_run,
            cycles: self.cycles,
            kill_masks: (0..listed)
                .map(|q| results.get(q * RESULT_RECORD).copied().unwrap_or(0))
                .collect(),
        }
    }

    fn read(&mut self, region: u8, addr: u32, len: usize) -> Result<Vec<u8>, Reason> {
        let region = Region::from_code(region).ok_or(Reason::BadRegion)?;
        if len == 0 || len > frame::MAX_PAYLOAD - 1 {
            return Err(Reason::BadLength);
        }
        let limit = self.config.limits.size(region);
        let r = range(addr, len, limit).ok_or(Reason::OutOfRange)?;
        Ok(ack(&self.mem[region as usize][r]))
    }
}
