//! `run_logged`: output kept in the log, exit status checked, failures reported with the log's tail.

mod common;

use std::fs;
use std::process::Command;

use common::{scratch, script};
use toolchain::{run_logged, ToolError, LOG_TAIL_LINES};

#[test]
fn failing_tool_reports_status_log_and_tail() {
    let dir = scratch("run_fails");
    let tool = script(
        &dir.join("fake-nextpnr"),
        "echo 'Info: placing'\necho 'ERROR: cannot place 3 cells' >&2\nexit 3",
    );
    let log = dir.join("logs/nextpnr.log");
    let err = run_logged(Command::new(&tool).arg("--hx8k"), &log).expect_err("exit 3");
    match &err {
        ToolError::Failed {
            tool,
            status,
            log: log_path,
            tail,
        } => {
            assert_eq!(tool, "fake-nextpnr");
            assert_eq!(status.code(), Some(3));
            assert_eq!(log_path, &log);
            assert!(tail.ends_with("ERROR: cannot place 3 cells"), "{tail}");
            assert!(tail.contains("Info: placing"), "{tail}");
        }
        other => panic!("expected Failed, got {other:?}"),
    }
    let message = err.to_string();
    assert!(message.contains("fake-nextpnr"), "{message}");
    assert!(message.contains(&log.display().to_string()), "{message}");
    assert!(message.contains('3'), "{message}");

    let text = fs::read_to_string(&log).expect("log written");
    assert!(text.contains("--hx8k"), "{text}");
    assert!(text.contains("Info: placing"), "{text}");
    assert!(text.contains("ERROR: cannot place 3 cells"), "{text}");
}

#[test]
fn tail_holds_only_the_last_lines() {
    let dir = scratch("run_tail");
    let tool = script(
        &dir.join("chatty"),
        "i=1; while [ $i -le 100 ]; do echo line$i; i=$((i+1)); done; exit 1",
    );
    let err = run_logged(&mut Command::new(&tool), &dir.join("chatty.log")).expect_err("exit 1");
    let ToolError::Failed { tail, .. } = err else {
        panic!("expected Failed, got {err:?}");
    };
    let lines: Vec<&str> = tail.lines().collect();
    assert_eq!(lines.len(), LOG_TAIL_LINES);
    assert_eq!(lines.first().copied(), Some("line76"));
    assert_eq!(lines.last().copied(), Some("line100"));
}

#[test]
fn successful_tool_returns_output_and_logs_it() {
    let dir = scratch("run_ok");
    let tool = script(
        &dir.join("fake-yosys"),
        "echo \"synth $1\"\necho warning >&2",
    );
    let log = dir.join("yosys.log");
    let output = run_logged(Command::new(&tool).arg("top.v"), &log).expect("exit 0");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "synth top.v\n");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "warning\n");
    let text = fs::read_to_string(&log).expect("log written");
    assert!(text.contains("synth top.v\nwarning\n"), "{text}");
}

#[test]
fn missing_program_is_a_spawn_error() {
    let dir = scratch("run_missing");
    let err = run_logged(
        &mut Command::new(dir.join("no-such-tool")),
        &dir.join("x.log"),
    )
    .expect_err("cannot start");
    assert!(
        matches!(&err, ToolError::Spawn { tool, .. } if tool == "no-such-tool"),
        "{err:?}"
    );
}
