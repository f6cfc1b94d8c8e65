//! Token words -> program, following the traversal rules of the 004 document.

use super::layout::*;
use super::{DecodeError, DecodeWarning, Decoded};
use crate::tgsi::ir::*;
use crate::tgsi::opcode::Opcode;

/// Decodes a token stream.
///
/// Unknown sized tokens and unknown extension tokens are skipped with a warning; a major version
/// other than 1 is refused; a minor version above 2 loads with a warning and
/// [`Program::executable`] false. Every item gets [`Loc::Token`] with the offset of its first word.
/// A DECLARE_MASK declaration becomes one [`Declaration`] per run of consecutive set bits.
pub fn decode(words: &[u32]) -> Result<Decoded, DecodeError> {
    let mut d = Decoder {
        words,
        pos: 0,
        limit: words.len(),
        program: Program::new(Processor::Fragment),
        warnings: Vec::new(),
    };
    let minor = d.preamble()?;
    Ok(Decoded {
        program: d.program,
        minor_version: minor,
        warnings: d.warnings,
    })
}

struct Decoder<'a> {
    words: &'a [u32],
    /// Next word to read.
    pos: usize,
    /// Reads at or past this offset fail (end of the body or of the current sized token).
    limit: usize,
    program: Program,
    warnings: Vec<DecodeWarning>,
}

fn invalid(offset: usize, expected: &str, found: u32) -> DecodeError {
    DecodeError::Invalid {
        offset: offset as u32,
        expected: expected.to_string(),
        found,
    }
}

fn unsupported(offset: usize, what: &str) -> DecodeError {
    DecodeError::Unsupported {
        offset: offset as u32,
        what: what.to_string(),
    }
}

fn loc(offset: usize) -> Loc {
    Loc::Token {
        offset: offset as u32,
    }
}

impl Decoder<'_> {
    fn warn(&mut self, offset: usize, message: String) {
        self.warnings.push(DecodeWarning {
            offset: offset as u32,
            message,
        });
    }

    /// The next word and its offset.
    fn next(&mut self, expected: &str) -> Result<(usize, u32), DecodeError> {
        match self.words.get(self.pos) {
            Some(&w) if self.pos < self.limit => {
                self.pos += 1;
                Ok((self.pos - 1, w))
            }
            _ => Err(DecodeError::Truncated {
                offset: self.pos as u32,
                expected: expected.to_string(),
            }),
        }
    }

    /// VERSION, HEADER, PROCESSOR, then the body. Returns the minor version.
    fn preamble(&mut self) -> Result<u8, DecodeError> {
        let (_, version) = self.next("a VERSION token")?;
        let (major, minor) = (VERSION_MAJOR.get(version), VERSION_MINOR.get(version));
        if major != MAJOR {
            return Err(DecodeError::Version {
                offset: 0,
                major,
                minor,
            });
        }
        if VERSION_PADDING.get(version) != 0 {
            self.warn(0, "VERSION padding bits are not 0".into());
        }
        if minor > MINOR_V12 {
            self.program.executable = false;
            self.warn(
                0,
                format!("minor version {minor} is newer than 2: loaded, but not executable"),
            );
        }
        let (_, header) = self.next("a HEADER token")?;
        let header_size = HEADER_HEADER_SIZE.get(header) as usize;
        let body_size = HEADER_BODY_SIZE.get(header) as usize;
        if header_size < 2 {
            return Err(invalid(
                1,
                "a HeaderSize of at least 2 (a PROCESSOR token)",
                header,
            ));
        }
        let (_, proc_word) = self.next("a PROCESSOR token")?;
        self.program.processor = match PROCESSOR.get(proc_word) {
            0 => Processor::Fragment,
            1 => Processor::Vertex,
            2 => Processor::Geometry,
            _ => return Err(invalid(2, "a processor (0-2)", proc_word)),
        };
        if header_size > 2 {
            self.warn(1, format!("{} extra header words skipped", header_size - 2));
        }
        let body_start = 1 + header_size;
        let body_end = body_start + body_size;
        if body_end > self.words.len() {
            return Err(DecodeError::Truncated {
                offset: self.words.len() as u32,
                expected: format!("{body_size} body words (HEADER BodySize)"),
            });
        }
        if body_end < self.words.len() {
            let extra = self.words.len() - body_end;
            self.warn(body_end, format!("{extra} words after the body ignored"));
        }
        self.body(body_start, body_end)?;
        Ok(minor as u8)
    }

    fn body(&mut self, start: usize, end: usize) -> Result<(), DecodeError> {
        let mut pos = start;
        while pos < end {
            let t = self.words[pos];
            let size = SIZE.get(t) as usize;
            if size == 0 {
                return Err(invalid(pos, "a sized token with Size of at least 1", t));
            }
            if pos + size > end {
                return Err(DecodeError::Truncated {
                    offset: end as u32,
                    expected: format!("the rest of the {size}-word token at word {pos}"),
                });
            }
            let kind = match TYPE.get(t) {
                TOKEN_DECLARATION => "declaration",
                TOKEN_IMMEDIATE => "immediate",
                TOKEN_PROPERTY => "property",
                TOKEN_INSTRUCTION => "instruction",
                ty => {
                    self.warn(
                        pos,
                        format!("unknown token type {ty} ({size} words) skipped"),
                    );
                    pos += size;
                    continue;
                }
            };
            // Instructions are read by their structure and then checked against Size; the other
            // tokens are read within their Size.
            self.pos = pos + 1;
            self.limit = if kind == "instruction" {
                end
            } else {
                pos + size
            };
            let too_short = |e: DecodeError| match e {
                DecodeError::Truncated { expected, .. } => DecodeError::TooShort {
                    offset: pos as u32,
                    kind,
                    size: size as u32,
                    expected,
                },
                e => e,
            };
            match kind {
                "declaration" => self.declaration(pos, t).map_err(too_short)?,
                "immediate" => self.immediate(pos, t).map_err(too_short)?,
                "property" => self.property(pos, t).map_err(too_short)?,
                _ => {
                    self.instruction(pos, t).map_err(too_short)?;
                    let used = self.pos - pos;
                    if used != size {
                        return Err(DecodeError::SizeMismatch {
                            offset: pos as u32,
                            size: size as u32,
                            used: used as u32,
                        });
                    }
                }
            }
            pos += size;
        }
        Ok(())
    }

    /// Skips an extension chain that has no known extension types, with a warning per token.
    fn skip_chain(&mut self, head: u32, what: &str) -> Result<(), DecodeError> {
        let mut more = head & EXTENDED != 0;
        while more {
            let (off, w) = self.next(&format!("a {what} extension token"))?;
            more = w & EXTENDED != 0;
            self.warn(
                off,
                format!("unknown {what} extension type {} skipped", TYPE.get(w)),
            );
        }
        Ok(())
    }

    /// The words left in the current sized token.
    fn rest(&mut self) -> Vec<u32> {
        let r = self.words[self.pos..self.limit].to_vec();
        self.pos = self.limit;
        r
    }

    fn declaration(&mut self, pos: usize, t: u32) -> Result<(), DecodeError> {
        self.skip_chain(t, "DECLARATION")?;
        let file = file(pos, DECL_FILE.get(t), t)?;
        let ranges = match DECL_DECLARE.get(t) {
            DECLARE_RANGE => {
                let (_, w) = self.next("a DECLARATION_RANGE token")?;
                vec![(RANGE_FIRST.get_signed(w), RANGE_LAST.get_signed(w))]
            }
            DECLARE_MASK => {
                let (_, w) = self.next("a DECLARATION_MASK token")?;
                mask_runs(w)
            }
            _ => return Err(invalid(pos, "a Declare value (0 RANGE, 1 MASK)", t)),
        };
        let interpolate = if DECL_INTERPOLATE.get(t) != 0 {
            let (off, w) = self.next("a DECLARATION_INTERPOLATION token")?;
            Some(match INTERPOLATION.get(w) {
                0 => Interpolate::Constant,
                1 => Interpolate::Linear,
                2 => Interpolate::Perspective,
                _ => return Err(invalid(off, "an interpolation mode (0-2)", w)),
            })
        } else {
            None
        };
        let dimension = if DECL_DIMENSION.get(t) != 0 {
            let (_, w) = self.next("a declaration DIMENSION token")?;
            Some(if DECL_DIM_EMPTY.get(w) != 0 {
                DeclDimension::Empty
            } else {
                DeclDimension::Index(DECL_DIM_INDEX.get_signed(w))
            })
        } else {
            None
        };
        let semantic = if DECL_SEMANTIC.get(t) != 0 {
            let (off, w) = self.next("a SEMANTIC token")?;
            let name = SemanticName::from_number(SEMANTIC_NAME.get(w))
                .ok_or_else(|| invalid(off, "a semantic name (0-11)", w))?;
            Some(Semantic {
                name,
                index: SEMANTIC_INDEX.get(w),
            })
        } else {
            None
        };
        let usage = DECL_USAGE_MASK.get(t) as u8;
        let data_at = self.pos;
        let rest = self.rest();
        let mut array_data = Vec::new();
        if file == File::ImmediateArray {
            if !rest.len().is_multiple_of(4) {
                return Err(invalid(
                    data_at,
                    "IMMX data in whole elements of 4 words",
                    rest.len() as u32,
                ));
            }
            if ranges.len() > 1 && !rest.is_empty() {
                return Err(unsupported(pos, "IMMX data on a DECLARE_MASK declaration"));
            }
            array_data = rest
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect();
        } else if !rest.is_empty() {
            self.warn(
                data_at,
                format!("{} unknown declaration words skipped", rest.len()),
            );
        }
        if ranges.is_empty() {
            self.warn(pos, "DECLARE_MASK with no bit set declares nothing".into());
        }
        for (first, last) in ranges {
            self.program.declarations.push(Declaration {
                file,
                dimension,
                first,
                last,
                usage_mask: if usage == 0 { 0xF } else { usage },
                semantic,
                interpolate,
                array_data: array_data.clone(),
                loc: loc(pos),
            });
        }
        Ok(())
    }

    fn immediate(&mut self, pos: usize, t: u32) -> Result<(), DecodeError> {
        self.skip_chain(t, "IMMEDIATE")?;
        let ty = match IMM_DATA_TYPE.get(t) {
            0 => ImmType::Float32,
            1 => ImmType::Uint32,
            2 => ImmType::Int32,
            _ => return Err(invalid(pos, "an immediate DataType (0-2)", t)),
        };
        let values = self.rest();
        self.program.immediates.push(Immediate {
            ty,
            values,
            loc: loc(pos),
        });
        Ok(())
    }

    fn property(&mut self, pos: usize, t: u32) -> Result<(), DecodeError> {
        self.skip_chain(t, "PROPERTY")?;
        let name = PropertyName::ALL
            .get(PROPERTY_NAME.get(t) as usize)
            .copied()
            .ok_or_else(|| invalid(pos, "a property name (0-4)", t))?;
        let values = self.rest();
        self.program.properties.push(Property {
            name,
            values,
            loc: loc(pos),
        });
        Ok(())
    }

    fn duplicate(&mut self, seen: &mut bool, off: usize, what: String) -> bool {
        if *seen {
            let instruction = self.program.instructions.len();
            self.program.duplicate_extensions.push(DuplicateExtension {
                instruction,
                what,
                loc: loc(off),
            });
            return true;
        }
        *seen = true;
        false
    }

    fn instruction(&mut self, pos: usize, t: u32) -> Result<(), DecodeError> {
        let number = INST_OPCODE.get(t);
        let opcode =
            Opcode::from_number(number as u8).ok_or_else(|| invalid(pos, "an opcode number", t))?;
        let mut inst = Instruction::new(opcode);
        inst.loc = loc(pos);
        inst.saturate = match INST_SATURATE.get(t) {
            0 => Saturate::None,
            1 => Saturate::ZeroOne,
            2 => Saturate::MinusPlusOne,
            _ => return Err(invalid(pos, "a saturate mode (0-2)", t)),
        };
        let mut seen = [false; 3];
        let mut more = t & EXTENDED != 0;
        while more {
            let (off, w) = self.next("an instruction extension token")?;
            more = w & EXTENDED != 0;
            match TYPE.get(w) {
                INST_EXT_NV => {
                    let nv = nv(off, w)?;
                    if !self.duplicate(&mut seen[0], off, "NV".into()) {
                        (inst.precision, inst.cond_update, inst.cond_flow) = nv;
                    }
                }
                INST_EXT_LABEL => {
                    // Target = TRUE is a label declaration: accepted and ignored (decisions.md 5).
                    let label = (LABEL_TARGET.get(w) == 0).then(|| LABEL_LABEL.get(w));
                    if !self.duplicate(&mut seen[1], off, "LABEL".into()) {
                        inst.label = label;
                    }
                }
                INST_EXT_TEXTURE => {
                    let target = TextureTarget::from_number(TEXTURE_TARGET.get(w))
                        .ok_or_else(|| invalid(off, "a texture target (0-8)", w))?;
                    if !self.duplicate(&mut seen[2], off, "TEXTURE".into()) {
                        inst.texture = Some(target);
                    }
                }
                ty => self.warn(
                    off,
                    format!("unknown instruction extension type {ty} skipped"),
                ),
            }
        }
        for k in 0..INST_NUM_DST.get(t) as usize {
            let d = self.dst_operand(k)?;
            inst.dst.push(d);
        }
        for k in 0..INST_NUM_SRC.get(t) as usize {
            let s = self.src_operand(k)?;
            inst.src.push(s);
        }
        self.program.instructions.push(inst);
        Ok(())
    }

    fn dst_operand(&mut self, k: usize) -> Result<DstOperand, DecodeError> {
        let (off, w) = self.next("a DST_REGISTER token")?;
        let file = file(off, DST_FILE.get(w), w)?;
        let mut d = DstOperand::new(Register::new(file, DST_INDEX.get_signed(w)));
        d.write_mask = DST_WRITE_MASK.get(w) as u8;
        let mut seen = [false; 2];
        let mut more = w & EXTENDED != 0;
        while more {
            let (off, e) = self.next("a DST_REGISTER extension token")?;
            more = e & EXTENDED != 0;
            match TYPE.get(e) {
                DST_EXT_CONDCODE => {
                    let mask = cond_mask(off, CC_MASK.get(e), e)?;
                    let test = CondTest {
                        mask,
                        index: CC_SRC_INDEX.get(e) as u8,
                        swizzle: get_swizzle(CC_SWIZZLE, e),
                    };
                    if !self.duplicate(&mut seen[0], off, format!("dst {k} CONDCODE")) {
                        d.cond = Some(test);
                    }
                }
                DST_EXT_MODULATE => {
                    let m = Modulate::from_number(MODULATE.get(e))
                        .ok_or_else(|| invalid(off, "a modulate mode (0-6)", e))?;
                    if !self.duplicate(&mut seen[1], off, format!("dst {k} MODULATE")) {
                        d.modulate = m;
                    }
                }
                ty => self.warn(
                    off,
                    format!("unknown DST_REGISTER extension type {ty} skipped"),
                ),
            }
        }
        self.register_tail(
            &mut d.reg,
            DST_INDIRECT.get(w) != 0,
            DST_DIMENSION.get(w) != 0,
        )?;
        Ok(d)
    }

    fn src_operand(&mut self, k: usize) -> Result<SrcOperand, DecodeError> {
        let (off, w) = self.next("a SRC_REGISTER token")?;
        let file = file(off, SRC_FILE.get(w), w)?;
        let mut s = SrcOperand::new(Register::new(file, SRC_INDEX.get_signed(w)));
        s.swizzle = get_swizzle(SRC_SWIZZLE, w);
        s.negate = SRC_NEGATE.get(w) != 0;
        let mut seen = [false; 2];
        let mut more = w & EXTENDED != 0;
        while more {
            let (off, e) = self.next("a SRC_REGISTER extension token")?;
            more = e & EXTENDED != 0;
            match TYPE.get(e) {
                SRC_EXT_SWZ => {
                    let sel = |lo: u32| {
                        ExtSel::from_number(Field { lo, width: 4 }.get(e))
                            .ok_or_else(|| invalid(off, "an extended swizzle selector (0-5)", e))
                    };
                    let mut x = ExtSwizzle {
                        divide: sel(SWZ_DIVIDE.lo)?,
                        ..ExtSwizzle::default()
                    };
                    for c in 0..4 {
                        x.select[c] = sel(nth(SWZ_SELECT, 4, c).lo)?;
                        x.negate[c] = nth(SWZ_NEGATE, 1, c).get(e) != 0;
                    }
                    if !self.duplicate(&mut seen[0], off, format!("src {k} EXT_SWZ")) {
                        s.ext_swizzle = Some(x);
                    }
                }
                SRC_EXT_MOD => {
                    let m = ExtMod {
                        complement: MOD_COMPLEMENT.get(e) != 0,
                        bias: MOD_BIAS.get(e) != 0,
                        scale2x: MOD_SCALE2X.get(e) != 0,
                        absolute: MOD_ABSOLUTE.get(e) != 0,
                        negate: MOD_NEGATE.get(e) != 0,
                    };
                    if !self.duplicate(&mut seen[1], off, format!("src {k} EXT_MOD")) {
                        s.ext_mod = m;
                    }
                }
                ty => self.warn(
                    off,
                    format!("unknown SRC_REGISTER extension type {ty} skipped"),
                ),
            }
        }
        self.register_tail(
            &mut s.reg,
            SRC_INDIRECT.get(w) != 0,
            SRC_DIMENSION.get(w) != 0,
        )?;
        Ok(s)
    }

    /// The indirect address register, then the DIMENSION token and its address register.
    fn register_tail(
        &mut self,
        reg: &mut Register,
        indirect: bool,
        dimension: bool,
    ) -> Result<(), DecodeError> {
        if indirect {
            reg.indirect = Some(self.address()?);
        }
        if dimension {
            let (off, w) = self.next("a DIMENSION token")?;
            if DIM_DIMENSION.get(w) != 0 {
                return Err(unsupported(off, "a chained DIMENSION token (3-D operand)"));
            }
            self.skip_chain(w, "DIMENSION")?;
            let indirect = if DIM_INDIRECT.get(w) != 0 {
                Some(self.address()?)
            } else {
                None
            };
            reg.dimension = Some(Dimension {
                index: DIM_INDEX.get_signed(w),
                indirect,
            });
        }
        Ok(())
    }

    /// The SRC_REGISTER of an indirect operand's address register; its SwizzleX is the component.
    fn address(&mut self) -> Result<Indirect, DecodeError> {
        let (off, w) = self.next("the address SRC_REGISTER of an indirect operand")?;
        if SRC_INDIRECT.get(w) != 0 || SRC_DIMENSION.get(w) != 0 {
            return Err(unsupported(
                off,
                "an indirect or 2-D address register (nested indexing)",
            ));
        }
        if w & EXTENDED != 0 {
            return Err(unsupported(
                off,
                "an extension token on an address register",
            ));
        }
        Ok(Indirect {
            file: file(off, SRC_FILE.get(w), w)?,
            index: SRC_INDEX.get_signed(w),
            component: get_swizzle(SRC_SWIZZLE, w)[0],
        })
    }
}

fn file(offset: usize, n: u32, word: u32) -> Result<File, DecodeError> {
    File::from_number(n).ok_or_else(|| invalid(offset, "a register file (0-12)", word))
}

fn cond_mask(offset: usize, n: u32, word: u32) -> Result<CondMask, DecodeError> {
    CondMask::from_number(n).ok_or_else(|| invalid(offset, "a condition mask (0-7)", word))
}

type NvFields = (Precision, Option<u8>, Option<CondTest>);

/// The fields of an INSTRUCTION_EXT_NV token.
fn nv(off: usize, w: u32) -> Result<NvFields, DecodeError> {
    let precision = match NV_PRECISION.get(w) {
        0 => Precision::Default,
        1 => Precision::Float32,
        2 => Precision::Float16,
        3 => Precision::Fixed12,
        _ => return Err(invalid(off, "a precision (0-3)", w)),
    };
    let mask = cond_mask(off, NV_COND_MASK.get(w), w)?;
    let update = (NV_COND_DST_UPDATE.get(w) != 0).then(|| NV_COND_DST_INDEX.get(w) as u8);
    let flow = (NV_COND_FLOW_ENABLE.get(w) != 0).then(|| CondTest {
        mask,
        index: NV_COND_FLOW_INDEX.get(w) as u8,
        swizzle: get_swizzle(NV_COND_SWIZZLE, w),
    });
    Ok((precision, update, flow))
}

/// Runs of consecutive set bits of a DECLARATION_MASK token, as (first, last) ranges.
fn mask_runs(mask: u32) -> Vec<(i32, i32)> {
    let mut runs = Vec::new();
    let mut bit = 0;
    while bit < 32 {
        if mask >> bit & 1 == 0 {
            bit += 1;
            continue;
        }
        let first = bit;
        while bit < 32 && mask >> bit & 1 == 1 {
            bit += 1;
        }
        runs.push((first, bit - 1));
    }
    runs
}
