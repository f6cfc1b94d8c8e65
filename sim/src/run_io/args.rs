//! Command-line value syntax shared by every engine (`decisions.md` section 7):
//! `--input N=v`, `--input N@L=v`, `--input V:N=v`, `--const N=v`, `--const B:N=v`,
//! `--face front|back`. A value `v` is four comma-separated numbers, each a float (`1.5`, `-0`, `inf`,
//! `nan`) or a bit pattern (`0x3f800000`).

use super::{Face, RunInputs, LANES};
use thiserror::Error;

/// A value that is not four comma-separated numbers.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ValueError {
    #[error("expected 4 comma-separated numbers, found {found} in `{text}`")]
    Count { text: String, found: usize },
    #[error("component {component} of `{text}`: `{item}` is neither a float nor a 0x bit pattern")]
    Number {
        text: String,
        component: usize,
        item: String,
    },
}

/// A malformed `--input`, `--const` or `--face` argument.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ArgError {
    #[error("`{arg}`: expected {expected}")]
    Syntax { arg: String, expected: &'static str },
    #[error("`{arg}`: lane {lane} is out of range (0-3)")]
    Lane { arg: String, lane: usize },
    #[error("`{arg}`: {source}")]
    Value {
        arg: String,
        #[source]
        source: ValueError,
    },
    #[error("`{arg}`: expected `front` or `back`")]
    Face { arg: String },
}

/// Parses `x,y,z,w` where each item is a float or a `0x` bit pattern.
pub fn parse_value(text: &str) -> Result<[u32; 4], ValueError> {
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.len() != 4 {
        return Err(ValueError::Count {
            text: text.to_string(),
            found: items.len(),
        });
    }
    let mut out = [0u32; 4];
    for (c, item) in items.iter().enumerate() {
        out[c] = parse_number(item).ok_or_else(|| ValueError::Number {
            text: text.to_string(),
            component: c,
            item: item.to_string(),
        })?;
    }
    Ok(out)
}

/// One number: `0x` hex bits, or a decimal float (Rust's parser: correctly rounded, accepts
/// `inf`, `-inf`, `nan`, `infinity`).
fn parse_number(item: &str) -> Option<u32> {
    if let Some(hex) = item.strip_prefix("0x").or_else(|| item.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok();
    }
    item.parse::<f32>().ok().map(f32::to_bits)
}

/// A parsed `--input` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputArg {
    /// `N=v`: `IN[N]` in all four lanes.
    All { index: u32, value: [u32; 4] },
    /// `N@L=v`: `IN[N]` in lane L.
    Lane {
        index: u32,
        lane: usize,
        value: [u32; 4],
    },
    /// `V:N=v`: geometry input `IN[V][N]`.
    Geometry {
        vertex: u32,
        index: u32,
        value: [u32; 4],
    },
}

impl InputArg {
    /// Stores the value in `inputs` (later calls overwrite earlier ones).
    pub fn apply(&self, inputs: &mut RunInputs) {
        match *self {
            InputArg::All { index, value } => inputs.set_input(index, value),
            InputArg::Lane { index, lane, value } => inputs.set_input_lane(index, lane, value),
            InputArg::Geometry {
                vertex,
                index,
                value,
            } => {
                inputs.geometry_inputs.insert((vertex, index), value);
            }
        }
    }
}

/// Splits `KEY=VALUE` and parses the value.
fn split_value(arg: &str, expected: &'static str) -> Result<(String, [u32; 4]), ArgError> {
    let (key, value) = arg.split_once('=').ok_or_else(|| ArgError::Syntax {
        arg: arg.to_string(),
        expected,
    })?;
    let value = parse_value(value).map_err(|source| ArgError::Value {
        arg: arg.to_string(),
        source,
    })?;
    Ok((key.trim().to_string(), value))
}

fn parse_index(arg: &str, text: &str, expected: &'static str) -> Result<u32, ArgError> {
    text.trim().parse::<u32>().map_err(|_| ArgError::Syntax {
        arg: arg.to_string(),
        expected,
    })
}

/// Parses `N=v`, `N@L=v` or `V:N=v`.
pub fn parse_input_arg(arg: &str) -> Result<InputArg, ArgError> {
    const EXPECTED: &str = "N=v, N@L=v or V:N=v";
    let (key, value) = split_value(arg, EXPECTED)?;
    if let Some((n, l)) = key.split_once('@') {
        let index = parse_index(arg, n, EXPECTED)?;
        let lane = parse_index(arg, l, EXPECTED)? as usize;
        if lane >= LANES {
            return Err(ArgError::Lane {
                arg: arg.to_string(),
                lane,
            });
        }
        return Ok(InputArg::Lane { index, lane, value });
    }
    if let Some((v, n)) = key.split_once(':') {
        let vertex = parse_index(arg, v, EXPECTED)?;
        let index = parse_index(arg, n, EXPECTED)?;
        return Ok(InputArg::Geometry {
            vertex,
            index,
            value,
        });
    }
    let index = parse_index(arg, &key, EXPECTED)?;
    Ok(InputArg::All { index, value })
}

/// Parses `N=v` (buffer 0) or `B:N=v`; returns (buffer, index, value).
pub fn parse_const_arg(arg: &str) -> Result<(u32, u32, [u32; 4]), ArgError> {
    const EXPECTED: &str = "N=v or B:N=v";
    let (key, value) = split_value(arg, EXPECTED)?;
    if let Some((b, n)) = key.split_once(':') {
        let buffer = parse_index(arg, b, EXPECTED)?;
        let index = parse_index(arg, n, EXPECTED)?;
        return Ok((buffer, index, value));
    }
    Ok((0, parse_index(arg, &key, EXPECTED)?, value))
}

/// Parses `front` or `back` (case-insensitive).
pub fn parse_face(arg: &str) -> Result<Face, ArgError> {
    match arg.trim().to_ascii_lowercase().as_str() {
        "front" => Ok(Face::Front),
        "back" => Ok(Face::Back),
        _ => Err(ArgError::Face {
            arg: arg.to_string(),
        }),
    }
}

/// Applies every `--input`, `--const` and `--face` argument in order (later flags win).
pub fn apply_args(
    inputs: &mut RunInputs,
    input_args: &[String],
    const_args: &[String],
    face: Option<&str>,
) -> Result<(), ArgError> {
    for a in input_args {
        parse_input_arg(a)?.apply(inputs);
    }
    for a in const_args {
        let (b, n, v) = parse_const_arg(a)?;
        inputs.set_const(b, n, v);
    }
    if let Some(f) = face {
        inputs.face = Some(parse_face(f)?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_mix_floats_and_bits() {
        assert_eq!(
            parse_value("1.5,-0,inf,0x3f800000"),
            Ok([0x3fc0_0000, 0x8000_0000, 0x7f80_0000, 0x3f80_0000])
        );
        assert_eq!(
            parse_value("nan, -inf, 0.1, 1e-45").map(|v| v[1]),
            Ok(0xff80_0000)
        );
        assert_eq!(
            parse_value("0.1,0,0,1e-45").map(|v| (v[0], v[3])),
            Ok((0x3dcc_cccd, 1))
        );
        assert!(matches!(
            parse_value("1,2,3"),
            Err(ValueError::Count { found: 3, .. })
        ));
        assert!(matches!(
            parse_value("1,2,x,4"),
            Err(ValueError::Number { component: 2, .. })
        ));
    }

    #[test]
    fn input_forms() {
        let v = [0x3f80_0000, 0, 0, 0];
        assert_eq!(
            parse_input_arg("2=1,0,0,0"),
            Ok(InputArg::All { index: 2, value: v })
        );
        assert_eq!(
            parse_input_arg("2@3=1,0,0,0"),
            Ok(InputArg::Lane {
                index: 2,
                lane: 3,
                value: v
            })
        );
        assert_eq!(
            parse_input_arg("1:2=1,0,0,0"),
            Ok(InputArg::Geometry {
                vertex: 1,
                index: 2,
                value: v
            })
        );
        assert!(matches!(
            parse_input_arg("2@4=1,0,0,0"),
            Err(ArgError::Lane { .. })
        ));
        assert!(matches!(parse_input_arg("2"), Err(ArgError::Syntax { .. })));
    }

    #[test]
    fn later_flags_win() {
        let mut inputs = RunInputs::default();
        let args = ["0=1,1,1,1".to_string(), "0@2=2,2,2,2".to_string()];
        apply_args(
            &mut inputs,
            &args,
            &["1:3=0,0,0,0x1".to_string()],
            Some("back"),
        )
        .unwrap();
        let one = 1.0f32.to_bits();
        let two = 2.0f32.to_bits();
        assert_eq!(inputs.inputs[&0][1], [one; 4]);
        assert_eq!(inputs.inputs[&0][2], [two; 4]);
        assert_eq!(inputs.constants[&(1, 3)], [0, 0, 0, 1]);
        assert_eq!(inputs.face, Some(Face::Back));
        let args = ["0@2=2,2,2,2".to_string(), "0=1,1,1,1".to_string()];
        apply_args(&mut inputs, &args, &[], None).unwrap();
        assert_eq!(inputs.inputs[&0][2], [one; 4]);
    }
}
