//! `OperandRead`: one source operand of the core: its copy of the register file R, the word of
//! the shared constant file K, the literal set, swizzle selection and the sign-bit modifiers.
//!
//! The register file is one 256-word block RAM copy (R at word `16r + 4l + c`: register, lane,
//! component); the core has three copies (operands A, B, C), all written together, so each
//! operand reads one R word per clock. K has a single copy in the core (`4s + c`), read once per
//! clock at the address of the instruction's one K view (the ISA's constant rule): this block
//! gives its K address (`kaddr`, `is_k`) and takes the word read there (`kdata`).
//!
//! Ports and timing (slot issued in cycle t):
//! - cycle t: the operand descriptor (`file`, `index`, `swz`, `neg`, `abs`), the slot's `lane` and
//!   `comp`onent, and `extra_neg` (the derivatives' second read) select the word; `zero` makes it
//!   read as zero (MOVR out of range); with `use_raw` the memory reads `raw_addr` instead (the
//!   host port, MOVR/MOVW's index reads); `kaddr` and `is_k` (combinational) are the K word
//!   this operand wants;
//! - cycle t+1: `raw` is the R word read and `value` (combinational from it and from `kdata`)
//!   the operand after the file / literal / constant-swizzle select, absolute value and negate
//!   (absolute first, as the core model's `read`); the units register it.
//! - `we`/`wa`/`wd` write this copy at the rising edge.
use crate::bram::Bram;
use microcode::core::isa::{SrcFile, SWZ_ONE, SWZ_ZERO};
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// One source operand's read path; see the module documentation.
#[derive(LogicBlock)]
pub struct OperandRead {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Register file (`SrcFile` number).
    pub file: Signal<In, Bits<2>>,
    /// Register index within the file.
    pub index: Signal<In, Bits<8>>,
    /// Four 3-bit selectors, component 0 in the low bits.
    pub swz: Signal<In, Bits<12>>,
    /// Per-component negate.
    pub neg: Signal<In, Bits<4>>,
    /// Absolute value (before the negate).
    pub abs: Signal<In, Bit>,
    /// Lane of R to read.
    pub lane: Signal<In, Bits<2>>,
    /// Destination component of the slot (picks the selector).
    pub comp: Signal<In, Bits<2>>,
    /// Negate in addition to `neg`.
    pub extra_neg: Signal<In, Bit>,
    /// Read the memory word as zero (MOVR out of range; the constant selectors and the
    /// modifiers still apply).
    pub zero: Signal<In, Bit>,
    /// Read this R word instead (host port, MOVR/MOVW's index).
    pub raw_addr: Signal<In, Bits<8>>,
    /// Select `raw_addr`.
    pub use_raw: Signal<In, Bit>,
    /// Write enable of this memory copy.
    pub we: Signal<In, Bit>,
    /// Write address.
    pub wa: Signal<In, Bits<8>>,
    /// Write data.
    pub wd: Signal<In, Bits<32>>,
    /// The K word read at the instruction's K address (cycle t+1).
    pub kdata: Signal<In, Bits<32>>,
    /// The operand reads K (cycle t).
    pub is_k: Signal<Out, Bit>,
    /// Its K word address `4s + c` (cycle t).
    pub kaddr: Signal<Out, Bits<8>>,
    /// The R word read (cycle t+1).
    pub raw: Signal<Out, Bits<32>>,
    /// The operand value (cycle t+1, combinational).
    pub value: Signal<Out, Bits<32>>,
    mem: Bram<32, 8>,
    literals: ROM<Bits<32>, 4>,
    sel_c: Signal<Local, Bits<3>>,
    // The word's source (a `SrcFile` number, or `file_const` for the constant 0.0 / 1.0).
    m_file: DFF<Bits<2>>,
    m_one: DFF<Bit>,
    m_neg: DFF<Bit>,
    m_abs: DFF<Bit>,
    m_lit: DFF<Bits<4>>,
    v: Signal<Local, Bits<32>>,
    file_l: Constant<Bits<2>>,
    file_k: Constant<Bits<2>>,
    file_const: Constant<Bits<2>>,
    swz_zero: Constant<Bits<3>>,
    swz_one: Constant<Bits<3>>,
    one: Constant<Bits<32>>,
}

impl OperandRead {
    /// An operand path whose literal file holds `literals` (the core configuration's L file).
    pub fn new(literals: &[u32]) -> OperandRead {
        let mut m = BTreeMap::new();
        for (i, &v) in literals.iter().enumerate().take(16) {
            m.insert((i as u64).to_bits(), u64::from(v).to_bits());
        }
        OperandRead {
            clock: Default::default(),
            file: Default::default(),
            index: Default::default(),
            swz: Default::default(),
            neg: Default::default(),
            abs: Default::default(),
            lane: Default::default(),
            comp: Default::default(),
            extra_neg: Default::default(),
            zero: Default::default(),
            raw_addr: Default::default(),
            use_raw: Default::default(),
            we: Default::default(),
            wa: Default::default(),
            wd: Default::default(),
            kdata: Default::default(),
            is_k: Default::default(),
            kaddr: Default::default(),
            raw: Default::default(),
            value: Default::default(),
            mem: Default::default(),
            literals: ROM::new(m),
            sel_c: Default::default(),
            m_file: Default::default(),
            m_one: Default::default(),
            m_neg: Default::default(),
            m_abs: Default::default(),
            m_lit: Default::default(),
            v: Default::default(),
            file_l: Constant::new((SrcFile::L as u64).to_bits()),
            file_k: Constant::new((SrcFile::K as u64).to_bits()),
            // The file field's unused value (3) stands for "a constant selector".
            file_const: Constant::new(3u64.to_bits()),
            swz_zero: Constant::new(u64::from(SWZ_ZERO).to_bits()),
            swz_one: Constant::new(u64::from(SWZ_ONE).to_bits()),
            one: Constant::new(0x3F80_0000u64.to_bits()),
        }
    }
}

impl Logic for OperandRead {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, m_file, m_one, m_neg, m_abs, m_lit);
        clock!(self, clock, mem);
        // ---- cycle t: address.
        match self.comp.val().index() {
            0 => {
                self.sel_c.next = self.swz.val().get_bits::<3>(0);
            }
            1 => {
                self.sel_c.next = self.swz.val().get_bits::<3>(3);
            }
            2 => {
                self.sel_c.next = self.swz.val().get_bits::<3>(6);
            }
            _ => {
                self.sel_c.next = self.swz.val().get_bits::<3>(9);
            }
        }
        self.mem.ra.next = (bit_cast::<8, 4>(self.index.val().get_bits::<4>(0)) << 4)
            | (bit_cast::<8, 2>(self.lane.val()) << 2)
            | bit_cast::<8, 2>(self.sel_c.val().get_bits::<2>(0));
        self.is_k.next = self.file.val() == self.file_k.val();
        self.kaddr.next = (bit_cast::<8, 6>(self.index.val().get_bits::<6>(0)) << 2)
            | bit_cast::<8, 2>(self.sel_c.val().get_bits::<2>(0));
        if self.use_raw.val() {
            self.mem.ra.next = self.raw_addr.val();
        }
        self.mem.we.next = self.we.val();
        self.mem.wa.next = self.wa.val();
        self.mem.wd.next = self.wd.val();
        // The source of the word, decided at t (registered): the file, or a constant when the
        // selector is 0.0 or 1.0 or a relative read is out of range (then 0.0; 1.0 wins).
        self.m_file.d.next = self.file.val();
        if self.zero.val()
            | (self.sel_c.val() == self.swz_zero.val())
            | (self.sel_c.val() == self.swz_one.val())
        {
            self.m_file.d.next = self.file_const.val();
        }
        self.m_one.d.next = self.sel_c.val() == self.swz_one.val();
        self.m_neg.d.next = self.neg.val().get_bit(self.comp.val().index()) ^ self.extra_neg.val();
        self.m_abs.d.next = self.abs.val();
        self.m_lit.d.next = self.index.val().get_bits::<4>(0);

        // ---- cycle t+1: select and modify.
        self.raw.next = self.mem.rd.val();
        self.literals.address.next = self.m_lit.q.val();
        self.v.next = self.mem.rd.val();
        if self.m_file.q.val() == self.file_k.val() {
            self.v.next = self.kdata.val();
        }
        if self.m_file.q.val() == self.file_l.val() {
            self.v.next = self.literals.data.val();
        }
        if self.m_file.q.val() == self.file_const.val() {
            self.v.next = bits::<32>(0);
            if self.m_one.q.val() {
                self.v.next = self.one.val();
            }
        }
        if self.m_abs.q.val() {
            self.v.next = self.v.val() & bits::<32>(0x7FFF_FFFF);
        }
        if self.m_neg.q.val() {
            self.v.next = self.v.val() ^ !bits::<32>(0x7FFF_FFFF);
        }
        self.value.next = self.v.val();
    }
}
