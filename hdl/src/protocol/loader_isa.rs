//! The loader processor's instruction set: one table ([`OPS`], with [`IO_OPS`] and [`SHIFTS`] and
//! [`MOVES`] for the sub-operations) read by the processor's decoder ([`crate::loader::Loader`]),
//! the assembler ([`Asm`]) that builds the firmware ([`crate::loader_firmware`]) and the
//! disassembler ([`disasm`]) of traces and listings.
//!
//! An instruction is 16 bits: the operation number in bits 15..11 and an 11-bit operand `k`
//! (an immediate, a variable number, a loader-memory address, a jump target, a constant's
//! address or the sub-operation). Registers: `A` (32-bit accumulator), `T` (32-bit second
//! operand: the previous `A`, see below), `P` (11-bit loader-memory pointer), `H` (15-bit byte
//! address in the core's host-port space, whose word address is `H >> 2` and byte lane `H & 3`;
//! it doubles as a second loader-memory pointer), `N` (13-bit counter of loops and of the answer
//! bytes still to send), the flags `C` (carry, or borrow of a subtraction) and `E` (the result
//! was zero), `PC` and the one-level link register `LR`. Variables are 32 bits, [`VARS`] of
//! them, in the loader memory.
//!
//! The datapath is a byte wide: `A` is a shift register that takes a new top byte and moves
//! right by one byte per step, so a 32-bit operation is four steps through an 8-bit adder (with
//! the carry kept between steps), and every source of `A` (memories, registers, the core's
//! status) arrives a byte at a time. That is what makes the processor small: on the HX8K every
//! 2:1 multiplexer bit costs a LUT4, and only 8 bits of `A` have multiplexers in front.
//!
//! `T` is a shift register behind `A`: it takes the byte `A` drops at each step, so every
//! operation that steps `A` through a word (all but `SH`, whose steps are not four, and the
//! operations that leave `A` alone) ends with the `A` it began with in `T`. `LDW x`, `LDW y`,
//! `CMPT` compares `y` with `x`; `ADDT`, `SUBT` and `CMPT` read `T`'s bytes as they turn. No
//! move to `T` is needed (nor built: loading `T` from `A` in one clock would cost a
//! multiplexer per bit).
use crate::loader_layout::{VARS, VARS_BASE};
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// Words of firmware memory (code, tables and constants: one 1024 x 16 memory, 4 block RAMs,
/// read-only).
pub const MEMORY_WORDS: usize = 1024;

/// The processor's operations, in operation-number order (the table's order).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum CpuOp {
    /// `LDI`: load an immediate into A.
    Ldi,
    /// `STW`: store A's word at a memory address.
    Stw,
    /// `LDB`: load a byte from memory.
    Ldb,
    /// `LDH`: load a half-word from memory.
    Ldh,
    /// `LDW`: load a word from memory.
    Ldw,
    /// `LBP`: load the byte at P, advancing P.
    Lbp,
    /// `LWP`: load the word at P, advancing P.
    Lwp,
    /// `SWP`: store A's word at P, advancing P.
    Swp,
    /// `SBH`: store A's low byte at H, advancing H.
    Sbh,
    /// `ADD`: add an immediate (sets C and E).
    Add,
    /// `SUB`: subtract an immediate (sets C and E).
    Sub,
    /// `CMP`: compare with an immediate (sets C and E).
    Cmp,
    /// `AND`: AND with an immediate (sets E).
    And,
    /// `ADDT`: add T.
    Addt,
    /// `SUBT`: subtract T.
    Subt,
    /// `CMPT`: compare with T.
    Cmpt,
    /// `SH`: one of the shifts of [`SHIFTS`].
    Sh,
    /// `MOV`: a register move.
    Mov,
    /// `JMP`: jump (to T with the operand [`RET`]: `JA`).
    Jmp,
    /// `JZ`: jump if A is zero.
    Jz,
    /// `JNZ`: jump if A is not zero.
    Jnz,
    /// `JC`: jump if C.
    Jc,
    /// `JNC`: jump if not C.
    Jnc,
    /// `JE`: jump if E.
    Je,
    /// `JNE`: jump if not E.
    Jne,
    /// `DJN`: count N down, jump while it is not zero.
    Djn,
    /// `JNN`: jump if N is not zero.
    Jnn,
    /// `CALL`: call (return with the operand [`RET`]).
    Call,
    /// `IO`: an input/output operation ([`IoOp`]).
    Io,
}

/// The input/output operations of `IO k`, in `k` order (the order of [`IO_OPS`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum IoOp {
    /// `WAITF`: wait for the answer to go out and a request segment to arrive.
    Waitf,
    /// `TX`: send an answer body byte.
    Tx,
    /// `TXC`: send the next byte of the answer's CRC.
    Txc,
    /// `TXE`: send END.
    Txe,
    /// `HRD`: read a core word.
    Hrd,
    /// `XB`: read a byte of a core word, advancing H.
    Xb,
    /// `INS`: insert a memory byte into A.
    Ins,
    /// `HW1`: write a core word, advancing H by 1.
    Hw1,
    /// `HW4`: write a core word, advancing H by 4.
    Hw4,
    /// `H4`: advance H by 4.
    H4,
    /// `CRCC`: start a CRC.
    Crcc,
    /// `CRC`: absorb a byte into the CRC.
    Crc,
    /// `CRCW`: absorb a word into the CRC.
    Crcw,
    /// `CRCOK`: check the CRC residue.
    Crcok,
    /// `CLR`: clear the core and wait.
    Clr,
    /// `GO`: start the core and wait for `done`.
    Go,
    /// `RES`: resume the core and wait for `done`.
    Res,
    /// `STAT`: read the core's status word.
    Stat,
    /// `CYC`: read the core's cycle count.
    Cyc,
    /// `LED`: set the load-state LEDs.
    Led,
    /// `LEDF`: set the fault LED.
    Ledf,
    /// `FW`: read a firmware word (tables).
    Fw,
}

/// What an instruction's `k` field holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// Unused (assembled as 0).
    None,
    /// An unsigned 11-bit immediate.
    Imm,
    /// A loader-memory address.
    Addr,
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
    /// The operation (its encoding is its index in [`OPS`]).
    pub op: CpuOp,
    /// Its name in listings and the assembler.
    pub mnemonic: &'static str,
    /// What its operand field holds.
    pub operand: Operand,
    /// Clocks it takes, the fetch clock included (operations that wait, and the shifts and
    /// moves whose sub-operation decides: at least this many).
    pub clocks: u8,
    /// What it does, for the table in ARCHITECTURE.md.
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
pub const OPS: [OpInfo; 29] = [
    op(CpuOp::Ldi, "LDI", Operand::Imm, 5, "A = k"),
    op(
        CpuOp::Stw,
        "STW",
        Operand::Addr,
        5,
        "mem[k..k+4] = A (little-endian; k a multiple of 4)",
    ),
    op(CpuOp::Ldb, "LDB", Operand::Addr, 6, "A = mem[k]"),
    op(
        CpuOp::Ldh,
        "LDH",
        Operand::Addr,
        6,
        "A = mem[k..k+2] (little-endian; not across a word)",
    ),
    op(
        CpuOp::Ldw,
        "LDW",
        Operand::Addr,
        6,
        "A = mem[k..k+4] (little-endian; k a multiple of 4)",
    ),
    op(CpuOp::Lbp, "LBP", Operand::None, 6, "A = mem[P]; P += 1"),
    op(
        CpuOp::Lwp,
        "LWP",
        Operand::None,
        6,
        "A = mem[P..P+4]; P += 4",
    ),
    op(
        CpuOp::Swp,
        "SWP",
        Operand::None,
        5,
        "mem[P..P+4] = A; P += 4",
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
        5,
        "A += k; C = carry, E = (A == 0)",
    ),
    op(
        CpuOp::Sub,
        "SUB",
        Operand::Imm,
        5,
        "A -= k; C = borrow, E = (A == 0)",
    ),
    op(CpuOp::Cmp, "CMP", Operand::Imm, 5, "C = A < k, E = A == k"),
    op(CpuOp::And, "AND", Operand::Imm, 5, "A &= k; E = (A == 0)"),
    op(
        CpuOp::Addt,
        "ADDT",
        Operand::None,
        5,
        "A += T; C = carry, E",
    ),
    op(
        CpuOp::Subt,
        "SUBT",
        Operand::None,
        5,
        "A -= T; C = borrow, E",
    ),
    op(
        CpuOp::Cmpt,
        "CMPT",
        Operand::None,
        5,
        "C = A < T, E = A == T",
    ),
    op(
        CpuOp::Sh,
        "SH",
        Operand::Shift,
        2,
        "A = A shifted (k: SHIFTS; SHR8 2 clocks, SHR16 3, SHL2 9, SHL4 17)",
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
        "PC = k (k = 0x7FF: PC = T, `JA`)",
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
];

/// `CALL` with this target returns (`PC = LR`); `JMP` with it jumps to `T`.
pub const RET: u16 = 0x7FF;

/// Shifts of `SH`, by `k`.
pub const SHIFTS: [&str; 4] = ["SHR8", "SHR16", "SHL2", "SHL4"];

/// Register moves of `MOV`, by `k` (destination first); `k` = 0 moves nothing (`T` follows `A`
/// by itself).
pub const MOVES: [&str; 4] = ["-", "PA", "HA", "NA"];

/// Input/output operations of `IO`, by `k`, with what they do.
pub const IO_OPS: [(IoOp, &str, &str); 22] = [
    (IoOp::Waitf, "WAITF", "wait for the transmitter to finish and a segment: A = the body length of a frame that passed the receiver's checks, 0 for a dropped one (the receiver owns the loader memory meanwhile)"),
    (IoOp::Tx, "TX", "send A & 0xFF as the next answer body byte (SLIP-stuffed, into the CRC); N -= 1"),
    (IoOp::Txc, "TXC", "send the next byte of the answer's CRC (stuffed; the CRC unit shifts it out)"),
    (IoOp::Txe, "TXE", "send END"),
    (IoOp::Hrd, "HRD", "A = core word H >> 2 (7 clocks)"),
    (IoOp::Xb, "XB", "A = byte H & 3 of core word H >> 2; H += 1 (7 clocks)"),
    (IoOp::Ins, "INS", "byte H & 3 of A = mem[P]; P += 1 (6 clocks)"),
    (IoOp::Hw1, "HW1", "core word H >> 2 = A; H += 1"),
    (IoOp::Hw4, "HW4", "core word H >> 2 = A; H += 4"),
    (IoOp::H4, "H4", "H += 4"),
    (IoOp::Crcc, "CRCC", "CRC unit: start a new message"),
    (IoOp::Crc, "CRC", "CRC unit: absorb A & 0xFF (8 clocks, in the background)"),
    (IoOp::Crcw, "CRCW", "CRC unit: absorb A's four bytes, low first"),
    (IoOp::Crcok, "CRCOK", "E = the message absorbed ends with its own CRC (the residue)"),
    (IoOp::Clr, "CLR", "core clear pulse (from a register, a clock later), wait until it is done (at least 6 clocks)"),
    (IoOp::Go, "GO", "core start pulse (from a register, a clock later), wait for done"),
    (IoOp::Res, "RES", "core resume pulse (from a register, a clock later), wait for done"),
    (IoOp::Stat, "STAT", "A = the core's kill mask, fault code << 8, pause lanes << 16 (0 unless the fault is a pause code; a RESULTS record's first word; 5 clocks)"),
    (IoOp::Cyc, "CYC", "A = the core's cycle count (5 clocks)"),
    (IoOp::Led, "LED", "load-state LEDs = A & 3"),
    (IoOp::Ledf, "LEDF", "fault LED = (A != 0)"),
    (IoOp::Fw, "FW", "A = firmware word A & 0x3FF (tables; 6 clocks)"),
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
    let Some(info) = OPS.get(usize::from(word >> 11)) else {
        // Operation 31 is free: a table or constant word.
        return format!("DW {word:#06x}");
    };
    let k = word & 0x7FF;
    match info.operand {
        Operand::None => info.mnemonic.to_string(),
        Operand::Imm | Operand::Addr => format!("{} {:#x}", info.mnemonic, k),
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
    /// A jump, call or table entry names a label nothing defines.
    #[error("label `{0}` is used but never defined")]
    UndefinedLabel(String),
    /// Two places define the same label.
    #[error("label `{0}` is defined twice")]
    DuplicateLabel(String),
    /// An operand too large for the instruction's field.
    #[error("{mnemonic} operand {value:#x} does not fit its field (11 bits, or a variable number below the firmware's variable count)")]
    Operand {
        /// The instruction.
        mnemonic: &'static str,
        /// The operand given.
        value: u32,
    },
    /// A word or half-word access at an address its width does not allow.
    #[error("{mnemonic} {address:#x}: a word must be aligned and a half within a word")]
    Misaligned {
        /// The instruction.
        mnemonic: &'static str,
        /// The loader-memory byte address given.
        address: u32,
    },
    /// The program does not fit the firmware memory.
    #[error("the code is {words} words; the firmware memory holds {limit}")]
    TooLong {
        /// Words assembled.
        words: usize,
        /// Words of firmware memory ([`MEMORY_WORDS`]).
        limit: usize,
    },
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
        // The decoder adds the byte number to k's low two bits only: words aligned, halves
        // within a word.
        let misaligned = match op {
            CpuOp::Ldw | CpuOp::Stw => !k.is_multiple_of(4),
            CpuOp::Ldh => k % 4 == 3,
            _ => false,
        };
        if misaligned {
            self.errors.push(AsmError::Misaligned {
                mnemonic: OPS[usize::from(code(op))].mnemonic,
                address: k,
            });
        }
        if k > 0x7FF {
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

    /// `A = variable v` (`LDW` of its address).
    pub fn ldv(&mut self, v: u32) -> &mut Self {
        self.var(CpuOp::Ldw, v)
    }

    /// `variable v = A` (`STW` of its address).
    pub fn stv(&mut self, v: u32) -> &mut Self {
        self.var(CpuOp::Stw, v)
    }

    fn var(&mut self, op: CpuOp, v: u32) -> &mut Self {
        if v as usize >= VARS {
            self.errors.push(AsmError::Operand {
                mnemonic: OPS[usize::from(code(op))].mnemonic,
                value: v,
            });
        }
        self.emit(op, VARS_BASE + 4 * v)
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

    /// Jump to the address in `T`.
    pub fn ja(&mut self) -> &mut Self {
        self.emit(CpuOp::Jmp, u32::from(RET))
    }

    /// Raw data words (tables read with `IO FW`).
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
        if self.words.len() > MEMORY_WORDS {
            return Err(AsmError::TooLong {
                words: self.words.len(),
                limit: MEMORY_WORDS,
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
            Operand::Addr => "address",
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
        assert_eq!(MOVES, ["-", "PA", "HA", "NA"]);
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
        for (op, k) in [(CpuOp::Ldw, 5), (CpuOp::Stw, 2), (CpuOp::Ldh, 7)] {
            let mut a = Asm::new();
            a.emit(op, k);
            assert!(matches!(a.finish(), Err(AsmError::Misaligned { .. })));
        }
        let mut a = Asm::new();
        a.emit(CpuOp::Ldh, 6)
            .emit(CpuOp::Ldb, 7)
            .emit(CpuOp::Ldw, 8);
        assert!(a.finish().is_ok());
    }
}
