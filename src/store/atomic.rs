//! Atomic file replacement: write a temporary file beside the target, check
//! it, then rename it over the target. A crash or a failed check leaves the
//! old file as it was.

use super::StoreError;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically. `verify` reads back what was written
/// and must accept it before the target is replaced.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    verify: impl FnOnce(&[u8]) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::new(e.to_string());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp).map_err(io)?;
        file.write_all(bytes).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        let written = std::fs::read(&tmp).map_err(io)?;
        verify(&written).map_err(|e| {
            StoreError::new(format!(
                "not saved: the written file did not read back ({e})"
            ))
        })?;
        std::fs::rename(&tmp, path).map_err(io)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
