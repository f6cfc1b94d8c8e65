//! `--uniform NAME=VALUES` and `--uniform-buffer GROUP:BINDING=FILE` on `run` and `render`: the
//! values a shader's uniform buffers hold, by member path or as the bytes a wgpu program uploads,
//! placed where the translation put them (`translate::layout`), next to `--const`.
//!
//! They become `--const` registers (merged with the `--const` values of the same registers, so
//! components no uniform sets keep theirs). A uniform member the program reads that nothing sets
//! is named in a warning.

use super::input::InputFormat;
use anyhow::{bail, Context, Result};
use microcode::tgsi::{File, Program};
use sim::run_io::args::parse_value;
use std::collections::BTreeMap;
use std::path::Path;
use translate::layout::{Bindings, ScalarKind, UniformMember};

/// The largest `--uniform-buffer` file read (a uniform buffer binding holds at most 64 KiB).
const MAX_BUFFER_BYTES: u64 = 64 << 10;

/// Adds to `consts` (the `--const` specs) one spec per CONST register the uniforms set, and
/// warns about uniforms the program reads that nothing sets. For TGSI files, `--uniform` and
/// `--uniform-buffer` are errors (there is no binding map).
pub fn merge(
    consts: &mut Vec<String>,
    file: &Path,
    format: InputFormat,
    uniforms: &[String],
    buffers: &[String],
) -> Result<()> {
    let shader = format == InputFormat::Auto && translate::language_of(file).is_some();
    if !shader {
        if let Some(u) = uniforms.iter().chain(buffers).next() {
            bail!(
                "`{u}`: --uniform and --uniform-buffer need a shader source (.wgsl, .frag, .vert, \
                 .glsl, .spv); {} is TGSI, whose constants --const sets",
                file.display()
            );
        }
        return Ok(());
    }
    let input = super::input::read(file, format)?;
    let Some(bindings) = &input.bindings else {
        return Ok(());
    };
    let mut regs: BTreeMap<u32, [u32; 4]> = BTreeMap::new();
    let mut set: BTreeMap<u32, [bool; 4]> = BTreeMap::new();
    for spec in consts.iter() {
        let (index, value) = const_spec(spec)?;
        regs.insert(index, value);
        set.insert(index, [true; 4]);
    }
    for spec in buffers {
        apply_buffer(spec, bindings, &mut regs, &mut set)?;
    }
    for spec in uniforms {
        apply_uniform(spec, bindings, &mut regs, &mut set)?;
    }
    warn_unset(bindings, &set, &input.loaded.program);
    for (index, v) in &regs {
        consts.push(format!(
            "{index}=0x{:08x},0x{:08x},0x{:08x},0x{:08x}",
            v[0], v[1], v[2], v[3]
        ));
    }
    Ok(())
}

/// A `--const N=v` of buffer 0 (other buffers are not uniforms' concern).
fn const_spec(spec: &str) -> Result<(u32, [u32; 4])> {
    let (index, value) = spec
        .split_once('=')
        .with_context(|| format!("--const `{spec}`: expected N=x,y,z,w"))?;
    let index = index.trim();
    let index = index.strip_prefix("0:").unwrap_or(index);
    let index: u32 = index
        .parse()
        .with_context(|| format!("--const `{spec}`: `{index}` is not a CONST index"))?;
    let value = parse_value(value).with_context(|| format!("--const `{spec}`"))?;
    Ok((index, value))
}

/// `GROUP:BINDING=FILE`: the buffer's bytes, word k into `CONST[first + k / 4]`, component k % 4.
fn apply_buffer(
    spec: &str,
    bindings: &Bindings,
    regs: &mut BTreeMap<u32, [u32; 4]>,
    set: &mut BTreeMap<u32, [bool; 4]>,
) -> Result<()> {
    let bad = || format!("--uniform-buffer `{spec}`: expected GROUP:BINDING=FILE or push=FILE");
    let (at, path) = spec.split_once('=').with_context(bad)?;
    let (group, binding) = if at.trim() == "push" {
        (translate::layout::PUSH_CONSTANTS, 0)
    } else {
        let (g, b) = at.split_once(':').with_context(bad)?;
        let group: u32 = g.trim().parse().with_context(bad)?;
        (group, b.trim().parse::<u32>().with_context(bad)?)
    };
    let Some(buffer) = bindings.buffer(group, binding) else {
        let known: Vec<String> = bindings
            .buffers
            .iter()
            .map(|b| {
                if b.group == translate::layout::PUSH_CONSTANTS {
                    "push".to_string()
                } else {
                    format!("{}:{}", b.group, b.binding)
                }
            })
            .collect();
        bail!(
            "--uniform-buffer `{spec}`: the entry point reads no uniform buffer at group {group} \
             binding {binding} (it reads: {})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        );
    };
    let path = Path::new(path.trim());
    let bytes = read_limited(path).with_context(|| format!("--uniform-buffer `{spec}`"))?;
    let room = buffer.size.div_ceil(16) * 16;
    if bytes.len() % 4 != 0 || (bytes.len() as u32) < buffer.size || bytes.len() as u32 > room {
        bail!(
            "--uniform-buffer `{spec}`: {} holds {} bytes; the binding takes {} (up to {room} \
             with its padding), a whole number of 4-byte words",
            path.display(),
            bytes.len(),
            buffer.size
        );
    }
    for (k, w) in bytes.chunks_exact(4).enumerate() {
        let reg = buffer.first + (k / 4) as u32;
        let c = k % 4;
        regs.entry(reg).or_insert([0; 4])[c] = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        set.entry(reg).or_insert([false; 4])[c] = true;
    }
    Ok(())
}

fn read_limited(path: &Path) -> Result<Vec<u8>> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.len() > MAX_BUFFER_BYTES {
        bail!(
            "{} is {} bytes, more than a uniform buffer holds ({MAX_BUFFER_BYTES})",
            path.display(),
            meta.len()
        );
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// `NAME=VALUES`: the members `NAME` names, in offset order, take the values in turn.
fn apply_uniform(
    spec: &str,
    bindings: &Bindings,
    regs: &mut BTreeMap<u32, [u32; 4]>,
    set: &mut BTreeMap<u32, [bool; 4]>,
) -> Result<()> {
    let (name, values) = spec
        .split_once('=')
        .with_context(|| format!("--uniform `{spec}`: expected NAME=VALUES"))?;
    let name = name.trim();
    let members = bindings.find(name);
    if members.is_empty() {
        let paths: Vec<&str> = bindings.uniforms.iter().map(|m| m.path.as_str()).collect();
        bail!(
            "--uniform `{spec}`: the entry point reads no uniform `{name}` (it reads: {})",
            if paths.is_empty() {
                "none".to_string()
            } else {
                paths.join(", ")
            }
        );
    }
    let items: Vec<&str> = values.split(',').map(str::trim).collect();
    let wanted: u32 = members.iter().map(|m| values_of(m)).sum();
    if items.len() != wanted as usize {
        bail!(
            "--uniform `{spec}`: `{name}` takes {wanted} value(s) ({}), found {}",
            members
                .iter()
                .map(|m| format!("{} {}", m.path, m.ty))
                .collect::<Vec<_>>()
                .join(", "),
            items.len()
        );
    }
    let mut it = items.iter();
    for m in members {
        let mut put = |c: u32, bits: u32| {
            regs.entry(m.register).or_insert([0; 4])[c as usize] = bits;
            set.entry(m.register).or_insert([false; 4])[c as usize] = true;
        };
        if m.kind == ScalarKind::Double {
            // Each double fills two components, the low word first.
            for c in (m.first..m.first + m.count).step_by(2) {
                let item = it.next().copied().unwrap_or("0");
                let bits = double(m, item).with_context(|| format!("--uniform `{spec}`"))?;
                put(c, bits as u32);
                put(c + 1, (bits >> 32) as u32);
            }
            continue;
        }
        for c in m.first..m.first + m.count {
            let item = it.next().copied().unwrap_or("0");
            put(
                c,
                scalar(m, item).with_context(|| format!("--uniform `{spec}`"))?,
            );
        }
    }
    Ok(())
}

/// How many values a member takes: one per component, one per double.
fn values_of(m: &UniformMember) -> u32 {
    if m.kind == ScalarKind::Double {
        m.count / 2
    } else {
        m.count
    }
}

/// One `f64` value: a number, or its 64 bits as `0x` and 16 hex digits.
fn double(m: &UniformMember, item: &str) -> Result<u64> {
    if let Some(hex) = item.strip_prefix("0x").or_else(|| item.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16)
            .with_context(|| format!("`{item}` is not a 0x bit pattern of 64 bits"));
    }
    Ok(item
        .parse::<f64>()
        .with_context(|| format!("`{item}` is not a number ({} is {})", m.path, m.ty))?
        .to_bits())
}

/// One value for a member of `m`'s kind: a float, a signed or unsigned integer, or `0x` bits.
fn scalar(m: &UniformMember, item: &str) -> Result<u32> {
    if let Some(hex) = item.strip_prefix("0x").or_else(|| item.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16)
            .with_context(|| format!("`{item}` is not a 0x bit pattern"));
    }
    Ok(match m.kind {
        ScalarKind::Float => item
            .parse::<f32>()
            .with_context(|| format!("`{item}` is not a number ({} is {})", m.path, m.ty))?
            .to_bits(),
        ScalarKind::Sint => item
            .parse::<i32>()
            .with_context(|| format!("`{item}` is not an i32 ({} is {})", m.path, m.ty))?
            as u32,
        ScalarKind::Uint => item
            .parse::<u32>()
            .with_context(|| format!("`{item}` is not a u32 ({} is {})", m.path, m.ty))?,
        ScalarKind::Double => double(m, item)? as u32,
    })
}

/// Warns about each member the program reads whose components nothing set.
fn warn_unset(bindings: &Bindings, set: &BTreeMap<u32, [bool; 4]>, program: &Program) {
    let relative = program.instructions.iter().any(|i| {
        i.src
            .iter()
            .any(|s| s.reg.file == File::Constant && s.reg.indirect.is_some())
    });
    for m in &bindings.uniforms {
        let read = relative
            || program.instructions.iter().any(|i| {
                i.src
                    .iter()
                    .any(|s| s.reg.file == File::Constant && s.reg.index == m.register as i32)
            });
        let given = set
            .get(&m.register)
            .is_some_and(|s| (m.first..m.first + m.count).any(|c| s[c as usize]));
        if read && !given {
            eprintln!(
                "warning: uniform `{}` ({}, CONST[{}].{}) is not set and reads 0; set it with \
                 --uniform {}=... or --uniform-buffer {}=FILE",
                m.path,
                m.ty,
                m.register,
                m.components(),
                m.path,
                if m.group == translate::layout::PUSH_CONSTANTS {
                    "push".to_string()
                } else {
                    format!("{}:{}", m.group, m.binding)
                }
            );
        }
    }
}
