//! Texture opcodes through the [`crate::run_io::Sampler`] bound to each unit (`decisions.md` 6).
//!
//! Textures are single-level: TXB's bias (src0.w), TXL's lod (src0.w) and TXD's derivatives are
//! read and have no effect. TXP divides x, y and z by w (correctly rounded float divisions) first.

use super::defs::RunErrorKind;
use super::float;
use super::operand::{fetch, resolve, View};
use super::state::State;
use super::state::Written;
use microcode::tgsi::{Instruction, Opcode, TextureTarget};

/// Executes a texture opcode for one lane.
pub fn execute(
    st: &mut State,
    lane: usize,
    at: usize,
    inst: &Instruction,
) -> Result<Written, RunErrorKind> {
    let sampler_src = if inst.opcode == Opcode::Txd { 3 } else { 1 };
    let samp = inst.src.get(sampler_src).ok_or_else(|| {
        RunErrorKind::Unsupported("texture opcode without a sampler operand".into())
    })?;
    let unit = resolve(st, lane, &samp.reg, 0).index;
    let inputs = st.inputs;
    let sampler = usize::try_from(unit)
        .ok()
        .and_then(|u| inputs.textures.get(u))
        .and_then(Option::as_ref)
        .ok_or(RunErrorKind::MissingTexture { unit })?;
    let coord_src = inst
        .src
        .first()
        .ok_or_else(|| RunErrorKind::Unsupported("texture opcode without coordinates".into()))?;
    let target = inst.texture.unwrap_or(TextureTarget::Unknown);
    let out = match inst.opcode {
        Opcode::Txq => sampler.size(),
        Opcode::Txf => {
            let v = fetch(st, lane, at, coord_src, View::Int, 0)?;
            sampler.fetch(target, v.map(|x| x as i32))
        }
        _ => {
            let mut v = fetch(st, lane, at, coord_src, View::Float, 0)?;
            if inst.opcode == Opcode::Txp {
                for c in 0..3 {
                    v[c] = float::div(v[c], v[3]);
                }
            }
            sampler.sample(target, v.map(float::input))
        }
    };
    Ok(out.map(Some))
}
