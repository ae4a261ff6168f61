//! Atomic file replacement: write a temporary file beside the target, sync
//! it, check it, rename it over the target, then sync the folder. A crash
//! or a failed check leaves the old file as it was. A temporary file names
//! the process writing it, so one a killed save left behind is removed as
//! soon as that process is gone: by the next start (`sweep_temps` on
//! Muster's own folders and those the players saved into, `SaveFolders`)
//! or the next save to its folder.

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
    write(path, bytes, verify, false)
}

/// `write_atomic` for a file only its owner may read (a player's private
/// page): made readable by its owner alone (0600) where the system has
/// permissions, from the moment it exists, whatever was there before.
pub fn write_atomic_private(
    path: &Path,
    bytes: &[u8],
    verify: impl FnOnce(&[u8]) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    write(path, bytes, verify, true)
}

fn write(
    path: &Path,
    bytes: &[u8],
    verify: impl FnOnce(&[u8]) -> Result<(), StoreError>,
    private: bool,
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
        ".{name}.{}.{}{}",
        std::process::id(),
        crate::intel::to_hex(&unique),
        TEMP_SUFFIX
    ));
    let result = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = private;
        let mut file = options.open(&tmp).map_err(io)?;
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

/// Removes Muster's temporary files in `dir` that no running save owns:
/// their process has ended, or they are older than any save takes.
pub fn sweep_temps(dir: &Path) {
    remove_stale_temps(dir);
}

/// Whether the process that named a temporary file is gone. Where the
/// system cannot tell (not Linux), only the file's age decides.
fn owner_gone(name: &str) -> bool {
    let pid = name
        .strip_suffix(TEMP_SUFFIX)
        .and_then(|rest| rest.rsplit('.').nth(1))
        .and_then(|pid| pid.parse::<u32>().ok());
    match pid {
        Some(pid) if pid == std::process::id() => false,
        Some(pid) if cfg!(target_os = "linux") => !Path::new(&format!("/proc/{pid}")).exists(),
        _ => false,
    }
}

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
        let Some(meta) = entry.metadata().ok().filter(|m| m.is_file()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > STALE_AFTER);
        let stale = old || owner_gone(&name);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    /// A private page is its owner's alone (0600), even over a file that
    /// was readable by all; a public one keeps the usual permissions.
    #[cfg(unix)]
    #[test]
    fn a_private_file_is_written_for_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("north-private.pdf");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        super::write_atomic_private(&path, b"page", |_| Ok(())).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{mode:o}");
        assert_eq!(std::fs::read(&path).unwrap(), b"page");
        let public = dir.path().join("table.pdf");
        super::write_atomic(&public, b"page", |_| Ok(())).unwrap();
        let mode = std::fs::metadata(&public).unwrap().permissions().mode() & 0o777;
        assert_ne!(mode & 0o044, 0, "{mode:o}");
    }

    use super::*;

    /// Issue 21: a killed save's temporary file (357 MB) stayed until a
    /// later save more than 60 s on. One whose process is gone goes at
    /// the next start; one of a save still running stays.
    #[test]
    fn a_killed_saves_temporary_file_goes_at_the_next_start() {
        let dir = tempfile::tempdir().unwrap();
        // Above Linux's largest process id: no such process runs.
        let dead = dir
            .path()
            .join(format!(".battle.json.4294000000.a1b2c3{TEMP_SUFFIX}"));
        let mine = dir.path().join(format!(
            ".battle.json.{}.d4e5f6{TEMP_SUFFIX}",
            std::process::id()
        ));
        let other = dir.path().join("battle.json");
        for f in [&dead, &mine, &other] {
            std::fs::write(f, b"x").unwrap();
        }
        sweep_temps(dir.path());
        assert_eq!(!dead.exists(), cfg!(target_os = "linux"));
        assert!(mine.exists(), "a save of this process may be running");
        assert!(other.exists(), "not a temporary file");
    }

    #[test]
    fn a_save_replaces_the_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        std::fs::write(&path, b"old").unwrap();
        let refused = write_atomic(&path, b"bad", |_| Err(StoreError::new("no")));
        assert!(refused.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        write_atomic(&path, b"new", |_| Ok(())).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
