fn f0(x: f32) -> f32 { return sin(x) + cos(x); }
fn f1(x: f32) -> f32 { return f0(x) + f0(x * 2.0); }
fn f2(x: f32) -> f32 { return f1(x) + f1(x * 2.0); }
fn f3(x: f32) -> f32 { return f2(x) + f2(x * 2.0); }
fn f4(x: f32) -> f32 { return f3(x) + f3(x * 2.0); }
fn f5(x: f32) -> f32 { return f4(x) + f4(x * 2.0); }
fn f6(x: f32) -> f32 { return f5(x) + f5(x * 2.0); }
fn f7(x: f32) -> f32 { return f6(x) + f6(x * 2.0); }
fn f8(x: f32) -> f32 { return f7(x) + f7(x * 2.0); }
fn f9(x: f32) -> f32 { return f8(x) + f8(x * 2.0); }
fn f10(x: f32) -> f32 { return f9(x) + f9(x * 2.0); }
fn f11(x: f32) -> f32 { return f10(x) + f10(x * 2.0); }
fn f12(x: f32) -> f32 { return f11(x) + f11(x * 2.0); }
fn f13(x: f32) -> f32 { return f12(x) + f12(x * 2.0); }
fn f14(x: f32) -> f32 { return f13(x) + f13(x * 2.0); }
fn f15(x: f32) -> f32 { return f14(x) + f14(x * 2.0); }
fn f16(x: f32) -> f32 { return f15(x) + f15(x * 2.0); }
fn f17(x: f32) -> f32 { return f16(x) + f16(x * 2.0); }
fn f18(x: f32) -> f32 { return f17(x) + f17(x * 2.0); }
fn f19(x: f32) -> f32 { return f18(x) + f18(x * 2.0); }
fn f20(x: f32) -> f32 { return f19(x) + f19(x * 2.0); }
fn f21(x: f32) -> f32 { return f20(x) + f20(x * 2.0); }
fn f22(x: f32) -> f32 { return f21(x) + f21(x * 2.0); }
fn f23(x: f32) -> f32 { return f22(x) + f22(x * 2.0); }
fn f24(x: f32) -> f32 { return f23(x) + f23(x * 2.0); }
fn f25(x: f32) -> f32 { return f24(x) + f24(x * 2.0); }
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> { return vec4<f32>(f25(uv.x)); }
