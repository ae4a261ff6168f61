//! Muster's build script: for a Windows target only, embeds the icon and
//! the version information in muster.exe (winresource), so Explorer, the
//! Start menu, the installer's shortcut and the `.muster` files it opens
//! show Muster's icon, and the file's properties its version. For any other
//! target it does nothing.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=assets/icon/muster.ico");
    // The target's, not the host's: a build on Linux for Windows embeds them.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let mut resource = winresource::WindowsResource::new();
    resource
        .set_icon("assets/icon/muster.ico")
        .set("ProductName", "Muster")
        // Windows names the program by it in the Task Manager and dialogs.
        .set("FileDescription", "Muster")
        .set("CompanyName", "Muster's developers")
        .set("LegalCopyright", "Muster's developers, MIT licence");
    // Only the program: the tests and benches need no icon.
    if let Err(e) = resource.compile_for("muster") {
        println!(
            "cargo::error=embedding muster.exe's icon and version (assets/icon/muster.ico): {e}"
        );
    }
}
