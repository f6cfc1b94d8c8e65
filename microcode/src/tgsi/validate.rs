//! The validator between parsing and everything else.

use super::opcode::{OpcodeInfo, OperandType};

/// True when an opcode may carry saturate and MODULATE: it has a destination and neither produces
/// integers nor reads or writes doubles (`decisions.md` section 2: both are float-result operations).
pub fn allows_saturate(info: &OpcodeInfo) -> bool {
    let int_or_double = |t: OperandType| t.is_integer() || t == OperandType::Double;
    info.num_dst > 0 && !int_or_double(info.dst_type) && info.src_type != OperandType::Double
}
