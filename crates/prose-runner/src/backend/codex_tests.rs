use super::*;
use crate::backend::{
    PermissionValue as V,
    cli::{test_request, test_settings, with_tools},
    process::ProcessOutput,
};

fn backend(args: &[&str]) -> CodexBackend {
    CodexBackend::new(test_settings(BackendKind::Codex, ENV_PREFIXES, args))
}

fn patterns(p: &[&str]) -> V {
    V::Patterns(p.iter().map(|s| s.to_string()).collect())
}

fn argv(rules: &[(&str, V)]) -> String {
    backend(&[])
        .argv(&test_request("task", rules), None, false)
        .join(" ")
}

#[test]
fn one_off_persistent_and_resumed_requests() {
    let mut r = test_request("task", &[]);
    r.model.name = Some("gpt-5".into());
    let b = backend(&["--profile", "work"]);
    assert_eq!(
        b.argv(&r, None, false).join(" "),
        "exec --json --skip-git-repo-check --ephemeral -m gpt-5 --profile work -"
    );
    assert_eq!(
        b.argv(&r, None, true).join(" "),
        "exec --json --skip-git-repo-check -m gpt-5 --profile work -"
    );
    assert_eq!(
        b.argv(&r, Some("0199-thread"), true).join(" "),
        "exec --json --skip-git-repo-check -m gpt-5 --profile work resume 0199-thread -"
    );
}

#[test]
fn rules_become_the_sandbox() {
    assert_eq!(
        argv(&[("write", V::Deny)]),
        "exec --json --skip-git-repo-check --ephemeral -c sandbox_mode=\"read-only\" -"
    );
    assert_eq!(
        argv(&[("filesystem", patterns(&["read"]))]),
        "exec --json --skip-git-repo-check --ephemeral -c sandbox_mode=\"read-only\" -"
    );
    assert_eq!(
        argv(&[("network", V::Prompt)]),
        "exec --json --skip-git-repo-check --ephemeral -c sandbox_mode=\"read-only\" -c sandbox_workspace_write.network_access=false -c web_search=\"disabled\" -"
    );
    assert_eq!(
        argv(&[("network", V::Deny), ("write", V::Allow)]),
        "exec --json --skip-git-repo-check --ephemeral -c sandbox_mode=\"workspace-write\" -c sandbox_workspace_write.network_access=false -c web_search=\"disabled\" -"
    );
    assert_eq!(
        argv(&[
            ("filesystem", patterns(&["read", "write"])),
            ("network", V::Allow)
        ]),
        "exec --json --skip-git-repo-check --ephemeral -c sandbox_mode=\"workspace-write\" -c sandbox_workspace_write.network_access=true -"
    );
    // Restrictions win.
    assert_eq!(
        argv(&[("write", V::Allow), ("write", V::Deny)]),
        "exec --json --skip-git-repo-check --ephemeral -c sandbox_mode=\"read-only\" -"
    );
    assert_eq!(
        argv(&[("bash", V::Allow), ("read", V::Allow)]),
        "exec --json --skip-git-repo-check --ephemeral -"
    );
}

#[test]
fn what_is_enforced() {
    let b = backend(&[]);
    let enforced = |b: &CodexBackend, kind: &str, v: V| {
        b.enforces(&PermissionRule::new(PermissionKind::parse(kind), v))
    };
    assert!(enforced(&b, "write", V::Deny));
    assert!(enforced(&b, "write", V::Prompt));
    assert!(enforced(&b, "network", V::Deny));
    assert!(enforced(&b, "filesystem", patterns(&["read"])));
    assert!(enforced(&b, "filesystem", patterns(&["read", "write"])));
    for (kind, v) in [
        ("bash", V::Deny),
        ("read", V::Deny),
        ("execute", V::Prompt),
        ("filesystem", V::Deny),
        ("filesystem", patterns(&["src/"])),
        ("filesystem", patterns(&["write"])),
        ("write", patterns(&["docs/"])),
        ("network", patterns(&["https://x.org/*"])),
        ("database", patterns(&["read"])),
        ("gpu", V::Deny),
    ] {
        assert!(!enforced(&b, kind, v.clone()), "{kind}: {v:?}");
    }
    // Arguments that choose the sandbox leave nothing to enforce.
    for args in [
        &["-s", "danger-full-access"][..],
        &["--sandbox=workspace-write"],
        &["-sread-only"],
        &["--dangerously-bypass-approvals-and-sandbox"],
    ] {
        let b = backend(args);
        assert!(!enforced(&b, "write", V::Deny), "{args:?}");
        assert!(!enforced(&b, "network", V::Deny), "{args:?}");
    }
    assert!(enforced(
        &backend(&["--search-mode", "x"]),
        "write",
        V::Deny
    ));
}

fn ran(code: i32, stdout: &str, stderr: &str) -> Ran {
    Ran {
        program: "codex".into(),
        output: ProcessOutput {
            code: Some(code),
            stdout: stdout.into(),
            stderr: stderr.into(),
        },
        secrets: vec!["sk-openai-secret".into()],
    }
}

#[test]
fn reads_the_json_lines() {
    let out = r#"{"type":"thread.started","thread_id":"0199-a"}
{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `x` not found."}}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"first"}}
{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"ls"}}
{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"the answer, sk-openai-secret"}}
{"type":"turn.completed","usage":{"input_tokens":20,"cached_input_tokens":0,"output_tokens":10}}
"#;
    let ok = response(&ran(0, out, "WARNING: proceeding\n"), true).unwrap();
    assert_eq!(ok.text, "the answer, [redacted]");
    assert_eq!(ok.session_handle.as_deref(), Some("codex:0199-a"));
    assert_eq!(ok.usage.unwrap().output_tokens, Some(10));
    assert_eq!(
        response(&ran(0, out, ""), false).unwrap().session_handle,
        None
    );

    let failed = r#"{"type":"thread.started","thread_id":"0199-b"}
{"type":"error","message":"Reconnecting... 1/5 (high demand)"}
{"type":"turn.failed","error":{"message":"We're currently experiencing high demand."}}
"#;
    assert_eq!(
        response(&ran(1, failed, ""), false).unwrap_err().message,
        "`codex` reported an error: We're currently experiencing high demand."
    );
    assert_eq!(
        response(
            &ran(
                1,
                "",
                "Error: thread/resume failed: no rollout found for thread id x\n"
            ),
            true
        )
        .unwrap_err()
        .message,
        "`codex` failed with exit status 1: Error: thread/resume failed: no rollout found for thread id x"
    );
    assert_eq!(
        response(
            &ran(
                2,
                "{\"type\":\"error\",\"message\":\"stream disconnected\"}\n",
                ""
            ),
            false
        )
        .unwrap_err()
        .message,
        "`codex` failed with exit status 2: {\"type\":\"error\",\"message\":\"stream disconnected\"}: stream disconnected"
    );
}

#[test]
fn tools_come_from_the_runners_mcp_server_approved_in_advance() {
    let r = with_tools(test_request("task", &[]));
    assert_eq!(
        backend(&["--profile", "work"])
            .argv(&r, None, false)
            .join(" "),
        r#"exec --json --skip-git-repo-check --ephemeral -c mcp_servers.prose.command="/bin/prose" -c mcp_servers.prose.args=["jobs","mcp","--calls","/run/tools/s1.jsonl"] -c mcp_servers.prose.default_tools_approval_mode="approve" --profile work -"#
    );
}
