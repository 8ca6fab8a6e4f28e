//! A generated job entry of a given size, shaped like a real one: prompt
//! variables that use each other a few levels deep, tasks that use several
//! variables, conditions, criteria, previous tasks and grid keywords. It
//! checks clean. Shared by the `validate` bench and `tests/generated.rs`.

/// A name of ASCII letters for `i` (variable names cannot hold digits).
pub fn letters(mut i: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (i % 26) as u8);
        i /= 26;
        if i == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap()
}

/// An entry with `tasks` tasks and `variables` prompt variables.
pub fn entry(tasks: usize, variables: usize) -> String {
    let var = |i: usize| format!("var{}", letters(i));
    let mut out = String::new();
    out.push_str("// generated\n{\n  \"models\": {\"driving\": \"gpt-5-mini\", \"planning\": \"gpt-5.2\", \"coding\": \"gpt-5.2-codex\", \"reviewers\": [\"a\", \"b\"]},\n");
    out.push_str("  \"promptVariables\": {\n");
    out.push_str("    \"answer\": [\"Call job_boolean_true if the statement below holds, job_boolean_false if not, with the reason.\"],\n");
    for i in 0..variables {
        // Each variable uses up to two of the next ones (an acyclic graph
        // about five levels deep), and says something.
        let mut lines = vec![format!(
            "Step {i}: read REPO-ROOT/docs/part-{i}.md and keep its decisions in mind while you work."
        )];
        if i % 5 != 4 && i + 1 < variables {
            lines.push(format!("${}", var(i + 1)));
        }
        if i % 7 == 0 && i + 3 < variables && (i + 3) % 5 != 0 {
            lines.push(format!("See also ${}.", var(i + 3)));
        }
        let json: Vec<String> = lines.iter().map(|l| format!("\"{l}\"")).collect();
        out.push_str(&format!("    \"{}\": [{}],\n", var(i), json.join(", ")));
    }
    out.push_str("    \"last\": [\"The end.\"]\n  },\n");
    out.push_str("  \"grid\": [\n");
    let keywords = ["story", "design", "plan", "execute", "verify", "review"];
    for (i, k) in keywords.iter().enumerate() {
        let comma = if i + 1 < keywords.len() { "," } else { "" };
        out.push_str(&format!(
            "    {{\"keyword\": \"{k}\", \"automate\": {}, \"jobs\": [{{\"name\": \"start\", \"id\": \"{k}-start\"}}, {{\"name\": \"update\", \"id\": \"{k}-update\"}}]}}{comma}\n",
            i > 0
        ));
    }
    out.push_str("  ],\n  \"tasks\": {\n");
    for t in 0..tasks {
        // Chains of variables start at multiples of 5: using their heads
        // uses every variable once there are enough tasks.
        let v = |k: usize| var(((t * 3 + k) * 5) % variables.max(1));
        let user = t % 4 == 0;
        let mut task = format!(
            "    \"task-{t}\": {{\n      \"model\": \"{}\",\n      \"prompt\": [\"${}\", \"${}\", \"# Task {t}\"{}, \"$last\"],\n      \"requireUserInput\": {user}",
            ["planning", "coding", "driving"][t % 3],
            v(0),
            v(1),
            if user { ", \"$user-input\"" } else { "" },
        );
        if t > 0 {
            task.push_str(&format!(
                ",\n      \"availability\": {{\"previousTasks\": [\"task-{}\"], \"previousJobKeywords\": [\"{}\"], \"condition\": [\"$answer\", \"${} is done.\"]}}",
                t - 1,
                keywords[t % keywords.len()],
                v(2)
            ));
        }
        task.push_str(&format!(
            ",\n      \"criteria\": {{\"toolExecuted\": [\"job_prepare_document\"], \"runConditionInSameSession\": {}, \"condition\": [\"$answer\", \"$reported-document exists.\"], \"failureAction\": [\"RetryWithUserPrompt\", 3, [\"Go on: $reported-false-reason\"]]}}\n    }}",
            t % 2 == 0
        ));
        out.push_str(&task);
        out.push_str(if t + 1 < tasks { ",\n" } else { "\n" });
    }
    out.push_str("  }\n}\n");
    out
}
