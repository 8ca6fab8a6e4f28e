use super::*;
use crate::backend::{
    ModelChoice, PermissionValue as V, SessionIdentity, SessionMode,
    cli::{test_request, test_settings, with_tools},
    process::ProcessOutput,
};

fn backend(args: &[&str]) -> ClaudeBackend {
    ClaudeBackend::new(test_settings(BackendKind::Claude, ENV_PREFIXES, args))
}

fn patterns(p: &[&str]) -> V {
    V::Patterns(p.iter().map(|s| s.to_string()).collect())
}

/// The argv for an agent with `rules`, as one line.
fn argv(rules: &[(&str, V)]) -> String {
    backend(&[])
        .argv(&test_request("task", rules), &SessionArg::None)
        .join(" ")
}

#[test]
fn a_request_without_rules() {
    let mut r = test_request("task", &[]);
    r.model = ModelChoice {
        alias: Some("opus".into()),
        name: Some("opus".into()),
    };
    assert_eq!(
        backend(&["--max-budget-usd", "5"])
            .argv(&r, &SessionArg::None)
            .join(" "),
        "-p --max-budget-usd 5 --output-format json --model opus --no-session-persistence"
    );
}

#[test]
fn denials_take_the_tools_and_the_shell_away() {
    assert_eq!(
        argv(&[("bash", V::Deny)]),
        "-p --output-format json --no-session-persistence --disallowedTools Bash PowerShell"
    );
    assert_eq!(
        argv(&[("write", V::Prompt)]),
        "-p --output-format json --no-session-persistence --disallowedTools Edit Write NotebookEdit Bash PowerShell"
    );
    assert_eq!(
        argv(&[("read", V::Deny), ("execute", V::Deny)]),
        "-p --output-format json --no-session-persistence --disallowedTools Read Glob Grep Bash PowerShell"
    );
    assert_eq!(
        argv(&[("network", V::Deny)]),
        "-p --output-format json --no-session-persistence --strict-mcp-config --disallowedTools WebFetch WebSearch Bash PowerShell"
    );
    assert_eq!(
        argv(&[("filesystem", V::Deny)]),
        "-p --output-format json --no-session-persistence --disallowedTools Read Glob Grep Edit Write NotebookEdit Bash PowerShell"
    );
}

#[test]
fn allows_are_pre_approved_unless_something_denies_them() {
    assert_eq!(
        argv(&[("bash", V::Allow), ("network", V::Allow)]),
        "-p --output-format json --no-session-persistence --allowedTools Bash WebFetch WebSearch"
    );
    // A shell could write: `write: deny` wins over `bash: allow`.
    assert_eq!(
        argv(&[("bash", V::Allow), ("write", V::Deny), ("read", V::Allow)]),
        "-p --output-format json --no-session-persistence --allowedTools Read Glob Grep --disallowedTools Edit Write NotebookEdit Bash PowerShell"
    );
}

#[test]
fn filesystem_operation_lists() {
    assert_eq!(
        argv(&[("filesystem", patterns(&["read"]))]),
        "-p --output-format json --no-session-persistence --allowedTools Read Glob Grep --disallowedTools Edit Write NotebookEdit Bash PowerShell"
    );
    assert_eq!(
        argv(&[("filesystem", patterns(&["read", "write"]))]),
        "-p --output-format json --no-session-persistence --allowedTools Read Glob Grep Edit Write NotebookEdit"
    );
}

#[test]
fn what_is_enforced() {
    let enforced = |kind: &str, v: V| {
        ToolRules::enforces(&PermissionRule::new(PermissionKind::parse(kind), v))
    };
    for kind in ["bash", "execute", "read", "write", "filesystem", "network"] {
        assert!(enforced(kind, V::Deny), "{kind}: deny");
        assert!(enforced(kind, V::Prompt), "{kind}: prompt");
    }
    assert!(enforced("filesystem", patterns(&["read"])));
    for kind in ["read", "write", "network", "bash", "execute"] {
        assert!(!enforced(kind, patterns(&["*.md"])), "{kind}: patterns");
    }
    assert!(!enforced("filesystem", patterns(&["src/"])));
    assert!(!enforced("database", V::Deny));
    assert!(!enforced("database", patterns(&["read"])));
    assert!(!enforced("gpu", V::Deny));
}

#[test]
fn pattern_lists_run_anyway_as_allow_rules() {
    assert_eq!(
        argv(&[
            ("read", patterns(&["**/*.md"])),
            ("write", patterns(&["docs/"])),
            (
                "network",
                patterns(&["https://api.example.com/*", "{api_url}/*"])
            ),
            ("bash", patterns(&["git *"])),
        ]),
        "-p --output-format json --no-session-persistence --allowedTools Read(**/*.md) Edit(docs/**) Write(docs/**) WebFetch(domain:api.example.com) Bash(git *)"
    );
    // ... unless a denial takes the tool away.
    assert_eq!(
        argv(&[("bash", patterns(&["git *"])), ("network", V::Deny)]),
        "-p --output-format json --no-session-persistence --strict-mcp-config --disallowedTools WebFetch WebSearch Bash PowerShell"
    );
}

#[test]
fn sessions_of_persistent_agents() {
    let r = test_request("task", &[]);
    let b = backend(&[]);
    let line = |s: SessionArg| b.argv(&r, &s).join(" ");
    assert_eq!(
        line(SessionArg::New(
            "0b9f6a5e-1c2d-4e3f-8a9b-0c1d2e3f4a5b".into()
        )),
        "-p --output-format json --session-id 0b9f6a5e-1c2d-4e3f-8a9b-0c1d2e3f4a5b"
    );
    assert_eq!(
        line(SessionArg::Resume("abc".into())),
        "-p --output-format json --resume abc"
    );
    let id = new_session_id();
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
    let _ = SessionIdentity {
        mode: SessionMode::Resume,
        ..Default::default()
    };
}

fn ran(code: i32, stdout: &str) -> Ran {
    Ran {
        program: "claude".into(),
        output: ProcessOutput {
            code: Some(code),
            stdout: stdout.into(),
            stderr: String::new(),
        },
        secrets: vec!["sk-ant-secret-1".into()],
    }
}

#[test]
fn reads_the_result_object() {
    let ok = response(
        &ran(
            0,
            r#"{"type":"result","subtype":"success","is_error":false,"result":"Hello sk-ant-secret-1","session_id":"5f0c","usage":{"input_tokens":10,"output_tokens":5},"total_cost_usd":0.25}"#,
        ),
        true,
    )
    .unwrap();
    assert_eq!(ok.text, "Hello [redacted]");
    assert_eq!(ok.session_handle.as_deref(), Some("claude:5f0c"));
    assert_eq!(
        ok.usage,
        Some(Usage {
            input_tokens: Some(10),
            output_tokens: Some(5),
            cost_usd: Some(0.25)
        })
    );
    let one_off = response(
        &ran(
            0,
            r#"{"type":"result","is_error":false,"result":"x","session_id":"5f0c"}"#,
        ),
        false,
    )
    .unwrap();
    assert_eq!(one_off.session_handle, None);

    let e = response(
        &ran(
            1,
            r#"{"type":"result","is_error":true,"result":"Not logged in · Please run /login"}"#,
        ),
        false,
    )
    .unwrap_err();
    assert_eq!(e.kind, crate::backend::BackendErrorKind::Failed);
    assert_eq!(
        e.message,
        "`claude` reported an error: Not logged in · Please run /login"
    );

    let e = response(
        &ran(1, "No conversation found with session ID: 5f0c\n"),
        true,
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "`claude` failed with exit status 1: No conversation found with session ID: 5f0c"
    );
    let e = response(&ran(0, "plain text\n"), false).unwrap_err();
    assert_eq!(
        e.message,
        "`claude` did not print the JSON result it should: plain text"
    );
    // Warnings before the object.
    let ok = response(
        &ran(
            0,
            "warning: x\n{\"type\":\"result\",\"is_error\":false,\"result\":\"y\"}\n",
        ),
        false,
    )
    .unwrap();
    assert_eq!(ok.text, "y");
}

#[test]
fn tools_come_from_the_runners_mcp_server_and_are_pre_approved() {
    let r = with_tools(test_request(
        "task",
        &[("bash", V::Allow), ("network", V::Deny)],
    ));
    assert_eq!(
        backend(&[]).argv(&r, &SessionArg::None).join(" "),
        r#"-p --output-format json --no-session-persistence --mcp-config {"mcpServers":{"prose":{"args":["jobs","mcp","--calls","/run/tools/s1.jsonl"],"command":"/bin/prose"}}} --strict-mcp-config --allowedTools mcp__prose__job_boolean_true mcp__prose__job_boolean_false --disallowedTools WebFetch WebSearch Bash PowerShell"#
    );
    // Tools without a server are not offered.
    let mut r = with_tools(test_request("task", &[]));
    r.tool_channel.as_mut().unwrap().server = None;
    assert_eq!(
        backend(&[]).argv(&r, &SessionArg::None).join(" "),
        "-p --output-format json --no-session-persistence"
    );
}
