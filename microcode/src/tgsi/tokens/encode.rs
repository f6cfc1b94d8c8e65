//! Program -> token words.

use super::layout::*;
use crate::tgsi::ir::*;

/// Encodes a program: VERSION, HEADER, PROCESSOR, then properties, declarations, immediates and
/// instructions, in that (canonical) order. The minor version is 2 exactly when the program uses a
/// version 1.2 feature ([`needs_v12`]), else 1.
///
/// Values that do not fit their token fields (checked by the validator) are truncated.
pub fn encode(p: &Program) -> Vec<u32> {
    let mut body = Vec::new();
    for prop in &p.properties {
        let word = PROPERTY_NAME.put(prop.name as u32);
        sized(TOKEN_PROPERTY, word, &prop.values, &mut body);
    }
    for d in &p.declarations {
        declaration(d, &mut body);
    }
    for imm in &p.immediates {
        sized(
            TOKEN_IMMEDIATE,
            IMM_DATA_TYPE.put(imm.ty as u32),
            &imm.values,
            &mut body,
        );
    }
    for inst in &p.instructions {
        instruction(inst, &mut body);
    }
    let minor = if needs_v12(p) { MINOR_V12 } else { MINOR_V11 };
    let mut out = vec![
        VERSION_MAJOR.put(MAJOR) | VERSION_MINOR.put(minor),
        HEADER_HEADER_SIZE.put(HEADER_SIZE) | HEADER_BODY_SIZE.put(body.len() as u32),
        PROCESSOR.put(p.processor as u32),
    ];
    out.extend(body);
    out
}

/// True when the program uses something only version 1.2 can say (`decisions.md` section 5).
pub fn needs_v12(p: &Program) -> bool {
    let v12_file = |f: File| f.number() > File::Immediate.number();
    let v12_reg = |r: &Register| {
        v12_file(r.file)
            || r.indirect.is_some_and(|i| v12_file(i.file))
            || r.dimension
                .and_then(|d| d.indirect)
                .is_some_and(|i| v12_file(i.file))
    };
    !p.properties.is_empty()
        || p.declarations.iter().any(|d| {
            d.semantic.is_some()
                || d.usage_mask != 0xF
                || d.dimension.is_some()
                || v12_file(d.file)
                || !d.array_data.is_empty()
        })
        || p.immediates.iter().any(|i| i.ty != ImmType::Float32)
        || p.instructions.iter().any(|i| {
            i.opcode.info().needs_v12()
                || i.dst.iter().any(|d| v12_reg(&d.reg))
                || i.src.iter().any(|s| v12_reg(&s.reg))
        })
}

/// A sized token of `ty` whose other fields are `fields`, followed by `rest`.
fn sized(ty: u32, fields: u32, rest: &[u32], out: &mut Vec<u32>) {
    let size = 1 + rest.len() as u32;
    out.push(TYPE.put(ty) | SIZE.put(size) | fields);
    out.extend_from_slice(rest);
}

/// Sets the Extended bit on every token of a chain but the last; returns whether there was any.
fn chain(tokens: &mut [u32]) -> bool {
    let n = tokens.len();
    for t in tokens.iter_mut().take(n.saturating_sub(1)) {
        *t |= EXTENDED;
    }
    n > 0
}

fn declaration(d: &Declaration, out: &mut Vec<u32>) {
    let mut fields = DECL_FILE.put(d.file.number()) | DECL_DECLARE.put(DECLARE_RANGE);
    let mut rest = vec![RANGE_FIRST.put_signed(d.first) | RANGE_LAST.put_signed(d.last)];
    if let Some(i) = d.interpolate {
        fields |= DECL_INTERPOLATE.flag(true);
        rest.push(INTERPOLATION.put(i as u32));
    }
    if d.usage_mask != 0xF {
        fields |= DECL_USAGE_MASK.put(u32::from(d.usage_mask));
    }
    if let Some(dim) = d.dimension {
        fields |= DECL_DIMENSION.flag(true);
        rest.push(match dim {
            DeclDimension::Index(i) => DECL_DIM_INDEX.put_signed(i),
            DeclDimension::Empty => DECL_DIM_EMPTY.flag(true),
        });
    }
    if let Some(s) = d.semantic {
        fields |= DECL_SEMANTIC.flag(true);
        rest.push(SEMANTIC_NAME.put(s.name as u32) | SEMANTIC_INDEX.put(s.index));
    }
    for v in &d.array_data {
        rest.extend_from_slice(v);
    }
    sized(TOKEN_DECLARATION, fields, &rest, out);
}

fn instruction(i: &Instruction, out: &mut Vec<u32>) {
    let mut ext = Vec::new();
    if i.precision != Precision::Default || i.cond_update.is_some() || i.cond_flow.is_some() {
        // Disabled parts keep the document's default values (CC_TR, identity swizzle).
        let flow = i.cond_flow.unwrap_or(CondTest {
            mask: CondMask::Tr,
            index: 0,
            swizzle: [0, 1, 2, 3],
        });
        ext.push(
            TYPE.put(INST_EXT_NV)
                | NV_PRECISION.put(i.precision as u32)
                | NV_COND_DST_INDEX.put(u32::from(i.cond_update.unwrap_or(0)))
                | NV_COND_FLOW_INDEX.put(u32::from(flow.index))
                | NV_COND_MASK.put(flow.mask as u32)
                | put_swizzle(NV_COND_SWIZZLE, flow.swizzle)
                | NV_COND_DST_UPDATE.flag(i.cond_update.is_some())
                | NV_COND_FLOW_ENABLE.flag(i.cond_flow.is_some()),
        );
    }
    if let Some(label) = i.label {
        ext.push(TYPE.put(INST_EXT_LABEL) | LABEL_LABEL.put(label));
    }
    if let Some(t) = i.texture {
        ext.push(TYPE.put(INST_EXT_TEXTURE) | TEXTURE_TARGET.put(t as u32));
    }
    let extended = chain(&mut ext);
    let mut rest = ext;
    for d in &i.dst {
        dst_operand(d, &mut rest);
    }
    for s in &i.src {
        src_operand(s, &mut rest);
    }
    let fields = INST_OPCODE.put(u32::from(i.opcode.number()))
        | INST_SATURATE.put(i.saturate as u32)
        | INST_NUM_DST.put(i.dst.len() as u32)
        | INST_NUM_SRC.put(i.src.len() as u32);
    let at = out.len();
    sized(TOKEN_INSTRUCTION, fields, &rest, out);
    if extended {
        out[at] |= EXTENDED;
    }
}

fn dst_operand(d: &DstOperand, out: &mut Vec<u32>) {
    let mut ext = Vec::new();
    if let Some(c) = d.cond {
        ext.push(
            TYPE.put(DST_EXT_CONDCODE)
                | CC_MASK.put(c.mask as u32)
                | put_swizzle(CC_SWIZZLE, c.swizzle)
                | CC_SRC_INDEX.put(u32::from(c.index)),
        );
    }
    if d.modulate != Modulate::X1 {
        ext.push(TYPE.put(DST_EXT_MODULATE) | MODULATE.put(d.modulate as u32));
    }
    let extended = chain(&mut ext);
    let r = &d.reg;
    out.push(
        DST_FILE.put(r.file.number())
            | DST_WRITE_MASK.put(u32::from(d.write_mask))
            | DST_INDIRECT.flag(r.indirect.is_some())
            | DST_DIMENSION.flag(r.dimension.is_some())
            | DST_INDEX.put_signed(r.index)
            | if extended { EXTENDED } else { 0 },
    );
    out.extend(ext);
    register_tail(r, out);
}

fn src_operand(s: &SrcOperand, out: &mut Vec<u32>) {
    let mut ext = Vec::new();
    if let Some(x) = s.ext_swizzle {
        let mut w = TYPE.put(SRC_EXT_SWZ) | SWZ_DIVIDE.put(x.divide as u32);
        for c in 0..4 {
            w |= nth(SWZ_SELECT, 4, c).put(x.select[c] as u32)
                | nth(SWZ_NEGATE, 1, c).flag(x.negate[c]);
        }
        ext.push(w);
    }
    if !s.ext_mod.is_empty() {
        let m = s.ext_mod;
        ext.push(
            TYPE.put(SRC_EXT_MOD)
                | MOD_COMPLEMENT.flag(m.complement)
                | MOD_BIAS.flag(m.bias)
                | MOD_SCALE2X.flag(m.scale2x)
                | MOD_ABSOLUTE.flag(m.absolute)
                | MOD_NEGATE.flag(m.negate),
        );
    }
    let extended = chain(&mut ext);
    let r = &s.reg;
    out.push(
        SRC_FILE.put(r.file.number())
            | put_swizzle(SRC_SWIZZLE, s.swizzle)
            | SRC_NEGATE.flag(s.negate)
            | SRC_INDIRECT.flag(r.indirect.is_some())
            | SRC_DIMENSION.flag(r.dimension.is_some())
            | SRC_INDEX.put_signed(r.index)
            | if extended { EXTENDED } else { 0 },
    );
    out.extend(ext);
    register_tail(r, out);
}

/// The tokens after a register's extensions: the indirect address register, then the DIMENSION
/// token and its own address register (the 004 document's order).
fn register_tail(r: &Register, out: &mut Vec<u32>) {
    if let Some(ind) = r.indirect {
        out.push(address(ind));
    }
    if let Some(d) = r.dimension {
        out.push(DIM_INDIRECT.flag(d.indirect.is_some()) | DIM_INDEX.put_signed(d.index));
        if let Some(ind) = d.indirect {
            out.push(address(ind));
        }
    }
}

/// The SRC_REGISTER naming an address register component; the component is replicated into all
/// four swizzle fields (readers use SwizzleX).
fn address(ind: Indirect) -> u32 {
    SRC_FILE.put(ind.file.number())
        | put_swizzle(SRC_SWIZZLE, [ind.component; 4])
        | SRC_INDEX.put_signed(ind.index)
}
