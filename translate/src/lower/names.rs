//! Constructs named as the shader's own language names them, for error messages.

use crate::Language;
use naga::{AddressSpace, BuiltIn, ImageClass, ImageDimension, MathFunction, Module, TypeInner};

/// A built-in function's name: WGSL's for WGSL and SPIR-V (naga's IR follows WGSL), GLSL's for
/// GLSL.
pub(crate) fn math(fun: MathFunction, lang: Language) -> String {
    let glsl = matches!(lang, Language::Glsl(_));
    let wgsl = format!("{fun:?}");
    let camel = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    use MathFunction as M;
    let g = match fun {
        M::Atan2 => "atan",
        M::InverseSqrt => "inversesqrt",
        M::FaceForward => "faceforward",
        M::Outer => "outerProduct",
        M::CountOneBits => "bitCount",
        M::ReverseBits => "bitfieldReverse",
        M::ExtractBits => "bitfieldExtract",
        M::InsertBits => "bitfieldInsert",
        M::FirstTrailingBit => "findLSB",
        M::FirstLeadingBit => "findMSB",
        M::Pack4x8snorm => "packSnorm4x8",
        M::Pack4x8unorm => "packUnorm4x8",
        M::Pack2x16snorm => "packSnorm2x16",
        M::Pack2x16unorm => "packUnorm2x16",
        M::Pack2x16float => "packHalf2x16",
        M::Unpack4x8snorm => "unpackSnorm4x8",
        M::Unpack4x8unorm => "unpackUnorm4x8",
        M::Unpack2x16snorm => "unpackSnorm2x16",
        M::Unpack2x16unorm => "unpackUnorm2x16",
        M::Unpack2x16float => "unpackHalf2x16",
        _ => "",
    };
    if glsl && !g.is_empty() {
        return g.to_string();
    }
    match fun {
        M::Outer => "outerProduct".into(),
        M::Dot4I8Packed => "dot4I8Packed".into(),
        M::Dot4U8Packed => "dot4U8Packed".into(),
        M::QuantizeToF16 => "quantizeToF16".into(),
        _ if wgsl.starts_with("Pack") || wgsl.starts_with("Unpack") => camel(&wgsl),
        _ => camel(&wgsl),
    }
}

/// An address space as a declaration of it reads (`var<storage>`, a GLSL `buffer` block).
pub(crate) fn space(space: AddressSpace, lang: Language) -> String {
    let glsl = matches!(lang, Language::Glsl(_));
    let s = match (space, glsl) {
        (AddressSpace::Storage { .. }, false) => "storage buffers (`var<storage>`)",
        (AddressSpace::Storage { .. }, true) => "storage buffers (`buffer` blocks)",
        (AddressSpace::WorkGroup, false) => "workgroup memory (`var<workgroup>`)",
        (AddressSpace::WorkGroup, true) => "workgroup memory (`shared`)",
        (AddressSpace::Immediate, false) => "`var<push_constant>`",
        (AddressSpace::Immediate, true) => "`layout(push_constant)`",
        (AddressSpace::Uniform, false) => "`var<uniform>`",
        (AddressSpace::Uniform, true) => "a `uniform` block",
        (AddressSpace::Private, false) => "`var<private>`",
        (AddressSpace::Private, true) => "a global variable",
        (AddressSpace::Function, _) => "a function variable",
        (AddressSpace::Handle, _) => "a resource",
        _ => return format!("the address space {space:?}"),
    };
    s.to_string()
}

/// Why an address space has no translation.
pub(crate) fn space_why(space: AddressSpace) -> &'static str {
    match space {
        AddressSpace::Storage { .. } => {
            "TGSI 1.x has no buffer memory, and the core no memory writes"
        }
        AddressSpace::WorkGroup => "it belongs to compute shaders; TGSI 1.x and the core have none",
        _ => "TGSI has no registers for it",
    }
}

/// A texture or storage-image type's name.
pub(crate) fn image(
    dim: ImageDimension,
    arrayed: bool,
    class: ImageClass,
    lang: Language,
) -> String {
    let glsl = matches!(lang, Language::Glsl(_));
    let d = match dim {
        ImageDimension::D1 => "1d",
        ImageDimension::D2 => "2d",
        ImageDimension::D3 => "3d",
        ImageDimension::Cube => "cube",
    };
    let arr = if arrayed { "_array" } else { "" };
    if glsl {
        let gd = d.to_ascii_uppercase().replace("CUBE", "Cube");
        let garr = if arrayed { "Array" } else { "" };
        return match class {
            ImageClass::Storage { .. } => format!("image{gd}{garr}"),
            ImageClass::Depth { multi: true } => format!("sampler{gd}MS{garr}Shadow"),
            ImageClass::Depth { .. } => format!("sampler{gd}{garr}Shadow"),
            ImageClass::Sampled { multi: true, .. } => format!("sampler{gd}MS{garr}"),
            _ => format!("sampler{gd}{garr}"),
        };
    }
    match class {
        ImageClass::Storage { .. } => format!("texture_storage_{d}{arr}"),
        ImageClass::Depth { multi: true } => format!("texture_depth_multisampled_{d}{arr}"),
        ImageClass::Depth { .. } => format!("texture_depth_{d}{arr}"),
        ImageClass::Sampled { multi: true, .. } => format!("texture_multisampled_{d}{arr}"),
        ImageClass::External => "texture_external".into(),
        _ => format!("texture_{d}{arr}"),
    }
}

/// A built-in input or output as the language writes it.
pub(crate) fn builtin(b: BuiltIn, lang: Language) -> String {
    let glsl = matches!(lang, Language::Glsl(_));
    let (w, g) = match b {
        BuiltIn::Position { .. } => ("position", "gl_Position"),
        BuiltIn::ViewIndex => ("view_index", "gl_ViewIndex"),
        BuiltIn::BaseInstance => ("base_instance", "gl_BaseInstance"),
        BuiltIn::BaseVertex => ("base_vertex", "gl_BaseVertex"),
        BuiltIn::ClipDistances => ("clip_distances", "gl_ClipDistance"),
        BuiltIn::CullDistance => ("cull_distance", "gl_CullDistance"),
        BuiltIn::InstanceIndex => ("instance_index", "gl_InstanceIndex"),
        BuiltIn::PointSize => ("point_size", "gl_PointSize"),
        BuiltIn::VertexIndex => ("vertex_index", "gl_VertexIndex"),
        BuiltIn::DrawIndex => ("draw_index", "gl_DrawID"),
        BuiltIn::FragDepth => ("frag_depth", "gl_FragDepth"),
        BuiltIn::PointCoord => ("point_coord", "gl_PointCoord"),
        BuiltIn::FrontFacing => ("front_facing", "gl_FrontFacing"),
        BuiltIn::PrimitiveIndex => ("primitive_index", "gl_PrimitiveID"),
        BuiltIn::SampleIndex => ("sample_index", "gl_SampleID"),
        BuiltIn::SampleMask => ("sample_mask", "gl_SampleMask"),
        BuiltIn::GlobalInvocationId => ("global_invocation_id", "gl_GlobalInvocationID"),
        BuiltIn::LocalInvocationId => ("local_invocation_id", "gl_LocalInvocationID"),
        BuiltIn::LocalInvocationIndex => ("local_invocation_index", "gl_LocalInvocationIndex"),
        BuiltIn::WorkGroupId => ("workgroup_id", "gl_WorkGroupID"),
        BuiltIn::NumWorkGroups => ("num_workgroups", "gl_NumWorkGroups"),
        BuiltIn::SubgroupSize => ("subgroup_size", "gl_SubgroupSize"),
        BuiltIn::SubgroupInvocationId => ("subgroup_invocation_id", "gl_SubgroupInvocationID"),
        BuiltIn::Barycentric { .. } => ("barycentric", "gl_BaryCoordEXT"),
        _ => return format!("{b:?}"),
    };
    if glsl {
        g.to_string()
    } else {
        format!("@builtin({w})")
    }
}

/// A type's name as the language writes it (naga's name for structs).
pub(crate) fn type_name(m: &Module, ty: naga::Handle<naga::Type>, lang: Language) -> String {
    let t = &m.types[ty];
    if let Some(n) = &t.name {
        return n.clone();
    }
    inner_name(m, &t.inner, lang)
}

/// A type's name as the language writes it, from its inner form.
pub(crate) fn inner_name(m: &Module, t: &TypeInner, lang: Language) -> String {
    let glsl = matches!(lang, Language::Glsl(_));
    let scalar = |s: naga::Scalar| -> String {
        use naga::ScalarKind as K;
        match (s.kind, s.width, glsl) {
            (K::Float, 4, false) => "f32".into(),
            (K::Float, 4, true) => "float".into(),
            (K::Float, 8, false) => "f64".into(),
            (K::Float, 8, true) => "double".into(),
            (K::Float, 2, false) => "f16".into(),
            (K::Float, 2, true) => "float16_t".into(),
            (K::Sint, 4, false) => "i32".into(),
            (K::Sint, 4, true) => "int".into(),
            (K::Uint, 4, false) => "u32".into(),
            (K::Uint, 4, true) => "uint".into(),
            (K::Sint, 8, false) => "i64".into(),
            (K::Sint, 8, true) => "int64_t".into(),
            (K::Uint, 8, false) => "u64".into(),
            (K::Uint, 8, true) => "uint64_t".into(),
            (K::Bool, _, false) => "bool".into(),
            (K::Bool, _, true) => "bool".into(),
            (k, w, _) => format!("{k:?}{}", w * 8),
        }
    };
    match *t {
        TypeInner::Scalar(s) => scalar(s),
        TypeInner::Vector { size, scalar: s } => {
            if glsl {
                format!("{}vec{}", glsl_prefix(s), size as u8)
            } else {
                format!("vec{}<{}>", size as u8, scalar(s))
            }
        }
        TypeInner::Matrix {
            columns,
            rows,
            scalar: s,
        } => {
            if glsl {
                format!("{}mat{}x{}", glsl_prefix(s), columns as u8, rows as u8)
            } else {
                format!("mat{}x{}<{}>", columns as u8, rows as u8, scalar(s))
            }
        }
        TypeInner::Atomic(s) => format!("atomic<{}>", scalar(s)),
        TypeInner::Array { base, size, .. } => {
            let n = match size {
                naga::ArraySize::Constant(n) => format!(", {n}"),
                _ => String::new(),
            };
            format!("array<{}{n}>", type_name(m, base, lang))
        }
        TypeInner::Image {
            dim,
            arrayed,
            class,
        } => image(dim, arrayed, class, lang),
        TypeInner::Sampler { comparison: true } => if glsl {
            "samplerShadow"
        } else {
            "sampler_comparison"
        }
        .into(),
        TypeInner::Sampler { .. } => "sampler".into(),
        TypeInner::AccelerationStructure { .. } => "acceleration_structure".into(),
        TypeInner::RayQuery { .. } => "ray_query".into(),
        TypeInner::BindingArray { .. } => "binding_array".into(),
        _ => "this type".into(),
    }
}

/// GLSL's prefix for vectors and matrices of a scalar type (`dvec3`, `ivec2`, `dmat4x4`).
fn glsl_prefix(s: naga::Scalar) -> &'static str {
    use naga::ScalarKind as K;
    match (s.kind, s.width) {
        (K::Float, 8) => "d",
        (K::Sint, _) => "i",
        (K::Uint, _) => "u",
        (K::Bool, _) => "b",
        _ => "",
    }
}
