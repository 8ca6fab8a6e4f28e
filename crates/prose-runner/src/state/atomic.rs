//! Atomic file writes: temporary file, fsync, rename, fsync of the directory.

use std::{
    fs::{self, File},
    io::{self, Write},
    path::Path,
};

/// Writes `bytes` to `path` so that after a crash at any instant the file
/// holds either its old content or the new one, never a mix. Creates the
/// parent directory. With `durable`, the data and the rename reach the disk
/// before this returns.
pub fn write_atomic(path: &Path, bytes: &[u8], durable: bool) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a path without a parent"))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", fastrand::u64(..)));
    let result = (|| {
        // The directory usually exists: create it only when it does not.
        let mut f = match File::create(&tmp) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dir)?;
                File::create(&tmp)?
            }
            other => other?,
        };
        f.write_all(bytes)?;
        if durable {
            f.sync_all()?;
        }
        drop(f);
        fs::rename(&tmp, path)?;
        if durable {
            sync_dir(dir);
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Makes a rename in `dir` durable (a no-op where directories cannot be
/// opened, as on Windows).
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/dir/file.md");
        write_atomic(&path, b"one", true).unwrap();
        write_atomic(&path, b"two", false).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["file.md"]);
    }
}
