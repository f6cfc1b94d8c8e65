//! Framing: random frames with random garbage between them decode to the same frames.

use firmware_loader::frame::{encode, Decoder, Frame, FrameError, MAX_PAYLOAD};
use proptest::prelude::*;

fn frame() -> impl Strategy<Value = Frame> {
    (
        any::<u8>(),
        any::<u8>(),
        // Bias payloads towards the delimiter and escape bytes so stuffing is exercised.
        prop::collection::vec(
            prop_oneof![Just(0xC0u8), Just(0xDBu8), any::<u8>()],
            0..=MAX_PAYLOAD,
        ),
    )
        .prop_map(|(cmd, seq, payload)| Frame { cmd, seq, payload })
}

fn garbage() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop_oneof![Just(0xC0u8), Just(0xDBu8), any::<u8>()], 0..64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn frames_survive_garbage_between_them(
        items in prop::collection::vec((garbage(), frame()), 1..8),
        tail in garbage(),
    ) {
        let mut wire = Vec::new();
        for (g, f) in &items {
            wire.extend(g);
            wire.extend(encode(f).unwrap());
        }
        wire.extend(&tail);
        let mut d = Decoder::new();
        let got: Vec<Frame> = d.push_all(&wire).into_iter().filter_map(Result::ok).collect();
        let want: Vec<Frame> = items.into_iter().map(|(_, f)| f).collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn split_feeding_gives_the_same_result(f in frame(), cut in 0usize..300) {
        let wire = encode(&f).unwrap();
        let cut = cut.min(wire.len());
        let mut d = Decoder::new();
        let mut got = d.push_all(&wire[..cut]);
        got.extend(d.push_all(&wire[cut..]));
        prop_assert_eq!(got, vec![Ok(f)]);
    }

    #[test]
    fn a_flipped_bit_never_yields_another_frame(f in frame(), at in any::<prop::sample::Index>(), bit in 0u8..8) {
        let mut wire = encode(&f).unwrap();
        let i = at.index(wire.len());
        wire[i] ^= 1 << bit;
        // The next good frame still decodes after the damaged one.
        let next = Frame { cmd: 1, seq: 2, payload: vec![3] };
        wire.extend(encode(&next).unwrap());
        let got: Vec<Frame> = Decoder::new().push_all(&wire).into_iter().filter_map(Result::ok).collect();
        // A flip inside a delimiter can leave the frame intact (the body is unchanged).
        prop_assert!(got == vec![next.clone()] || got == vec![f.clone(), next.clone()], "{:?}", got);
    }
}

#[test]
fn garbage_alone_yields_errors_not_frames() {
    let mut d = Decoder::new();
    let got = d.push_all(&[0xC0, 1, 2, 3, 0xC0, 0xDB, 0x00, 0xC0, 0xC0]);
    assert_eq!(
        got,
        vec![
            Err(FrameError::TooShort { len: 3 }),
            Err(FrameError::BadEscape { byte: 0, at: 0 })
        ]
    );
}
