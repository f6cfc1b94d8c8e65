//! Frames on the wire: SLIP-style delimiters, a fixed header and a CRC-32.
//!
//! On the wire a frame is `END body END`, where `body` is byte-stuffed: `END` (0xC0) becomes
//! `ESC ESC_END` and `ESC` (0xDB) becomes `ESC ESC_ESC`. The unstuffed body is
//! `len (u16 LE) | cmd | seq | payload (len bytes) | crc32 (u32 LE)` with the CRC-32 (IEEE, as
//! `crc32fast`) over everything before it. `END` is always a frame boundary, even after `ESC`, so
//! garbage can never swallow the start of a real frame: the receiver resynchronises on the next `END`
//! without backtracking, as a small hardware state machine does. See `PROTOCOL.md`.

use thiserror::Error;

/// Frame delimiter.
pub use microcode::protocol::FRAME_END as END;
/// Escape byte.
pub use microcode::protocol::FRAME_ESC as ESC;
/// `ESC ESC_END` stands for a data byte 0xC0.
pub use microcode::protocol::FRAME_ESC_END as ESC_END;
/// `ESC ESC_ESC` stands for a data byte 0xDB.
pub use microcode::protocol::FRAME_ESC_ESC as ESC_ESC;
/// The frame layout, shared with the loader's firmware: the largest payload, the header's size
/// and fields, the CRC's size, the shortest and longest bodies.
pub use microcode::protocol::{
    CRC_BYTES, HEADER_BYTES, HEADER_CMD, HEADER_SEQ, MAX_BODY, MAX_PAYLOAD, MIN_BODY,
};

/// One decoded frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Command (requests) or command with bit 7 set (answers).
    pub cmd: u8,
    /// Sequence number chosen by the host and echoed by the device.
    pub seq: u8,
    /// At most [`MAX_PAYLOAD`] bytes.
    pub payload: Vec<u8>,
}

/// A frame that cannot be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EncodeError {
    /// The payload does not fit one frame.
    #[error("payload of {len} bytes exceeds the maximum of {MAX_PAYLOAD}")]
    PayloadTooLong {
        /// Payload length asked for.
        len: usize,
    },
}

/// Why a received segment between two delimiters was dropped. `at` is the number of body bytes
/// (unstuffed) received when the problem was found.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FrameError {
    /// Fewer bytes than a header and a CRC.
    #[error("frame of {len} bytes is shorter than the {MIN_BODY} bytes of header and CRC")]
    TooShort {
        /// Body bytes received.
        len: usize,
    },
    /// More bytes than the largest frame.
    #[error("frame longer than {MAX_BODY} bytes (dropped at byte {at})")]
    TooLong {
        /// Body bytes received when the limit was passed.
        at: usize,
    },
    /// The length field disagrees with the bytes received.
    #[error("length field says {declared} payload bytes, {actual} received")]
    LengthMismatch {
        /// Payload length in the header.
        declared: usize,
        /// Payload bytes actually received.
        actual: usize,
    },
    /// `ESC` followed by something other than `ESC_END`/`ESC_ESC`.
    #[error("bad escape sequence 0xDB 0x{byte:02X} at body byte {at}")]
    BadEscape {
        /// The byte after `ESC`.
        byte: u8,
        /// Body position.
        at: usize,
    },
    /// The CRC does not match.
    #[error("CRC mismatch: frame says {stored:08x}, computed {computed:08x}")]
    BadCrc {
        /// CRC in the frame.
        stored: u32,
        /// CRC of the bytes received.
        computed: u32,
    },
    /// A frame was cut off by the inter-byte timeout.
    #[error("frame cut off by the inter-byte timeout after {at} bytes")]
    Timeout {
        /// Body bytes received.
        at: usize,
    },
}

/// CRC-32 (IEEE) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

fn push_stuffed(out: &mut Vec<u8>, byte: u8) {
    match byte {
        END => out.extend_from_slice(&[ESC, ESC_END]),
        ESC => out.extend_from_slice(&[ESC, ESC_ESC]),
        b => out.push(b),
    }
}

/// The wire bytes of a frame, both delimiters included.
pub fn encode(frame: &Frame) -> Result<Vec<u8>, EncodeError> {
    let len = frame.payload.len();
    if len > MAX_PAYLOAD {
        return Err(EncodeError::PayloadTooLong { len });
    }
    let mut body = Vec::with_capacity(HEADER_BYTES + len + CRC_BYTES);
    // len <= MAX_PAYLOAD, so it fits 16 bits.
    body.extend_from_slice(&(len as u16).to_le_bytes());
    body.push(frame.cmd);
    body.push(frame.seq);
    body.extend_from_slice(&frame.payload);
    let crc = crc32(&body);
    body.extend_from_slice(&crc.to_le_bytes());
    let mut out = Vec::with_capacity(body.len() + body.len() / 32 + 2);
    out.push(END);
    for &b in &body {
        push_stuffed(&mut out, b);
    }
    out.push(END);
    Ok(out)
}

/// A streaming decoder: feed it bytes, it yields frames and the reasons segments were dropped.
///
/// It keeps no more than one body ([`MAX_BODY`] bytes) and never looks back at dropped bytes.
#[derive(Debug, Default)]
pub struct Decoder {
    body: Vec<u8>,
    /// Bytes (unstuffed) seen in the current segment, also those not stored after an overflow.
    count: usize,
    escaped: bool,
    error: Option<FrameError>,
}

impl Decoder {
    /// A decoder waiting for a frame.
    pub fn new() -> Self {
        Self::default()
    }

    /// True while part of a frame has been received (used for the inter-byte timeout).
    pub fn in_frame(&self) -> bool {
        self.count > 0 || self.escaped
    }

    /// Drops a partly received frame (the inter-byte timeout expired); reports it if there was one.
    pub fn timeout(&mut self) -> Option<FrameError> {
        let had = self.in_frame();
        let at = self.count;
        self.clear();
        had.then_some(FrameError::Timeout { at })
    }

    fn clear(&mut self) {
        self.body.clear();
        self.count = 0;
        self.escaped = false;
        self.error = None;
    }

    fn store(&mut self, byte: u8) {
        if self.count < MAX_BODY {
            self.body.push(byte);
        } else if self.error.is_none() {
            self.error = Some(FrameError::TooLong { at: self.count });
        }
        self.count += 1;
    }

    /// Feeds one byte; returns a frame or a drop reason when a delimiter closes a segment.
    pub fn push(&mut self, byte: u8) -> Option<Result<Frame, FrameError>> {
        if byte == END {
            if !self.in_frame() {
                return None;
            }
            let result = match self.error.take() {
                Some(e) => Err(e),
                None if self.escaped => Err(FrameError::BadEscape {
                    byte: END,
                    at: self.count,
                }),
                None => parse_body(&self.body),
            };
            self.clear();
            return Some(result);
        }
        if self.escaped {
            self.escaped = false;
            let data = match byte {
                ESC_END => END,
                ESC_ESC => ESC,
                other => {
                    if self.error.is_none() {
                        self.error = Some(FrameError::BadEscape {
                            byte: other,
                            at: self.count,
                        });
                    }
                    other
                }
            };
            self.store(data);
        } else if byte == ESC {
            self.escaped = true;
        } else {
            self.store(byte);
        }
        None
    }

    /// Feeds many bytes, collecting everything they complete.
    pub fn push_all(&mut self, bytes: &[u8]) -> Vec<Result<Frame, FrameError>> {
        bytes.iter().filter_map(|&b| self.push(b)).collect()
    }
}

fn parse_body(body: &[u8]) -> Result<Frame, FrameError> {
    if body.len() < MIN_BODY {
        return Err(FrameError::TooShort { len: body.len() });
    }
    let declared = usize::from(u16::from_le_bytes([body[0], body[1]]));
    let actual = body.len() - HEADER_BYTES - CRC_BYTES;
    if declared != actual {
        return Err(FrameError::LengthMismatch { declared, actual });
    }
    let split = body.len() - CRC_BYTES;
    let (data, tail) = body.split_at(split);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let computed = crc32(data);
    if stored != computed {
        return Err(FrameError::BadCrc { stored, computed });
    }
    Ok(Frame {
        cmd: body[HEADER_CMD],
        seq: body[HEADER_SEQ],
        payload: data[HEADER_BYTES..].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_wire_bytes() {
        // Body 01 00 04 07 C0 then CRC-32 of those five bytes; the C0 in the payload is stuffed.
        let f = Frame {
            cmd: 4,
            seq: 7,
            payload: vec![0xC0],
        };
        let wire = encode(&f).unwrap();
        let crc = crc32fast::hash(&[1, 0, 4, 7, 0xC0]).to_le_bytes();
        let mut expect = vec![END, 1, 0, 4, 7, ESC, ESC_END];
        for b in crc {
            match b {
                END => expect.extend_from_slice(&[ESC, ESC_END]),
                ESC => expect.extend_from_slice(&[ESC, ESC_ESC]),
                b => expect.push(b),
            }
        }
        expect.push(END);
        assert_eq!(wire, expect);
        assert_eq!(Decoder::new().push_all(&wire), vec![Ok(f)]);
    }

    #[test]
    fn check_value_of_the_crc() {
        // The standard CRC-32 check value.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn bad_crc_then_good_frame() {
        let f = Frame {
            cmd: 2,
            seq: 1,
            payload: vec![],
        };
        let mut wire = encode(&f).unwrap();
        wire[3] ^= 0x01; // the command byte
        wire.extend(encode(&f).unwrap());
        let got = Decoder::new().push_all(&wire);
        assert!(matches!(got[0], Err(FrameError::BadCrc { .. })));
        assert_eq!(got[1], Ok(f));
    }

    #[test]
    fn oversized_payload_is_refused() {
        let f = Frame {
            cmd: 1,
            seq: 0,
            payload: vec![0; MAX_PAYLOAD + 1],
        };
        assert_eq!(
            encode(&f),
            Err(EncodeError::PayloadTooLong {
                len: MAX_PAYLOAD + 1
            })
        );
    }

    #[test]
    fn endless_segment_is_dropped_as_too_long() {
        let mut d = Decoder::new();
        let mut got = d.push_all(&vec![0x11; MAX_BODY + 10]);
        got.extend(d.push(END));
        assert_eq!(got, vec![Err(FrameError::TooLong { at: MAX_BODY })]);
    }

    #[test]
    fn timeout_drops_partial_frame() {
        let f = Frame {
            cmd: 3,
            seq: 9,
            payload: vec![1, 2, 3],
        };
        let wire = encode(&f).unwrap();
        let mut d = Decoder::new();
        assert!(d.push_all(&wire[..5]).is_empty());
        assert_eq!(d.timeout(), Some(FrameError::Timeout { at: 4 }));
        // The rest of the cut frame is a bad segment; the next frame decodes.
        let mut rest = wire[5..].to_vec();
        rest.extend(&wire);
        let got = d.push_all(&rest);
        assert_eq!(got.len(), 2);
        assert!(got[0].is_err());
        assert_eq!(got[1], Ok(f));
    }
}
