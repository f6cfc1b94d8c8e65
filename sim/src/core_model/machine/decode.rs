//! The machine's decoding: each instruction of the image resolved once when the machine is
//! made ([`Decoded`]: its execution kind, operand components, write masks and timing row), and
//! the compiler's sequences it recognises to run at once ([`Fused`]), so that a run does not look
//! up the ISA table, operand files and swizzles again per execution, lane and component.

use super::{Machine, ONE, SIGN};
use microcode::core::eval::reads_predicate;
use microcode::core::isa::{Cond, DstKind, Instr, Op, Operand, SrcFile, StepTiming, Unit, SWZ_ONE};

/// One component of an operand resolved once per machine: its value in a lane is
/// `(R[reg][lane][comp] & and) ^ xor`. The constant file K and the literals do not change during
/// a run, so their components (and the ZERO and ONE selectors, an operand the operation does not
/// read, a register beyond R) are constants: `and` 0 and the value in `xor`. A register's
/// component carries its swizzle selector in `comp`, abs in `and` (the sign cleared) and neg in
/// `xor` (the sign flipped).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Comp {
    pub(super) reg: usize,
    pub(super) comp: usize,
    pub(super) and: u32,
    pub(super) xor: u32,
}

impl Comp {
    pub(super) fn constant(v: u32) -> Comp {
        Comp {
            reg: 0,
            comp: 0,
            and: 0,
            xor: v,
        }
    }
}

/// An operand's four components.
pub(super) type Src = [Comp; 4];

/// How the machine executes an instruction.
#[derive(Clone, Copy)]
pub(super) enum Exec {
    /// A component-wise operation of [`component`] on the decoded operands.
    Alu(Op),
    /// SETP on the decoded operands.
    Setp,
    /// Flow control: [`Machine::flow`] on the image's instruction.
    Flow,
    /// Everything else (texture, relative moves, derivatives, doubles, the address stack, an
    /// operation whose unit the core lacks): [`Machine::step`] on the image's instruction.
    Other,
}

/// One instruction decoded when the machine is made, so that a run does not look up its ISA
/// row, operand files, swizzles and timing again per execution, lane and component.
#[derive(Clone, Copy)]
pub(super) struct Decoded {
    pub(super) exec: Exec,
    pub(super) cond: Cond,
    pub(super) dst: usize,
    pub(super) wmask: u8,
    pub(super) pw: u8,
    pub(super) sat: u8,
    pub(super) src: [Src; 3],
    /// The component written, when it is one component written in every active lane (no
    /// predicated write).
    pub(super) single: Option<usize>,
    /// The components written in every active lane, one after another, when that is the same
    /// as computing them all first: no predicated write, and no operand reads the destination.
    pub(super) direct: Option<u8>,
    /// Every written component has the same result: the operands' components are the same
    /// (TGSI's scalar operations replicate one value) and the operation does not read the
    /// predicates, so the value is computed once.
    pub(super) broadcast: bool,
    pub(super) timing: StepTiming,
    /// The compiler sequence ([`Fused`]) that starts here, when the instructions from here on
    /// are one: [`Machine::run_fused`] runs them at once.
    pub(super) fused: Option<Fused>,
}

/// Declares the fused sequences: each name with its operations, in the order the compiler
/// emits them (`microcode/src/compile/trans.rs`). From the one list come [`Fused::ops`] (what
/// [`Machine::new`] recognises) and [`Machine::run_fused`] (each operation's lane loop with its
/// arithmetic inlined, one after another).
macro_rules! fused_sequences {
    ($($(#[$doc:meta])* $name:ident: [$($op:ident),* $(,)?];)*) => {
        /// A straight-line run of component-wise instructions that the compiler emits as one
        /// sequence (a transcendental function's steps). [`Machine::run_fused`] executes its
        /// instructions in order, each as [`Machine::alu_decoded`] would, without the
        /// per-instruction budget check, trace, dispatch on the execution kind and on the
        /// operation (the operations are known where the sequence's code is made). None of them
        /// changes the execution mask, the predicates or the lanes' liveness, so nothing between
        /// them needs looking at. Only the operations are matched: any operands, destinations,
        /// write masks, predicated writes and saturates. (Measured, 2026-11-27: RSQ and EX2 gain;
        /// the SIN / COS sequence lost in rings, so it is not fused.)
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(super) enum Fused {
            $($(#[$doc])* $name,)*
        }

        impl Fused {
            /// Every sequence, the longest first (a sequence that starts another one wins).
            pub(super) const ALL: &'static [Fused] = &[$(Fused::$name),*];

            /// The sequence's operations, in order.
            pub(super) fn ops(self) -> &'static [Op] {
                match self {
                    $(Fused::$name => &[$(Op::$op),*],)*
                }
            }
        }

        impl Machine<'_> {
            /// Executes the fused sequence `kind`, decoded as `ds` (its instructions, in order),
            /// in the active lanes. The caller counts the instructions and their clocks.
            pub(super) fn run_fused(&mut self, kind: Fused, ds: &[Decoded]) {
                match kind {
                    $(Fused::$name => {
                        let mut ds = ds.iter();
                        $(
                            if let Some(d) = ds.next() {
                                self.alu_known(d, Op::$op);
                            }
                        )*
                    })*
                }
            }
        }
    };
}

fused_sequences! {
    /// RSQ (and the square roots built on it).
    Rsq: [Rsqr, Rsqt, U2f, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Fmad, Rsqf];
    /// EX2 (and POW's exponential).
    Ex2: [Fmad, F2ir, I2f, Fmad, Fmad, Fmad, Fmad, Ex2t, Fmad, Ex2f];
}

impl Machine<'_> {
    /// See [`Machine::dirty`]: every register of R the run's start or an instruction may write.
    pub(super) fn dirty_registers(&self) -> Vec<usize> {
        let mut dirty = vec![false; self.r.len()];
        for &(_, reg) in &self.input_map {
            dirty[reg] = true;
        }
        for i in &self.img.code {
            if i.op.info().dst != DstKind::Reg {
                continue;
            }
            let first = usize::from(i.dst);
            // MOVW writes R[dst + k] for 0 <= k <= C.index.
            let last = if i.op == Op::Movw {
                first + usize::from(i.src[2].index)
            } else {
                first
            };
            for d in dirty.iter_mut().take(last + 1).skip(first) {
                *d = true;
            }
        }
        (0..dirty.len()).filter(|&r| dirty[r]).collect()
    }

    /// Resolves `o` for [`Decoded`]: what [`Machine::read`] gives in every lane.
    fn decode_src(&self, o: &Operand) -> Src {
        let reg = usize::from(o.index);
        if o.file != SrcFile::R || reg >= self.r.len() {
            // The same in every lane: lane 0's value.
            return self.read(o, 0).map(Comp::constant);
        }
        let and = if o.abs { !SIGN } else { !0 };
        std::array::from_fn(|c| {
            let neg = u32::from((o.neg >> c) & 1) << 31;
            match o.swz[c] {
                s @ 0..=3 => Comp {
                    reg,
                    comp: usize::from(s),
                    and,
                    xor: neg,
                },
                SWZ_ONE => Comp::constant((ONE & and) ^ neg),
                // ZERO, and selectors beyond ONE, read 0.
                _ => Comp::constant(neg),
            }
        })
    }

    pub(super) fn decode(&self, i: &Instr) -> Decoded {
        let info = i.op.info();
        let need = info.unit.feature();
        let available = need == 0 || self.img.config.has(need);
        let exec = match i.op {
            _ if !available => Exec::Other,
            _ if info.unit == Unit::Flow => Exec::Flow,
            Op::Pusha | Op::Popa | Op::Tfet | Op::Txq | Op::Tex | Op::Txf | Op::Dop => Exec::Other,
            Op::Movr | Op::Movw | Op::Ddx | Op::Ddy => Exec::Other,
            _ if info.dst == DstKind::Pred => Exec::Setp,
            op => Exec::Alu(op),
        };
        // Operands the operation does not read (its ISA row's source count) stay zero.
        let sources = usize::from(info.sources);
        let src = std::array::from_fn(|n| {
            if n < sources.max(1) {
                self.decode_src(&i.src[n])
            } else {
                [Comp::constant(0); 4]
            }
        });
        let written = || (0..4).filter(|c| i.wmask & (1 << c) != 0);
        let broadcast = !reads_predicate(i.op)
            && written().all(|c| written().all(|c2| src.iter().all(|s: &Src| s[c] == s[c2])));
        let dst = usize::from(i.dst);
        let aliased = src
            .iter()
            .any(|s| s.iter().any(|comp| comp.and != 0 && comp.reg == dst));
        let direct = (!matches!(i.pw, 1 | 2) && !aliased).then_some(i.wmask & 0xF);
        Decoded {
            exec,
            direct,
            cond: i.cond,
            dst: usize::from(i.dst),
            wmask: i.wmask,
            pw: i.pw,
            sat: i.sat,
            src,
            broadcast,
            // Write mask bits beyond w name no component.
            single: ((i.wmask & 0xF).count_ones() == 1 && !matches!(i.pw, 1 | 2))
                .then(|| (i.wmask & 0xF).trailing_zeros() as usize),
            timing: StepTiming::of(i),
            fused: None,
        }
    }

    /// The fused sequence ([`Fused`]) that starts at `pc` of the decoded `code`, if any: its
    /// operations in order, each instruction a decoded component-wise one ([`Exec::Alu`]: its
    /// unit present).
    pub(super) fn fused_at(code: &[Decoded], pc: usize) -> Option<Fused> {
        let fits = |d: &Decoded, op: Op| matches!(d.exec, Exec::Alu(o) if o == op);
        Fused::ALL.iter().copied().find(|kind| {
            let ops = kind.ops();
            code.get(pc..pc + ops.len())
                .is_some_and(|ds| ds.iter().zip(ops).all(|(d, &op)| fits(d, op)))
        })
    }
}
