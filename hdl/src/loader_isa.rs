//! The loader processor's instruction set: one table ([`OPS`], with [`IO_OPS`] and [`SHIFTS`] and
//! [`MOVES`] for the sub-operations) read by the processor's decoder ([`crate::loader::Loader`]),
//! the assembler ([`Asm`]) that builds the firmware ([`crate::loader_firmware`]) and the
//! disassembler ([`disasm`]) of traces and listings.
//!
//! An instruction is 16 bits: the operation number in bits 15..11 and an 11-bit operand `k`
//! (an immediate, a variable number, a loader-memory address, a jump target, a step or the
//! sub-operation). Registers: `A` (32-bit accumulator), `T` (32-bit second operand and the core
//! word last read), `P` (11-bit loader-memory pointer), `H` (15-bit byte address in the core's
//! host-port space, whose word address is `H >> 2` and byte lane `H & 3`; it doubles as a second
//! loader-memory pointer), `N` (13-bit counter of loops and of the answer bytes still to send),
//! the flags `C` (carry, or borrow of a subtraction) and `E` (the result was zero), `PC` and the
//! one-level link register `LR`. Variables are 32 bits, 32 of them, in the firmware memory above
//! the code ([`VAR_BASE`]).
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// Words of firmware memory (code and variables share one 768 x 16 memory, 3 block RAMs).
pub const MEMORY_WORDS: usize = 768;
/// Variables available (32 bits each). Variable `i` is words `766 - 2i` (low half) and
/// `767 - 2i`, so they fill the memory from the top and the decoder forms the address with an
/// exclusive or.
pub const VARS: usize = 27;
/// The first firmware word the variables use: the code must end below it.
pub const VAR_BASE: usize = MEMORY_WORDS - 2 * VARS;

/// The processor's operations, in operation-number order (the table's order).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum CpuOp {
    Ldi,
    Ldh,
    Ldv,
    Stv,
    Ldb,
    Ldw,
    Lbp,
    Sbp,
    Lwp,
    Swp,
    Sbh,
    Add,
    Sub,
    Cmp,
    And,
    Addt,
    Subt,
    Cmpt,
    Sh,
    Mov,
    Jmp,
    Jz,
    Jnz,
    Jc,
    Jnc,
    Je,
    Jne,
    Djn,
    Jnn,
    Call,
    Io,
    Ldx,
}

/// The input/output operations of `IO k`, in `k` order (the order of [`IO_OPS`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum IoOp {
    Waitf,
    Tx,
    Info,
    Hrd,
    Xb,
    Hw1,
    Hw4,
    H4,
    Crcc,
    Crc,
    Crcr,
    Clr,
    Go,
    Flt,
    Kil,
    Cyc,
    Badf,
    Led,
    Ledf,
}

/// What an instruction's `k` field holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// Unused (assembled as 0).
    None,
    /// An unsigned 11-bit immediate.
    Imm,
    /// A variable number (0..32).
    Var,
    /// A loader-memory address.
    Addr,
    /// A pointer step.
    Step,
    /// A firmware address (a label in the assembler).
    Target,
    /// A shift ([`SHIFTS`]).
    Shift,
    /// A register move ([`MOVES`]).
    Move,
    /// An input/output operation ([`IO_OPS`]).
    Io,
}

/// One operation of the table.
#[derive(Copy, Clone, Debug)]
pub struct OpInfo {
    pub op: CpuOp,
    pub mnemonic: &'static str,
    pub operand: Operand,
    /// Clocks it takes, the fetch clock included (input/output operations that wait: at least
    /// this many).
    pub clocks: u8,
    pub effect: &'static str,
}

const fn op(
    op: CpuOp,
    mnemonic: &'static str,
    operand: Operand,
    clocks: u8,
    effect: &'static str,
) -> OpInfo {
    OpInfo {
        op,
        mnemonic,
        operand,
        clocks,
        effect,
    }
}

/// The operations; entry `i` has operation number `i`.
pub const OPS: [OpInfo; 32] = [
    op(CpuOp::Ldi, "LDI", Operand::Imm, 2, "A = k"),
    op(CpuOp::Ldh, "LDH", Operand::Imm, 2, "A = A << 11 | k"),
    op(CpuOp::Ldv, "LDV", Operand::Var, 4, "A = variable k"),
    op(CpuOp::Stv, "STV", Operand::Var, 3, "variable k = A"),
    op(CpuOp::Ldb, "LDB", Operand::Addr, 3, "A = mem[k]"),
    op(
        CpuOp::Ldw,
        "LDW",
        Operand::Addr,
        6,
        "A = mem[k..k+4] (little-endian)",
    ),
    op(CpuOp::Lbp, "LBP", Operand::Step, 3, "A = mem[P]; P += k"),
    op(
        CpuOp::Sbp,
        "SBP",
        Operand::Step,
        2,
        "mem[P] = A & 0xFF; P += k",
    ),
    op(
        CpuOp::Lwp,
        "LWP",
        Operand::Step,
        6,
        "A = mem[P..P+4]; P += k",
    ),
    op(
        CpuOp::Swp,
        "SWP",
        Operand::Step,
        5,
        "mem[P..P+4] = A; P += k",
    ),
    op(
        CpuOp::Sbh,
        "SBH",
        Operand::None,
        2,
        "mem[H] = A & 0xFF; H += 1",
    ),
    op(
        CpuOp::Add,
        "ADD",
        Operand::Imm,
        2,
        "A += k; C = carry, E = (A == 0)",
    ),
    op(
        CpuOp::Sub,
        "SUB",
        Operand::Imm,
        2,
        "A -= k; C = borrow, E = (A == 0)",
    ),
    op(CpuOp::Cmp, "CMP", Operand::Imm, 2, "C = A < k, E = A == k"),
    op(CpuOp::And, "AND", Operand::Imm, 2, "A &= k; E = (A == 0)"),
    op(
        CpuOp::Addt,
        "ADDT",
        Operand::None,
        2,
        "A += T; C = carry, E",
    ),
    op(
        CpuOp::Subt,
        "SUBT",
        Operand::None,
        2,
        "A -= T; C = borrow, E",
    ),
    op(
        CpuOp::Cmpt,
        "CMPT",
        Operand::None,
        2,
        "C = A < T, E = A == T",
    ),
    op(
        CpuOp::Sh,
        "SH",
        Operand::Shift,
        2,
        "A = A shifted (k: SHIFTS)",
    ),
    op(
        CpuOp::Mov,
        "MOV",
        Operand::Move,
        2,
        "register move (k: MOVES)",
    ),
    op(
        CpuOp::Jmp,
        "JMP",
        Operand::Target,
        2,
        "PC = k (k = 0x7FF: PC = A, `JA`)",
    ),
    op(CpuOp::Jz, "JZ", Operand::Target, 2, "PC = k if A == 0"),
    op(CpuOp::Jnz, "JNZ", Operand::Target, 2, "PC = k if A != 0"),
    op(CpuOp::Jc, "JC", Operand::Target, 2, "PC = k if C"),
    op(CpuOp::Jnc, "JNC", Operand::Target, 2, "PC = k if not C"),
    op(CpuOp::Je, "JE", Operand::Target, 2, "PC = k if E"),
    op(CpuOp::Jne, "JNE", Operand::Target, 2, "PC = k if not E"),
    op(
        CpuOp::Djn,
        "DJN",
        Operand::Target,
        2,
        "N -= 1; PC = k if N != 0",
    ),
    op(
        CpuOp::Jnn,
        "JNN",
        Operand::Target,
        2,
        "PC = k if N != 0 (loops over TX, which counts N down)",
    ),
    op(
        CpuOp::Call,
        "CALL",
        Operand::Target,
        2,
        "LR = PC + 1; PC = k (k = 0x7FF: PC = LR)",
    ),
    op(
        CpuOp::Io,
        "IO",
        Operand::Io,
        2,
        "input/output operation k (IO_OPS)",
    ),
    op(
        CpuOp::Ldx,
        "LDX",
        Operand::Target,
        4,
        "A = firmware word k + A (tables)",
    ),
];

/// `CALL` with this target returns (`PC = LR`); `JMP` with it jumps to `A`.
pub const RET: u16 = 0x7FF;

/// Shifts of `SH`, by `k`.
pub const SHIFTS: [&str; 4] = ["SHR8", "SHR16", "SHL2", "SHL4"];

/// Register moves of `MOV`, by `k`.
pub const MOVES: [&str; 8] = ["TA", "AT", "PA", "AP", "HA", "AH", "NA", "AN"];

/// Input/output operations of `IO`, by `k`, with what they do.
pub const IO_OPS: [(IoOp, &str, &str); 19] = [
    (IoOp::Waitf, "WAITF", "wait for the transmitter to finish and a good request frame: A = its body length (the receiver owns the loader memory meanwhile)"),
    (IoOp::Tx, "TX", "send A & 0xFF as the next answer byte (the last one when N == 1); N -= 1"),
    (IoOp::Info, "INFO", "A = INFO record byte P; P += 1"),
    (IoOp::Hrd, "HRD", "T = core word H >> 2 (3 clocks)"),
    (IoOp::Xb, "XB", "A = byte H & 3 of T; H += 1"),
    (IoOp::Hw1, "HW1", "core word H >> 2 = T with byte H & 3 replaced by A & 0xFF; H += 1"),
    (IoOp::Hw4, "HW4", "core word H >> 2 = A; H += 4"),
    (IoOp::H4, "H4", "H += 4"),
    (IoOp::Crcc, "CRCC", "CRC unit: start a new message"),
    (IoOp::Crc, "CRC", "CRC unit: absorb A & 0xFF"),
    (IoOp::Crcr, "CRCR", "T = the CRC so far"),
    (IoOp::Clr, "CLR", "core clear pulse (from a register, a clock later), wait until it is done (at least 6 clocks)"),
    (IoOp::Go, "GO", "core start pulse (from a register, a clock later), wait for done"),
    (IoOp::Flt, "FLT", "A = the core's fault code"),
    (IoOp::Kil, "KIL", "A = the core's kill mask"),
    (IoOp::Cyc, "CYC", "T = the core's cycle count"),
    (IoOp::Badf, "BADF", "A = bad frames received (saturating)"),
    (IoOp::Led, "LED", "load-state LEDs = A & 3"),
    (IoOp::Ledf, "LEDF", "fault LED = (A != 0)"),
];

/// The input/output operation number of `name` (a programming error if unknown: the firmware
/// is fixed, and a test assembles it).
pub fn io_code(name: &str) -> u16 {
    IO_OPS
        .iter()
        .position(|(_, n, _)| *n == name)
        .unwrap_or_else(|| panic!("no loader IO operation {name}")) as u16
}

/// The `k` of sub-operation `name` in `table` ([`MOVES`], [`SHIFTS`]); a programming error if
/// unknown (the firmware is fixed, and a test assembles it).
fn sub_operation(table: &[&str], name: &str) -> u32 {
    table
        .iter()
        .position(|m| *m == name)
        .unwrap_or_else(|| panic!("no loader sub-operation {name}")) as u32
}

/// The decoder's table: operation number to [`CpuOp`], built from [`OPS`].
pub fn decode_rom() -> ROM<CpuOp, 5> {
    let map: BTreeMap<Bits<5>, CpuOp> = OPS
        .iter()
        .enumerate()
        .map(|(i, o)| (Bits::<5>::from(i as u64), o.op))
        .collect();
    ROM::new(map)
}

/// The decoder's table of input/output operations: `k` to [`IoOp`], built from [`IO_OPS`].
pub fn io_rom() -> ROM<IoOp, 5> {
    let map: BTreeMap<Bits<5>, IoOp> = IO_OPS
        .iter()
        .enumerate()
        .map(|(i, o)| (Bits::<5>::from(i as u64), o.0))
        .collect();
    ROM::new(map)
}

/// The operation number of `op`.
pub fn code(op: CpuOp) -> u16 {
    OPS.iter()
        .position(|o| o.op == op)
        .expect("every operation is in the table") as u16
}

/// Text of one instruction word.
pub fn disasm(word: u16) -> String {
    let info = &OPS[usize::from(word >> 11)];
    let k = word & 0x7FF;
    match info.operand {
        Operand::None => info.mnemonic.to_string(),
        Operand::Imm | Operand::Addr => format!("{} {:#x}", info.mnemonic, k),
        Operand::Var => format!("{} v{}", info.mnemonic, k),
        Operand::Step => format!("{} {}", info.mnemonic, k),
        Operand::Target if info.op == CpuOp::Call && k == RET => "RET".to_string(),
        Operand::Target if info.op == CpuOp::Jmp && k == RET => "JA".to_string(),
        Operand::Target => format!("{} {:03x}", info.mnemonic, k),
        Operand::Shift => SHIFTS
            .get(usize::from(k))
            .map_or_else(|| format!("SH ?{k}"), |s| s.to_string()),
        Operand::Move => MOVES
            .get(usize::from(k))
            .map_or_else(|| format!("MOV ?{k}"), |s| format!("MOV {s}")),
        Operand::Io => IO_OPS
            .get(usize::from(k))
            .map_or_else(|| format!("IO ?{k}"), |(_, s, _)| format!("IO {s}")),
    }
}

/// Why firmware does not assemble.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsmError {
    #[error("label `{0}` is used but never defined")]
    UndefinedLabel(String),
    #[error("label `{0}` is defined twice")]
    DuplicateLabel(String),
    #[error("{mnemonic} operand {value:#x} does not fit its field (11 bits, or a variable number below 27)")]
    Operand { mnemonic: &'static str, value: u32 },
    #[error("the code is {words} words; the firmware memory holds {limit} below the variables")]
    TooLong { words: usize, limit: usize },
}

/// A two-pass assembler: instructions are appended with their operand or a label, labels
/// resolved by [`Asm::finish`].
#[derive(Default)]
pub struct Asm {
    words: Vec<u16>,
    labels: BTreeMap<String, usize>,
    fixups: Vec<(usize, String, i32)>,
    errors: Vec<AsmError>,
}

impl Asm {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `op` with operand `k`.
    pub fn emit(&mut self, op: CpuOp, k: u32) -> &mut Self {
        let var = matches!(op, CpuOp::Ldv | CpuOp::Stv);
        if k > 0x7FF || (var && k as usize >= VARS) {
            self.errors.push(AsmError::Operand {
                mnemonic: OPS[usize::from(code(op))].mnemonic,
                value: k,
            });
        }
        self.words.push(code(op) << 11 | (k & 0x7FF) as u16);
        self
    }

    /// Appends `op` whose operand is the address of `label`.
    pub fn to(&mut self, op: CpuOp, label: &str) -> &mut Self {
        self.to_at(op, label, 0)
    }

    /// Appends `op` whose operand is the address of `label` plus `offset` (a table indexed
    /// from a first entry other than 0).
    pub fn to_at(&mut self, op: CpuOp, label: &str, offset: i32) -> &mut Self {
        self.fixups
            .push((self.words.len(), label.to_string(), offset));
        self.words.push(code(op) << 11);
        self
    }

    /// Defines `label` at the next instruction.
    pub fn label(&mut self, label: &str) -> &mut Self {
        if self
            .labels
            .insert(label.to_string(), self.words.len())
            .is_some()
        {
            self.errors
                .push(AsmError::DuplicateLabel(label.to_string()));
        }
        self
    }

    /// `IO name`.
    pub fn io(&mut self, name: &str) -> &mut Self {
        self.emit(CpuOp::Io, u32::from(io_code(name)))
    }

    /// `MOV name`.
    pub fn mov(&mut self, name: &str) -> &mut Self {
        self.emit(CpuOp::Mov, sub_operation(&MOVES, name))
    }

    /// `SH name`.
    pub fn sh(&mut self, name: &str) -> &mut Self {
        self.emit(CpuOp::Sh, sub_operation(&SHIFTS, name))
    }

    /// `CALL label`.
    pub fn call(&mut self, label: &str) -> &mut Self {
        self.to(CpuOp::Call, label)
    }

    /// Jump to the address in `A`.
    pub fn ja(&mut self) -> &mut Self {
        self.emit(CpuOp::Jmp, u32::from(RET))
    }

    /// Raw data words (tables read with `LDX`).
    pub fn data(&mut self, words: &[u32]) -> &mut Self {
        for &w in words {
            if w > 0xFFFF {
                self.errors.push(AsmError::Operand {
                    mnemonic: "data",
                    value: w,
                });
            }
            self.words.push(w as u16);
        }
        self
    }

    /// The address of a label as a data word (jump tables), resolved by [`Asm::finish`].
    pub fn data_label(&mut self, label: &str) -> &mut Self {
        self.fixups.push((self.words.len(), label.to_string(), 0));
        self.words.push(0);
        self
    }

    /// Return from a call.
    pub fn ret(&mut self) -> &mut Self {
        self.emit(CpuOp::Call, u32::from(RET))
    }

    /// `A = value` in as few `LDI`/`LDH` as it takes (1 to 3).
    pub fn ld32(&mut self, value: u32) -> &mut Self {
        if value <= 0x7FF {
            self.emit(CpuOp::Ldi, value)
        } else if value <= 0x3F_FFFF {
            self.emit(CpuOp::Ldi, value >> 11)
                .emit(CpuOp::Ldh, value & 0x7FF)
        } else {
            self.emit(CpuOp::Ldi, value >> 22)
                .emit(CpuOp::Ldh, (value >> 11) & 0x7FF)
                .emit(CpuOp::Ldh, value & 0x7FF)
        }
    }

    /// The code, labels resolved.
    pub fn finish(mut self) -> Result<Vec<u16>, AsmError> {
        if let Some(e) = self.errors.into_iter().next() {
            return Err(e);
        }
        for (at, label, offset) in std::mem::take(&mut self.fixups) {
            let target = *self
                .labels
                .get(&label)
                .ok_or_else(|| AsmError::UndefinedLabel(label.clone()))?;
            let k = (target as i64 + i64::from(offset)) as u64 & 0x7FF;
            self.words[at] |= k as u16;
        }
        if self.words.len() > VAR_BASE {
            return Err(AsmError::TooLong {
                words: self.words.len(),
                limit: VAR_BASE,
            });
        }
        Ok(self.words)
    }
}

/// The instruction set as Markdown tables (operations, then shifts, moves and input/output
/// operations), as ARCHITECTURE.md holds them.
pub fn tables_markdown() -> String {
    let mut t =
        String::from("| number | mnemonic | operand | clocks | effect |\n|---|---|---|---|---|\n");
    for (i, o) in OPS.iter().enumerate() {
        let operand = match o.operand {
            Operand::None => "",
            Operand::Imm => "immediate",
            Operand::Var => "variable",
            Operand::Addr => "address",
            Operand::Step => "step",
            Operand::Target => "target",
            Operand::Shift => "shift",
            Operand::Move => "move",
            Operand::Io => "operation",
        };
        t.push_str(&format!(
            "| {i} | `{}` | {operand} | {} | {} |\n",
            o.mnemonic, o.clocks, o.effect
        ));
    }
    t.push_str("\nShifts (`SH k`): ");
    let sh: Vec<String> = SHIFTS
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{i} `{s}`"))
        .collect();
    t.push_str(&sh.join(", "));
    t.push_str(". Moves (`MOV k`, destination first): ");
    let mv: Vec<String> = MOVES
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{i} `{s}`"))
        .collect();
    t.push_str(&mv.join(", "));
    t.push_str(".\n\n| `IO k` | name | effect |\n|---|---|---|\n");
    for (i, (_, name, effect)) in IO_OPS.iter().enumerate() {
        t.push_str(&format!("| {i} | `{name}` | {effect} |\n"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architecture_md_holds_the_tables() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ARCHITECTURE.md");
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        let t = tables_markdown();
        assert!(
            doc.contains(&t),
            "ARCHITECTURE.md must contain the generated loader ISA tables:\n{t}"
        );
    }

    /// `Loader` decodes the moves and shifts by their index (in hdl_gen a table lookup would be
    /// a ROM per bit): reordering these tables without the decoder must fail here.
    #[test]
    fn moves_and_shifts_are_in_the_decoder_order() {
        assert_eq!(MOVES, ["TA", "AT", "PA", "AP", "HA", "AH", "NA", "AN"]);
        assert_eq!(SHIFTS, ["SHR8", "SHR16", "SHL2", "SHL4"]);
    }

    #[test]
    fn the_table_is_in_operation_number_order() {
        for (i, o) in OPS.iter().enumerate() {
            assert_eq!(code(o.op), i as u16, "{}", o.mnemonic);
        }
        for (i, o) in IO_OPS.iter().enumerate() {
            assert_eq!(io_code(o.1), i as u16, "{}", o.1);
        }
    }

    #[test]
    fn labels_resolve_and_errors_are_named() {
        let mut a = Asm::new();
        a.label("top")
            .emit(CpuOp::Ldi, 5)
            .to(CpuOp::Jmp, "top")
            .ret();
        let w = a.finish().unwrap();
        assert_eq!(w.len(), 3);
        assert_eq!(disasm(w[0]), "LDI 0x5");
        assert_eq!(disasm(w[1]), "JMP 000");
        assert_eq!(disasm(w[2]), "RET");
        let mut a = Asm::new();
        a.to(CpuOp::Jz, "nowhere");
        assert_eq!(a.finish(), Err(AsmError::UndefinedLabel("nowhere".into())));
        let mut a = Asm::new();
        a.emit(CpuOp::Add, 0x800);
        assert!(matches!(a.finish(), Err(AsmError::Operand { .. })));
    }

    #[test]
    fn ld32_builds_every_width() {
        for v in [
            0u32,
            0x7FF,
            0x800,
            0x3F_FFFF,
            0x40_0000,
            0xFFFF_FFFF,
            0x1234_5678,
        ] {
            let mut a = Asm::new();
            a.ld32(v);
            let mut acc: u32 = 0;
            for w in a.finish().unwrap() {
                let k = u32::from(w & 0x7FF);
                acc = if w >> 11 == code(CpuOp::Ldi) {
                    k
                } else {
                    acc << 11 | k
                };
            }
            assert_eq!(acc, v);
        }
    }
}
