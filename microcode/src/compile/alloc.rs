//! Register files onto the core's memories: TEMP, IN and OUT onto the per-lane register file R
//! (in declaration order; scratch registers follow them), CONST, IMM and IMMX onto the shared
//! constant file K.

use super::{check_limit, CompileError};
use crate::core::image::{ConstSlot, ConstSource, RegMap};
use crate::core::CoreConfig;
use crate::tgsi::{DeclDimension, Declaration, File, Processor, Program, Register};

/// A TGSI index or vertex number as the image's 16-bit field, clamped into it.
fn field(i: i32) -> u16 {
    i.clamp(0, i32::from(u16::MAX)) as u16
}

/// One key for TEMPX element `[array][index]` (both are 16-bit token fields).
fn tempx_key(array: i32, index: i32) -> i32 {
    (array << 16) | (index & 0xFFFF)
}

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
    /// Places every declared register, immediate and IMMX element of `p`, in declaration order,
    /// and checks that they fit `cfg`'s register and constant files.
    pub fn new(p: &Program, cfg: &CoreConfig) -> Result<Alloc, CompileError> {
        let mut a = Alloc {
            fixed_registers: 0,
            r: HashMap::new(),
            k: HashMap::new(),
            constants: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        for (index, d) in p.declarations.iter().enumerate() {
            a.declare(p, index, d)?;
        }
        for (n, imm) in p.immediates.iter().enumerate() {
            let mut v = [0u32; 4];
            for (c, b) in imm.values.iter().take(4).enumerate() {
                v[c] = *b;
            }
            a.take_constant((File::Immediate, 0, n as i32), ConstSource::Data(v));
        }
        let k_needed = a.constants.len();
        check_limit(
            "constant file (K vec4: CONST, IMM, IMMX)",
            k_needed,
            usize::from(cfg.constants),
        )?;
        check_limit("constants addressable by an operand", k_needed, 256)?;
        check_limit(
            "registers per lane (R: TEMP, IN, OUT)",
            a.fixed_registers,
            usize::from(cfg.registers),
        )?;
        Ok(a)
    }

    /// Places the registers of declaration `d` (the `index`th of `p`).
    fn declare(&mut self, p: &Program, index: usize, d: &Declaration) -> Result<(), CompileError> {
        match d.file {
            File::Input if p.processor == Processor::Geometry => {
                // Geometry inputs are the same for the four invocations: K slots, one per
                // vertex of the input primitive and declared index; an index's vertices in
                // consecutive slots, for vertex-relative reads `IN[ADDR[a].c + n][i]`.
                for i in d.first..=d.last {
                    for vertex in 0..p.input_vertices() {
                        let source = ConstSource::Geometry {
                            vertex: field(vertex),
                            index: field(i),
                        };
                        self.take_constant((File::Input, vertex, i), source);
                    }
                }
            }
            File::TemporaryArray => {
                // TEMPX[a][first..last]: registers of R, keyed by (array, element).
                let array = match d.dimension {
                    Some(DeclDimension::Index(a)) => a,
                    _ => 0,
                };
                for i in d.first..=d.last {
                    self.take_register((File::TemporaryArray, tempx_key(array, i)));
                }
            }
            File::Temporary | File::Input | File::Output | File::Address | File::Loop => {
                if d.dimension.is_some() {
                    return Err(CompileError::Declaration2D {
                        index,
                        file: d.file,
                    });
                }
                for i in d.first..=d.last {
                    let Some(reg) = self.take_register((d.file, i)) else {
                        continue;
                    };
                    let m = RegMap {
                        tgsi: field(i),
                        reg: reg.min(usize::from(u16::MAX)) as u16,
                    };
                    match d.file {
                        File::Input => self.inputs.push(m),
                        File::Output => self.outputs.push(m),
                        _ => {}
                    }
                }
            }
            File::SystemValue => {
                // Loaded like inputs, through the IN index after the declared ones
                // (`tgsi::system`).
                for i in d.first..=d.last {
                    if let Some(reg) = self.take_register((File::SystemValue, i)) {
                        self.inputs.push(RegMap {
                            tgsi: field(crate::tgsi::system::input_index(p, i)),
                            reg: reg.min(usize::from(u16::MAX)) as u16,
                        });
                    }
                }
            }
            File::Constant => {
                let buffer = match d.dimension {
                    Some(DeclDimension::Index(b)) => b,
                    _ => 0,
                };
                for i in d.first..=d.last {
                    let key = (File::Constant, buffer, i);
                    if !self.k.contains_key(&key) {
                        let source = ConstSource::Buffer {
                            buffer: field(buffer),
                            index: field(i),
                        };
                        self.take_constant(key, source);
                    }
                }
            }
            File::ImmediateArray => {
                for (n, v) in d.array_data.iter().enumerate() {
                    let i = d.first.saturating_add(n as i32);
                    self.take_constant((File::ImmediateArray, 0, i), ConstSource::Data(*v));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The next register of R for `key`, unless `key` has one already (then `None`). Numbers
    /// past the operand field's 255 are kept as 255: the limit check after the declarations
    /// refuses such a program.
    fn take_register(&mut self, key: (File, i32)) -> Option<usize> {
        if self.r.contains_key(&key) {
            return None;
        }
        let reg = self.fixed_registers;
        self.fixed_registers += 1;
        self.r.insert(key, reg.min(255) as u8);
        Some(reg)
    }

    /// The next slot of K for `key` (file, buffer, index), loaded from `source` at run start.
    fn take_constant(&mut self, key: (File, i32, i32), source: ConstSource) {
        let slot = self.constants.len();
        self.k.insert(key, slot.min(255) as u8);
        self.constants.push(ConstSlot {
            k: slot.min(usize::from(u16::MAX)) as u16,
            source,
        });
    }

    /// For relative addressing of `r` (the register as written, its relative bracket aside):
    /// the place of the first slot, the declared first index and the number of slots, when the
    /// range it indexes is one declaration whose slots are consecutive on the core: the file's
    /// only 1-D declaration, or for a 2-D register the declaration of its first bracket.
    pub fn range_of(&self, p: &Program, r: &Register) -> Option<(Place, i32, i32)> {
        if r.dimension.is_none() {
            return self.range(p, r.file);
        }
        if r.file == File::Input && p.processor == Processor::Geometry && r.indirect.is_some() {
            // IN[ADDR + n][i]: the vertices of index i, vertex 0 first.
            let i = r.dimension?.index;
            let vertices = p.input_vertices();
            let first = self.place(&Register {
                file: File::Input,
                index: 0,
                indirect: None,
                dimension: Some(crate::tgsi::Dimension {
                    index: i,
                    indirect: None,
                }),
            })?;
            return Some((first, 0, vertices));
        }
        // FILE[a][...]: the one declaration of array (buffer) `a`, whose elements must sit in
        // consecutive registers or slots.
        let mut decls = p.declarations.iter().filter(|d| {
            d.file == r.file && d.dimension == Some(crate::tgsi::DeclDimension::Index(r.index))
        });
        let d = decls.next()?;
        if decls.next().is_some() {
            return None;
        }
        let element = |i: i32| {
            self.place(&Register {
                file: r.file,
                index: r.index,
                indirect: None,
                dimension: Some(crate::tgsi::Dimension {
                    index: i,
                    indirect: None,
                }),
            })
        };
        let first = element(d.first)?;
        for (n, i) in (d.first..=d.last).enumerate() {
            let consecutive = match (first, element(i)?) {
                (Place::R(a), Place::R(b)) | (Place::K(a), Place::K(b)) => {
                    usize::from(b) == usize::from(a) + n
                }
                _ => false,
            };
            if !consecutive {
                return None;
            }
        }
        Some((first, d.first, d.last - d.first + 1))
    }

    /// The first place, the first declared index and the count of a file with exactly one 1-D
    /// declaration (the immediates: their list), for relative addressing.
    pub fn range(&self, p: &Program, file: File) -> Option<(Place, i32, i32)> {
        if file == File::Immediate {
            // Immediates take consecutive K slots in order; their "declaration" is the list.
            let n = i32::try_from(p.immediates.len()).ok()?;
            let first = self.place(&Register::new(file, 0))?;
            return Some((first, 0, n));
        }
        let mut decls = p
            .declarations
            .iter()
            .filter(|d| d.file == file && d.dimension.is_none());
        let d = decls.next()?;
        if decls.next().is_some() {
            return None;
        }
        let first = self.place(&Register::new(file, d.first))?;
        Some((first, d.first, d.last - d.first + 1))
    }

    /// The K slot of descriptor `part` of sampler `unit` (`arith::texel::descriptors`), added on
    /// first use; the host fills it from the bound texture.
    pub fn texture(&mut self, unit: u16, part: u16) -> u8 {
        let source = ConstSource::Texture { unit, part };
        if let Some(c) = self.constants.iter().find(|c| c.source == source) {
            return c.k.min(255) as u8;
        }
        let k = self.constants.len();
        self.constants.push(ConstSlot {
            k: k.min(usize::from(u16::MAX)) as u16,
            source,
        });
        k.min(255) as u8
    }

    /// A K slot holding `v`, added when no slot holds it yet (compiler constants: integer masks,
    /// shift counts, divisors). The K limit is checked again at the end of compilation.
    pub fn data(&mut self, v: [u32; 4]) -> u8 {
        if let Some(c) = self
            .constants
            .iter()
            .find(|c| c.source == ConstSource::Data(v))
        {
            return c.k.min(255) as u8;
        }
        let k = self.constants.len();
        self.constants.push(ConstSlot {
            k: k.min(usize::from(u16::MAX)) as u16,
            source: ConstSource::Data(v),
        });
        k.min(255) as u8
    }

    /// Appends a K slot holding `v` (no sharing with an equal slot: the binary64 library's
    /// constant pool must be consecutive).
    pub fn push_data(&mut self, v: [u32; 4]) {
        let k = self.constants.len();
        self.constants.push(ConstSlot {
            k: k.min(usize::from(u16::MAX)) as u16,
            source: ConstSource::Data(v),
        });
    }

    /// The place of a direct register reference; `None` when the file or form is not mapped.
    pub fn place(&self, r: &Register) -> Option<Place> {
        if r.indirect.is_some() {
            return None;
        }
        match r.file {
            File::TemporaryArray => {
                let d = r.dimension?;
                if d.indirect.is_some() {
                    return None;
                }
                self.r
                    .get(&(File::TemporaryArray, tempx_key(r.index, d.index)))
                    .map(|&x| Place::R(x))
            }
            File::Input if r.dimension.is_some() => {
                let d = r.dimension?;
                if d.indirect.is_some() {
                    return None;
                }
                self.k
                    .get(&(File::Input, r.index, d.index))
                    .map(|&x| Place::K(x))
            }
            File::Temporary
            | File::Input
            | File::Output
            | File::Address
            | File::Loop
            | File::SystemValue => {
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
