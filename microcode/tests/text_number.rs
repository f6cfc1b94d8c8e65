//! `format_f32` writes the shortest decimal that reads back to the same bits; `parse_f32` and the
//! integer readers accept the documented spellings and reject the rest.

use microcode::tgsi::text::number::{format_f32, parse_f32, parse_i32, parse_u32, NumberError};

#[test]
fn shortest_decimal_texts() {
    for (bits, text) in [
        (0x0000_0000, "0.0"),
        (0x8000_0000, "-0.0"),
        (0x3f80_0000, "1.0"),
        (0xbf00_0000, "-0.5"),
        (0x3dcc_cccd, "0.1"),
        (0x3eaa_aaab, "0.33333334"),
        (0x4b80_0001, "16777218.0"),
        (0x5a0e_1bca, "1e16"),
        (0x377b_a882, "1.5e-5"),
        (0x0080_0000, "1.1754944e-38"),
        (0x0000_0001, "1e-45"),
        (0x7f7f_ffff, "3.4028235e38"),
        (0x7f80_0000, "inf"),
        (0xff80_0000, "-inf"),
        (0x7fc0_0000, "0x7fc00000"),
        (0x7f80_0001, "0x7f800001"),
        (0xffff_ffff, "0xffffffff"),
    ] {
        assert_eq!(format_f32(bits), text, "{bits:#010x}");
        assert_eq!(parse_f32(text), Ok(bits), "{text}");
    }
}

#[test]
fn float_spellings() {
    for (text, bits) in [
        ("1", 0x3f80_0000),
        ("+1", 0x3f80_0000),
        ("1.", 0x3f80_0000),
        (".5", 0x3f00_0000),
        ("5E-1", 0x3f00_0000),
        ("0.5e+0", 0x3f00_0000),
        ("1e39", 0x7f80_0000),
        ("-1e-50", 0x8000_0000),
        ("Infinity", 0x7f80_0000),
        ("NAN", 0x7fc0_0000),
        ("-nan", 0xffc0_0000),
        ("0x0", 0),
        ("0X3F800000", 0x3f80_0000),
    ] {
        assert_eq!(parse_f32(text), Ok(bits), "{text}");
    }
    for text in [
        "", "-", ".", "e1", "1e", "1.0f", "1,0", "0x", "0xg", "--1", "- 1", "nan1", "-0x1",
    ] {
        assert_eq!(
            parse_f32(text),
            Err(NumberError::Invalid(text.to_string())),
            "{text:?}"
        );
    }
    assert_eq!(
        parse_f32("0x123456789"),
        Err(NumberError::TooWide("0x123456789".to_string()))
    );
}

#[test]
fn integer_spellings() {
    assert_eq!(parse_i32("-2147483648"), Ok(0x8000_0000));
    assert_eq!(parse_i32("+7"), Ok(7));
    assert_eq!(parse_i32("0xffffffff"), Ok(0xffff_ffff));
    assert_eq!(
        parse_i32("-2147483649"),
        Err(NumberError::OutOfRange {
            text: "-2147483649".to_string(),
            ty: "INT32"
        })
    );
    assert_eq!(parse_u32("0"), Ok(0));
    assert_eq!(parse_u32("4294967295"), Ok(u32::MAX));
    assert!(matches!(
        parse_u32("4294967296"),
        Err(NumberError::OutOfRange { .. })
    ));
    assert!(matches!(parse_u32("+1"), Err(NumberError::Invalid(_))));
    assert!(matches!(parse_i32("1.5"), Err(NumberError::Invalid(_))));
}
