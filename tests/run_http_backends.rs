//! `prose run --backend anthropic` and `--backend openai` end to end: the
//! built binary reads `[runner.<backend>]` from the workspace's prose.toml
//! and the key from its own environment, asks a fake API server on
//! 127.0.0.1, binds the answer, and leaves the key out of its output, its
//! events and the run's directory.

mod common;

use std::{
    fs,
    io::{BufRead, BufReader, Read, Write},
    net::TcpListener,
    path::PathBuf,
    sync::{Arc, Mutex},
};

use common::Sandbox;

/// A fake API on 127.0.0.1 answering every request with a fixed answer in
/// the format its path asks for; returns its URL and the requests (head
/// and body) it received.
fn fake_api(answer: &'static str) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let text = if head.starts_with("POST /v1/messages") {
                format!(
                    r#"{{"type":"message","role":"assistant","content":[{{"type":"text","text":"{answer}"}}],"stop_reason":"end_turn","usage":{{"input_tokens":3,"output_tokens":2}}}}"#
                )
            } else {
                format!(
                    r#"{{"choices":[{{"message":{{"role":"assistant","content":"{answer}"}},"finish_reason":"stop"}}]}}"#
                )
            };
            log.lock()
                .unwrap()
                .push(format!("{head}\n{}", String::from_utf8_lossy(&body)));
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    (url, seen)
}

fn files_containing(dir: &std::path::Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if fs::read_to_string(&p).unwrap_or_default().contains(needle) {
            found.push(p);
        }
    }
    found
}

#[test]
fn the_http_backends_run_a_program_with_the_key_from_the_environment() {
    let secret = "sk-test-E2E-SECRET-9d41";
    for (backend, base, key_var) in [
        ("anthropic", "", "ANTHROPIC_API_KEY"),
        ("openai", "/v1", "OPENAI_API_KEY"),
    ] {
        let sb = Sandbox::new(&format!("run-{backend}"));
        let (url, seen) = fake_api("Tides follow the moon.");
        sb.write(
            "prose.toml",
            format!(
                "[runner.{backend}]\nbase_url = \"{url}{base}\"\napi_key_env = \"{key_var}\"\n"
            ),
        );
        sb.write(
            "p.prose",
            "let facts = session \"Explain tides\"\noutput facts = facts\n",
        );
        let home = sb.path().join("home").display().to_string();
        let r = sb.prose_with_env(
            &[
                "run",
                "p.prose",
                "--backend",
                backend,
                "--events-file",
                "events.jsonl",
                // The repository chose the endpoint and the key variable.
                "--yes",
            ],
            &[("PROSE_HOME", home.as_str()), (key_var, secret)],
        );
        assert_eq!(r.code, 0, "{backend}: {}", r.stderr);
        assert!(r.stdout.contains("Tides follow the moon."), "{}", r.stdout);
        assert!(!r.stdout.contains(secret) && !r.stderr.contains(secret));

        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 1, "{seen:?}");
        let request = seen[0].to_ascii_lowercase();
        assert!(
            request.contains(&secret.to_ascii_lowercase()),
            "{backend}: the key was not sent"
        );
        assert!(seen[0].contains("Explain tides"));
        let found = files_containing(sb.path(), secret);
        assert!(found.is_empty(), "the key is in {found:?}");

        // Without the key, the run does not start, and says which variable.
        let r = sb.prose_with_env(
            &["run", "p.prose", "--backend", backend, "--yes"],
            &[("PROSE_HOME", home.as_str()), (key_var, "")],
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.contains(&format!("`{key_var}` is not set")),
            "{}",
            r.stderr
        );
    }
}
