//! The testbench API: [`Shader`] (a program, compiled for a core build), [`Quad`] (one quad's
//! inputs, constants and textures), [`Engine`], [`Outputs`] and their comparisons.
use microcode::compile::{compile, CompileError};
use microcode::core::{CoreConfig, Image};
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::Program;
use sim::run_io::{LaneOutput, RunInputs, RunOutput};
use std::fmt;
use std::path::Path;

/// Lanes of a quad.
pub const LANES: usize = 4;

/// Where a shader runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The golden reference model: TGSI semantics, instruction by instruction.
    Reference,
    /// The bit- and cycle-exact model of the core, running the compiled image.
    Core,
    /// rust-hdl's own simulation of the core's hardware (slow: about 6,000 clocks a second).
    Rtl,
    /// The core's Verilog under Verilator (built once and cached; needs the pinned toolchain,
    /// `cargo xtask setup`).
    Verilator,
}

impl Engine {
    /// The engine's name, as the command-line tool spells it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Reference => "reference",
            Engine::Core => "core",
            Engine::Rtl => "rtl",
            Engine::Verilator => "verilator",
        }
    }
}

/// Why a testbench step failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The program file cannot be read.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The program does not parse or decode (the message carries the location).
    #[error("{0}")]
    Load(String),
    /// The program parses but breaks a rule of TGSI.
    #[error("{name}: {error}")]
    Invalid {
        /// The shader's name (its file, or `<text>`).
        name: String,
        /// The validator's findings, rendered with their locations.
        error: String,
    },
    /// The compiler refuses the program for this core build.
    #[error("{name}: {error}")]
    Compile {
        /// The shader's name (its file, or `<text>`).
        name: String,
        /// Why the compiler refused it.
        error: CompileError,
    },
    /// A texture argument is wrong or its file cannot be read.
    #[error("texture: {0}")]
    Texture(String),
    /// The engine could not run the quad (a fault, an engine that cannot start).
    #[error("{engine} engine: {error}")]
    Run {
        /// The engine (`reference`, `core`, `rtl`, `verilator`).
        engine: &'static str,
        /// The engine's error, rendered.
        error: String,
    },
}

/// A TGSI program, validated and compiled for a core build ([`CoreConfig::default`], the board's,
/// unless [`Shader::for_core`] says otherwise).
#[derive(Clone, Debug)]
pub struct Shader {
    name: String,
    program: Program,
    config: CoreConfig,
    image: Image,
}

impl Shader {
    /// A program from TGSI text (either of Mesa's dialects).
    pub fn parse(text: &str) -> Result<Shader, Error> {
        let program = microcode::tgsi::text::parse(text)
            .map_err(|e| Error::Load(e.render(text, "<text>")))?;
        Shader::new("<text>", program)
    }

    /// A program from a file: TGSI text or binary tokens, told apart by their bytes.
    pub fn load(path: impl AsRef<Path>) -> Result<Shader, Error> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| Error::Io {
            path: name.clone(),
            error,
        })?;
        let loaded = microcode::tgsi::load::load(&bytes, None).map_err(|e| {
            Error::Load(match (&e, std::str::from_utf8(&bytes)) {
                (microcode::tgsi::load::LoadError::Text(t), Ok(src)) => t.render(src, &name),
                _ => format!("{name}: {e}"),
            })
        })?;
        Shader::new(&name, loaded.program)
    }

    fn new(name: &str, program: Program) -> Result<Shader, Error> {
        validate(&program, &Limits::default()).map_err(|errors| Error::Invalid {
            name: name.to_string(),
            error: errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        })?;
        let config = CoreConfig::default();
        let image = compile_for(name, &program, &config)?;
        Ok(Shader {
            name: name.to_string(),
            program,
            config,
            image,
        })
    }

    /// The same program compiled for another core build (e.g. one with the divider).
    pub fn for_core(mut self, config: CoreConfig) -> Result<Shader, Error> {
        self.image = compile_for(&self.name, &self.program, &config)?;
        self.config = config;
        Ok(self)
    }

    /// The TGSI program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The compiled image the core engines run.
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// Runs one quad on `engine`.
    pub fn run(&self, engine: Engine, quad: &Quad) -> Result<Outputs, Error> {
        let name = engine.name();
        let fail = |error: String| Error::Run {
            engine: name,
            error,
        };
        let out =
            match engine {
                Engine::Reference => sim::reference::run(&self.program, &quad.inputs)
                    .map_err(|e| fail(e.to_string()))?,
                Engine::Core => sim::core_model::run(&self.image, &quad.inputs)
                    .map_err(|e| fail(e.to_string()))?,
                Engine::Rtl | Engine::Verilator => {
                    use sim::hardware::{
                        load_program, load_textures, rtl::RtlCore, run_loaded,
                        verilator::VerilatorCore, HostPort,
                    };
                    let mut port: Box<dyn HostPort> = if engine == Engine::Rtl {
                        Box::new(RtlCore::new(&self.config).map_err(|e| fail(e.to_string()))?)
                    } else {
                        Box::new(
                            VerilatorCore::new(&self.config, &mut |m| eprintln!("{m}"))
                                .map_err(|e| fail(e.to_string()))?,
                        )
                    };
                    load_program(port.as_mut(), &self.image).map_err(|e| fail(e.to_string()))?;
                    load_textures(port.as_mut(), &self.image, &quad.inputs)
                        .map_err(|e| fail(e.to_string()))?;
                    run_loaded(port.as_mut(), &self.image, &quad.inputs)
                        .map_err(|e| fail(e.to_string()))?
                }
            };
        if let Some(fault) = &out.fault {
            return Err(fail(fault.clone()));
        }
        Ok(Outputs { out })
    }
}

fn compile_for(name: &str, program: &Program, config: &CoreConfig) -> Result<Image, Error> {
    compile(program, config)
        .map(|c| c.image)
        .map_err(|error| Error::Compile {
            name: name.to_string(),
            error,
        })
}

/// One quad's inputs, constants and textures. Unset inputs and constants are zero.
#[derive(Default)]
pub struct Quad {
    inputs: RunInputs,
}

impl Quad {
    /// A quad with every input and constant zero.
    pub fn new() -> Quad {
        Quad::default()
    }

    /// `IN[index]` of every lane.
    pub fn input(mut self, index: u32, value: [f32; 4]) -> Quad {
        self.inputs.set_input(index, value.map(f32::to_bits));
        self
    }

    /// `IN[index]` lane by lane.
    pub fn input_lanes(mut self, index: u32, lanes: [[f32; 4]; LANES]) -> Quad {
        for (l, v) in lanes.iter().enumerate() {
            self.inputs.set_input_lane(index, l, v.map(f32::to_bits));
        }
        self
    }

    /// `IN[index]` of every lane as raw bits (integers, NaN payloads).
    pub fn input_bits(mut self, index: u32, value: [u32; 4]) -> Quad {
        self.inputs.set_input(index, value);
        self
    }

    /// `CONST[index]` (buffer 0).
    pub fn constant(mut self, index: u32, value: [f32; 4]) -> Quad {
        self.inputs.set_const(0, index, value.map(f32::to_bits));
        self
    }

    /// A texture for sampler `unit` from a PNG file, with the command-line tool's options
    /// (`"bilinear,repeat"`, `"cube,bilinear"`, ...; empty for the defaults).
    pub fn texture(
        mut self,
        unit: u32,
        png: impl AsRef<Path>,
        options: &str,
    ) -> Result<Quad, Error> {
        let mut arg = format!("{unit}={}", png.as_ref().display());
        if !options.is_empty() {
            arg.push(',');
            arg.push_str(options);
        }
        sim::run_io::args::apply_textures(&mut self.inputs, &[arg])
            .map_err(|e| Error::Texture(e.to_string()))?;
        Ok(self)
    }

    /// The run inputs, for the `sim` crate's own functions.
    pub fn inputs(&self) -> &RunInputs {
        &self.inputs
    }
}

/// What a quad produced.
#[derive(Clone, Debug)]
pub struct Outputs {
    out: RunOutput,
}

impl Outputs {
    /// `OUT[index]` of each lane as floats (zero when never written or killed).
    pub fn output(&self, index: u32) -> [[f32; 4]; LANES] {
        self.bits(index).map(|v| v.map(f32::from_bits))
    }

    /// `OUT[index]` of each lane as raw bits.
    pub fn bits(&self, index: u32) -> [[u32; 4]; LANES] {
        std::array::from_fn(|l| {
            self.out.lanes[l]
                .outputs
                .get(&index)
                .copied()
                .unwrap_or([0; 4])
        })
    }

    /// Whether lane `lane` was discarded (KIL).
    pub fn killed(&self, lane: usize) -> bool {
        self.out.lanes.get(lane).is_some_and(|l| l.killed)
    }

    /// Clock cycles the quad took (the core engines).
    pub fn cycles(&self) -> Option<u64> {
        self.out.cycles
    }

    /// The engine's full result (vertices of geometry programs, instruction counts).
    pub fn run_output(&self) -> &RunOutput {
        &self.out
    }

    /// Equal bit for bit: the same lanes killed and, in the others, every output's bits.
    pub fn compare_bits(&self, other: &Outputs) -> Result<(), Mismatch> {
        self.compare(other, 0)
    }

    /// Equal within `ulps` units in the last place per component (NaN equals NaN, +0 equals
    /// -0; 0 ulp is [`Outputs::compare_bits`]); kills must agree.
    pub fn compare_ulps(&self, other: &Outputs, ulps: u32) -> Result<(), Mismatch> {
        self.compare(other, ulps)
    }

    fn compare(&self, other: &Outputs, ulps: u32) -> Result<(), Mismatch> {
        let mut lines = Vec::new();
        for (l, (a, b)) in self.out.lanes.iter().zip(&other.out.lanes).enumerate() {
            if a.killed != b.killed {
                lines.push(format!(
                    "lane {l}: killed on {} {}, on {} {}",
                    self.out.engine, a.killed, other.out.engine, b.killed
                ));
                continue;
            }
            if a.killed {
                continue;
            }
            for index in outputs_of(a, b) {
                let x = a.outputs.get(&index).copied().unwrap_or([0; 4]);
                let y = b.outputs.get(&index).copied().unwrap_or([0; 4]);
                for c in 0..4 {
                    if !close(x[c], y[c], ulps) {
                        lines.push(format!(
                            "lane {l} OUT[{index}].{}: {} {:#010x} ({}), {} {:#010x} ({})",
                            ['x', 'y', 'z', 'w'][c],
                            self.out.engine,
                            x[c],
                            f32::from_bits(x[c]),
                            other.out.engine,
                            y[c],
                            f32::from_bits(y[c])
                        ));
                    }
                }
            }
        }
        if lines.is_empty() {
            Ok(())
        } else {
            Err(Mismatch { ulps, lines })
        }
    }
}

/// The output indices either lane has.
fn outputs_of(a: &LaneOutput, b: &LaneOutput) -> Vec<u32> {
    let mut v: Vec<u32> = a.outputs.keys().chain(b.outputs.keys()).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Whether two binary32 bit patterns are within `ulps` (0: the same bits).
fn close(x: u32, y: u32, ulps: u32) -> bool {
    if ulps == 0 || x == y {
        return x == y;
    }
    let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
    if fx.is_nan() || fy.is_nan() {
        return fx.is_nan() && fy.is_nan();
    }
    // Ordered integers: the distance between them counts the floats in between.
    let key = |v: u32| -> i64 {
        if v & 0x8000_0000 != 0 {
            -i64::from(v & 0x7FFF_FFFF)
        } else {
            i64::from(v)
        }
    };
    (key(x) - key(y)).unsigned_abs() <= u64::from(ulps)
}

/// Outputs that differ: one line per lane and component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    ulps: u32,
    lines: Vec<String>,
}

impl Mismatch {
    /// The differences, one per lane and component (or kill).
    pub fn lines(&self) -> &[String] {
        &self.lines
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ulps == 0 {
            writeln!(f, "{} differences (bit for bit):", self.lines.len())?;
        } else {
            writeln!(
                f,
                "{} differences (beyond {} ulp):",
                self.lines.len(),
                self.ulps
            )?;
        }
        for l in &self.lines {
            writeln!(f, "  {l}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Mismatch {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_distance_crosses_zero_and_keeps_nan_apart() {
        assert!(close(0x8000_0000, 0, 1));
        assert!(close(1.0f32.to_bits(), 1.0f32.to_bits() + 2, 2));
        assert!(!close(1.0f32.to_bits(), 1.0f32.to_bits() + 3, 2));
        assert!(!close(0x7FC0_0000, 0, 1_000));
        assert!(close(0x7FC0_0000, 0xFFC0_0001, 1));
        assert!(!close(0x8000_0000, 0, 0));
    }

    #[test]
    fn a_mismatch_names_the_lane_output_and_component() {
        let s = Shader::parse(
            "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n",
        )
        .expect("parses");
        let a = s
            .run(
                Engine::Reference,
                &Quad::new().input(0, [1.0, 2.0, 3.0, 4.0]),
            )
            .expect("runs");
        let b = s
            .run(
                Engine::Core,
                &Quad::new().input_lanes(
                    0,
                    [
                        [1.0, 2.0, 3.0, 4.0],
                        [1.0, 2.0, 3.0, 4.0],
                        [1.0, 2.5, 3.0, 4.0],
                        [1.0, 2.0, 3.0, 4.0],
                    ],
                ),
            )
            .expect("runs");
        let m = a.compare_bits(&b).expect_err("lane 2 differs");
        assert_eq!(m.lines().len(), 1, "{m}");
        assert!(
            m.lines()[0].starts_with("lane 2 OUT[0].y: reference"),
            "{m}"
        );
        assert!(a.compare_ulps(&b, 1).is_err());
        assert!(a.compare_bits(&a).is_ok());
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let e = Shader::parse("FRAG\nMOV OUT[0], IN[0]\nEND\n").expect_err("undeclared");
        assert!(e.to_string().contains("<text>"), "{e}");
        let e = Shader::parse("FRAG\nFOO OUT[0]\nEND\n").expect_err("no such opcode");
        assert!(e.to_string().contains("FOO"), "{e}");
        let e = Shader::load("/nonexistent/x.tgsi").expect_err("no file");
        assert!(e.to_string().starts_with("/nonexistent/x.tgsi"), "{e}");
    }
}
