//! Tests only: runs a reference implementation (a Python or Node script of `test/crosscheck/`) on
//! JSON cases, one per line on its stdin, and reads its one JSON answer per line.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A path under the repository's root.
pub fn repo_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(relative)
}

/// `command args…` run once on every case; its answers in order (panics when it fails or answers
/// a different number of lines).
pub fn run_json_lines(command: &str, args: &[PathBuf], cases: &[Value]) -> Vec<Value> {
    let mut child = Command::new(command)
        .args(args)
        .current_dir(repo_path(""))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command} {args:?}: {e}"));
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    // Written from its own thread: the reference answers line by line, and a pipe holds only so
    // much of either side.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "{command} {args:?} failed");
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len(), "{command} {args:?} answered another count");
    answers
}
