//! Direct-drive rust-hdl simulation (no threads): set inputs, raise the clock, settle, lower it,
//! settle. One call per clock.
use hdl::fadd::FAdd;
use hdl::fmul::FMul;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

/// Pipeline latency of `FMul` and `FAdd` in clocks.
pub const LATENCY: usize = 5;

/// One clock period: settle the inputs just set, rising edge, settle, falling edge, settle.
/// The first settle is what hardware guarantees (inputs stable before the edge): without it
/// rust-hdl's simulation samples at the edge only what reaches a flip-flop in one evaluation
/// pass, which a combinational child block (`FloatUnpack`) between an input and a flip-flop
/// does not.
pub fn tick<B: Block>(uut: &mut B, clock: impl Fn(&mut B) -> &mut Signal<In, Clock>) {
    assert!(simulate(uut, 100), "did not settle before the rising edge");
    clock(uut).next = true.into();
    assert!(simulate(uut, 100), "did not settle after the rising edge");
    clock(uut).next = false.into();
    assert!(simulate(uut, 100), "did not settle after the falling edge");
}

fn b32(x: u32) -> Bits<32> {
    (x as u64).into()
}

fn u32_of(x: Bits<32>) -> u32 {
    x.index() as u32
}

/// Streams `(a, b)` into a fresh `FMul`, one pair per clock; returns the result for each pair,
/// read `LATENCY` clocks after it went in.
pub fn run_fmul(vectors: &[(u32, u32)]) -> Vec<u32> {
    run_fmul_on(FMul::default(), vectors)
}

/// [`run_fmul`] on the multiplier `uut` (e.g. `FMul::with_dsp()`).
pub fn run_fmul_on(mut uut: FMul, vectors: &[(u32, u32)]) -> Vec<u32> {
    uut.connect_all();
    check_all(&uut).expect("FMul passes rust-hdl's checks");
    let mut out = Vec::with_capacity(vectors.len());
    for i in 0..vectors.len() + LATENCY - 1 {
        let (a, b) = vectors.get(i).copied().unwrap_or((0, 0));
        uut.a.next = b32(a);
        uut.b.next = b32(b);
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= LATENCY {
            out.push(u32_of(uut.result.val()));
        }
    }
    out
}

/// Streams `(a, b, sub)` into a fresh `FAdd`, one per clock; results as for [`run_fmul`].
pub fn run_fadd(vectors: &[(u32, u32, bool)]) -> Vec<u32> {
    let mut uut = FAdd::default();
    uut.connect_all();
    check_all(&uut).expect("FAdd passes rust-hdl's checks");
    let mut out = Vec::with_capacity(vectors.len());
    for i in 0..vectors.len() + LATENCY - 1 {
        let (a, b, sub) = vectors.get(i).copied().unwrap_or((0, 0, false));
        uut.a.next = b32(a);
        uut.b.next = b32(b);
        uut.sub.next = sub;
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= LATENCY {
            out.push(u32_of(uut.result.val()));
        }
    }
    out
}

/// Compares results with the model, listing the first few mismatches.
pub fn compare<T: std::fmt::Debug>(what: &str, inputs: &[T], got: &[u32], want: &[u32]) {
    assert_eq!(got.len(), want.len(), "{what}: result count");
    let bad: Vec<String> = (0..got.len())
        .filter(|&i| got[i] != want[i])
        .take(12)
        .map(|i| {
            format!(
                "  #{i} {:x?}: got {:08x}, want {:08x}",
                inputs[i], got[i], want[i]
            )
        })
        .collect();
    let nbad = (0..got.len()).filter(|&i| got[i] != want[i]).count();
    assert!(
        bad.is_empty(),
        "{what}: {nbad} of {} differ:\n{}",
        got.len(),
        bad.join("\n")
    );
}
