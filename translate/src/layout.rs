//! Where a shader's resources land in TGSI: uniform buffers in CONST registers laid out as the
//! buffer's bytes are (WGSL's uniform address space, std140 for GLSL blocks: byte offset `b`
//! is `CONST[first + b / 16]`, component `(b % 16) / 4`), one CONST range per binding in
//! (group, binding) order, and textures as SAMP units in the same order. The map is printed as
//! comments in the TGSI ([`Bindings::comments`]) and as JSON ([`Bindings::to_json`]), and read by
//! `run` / `render` for `--uniform NAME=VALUES` and `--uniform-buffer GROUP:BINDING=FILE`.

use std::fmt::Write;

/// The group of push constants (`var<push_constant>`, GLSL `layout(push_constant)`), which have
/// no bind group: printed as `push`, null in JSON, `--uniform-buffer push=FILE`.
pub const PUSH_CONSTANTS: u32 = u32::MAX;

/// `@group(g) @binding(b)`, or `push constants`.
fn place(group: u32, binding: u32) -> String {
    if group == PUSH_CONSTANTS {
        "push constants".to_string()
    } else {
        format!("@group({group}) @binding({binding})")
    }
}

/// A group or binding number in JSON: null for push constants.
fn number(group: u32, n: u32) -> String {
    if group == PUSH_CONSTANTS {
        "null".to_string()
    } else {
        n.to_string()
    }
}

/// The kind of the scalars of a uniform member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    /// `f32` / `float`.
    Float,
    /// `i32` / `int`.
    Sint,
    /// `u32` / `uint`.
    Uint,
    /// `f64` / `double`: each value two components, the low word first.
    Double,
}

impl ScalarKind {
    fn name(self) -> &'static str {
        match self {
            ScalarKind::Float => "float",
            ScalarKind::Sint => "sint",
            ScalarKind::Uint => "uint",
            ScalarKind::Double => "double",
        }
    }
}

/// One scalar or vector of a uniform buffer (a member, an array element, a matrix column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformMember {
    /// The buffer's bind group (`@group`, GLSL `set`).
    pub group: u32,
    /// The buffer's binding.
    pub binding: u32,
    /// The member path: the variable's name, then `.member` and `[index]` steps (`light.dir`,
    /// `lights[2].color`, `model[3]` for a matrix column). A GLSL block without an instance
    /// name starts at its members.
    pub path: String,
    /// The CONST register.
    pub register: u32,
    /// The first component (0 = x).
    pub first: u32,
    /// How many components (1 to 4; an `f64` takes two).
    pub count: u32,
    /// The scalars' kind.
    pub kind: ScalarKind,
    /// The type as the shader writes it.
    pub ty: String,
    /// Byte offset in the buffer.
    pub offset: u32,
}

impl UniformMember {
    /// The components as letters (`xyz`, `zw`).
    pub fn components(&self) -> String {
        (self.first..self.first + self.count)
            .map(|c| b"xyzw"[c as usize] as char)
            .collect()
    }
}

/// One uniform buffer binding: its CONST range and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformBuffer {
    /// Bind group.
    pub group: u32,
    /// Binding.
    pub binding: u32,
    /// The variable's name (empty for an unnamed GLSL block).
    pub name: String,
    /// The first CONST register.
    pub first: u32,
    /// The size in bytes (the registers are `ceil(size / 16)`).
    pub size: u32,
}

/// One texture binding and the SAMP unit it became.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureBinding {
    /// Bind group.
    pub group: u32,
    /// Binding.
    pub binding: u32,
    /// The variable's name.
    pub name: String,
    /// The SAMP unit (`--texture N=...`).
    pub unit: u32,
    /// The TGSI target (`2D`, `2D_ARRAY`, `SHADOW2D`, ...).
    pub target: String,
}

/// The resources of a translated entry point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// Uniform buffers, in (group, binding) order.
    pub buffers: Vec<UniformBuffer>,
    /// Their members, in buffer then offset order.
    pub uniforms: Vec<UniformMember>,
    /// Textures, in (group, binding) order.
    pub textures: Vec<TextureBinding>,
}

impl Bindings {
    /// The members a `--uniform NAME` names: the member of that path, or every member inside it
    /// (`light` names `light.dir` and `light.color`; `m` a matrix's columns), in offset order;
    /// failing that, the members whose path ends in `.NAME` when they are all in one place.
    pub fn find(&self, name: &str) -> Vec<&UniformMember> {
        let inside = |p: &str, n: &str| {
            p == n
                || p.strip_prefix(n)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
        };
        let exact: Vec<&UniformMember> = self
            .uniforms
            .iter()
            .filter(|m| inside(&m.path, name))
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        // `time` for `u.time`: a suffix after a dot, when it names one thing.
        let tail: Vec<&UniformMember> = self
            .uniforms
            .iter()
            .filter(|m| {
                m.path
                    .match_indices('.')
                    .any(|(i, _)| inside(&m.path[i + 1..], name))
            })
            .collect();
        let roots: std::collections::BTreeSet<String> = tail
            .iter()
            .map(|m| {
                let i = m.path.find(&format!(".{name}")).unwrap_or(0);
                m.path[..i].to_string()
            })
            .collect();
        if roots.len() == 1 {
            tail
        } else {
            Vec::new()
        }
    }

    /// The buffer at (group, binding).
    pub fn buffer(&self, group: u32, binding: u32) -> Option<&UniformBuffer> {
        self.buffers
            .iter()
            .find(|b| b.group == group && b.binding == binding)
    }

    /// The map as TGSI comment lines (`# CONST[0].x: u.time (f32), group 0 binding 0 offset 0`).
    pub fn comments(&self) -> String {
        let mut out = String::new();
        for b in &self.buffers {
            let regs = b.size.div_ceil(16);
            let _ = writeln!(
                out,
                "# uniform buffer {} {}: CONST[{}..{}], {} bytes",
                place(b.group, b.binding),
                if b.name.is_empty() {
                    "(block)"
                } else {
                    &b.name
                },
                b.first,
                b.first + regs.max(1) - 1,
                b.size
            );
        }
        for m in &self.uniforms {
            let _ = writeln!(
                out,
                "#   CONST[{}].{} = {} ({}, offset {})",
                m.register,
                m.components(),
                m.path,
                m.ty,
                m.offset
            );
        }
        for t in &self.textures {
            let _ = writeln!(
                out,
                "# texture @group({}) @binding({}) {}: SAMP[{}], {}",
                t.group, t.binding, t.name, t.unit, t.target
            );
        }
        out
    }

    /// The map as JSON: `{"uniforms": [{"group", "binding", "path", "register", "components",
    /// "type", "kind", "offset"}], "buffers": [{"group", "binding", "name", "first", "size"}],
    /// "textures": [{"group", "binding", "name", "sampler", "target"}]}`.
    pub fn to_json(&self) -> String {
        let s = |x: &str| format!("\"{}\"", x.replace('\\', "\\\\").replace('"', "\\\""));
        let uniforms: Vec<String> = self
            .uniforms
            .iter()
            .map(|m| {
                format!(
                    "{{\"group\": {}, \"binding\": {}, \"path\": {}, \"register\": {}, \
                     \"components\": {}, \"type\": {}, \"kind\": {}, \"offset\": {}}}",
                    number(m.group, m.group),
                    number(m.group, m.binding),
                    s(&m.path),
                    m.register,
                    s(&m.components()),
                    s(&m.ty),
                    s(m.kind.name()),
                    m.offset
                )
            })
            .collect();
        let buffers: Vec<String> = self
            .buffers
            .iter()
            .map(|b| {
                format!(
                    "{{\"group\": {}, \"binding\": {}, \"name\": {}, \"first\": {}, \"size\": {}}}",
                    number(b.group, b.group),
                    number(b.group, b.binding),
                    s(&b.name),
                    b.first,
                    b.size
                )
            })
            .collect();
        let textures: Vec<String> = self
            .textures
            .iter()
            .map(|t| {
                format!(
                    "{{\"group\": {}, \"binding\": {}, \"name\": {}, \"sampler\": {}, \"target\": {}}}",
                    t.group,
                    t.binding,
                    s(&t.name),
                    t.unit,
                    s(&t.target)
                )
            })
            .collect();
        let list = |v: Vec<String>| {
            if v.is_empty() {
                "[]".to_string()
            } else {
                format!("[\n    {}\n  ]", v.join(",\n    "))
            }
        };
        format!(
            "{{\n  \"uniforms\": {},\n  \"buffers\": {},\n  \"textures\": {}\n}}\n",
            list(uniforms),
            list(buffers),
            list(textures)
        )
    }
}
