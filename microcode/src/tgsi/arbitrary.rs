//! Proptest strategies that generate random *valid* programs (they pass [`super::validate`]).
//!
//! The generators cover every part of the IR: all supported opcodes of the chosen stage, every
//! register file (1-D, 2-D, indirect), every source and destination modifier, NV condition codes,
//! labels, texture targets, properties, semantics, interpolation, usage masks, IMMX data and all
//! immediate types. Locations are always [`Loc::None`].
//!
//! Programs are built in two steps: declarations, immediates and properties first, then
//! instructions whose operands only name what was declared ([`Context`]). Control flow is
//! generated as a tree ([`Node`]) and flattened, so blocks are always balanced and every label
//! points where the validator expects (CAL and CALLNZ at a BGNSUB, BRA forward within its block body).

use super::ir::*;
use super::opcode::{Flow, Kind, Opcode, OpcodeInfo, OPCODES};
use super::validate::allows_saturate;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};
use std::sync::Arc;

/// What operand generators may refer to: the program's declarations and immediates.
#[derive(Clone, Debug)]
pub struct Context {
    /// The program's stage (decides the allowed opcodes).
    pub processor: Processor,
    /// Everything operands may name.
    pub declarations: Vec<Declaration>,
    /// Number of immediates (IMM[0..n] are readable).
    pub immediates: usize,
}

/// A shader stage.
pub fn processor() -> impl Strategy<Value = Processor> {
    select(vec![
        Processor::Fragment,
        Processor::Vertex,
        Processor::Geometry,
    ])
}

/// A simple swizzle.
pub fn swizzle() -> impl Strategy<Value = [Swz; 4]> {
    prop::array::uniform4(0u8..4)
}

/// A condition-code test on CC register 0 or 1.
pub fn cond_test() -> impl Strategy<Value = CondTest> {
    (select(CondMask::ALL.to_vec()), 0u8..2, swizzle()).prop_map(|(mask, index, swizzle)| {
        CondTest {
            mask,
            index,
            swizzle,
        }
    })
}

fn ext_sel() -> impl Strategy<Value = ExtSel> {
    select(ExtSel::ALL.to_vec())
}

/// An EXT_SWZ extension; ExtDivide is only W or One (the values the validator accepts).
pub fn ext_swizzle() -> impl Strategy<Value = ExtSwizzle> {
    (
        prop::array::uniform4(ext_sel()),
        prop::array::uniform4(any::<bool>()),
        select(vec![ExtSel::W, ExtSel::One]),
    )
        .prop_map(|(select, negate, divide)| ExtSwizzle {
            select,
            negate,
            divide,
        })
}

/// An EXT_MOD extension, empty three times out of four.
pub fn ext_mod() -> impl Strategy<Value = ExtMod> {
    let any_mod = prop::array::uniform5(any::<bool>()).prop_map(|b| ExtMod {
        complement: b[0],
        bias: b[1],
        scale2x: b[2],
        absolute: b[3],
        negate: b[4],
    });
    prop_oneof![3 => Just(ExtMod::default()), 1 => any_mod]
}

fn modulate() -> impl Strategy<Value = Modulate> {
    let any_scale = (0u32..7).prop_map(|n| Modulate::from_number(n).unwrap_or_default());
    prop_oneof![3 => Just(Modulate::X1), 1 => any_scale]
}

fn usage_mask() -> impl Strategy<Value = u8> {
    prop_oneof![3 => Just(0xFu8), 1 => 1u8..=15]
}

fn semantic() -> impl Strategy<Value = Semantic> {
    (select(SemanticName::ALL.to_vec()), 0u32..8).prop_map(|(name, index)| Semantic { name, index })
}

fn interpolate() -> impl Strategy<Value = Interpolate> {
    select(vec![
        Interpolate::Constant,
        Interpolate::Linear,
        Interpolate::Perspective,
    ])
}

fn bare_decl(file: File, dimension: Option<DeclDimension>, first: i32, last: i32) -> Declaration {
    Declaration {
        file,
        dimension,
        first,
        last,
        usage_mask: 0xF,
        semantic: None,
        interpolate: None,
        array_data: Vec::new(),
        loc: Loc::None,
    }
}

/// `DCL FILE[first..first+len]` with a random length below `max_len`, usage mask and, when asked
/// for, a semantic and an interpolation mode.
fn range_decl(
    file: File,
    dimension: Option<DeclDimension>,
    first: i32,
    max_len: i32,
    with_semantic: bool,
    with_interpolate: bool,
) -> BoxedStrategy<Declaration> {
    let sem = if with_semantic {
        option::of(semantic()).boxed()
    } else {
        Just(None).boxed()
    };
    let interp = if with_interpolate {
        option::of(interpolate()).boxed()
    } else {
        Just(None).boxed()
    };
    (0..max_len, usage_mask(), sem, interp)
        .prop_map(
            move |(len, usage_mask, semantic, interpolate)| Declaration {
                usage_mask,
                semantic,
                interpolate,
                ..bare_decl(file, dimension, first, first + len)
            },
        )
        .boxed()
}

/// `DCL IMMX[0..n]` with its data.
fn immx_decl() -> impl Strategy<Value = Declaration> {
    (0i32..4).prop_flat_map(|last| {
        vec(prop::array::uniform4(any::<u32>()), last as usize + 1).prop_map(move |data| {
            Declaration {
                array_data: data,
                ..bare_decl(File::ImmediateArray, None, 0, last)
            }
        })
    })
}

/// The declarations of a program for `processor`. TEMP, IN, OUT, CONST, SAMP, ADDR and LOOP are
/// always declared (so every opcode finds operands); 2-D CONST, a second TEMP range, IMMX, TEMPX,
/// PRED and SV sometimes. Geometry inputs use the 2-D form `IN[][a..b]`.
pub fn declarations(processor: Processor) -> BoxedStrategy<Vec<Declaration>> {
    let input = match processor {
        Processor::Geometry => {
            range_decl(File::Input, Some(DeclDimension::Empty), 0, 4, true, false)
        }
        Processor::Fragment => range_decl(File::Input, None, 0, 4, true, true),
        Processor::Vertex => range_decl(File::Input, None, 0, 4, true, false),
    };
    let always = (
        range_decl(File::Temporary, None, 0, 8, false, false),
        input,
        range_decl(File::Output, None, 0, 4, true, false),
        range_decl(File::Constant, None, 0, 8, false, false),
        range_decl(File::Sampler, None, 0, 3, false, false),
        range_decl(File::Address, None, 0, 2, false, false),
        range_decl(File::Loop, None, 0, 2, false, false),
    );
    let sometimes = (
        option::of((1i32..3).prop_flat_map(|b| {
            range_decl(
                File::Constant,
                Some(DeclDimension::Index(b)),
                0,
                6,
                false,
                false,
            )
        })),
        option::of(range_decl(File::Temporary, None, 10, 3, false, false)),
        option::of(immx_decl()),
        // TEMPX is 2-D in Mesa 7.9 (`DCL TEMPX[0][0..1]`); the 1-D form is kept for coverage.
        option::of(option::of(0i32..2).prop_flat_map(|b| {
            let dim = b.map(DeclDimension::Index);
            range_decl(File::TemporaryArray, dim, 0, 4, false, false)
        })),
        option::of(range_decl(File::Predicate, None, 0, 2, false, false)),
        option::of(range_decl(File::SystemValue, None, 0, 1, true, false)),
    );
    (always, sometimes)
        .prop_map(|((t, i, o, c, s, a, l), (c2, t2, ix, tx, pr, sv))| {
            let mut d = vec![t, i, o, c, s, a, l];
            d.extend([c2, t2, ix, tx, pr, sv].into_iter().flatten());
            d
        })
        .boxed()
}

/// Zero to three immediates of every data type, one to four values each.
pub fn immediates() -> impl Strategy<Value = Vec<Immediate>> {
    let ty = select(vec![ImmType::Float32, ImmType::Uint32, ImmType::Int32]);
    vec(
        (ty, vec(any::<u32>(), 1..=4)).prop_map(|(ty, values)| Immediate {
            ty,
            values,
            loc: Loc::None,
        }),
        0..4,
    )
}

/// Zero to two properties with small values.
pub fn properties() -> impl Strategy<Value = Vec<Property>> {
    vec(
        (select(PropertyName::ALL.to_vec()), vec(0u32..16, 1..=2)).prop_map(|(name, values)| {
            Property {
                name,
                values,
                loc: Loc::None,
            }
        }),
        0..3,
    )
}

fn decls_of(ctx: &Context, file: File) -> impl Iterator<Item = &Declaration> {
    ctx.declarations.iter().filter(move |d| d.file == file)
}

/// An address-register reference for indirect addressing (ADDR, or TEMP as the 004 document allows).
fn indirect(ctx: &Context) -> BoxedStrategy<Indirect> {
    let choices: Vec<BoxedStrategy<Indirect>> = [File::Address, File::Temporary]
        .into_iter()
        .flat_map(|f| decls_of(ctx, f).filter(|d| d.dimension.is_none()))
        .map(|d| {
            let file = d.file;
            (d.first..=d.last, 0u8..4)
                .prop_map(move |(index, component)| Indirect {
                    file,
                    index,
                    component,
                })
                .boxed()
        })
        .collect();
    Union::new(choices).boxed()
}

/// Files whose operands may be indirect.
fn indexable(file: File) -> bool {
    matches!(
        file,
        File::Constant
            | File::Input
            | File::Output
            | File::Temporary
            | File::TemporaryArray
            | File::ImmediateArray
    )
}

/// A register inside one declaration, sometimes indirect.
fn reg_in(ctx: &Context, d: &Declaration) -> BoxedStrategy<Register> {
    let file = d.file;
    let (first, last) = (d.first, d.last);
    let ind = if indexable(file) {
        option::weighted(0.25, indirect(ctx)).boxed()
    } else {
        Just(None).boxed()
    };
    match d.dimension {
        None => (first..=last, ind, -4i32..12)
            .prop_map(move |(i, ind, off)| Register {
                file,
                index: if ind.is_some() { off } else { i },
                indirect: ind,
                dimension: None,
            })
            .boxed(),
        Some(outer) => {
            let dim_ind = option::weighted(0.25, indirect(ctx));
            (first..=last, ind, -4i32..12, dim_ind, 0i32..6)
                .prop_map(move |(i, ind, off, dim_ind, vertex)| {
                    let index = match (ind, outer) {
                        (Some(_), _) => off,
                        (None, DeclDimension::Index(b)) => b,
                        (None, DeclDimension::Empty) => vertex,
                    };
                    Register {
                        file,
                        index,
                        indirect: ind,
                        dimension: Some(Dimension {
                            index: if dim_ind.is_some() { off } else { i },
                            indirect: dim_ind,
                        }),
                    }
                })
                .boxed()
        }
    }
}

/// A readable register: any declared file except SAMP and LOOP (which have their own roles), or an
/// immediate.
pub fn read_register(ctx: &Context) -> BoxedStrategy<Register> {
    let mut choices: Vec<BoxedStrategy<Register>> = ctx
        .declarations
        .iter()
        .filter(|d| !matches!(d.file, File::Sampler | File::Loop))
        .map(|d| reg_in(ctx, d))
        .collect();
    if ctx.immediates > 0 {
        let n = ctx.immediates as i32;
        choices.push(
            (0..n)
                .prop_map(|i| Register::new(File::Immediate, i))
                .boxed(),
        );
    }
    Union::new(choices).boxed()
}

/// A writable register: OUT, TEMP, TEMPX, ADDR, PRED or NULL.
pub fn write_register(ctx: &Context) -> BoxedStrategy<Register> {
    let mut choices: Vec<BoxedStrategy<Register>> = ctx
        .declarations
        .iter()
        .filter(|d| {
            matches!(
                d.file,
                File::Output
                    | File::Temporary
                    | File::TemporaryArray
                    | File::Address
                    | File::Predicate
            )
        })
        .map(|d| reg_in(ctx, d))
        .collect();
    choices.push(Just(Register::new(File::Null, 0)).boxed());
    Union::new(choices).boxed()
}

/// A source operand with random modifiers.
pub fn src_operand(ctx: &Context) -> BoxedStrategy<SrcOperand> {
    (
        read_register(ctx),
        swizzle(),
        any::<bool>(),
        option::weighted(0.25, ext_swizzle()),
        ext_mod(),
    )
        .prop_map(|(reg, swizzle, negate, ext_swizzle, ext_mod)| SrcOperand {
            reg,
            swizzle,
            negate,
            ext_swizzle,
            ext_mod,
        })
        .boxed()
}

/// A destination operand; MODULATE only when `modulate_ok`.
pub fn dst_operand(ctx: &Context, modulate_ok: bool) -> BoxedStrategy<DstOperand> {
    let m = if modulate_ok {
        modulate().boxed()
    } else {
        Just(Modulate::X1).boxed()
    };
    (
        write_register(ctx),
        1u8..=15,
        option::weighted(0.2, cond_test()),
        m,
    )
        .prop_map(|(reg, write_mask, cond, modulate)| DstOperand {
            reg,
            write_mask,
            cond,
            modulate,
        })
        .boxed()
}

/// A sampler operand `SAMP[i]` with a random swizzle.
fn sampler(ctx: &Context) -> BoxedStrategy<SrcOperand> {
    let choices: Vec<BoxedStrategy<SrcOperand>> = decls_of(ctx, File::Sampler)
        .map(|d| {
            (d.first..=d.last, swizzle())
                .prop_map(|(i, swizzle)| SrcOperand {
                    swizzle,
                    ..SrcOperand::new(Register::new(File::Sampler, i))
                })
                .boxed()
        })
        .collect();
    Union::new(choices).boxed()
}

/// Opcodes that [`instruction`] generates for a stage: every supported opcode that is not
/// structural control flow (those come from [`Node`]s).
pub fn plain_opcodes(processor: Processor) -> Vec<&'static OpcodeInfo> {
    OPCODES
        .iter()
        .filter(|r| r.is_supported() && r.stages.contains(processor.stage()))
        .filter(|r| {
            matches!(
                r.kind,
                Kind::Alu
                    | Kind::Texture
                    | Kind::Kill
                    | Kind::Geometry
                    | Kind::AddressStack
                    | Kind::Nop
                    | Kind::Flow(Flow::Ret)
            )
        })
        .collect()
}

fn saturate() -> impl Strategy<Value = Saturate> {
    select(vec![
        Saturate::None,
        Saturate::ZeroOne,
        Saturate::MinusPlusOne,
    ])
}

fn precision() -> impl Strategy<Value = Precision> {
    select(vec![
        Precision::Default,
        Precision::Float32,
        Precision::Float16,
        Precision::Fixed12,
    ])
}

/// A non-structural instruction of one opcode, with operand counts from the table.
pub fn instruction_of(ctx: &Context, info: &'static OpcodeInfo) -> BoxedStrategy<Instruction> {
    let sat_ok = allows_saturate(info);
    let n_dst = info.num_dst as usize;
    let n_src = info.num_src as usize - usize::from(info.is_texture());
    let sat = if sat_ok {
        saturate().boxed()
    } else {
        Just(Saturate::None).boxed()
    };
    let update = if n_dst > 0 {
        option::weighted(0.2, 0u8..2).boxed()
    } else {
        Just(None).boxed()
    };
    let tex = if info.is_texture() {
        (sampler(ctx), select(TextureTarget::ALL.to_vec()))
            .prop_map(|(s, t)| Some((s, t)))
            .boxed()
    } else {
        Just(None).boxed()
    };
    (
        vec(dst_operand(ctx, sat_ok), n_dst),
        vec(src_operand(ctx), n_src),
        tex,
        sat,
        precision(),
        update,
        option::weighted(0.15, cond_test()),
    )
        .prop_map(
            move |(dst, mut src, tex, saturate, precision, cond_update, cond_flow)| {
                let texture = tex.map(|(s, t)| {
                    src.push(s);
                    t
                });
                Instruction {
                    saturate,
                    precision,
                    cond_update,
                    cond_flow,
                    dst,
                    src,
                    texture,
                    ..Instruction::new(info.opcode)
                }
            },
        )
        .boxed()
}

/// Any non-structural instruction allowed in the context's stage.
pub fn instruction(ctx: &Context) -> BoxedStrategy<Instruction> {
    let ctx = Arc::new(ctx.clone());
    select(plain_opcodes(ctx.processor))
        .prop_flat_map(move |info| instruction_of(&ctx, info))
        .boxed()
}

/// An instruction of `opcode` with one source (IF, IFC, REP, CALLNZ, BREAKC).
fn with_src(ctx: &Context, opcode: Opcode) -> BoxedStrategy<Instruction> {
    src_operand(ctx)
        .prop_map(move |s| Instruction {
            src: vec![s],
            ..Instruction::new(opcode)
        })
        .boxed()
}

/// A control-flow tree; flattening it gives balanced blocks with correct labels.
#[derive(Clone, Debug)]
pub enum Node {
    /// A non-structural instruction.
    Op(Instruction),
    /// BRA over `distance` following sibling nodes, stopping at the instruction that closes its
    /// block body.
    Bra {
        /// Sibling nodes skipped.
        distance: u8,
        /// Optional NV condition (CondFlowEnable).
        cond: Option<CondTest>,
    },
    /// CAL or CALLNZ to subroutine `target` (modulo the number of subroutines; NOP without any).
    Call {
        /// The CAL or CALLNZ, without its label.
        inst: Instruction,
        /// Which subroutine.
        target: usize,
    },
    /// BRK, CONT or BREAKC; a NOP outside a loop.
    LoopCtl(Instruction),
    /// IF or IFC, a body, an optional ELSE body; `labels` sets the optional labels.
    If {
        /// The IF or IFC with its source.
        head: Instruction,
        /// Whether IF and ELSE carry their optional labels.
        labels: bool,
        /// The body run when the test passes.
        then: Vec<Node>,
        /// The ELSE body, if any.
        otherwise: Option<Vec<Node>>,
    },
    /// BGNLOOP/ENDLOOP, BGNFOR/ENDFOR or REP/ENDREP around a body.
    Loop {
        /// BGNLOOP, BGNFOR or REP.
        head: Instruction,
        /// The matching ENDLOOP, ENDFOR or ENDREP.
        tail: Instruction,
        /// Whether head and tail carry their optional labels (pointing at each other).
        labels: bool,
        /// The loop body.
        body: Vec<Node>,
    },
}

fn leaf(ctx: Arc<Context>) -> BoxedStrategy<Node> {
    let call = (
        prop_oneof![
            Just(Instruction::new(Opcode::Cal)).boxed(),
            with_src(&ctx, Opcode::CallNz)
        ],
        option::weighted(0.2, cond_test()),
        0usize..4,
    )
        .prop_map(|(inst, cond_flow, target)| Node::Call {
            inst: Instruction { cond_flow, ..inst },
            target,
        });
    let loop_ctl = (
        prop_oneof![
            Just(Instruction::new(Opcode::Brk)).boxed(),
            Just(Instruction::new(Opcode::Cont)).boxed(),
            with_src(&ctx, Opcode::BreakC)
        ],
        option::weighted(0.2, cond_test()),
    )
        .prop_map(|(inst, cond_flow)| Node::LoopCtl(Instruction { cond_flow, ..inst }));
    let bra = (0u8..4, option::weighted(0.3, cond_test()))
        .prop_map(|(distance, cond)| Node::Bra { distance, cond });
    prop_oneof![
        8 => instruction(&ctx).prop_map(Node::Op),
        1 => bra,
        1 => call,
        1 => loop_ctl,
    ]
    .boxed()
}

fn loop_ends(ctx: &Context) -> BoxedStrategy<(Instruction, Instruction)> {
    let plain = Just((
        Instruction::new(Opcode::BgnLoop),
        Instruction::new(Opcode::EndLoop),
    ))
    .boxed();
    let rep = with_src(ctx, Opcode::Rep)
        .prop_map(|h| (h, Instruction::new(Opcode::EndRep)))
        .boxed();
    let loops: Vec<i32> = decls_of(ctx, File::Loop)
        .flat_map(|d| d.first..=d.last)
        .collect();
    let counter = (select(loops), src_operand(ctx)).prop_map(|(i, s)| {
        let dst = DstOperand::new(Register::new(File::Loop, i));
        (
            Instruction {
                dst: vec![dst],
                src: vec![s],
                ..Instruction::new(Opcode::BgnFor)
            },
            Instruction {
                dst: vec![dst],
                ..Instruction::new(Opcode::EndFor)
            },
        )
    });
    prop_oneof![plain, rep, counter].boxed()
}

/// A control-flow tree of depth at most 3.
pub fn node(ctx: Arc<Context>) -> BoxedStrategy<Node> {
    let c = ctx.clone();
    leaf(ctx)
        .prop_recursive(3, 24, 4, move |inner| {
            let head = prop_oneof![with_src(&c, Opcode::If), with_src(&c, Opcode::Ifc)];
            let if_node = (
                head,
                any::<bool>(),
                vec(inner.clone(), 0..4),
                option::of(vec(inner.clone(), 0..4)),
            )
                .prop_map(|(head, labels, then, otherwise)| Node::If {
                    head,
                    labels,
                    then,
                    otherwise,
                });
            let loop_node = (loop_ends(&c), any::<bool>(), vec(inner, 0..4)).prop_map(
                |((head, tail), labels, body)| Node::Loop {
                    head,
                    tail,
                    labels,
                    body,
                },
            );
            prop_oneof![if_node, loop_node]
        })
        .boxed()
}

/// Flattens trees into instructions, remembering the labels only known later.
#[derive(Default)]
struct Flattener {
    out: Vec<Instruction>,
    /// (instruction index, subroutine choice) of calls.
    calls: Vec<(usize, usize)>,
}

impl Flattener {
    fn push(&mut self, i: Instruction) -> usize {
        self.out.push(i);
        self.out.len() - 1
    }

    /// Flattens one block body. Its BRAs skip whole sibling nodes, at most up to the instruction
    /// that closes the body (ELSE, ENDIF, the loop end, END or ENDSUB): they never jump into or out
    /// of another block, so that mask-based execution stays consistent.
    fn nodes(&mut self, nodes: &[Node], in_loop: bool, in_sub: bool) {
        let mut starts = Vec::with_capacity(nodes.len() + 1);
        let mut bras = Vec::new();
        for (j, n) in nodes.iter().enumerate() {
            starts.push(self.out.len());
            if let Node::Bra { distance, .. } = n {
                bras.push((self.out.len(), j, *distance));
            }
            self.node(n, in_loop, in_sub);
        }
        // The closing instruction is pushed next, at this index.
        starts.push(self.out.len());
        for (at, j, d) in bras {
            let k = (j + 1 + usize::from(d)).min(nodes.len());
            self.out[at].label = Some(starts[k] as u32);
        }
    }

    fn node(&mut self, n: &Node, in_loop: bool, in_sub: bool) {
        match n {
            Node::Op(i) => {
                self.push(i.clone());
            }
            Node::Bra { cond, .. } => {
                self.push(Instruction {
                    cond_flow: *cond,
                    ..Instruction::new(Opcode::Bra)
                });
            }
            // Subroutines make no calls, so the call graph has no cycles.
            Node::Call { .. } if in_sub => {
                self.push(Instruction::new(Opcode::Nop));
            }
            Node::Call { inst, target } => {
                let at = self.push(inst.clone());
                self.calls.push((at, *target));
            }
            Node::LoopCtl(i) => {
                self.push(if in_loop {
                    i.clone()
                } else {
                    Instruction::new(Opcode::Nop)
                });
            }
            Node::If {
                head,
                labels,
                then,
                otherwise,
            } => {
                let h = self.push(head.clone());
                self.nodes(then, in_loop, in_sub);
                let e = otherwise.as_ref().map(|body| {
                    let e = self.push(Instruction::new(Opcode::Else));
                    self.nodes(body, in_loop, in_sub);
                    e
                });
                let end = self.push(Instruction::new(Opcode::EndIf));
                if *labels {
                    self.out[h].label = Some(e.unwrap_or(end) as u32);
                    if let Some(e) = e {
                        self.out[e].label = Some(end as u32);
                    }
                }
            }
            Node::Loop {
                head,
                tail,
                labels,
                body,
            } => {
                let h = self.push(head.clone());
                self.nodes(body, true, in_sub);
                let t = self.push(tail.clone());
                if *labels {
                    self.out[h].label = Some(t as u32);
                    self.out[t].label = Some(h as u32);
                }
            }
        }
    }
}

/// Builds the instruction list: the main body, END, then each subroutine as BGNSUB ... ENDSUB.
pub fn assemble(main: &[Node], subs: &[Vec<Node>]) -> Vec<Instruction> {
    let mut f = Flattener::default();
    f.nodes(main, false, false);
    f.push(Instruction::new(Opcode::End));
    let mut starts = Vec::new();
    for body in subs {
        starts.push(f.push(Instruction::new(Opcode::BgnSub)));
        f.nodes(body, false, true);
        f.push(Instruction::new(Opcode::EndSub));
    }
    for (at, target) in std::mem::take(&mut f.calls) {
        match starts.get(target % starts.len().max(1)) {
            Some(&s) => f.out[at].label = Some(s as u32),
            None => f.out[at] = Instruction::new(Opcode::Nop),
        }
    }
    f.out
}

/// A random valid program.
pub fn program() -> impl Strategy<Value = Program> {
    processor()
        .prop_flat_map(|p| (Just(p), declarations(p), immediates(), properties()))
        .prop_flat_map(|(processor, declarations, immediates, properties)| {
            let ctx = Arc::new(Context {
                processor,
                declarations: declarations.clone(),
                immediates: immediates.len(),
            });
            (
                Just(Program {
                    properties,
                    declarations,
                    immediates,
                    ..Program::new(processor)
                }),
                vec(node(ctx.clone()), 0..6),
                vec(vec(node(ctx), 0..4), 0..3),
            )
        })
        .prop_map(|(p, main, subs)| Program {
            instructions: assemble(&main, &subs),
            ..p
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::HashSet;

    /// Nesting level of each instruction; closers (ELSE, ENDIF, loop ends, ENDSUB, END) count
    /// at the level of the block they close.
    fn levels(p: &Program) -> Vec<i64> {
        let mut c = 0i64;
        let mut out = Vec::new();
        for i in &p.instructions {
            match i.opcode.info().flow() {
                Some(
                    Flow::If | Flow::Ifc | Flow::BgnLoop | Flow::BgnFor | Flow::Rep | Flow::BgnSub,
                ) => {
                    out.push(c);
                    c += 1;
                }
                Some(Flow::Else | Flow::End) => out.push(c - 1),
                Some(Flow::EndIf | Flow::EndLoop | Flow::EndFor | Flow::EndRep | Flow::EndSub) => {
                    c -= 1;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        out
    }

    proptest! {
        /// A BRA never leaves its block before its target and never jumps into another block.
        #[test]
        fn branches_stay_in_their_block(p in program()) {
            let level = levels(&p);
            for (a, i) in p.instructions.iter().enumerate() {
                if i.opcode != Opcode::Bra {
                    continue;
                }
                let t = i.label.map_or(0, |l| l as usize);
                prop_assert!(t > a);
                prop_assert!(level[a + 1..t].iter().all(|&l| l >= level[a]), "{a} -> {t}");
                prop_assert!(level[t] == level[a] || level[t] == level[a] - 1, "{a} -> {t}");
            }
        }
    }

    /// The generator reaches every supported opcode and the rarer operand features.
    #[test]
    fn generated_programs_cover_the_ir() {
        let mut runner = TestRunner::deterministic();
        let strategy = program();
        let mut opcodes = HashSet::new();
        let mut features = HashSet::new();
        for _ in 0..400 {
            let Ok(tree) = strategy.new_tree(&mut runner) else {
                panic!("generator failed")
            };
            let p = tree.current();
            if !p.properties.is_empty() {
                features.insert("property");
            }
            if p.immediates.iter().any(|i| i.ty == ImmType::Int32) {
                features.insert("int32 immediate");
            }
            for d in &p.declarations {
                if d.semantic.is_some() && d.interpolate.is_some() && d.usage_mask != 0xF {
                    features.insert("semantic + interpolation + usage mask");
                }
                if !d.array_data.is_empty() {
                    features.insert("immx data");
                }
                if d.dimension == Some(DeclDimension::Empty) {
                    features.insert("decl 2-D empty");
                }
            }
            for i in &p.instructions {
                opcodes.insert(i.opcode);
                if i.saturate == Saturate::MinusPlusOne && i.precision == Precision::Fixed12 {
                    features.insert("saturate + precision");
                }
                if i.cond_update == Some(1) {
                    features.insert("cond update");
                }
                if i.cond_flow.is_some() {
                    features.insert("cond flow");
                }
                if i.label.is_some() {
                    features.insert("label");
                }
                for s in &i.src {
                    if s.reg.indirect.is_some() {
                        features.insert("indirect");
                    }
                    if s.reg.dimension.is_some_and(|d| d.indirect.is_some()) {
                        features.insert("dimension indirect");
                    }
                    if s.ext_swizzle.is_some_and(|e| e.divide == ExtSel::W) {
                        features.insert("divide");
                    }
                    if s.ext_mod.complement && s.ext_mod.scale2x {
                        features.insert("ext mod");
                    }
                }
                for d in &i.dst {
                    if d.cond.is_some() && d.modulate != Modulate::X1 {
                        features.insert("dst cond + modulate");
                    }
                    if d.reg.dimension.is_some() {
                        features.insert("dst 2-D");
                    }
                }
            }
        }
        for r in OPCODES.iter().filter(|r| r.is_supported()) {
            assert!(
                opcodes.contains(&r.opcode),
                "{} never generated",
                r.mnemonic
            );
        }
        assert_eq!(features.len(), 15, "{features:?}");
    }
}
