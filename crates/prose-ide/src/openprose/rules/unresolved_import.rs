//! # P204 `unresolved-import`
//!
//! **Imported program not available locally.** A `use` names a program
//! whose source is not on this machine, so the calls to it cannot be checked
//! against its inputs and outputs (E026, E027, E028 stay silent for it).
//!
//! This is a hint, not a problem in the program: the runtime fetches the
//! program from the registry when it runs. The validator never fetches
//! from the network.
//!
//! A program is found, in this order, at:
//! 1. the path `prose.toml` maps it to (`[imports] "@alice/research" = "vendor/research.prose"`);
//! 2. `.prose/imports/{handle}--{slug}/program.prose` in the workspace;
//! 3. the same under `~/.prose/imports/`;
//!
//! and a local path (`use "./lib/helper.prose"`) is the file itself.
//!
//! ## Example
//! ```prose
//! use "@alice/research"
//!
//! let result = research(topic: "quantum computing")
//! ```
//!
//! ## Fix
//! Put the program where it is looked up (here, in the workspace):
//! ```prose
//! #- /ws/.prose/imports/alice--research/program.prose
//! input topic: "What to research"
//! output findings = session "Research {topic}"
//! #- /ws/main.prose
//! use "@alice/research"
//!
//! let result = research(topic: "quantum computing")
//! ```
//!
//! The hint is on the path, once per `use` (a duplicate import is E010
//! instead; an empty or malformed path is E011/E012 instead).
//!
//! ## Specification
//! Not a compiler.md row. compiler.md's Program Invocation checks E026–E028
//! need the imported program's contract, which compiler.md's VM fetches from
//! `https://p.prose.md/@handle/slug`; spec-rows.md ("Contract availability")
//! makes them silent when the program is not available locally. This
//! project code says so, instead of skipping silently. A hint in every
//! profile.

use super::program_shared::{imports, is_malformed, resolve_or_place};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P204",
    name: "unresolved-import",
    summary: "Imported program not available locally; its inputs and outputs are not checked",
    strict: Severity::Hint,
    default: Level::On(Severity::Hint),
    source: include_str!("unresolved_import.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for imp in imports(ctx).iter() {
        if imp.duplicate || is_malformed(&imp.path) {
            continue;
        }
        let Err(place) = resolve_or_place(ctx, &imp.path) else {
            continue;
        };
        let path = imp.path.trim();
        let place = place
            .map(|p| format!(" (looked for {p})"))
            .unwrap_or_default();
        acc.report(
            imp.path_range,
            format!(
                "Program `{path}` is not available locally; its inputs and outputs are not checked{place}"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    #[test]
    fn missing_program_is_a_hint_in_both_profiles() {
        let fixture = "use \"@alice/research\"\nuse \"@alice/research\" as again\nuse \"@bad\"\nuse \"https://example.com/x.prose\"\n";
        check_code(
            "P204",
            fixture,
            expect![[r#"
            P204 1:5-1:22 hint: Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            P204 4:5-4:34 hint: Program `https://example.com/x.prose` is not available locally; its inputs and outputs are not checked
        "#]],
        );
        check_code_strict(
            "P204",
            fixture,
            expect![[r#"
            P204 1:5-1:22 hint: Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            P204 4:5-4:34 hint: Program `https://example.com/x.prose` is not available locally; its inputs and outputs are not checked
        "#]],
        );
    }

    #[test]
    fn found_in_workspace_home_mapping_or_local_path() {
        check_no(
            "P204",
            r#"#- /ws/prose.toml
[imports]
"@carol/critique" = "vendor/critique.prose"
#- /ws/vendor/critique.prose
input draft: "d"
#- /ws/.prose/imports/alice--research/program.prose
input topic: "t"
#- /home/user/.prose/imports/bob--summary/program.prose
input text: "t"
#- /ws/lib/helper.prose
input x: "x"
#- /ws/main.prose
use "@alice/research"
use "bob/summary"
use "@carol/critique" as critic
use "./lib/helper.prose"
"#,
        );
    }

    /// The candidates of each `use` path are kept from one analysis to the
    /// next (`external::use_candidates`): a change of the root's
    /// `[imports]` or of the home directory changes what P204 reports, as
    /// it would in a fresh analysis, and so does an edit of the file.
    #[test]
    fn follows_the_configuration_the_home_and_the_file() {
        let mut host = crate::AnalysisHost::new();
        host.set_workspace_root(Some("/ws".to_string()));
        let mut text = "use \"@carol/critique\"\nuse \"@alice/research\"\n".to_string();
        let main = host.set_file_text("/ws/main.prose", text.clone());
        let p204 = |host: &crate::AnalysisHost| -> Vec<String> {
            let diagnostics = host.analysis().diagnostics(main).unwrap();
            diagnostics
                .into_iter()
                .filter(|d| d.code.as_str() == "P204")
                .map(|d| d.message)
                .collect()
        };
        let missing = |program: &str, dir: &str| {
            format!(
                "Program `{program}` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/{dir}/program.prose)"
            )
        };
        let carol = missing("@carol/critique", "carol--critique");
        let alice = missing("@alice/research", "alice--research");
        assert_eq!(p204(&host), [carol.clone(), alice.clone()]);
        let mut config = crate::config::Config::default();
        (config.imports).insert("@carol/critique".into(), "vendor/critique.prose".into());
        host.set_config(config);
        host.set_file_text("/ws/vendor/critique.prose", "input draft: \"d\"\n");
        assert_eq!(p204(&host), std::slice::from_ref(&alice));
        host.set_home(Some("/home/u".to_string()));
        host.set_file_text(
            "/home/u/.prose/imports/alice--research/program.prose",
            "input topic: \"t\"\n",
        );
        assert_eq!(p204(&host), Vec::<String>::new());
        host.set_home(Some("/home/v".to_string()));
        assert_eq!(p204(&host), std::slice::from_ref(&alice));
        text.push_str("use \"@dave/plan\"\n");
        host.set_file_text("/ws/main.prose", text);
        assert_eq!(p204(&host), [alice, missing("@dave/plan", "dave--plan")]);
    }
}
