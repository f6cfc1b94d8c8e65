//! naga IR to the translator's instruction list, one module per kind of construct.
//!
//! Values live in registers with a swizzle, so swizzles, splats, negation, `abs` and component
//! access cost nothing. Booleans are 1.0 / 0.0 (what the TGSI set-on opcodes write); integers are
//! their 32-bit patterns, computed with the integer opcodes (`int`); doubles are register pairs
//! (`double`). An integer value never
//! carries a negate or absolute modifier (a float-view reader, MOV or UCMP, would flip its sign
//! bit instead): integer negation and `abs` are instructions. Functions are inlined.
//!
//! - `value`: the values and pointers the lowering passes around;
//! - `globals`, `io`: uniforms, textures and private variables; entry inputs and outputs;
//! - `storage`: variables in temporaries, stores, the copies that keep cached values valid;
//! - `constant`: constant expressions as immediates;
//! - `statement`, `control`, `call`: statements, structured control flow, inlined calls;
//! - `expr`, `access`, `compose`: expressions, indexing (constant and run-time), vectors;
//! - `binary`, `matrix`, `math`, `geometry`, `trig`, `image`, `int`: operators, matrices,
//!   built-in functions by family, textures, integers;
//! - `double`: `f64` values in register pairs on TGSI's double opcodes, with the conversions
//!   built from integer and double opcodes.

mod access;
mod binary;
mod call;
mod compose;
mod constant;
mod control;
mod double;
mod expr;
mod geometry;
mod globals;
mod image;
mod int;
mod io;
mod math;
mod matrix;
pub(crate) mod names;
mod statement;
mod storage;
mod trig;
mod value;

pub use io::MAX_LOCATION;
pub(crate) use value::Value;

use crate::code::{Code, Reg, Src};
use crate::error::{over_budget, unsupported, Budget, Construct};
use crate::{Language, TranslateError};
use microcode::tgsi::Opcode;
use naga::{Expression, Function, Handle, Module, ShaderStage, TypeInner};
use std::collections::{BTreeSet, HashMap};

/// Where a location sits for the translator: an error with file position is built from it.
pub(crate) type Span = naga::Span;

/// A function being inlined (the entry point at the bottom).
struct Frame<'a> {
    fun: &'a Function,
    info: &'a naga::valid::FunctionInfo,
    cache: Vec<Option<Value>>,
    locals: Vec<Value>,
    args: Vec<Value>,
    /// Where `return` puts the value of an inlined function.
    result: Option<Value>,
    /// True for the entry point (a return writes the outputs).
    entry: bool,
    /// Inside an inlined function with early returns: the one-trip loop's depth of loops.
    loop_depth: usize,
    early_exit: bool,
}

/// The lowering of one entry point.
pub(crate) struct Lower<'a> {
    module: &'a Module,
    info: &'a naga::valid::ModuleInfo,
    language: Language,
    /// The instructions and declarations written so far.
    pub code: Code,
    frames: Vec<Frame<'a>>,
    globals: HashMap<Handle<naga::GlobalVariable>, Value>,
    var_regs: BTreeSet<u32>,
    /// Per result leaf of the entry point: the OUT register, its size and its first component
    /// (a double's pair may be zw).
    outputs: Vec<(Reg, usize, u8)>,
    /// Loops being translated: (continuing block, break_if) of each, innermost last.
    loops: Vec<(&'a naga::Block, Option<Handle<Expression>>)>,
    stage: ShaderStage,
    /// Open IF and loop blocks of the TGSI being written.
    nesting: usize,
    /// Calls inlined so far.
    calls: usize,
    /// Constant arrays already placed in IMMX, by the expression that made them.
    imm_arrays: HashMap<(usize, Handle<Expression>), Value>,
    /// The uniform layout (bindings to CONST registers).
    pub layout: crate::layout::Bindings,
}

/// The most instructions a translation may grow to before the passes: far beyond the core's 256
/// instructions, and a bound on what hostile inlining (calls of calls of calls) can make.
pub const MAX_INSTRUCTIONS: usize = 4096;

/// The most calls inlined into one translation.
pub const MAX_CALLS: usize = 1024;

/// The output size that marks `frag_depth`: one value written to POSITION.z.
const FRAG_DEPTH: usize = 100;

/// The output size that marks `sample_mask`: with one sample per pixel, a mask without bit 0
/// discards the fragment (no OUT register).
const SAMPLE_MASK: usize = 101;

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// An unsupported construct with its reason.
fn err(construct: Construct, why: &str, span: Span) -> TranslateError {
    unsupported(construct, why, span)
}

impl<'a> Lower<'a> {
    /// A lowering of `module` (validated, reduced to one entry point) for `stage`.
    pub fn new(
        module: &'a Module,
        info: &'a naga::valid::ModuleInfo,
        stage: ShaderStage,
        language: Language,
    ) -> Self {
        Lower {
            module,
            info,
            language,
            code: Code::default(),
            frames: Vec::new(),
            globals: HashMap::new(),
            var_regs: BTreeSet::new(),
            outputs: Vec::new(),
            loops: Vec::new(),
            stage,
            nesting: 0,
            calls: 0,
            imm_arrays: HashMap::new(),
            layout: crate::layout::Bindings::default(),
        }
    }

    fn ty(&self, h: Handle<naga::Type>) -> &'a TypeInner {
        &self.module.types[h].inner
    }

    fn frame(&self) -> &Frame<'a> {
        self.frames.last().expect("a frame")
    }

    fn frame_mut(&mut self) -> &mut Frame<'a> {
        self.frames.last_mut().expect("a frame")
    }

    fn span_of(&self, h: Handle<Expression>) -> Span {
        self.frame().fun.expressions.get_span(h)
    }

    fn expr_ty(&self, h: Handle<Expression>) -> &'a TypeInner {
        let fr = self.frame();
        fr.info[h].ty.inner_with(&self.module.types)
    }

    /// Translates the entry point.
    pub fn entry(&mut self, ep: &'a naga::EntryPoint, index: usize) -> Result<(), TranslateError> {
        self.declare_globals()?;
        let fun = &ep.function;
        let info = self.info.get_entry_point(index);
        let mut next_in = 0u32;
        let mut args = Vec::new();
        for (i, a) in fun.arguments.iter().enumerate() {
            let span = argument_span(fun, i as u32);
            let v = self.input(a.ty, a.binding.as_ref(), &mut next_in, span)?;
            args.push(v);
        }
        let mut next_out = 0u32;
        if let Some(res) = &fun.result {
            let mut regs = Vec::new();
            let span = result_span(fun);
            self.output(res.ty, res.binding.as_ref(), &mut next_out, &mut regs, span)?;
            self.outputs = regs;
        }
        self.frames.push(Frame {
            fun,
            info,
            cache: vec![None; fun.expressions.len()],
            locals: Vec::new(),
            args,
            result: None,
            entry: true,
            loop_depth: 0,
            early_exit: false,
        });
        self.init_locals()?;
        self.block(&fun.body, true)?;
        self.frames.pop();
        self.code.push(Opcode::End, None, vec![]);
        Ok(())
    }

    /// Refuses a translation grown past [`MAX_INSTRUCTIONS`].
    fn check_size(&self, span: Span) -> Result<(), TranslateError> {
        if self.code.insts.len() > MAX_INSTRUCTIONS {
            return Err(over_budget(
                Budget::Instructions,
                format!("a shader over {MAX_INSTRUCTIONS} TGSI instructions (after inlining)"),
                span,
            ));
        }
        Ok(())
    }

    /// One instruction writing the first `size` components of a fresh temporary; on immediates
    /// only, the value itself (folded here, one rounding per operation as the models do).
    fn alu(&mut self, op: Opcode, size: usize, src: Vec<Src>) -> Value {
        if let Some(v) = self.fold(op, size, &src) {
            return v;
        }
        let r = self.code.temp();
        self.code.push(op, Some((r, (1u8 << size) - 1)), src);
        let src = if size == 1 {
            Src::reg(r).comp(0)
        } else {
            Src::reg(r)
        };
        Value::V { src, size }
    }

    /// A float instruction's result operand.
    fn fop(&mut self, op: Opcode, n: usize, src: Vec<Src>) -> Src {
        self.alu(op, n, src).src()
    }

    /// A replicating scalar opcode (RCP, SIN, ...) applied to each component.
    fn per_comp(&mut self, op: Opcode, size: usize, src: &[Src]) -> Value {
        let r = self.code.temp();
        for c in 0..size {
            let s: Vec<Src> = src.iter().map(|s| s.comp(c)).collect();
            self.code.push(op, Some((r, 1 << c)), s);
        }
        Value::V {
            src: Src::reg(r),
            size,
        }
    }

    /// A float immediate scalar.
    fn imm_s(&mut self, x: f32) -> Src {
        self.code.imm(&[f(x)])
    }

    /// `op` with `_SAT` into a fresh temporary.
    fn saturated(&mut self, op: Opcode, n: usize, src: Vec<Src>) -> Src {
        let r = self.code.temp();
        self.code.insts.push(crate::code::Inst {
            op,
            dst: Some((r, (1u8 << n) - 1)),
            dst2: None,
            src,
            sat: true,
            target: None,
        });
        Src::reg(r)
    }
}

/// The span of entry argument `i`: where naga's front end put its `FunctionArgument`.
fn argument_span(fun: &Function, i: u32) -> Span {
    fun.expressions
        .iter()
        .find(|(_, e)| matches!(e, Expression::FunctionArgument(k) if *k == i))
        .map(|(h, _)| fun.expressions.get_span(h))
        .unwrap_or_default()
}

/// The span of the entry point's result: the first `return` with a value.
fn result_span(fun: &Function) -> Span {
    fn find(b: &naga::Block) -> Option<Span> {
        for (st, span) in b.span_iter() {
            match st {
                naga::Statement::Return { value: Some(_) } => return Some(*span),
                naga::Statement::Block(x) => {
                    if let Some(s) = find(x) {
                        return Some(s);
                    }
                }
                naga::Statement::If { accept, reject, .. } => {
                    if let Some(s) = find(accept).or_else(|| find(reject)) {
                        return Some(s);
                    }
                }
                _ => {}
            }
        }
        None
    }
    find(&fun.body).unwrap_or_default()
}
