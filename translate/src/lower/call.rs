//! Calls, inlined: the callee's body is lowered in a frame of its own. A callee with a return
//! before its end runs inside a one-trip loop whose BRK is the return.

use super::control::has_early_return;
use super::{Frame, Lower, Span, MAX_CALLS};
use crate::error::{over_budget, Budget};
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle};

impl<'a> Lower<'a> {
    /// Inlines a call of `function` with `arguments`; its result becomes expression `result`.
    pub(super) fn call(
        &mut self,
        function: Handle<naga::Function>,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
        span: Span,
    ) -> Result<(), TranslateError> {
        self.calls += 1;
        if self.calls > MAX_CALLS {
            return Err(over_budget(
                Budget::Inlining,
                format!("more than {MAX_CALLS} calls inlined"),
                span,
            ));
        }
        let mut args = Vec::new();
        for a in arguments {
            args.push(self.expr(*a)?);
        }
        let callee = &self.module.functions[function];
        let res = match &callee.result {
            Some(r) => Some(self.storage(r.ty, span)?),
            None => None,
        };
        let early = has_early_return(&callee.body);
        self.frames.push(Frame {
            fun: callee,
            info: &self.info[function],
            cache: vec![None; callee.expressions.len()],
            locals: Vec::new(),
            args,
            result: res.clone(),
            entry: false,
            loop_depth: 0,
            early_exit: early,
        });
        // Loops of the caller are not visible to the callee's break / continue.
        let saved = std::mem::take(&mut self.loops);
        self.init_locals()?;
        if early {
            self.open(Opcode::BgnLoop, vec![], span)?;
        }
        self.block(&callee.body, true)?;
        if early {
            self.code.push(Opcode::Brk, None, vec![]);
            self.close(Opcode::EndLoop);
        }
        self.loops = saved;
        self.frames.pop();
        if let (Some(h), Some(v)) = (result, res) {
            self.frame_mut().cache[h.index()] = Some(v);
        }
        Ok(())
    }
}
