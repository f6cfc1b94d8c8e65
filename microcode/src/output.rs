//! Writing the files the tools make (images, tokens, TGSI text, PNGs, VCDs, the synthesis
//! flow's inputs): the one way every crate of the workspace writes a file a user named.
//!
//! - A regular file, or one that does not exist yet, is written to a uniquely named temporary
//!   file beside it and renamed over it only once every byte is on disk: a failure (a full
//!   disk, Ctrl-C, an error later in the command) leaves the old file, never half a new one.
//! - A symbolic link is followed to the file it names, which is then written as above: the link
//!   stays a link.
//! - A device, FIFO or socket is opened and written directly, as a shell's `>` would: renaming
//!   a regular file over it would replace the node (as root, destroying `/dev/null`).
//!   Its errors are the device's own ("No space left on device" from `/dev/full`).
//! - A directory is refused.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("microcode-output-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("out.txt");
//! microcode::output::write_atomically(&path, b"hello").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"hello");
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// How many symbolic links are followed before giving up (the limit Linux applies).
pub const MAX_LINKS: usize = 40;

/// A file that could not be written: the path the user named, what was being done, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {}: {source}", path.display())]
pub struct WriteError {
    /// The path as the user gave it (not the temporary file or the link's target).
    pub path: PathBuf,
    /// What failed: `write`, `create`, `rename`, `open`, `read the link`.
    pub action: &'static str,
    /// The operating system's reason.
    #[source]
    pub source: io::Error,
}

impl WriteError {
    fn new(path: &Path, action: &'static str, source: io::Error) -> WriteError {
        WriteError {
            path: path.to_path_buf(),
            action,
            source,
        }
    }
}

/// Writes `bytes` to `path` as the module says: atomically for regular files, through
/// symbolic links, directly into devices and FIFOs.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let mut out = OutputFile::create(path)?;
    out.write_all(bytes)
        .map_err(|e| WriteError::new(path, "write", e))?;
    out.commit()
}

/// A file being written: bytes go to a temporary file beside the target (or straight into a
/// device or FIFO) and reach the target only at [`OutputFile::commit`]. Dropped without a
/// commit, it removes its temporary file and leaves the target as it was.
#[derive(Debug)]
pub struct OutputFile {
    /// The path the user named, for messages.
    shown: PathBuf,
    /// Where the bytes go in the end (the end of any chain of links).
    target: PathBuf,
    /// The open file: the temporary one, or the device itself.
    file: Option<File>,
    /// The temporary file and the permissions it takes over; `None` when writing directly.
    temp: Option<(PathBuf, Option<Permissions>)>,
}

impl OutputFile {
    /// Opens `path` for writing as the module says.
    pub fn create(path: &Path) -> Result<OutputFile, WriteError> {
        let target = resolve_links(path)?;
        let shown = path.to_path_buf();
        match std::fs::metadata(&target) {
            Ok(m) if m.is_dir() => Err(WriteError::new(
                path,
                "write",
                io::Error::new(io::ErrorKind::IsADirectory, "it is a directory"),
            )),
            Ok(m) if !m.is_file() => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(|e| WriteError::new(path, "open", e))?;
                Ok(OutputFile {
                    shown,
                    target,
                    file: Some(file),
                    temp: None,
                })
            }
            Ok(m) => Self::beside(shown, target, Some(m.permissions())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Self::beside(shown, target, None),
            Err(e) => Err(WriteError::new(path, "write", e)),
        }
    }

    /// A temporary file in the target's folder, to be renamed over it.
    fn beside(
        shown: PathBuf,
        target: PathBuf,
        permissions: Option<Permissions>,
    ) -> Result<OutputFile, WriteError> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target.file_name().ok_or_else(|| {
            WriteError::new(
                &shown,
                "write",
                io::Error::new(io::ErrorKind::InvalidInput, "not a file name"),
            )
        })?;
        let (tmp, file) = create_temp(&dir, &name.to_string_lossy())
            .map_err(|e| WriteError::new(&shown, "create a temporary file for", e))?;
        Ok(OutputFile {
            shown,
            target,
            file: Some(file),
            temp: Some((tmp, permissions)),
        })
    }

    /// Flushes every byte to the disk and puts the file in place (renames the temporary file
    /// over the target, with the old file's permissions).
    pub fn commit(mut self) -> Result<(), WriteError> {
        let Some(mut file) = self.file.take() else {
            return Ok(());
        };
        let shown = self.shown.clone();
        match self.temp.take() {
            None => file
                .flush()
                .map_err(|e| WriteError::new(&shown, "write", e)),
            Some((tmp, permissions)) => {
                let done = (|| {
                    file.flush()
                        .and_then(|_| file.sync_all())
                        .map_err(|e| WriteError::new(&shown, "write", e))?;
                    if let Some(p) = permissions {
                        std::fs::set_permissions(&tmp, p)
                            .map_err(|e| WriteError::new(&shown, "set the permissions of", e))?;
                    }
                    std::fs::rename(&tmp, &self.target)
                        .map_err(|e| WriteError::new(&shown, "rename a temporary file onto", e))
                })();
                if done.is_err() {
                    let _ = std::fs::remove_file(&tmp);
                }
                done
            }
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("the file was committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.temp.take() {
            self.file = None;
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// The file a chain of symbolic links ends at (possibly not existing yet).
fn resolve_links(path: &Path) -> Result<PathBuf, WriteError> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)
                    .map_err(|e| WriteError::new(path, "read the link", e))?;
                p = match p.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(WriteError::new(
        path,
        "write",
        io::Error::other(format!("more than {MAX_LINKS} symbolic links")),
    ))
}

/// Creates a temporary file in `dir` whose name no other run (process id) or call (counter)
/// uses; `create_new` refuses to reuse a leftover of an earlier run.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let pid = std::process::id();
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{pid}.{n}.partial"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("100 temporary names were taken"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tgsi-output-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(d: &Path) -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
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
        assert!(names(&d).iter().all(|n| !n.ends_with(".partial")));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_fifo_is_written_into_never_replaced() {
        let d = scratch("fifo");
        let fifo = d.join("out.png");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_atomically(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_directory_is_refused_and_an_uncommitted_file_leaves_nothing() {
        let d = scratch("dir");
        let e = write_atomically(&d, b"x").unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        let target = d.join("kept.txt");
        std::fs::write(&target, b"old").unwrap();
        {
            let mut out = OutputFile::create(&target).unwrap();
            out.write_all(b"half").unwrap();
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(names(&d), ["kept.txt"]);
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
