//! Writing output files so that a failure never leaves a half-written file behind, a symbolic
//! link is written through (not replaced) and a device such as `/dev/null` is written directly
//! (never replaced by a regular file, which as root would destroy the device node).

use anyhow::{bail, Context, Result};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// How many symbolic links are followed before giving up (the limit Linux applies).
const MAX_LINKS: usize = 40;

/// Writes `bytes` to `path`. A regular file (or a new one) is written to a uniquely named
/// temporary file beside it, then renamed over it; a symbolic link is followed to its target
/// first; a device, FIFO or socket is opened and written directly; a directory is refused.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = resolve_links(path)?;
    match std::fs::metadata(&target) {
        Ok(m) if m.is_dir() => bail!("cannot write {}: it is a directory", path.display()),
        Ok(m) if !m.is_file() => {
            // Renaming over a special file would replace it; write into it as a shell would.
            let mut f = OpenOptions::new()
                .write(true)
                .open(&target)
                .with_context(|| format!("cannot open {}", path.display()))?;
            f.write_all(bytes)
                .and_then(|_| f.flush())
                .with_context(|| format!("cannot write {}", path.display()))
        }
        Ok(m) => replace(&target, bytes, Some(m.permissions())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => replace(&target, bytes, None),
        Err(e) => Err(e).with_context(|| format!("cannot write {}", path.display())),
    }
}

/// The file a chain of symbolic links ends at (possibly not existing yet).
fn resolve_links(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)
                    .with_context(|| format!("cannot read the link {}", p.display()))?;
                p = match p.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(p),
        }
    }
    bail!(
        "cannot write {}: more than {MAX_LINKS} symbolic links",
        path.display()
    )
}

/// Writes a fresh temporary file beside `path` and renames it over `path`, keeping the old
/// file's permissions.
fn replace(path: &Path, bytes: &[u8], permissions: Option<std::fs::Permissions>) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    let (tmp, mut f) = create_temp(dir, &name.to_string_lossy())?;
    let result = (|| -> Result<()> {
        f.write_all(bytes)
            .and_then(|_| f.sync_all())
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        if let Some(p) = permissions {
            std::fs::set_permissions(&tmp, p)
                .with_context(|| format!("cannot set the permissions of {}", tmp.display()))?;
        }
        std::fs::rename(&tmp, path)
            .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Creates a temporary file in `dir` whose name no other run (process id) or call (counter)
/// uses; `create_new` refuses to reuse a leftover of an earlier run.
fn create_temp(dir: &Path, name: &str) -> Result<(PathBuf, std::fs::File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let pid = std::process::id();
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{pid}.{n}.partial"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", tmp.display())),
        }
    }
    bail!("cannot create a temporary file in {}", dir.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tgsi-output-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_symbolic_link_is_written_through() {
        let d = scratch("link");
        let real = d.join("real.img");
        std::fs::write(&real, b"old").unwrap();
        let link = d.join("link.img");
        std::os::unix::fs::symlink("real.img", &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // A dangling link creates its target.
        let dangling = d.join("dangling.img");
        std::os::unix::fs::symlink("made.img", &dangling).unwrap();
        write_atomically(&dangling, b"made").unwrap();
        assert_eq!(std::fs::read(d.join("made.img")).unwrap(), b"made");
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".partial")), "{names:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn devices_are_written_directly_never_replaced() {
        write_atomically(Path::new("/dev/null"), b"x").unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file());
        if Path::new("/dev/full").exists() {
            let e = write_atomically(Path::new("/dev/full"), b"x").unwrap_err();
            assert!(format!("{e:#}").contains("cannot write /dev/full"), "{e:#}");
            assert!(!std::fs::metadata("/dev/full").unwrap().is_file());
        }
        let d = scratch("dir");
        let e = write_atomically(&d, b"x").unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn temporary_names_are_unique() {
        let d = scratch("tmp");
        let (a, _) = create_temp(&d, "out.img").unwrap();
        let (b, _) = create_temp(&d, "out.img").unwrap();
        assert_ne!(a, b);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
