//! TXF, TXQ, the built-in textures, constructors and option names.

use microcode::tgsi::TextureTarget;
use sim::texture::{Filter, Format, Texture, TextureError, Wrap};

fn bits(v: f32) -> u32 {
    v.to_bits()
}

/// 2x2x2, texel value 1 + x + 2y + 4z in every channel.
fn volume() -> Texture {
    let texels: Vec<[f32; 4]> = (0..8).map(|n| [1.0 + n as f32; 4]).collect();
    Texture::from_floats(2, 2, 2, Format::Rgba, &texels).unwrap()
}

#[test]
fn txf_reads_integer_coordinates_without_filtering() {
    let t = volume().with_filter(Filter::Bilinear);
    assert_eq!(t.fetch(TextureTarget::T2D, [1, 1, 0, 0]), [bits(4.0); 4]);
    assert_eq!(t.fetch(TextureTarget::T3D, [1, 0, 1, 0]), [bits(6.0); 4]);
    // 2-D ignores z, 1-D ignores y and z.
    assert_eq!(t.fetch(TextureTarget::T2D, [0, 1, 1, 0]), [bits(3.0); 4]);
    assert_eq!(t.fetch(TextureTarget::T1D, [1, 7, -3, 0]), [bits(2.0); 4]);
    assert_eq!(t.fetch(TextureTarget::Rect, [1, 0, 0, 0]), [bits(2.0); 4]);
}

#[test]
fn txf_out_of_range_returns_zero_bits() {
    let t = volume();
    for coord in [
        [2, 0, 0, 0],
        [-1, 0, 0, 0],
        [0, 2, 0, 0],
        [0, 0, 2, 0],
        [i32::MIN, 0, 0, 0],
    ] {
        assert_eq!(t.fetch(TextureTarget::T3D, coord), [0; 4], "{coord:?}");
    }
    assert_eq!(t.fetch(TextureTarget::T2D, [0, -1, 0, 0]), [0; 4]);
}

#[test]
fn txf_on_a_cube_uses_z_as_the_face() {
    let texels: Vec<[f32; 4]> = (0..6).map(|f| [f as f32, 0.0, 0.0, 1.0]).collect();
    let bits_texels = texels.iter().map(|t| t.map(f32::to_bits)).collect();
    let t = Texture::new_cube(1, Format::Rgba, bits_texels).unwrap();
    assert_eq!(t.fetch(TextureTarget::Cube, [0, 0, 3, 0])[0], bits(3.0));
    assert_eq!(t.fetch(TextureTarget::Cube, [0, 0, 6, 0]), [0; 4]);
    assert_eq!(t.size(), [1, 1, 1, 1]);
}

#[test]
fn txq_returns_width_height_depth_one() {
    assert_eq!(volume().size(), [2, 2, 2, 1]);
    let flat = Texture::from_floats(3, 1, 1, Format::L, &[[0.0; 4]; 3]).unwrap();
    assert_eq!(flat.size(), [3, 1, 1, 1]);
}

#[test]
fn graw_test_texture_matches_the_formula() {
    let t = Texture::graw_test();
    assert_eq!((t.width(), t.height(), t.depth()), (16, 16, 1));
    assert_eq!(t.filter(), Filter::Nearest);
    assert_eq!(t.wrap(), [Wrap::Repeat; 3]);
    let half = 128.0f32 / 255.0;
    // (s, t) = (0, 0): ((0^0)>>2)&1 = 0 -> blue 128.
    assert_eq!(t.texel(0, 0, 0, 0), Some([0.0, 0.0, half, 1.0].map(bits)));
    // (15, 0): (15>>2)&1 = 1 -> blue 0; red 255.
    assert_eq!(t.texel(0, 15, 0, 0), Some([1.0, 0.0, 0.0, 1.0].map(bits)));
    // (4, 9): 4^9 = 13, (13>>2)&1 = 1 -> 0; red 68, green 153.
    assert_eq!(
        t.texel(0, 4, 9, 0),
        Some([68.0 / 255.0, 153.0 / 255.0, 0.0, 1.0].map(bits))
    );
    // (3, 1): 3^1 = 2 -> 0 -> blue 128; red 51, green 17.
    assert_eq!(
        t.texel(0, 3, 1, 0),
        Some([51.0 / 255.0, 17.0 / 255.0, half, 1.0].map(bits))
    );
    // Sampling at the centre of texel (4, 9), and one period further (repeat).
    let at = |u: f32, v: f32| t.sample(TextureTarget::T2D, [u, v, 0.0, 1.0].map(bits));
    assert_eq!(Some(at(4.5 / 16.0, 9.5 / 16.0)), t.texel(0, 4, 9, 0));
    assert_eq!(
        Some(at(1.0 + 4.5 / 16.0, -1.0 + 9.5 / 16.0)),
        t.texel(0, 4, 9, 0)
    );
}

#[test]
fn checkerboard_alternates_cells() {
    let (a, b) = ([1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]);
    let t = Texture::checkerboard(4, 4, 2, [a, b]).unwrap();
    let at = |x, y| t.texel(0, x, y, 0).unwrap().map(f32::from_bits);
    assert_eq!(at(0, 0), a);
    assert_eq!(at(1, 1), a);
    assert_eq!(at(2, 0), b);
    assert_eq!(at(0, 3), b);
    assert_eq!(at(3, 3), a);
    assert!(matches!(
        Texture::checkerboard(4, 4, 0, [a, b]),
        Err(TextureError::Dimension {
            what: "cell size",
            ..
        })
    ));
}

#[test]
fn constructors_reject_bad_shapes() {
    let err = Texture::new(2, 2, 1, Format::Rgba, vec![[0; 4]; 3]).unwrap_err();
    assert!(
        matches!(
            err,
            TextureError::TexelCount {
                expected: 4,
                got: 3,
                ..
            }
        ),
        "{err:?}"
    );
    let err = Texture::new(0, 1, 1, Format::Rgba, vec![]).unwrap_err();
    assert!(
        matches!(err, TextureError::Dimension { what: "width", .. }),
        "{err:?}"
    );
    let err = Texture::new(1, 1, 100_000, Format::Rgba, vec![]).unwrap_err();
    assert!(
        matches!(err, TextureError::Dimension { what: "depth", .. }),
        "{err:?}"
    );
    let err = Texture::new_cube(2, Format::Rgba, vec![[0; 4]; 4]).unwrap_err();
    assert!(
        matches!(err, TextureError::TexelCount { expected: 24, .. }),
        "{err:?}"
    );
    assert!(Texture::new(1, 1, 1, Format::Rgba, vec![[0; 4]; 1]).is_ok());
    assert_eq!(
        Texture::new(1, 1, 1, Format::Rgba, vec![[0; 4]])
            .unwrap()
            .texel(0, 1, 0, 0),
        None
    );
}

#[test]
fn option_names_parse() {
    assert_eq!(Format::from_name("RGBA").unwrap(), Format::Rgba);
    assert_eq!(Format::from_name("la").unwrap(), Format::La);
    assert_eq!(Format::from_name("depth").unwrap(), Format::Z);
    for format in Format::ALL {
        assert_eq!(Format::from_name(format.name()).unwrap(), format);
    }
    let err = Format::from_name("bgr").unwrap_err();
    assert!(err.to_string().contains("`bgr`"), "{err}");
    assert_eq!(Filter::from_name("Linear").unwrap(), Filter::Bilinear);
    assert_eq!(Filter::from_name("nearest").unwrap(), Filter::Nearest);
    assert!(Filter::from_name("trilinear").is_err());
    assert_eq!(Wrap::from_name("clamp_to_edge").unwrap(), Wrap::ClampToEdge);
    assert_eq!(Wrap::from_name("REPEAT").unwrap(), Wrap::Repeat);
    assert!(Wrap::from_name("mirror").is_err());
}

#[test]
fn load_options_parse() {
    use sim::texture::{Layout, LoadOptions};
    assert_eq!(LoadOptions::parse("").unwrap(), LoadOptions::default());
    let o = LoadOptions::parse("format=LA, filter=bilinear,wrap=clamp,layout=cube").unwrap();
    assert_eq!(o.format, Some(Format::La));
    assert_eq!(o.filter, Filter::Bilinear);
    assert_eq!(o.wrap, [Wrap::ClampToEdge; 3]);
    assert_eq!(o.layout, Layout::Cube);
    let o = LoadOptions::parse("layout=3d:4,wrap=repeat:clamp:repeat").unwrap();
    assert_eq!(o.layout, Layout::Volume { depth: 4 });
    assert_eq!(o.wrap, [Wrap::Repeat, Wrap::ClampToEdge, Wrap::Repeat]);
    for bad in [
        "format",
        "colour=red",
        "layout=3d:0",
        "layout=3d:x",
        "wrap=clamp:repeat",
        "format=q",
    ] {
        assert!(LoadOptions::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn texture_is_a_run_io_sampler() {
    use sim::run_io::Sampler;
    let boxed: Box<dyn Sampler> = Box::new(Texture::graw_test());
    let direct = Texture::graw_test();
    let coord = [4.5 / 16.0, 9.5 / 16.0, 0.0, 1.0];
    assert_eq!(
        boxed.sample(TextureTarget::T2D, coord),
        direct.texel(0, 4, 9, 0).unwrap()
    );
    assert_eq!(boxed.size(), [16, 16, 1, 1]);
    // TXF 2D on a 2-D texture ignores z; the same texel read as 3D is out of range (z = 7).
    let t2 = TextureTarget::T2D;
    assert_eq!(
        boxed.fetch(t2, [4, 9, 7, 0]),
        direct.texel(0, 4, 9, 0).unwrap()
    );
    assert_eq!(boxed.fetch(TextureTarget::T3D, [4, 9, 7, 0]), [0; 4]);
    assert_eq!(boxed.fetch(t2, [16, 0, 0, 0]), [0; 4]);
    // Without a target the texture's shape decides: a 3-D texture reads z; a one-row texture
    // ignores y; a cube map takes z as the face.
    let none = TextureTarget::Unknown;
    let v = volume();
    assert_eq!(Sampler::fetch(&v, none, [1, 0, 1, 0]), [bits(6.0); 4]);
    assert_eq!(v.shape_target(), TextureTarget::T3D);
    let row = Texture::from_floats(2, 1, 1, Format::L, &[[0.0; 4], [5.0; 4]]).unwrap();
    assert_eq!(Sampler::fetch(&row, none, [1, 3, 3, 0]), [bits(5.0); 4]);
    let cube = Texture::new_cube(1, Format::L, (0..6).map(|f| [f; 4]).collect()).unwrap();
    assert_eq!(Sampler::fetch(&cube, none, [0, 0, 4, 0]), [4; 4]);
}

#[test]
fn checkerboard_refuses_huge_sizes_without_allocating() {
    let colors = [[0.0; 4], [1.0; 4]];
    let err = Texture::checkerboard(16384, 16384, 8, colors).unwrap_err();
    assert!(
        matches!(
            err,
            TextureError::Dimension {
                what: "texel count",
                ..
            }
        ),
        "{err:?}"
    );
}
