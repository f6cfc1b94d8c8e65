//! Register files onto the core's memories: TEMP, IN and OUT onto the per-lane register file R
//! (in declaration order; scratch registers follow them), CONST, IMM and IMMX onto the shared
//! constant file K.

use super::{check_limit, CompileError};
use crate::core::image::{ConstSlot, ConstSource, RegMap};
use crate::core::CoreConfig;
use crate::tgsi::{DeclDimension, File, Program, Register};
use std::collections::HashMap;

/// Where a TGSI register lives on the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    R(u8),
    K(u8),
}

pub(crate) struct Alloc {
    /// Registers of R taken by TEMP, IN and OUT; scratch starts here.
    pub fixed_registers: usize,
    r: HashMap<(File, i32), u8>,
    /// (file, buffer, index) -> K slot.
    k: HashMap<(File, i32, i32), u8>,
    pub constants: Vec<ConstSlot>,
    pub inputs: Vec<RegMap>,
    pub outputs: Vec<RegMap>,
}

impl Alloc {
    pub fn new(p: &Program, cfg: &CoreConfig) -> Result<Alloc, CompileError> {
        let mut a = Alloc {
            fixed_registers: 0,
            r: HashMap::new(),
            k: HashMap::new(),
            constants: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        let mut r_needed = 0usize;
        let mut k_needed = 0usize;
        for d in &p.declarations {
            match d.file {
                File::Temporary | File::Input | File::Output => {
                    if d.dimension.is_some() {
                        return Err(CompileError::Program(format!(
                            "2-D declaration of {} is not supported by the core compiler yet",
                            d.file
                        )));
                    }
                    for i in d.first..=d.last {
                        if a.r.contains_key(&(d.file, i)) {
                            continue;
                        }
                        let reg = r_needed;
                        r_needed += 1;
                        a.r.insert((d.file, i), reg.min(255) as u8);
                        let m = RegMap {
                            tgsi: i.clamp(0, i32::from(u16::MAX)) as u16,
                            reg: reg.min(usize::from(u16::MAX)) as u16,
                        };
                        match d.file {
                            File::Input => a.inputs.push(m),
                            File::Output => a.outputs.push(m),
                            _ => {}
                        }
                    }
                }
                File::Constant => {
                    let buffer = match d.dimension {
                        Some(DeclDimension::Index(b)) => b,
                        _ => 0,
                    };
                    for i in d.first..=d.last {
                        if a.k.contains_key(&(File::Constant, buffer, i)) {
                            continue;
                        }
                        let slot = k_needed;
                        k_needed += 1;
                        a.k.insert((File::Constant, buffer, i), slot.min(255) as u8);
                        a.constants.push(ConstSlot {
                            k: slot.min(usize::from(u16::MAX)) as u16,
                            source: ConstSource::Buffer {
                                buffer: buffer.clamp(0, i32::from(u16::MAX)) as u16,
                                index: i.clamp(0, i32::from(u16::MAX)) as u16,
                            },
                        });
                    }
                }
                File::ImmediateArray => {
                    for (n, v) in d.array_data.iter().enumerate() {
                        let slot = k_needed;
                        k_needed += 1;
                        let i = d.first.saturating_add(n as i32);
                        a.k.insert((File::ImmediateArray, 0, i), slot.min(255) as u8);
                        a.constants.push(ConstSlot {
                            k: slot.min(usize::from(u16::MAX)) as u16,
                            source: ConstSource::Data(*v),
                        });
                    }
                }
                _ => {}
            }
        }
        for (n, imm) in p.immediates.iter().enumerate() {
            let slot = k_needed;
            k_needed += 1;
            let mut v = [0u32; 4];
            for (c, b) in imm.values.iter().take(4).enumerate() {
                v[c] = *b;
            }
            a.k.insert((File::Immediate, 0, n as i32), slot.min(255) as u8);
            a.constants.push(ConstSlot {
                k: slot.min(usize::from(u16::MAX)) as u16,
                source: ConstSource::Data(v),
            });
        }
        check_limit(
            "constant file (K vec4: CONST, IMM, IMMX)",
            k_needed,
            usize::from(cfg.constants),
        )?;
        check_limit("constants addressable by an operand", k_needed, 256)?;
        check_limit(
            "registers per lane (R: TEMP, IN, OUT)",
            r_needed,
            usize::from(cfg.registers),
        )?;
        a.fixed_registers = r_needed;
        Ok(a)
    }

    /// The place of a direct register reference; `None` when the file or form is not mapped.
    pub fn place(&self, r: &Register) -> Option<Place> {
        if r.indirect.is_some() {
            return None;
        }
        match r.file {
            File::Temporary | File::Input | File::Output => {
                if r.dimension.is_some() {
                    return None;
                }
                self.r.get(&(r.file, r.index)).map(|&x| Place::R(x))
            }
            File::Constant => {
                let (buffer, index) = match r.dimension {
                    Some(d) if d.indirect.is_none() => (r.index, d.index),
                    Some(_) => return None,
                    None => (0, r.index),
                };
                self.k
                    .get(&(File::Constant, buffer, index))
                    .map(|&x| Place::K(x))
            }
            File::Immediate | File::ImmediateArray => {
                if r.dimension.is_some() {
                    return None;
                }
                self.k.get(&(r.file, 0, r.index)).map(|&x| Place::K(x))
            }
            _ => None,
        }
    }
}
