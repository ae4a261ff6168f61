//! Atomic file replacement: write a temporary file beside the target, sync
//! it, check it, rename it over the target, then sync the folder. A crash
//! or a failed check leaves the old file as it was; temporary files a
//! killed save left behind are removed by the next save to that folder.

use super::StoreError;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Every temporary file Muster writes ends so; nothing else does.
const TEMP_SUFFIX: &str = ".muster-tmp";
/// A temporary file older than this belongs to no save still running.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Writes `bytes` to `path` atomically. `verify` reads back what was written
/// and must accept it before the target is replaced. A target that exists
/// and is not a regular file (a folder, a device, a link to one) is refused.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    verify: impl FnOnce(&[u8]) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::new(e.to_string());
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        return Err(StoreError::new(
            "not saved: that is not a regular file (a folder or a device); choose a file name",
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    remove_stale_temps(dir);
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy());
    let mut unique = [0u8; 6];
    let _ = getrandom::fill(&mut unique);
    let tmp = dir.join(format!(
        ".{name}.{}{}",
        crate::core::intel::to_hex(&unique),
        TEMP_SUFFIX
    ));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(io)?;
        file.write_all(bytes).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        let written = std::fs::read(&tmp).map_err(io)?;
        verify(&written).map_err(|e| {
            StoreError::new(format!(
                "not saved: Muster could not read back what it wrote ({e}). This is a fault in Muster, not in your battle, which is still open: try Save as… to another file, and please report it"
            ))
        })?;
        std::fs::rename(&tmp, path).map_err(io)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Makes the rename itself durable: on Unix a folder is synced like a file.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| StoreError::new(format!("the folder could not be synced: {e}")))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Removes Muster's temporary files in `dir` that no running save owns.
fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with('.') && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let stale = entry
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .and_then(|m| m.modified().ok())
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > STALE_AFTER);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
