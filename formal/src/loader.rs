//! What the loader proofs need to know about the firmware, read from the firmware itself
//! (`hdl::loader_firmware::firmware` for the board, the words the Verilog's firmware memory holds) rather
//! than restated: where it waits for a request, where it keeps the dropped-frame counter and
//! the answer's result byte. A firmware whose shape no longer matches is an error naming what
//! was not found, so a proof never runs against a guessed address.
use hdl::loader_isa::{code, io_code, CpuOp, RET};
use hdl::loader_layout as layout;

/// The firmware facts the loader queries name (`LDR_*` in the encodings prelude).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirmwareFacts {
    /// Address of the one `IO WAITF` (the `idle` loop: the firmware waits there for a request).
    pub idle: u16,
    /// The `IO WAITF` instruction word.
    pub waitf: u16,
    /// Loader-memory address of the dropped-frame counter (the variable the `JZ` after
    /// `WAITF` leads to, `LDH` of it).
    pub dropped_counter: u16,
    /// Loader-memory address of the answer's result byte (the variable `head` sends after the
    /// sequence number).
    pub reason: u16,
    /// WRITE's limit table (`wtab`, the table `ADD wtab; FW; JZ` reads), by region code: the
    /// loader-memory address of the u32 a WRITE into that region must stay within (the image
    /// lengths BEGIN latched, the INFO record's sizes), 0 for a region WRITE cannot reach.
    pub write_limits: Vec<u16>,
    /// Loader-memory address of the load state (`microcode::protocol::LoadState`): the variable
    /// WRITE tests with `LDW`, `AND 1`, `JZ` (an image region needs an upload in progress).
    pub load_state: u16,
    /// Address of WRITE's handler (the dispatcher's table, `ADD commands; FW; LDH`, at
    /// `Command::Write`).
    pub write: u16,
    /// Address of `nak` (entered with A = the reason: where every refusal joins; the `JMP` of
    /// the `nakN` that WRITE's region test leads to).
    pub nak: u16,
}

fn op_of(word: u16) -> u16 {
    word >> 11
}

fn k_of(word: u16) -> u16 {
    word & 0x7FF
}

/// Reads the facts from `words` (the assembled firmware).
pub fn facts_of(words: &[u16]) -> Result<FirmwareFacts, String> {
    let io = |name| code(CpuOp::Io) << 11 | io_code(name);
    let waitf = io("WAITF");
    let at: Vec<usize> = (0..words.len()).filter(|&i| words[i] == waitf).collect();
    let [idle] = at[..] else {
        return Err(format!(
            "the firmware holds {} WAITF words, not one",
            at.len()
        ));
    };
    let jz = words.get(idle + 1).copied().unwrap_or(0);
    if op_of(jz) != code(CpuOp::Jz) {
        return Err("WAITF is not followed by JZ (the dropped-segment branch)".into());
    }
    let ldh = words.get(usize::from(k_of(jz))).copied().unwrap_or(0);
    if op_of(ldh) != code(CpuOp::Ldh) {
        return Err("the dropped-segment branch does not begin with LDH of the counter".into());
    }
    // `head`: CRCC, TXE, ..., LDB 3 (the sequence number), TX, LDW reason, TX, RET.
    let crcc = io("CRCC");
    let start = (0..words.len())
        .find(|&i| words[i] == crcc && words.get(i + 1) == Some(&io("TXE")))
        .ok_or("no CRCC, TXE (the answer's head) in the firmware")?;
    let ret = code(CpuOp::Call) << 11 | RET;
    let end = (start..words.len())
        .find(|&i| words[i] == ret)
        .ok_or("the answer's head does not return")?;
    let ldw = words[end.saturating_sub(2)];
    if end < start + 4 || op_of(ldw) != code(CpuOp::Ldw) || words[end - 1] != io("TX") {
        return Err("the answer's head does not end with LDW reason, TX, RET".into());
    }
    // WRITE: ADD wtab, IO FW, JZ (the region cannot be written).
    let fw = io("FW");
    let adds: Vec<usize> = (0..words.len().saturating_sub(2))
        .filter(|&i| {
            op_of(words[i]) == code(CpuOp::Add)
                && words[i + 1] == fw
                && op_of(words[i + 2]) == code(CpuOp::Jz)
        })
        .collect();
    let [add] = adds[..] else {
        return Err(format!(
            "{} ADD, FW, JZ sequences (WRITE's limit table), not one",
            adds.len()
        ));
    };
    let table = usize::from(k_of(words[add]));
    let regions = microcode::protocol::Region::ALL.len();
    let write_limits = words
        .get(table..table + regions)
        .ok_or("WRITE's limit table lies beyond the firmware")?
        .to_vec();
    // WRITE: LDW load state, AND 1, JZ (BAD_STATE), after the limit table's read.
    let and1 = code(CpuOp::And) << 11 | 1;
    let state = (add..words.len().saturating_sub(2))
        .find(|&i| {
            op_of(words[i]) == code(CpuOp::Ldw)
                && words[i + 1] == and1
                && op_of(words[i + 2]) == code(CpuOp::Jz)
        })
        .ok_or("no LDW, AND 1, JZ (WRITE's load-state test) after WRITE's limit table")?;
    // The dispatcher: ADD commands, FW, LDH; the handler of WRITE from its table.
    let dispatch = (0..words.len().saturating_sub(2))
        .find(|&i| {
            op_of(words[i]) == code(CpuOp::Add)
                && words[i + 1] == fw
                && op_of(words[i + 2]) == code(CpuOp::Ldh)
        })
        .ok_or("no ADD, FW, LDH (the dispatcher's handler table)")?;
    let entry = usize::from(k_of(words[dispatch])) + microcode::protocol::Command::Write as usize;
    let write = *words
        .get(entry)
        .ok_or("the handler table lies beyond the firmware")?;
    // `nakN`: LDI N, JMP nak.
    let nak_n = usize::from(k_of(words[add + 2]));
    let jmp = words.get(nak_n + 1).copied().unwrap_or(0);
    if op_of(jmp) != code(CpuOp::Jmp) {
        return Err("WRITE's region test does not lead to LDI reason, JMP nak".into());
    }
    Ok(FirmwareFacts {
        write,
        nak: k_of(jmp),
        load_state: k_of(words[state]),
        write_limits,
        idle: idle as u16,
        waitf,
        dropped_counter: k_of(ldh),
        reason: k_of(ldw),
    })
}

/// The facts of the firmware the Loader's Verilog holds.
pub fn facts() -> Result<FirmwareFacts, String> {
    let words = hdl::loader_firmware::firmware(&crate::units::board_device(), false)
        .map_err(|e| e.to_string())?;
    facts_of(&words)
}

/// The SMT-LIB2 constants the loader queries name: the firmware's facts, the loader memory's
/// layout and the protocol's numbers, each from the crate that defines it.
pub fn prelude() -> Result<String, crate::FormalError> {
    use microcode::protocol::{Command, LoadState, Region, ANSWER_BIT, INFO_BYTES, STATUS_BYTES};
    let f = facts().map_err(crate::FormalError::Firmware)?;
    let mut out = String::from("; ---- the loader (formal/src/loader.rs)\n");
    let mut c = |name: &str, width: usize, value: u64| constant(&mut out, name, width, value);
    c("LDR_IDLE_PC", 10, u64::from(f.idle));
    c("LDR_WAITF", 16, u64::from(f.waitf));
    c("LDR_BADF", 11, u64::from(f.dropped_counter));
    c("LDR_REASON", 11, u64::from(f.reason));
    c("LDR_VARS_BASE", 11, u64::from(layout::VARS_BASE));
    c(
        "LDR_VARS_END",
        11,
        u64::from(layout::VARS_BASE) + 4 * layout::VARS as u64,
    );
    c("LDR_FRAME_END", 11, hdl::frame_rx::MAX_BODY);
    c("LDR_ANSWER_BIT", 8, u64::from(ANSWER_BIT));
    c("LDR_CMD_INFO", 8, Command::Info as u64);
    c("LDR_CMD_STATUS", 8, Command::Status as u64);
    c("LDR_CMD_WRITE", 8, Command::Write as u64);
    c("LDR_INFO_LEN", 16, INFO_BYTES as u64 + 1);
    c("LDR_STATUS_LEN", 16, STATUS_BYTES as u64 + 1);
    c("LDR_REGIONS", 8, f.write_limits.len() as u64);
    c("LDR_LD", 11, u64::from(f.load_state));
    c("LDR_WRITE_PC", 10, u64::from(f.write));
    c("LDR_NAK_PC", 10, u64::from(f.nak));
    let words = hdl::loader_firmware::firmware(&crate::units::board_device(), false)
        .map_err(|e| crate::FormalError::Firmware(e.to_string()))?;
    c("LDR_WRITE_IR", 16, u64::from(words[usize::from(f.write)]));
    c("LDR_NO_IMAGE", 32, LoadState::NoImage as u64);
    c("LDR_VALID", 32, LoadState::Valid as u64);
    c(
        "LDR_WRITE_HEADER",
        16,
        microcode::protocol::WRITE_HEADER as u64,
    );
    // The limit table as a function of the region code (0 beyond the table).
    let mut table = String::from("#b00000000000");
    for (r, &a) in f.write_limits.iter().enumerate().rev() {
        table = format!("(ite (= r #x{r:02x}) #b{a:011b} {table})");
    }
    out += &format!("(define-fun ldr_wtab ((r (_ BitVec 8))) (_ BitVec 11) {table})\n");
    let image: Vec<String> = Region::IMAGE
        .iter()
        .map(|&r| format!("(= r #x{:02x})", r as u8))
        .collect();
    out += &format!(
        "(define-fun ldr_image ((r (_ BitVec 8))) Bool (or {}))\n",
        image.join(" ")
    );
    Ok(out)
}

fn constant(out: &mut String, name: &str, width: usize, value: u64) {
    use std::fmt::Write as _;
    let digits: String = (0..width)
        .rev()
        .map(|i| if value >> i & 1 == 1 { '1' } else { '0' })
        .collect();
    let _ = writeln!(out, "(define-fun {name} () (_ BitVec {width}) #b{digits})");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_found_and_lie_where_the_layout_says() {
        let f = facts().expect("the firmware has its known shape");
        let vars = layout::VARS_BASE as u16..(layout::VARS_BASE as u16 + 4 * layout::VARS as u16);
        assert!(vars.contains(&f.dropped_counter), "{f:?}");
        assert!(vars.contains(&f.reason), "{f:?}");
        assert_ne!(f.dropped_counter, f.reason);
        assert!(vars.contains(&f.load_state), "{f:?}");
        assert!(f.load_state.is_multiple_of(4));
        // WRITE's handler begins by checking the length (CMP), and nak stores the reason.
        let words = hdl::loader_firmware::firmware(&crate::units::board_device(), false).unwrap();
        assert_eq!(op_of(words[usize::from(f.write)]), code(CpuOp::Cmp));
        assert_eq!(op_of(words[usize::from(f.nak)]), code(CpuOp::Stw));
        assert!(f.dropped_counter.is_multiple_of(4));
        // The protocol's read-only regions have no limit; the others' limits are u32s in the
        // variables or the INFO record.
        use microcode::protocol::Region;
        assert_eq!(f.write_limits.len(), Region::ALL.len());
        for r in Region::ALL {
            let limit = f.write_limits[r as usize];
            match r {
                Region::Outputs | Region::Results => assert_eq!(limit, 0, "{r:?}"),
                _ => assert!(
                    limit >= layout::VARS_BASE as u16 && limit.is_multiple_of(2),
                    "{r:?}"
                ),
            }
        }
    }

    #[test]
    fn a_firmware_of_another_shape_is_refused() {
        assert!(facts_of(&[]).is_err());
        let waitf = code(CpuOp::Io) << 11 | io_code("WAITF");
        assert!(facts_of(&[waitf, waitf]).is_err());
        assert!(facts_of(&[waitf, 0]).is_err());
    }
}
