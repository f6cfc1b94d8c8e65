//! Running an image's quads on the board in TGSI terms: the glue `run --engine board` calls.
//!
//! It lays out TGSI inputs in the image's IMAP order, CONST values in PARAMS for the image's CONST
//! slots, calls [`run_quads`], and gives outputs back in the image's OMAP order.

use crate::host::{pack_registers, run_quads, unpack_registers, Client, HostError, Rendered};
use crate::image::{ImageFile, Upload};
use crate::port::Transport;
use crate::protocol::{
    LoadState, Region, RenderRequest, MAX_PAYLOAD, RENDER_BLOCK_HEADER, WRITE_HEADER,
};

/// Four lanes of one register: `[lane][component]` as bits.
pub type Lanes = [[u32; 4]; 4];

/// One quad's inputs: `(TGSI IN index, value)`; inputs the image reads but not listed here are 0.
pub type QuadInputs = Vec<(u16, Lanes)>;

/// A pause of a geometry program's quad at EMIT or ENDPRIM, in TGSI terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPause {
    /// `microcode::core::fault_code::EMIT` or `ENDPRIM`.
    pub code: u8,
    /// The lanes that executed it (bit L = lane L).
    pub lanes: u8,
    /// At EMIT: `(TGSI OUT index, value)` at the pause in the image's OMAP order (the emitting
    /// lanes' vertex); empty at ENDPRIM.
    pub outputs: Vec<(u16, Lanes)>,
}

/// What one quad produced, in TGSI terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardQuad {
    /// `(TGSI OUT index, value)` in the image's OMAP order.
    pub outputs: Vec<(u16, Lanes)>,
    /// Bit L: lane L killed.
    pub kill_mask: u8,
    /// Core cycles.
    pub cycles: u32,
    /// Fault code (0: none).
    pub fault: u8,
    /// Its pauses at EMIT and ENDPRIM, in order.
    pub pauses: Vec<BoardPause>,
}

/// Uploads `upload` unless STATUS shows it is already the active image; true when it uploaded.
pub fn ensure_loaded<T: Transport>(
    client: &mut Client<T>,
    upload: &Upload,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<bool, HostError> {
    let s = client.status()?;
    if s.state == LoadState::Valid && s.active_crc == upload.crc() {
        return Ok(false);
    }
    client.upload(upload, progress)?;
    Ok(true)
}

/// The PARAMS block of `image`'s CONST slots with the values `constant(buffer, index)` (what a
/// RUN or RENDER writes before it runs; empty when the image reads no PARAMS).
pub fn params_block(image: &ImageFile, constant: &dyn Fn(u16, u16) -> [u32; 4]) -> Vec<u8> {
    let mut params = Vec::new();
    for &(k, buffer, index) in &image.buffer_slots {
        let at = 16 * usize::from(k);
        if params.len() < at + 16 {
            params.resize(at + 16, 0);
        }
        let words = constant(buffer, index);
        for (c, w) in words.iter().enumerate() {
            params[at + 4 * c..at + 4 * c + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    params
}

/// Runs `quads` on the board, whose active image must be `image`. `constant(buffer, index)` gives
/// the value of `CONST[buffer][index]` for the image's CONST slots (the same four words in every lane).
pub fn run_image<T: Transport>(
    client: &mut Client<T>,
    image: &ImageFile,
    quads: &[QuadInputs],
    constant: &dyn Fn(u16, u16) -> [u32; 4],
) -> Result<Vec<BoardQuad>, HostError> {
    let params = params_block(image, constant);
    let blocks: Vec<Vec<u8>> = quads
        .iter()
        .map(|q| {
            let regs: Vec<Lanes> = image
                .inputs
                .iter()
                .map(|m| {
                    q.iter()
                        .rev() // later entries win, as later `--input` flags do
                        .find(|(i, _)| *i == m.tgsi)
                        .map_or([[0; 4]; 4], |(_, v)| *v)
                })
                .collect();
            pack_registers(&regs)
        })
        .collect();
    let stride = 64 * image.outputs.len();
    let results = run_quads(client, image.upload.crc(), &params, &blocks, stride)?;
    let outputs = |bytes: &[u8]| -> Vec<(u16, Lanes)> {
        image
            .outputs
            .iter()
            .zip(unpack_registers(bytes))
            .map(|(m, v)| (m.tgsi, v))
            .collect()
    };
    Ok(results
        .into_iter()
        .map(|r| BoardQuad {
            outputs: outputs(&r.outputs),
            kill_mask: r.kill_mask,
            cycles: r.cycles,
            fault: r.fault,
            pauses: r
                .pauses
                .iter()
                .map(|p| BoardPause {
                    code: p.code,
                    lanes: p.lanes,
                    outputs: outputs(&p.outputs),
                })
                .collect(),
        })
        .collect())
}

/// Quads per RENDER request of [`render_image`]: a long render goes out as several requests, so
/// that the host can report progress between them (each costs one request frame and one end
/// frame, a few dozen bytes against the ~17 bytes of every quad's record), and a host stopped
/// mid-render (Ctrl-C) leaves the device at most one request's rest to stream before it listens
/// again (about 0.2 s at 3 Mbaud), well within a next command's retries.
pub const RENDER_CHUNK_QUADS: usize = 512;

/// The most quads a RENDER block frame can hold with `lane_words` words a lane.
pub fn render_block_quads(lane_words: u8) -> u8 {
    let record = RenderRequest {
        row_quads: 1,
        x: 0,
        y: 0,
        quads: 1,
        lane_words,
        block_quads: 1,
    }
    .record_bytes();
    u8::try_from((MAX_PAYLOAD - RENDER_BLOCK_HEADER) / record).unwrap_or(u8::MAX)
}

/// Writes the PARAMS block of `image`'s CONST slots ([`params_block`]) to the board, whose
/// active image must be `image`: what a RENDER reads its constants from (nothing to write when
/// the image reads no PARAMS).
pub fn write_params<T: Transport>(
    client: &mut Client<T>,
    image: &ImageFile,
    constant: &dyn Fn(u16, u16) -> [u32; 4],
) -> Result<(), HostError> {
    let params = params_block(image, constant);
    if !params.is_empty() {
        let l = client.device_info()?.limits;
        let max_chunk = usize::from(l.max_payload).saturating_sub(WRITE_HEADER);
        client.write_region(Region::Params, 0, &params, max_chunk, &mut |_| {})?;
    }
    Ok(())
}

/// RENDER (PROTOCOL.md section 3.2) of a whole image `row_quads` quads wide and `rows` quads
/// high on the board, whose active image must be `image`: its PARAMS written first (as for
/// [`run_image`]), then the quads in requests of whole rows of about [`RENDER_CHUNK_QUADS`],
/// `progress(rows done, rows)` after each. Stops at the first fault (the records before it are
/// returned, [`Rendered::fault`] says which).
pub fn render_image<T: Transport>(
    client: &mut Client<T>,
    image: &ImageFile,
    constant: &dyn Fn(u16, u16) -> [u32; 4],
    row_quads: u16,
    rows: u16,
    lane_words: u8,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Rendered, HostError> {
    write_params(client, image, constant)?;
    let rows_per_request = (RENDER_CHUNK_QUADS / usize::from(row_quads).max(1))
        .clamp(1, usize::from(u16::MAX / row_quads.max(1)).max(1));
    let mut all = Rendered {
        records: Vec::new(),
        fault: 0,
        cycles: 0,
        requests: 0,
    };
    let mut y = 0u16;
    while y < rows {
        let n = usize::from(rows - y).min(rows_per_request) as u16;
        let got = client.render(&RenderRequest {
            row_quads,
            x: 0,
            y,
            quads: n * row_quads,
            lane_words,
            block_quads: render_block_quads(lane_words),
        })?;
        all.records.extend(got.records);
        all.cycles += got.cycles;
        all.requests += got.requests;
        if got.fault != 0 {
            all.fault = got.fault;
            break;
        }
        y += n;
        progress(usize::from(y), usize::from(rows));
    }
    Ok(all)
}
