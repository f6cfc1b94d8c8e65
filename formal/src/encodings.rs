//! The encodings the queries name, taken from the hardware's own enums and the ISA table (one
//! fact in one place): `(define-fun ADD_OP_F2I () (_ BitVec 3) #b010)` and so on.
use hdl::decoder::{ExecKind, IntOp, ResultSel};
use hdl::fadd::{AddOp, RoundMode};
use hdl::sequencer::{SeqState, DRAIN_CLOCKS};
use microcode::core::isa::Cond;
use rust_hdl::prelude::*;
use std::fmt::Write as _;

fn constant(out: &mut String, name: &str, width: usize, value: u64) {
    let digits: String = (0..width)
        .rev()
        .map(|i| if value >> i & 1 == 1 { '1' } else { '0' })
        .collect();
    let _ = writeln!(out, "(define-fun {name} () (_ BitVec {width}) #b{digits})");
}

macro_rules! states {
    ($out:expr, $ty:ident, $prefix:literal, [$($variant:ident => $name:literal),* $(,)?]) => {
        $(
            let bits: Bits<{ $ty::BITS }> = $ty::$variant.into();
            constant($out, concat!($prefix, $name), $ty::BITS, bits.index() as u64);
        )*
    };
}

/// The SMT-LIB2 constants of every encoding a query uses.
pub fn prelude() -> String {
    let mut out = String::from("; ---- encodings (from hdl's enums and microcode::core::isa)\n");
    states!(&mut out, AddOp, "ADD_OP_", [
        Add => "ADD", Integral => "INTEGRAL", F2i => "F2I", I2fS => "I2FS", I2fU => "I2FU",
        Expx => "EXPX",
    ]);
    states!(&mut out, RoundMode, "ROUND_", [
        Floor => "FLOOR", Ceil => "CEIL", Trunc => "TRUNC", NearestEven => "NEAREST_EVEN",
    ]);
    states!(&mut out, ResultSel, "SEL_", [
        Fmad => "FMAD", Mov => "MOV", Min => "MIN", Max => "MAX", Set => "SET", Sel => "SEL",
        Expn => "EXPN", Mant => "MANT", Sign => "SIGN", Int => "INT", Trans => "TRANS",
        Tex => "TEX",
    ]);
    states!(&mut out, IntOp, "INT_", [
        Iadd => "IADD", Isub => "ISUB", And => "AND", Or => "OR", Xor => "XOR", Not => "NOT",
        Shl => "SHL", Shr => "SHR",
    ]);
    states!(&mut out, SeqState, "SEQ_", [
        Idle => "IDLE", Clear => "CLEAR", Fetch => "FETCH", Exec => "EXEC", Drain => "DRAIN",
        Paused => "PAUSED", Resume => "RESUME",
    ]);
    states!(&mut out, ExecKind, "KIND_", [Missing => "MISSING", Alu => "ALU", Flow => "FLOW"]);
    // The board build's stack capacities (the count registers are 5 and 4 bits wide).
    let board = microcode::core::CoreConfig::default();
    let frames = usize::from(board.mask_stack_depth).clamp(1, hdl::mask_stack::DEPTH);
    constant(&mut out, "MASK_FRAMES", 5, frames as u64);
    let entries = board
        .address_stack_depth
        .min(microcode::core::config::ADDRESS_STACK_ENTRIES);
    constant(&mut out, "ASTACK_ENTRIES", 4, u64::from(entries));
    // The sequencer's drain timer is 9 bits wide.
    constant(&mut out, "DRAIN_CLOCKS", 9, u64::from(DRAIN_CLOCKS));
    for cond in Cond::ALL {
        constant(&mut out, &format!("COND_{}", cond.name()), 3, cond as u64);
    }
    use hdl::decoder::i2f_mode;
    constant(&mut out, "I2F_SIGNED", 2, i2f_mode::SIGNED);
    constant(&mut out, "I2F_UNSIGNED", 2, i2f_mode::UNSIGNED);
    out
}
