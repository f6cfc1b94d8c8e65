//! The assembler reads back what the disassembler prints: every instruction the compiler makes
//! for the corpus programs and the bundled examples (board and full cores) survives
//! `instr_text` -> `asm::instr` unchanged, and both listings (`disasm::listing`, the compiler's
//! `Compiled::listing` with its TGSI comments) read back into the image's code.

use microcode::compile::compile;
use microcode::core::disasm::{instr_text, listing};
use microcode::core::{asm, CoreConfig};
use microcode::tgsi::text::parse;
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ext.contains(&e))
        {
            out.push(p);
        }
    }
}

#[test]
fn listings_read_back_into_the_compiled_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut all = Vec::new();
    files(&root.join("examples"), &["tgsi"], &mut all);
    files(&root.join("../shared/corpus"), &["sh", "txt"], &mut all);
    all.sort();
    assert!(all.len() >= 5, "only {} programs found", all.len());
    let mut instructions = 0;
    let mut images = 0;
    for path in &all {
        let src = std::fs::read_to_string(path).expect("readable");
        let Ok(program) = parse(&src) else { continue };
        for config in [CoreConfig::default(), CoreConfig::full()] {
            let Ok(compiled) = compile(&program, &config) else {
                continue;
            };
            let code = &compiled.image.code;
            for (pc, i) in code.iter().enumerate() {
                let text = instr_text(i);
                assert_eq!(
                    asm::instr(&text).as_ref(),
                    Ok(i),
                    "{} at {pc}: `{text}`",
                    path.display()
                );
            }
            instructions += code.len();
            images += 1;
            let l = listing(&compiled.image);
            assert_eq!(asm::listing(&l).as_ref(), Ok(code), "{}", path.display());
            let l = compiled.listing(&program);
            assert_eq!(asm::listing(&l).as_ref(), Ok(code), "{}", path.display());
        }
    }
    assert!(
        images >= 10 && instructions >= 1000,
        "{images} images, {instructions} instructions"
    );
}
