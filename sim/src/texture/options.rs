//! Parsing texture load options from one command-line string.

use super::error::TextureError;
use super::image::{Filter, Format, Wrap};
use super::png::{Layout, LoadOptions};

const KEYS: &str = "format=NAME, filter=nearest|bilinear, wrap=MODE or wrap=S:T:R, \
                    layout=flat|cube|3d:DEPTH";

fn bad(kind: &'static str, name: &str, expected: &'static str) -> TextureError {
    TextureError::UnknownName {
        kind,
        name: name.to_string(),
        expected,
    }
}

impl LoadOptions {
    /// Parses comma-separated `key=value` options, e.g. `format=la,filter=bilinear,wrap=clamp`
    /// or `layout=3d:4,wrap=repeat:repeat:clamp`. An empty string gives the defaults (format from
    /// the PNG, flat, nearest, repeat). `wrap=MODE` sets all three axes, `wrap=S:T:R` each one.
    pub fn parse(spec: &str) -> Result<LoadOptions, TextureError> {
        let mut options = LoadOptions::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad("option", item, KEYS))?;
            match key.trim().to_ascii_lowercase().as_str() {
                "format" => options.format = Some(Format::from_name(value.trim())?),
                "filter" => options.filter = Filter::from_name(value.trim())?,
                "wrap" => options.wrap = parse_wrap(value)?,
                "layout" => options.layout = parse_layout(value)?,
                _ => return Err(bad("option", item, KEYS)),
            }
        }
        Ok(options)
    }
}

fn parse_wrap(value: &str) -> Result<[Wrap; 3], TextureError> {
    let modes: Vec<Wrap> = value
        .split(':')
        .map(|m| Wrap::from_name(m.trim()))
        .collect::<Result<_, _>>()?;
    match modes[..] {
        [all] => Ok([all; 3]),
        [s, t, r] => Ok([s, t, r]),
        _ => Err(bad(
            "wrap mode",
            value,
            "MODE or S:T:R with MODE repeat|clamp",
        )),
    }
}

fn parse_layout(value: &str) -> Result<Layout, TextureError> {
    const EXPECTED: &str = "flat, cube, 3d:DEPTH";
    let lower = value.trim().to_ascii_lowercase();
    match lower.as_str() {
        "flat" | "1d" | "2d" => Ok(Layout::Flat),
        "cube" => Ok(Layout::Cube),
        _ => {
            let depth = lower
                .strip_prefix("3d:")
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|&d| d > 0)
                .ok_or_else(|| bad("layout", value, EXPECTED))?;
            Ok(Layout::Volume { depth })
        }
    }
}
