//! The loader's serial protocol (`firmware-loader/PROTOCOL.md`): commands, answers, reason codes,
//! regions and payload layouts (all integers little-endian). Here, in the crate every other one
//! imports, so that the loader's firmware (`hdl::loader_firmware`), the host and its device model
//! (`firmware-loader`) and the emulator read one set of numbers; `firmware_loader::protocol`
//! re-exports it.
//!
//! An answer repeats the request's sequence number and carries `cmd | 0x80`; its payload starts with a
//! result byte: 0 for ACK (the command's data follows), otherwise a [`Reason`] (NAK, nothing follows).
//! See `PROTOCOL.md` for the state machine and the timing rules.

use crate::core::config::CONFIG_BYTES;
use crate::core::CoreConfig;
use thiserror::Error;

/// Version of this protocol, reported by INFO. Version 2 added INFO's board, core count and
/// core configuration, CORE (addressing one of several cores), STATUS's selected core and
/// RENDER's count-only form (lane words 0).
pub const PROTOCOL_VERSION: u8 = 2;
/// Bytes of each 16-byte PROGRAM slot the device stores: the core instruction word
/// (`microcode::core::isa::WORD_BITS` bits, in seven 16-bit block RAM words); the rest read
/// back as zero.
pub const PROGRAM_WORD_BYTES: usize = crate::core::isa::WORD_BITS.div_ceil(16) as usize * 2;
/// First four bytes of INFO's answer: identifies a tgsi-core loader.
pub const DEVICE_MAGIC: [u8; 4] = *b"TGSL";
/// Bit set in the command byte of every answer.
pub const ANSWER_BIT: u8 = 0x80;
/// Line rate after power-up and after a failed baud change.
pub const DEFAULT_BAUD: u32 = 115_200;
/// Line rates SET_BAUD accepts (the FTDI FT2232H and the 100 MHz clock divide to all of them).
pub const SUPPORTED_BAUDS: [u32; 7] = [
    115_200, 230_400, 460_800, 921_600, 1_000_000, 2_000_000, 3_000_000,
];
/// Bytes of a WRITE header (region, address) before the data.
pub const WRITE_HEADER: usize = 5;
/// Number of image regions (PROGRAM, CONSTANTS, TEXTURES, MAPS).
pub const IMAGE_REGIONS: usize = 4;
/// Bytes per quad of the RESULTS region: kill mask, fault, pause lanes, a reserved byte, cycles.
pub const RESULT_RECORD: usize = 8;
/// Offset in a RESULTS record of the byte holding the lanes that executed the EMIT / ENDPRIM a
/// quad is paused at (0 unless its fault byte is a pause code).
pub const RESULT_PAUSE_LANES: usize = 2;
/// Length of RESUME's payload: the u32 count of the run's pauses the host has seen.
pub const RESUME_BYTES: usize = 4;
/// Largest payload of any frame, in bytes (the device's frame buffer holds one).
pub const MAX_PAYLOAD: usize = 256;
/// Length of COMMIT's payload: the image's u32 CRC-32.
pub const COMMIT_BYTES: usize = 4;
/// Length of SET_BAUD's payload: the u32 line rate.
pub const SET_BAUD_BYTES: usize = 4;
/// Length of READ's payload: u8 region, u32 address, u16 length.
pub const READ_BYTES: usize = 7;
/// Length of CORE's payload: the u8 core, or [`ALL_CORES`].
pub const CORE_BYTES: usize = 1;
/// CORE's (and STATUS's) value for every core at once: uploads, RUN and RESUME act on all of
/// them (a RUN checks that they agree), READ reads core 0. The selection after power-up and
/// after RESET.
pub const ALL_CORES: u8 = 0xFF;

/// Request commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Command {
    /// Identify the device: no payload; ACK with [`Info`].
    Info = 0x01,
    /// Loader and run state: no payload; ACK with [`Status`].
    Status = 0x02,
    /// Start an upload ([`Begin`]): the active image is invalidated.
    Begin = 0x03,
    /// Write bytes into a region: region u8, address u32, data.
    Write = 0x04,
    /// Activate the staged image if its CRC-32 matches: crc u32.
    Commit = 0x05,
    /// Run quads ([`RunRequest`]); ACK with [`RunSummary`].
    Run = 0x06,
    /// Read bytes: region u8, address u32, length u16; ACK with the bytes.
    Read = 0x07,
    /// Abort an upload, clear run results; a valid image stays valid.
    Reset = 0x08,
    /// Change the line rate: baud u32; ACK at the old rate, then switch.
    SetBaud = 0x09,
    /// Continue a RUN paused at EMIT / ENDPRIM: the u32 count of its pauses the host has seen;
    /// ACK with [`RunSummary`] (a repeated RESUME answers again without running).
    Resume = 0x0A,
    /// Shade a run of quads of an image whose inputs the device makes from each pixel's
    /// position ([`RenderRequest`]); answered by a stream of block frames and an end frame
    /// ([`RenderEnd`]) instead of one answer.
    Render = 0x0B,
    /// Select the core that RUN, RESUME and READ address: the u8 core (below INFO's core
    /// count) or [`ALL_CORES`]; ACK without data.
    Core = 0x0C,
}

impl Command {
    /// The command with this code.
    pub fn from_code(code: u8) -> Option<Command> {
        Some(match code {
            0x01 => Command::Info,
            0x02 => Command::Status,
            0x03 => Command::Begin,
            0x04 => Command::Write,
            0x05 => Command::Commit,
            0x06 => Command::Run,
            0x07 => Command::Read,
            0x08 => Command::Reset,
            0x09 => Command::SetBaud,
            0x0A => Command::Resume,
            0x0B => Command::Render,
            0x0C => Command::Core,
            _ => return None,
        })
    }
}

/// NAK reason codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[repr(u8)]
pub enum Reason {
    /// The payload length is wrong for the command.
    #[error("payload length wrong for the command")]
    BadLength = 1,
    /// The command code is unknown.
    #[error("unknown command")]
    UnknownCommand = 2,
    /// Region, address or length outside the memory or the declared image.
    #[error("address or length out of range")]
    OutOfRange = 3,
    /// The command is not allowed in the current state (e.g. WRITE to the image without BEGIN,
    /// RESUME with a pause count the run is not at).
    #[error("command not allowed in this state")]
    BadState = 4,
    /// The region cannot be written (OUTPUTS, RESULTS) or is unknown.
    #[error("region not writable or unknown")]
    BadRegion = 5,
    /// COMMIT: the staged image's CRC-32 differs from the one given.
    #[error("staged image CRC differs")]
    CrcMismatch = 6,
    /// RUN: there is no valid image.
    #[error("no valid image")]
    NoValidImage = 7,
    /// BEGIN: the image was built for a different core (ISA hash).
    #[error("image built for a different core")]
    IsaMismatch = 8,
    /// SET_BAUD: rate not supported.
    #[error("line rate not supported")]
    BadBaud = 9,
    /// RUN: more quads, or larger strides, than the memories hold.
    #[error("too many quads for the input/output memories")]
    TooManyQuads = 10,
}

impl Reason {
    /// The reason with this code.
    pub fn from_code(code: u8) -> Option<Reason> {
        Some(match code {
            1 => Reason::BadLength,
            2 => Reason::UnknownCommand,
            3 => Reason::OutOfRange,
            4 => Reason::BadState,
            5 => Reason::BadRegion,
            6 => Reason::CrcMismatch,
            7 => Reason::NoValidImage,
            8 => Reason::IsaMismatch,
            9 => Reason::BadBaud,
            10 => Reason::TooManyQuads,
            _ => return None,
        })
    }
}

/// Memory regions addressed by WRITE and READ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Region {
    /// Core instructions (image; covered by the image CRC).
    Program = 0,
    /// Immediate constants, 16 bytes per K slot (image).
    Constants = 1,
    /// Texels (image).
    Textures = 2,
    /// Run-time inputs of the quads (not part of the image).
    Inputs = 3,
    /// Outputs of the last RUN (read-only).
    Outputs = 4,
    /// Per-quad records of the last RUN (read-only), [`RESULT_RECORD`] bytes each.
    Results = 5,
    /// Run-time CONST buffer values, 16 bytes per K slot (not part of the image).
    Params = 6,
    /// Register maps (image): u16 input count, u16 output count, then per input and per output
    /// u16 TGSI index and u16 core register; INPUTS/OUTPUTS blocks follow this order.
    Maps = 7,
}

impl Region {
    /// Every region, in code order.
    pub const ALL: [Region; 8] = [
        Region::Program,
        Region::Constants,
        Region::Textures,
        Region::Inputs,
        Region::Outputs,
        Region::Results,
        Region::Params,
        Region::Maps,
    ];
    /// The regions that make up an image, in the order the image CRC covers them.
    pub const IMAGE: [Region; IMAGE_REGIONS] = [
        Region::Program,
        Region::Constants,
        Region::Textures,
        Region::Maps,
    ];

    /// The region with this code.
    pub fn from_code(code: u8) -> Option<Region> {
        Region::ALL.get(usize::from(code)).copied()
    }

    /// True for the regions covered by the image CRC (staged by BEGIN/WRITE/COMMIT).
    pub fn is_image(self) -> bool {
        Region::IMAGE.contains(&self)
    }
}

/// A payload too short or malformed for its layout.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// Fewer bytes than the layout needs.
    #[error("{what}: {len} bytes, at least {need} expected")]
    Short {
        /// Which layout.
        what: &'static str,
        /// Bytes present.
        len: usize,
        /// Bytes needed.
        need: usize,
    },
}

fn need(what: &'static str, b: &[u8], n: usize) -> Result<(), LayoutError> {
    if b.len() < n {
        return Err(LayoutError::Short {
            what,
            len: b.len(),
            need: n,
        });
    }
    Ok(())
}

/// Little-endian u16 at `o` (the caller checked the length).
pub fn le16(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}
/// Little-endian u32 at `o` (the caller checked the length).
pub fn le32(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

/// Sizes of the device's memories, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// PROGRAM region.
    pub program: u32,
    /// CONSTANTS region.
    pub constants: u32,
    /// TEXTURES region.
    pub textures: u32,
    /// INPUTS region.
    pub inputs: u32,
    /// OUTPUTS region.
    pub outputs: u32,
    /// PARAMS region.
    pub params: u32,
    /// MAPS region.
    pub maps: u32,
    /// Most quads one RUN may ask for.
    pub max_quads: u16,
    /// Largest frame payload the device accepts.
    pub max_payload: u16,
}

impl Limits {
    /// Size of a region (RESULTS: one record per quad).
    pub fn size(&self, region: Region) -> u32 {
        match region {
            Region::Program => self.program,
            Region::Constants => self.constants,
            Region::Textures => self.textures,
            Region::Inputs => self.inputs,
            Region::Outputs => self.outputs,
            Region::Params => self.params,
            Region::Maps => self.maps,
            Region::Results => u32::from(self.max_quads) * RESULT_RECORD as u32,
        }
    }
}

/// What a device is and how big its memories are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceConfig {
    /// Core version reported by INFO.
    pub core_version: (u16, u16),
    /// CRC-32 of the core configuration bytes (BEGIN must name the same).
    pub isa_hash: u32,
    /// Feature bits of the core configuration.
    pub features: u32,
    /// Core clock in Hz.
    pub clock_hz: u32,
    /// Line rate at power-up.
    pub baud: u32,
    /// Rates SET_BAUD accepts ([`SUPPORTED_BAUDS`] on the model board; the on-chip loader's line
    /// rate is fixed per build, so it accepts only its own).
    pub bauds: &'static [u32],
    /// Memory sizes.
    pub limits: Limits,
    /// The board (`crate::board::Board::id`; 0: not said).
    pub board: u16,
    /// Shader cores behind the loader (at least 1).
    pub cores: u16,
    /// The core configuration's bytes (`CoreConfig::to_bytes`, whose CRC-32 is the ISA hash;
    /// all zero: not said).
    pub config: [u8; CONFIG_BYTES],
}

impl DeviceConfig {
    /// Sizes that fit the iCE40 HX8K's 32 block RAMs (16 KiB) next to the core's register file:
    /// 4 KiB program (256 instructions), 1 KiB constants, 4 KiB textures, 1 KiB each for inputs,
    /// outputs and parameters, 256 bytes of register maps.
    pub fn board(isa_hash: u32) -> DeviceConfig {
        DeviceConfig {
            core_version: (1, 0),
            isa_hash,
            features: 0,
            clock_hz: 100_000_000,
            baud: DEFAULT_BAUD,
            bauds: &SUPPORTED_BAUDS,
            limits: Limits {
                program: 4096,
                constants: 1024,
                textures: 4096,
                inputs: 1024,
                outputs: 1024,
                params: 1024,
                maps: 256,
                max_quads: 16,
                max_payload: MAX_PAYLOAD as u16,
            },
            board: 0,
            cores: 1,
            config: [0; CONFIG_BYTES],
        }
    }

    /// This device with `cores` cores built for `core` on board `board` (its ISA hash and
    /// features follow the configuration).
    pub fn with_cores(mut self, board: u16, cores: u16, core: &CoreConfig) -> DeviceConfig {
        self.board = board;
        self.cores = cores.max(1);
        self.isa_hash = core.isa_hash();
        self.features = core.features;
        self.config.copy_from_slice(&core.to_bytes());
        self
    }
}

/// INFO's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    /// Protocol version ([`PROTOCOL_VERSION`]).
    pub protocol: u8,
    /// Core version, major and minor.
    pub core_version: (u16, u16),
    /// CRC-32 of the core configuration bytes the device was built with.
    pub isa_hash: u32,
    /// Feature bits of the core configuration.
    pub features: u32,
    /// Core clock in Hz.
    pub clock_hz: u32,
    /// Current line rate.
    pub baud: u32,
    /// Memory sizes.
    pub limits: Limits,
    /// The board (`crate::board::Board::id`; 0 from a device that does not say).
    pub board: u16,
    /// Shader cores behind the loader (1 from a device that does not say).
    pub cores: u16,
    /// The core configuration's bytes (`CoreConfig::to_bytes`; all zero from a device that
    /// does not say): [`Info::core_config`].
    pub config: [u8; CONFIG_BYTES],
}

/// Length of INFO's fixed record (version 1's whole answer): what the on-chip loader keeps
/// in its memory; the board, core count and configuration follow it.
pub const INFO_RECORD_BYTES: usize = 58;
/// Length of INFO's data: the record, u16 board, u16 cores, the configuration's bytes.
pub const INFO_BYTES: usize = INFO_RECORD_BYTES + 4 + CONFIG_BYTES;

impl Info {
    /// Wire layout (see `PROTOCOL.md`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(INFO_BYTES);
        v.extend_from_slice(&DEVICE_MAGIC);
        v.push(self.protocol);
        v.push(0);
        v.extend_from_slice(&self.core_version.0.to_le_bytes());
        v.extend_from_slice(&self.core_version.1.to_le_bytes());
        for x in [self.isa_hash, self.features, self.clock_hz, self.baud] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        let l = &self.limits;
        for x in [
            l.program,
            l.constants,
            l.textures,
            l.inputs,
            l.outputs,
            l.params,
            l.maps,
        ] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v.extend_from_slice(&l.max_quads.to_le_bytes());
        v.extend_from_slice(&l.max_payload.to_le_bytes());
        v.extend_from_slice(&self.board.to_le_bytes());
        v.extend_from_slice(&self.cores.to_le_bytes());
        v.extend_from_slice(&self.config);
        v
    }

    /// The core configuration INFO names, when its bytes read back and their CRC-32 is the ISA
    /// hash (a device that does not say, or says something inconsistent, gives `None`).
    pub fn core_config(&self) -> Option<CoreConfig> {
        let c = CoreConfig::from_bytes(&self.config).ok()?;
        (c.isa_hash() == self.isa_hash).then_some(c)
    }

    /// Reads INFO's data; `Ok(None)` when the magic is not a tgsi-core loader's. A version-1
    /// record (without board, cores and configuration) reads as board 0, one core, no
    /// configuration.
    pub fn from_bytes(b: &[u8]) -> Result<Option<Info>, LayoutError> {
        need("INFO", b, 4)?;
        if b[..4] != DEVICE_MAGIC {
            return Ok(None);
        }
        need("INFO", b, INFO_RECORD_BYTES)?;
        let mut config = [0; CONFIG_BYTES];
        let (board, cores) = if b.len() >= INFO_BYTES {
            config.copy_from_slice(&b[INFO_RECORD_BYTES + 4..INFO_BYTES]);
            (le16(b, INFO_RECORD_BYTES), le16(b, INFO_RECORD_BYTES + 2))
        } else {
            (0, 1)
        };
        Ok(Some(Info {
            protocol: b[INFO_PROTOCOL],
            core_version: (le16(b, INFO_CORE_VERSION), le16(b, INFO_CORE_VERSION + 2)),
            isa_hash: le32(b, INFO_ISA_HASH),
            features: le32(b, INFO_FEATURES),
            clock_hz: le32(b, INFO_CLOCK),
            baud: le32(b, INFO_BAUD),
            limits: Limits {
                program: le32(b, INFO_LIMITS),
                constants: le32(b, INFO_LIMITS + 4),
                textures: le32(b, INFO_LIMITS + 8),
                inputs: le32(b, INFO_LIMITS + 12),
                outputs: le32(b, INFO_LIMITS + 16),
                params: le32(b, INFO_LIMITS + 20),
                maps: le32(b, INFO_LIMITS + 24),
                max_quads: le16(b, INFO_MAX_QUADS),
                max_payload: le16(b, INFO_MAX_PAYLOAD),
            },
            board,
            cores,
            config,
        }))
    }
}

/// The loader's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum LoadState {
    /// No image was ever committed, or RESET aborted an upload.
    NoImage = 0,
    /// BEGIN was received; the image regions are being written. RUN is refused.
    Uploading = 1,
    /// The image passed COMMIT and may run.
    Valid = 2,
    /// COMMIT found a CRC mismatch; rewrite and COMMIT again, or BEGIN anew. RUN is refused.
    Failed = 3,
}

impl LoadState {
    /// The state with this code.
    pub fn from_code(code: u8) -> Option<LoadState> {
        Some(match code {
            0 => LoadState::NoImage,
            1 => LoadState::Uploading,
            2 => LoadState::Valid,
            3 => LoadState::Failed,
            _ => return None,
        })
    }
}

/// STATUS's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Loader state.
    pub state: LoadState,
    /// Reason of the most recent NAK (0: none since power-up or RESET).
    pub last_nak: u8,
    /// CRC-32 of the active image (0 unless `state` is `Valid`).
    pub active_crc: u32,
    /// Image bytes written since BEGIN (saturating).
    pub staged_bytes: u32,
    /// Quads the last RUN completed.
    pub quads_run: u16,
    /// Fault code of the last RUN (0: none).
    pub fault: u8,
    /// Cycles of the last RUN.
    pub cycles: u32,
    /// Received segments dropped as bad frames (saturating).
    pub bad_frames: u16,
    /// The core RUN, RESUME and READ address (CORE), or [`ALL_CORES`].
    pub core: u8,
}

/// Length of STATUS's data.
pub const STATUS_BYTES: usize = 20;

impl Status {
    /// Wire layout (see `PROTOCOL.md`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(STATUS_BYTES);
        v.push(self.state as u8);
        v.push(self.last_nak);
        v.extend_from_slice(&self.active_crc.to_le_bytes());
        v.extend_from_slice(&self.staged_bytes.to_le_bytes());
        v.extend_from_slice(&self.quads_run.to_le_bytes());
        v.push(self.fault);
        v.push(self.core);
        v.extend_from_slice(&self.cycles.to_le_bytes());
        v.extend_from_slice(&self.bad_frames.to_le_bytes());
        v
    }

    /// Reads STATUS's data.
    pub fn from_bytes(b: &[u8]) -> Result<Status, LayoutError> {
        need("STATUS", b, STATUS_BYTES)?;
        Ok(Status {
            // An unknown state code is reported as no image: never mistaken for a valid one.
            state: LoadState::from_code(b[0]).unwrap_or(LoadState::NoImage),
            last_nak: b[1],
            active_crc: le32(b, 2),
            staged_bytes: le32(b, 6),
            quads_run: le16(b, 10),
            fault: b[12],
            cycles: le32(b, 14),
            bad_frames: le16(b, 18),
            core: b[13],
        })
    }
}

/// BEGIN's payload: which core the image is for and how long each image region is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Begin {
    /// Must equal the device's ISA hash.
    pub isa_hash: u32,
    /// Bytes of PROGRAM, CONSTANTS, TEXTURES and MAPS the image uses (the CRC covers exactly these).
    pub lengths: [u32; IMAGE_REGIONS],
}

/// Length of BEGIN's payload.
pub const BEGIN_BYTES: usize = 4 + 4 * IMAGE_REGIONS;

impl Begin {
    /// Wire layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = self.isa_hash.to_le_bytes().to_vec();
        for l in self.lengths {
            v.extend_from_slice(&l.to_le_bytes());
        }
        v
    }
    /// Reads BEGIN's payload.
    pub fn from_bytes(b: &[u8]) -> Result<Begin, LayoutError> {
        need("BEGIN", b, BEGIN_BYTES)?;
        Ok(Begin {
            isa_hash: le32(b, 0),
            lengths: [le32(b, 4), le32(b, 8), le32(b, 12), le32(b, 16)],
        })
    }
}

/// RUN's payload: quads `0..quads`, quad `q` reading INPUTS at `q * input_stride` and writing OUTPUTS
/// at `q * output_stride`. Bytes after the 6-byte header are first written to INPUTS at 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRequest {
    /// Number of quads (at least 1).
    pub quads: u16,
    /// INPUTS bytes per quad.
    pub input_stride: u16,
    /// OUTPUTS bytes per quad.
    pub output_stride: u16,
    /// Inputs to write to INPUTS at address 0 before running (may be empty).
    pub inline_inputs: Vec<u8>,
}

/// Length of RUN's fixed header.
pub const RUN_HEADER: usize = 6;

impl RunRequest {
    /// Wire layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(RUN_HEADER + self.inline_inputs.len());
        for x in [self.quads, self.input_stride, self.output_stride] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v.extend_from_slice(&self.inline_inputs);
        v
    }
    /// Reads RUN's payload.
    pub fn from_bytes(b: &[u8]) -> Result<RunRequest, LayoutError> {
        need("RUN", b, RUN_HEADER)?;
        Ok(RunRequest {
            quads: le16(b, 0),
            input_stride: le16(b, RUN_INPUT_STRIDE),
            output_stride: le16(b, RUN_OUTPUT_STRIDE),
            inline_inputs: b[RUN_HEADER..].to_vec(),
        })
    }
}

/// RUN's (and RESUME's) answer: the first fault (0: none) or the pause the run stopped at, total
/// cycles, one kill mask per quad.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// Fault code of the first faulting quad (0: none); the run stops there. A pause code
    /// (`microcode::core::fault_code::EMIT`, `ENDPRIM`) means the last quad is paused and RESUME
    /// continues the run.
    pub fault: u8,
    /// Quads completed (a faulting or paused quad included).
    pub quads_run: u16,
    /// Cycles of all quads together (of a paused quad, until its pause), saturating.
    pub cycles: u32,
    /// Kill mask per completed quad (bit L: lane L killed); at most 249 are listed here, the
    /// RESULTS region holds all of them.
    pub kill_masks: Vec<u8>,
}

/// Length of RUN's fixed answer header.
pub const RUN_SUMMARY_HEADER: usize = 7;

impl RunSummary {
    /// Wire layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = vec![self.fault];
        v.extend_from_slice(&self.quads_run.to_le_bytes());
        v.extend_from_slice(&self.cycles.to_le_bytes());
        v.extend_from_slice(&self.kill_masks);
        v
    }
    /// Reads RUN's answer.
    pub fn from_bytes(b: &[u8]) -> Result<RunSummary, LayoutError> {
        need("RUN answer", b, RUN_SUMMARY_HEADER)?;
        Ok(RunSummary {
            fault: b[0],
            quads_run: le16(b, 1),
            cycles: le32(b, 3),
            kill_masks: b[RUN_SUMMARY_HEADER..].to_vec(),
        })
    }
}

/// Length of RENDER's payload: u16 row quads, u16 first quad's x and y (in quads), u16 quads,
/// u8 words per lane, u8 quads per block.
pub const RENDER_BYTES: usize = 10;
/// What RENDER writes into component 0 (x) and 1 (y) of each lane's coordinate input: this
/// plus the pixel's integer coordinate, the bit pattern of the float `2^23 + coordinate` (exact
/// for coordinates below 2^23), so the shader gets the coordinate as a float with one exact
/// subtraction of `2^23` and the device needs no conversion.
pub const RENDER_COORD_BIAS: u32 = 0x4B00_0000;
/// The float whose subtraction turns a coordinate word of RENDER into the coordinate: 2^23.
pub const RENDER_COORD_FLOAT: f32 = 8_388_608.0;
const _: () = assert!(RENDER_COORD_FLOAT.to_bits() == RENDER_COORD_BIAS);
/// RENDER's lane words for a render that sends no block frames: the quads are shaded and
/// only the end frame answers (how fast the board shades, without the serial line's limit).
pub const RENDER_COUNT_ONLY: u8 = 0;
/// The kind byte (after the result byte) of a RENDER block frame.
pub const RENDER_BLOCK: u8 = 0;
/// The kind byte (after the result byte) of RENDER's end frame.
pub const RENDER_END: u8 = 1;
/// Bytes of a RENDER block frame's payload before its records: result byte, kind, u16 index
/// (within the request) of the block's first quad.
pub const RENDER_BLOCK_HEADER: usize = 4;
/// Length of RENDER's end frame payload: result byte, kind, u8 fault, u16 quads, u32 cycles.
pub const RENDER_END_BYTES: usize = 9;

/// RENDER's request: quads `first .. first + quads` in row order of an image `row_quads` quads
/// wide, the first at quad column `x` and row `y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderRequest {
    /// Quads per row of the image (its width / 2).
    pub row_quads: u16,
    /// The first quad's column (in quads, below `row_quads`).
    pub x: u16,
    /// The first quad's row (in quads).
    pub y: u16,
    /// Quads to shade (at least 1).
    pub quads: u16,
    /// Words of the first output entry's register sent per lane: 1 (component x, a packed
    /// RGBA8 pixel) or 4 (the float vector); [`RENDER_COUNT_ONLY`] (0) sends no block frames,
    /// only the end frame (the board's shading speed without the line's).
    pub lane_words: u8,
    /// Quads per block frame (at least 1; the block's payload within [`MAX_PAYLOAD`]).
    pub block_quads: u8,
}

impl RenderRequest {
    /// Bytes of one quad's record in a block: kill mask, then 4 lanes of `lane_words` words.
    pub fn record_bytes(&self) -> usize {
        1 + 16 * usize::from(self.lane_words)
    }
    /// Wire layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(RENDER_BYTES);
        for x in [self.row_quads, self.x, self.y, self.quads] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v.push(self.lane_words);
        v.push(self.block_quads);
        v
    }
    /// Reads RENDER's payload.
    pub fn from_bytes(b: &[u8]) -> Result<RenderRequest, LayoutError> {
        need("RENDER", b, RENDER_BYTES)?;
        Ok(RenderRequest {
            row_quads: le16(b, 0),
            x: le16(b, RENDER_X),
            y: le16(b, RENDER_Y),
            quads: le16(b, RENDER_QUADS),
            lane_words: b[RENDER_LANE_WORDS],
            block_quads: b[RENDER_BLOCK_QUADS],
        })
    }
}

/// RENDER's end frame: the first fault (0: none; a pause code counts as one), quads shaded
/// (the faulting one included) and their cycles (saturating).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderEnd {
    /// The fault code of the first faulting quad (`microcode::core::fault_code`), 0 when every
    /// quad finished; the render stops at it.
    pub fault: u8,
    /// Quads shaded, the faulting one included.
    pub quads: u16,
    /// Core clocks the shaded quads took, saturating at `u32::MAX`.
    pub cycles: u32,
}

impl RenderEnd {
    /// The end frame's payload (result byte and kind included).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = vec![0, RENDER_END, self.fault];
        v.extend_from_slice(&self.quads.to_le_bytes());
        v.extend_from_slice(&self.cycles.to_le_bytes());
        v
    }
    /// Reads an end frame's payload (result byte and kind included).
    pub fn from_bytes(b: &[u8]) -> Result<RenderEnd, LayoutError> {
        need("RENDER end", b, RENDER_END_BYTES)?;
        Ok(RenderEnd {
            fault: b[2],
            quads: le16(b, 3),
            cycles: le32(b, 5),
        })
    }
}

/// WRITE's payload.
pub fn write_payload(region: Region, addr: u32, data: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(WRITE_HEADER + data.len());
    v.push(region as u8);
    v.extend_from_slice(&addr.to_le_bytes());
    v.extend_from_slice(data);
    v
}

/// READ's payload.
pub fn read_payload(region: Region, addr: u32, len: u16) -> Vec<u8> {
    let mut v = Vec::with_capacity(READ_BYTES);
    v.push(region as u8);
    v.extend_from_slice(&addr.to_le_bytes());
    v.extend_from_slice(&len.to_le_bytes());
    v
}

// Byte layouts: where each field sits in a frame and in the payloads the loader's firmware
// reads by address (`hdl::loader_firmware` keeps a received frame's body in its memory), so
// that the host, the device model and the firmware read one set of offsets.

/// Frame delimiter on the wire (SLIP's END): always a frame boundary.
pub const FRAME_END: u8 = 0xC0;
/// Escape byte on the wire (SLIP's ESC): `ESC ESC_END` is a data 0xC0, `ESC ESC_ESC` a 0xDB.
pub const FRAME_ESC: u8 = 0xDB;
/// After [`FRAME_ESC`]: a data byte [`FRAME_END`].
pub const FRAME_ESC_END: u8 = 0xDC;
/// After [`FRAME_ESC`]: a data byte [`FRAME_ESC`].
pub const FRAME_ESC_ESC: u8 = 0xDD;
/// Bytes of a frame's unstuffed header: u16 payload length, command, sequence number. The
/// payload starts here.
pub const HEADER_BYTES: usize = 4;
/// Offset of the header's command byte (the u16 payload length is at 0).
pub const HEADER_CMD: usize = 2;
/// Offset of the header's sequence number.
pub const HEADER_SEQ: usize = 3;
/// Bytes of the CRC-32 that ends a frame's body.
pub const CRC_BYTES: usize = 4;
/// The shortest valid body: a header and a CRC around an empty payload. A receiver drops a
/// shorter segment as a bad frame.
pub const MIN_BODY: usize = HEADER_BYTES + CRC_BYTES;
/// The longest valid body, a [`MAX_PAYLOAD`] payload's: the size of the device's frame buffer.
pub const MAX_BODY: usize = HEADER_BYTES + MAX_PAYLOAD + CRC_BYTES;

/// INFO's u8 protocol version (after the four magic bytes; a reserved byte follows).
pub const INFO_PROTOCOL: usize = 4;
/// INFO's core version, u16 major then u16 minor.
pub const INFO_CORE_VERSION: usize = 6;
/// INFO's u32 ISA hash.
pub const INFO_ISA_HASH: usize = 10;
/// INFO's u32 feature bits.
pub const INFO_FEATURES: usize = 14;
/// INFO's u32 core clock in Hz.
pub const INFO_CLOCK: usize = 18;
/// INFO's u32 current line rate.
pub const INFO_BAUD: usize = 22;
/// INFO's memory sizes: seven u32s, PROGRAM, CONSTANTS, TEXTURES, INPUTS, OUTPUTS, PARAMS and
/// MAPS (the order of [`Limits`]' fields).
pub const INFO_LIMITS: usize = 26;
/// INFO's u16 largest quad count of one RUN.
pub const INFO_MAX_QUADS: usize = INFO_LIMITS + 7 * 4;
/// INFO's u16 largest payload.
pub const INFO_MAX_PAYLOAD: usize = INFO_MAX_QUADS + 2;

/// WRITE's and READ's u32 address, after the u8 region.
pub const REGION_ADDRESS: usize = 1;
/// READ's u16 length, after the region and the address.
pub const READ_LENGTH: usize = 5;
/// RUN's u16 INPUTS bytes per quad (the u16 quad count is at 0).
pub const RUN_INPUT_STRIDE: usize = 2;
/// RUN's u16 OUTPUTS bytes per quad.
pub const RUN_OUTPUT_STRIDE: usize = 4;
/// RENDER's u16 first quad column (the u16 quads per row are at 0).
pub const RENDER_X: usize = 2;
/// RENDER's u16 first quad row.
pub const RENDER_Y: usize = 4;
/// RENDER's u16 quad count.
pub const RENDER_QUADS: usize = 6;
/// RENDER's u8 words per lane.
pub const RENDER_LANE_WORDS: usize = 8;
/// RENDER's u8 quads per block frame.
pub const RENDER_BLOCK_QUADS: usize = 9;
const _: () = assert!(READ_LENGTH + 2 == READ_BYTES && REGION_ADDRESS + 4 == WRITE_HEADER);
const _: () =
    assert!(RUN_OUTPUT_STRIDE + 2 == RUN_HEADER && RENDER_BLOCK_QUADS + 1 == RENDER_BYTES);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_round_trip_and_length() {
        let core = CoreConfig::full();
        let mut config = [0; CONFIG_BYTES];
        config.copy_from_slice(&core.to_bytes());
        let info = Info {
            protocol: 2,
            core_version: (1, 2),
            isa_hash: 0xDEAD_BEEF,
            features: 5,
            clock_hz: 100_000_000,
            baud: 115_200,
            limits: Limits {
                program: 4096,
                constants: 1024,
                textures: 2048,
                inputs: 512,
                outputs: 512,
                params: 256,
                maps: 128,
                max_quads: 8,
                max_payload: 256,
            },
            board: 2,
            cores: 12,
            config,
        };
        let b = info.to_bytes();
        assert_eq!(b.len(), INFO_BYTES);
        assert_eq!(&b[..4], b"TGSL");
        // The offsets the firmware reads INFO's fields at.
        assert_eq!(b[INFO_PROTOCOL], info.protocol);
        assert_eq!(le32(&b, INFO_ISA_HASH), info.isa_hash);
        assert_eq!(le32(&b, INFO_BAUD), info.baud);
        assert_eq!(le32(&b, INFO_LIMITS), info.limits.program);
        assert_eq!(le16(&b, INFO_MAX_PAYLOAD), info.limits.max_payload);
        assert_eq!(Info::from_bytes(&b), Ok(Some(info)));
        assert_eq!(Info::from_bytes(b"NOPE"), Ok(None));
        // The configuration counts only when its CRC is the ISA hash.
        assert_eq!(info.core_config(), None);
        let named = Info {
            isa_hash: core.isa_hash(),
            ..info
        };
        assert_eq!(named.core_config(), Some(core));
        // A version-1 record: board 0, one core, no configuration.
        let old = Info::from_bytes(&b[..INFO_RECORD_BYTES]).unwrap().unwrap();
        assert_eq!((old.board, old.cores, old.core_config()), (0, 1, None));
        assert_eq!(old.limits, info.limits);
        assert!(Info::from_bytes(&b[..INFO_RECORD_BYTES - 1]).is_err());
    }

    #[test]
    fn status_round_trip_and_length() {
        let s = Status {
            state: LoadState::Valid,
            last_nak: 6,
            active_crc: 0x1234_5678,
            staged_bytes: 99,
            quads_run: 3,
            fault: 0,
            cycles: 77,
            bad_frames: 2,
            core: ALL_CORES,
        };
        let b = s.to_bytes();
        assert_eq!(b.len(), STATUS_BYTES);
        assert_eq!(b[13], ALL_CORES);
        assert_eq!(&b[2..6], &[0x78, 0x56, 0x34, 0x12]);
        assert_eq!(Status::from_bytes(&b), Ok(s));
    }

    #[test]
    fn codes_round_trip() {
        for c in 0..=255u8 {
            if let Some(cmd) = Command::from_code(c) {
                assert_eq!(cmd as u8, c);
            }
            if let Some(r) = Reason::from_code(c) {
                assert_eq!(r as u8, c);
            }
            if let Some(r) = Region::from_code(c) {
                assert_eq!(r as u8, c);
            }
        }
        assert_eq!(Command::from_code(0x09), Some(Command::SetBaud));
        assert_eq!(Command::from_code(0x0A), Some(Command::Resume));
        assert_eq!(Command::from_code(0x0B), Some(Command::Render));
        assert_eq!(Command::from_code(0x0C), Some(Command::Core));
        assert_eq!(Command::from_code(0x0D), None);
        assert_eq!(Region::from_code(7), Some(Region::Maps));
        assert_eq!(Region::from_code(8), None);
    }
}
