//! Statements: blocks, stores, returns, `discard`, and the dispatch to control flow and calls.

use super::value::{flatten, keeps_bits, Value};
use super::{err, Lower, Span, FRAG_DEPTH, SAMPLE_MASK};
use crate::code::{RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, Statement};
use std::collections::BTreeSet;

impl<'a> Lower<'a> {
    /// Translates a block; `tail` when nothing follows it in the function.
    pub(super) fn block(
        &mut self,
        block: &'a naga::Block,
        tail: bool,
    ) -> Result<(), TranslateError> {
        let n = block.len();
        for (i, (st, span)) in block.span_iter().enumerate() {
            self.check_size(*span)?;
            let last = tail && i + 1 == n;
            if self.statement(st, *span, last)? {
                break;
            }
        }
        Ok(())
    }

    /// Translates one statement; returns true when the rest of the block is unreachable.
    fn statement(
        &mut self,
        st: &'a Statement,
        span: Span,
        tail: bool,
    ) -> Result<bool, TranslateError> {
        match st {
            Statement::Emit(range) => {
                for h in range.clone() {
                    let v = self.expr_uncached(h)?;
                    self.frame_mut().cache[h.index()] = Some(v);
                }
            }
            Statement::Block(b) => {
                let mut w = BTreeSet::new();
                self.written_in(b, &mut w);
                self.detach(&w);
                self.block(b, tail)?;
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => self.if_statement(*condition, accept, reject, span, tail)?,
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => self.loop_statement(body, continuing, *break_if, span)?,
            Statement::Switch { selector, cases } => self.switch(*selector, cases, span)?,
            Statement::Break => {
                self.code.push(Opcode::Brk, None, vec![]);
                return Ok(true);
            }
            Statement::Continue => {
                self.continuing()?;
                self.code.push(Opcode::Cont, None, vec![]);
                return Ok(true);
            }
            Statement::Return { value } => {
                self.return_statement(*value, span, tail)?;
                return Ok(true);
            }
            Statement::Kill => self.code.push(Opcode::Kilp, None, vec![]),
            Statement::Store { pointer, value } => self.store_statement(*pointer, *value, span)?,
            Statement::Call {
                function,
                arguments,
                result,
            } => self.call(*function, arguments, *result, span)?,
            // Barriers order memory the core does not have; alone they do nothing.
            Statement::ControlBarrier(_) | Statement::MemoryBarrier(_) => {}
            other => {
                let (name, why) = statement_refusal(other);
                return Err(err(Construct::Statement(name.into()), why, span));
            }
        }
        Ok(false)
    }

    fn if_statement(
        &mut self,
        condition: Handle<Expression>,
        accept: &'a naga::Block,
        reject: &'a naga::Block,
        span: Span,
        tail: bool,
    ) -> Result<(), TranslateError> {
        // `if (c) {} else { ... }` (what a for loop's test becomes) is `if (!c) { ... }`.
        let (accept, reject, c) = if accept.is_empty() && !reject.is_empty() {
            let s = self.not(condition)?.src();
            (reject, accept, s)
        } else {
            (accept, reject, self.scalar(condition)?)
        };
        // `if (c) { discard; }` is one conditional KIL; `if (x < 0.0)` tests x itself.
        if reject.is_empty() && accept.len() == 1 {
            if let Some(Statement::Kill) = accept.iter().next() {
                let operand = match self.sign_test(condition)? {
                    Some(x) => x,
                    None => c.comp(0).negated(),
                };
                self.code.push(Opcode::Kil, None, vec![operand]);
                return Ok(());
            }
        }
        let mut w = BTreeSet::new();
        self.written_in(accept, &mut w);
        self.written_in(reject, &mut w);
        self.detach(&w);
        self.open(Opcode::If, vec![c.comp(0)], span)?;
        self.block(accept, tail)?;
        if !reject.is_empty() {
            self.code.push(Opcode::Else, None, vec![]);
            self.block(reject, tail)?;
        }
        self.close(Opcode::EndIf);
        Ok(())
    }

    fn return_statement(
        &mut self,
        value: Option<Handle<Expression>>,
        span: Span,
        tail: bool,
    ) -> Result<(), TranslateError> {
        let v = match value {
            Some(h) => Some(self.expr(h)?),
            None => None,
        };
        let (entry, result, early_exit, loop_depth) = {
            let fr = self.frame();
            (fr.entry, fr.result.clone(), fr.early_exit, fr.loop_depth)
        };
        if entry {
            if let Some(v) = v {
                self.write_outputs(&v);
            }
            if !tail {
                self.code.push(Opcode::Ret, None, vec![]);
            }
            return Ok(());
        }
        if let (Some(v), Some(r)) = (v, result) {
            self.store(&r, None, &v);
        }
        if !tail {
            if !early_exit || loop_depth > 0 {
                return Err(err(
                    Construct::Other("a return from inside a loop of a called function".into()),
                    "functions are inlined, and TGSI's BRK leaves only the innermost loop",
                    span,
                ));
            }
            self.code.push(Opcode::Brk, None, vec![]);
        }
        Ok(())
    }

    /// The entry point's result into its OUT registers.
    fn write_outputs(&mut self, v: &Value) {
        let mut leaves = Vec::new();
        flatten(v, &mut leaves);
        let regs = std::mem::take(&mut self.outputs);
        for ((reg, size, first), leaf) in regs.iter().zip(leaves) {
            let Value::V { src, size: vs } = leaf else {
                continue;
            };
            let src = if vs == 1 { src.comp(0) } else { src };
            if *size == SAMPLE_MASK {
                // Bit 0 clear: the pixel's one sample is not covered.
                let one = self.code.imm_int(&[1]);
                let bit = self.ialu(Opcode::And, 1, vec![src.comp(0), one]);
                let f = self.ialu(Opcode::I2f, 1, vec![bit]);
                let half = self.imm_s(-0.5);
                let k = self.fop(Opcode::Add, 1, vec![f, half]);
                self.code.push(Opcode::Kil, None, vec![k.comp(0)]);
            } else if *size == FRAG_DEPTH {
                self.code
                    .push(Opcode::Mov, Some((*reg, 4)), vec![src.comp(0)]);
            } else {
                // Component first + c takes the value's component c.
                let mask = ((1u8 << size) - 1) << first;
                let mut swz = src.swz;
                for c in 0..*size {
                    swz[*first as usize + c] = src.swz[c];
                }
                self.code
                    .push(Opcode::Mov, Some((*reg, mask)), vec![Src { swz, ..src }]);
            }
        }
        self.outputs = regs;
    }

    fn store_statement(
        &mut self,
        pointer: Handle<Expression>,
        value: Handle<Expression>,
        span: Span,
    ) -> Result<(), TranslateError> {
        let p = self.expr(pointer)?;
        let v = self.expr(value)?;
        let int = keeps_bits(self.expr_ty(value));
        let set: BTreeSet<u32> = p.temps().into_iter().collect();
        let mut regs = Vec::new();
        p.regs(&mut regs);
        if regs.iter().any(|r| !matches!(r.file, RegFile::Temp)) {
            return Err(err(
                Construct::Other("a store to a uniform or constant".into()),
                "uniforms and constants are read-only",
                span,
            ));
        }
        self.detach(&set);
        self.store_through(&p, &v, None, int, span)
    }

    /// Writes `v` through pointer `p`, where `cond` (1.0 / 0.0) holds when given.
    fn store_through(
        &mut self,
        p: &Value,
        v: &Value,
        cond: Option<Src>,
        int: bool,
        span: Span,
    ) -> Result<(), TranslateError> {
        match p {
            Value::Ptr { storage, comp } => match cond {
                None => self.store(storage, *comp, v),
                Some(c) => self.store_where(storage, *comp, v, c, int),
            },
            Value::DynPtr { storage, index } => {
                let Value::V { src: s, size: n } = **storage else {
                    return Err(bad_store(span));
                };
                let Value::V { src: x, .. } = v else {
                    return Err(bad_store(span));
                };
                // Lane k of the vector takes the value where index == k (and cond holds).
                let mut hot = self.onehot(*index, n);
                if let Some(c) = cond {
                    hot = self.fop(Opcode::Mul, n, vec![hot, c.comp(0)]);
                }
                let keep = Src::reg(s.reg);
                let mask = (1u8 << n) - 1;
                if int {
                    let u = self.ialu(Opcode::F2u, n, vec![hot]);
                    self.code
                        .push(Opcode::Ucmp, Some((s.reg, mask)), vec![u, x.comp(0), keep]);
                } else {
                    self.code.push(
                        Opcode::Cmp,
                        Some((s.reg, mask)),
                        vec![hot.negated(), x.comp(0), keep],
                    );
                }
            }
            Value::SelPtr { elems, index } => {
                // Element k takes the value where index == k.
                for (k, e) in elems.iter().enumerate() {
                    let kk = self.imm_s(k as f32);
                    let mut c = self.fop(Opcode::Seq, 1, vec![index.comp(0), kk]);
                    if let Some(outer) = cond {
                        c = self.fop(Opcode::Mul, 1, vec![c, outer.comp(0)]);
                    }
                    self.store_through(e, v, Some(c), int, span)?;
                }
            }
            _ => return Err(bad_store(span)),
        }
        Ok(())
    }
}

fn bad_store(span: Span) -> TranslateError {
    err(
        Construct::Other("a store through this pointer".into()),
        "it does not point into a variable the translator keeps in registers",
        span,
    )
}

/// The name and the reason for a statement without translation.
fn statement_refusal(st: &Statement) -> (&'static str, &'static str) {
    match st {
        Statement::Atomic { .. } | Statement::ImageAtomic { .. } => (
            "atomic operation",
            "atomics need memory shared between invocations; the core has none",
        ),
        Statement::ImageStore { .. } => (
            "textureStore",
            "the core has no memory writes (textures are read-only)",
        ),
        Statement::WorkGroupUniformLoad { .. } => (
            "workgroupUniformLoad",
            "workgroup memory belongs to compute shaders",
        ),
        Statement::RayQuery { .. } => ("ray query", "TGSI has no ray tracing"),
        Statement::SubgroupBallot { .. }
        | Statement::SubgroupGather { .. }
        | Statement::SubgroupCollectiveOperation { .. } => {
            ("subgroup operation", "TGSI 1.x has no subgroup operations")
        }
        _ => ("this statement", "TGSI has no equivalent"),
    }
}
