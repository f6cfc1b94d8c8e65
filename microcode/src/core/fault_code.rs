//! Fault codes of the shader core: what its host port's `fault` output carries
//! (`hdl::host_port`) and what the on-chip loader reports in a RUN's summary and RESULTS records
//! (`firmware-loader/PROTOCOL.md`). [`EMIT`] and [`ENDPRIM`] are pauses, not faults: the run
//! continues when the host resumes it.
//!
//! One table ([`FAULTS`]) gives each code its constant, its name and whether it pauses; the
//! hardware engines print [`name`], the core model maps its fault kinds onto the codes
//! (`sim::core_model::FaultKind::code`), the hardware raises them (`hdl`'s sequencer, flow
//! decision and address stack hold these constants as Verilog `localparam`s).

/// One row of the fault table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The 4-bit code on the host port.
    pub code: u8,
    /// The constant's name.
    pub ident: &'static str,
    /// What a user reads.
    pub name: &'static str,
    /// A pause the host resumes rather than the end of the run.
    pub pause: bool,
}

macro_rules! fault_table {
    ($( $(#[$doc:meta])* $ident:ident = $code:literal, $name:literal, $pause:literal; )*) => {
        $( $(#[$doc])* pub const $ident: u8 = $code; )*
        /// Every code, in number order.
        pub static FAULTS: &[Fault] = &[
            $( Fault { code: $code, ident: stringify!($ident), name: $name, pause: $pause }, )*
        ];
    };
}

fault_table! {
    /// No fault.
    NONE = 0, "none", false;
    /// The instruction budget ran out.
    BUDGET = 1, "instruction budget exhausted", false;
    /// Mask stack overflow.
    STACK_OVERFLOW = 2, "mask stack overflow", false;
    /// Call stack overflow.
    CALL_OVERFLOW = 3, "call stack overflow", false;
    /// A frame of the wrong kind (or none) at ELSE/ENDIF/ENDLOOP/NEXT.
    STACK_MISMATCH = 4, "mask stack mismatch", false;
    /// A conditional branch taken by some active lanes only.
    DIVERGENT = 5, "divergent conditional branch", false;
    /// An operation this hardware build does not implement.
    MISSING_UNIT = 6, "operation not built in this hardware", false;
    /// The program ran past the end of instruction memory without END.
    PC_RANGE = 7, "program counter out of range", false;
    /// PUSHA with an active lane's address stack full.
    ADDRESS_OVERFLOW = 8, "address stack overflow", false;
    /// POPA with an active lane's address stack empty.
    ADDRESS_UNDERFLOW = 9, "address stack underflow", false;
    /// Paused after EMIT: the lanes on `lanes` emitted a vertex (not a fault: `resume`).
    EMIT = 10, "paused at EMIT (a vertex for the host)", true;
    /// Paused after ENDPRIM: the lanes on `lanes` end their primitive (not a fault: `resume`).
    ENDPRIM = 11, "paused at ENDPRIM (a primitive's end for the host)", true;
    /// Not a core's own code: a board with several cores ran a quad on all of them at once
    /// (CORE with every core selected) and their results (outputs, kill masks, faults or
    /// cycles) differ. The multi-core loader reports it for the quad.
    CORES_DIFFER = 12, "the cores' results differ (a RUN on every core)", false;
}

/// The row of `code`, if it is one.
pub fn lookup(code: u8) -> Option<&'static Fault> {
    FAULTS.iter().find(|f| f.code == code)
}

/// What a user reads for `code` ("unknown fault" for a code no row has).
pub fn name(code: u8) -> &'static str {
    lookup(code).map_or("unknown fault", |f| f.name)
}

/// True for the codes that pause a run ([`EMIT`], [`ENDPRIM`]) rather than end it.
pub fn is_pause(code: u8) -> bool {
    lookup(code).is_some_and(|f| f.pause)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes are the row's position, fit the port's 4 bits, and are distinct.
    #[test]
    fn codes_are_dense_and_fit_the_port() {
        for (i, f) in FAULTS.iter().enumerate() {
            assert_eq!(usize::from(f.code), i, "{}", f.ident);
            assert!(f.code < 16, "{}", f.ident);
        }
        assert!(is_pause(EMIT) && is_pause(ENDPRIM) && !is_pause(BUDGET));
        assert_eq!(name(13), "unknown fault");
    }
}
