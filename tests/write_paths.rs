//! Nothing of the user's is ever destroyed: every path the program writes or rotates must be a
//! regular file or absent. Devices (made here with `mknod`, a copy of `/dev/null`'s numbers, in a
//! temporary folder, never the real `/dev`), FIFOs, folders and links to them are refused with one
//! line and exit code 2, and they are still there, unchanged, afterwards.

use assert_cmd::Command;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

fn bin(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("othello-explorer").expect("the binary is built");
    cmd.env("HOME", home).env("XDG_DATA_HOME", home.join("data")).env_remove("NO_COLOR");
    cmd
}

/// A character device with `/dev/null`'s numbers (needs root, as the project's machines run),
/// a FIFO, a folder and a link to the device, in `dir`.
struct Nodes {
    device: Option<PathBuf>,
    fifo: PathBuf,
    folder: PathBuf,
    link: Option<PathBuf>,
}

fn nodes(dir: &Path) -> Nodes {
    let device = dir.join("mynull");
    let made = std::process::Command::new("mknod")
        .args(["-m", "666"])
        .arg(&device)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("mknod is not allowed here (not root?): the device cases are skipped");
    }
    let fifo = dir.join("myfifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("inside.txt"), "keep me").unwrap();
    let link = made.then(|| {
        let link = dir.join("link-to-device");
        std::os::unix::fs::symlink(&device, &link).unwrap();
        link
    });
    Nodes { device: made.then_some(device), fifo, folder, link }
}

/// Everything `nodes` made is still what it was.
fn intact(n: &Nodes) {
    if let Some(d) = &n.device {
        assert!(std::fs::metadata(d).unwrap().file_type().is_char_device(), "{} replaced", d.display());
    }
    assert!(std::fs::metadata(&n.fifo).unwrap().file_type().is_fifo(), "the FIFO replaced");
    assert_eq!(std::fs::read_to_string(n.folder.join("inside.txt")).unwrap(), "keep me");
    if let Some(l) = &n.link {
        assert!(std::fs::symlink_metadata(l).unwrap().file_type().is_symlink());
    }
    let names: Vec<String> = std::fs::read_dir(n.fifo.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".previous")), "something was rotated: {names:?}");
}

/// Runs `args` and checks exit code 2 with one line on stderr naming `what`.
fn refused(home: &Path, args: &[&str], what: &Path) {
    let out = bin(home).args(args).timeout(std::time::Duration::from_secs(60)).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    let name = what.file_name().unwrap().to_string_lossy();
    assert!(err.contains(name.as_ref()), "{args:?}: {err}");
}

#[test]
fn no_write_path_replaces_a_device_a_fifo_or_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let n = nodes(dir.path());
    let home = dir.path();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let mut targets: Vec<PathBuf> = vec![n.fifo.clone(), n.folder.clone()];
    targets.extend(n.device.clone());
    targets.extend(n.link.clone());
    for t in &targets {
        let t_s = s(t);
        // The store, by every command that opens one.
        refused(home, &["--store", &t_s, "store", "stats"], t);
        refused(home, &["--store", &t_s, "store", "verify"], t);
        refused(home, &["--store", &t_s, "store", "export"], t);
        refused(home, &["--store", &t_s, "solve", "--size", "4"], t);
        // Files written: an export, a review's GGF, the explorer's session (refused before the
        // terminal is even looked at).
        let store = s(&dir.path().join("real.redb"));
        bin(home).args(["--store", &store, "solve", "--size", "4"]).assert().success();
        refused(home, &["--store", &store, "store", "export", &t_s], t);
        refused(home, &["review", "--size", "4", "--moves", "c4", "--time", "0.01", "--ggf", &t_s, "--no-store"], t);
        refused(home, &["--size", "4", "--session", &t_s], t);
    }
    intact(&n);
}

#[test]
fn a_mistyped_store_is_reported_not_created_and_export_to_stdout_works() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let typo = dir.path().join("stroe.redb");
    let out = bin(home).args(["--store", typo.to_str().unwrap(), "store", "stats"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no store here"));
    assert!(!typo.exists(), "a read-only command created a store");
    // `-` is standard output, not a file named `-`.
    let store = dir.path().join("s.redb");
    bin(home).args(["--store", store.to_str().unwrap(), "solve", "--size", "4"]).assert().success();
    let out = bin(home)
        .current_dir(dir.path())
        .args(["--store", store.to_str().unwrap(), "store", "export", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).is_empty());
    assert!(!dir.path().join("-").exists());
    // A link to a regular file is written through, the link kept.
    let real = dir.path().join("real.txt");
    std::fs::write(&real, "").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    bin(home).args(["--store", store.to_str().unwrap(), "store", "export", link.to_str().unwrap()]).assert().success();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(!std::fs::read_to_string(&real).unwrap().is_empty());
}

#[test]
fn save_and_export_in_the_explorer_refuse_a_device_a_fifo_and_a_folder() {
    use othello_explorer::tui::testing::app::Msg;
    use othello_explorer::tui::testing::disk::Disk;
    let dir = tempfile::tempdir().unwrap();
    let n = nodes(dir.path());
    let (tx, rx) = std::sync::mpsc::channel();
    let disk = Disk::spawn(None, tx).unwrap();
    let mut targets: Vec<PathBuf> = vec![n.fifo.clone(), n.folder.clone()];
    targets.extend(n.device.clone());
    targets.extend(n.link.clone());
    for t in &targets {
        disk.save(t.to_str().unwrap().to_string(), "(;GM[Othello];)\n".to_string());
        match rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap() {
            Msg::Saved { result: Err(e), .. } => assert!(e.contains("not a regular file"), "{e}"),
            other => panic!("{}: expected a refusal, got {other:?}", t.display()),
        }
    }
    drop(disk);
    intact(&n);
}
