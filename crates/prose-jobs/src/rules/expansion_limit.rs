//! # J019 `expansion-limit`
//!
//! **Expansion too deep or too large.** Prompt variables may nest at most
//! 64 levels deep, and a fully expanded prompt may be at most 1 MiB
//! (1,048,576 bytes). A variable whose prompt uses another one twice
//! doubles at each level, so a few dozen definitions can describe more
//! text than any model reads; the limits turn that into an error instead
//! of a hang or an out-of-memory crash.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "a": ["$b $b"], "b": ["$c $c"], "c": ["$d $d"], "d": ["$e $e"], "e": ["$f $f"],
//!     "f": ["$g $g"], "g": ["$h $h"], "h": ["$i $i"], "i": ["$j $j"], "j": ["$k $k"],
//!     "k": ["$l $l"], "l": ["$m $m"], "m": ["$n $n"], "n": ["$o $o"], "o": ["$p $p"],
//!     "p": ["$q $q"], "q": ["$r $r"], "r": ["$s $s"], "s": ["$t $t"], "t": ["$u $u"],
//!     "u": ["Repeat this sentence."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "loud-task": {"model": "planning", "prompt": ["$a"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "u": ["Repeat this sentence."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "loud-task": {"model": "planning", "prompt": ["$u"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! A prompt that is too large is reported on the prompt, with its size; a
//! nesting too deep is reported on the `$variable` that goes one level too
//! far. Checking the size costs nothing: sizes are added up per variable,
//! never by building the text.

use text_size::TextRange;

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    expand::{MAX_EXPANDED_BYTES, MAX_EXPANSION_DEPTH},
    model::VariableUse,
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J019",
    name: "expansion-limit",
    summary: "Prompt expansion too deep or too large",
    severity: Severity::Error,
    source: include_str!("expansion_limit.rs"),
};

/// The prompt at `path` (written at `range`) expands to `len` bytes.
pub(crate) fn too_large(path: &At<'_>, range: TextRange, len: u64) -> JobDiagnostic {
    let size = if len == u64::MAX {
        "more than 18 exabytes".to_string()
    } else {
        format!("{len} bytes")
    };
    JobDiagnostic::new(
        &RULE,
        &path.render(),
        format!(
            "The expanded prompt is {size}, more than the limit of {MAX_EXPANDED_BYTES} bytes."
        ),
        range,
    )
}

/// `u`, in the prompt at `path`, would nest one level too deep.
pub(crate) fn too_deep(path: &At<'_>, u: &VariableUse) -> JobDiagnostic {
    JobDiagnostic::new(
        &RULE,
        &path.render(),
        format!(
            "Prompt variables nest more than {MAX_EXPANSION_DEPTH} levels deep here; ${} is not expanded.",
            u.name
        ),
        u.range,
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    /// `vaa` uses `vab` twice, ... the last one is "xx".
    fn doubling(n: usize) -> String {
        let mut vars: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#""v{}": ["$v{} $v{}"]"#,
                    letters(i),
                    letters(i + 1),
                    letters(i + 1)
                )
            })
            .collect();
        vars.push(format!(r#""v{}": ["xx"]"#, letters(n)));
        vars.join(", ")
    }

    #[test]
    fn exponential_growth_is_measured_not_built() {
        // 2^19 copies of "xx" and spaces: about 1.5 MiB.
        check(
            "J019",
            &entry(
                &doubling(19),
                r#""t": {"prompt": ["$vaa"], "requireUserInput": false}, "u": {"prompt": ["$vab"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J019 5:27-5:35 error: entry.tasks["t"].prompt: The expanded prompt is 1572863 bytes, more than the limit of 1048576 bytes.
            "#]],
        );
        // 2^200 (the size saturates), with 200 levels of nesting.
        check(
            "J019",
            &entry(
                &doubling(200),
                r#""t": {"prompt": ["$vaa"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J019 3:1416-3:1420 error: entry.tasks["t"].prompt/$vaa/$vab/$vac/$vad/$vae/$vaf/$vag/$vah/$vai/$vaj/$vak/$val/$vam/$van/$vao/$vap/$vaq/$var/$vas/$vat/$vau/$vav/$vaw/$vax/$vay/$vaz/$vba/$vbb/$vbc/$vbd/$vbe/$vbf/$vbg/$vbh/$vbi/$vbj/$vbk/$vbl/$vbm/$vbn/$vbo/$vbp/$vbq/$vbr/$vbs/$vbt/$vbu/$vbv/$vbw/$vbx/$vby/$vbz/$vca/$vcb/$vcc/$vcd/$vce/$vcf/$vcg/$vch/$vci/$vcj/$vck/$vcl: Prompt variables nest more than 64 levels deep here; $vcm is not expanded.
                J019 3:1421-3:1425 error: entry.tasks["t"].prompt/$vaa/$vab/$vac/$vad/$vae/$vaf/$vag/$vah/$vai/$vaj/$vak/$val/$vam/$van/$vao/$vap/$vaq/$var/$vas/$vat/$vau/$vav/$vaw/$vax/$vay/$vaz/$vba/$vbb/$vbc/$vbd/$vbe/$vbf/$vbg/$vbh/$vbi/$vbj/$vbk/$vbl/$vbm/$vbn/$vbo/$vbp/$vbq/$vbr/$vbs/$vbt/$vbu/$vbv/$vbw/$vbx/$vby/$vbz/$vca/$vcb/$vcc/$vcd/$vce/$vcf/$vcg/$vch/$vci/$vcj/$vck/$vcl: Prompt variables nest more than 64 levels deep here; $vcm is not expanded.
                J019 5:27-5:35 error: entry.tasks["t"].prompt: The expanded prompt is more than 18 exabytes, more than the limit of 1048576 bytes.
            "#]],
        );
    }

    #[test]
    fn nesting_depth() {
        let chain: Vec<String> = (0..70)
            .map(|i| format!(r#""d{}": ["$d{}"]"#, letters(i), letters(i + 1)))
            .collect();
        let vars = format!(r#"{}, "d{}": ["end"]"#, chain.join(", "), letters(70));
        check(
            "J019",
            &entry(
                &vars,
                r#""t": {"prompt": ["$daa"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J019 3:1101-3:1105 error: entry.tasks["t"].prompt/$daa/$dab/$dac/$dad/$dae/$daf/$dag/$dah/$dai/$daj/$dak/$dal/$dam/$dan/$dao/$dap/$daq/$dar/$das/$dat/$dau/$dav/$daw/$dax/$day/$daz/$dba/$dbb/$dbc/$dbd/$dbe/$dbf/$dbg/$dbh/$dbi/$dbj/$dbk/$dbl/$dbm/$dbn/$dbo/$dbp/$dbq/$dbr/$dbs/$dbt/$dbu/$dbv/$dbw/$dbx/$dby/$dbz/$dca/$dcb/$dcc/$dcd/$dce/$dcf/$dcg/$dch/$dci/$dcj/$dck/$dcl: Prompt variables nest more than 64 levels deep here; $dcm is not expanded.
            "#]],
        );
    }

    /// A name of letters for `i` (variable names cannot hold digits).
    fn letters(i: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (i / 26) as u8) as char,
            (b'a' + (i % 26) as u8) as char
        )
    }
}
