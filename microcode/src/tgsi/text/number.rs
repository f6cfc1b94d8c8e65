//! Numbers as TGSI text writes them: binary32 values (decimal, `inf`, `nan` or a hex bit pattern) and
//! 32-bit integers.
//!
//! [`format_f32`] is shared with every tool that prints register values (the JSON output too), so it
//! stays a small pure function: the shortest decimal text that reads back to exactly the same bits.

use thiserror::Error;

/// Why a piece of text is not a number of the expected kind.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NumberError {
    /// Not a number at all (`1.2.3`, `0x`, `abc`).
    #[error("invalid number `{0}`")]
    Invalid(String),
    /// A hex bit pattern with more than 32 bits.
    #[error("bit pattern `{0}` has more than 32 bits")]
    TooWide(String),
    /// An integer outside the type's range.
    #[error("`{text}` is out of the {ty} range")]
    OutOfRange {
        /// The number as written.
        text: String,
        /// `INT32` or `UINT32`.
        ty: &'static str,
    },
}

/// The bit pattern of the canonical quiet NaN (`nan`).
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// The shortest decimal text that [`parse_f32`] reads back to exactly `bits`.
///
/// Finite values use Rust's shortest round-trip formatting (`0.5`, `1.0`, `-0.0`, `1e-45`,
/// `3.4028235e38`), infinities print as `inf` / `-inf`, and every NaN (whatever its payload and sign)
/// prints as its hex bit pattern, e.g. `0x7fc00000`, because no decimal spelling can carry a payload.
pub fn format_f32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v.is_nan() {
        format!("0x{bits:08x}")
    } else if v.is_infinite() {
        if v < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        // Debug (not Display) switches to exponent form for very large and small magnitudes, which
        // keeps `1e-45` short, and always keeps a `.0` or exponent so the text reads as a float.
        format!("{v:?}")
    }
}

/// Reads a binary32 value and returns its bits.
///
/// Accepts an optional sign, decimal digits with an optional fraction and exponent (`1`, `-0.5`,
/// `.5`, `2.`, `1e-3`, `6.0E+2`), `inf` / `infinity`, `nan` (the canonical quiet NaN `0x7fc00000`,
/// `-nan` with the sign bit set) and hex bit patterns `0x3f800000` (1 to 8 digits, no sign). Decimal
/// text is rounded to nearest-even, as IEEE conversion does; magnitudes beyond the range become
/// infinity. Case does not matter.
pub fn parse_f32(text: &str) -> Result<u32, NumberError> {
    let invalid = || NumberError::Invalid(text.to_string());
    if let Some(hex) = strip_hex_prefix(text) {
        return parse_hex(text, hex);
    }
    let (negative, body) = split_sign(text);
    let lower = body.to_ascii_lowercase();
    let sign_bit = if negative { 0x8000_0000 } else { 0 };
    match lower.as_str() {
        "inf" | "infinity" => return Ok(sign_bit | 0x7f80_0000),
        "nan" => return Ok(sign_bit | CANONICAL_NAN),
        _ => {}
    }
    if !is_decimal(body) {
        return Err(invalid());
    }
    let v: f32 = body.parse().map_err(|_| invalid())?;
    Ok(if negative {
        (-v).to_bits()
    } else {
        v.to_bits()
    })
}

/// Reads an INT32 value (decimal with optional sign, or a hex bit pattern) and returns its bits.
pub fn parse_i32(text: &str) -> Result<u32, NumberError> {
    if let Some(hex) = strip_hex_prefix(text) {
        return parse_hex(text, hex);
    }
    let (negative, body) = split_sign(text);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::Invalid(text.to_string()));
    }
    let out_of_range = || NumberError::OutOfRange {
        text: text.to_string(),
        ty: "INT32",
    };
    let magnitude: i64 = body.parse().map_err(|_| out_of_range())?;
    let value = if negative { -magnitude } else { magnitude };
    let value = i32::try_from(value).map_err(|_| out_of_range())?;
    Ok(value as u32)
}

/// Reads a UINT32 value (decimal without sign, or a hex bit pattern).
pub fn parse_u32(text: &str) -> Result<u32, NumberError> {
    if let Some(hex) = strip_hex_prefix(text) {
        return parse_hex(text, hex);
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::Invalid(text.to_string()));
    }
    text.parse().map_err(|_| NumberError::OutOfRange {
        text: text.to_string(),
        ty: "UINT32",
    })
}

fn strip_hex_prefix(text: &str) -> Option<&str> {
    text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))
}

fn parse_hex(text: &str, digits: &str) -> Result<u32, NumberError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(NumberError::Invalid(text.to_string()));
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 8 {
        return Err(NumberError::TooWide(text.to_string()));
    }
    let significant = if significant.is_empty() {
        "0"
    } else {
        significant
    };
    u32::from_str_radix(significant, 16).map_err(|_| NumberError::Invalid(text.to_string()))
}

fn split_sign(text: &str) -> (bool, &str) {
    if let Some(rest) = text.strip_prefix('-') {
        (true, rest)
    } else if let Some(rest) = text.strip_prefix('+') {
        (false, rest)
    } else {
        (false, text)
    }
}

/// `digits [. digits] [e [sign] digits]` with at least one mantissa digit; checked here because
/// Rust's own float parser also takes spellings (`infinity`, signs after the exponent letter only)
/// that we want to reject or handle ourselves.
fn is_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let mut mantissa = digits(&mut i);
    if i < b.len() && b[i] == b'.' {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_forms() {
        assert_eq!(format_f32(0x3f80_0000), "1.0");
        assert_eq!(format_f32(0x3f00_0000), "0.5");
        assert_eq!(format_f32(0x8000_0000), "-0.0");
        assert_eq!(format_f32(0x0000_0001), "1e-45");
        assert_eq!(format_f32(0x7f80_0000), "inf");
        assert_eq!(format_f32(0xff80_0000), "-inf");
        assert_eq!(format_f32(0x7fc0_0001), "0x7fc00001");
        assert_eq!(format_f32(0xffc0_0000), "0xffc00000");
    }

    #[test]
    fn parses_spellings() {
        assert_eq!(parse_f32("1"), Ok(0x3f80_0000));
        assert_eq!(parse_f32("-0"), Ok(0x8000_0000));
        assert_eq!(parse_f32(".5"), Ok(0x3f00_0000));
        assert_eq!(parse_f32("2."), Ok(0x4000_0000));
        assert_eq!(parse_f32("1E+1"), Ok(0x4120_0000));
        assert_eq!(parse_f32("NaN"), Ok(CANONICAL_NAN));
        assert_eq!(parse_f32("-INF"), Ok(0xff80_0000));
        assert_eq!(parse_f32("0x3F800000"), Ok(0x3f80_0000));
        assert_eq!(parse_f32("0x000000001"), Ok(1));
        assert!(matches!(
            parse_f32("0x100000000"),
            Err(NumberError::TooWide(_))
        ));
        assert!(parse_f32("1.2.3").is_err());
        assert!(parse_f32("e5").is_err());
        assert!(parse_f32("-0x1").is_err());
        assert!(parse_f32("").is_err());
    }

    #[test]
    fn integers() {
        assert_eq!(parse_i32("-2147483648"), Ok(0x8000_0000));
        assert_eq!(parse_i32("-1"), Ok(0xffff_ffff));
        assert!(parse_i32("2147483648").is_err());
        assert_eq!(parse_u32("4294967295"), Ok(0xffff_ffff));
        assert!(parse_u32("4294967296").is_err());
        assert!(parse_u32("-1").is_err());
        assert_eq!(parse_u32("0xFF"), Ok(255));
    }
}
