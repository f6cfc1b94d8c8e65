//! Running an image's quads on the board in TGSI terms: the glue `run --engine board` calls.
//!
//! It lays out TGSI inputs in the image's IMAP order, CONST values in PARAMS for the image's CONST
//! slots, calls [`run_quads`], and gives outputs back in the image's OMAP order.

use crate::host::{pack_registers, run_quads, unpack_registers, Client, HostError};
use crate::image::{ImageFile, Upload};
use crate::port::Transport;
use crate::protocol::LoadState;

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

/// Runs `quads` on the board, whose active image must be `image`. `constant(buffer, index)` gives
/// the value of `CONST[buffer][index]` for the image's CONST slots (the same four words in every lane).
pub fn run_image<T: Transport>(
    client: &mut Client<T>,
    image: &ImageFile,
    quads: &[QuadInputs],
    constant: &dyn Fn(u16, u16) -> [u32; 4],
) -> Result<Vec<BoardQuad>, HostError> {
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
