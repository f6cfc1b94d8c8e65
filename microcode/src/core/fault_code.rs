//! Fault codes of the shader core: what its host port's `fault` output carries
//! (`hdl::host_port`) and what the on-chip loader reports in a RUN's summary and RESULTS records
//! (`firmware-loader/PROTOCOL.md`). [`EMIT`] and [`ENDPRIM`] are pauses, not faults: the run
//! continues when the host resumes it.

/// No fault.
pub const NONE: u8 = 0;
/// The instruction budget ran out.
pub const BUDGET: u8 = 1;
/// Mask stack overflow.
pub const STACK_OVERFLOW: u8 = 2;
/// Call stack overflow.
pub const CALL_OVERFLOW: u8 = 3;
/// A frame of the wrong kind (or none) at ELSE/ENDIF/ENDLOOP/NEXT.
pub const STACK_MISMATCH: u8 = 4;
/// A conditional branch taken by some active lanes only.
pub const DIVERGENT: u8 = 5;
/// An operation this hardware build does not implement.
pub const MISSING_UNIT: u8 = 6;
/// The program ran past the end of instruction memory without END.
pub const PC_RANGE: u8 = 7;
/// PUSHA with an active lane's address stack full.
pub const ADDRESS_OVERFLOW: u8 = 8;
/// POPA with an active lane's address stack empty.
pub const ADDRESS_UNDERFLOW: u8 = 9;
/// Paused after EMIT: the lanes on `lanes` emitted a vertex (not a fault: `resume`).
pub const EMIT: u8 = 10;
/// Paused after ENDPRIM: the lanes on `lanes` end their primitive (not a fault: `resume`).
pub const ENDPRIM: u8 = 11;

/// True for the codes that pause a run ([`EMIT`], [`ENDPRIM`]) rather than end it.
pub fn is_pause(code: u8) -> bool {
    code == EMIT || code == ENDPRIM
}
