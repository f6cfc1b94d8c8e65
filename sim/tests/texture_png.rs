//! PNG loading: small images the test writes with the png crate.

use std::path::{Path, PathBuf};

use png::{BitDepth, ColorType};
use sim::texture::{
    decode_png, load_png, Filter, Format, Layout, LoadOptions, Texture, TextureError, Wrap,
};

/// Encodes `data` (rows top to bottom) as a PNG.
fn encode(width: u32, height: u32, color: ColorType, depth: BitDepth, data: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(color);
        encoder.set_depth(depth);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(data).unwrap();
    }
    bytes
}

fn decode(bytes: &[u8], options: &LoadOptions) -> Result<Texture, TextureError> {
    decode_png(bytes, Path::new("test.png"), options)
}

fn floats(texture: &Texture) -> Vec<[f32; 4]> {
    texture
        .texels()
        .iter()
        .map(|t| t.map(f32::from_bits))
        .collect()
}

fn n(v: u32) -> f32 {
    v as f32 / 255.0
}

#[test]
fn grey_loads_as_luminance() {
    let bytes = encode(3, 1, ColorType::Grayscale, BitDepth::Eight, &[0, 51, 255]);
    let t = decode(&bytes, &LoadOptions::default()).unwrap();
    assert_eq!(t.format(), Format::L);
    assert_eq!((t.width(), t.height(), t.depth()), (3, 1, 1));
    assert_eq!(
        floats(&t),
        vec![
            [0.0, 0.0, 0.0, 1.0],
            [0.2, 0.2, 0.2, 1.0],
            [1.0, 1.0, 1.0, 1.0]
        ]
    );
}

#[test]
fn grey_alpha_rgb_and_rgba() {
    let la = encode(
        1,
        2,
        ColorType::GrayscaleAlpha,
        BitDepth::Eight,
        &[10, 20, 30, 40],
    );
    let t = decode(&la, &LoadOptions::default()).unwrap();
    assert_eq!(t.format(), Format::La);
    assert_eq!(
        floats(&t),
        vec![[n(10), n(10), n(10), n(20)], [n(30), n(30), n(30), n(40)]]
    );

    let rgb = encode(2, 1, ColorType::Rgb, BitDepth::Eight, &[1, 2, 3, 4, 5, 6]);
    let t = decode(&rgb, &LoadOptions::default()).unwrap();
    assert_eq!(t.format(), Format::Rgb);
    assert_eq!(
        floats(&t),
        vec![[n(1), n(2), n(3), 1.0], [n(4), n(5), n(6), 1.0]]
    );

    let rgba = encode(1, 1, ColorType::Rgba, BitDepth::Eight, &[128, 0, 255, 7]);
    let t = decode(&rgba, &LoadOptions::default()).unwrap();
    assert_eq!(t.format(), Format::Rgba);
    assert_eq!(floats(&t), vec![[n(128), 0.0, 1.0, n(7)]]);
    // 128/255 rounded to binary32 once.
    assert_eq!(t.texels()[0][0], 0x3F00_8081);
}

#[test]
fn sixteen_bit_samples_are_big_endian_over_65535() {
    // Samples 0x0102 = 258 and 0xFFFF.
    let bytes = encode(
        1,
        1,
        ColorType::GrayscaleAlpha,
        BitDepth::Sixteen,
        &[1, 2, 255, 255],
    );
    let t = decode(&bytes, &LoadOptions::default()).unwrap();
    let l = 258.0f32 / 65535.0;
    assert_eq!(floats(&t), vec![[l, l, l, 1.0]]);
    let rgb = encode(
        1,
        1,
        ColorType::Rgb,
        BitDepth::Sixteen,
        &[128, 0, 0, 0, 0, 1],
    );
    let t = decode(&rgb, &LoadOptions::default()).unwrap();
    assert_eq!(
        floats(&t),
        vec![[32768.0 / 65535.0, 0.0, 1.0 / 65535.0, 1.0]]
    );
}

#[test]
fn low_bit_depth_and_palette_images_are_expanded() {
    // 1-bit grey: pixels 1, 0, 1 -> 255, 0, 255.
    let bytes = encode(3, 1, ColorType::Grayscale, BitDepth::One, &[0b1010_0000]);
    let t = decode(&bytes, &LoadOptions::default()).unwrap();
    assert_eq!(
        floats(&t),
        vec![
            [1.0, 1.0, 1.0, 1.0],
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 1.0, 1.0, 1.0]
        ]
    );
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, 2, 1);
        encoder.set_color(ColorType::Indexed);
        encoder.set_depth(BitDepth::Eight);
        encoder.set_palette(vec![255, 0, 0, 0, 51, 255]);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[1, 0]).unwrap();
    }
    let t = decode(&bytes, &LoadOptions::default()).unwrap();
    assert_eq!(t.format(), Format::Rgb);
    assert_eq!(floats(&t), vec![[0.0, 0.2, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0]]);
}

#[test]
fn format_option_selects_the_component_table_row() {
    let rgba = encode(1, 1, ColorType::Rgba, BitDepth::Eight, &[51, 102, 153, 204]);
    let (r, g, b, a) = (0.2, 0.4, 0.6, 0.8);
    let expected = [
        (Format::R, [r, 0.0, 0.0, 1.0]),
        (Format::Rg, [r, g, 0.0, 1.0]),
        (Format::Rgb, [r, g, b, 1.0]),
        (Format::Rgba, [r, g, b, a]),
        (Format::A, [0.0, 0.0, 0.0, a]),
        (Format::L, [r, r, r, 1.0]),
        (Format::La, [r, r, r, a]),
        (Format::I, [r, r, r, r]),
        (Format::Z, [r, r, r, 1.0]),
    ];
    for (format, texel) in expected {
        let options = LoadOptions {
            format: Some(format),
            ..LoadOptions::default()
        };
        let t = decode(&rgba, &options).unwrap();
        assert_eq!(t.format(), format);
        assert_eq!(floats(&t), vec![texel], "{format:?}");
    }
    // A grey image as alpha or intensity uses its grey value.
    let grey = encode(1, 1, ColorType::Grayscale, BitDepth::Eight, &[51]);
    let alpha = LoadOptions {
        format: Some(Format::A),
        ..LoadOptions::default()
    };
    assert_eq!(
        floats(&decode(&grey, &alpha).unwrap()),
        vec![[0.0, 0.0, 0.0, 0.2]]
    );
    let intensity = LoadOptions {
        format: Some(Format::I),
        ..LoadOptions::default()
    };
    assert_eq!(floats(&decode(&grey, &intensity).unwrap()), vec![[0.2; 4]]);
}

#[test]
fn layouts_cube_and_volume() {
    // 1x6: one pixel per face.
    let faces = encode(
        1,
        6,
        ColorType::Grayscale,
        BitDepth::Eight,
        &[0, 51, 102, 153, 204, 255],
    );
    let options = LoadOptions {
        layout: Layout::Cube,
        filter: Filter::Bilinear,
        wrap: [Wrap::ClampToEdge; 3],
        ..LoadOptions::default()
    };
    let t = decode(&faces, &options).unwrap();
    assert!(t.is_cube());
    assert_eq!((t.width(), t.height(), t.depth()), (1, 1, 1));
    assert_eq!(t.filter(), Filter::Bilinear);
    assert_eq!(t.wrap(), [Wrap::ClampToEdge; 3]);
    assert_eq!(f32::from_bits(t.texel(3, 0, 0, 0).unwrap()[0]), 0.6);

    let volume = LoadOptions {
        layout: Layout::Volume { depth: 3 },
        ..LoadOptions::default()
    };
    let t = decode(&faces, &volume).unwrap();
    assert_eq!((t.width(), t.height(), t.depth()), (1, 2, 3));
    // Slice 2, row 1 is the last image row.
    assert_eq!(f32::from_bits(t.texel(0, 0, 1, 2).unwrap()[0]), 1.0);
    assert_eq!(f32::from_bits(t.texel(0, 0, 0, 1).unwrap()[0]), 0.4);
}

#[test]
fn shape_errors_name_the_file() {
    let img = encode(2, 10, ColorType::Grayscale, BitDepth::Eight, &[0; 20]);
    let cube = LoadOptions {
        layout: Layout::Cube,
        ..LoadOptions::default()
    };
    let err = decode(&img, &cube).unwrap_err();
    assert!(
        matches!(
            err,
            TextureError::CubeShape {
                width: 2,
                height: 10,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("test.png"), "{err}");
    for depth in [0, 3] {
        let volume = LoadOptions {
            layout: Layout::Volume { depth },
            ..LoadOptions::default()
        };
        let err = decode(&img, &volume).unwrap_err();
        assert!(
            matches!(err, TextureError::VolumeShape { height: 10, .. }),
            "{err:?}"
        );
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    let err = decode(b"GIF89a not a png", &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, TextureError::NotPng { .. }), "{err:?}");
    assert!(err.to_string().contains("test.png"));
    let empty = decode(b"", &LoadOptions::default()).unwrap_err();
    assert!(matches!(empty, TextureError::NotPng { .. }));
    let good = encode(4, 4, ColorType::Rgb, BitDepth::Eight, &[7; 48]);
    for cut in [8, 20, 40, good.len() - 5] {
        let err = decode(&good[..cut], &LoadOptions::default()).unwrap_err();
        assert!(
            matches!(err, TextureError::Decode { .. }),
            "cut {cut}: {err:?}"
        );
    }
    let mut corrupt = good.clone();
    let last = corrupt.len() - 20;
    corrupt[last] ^= 0xFF;
    assert!(decode(&corrupt, &LoadOptions::default()).is_err());
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tgsi-texture-{}-{name}", std::process::id()))
}

#[test]
fn load_png_reads_files_and_reports_missing_ones() {
    let path = temp_path("rgb.png");
    std::fs::write(
        &path,
        encode(1, 1, ColorType::Rgb, BitDepth::Eight, &[255, 0, 51]),
    )
    .unwrap();
    let loaded = load_png(&path, &LoadOptions::default());
    let via_method = Texture::load_png(&path, &LoadOptions::default());
    std::fs::remove_file(&path).unwrap();
    assert_eq!(floats(&loaded.unwrap()), vec![[1.0, 0.0, 0.2, 1.0]]);
    assert!(via_method.is_ok());

    let missing = temp_path("missing.png");
    let err = load_png(&missing, &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, TextureError::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("missing.png"), "{err}");
}

/// CRC-32 (IEEE, reflected) of a PNG chunk's type and data.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn oversized_images_are_refused_before_decoding() {
    let mut bytes = encode(1, 1, ColorType::Rgba, BitDepth::Eight, &[0; 4]);
    // IHDR: length at 8, type at 12, width at 16, height at 20, CRC at 29.
    bytes[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    bytes[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    let err = decode(&bytes, &LoadOptions::default()).unwrap_err();
    assert!(
        matches!(
            err,
            TextureError::TooLarge {
                width: 100_000,
                height: 100_000,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("test.png"), "{err}");

    // Within the pixel limit but wider than a texture may be.
    let wide = encode(
        17_000,
        1,
        ColorType::Grayscale,
        BitDepth::Eight,
        &vec![0; 17_000],
    );
    let err = decode(&wide, &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, TextureError::Image { .. }), "{err:?}");
    assert!(
        err.to_string().contains("test.png") && err.to_string().contains("width"),
        "{err}"
    );
}
