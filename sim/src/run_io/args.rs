//! Command-line value syntax shared by every engine (`decisions.md` section 7):
//! `--input N=v`, `--input N@L=v`, `--input V:N=v`, `--const N=v`, `--const B:N=v`,
//! `--face front|back`, `--texture N=FILE.png[,option...]`. A value `v` is four comma-separated
//! numbers, each a float (`1.5`, `-0`, `inf`, `nan`) or a bit pattern (`0x3f800000`).

use super::{Face, RunInputs, LANES};
use crate::texture::{load_png, Filter, Format, Layout, LoadOptions, TextureError, Wrap};
use std::path::PathBuf;
use thiserror::Error;

/// A value that is not four comma-separated numbers.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ValueError {
    /// The value does not have exactly four items (`1,2,3` for a vec4).
    #[error("expected 4 comma-separated numbers, found {found} in `{text}`")]
    Count {
        /// The value as given.
        text: String,
        /// How many comma-separated items it has.
        found: usize,
    },
    /// One item is neither a float Rust parses nor a `0x` bit pattern that fits 32 bits.
    #[error("component {component} of `{text}`: `{item}` is neither a float nor a 0x bit pattern")]
    Number {
        /// The value as given.
        text: String,
        /// Which item (0 is x).
        component: usize,
        /// The item that does not parse.
        item: String,
    },
}

/// A malformed `--input`, `--const`, `--face` or `--texture` argument.
#[derive(Debug, Error)]
pub enum ArgError {
    /// The argument is not of the flag's form (no `=`, a register number that is not a
    /// number).
    #[error("`{arg}`: expected {expected}")]
    Syntax {
        /// The argument as given.
        arg: String,
        /// The forms the flag accepts (`N=v, N@L=v or V:N=v`).
        expected: &'static str,
    },
    /// `--input N@L=v` names a lane other than 0-3 (a run is one quad).
    #[error("`{arg}`: lane {lane} is out of range (0-3)")]
    Lane {
        /// The argument as given.
        arg: String,
        /// The lane it names.
        lane: usize,
    },
    /// The value after `=` is not four numbers.
    // The cause is part of the message (not a `source`), so that `{:#}` does not print it twice.
    #[error("`{arg}`: {error}")]
    Value {
        /// The argument as given.
        arg: String,
        /// What is wrong with the value.
        error: ValueError,
    },
    /// `--face` is neither `front` nor `back`.
    #[error("`{arg}`: expected `front` or `back`")]
    Face {
        /// The argument as given.
        arg: String,
    },
    /// The texture file cannot be read or decoded, or does not fit the options given.
    #[error("`{arg}`: {error}")]
    Texture {
        /// The argument as given.
        arg: String,
        /// Why the texture was refused.
        error: TextureError,
    },
    /// A `--texture` option after the file name is not one the loader knows.
    #[error("`{arg}`: unknown texture option `{option}` (nearest, bilinear, repeat, clamp, cube, volume=D, format=NAME)")]
    TextureOption {
        /// The argument as given.
        arg: String,
        /// The option not understood.
        option: String,
    },
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
    All {
        /// N, the input register.
        index: u32,
        /// The vec4 as binary32 (or integer) bits.
        value: [u32; 4],
    },
    /// `N@L=v`: `IN[N]` in lane L.
    Lane {
        /// N, the input register.
        index: u32,
        /// L, the lane (0-3).
        lane: usize,
        /// The vec4 as bits.
        value: [u32; 4],
    },
    /// `V:N=v`: geometry input `IN[V][N]`.
    Geometry {
        /// V, the input vertex.
        vertex: u32,
        /// N, the input register of that vertex.
        index: u32,
        /// The vec4 as bits.
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
    let value = parse_value(value).map_err(|error| ArgError::Value {
        arg: arg.to_string(),
        error,
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

/// Parses `N=FILE[,option...]`: sampler unit, PNG path and load options. Options: `nearest` or
/// `bilinear` (filter), `repeat` or `clamp` (wrap on every axis), `cube` (six faces stacked
/// vertically), `volume=D` (D slices stacked vertically), `format=NAME` (a format of the texture
/// module, e.g. `rgba`, `l`, `depth`).
pub fn parse_texture_arg(arg: &str) -> Result<(usize, PathBuf, LoadOptions), ArgError> {
    const EXPECTED: &str = "N=FILE.png[,option...]";
    let (unit, rest) = arg.split_once('=').ok_or_else(|| ArgError::Syntax {
        arg: arg.to_string(),
        expected: EXPECTED,
    })?;
    let unit = parse_index(arg, unit, EXPECTED)? as usize;
    let mut parts = rest.split(',');
    let file = parts.next().unwrap_or("").trim();
    if file.is_empty() {
        return Err(ArgError::Syntax {
            arg: arg.to_string(),
            expected: EXPECTED,
        });
    }
    let mut options = LoadOptions::default();
    let texture_err = |error| ArgError::Texture {
        arg: arg.to_string(),
        error,
    };
    for option in parts.map(str::trim) {
        let lower = option.to_ascii_lowercase();
        if let Ok(f) = Filter::from_name(&lower) {
            options.filter = f;
        } else if let Ok(w) = Wrap::from_name(&lower) {
            options.wrap = [w; 3];
        } else if lower == "cube" {
            options.layout = Layout::Cube;
        } else if let Some(d) = lower.strip_prefix("volume=") {
            let depth = parse_index(arg, d, EXPECTED)?;
            options.layout = Layout::Volume { depth };
        } else if let Some(name) = lower.strip_prefix("format=") {
            options.format = Some(Format::from_name(name).map_err(texture_err)?);
        } else {
            return Err(ArgError::TextureOption {
                arg: arg.to_string(),
                option: option.to_string(),
            });
        }
    }
    Ok((unit, PathBuf::from(file), options))
}

/// Loads every `--texture` argument into `inputs.textures` (later flags win).
pub fn apply_textures(inputs: &mut RunInputs, texture_args: &[String]) -> Result<(), ArgError> {
    for a in texture_args {
        let (unit, path, options) = parse_texture_arg(a)?;
        let texture = load_png(&path, &options).map_err(|error| ArgError::Texture {
            arg: a.to_string(),
            error,
        })?;
        if inputs.textures.len() <= unit {
            inputs.textures.resize_with(unit + 1, || None);
        }
        inputs.textures[unit] = Some(Box::new(texture));
    }
    Ok(())
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
            parse_input_arg("2=1,0,0,0").unwrap(),
            InputArg::All { index: 2, value: v }
        );
        assert_eq!(
            parse_input_arg("2@3=1,0,0,0").unwrap(),
            InputArg::Lane {
                index: 2,
                lane: 3,
                value: v
            }
        );
        assert_eq!(
            parse_input_arg("1:2=1,0,0,0").unwrap(),
            InputArg::Geometry {
                vertex: 1,
                index: 2,
                value: v
            }
        );
        assert!(matches!(
            parse_input_arg("2@4=1,0,0,0"),
            Err(ArgError::Lane { .. })
        ));
        assert!(matches!(parse_input_arg("2"), Err(ArgError::Syntax { .. })));
    }

    #[test]
    fn texture_arguments() {
        let (unit, path, o) = parse_texture_arg("2=wood.png,bilinear,clamp,volume=4").unwrap();
        assert_eq!((unit, path), (2, PathBuf::from("wood.png")));
        assert_eq!(o.filter, Filter::Bilinear);
        assert_eq!(o.wrap, [Wrap::ClampToEdge; 3]);
        assert_eq!(o.layout, Layout::Volume { depth: 4 });
        let (_, _, o) = parse_texture_arg("0=sky.png,cube").unwrap();
        assert_eq!((o.layout, o.filter), (Layout::Cube, Filter::Nearest));
        assert!(matches!(
            parse_texture_arg("0=a.png,mipmap"),
            Err(ArgError::TextureOption { .. })
        ));
        assert!(matches!(
            parse_texture_arg("x=a.png"),
            Err(ArgError::Syntax { .. })
        ));
        let mut inputs = RunInputs::default();
        let missing = ["1=/nonexistent/t.png".to_string()];
        assert!(matches!(
            apply_textures(&mut inputs, &missing),
            Err(ArgError::Texture { .. })
        ));
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
