//! Diagnostics as plain data, the rule registry of every language, and
//! the query that runs them.
//!
//! Every code lives in its own file under its language's folder
//! (`openprose/rules/`, ...): its `//!` doc comment is the code's
//! documentation (rendered to `docs/diagnostics/CODE.md` and printed by
//! `prose explain CODE`), followed by a [`Rule`] constant, the check, and
//! its tests. A rule reports ranges and messages; the severity comes from
//! the active profile and the configuration, the same way for every
//! language.

#[cfg(test)]
mod tests;

use prose_syntax::{TextRange, TextSize};

use crate::{
    config::{Config, Level, Profile},
    db::{Db, FileRoot, SourceFile, Workspace, file_kind, file_root},
    kind::FileKind,
    openprose::ctx::Ctx,
};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A stable diagnostic code such as `E004`, `W001` or `P601`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DiagnosticCode(pub &'static str);

impl DiagnosticCode {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// A secondary location that explains a diagnostic (e.g. the first definition).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub path: String,
    pub range: TextRange,
    pub message: String,
}

/// Extra meaning an editor can show (faded text, strike-through).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    Unnecessary,
    Deprecated,
}

/// One diagnostic: code, severity, message, exact range, related locations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    /// The rule's kebab-case name (`duplicate-agent`).
    pub name: &'static str,
    pub severity: Severity,
    pub message: String,
    pub range: TextRange,
    pub related: Vec<Related>,
    pub tags: Vec<Tag>,
}

/// A diagnostic rule: metadata plus its check.
pub struct Rule {
    pub code: &'static str,
    /// Kebab-case name of the bad pattern (`duplicate-agent`).
    pub name: &'static str,
    /// One line: what is wrong (the spec's wording where it has one).
    pub summary: &'static str,
    /// Severity under the `strict` profile: the specification's.
    pub strict: Severity,
    /// Level under the `default` profile (calibrated on real programs).
    pub default: Level,
    /// The rule file's source (`include_str!`), whose `//!` comment is the docs.
    pub source: &'static str,
    pub check: Check,
}

/// How a rule finds its problems, by language.
#[derive(Clone, Copy)]
pub enum Check {
    /// An OpenProse rule: a pass over the program's tree and names.
    OpenProse(fn(&Ctx<'_>, &mut Acc)),
    /// Reported by the host (CLI, server) about a file it could not
    /// check (`crate::host`); never configurable.
    Host,
    /// Reported by the front end of another language (job entries, Pattern
    /// Dialect, markdown: their crates hold each check and its docs in a
    /// file of their own) under this rule's code, for files of this kind.
    /// The language's folder in this crate turns the front end's findings
    /// into [`Acc`]s with [`front_end_accs`].
    FrontEnd(FileKind),
}

impl Check {
    /// The kind of file the rule checks (and its docs examples are
    /// written in); `None` for a host rule, which applies to any file.
    pub fn kind(self) -> Option<FileKind> {
        match self {
            Check::OpenProse(_) => Some(FileKind::OpenProse),
            Check::Host => None,
            Check::FrontEnd(kind) => Some(kind),
        }
    }
}

impl Rule {
    /// The docs page: the rule file's leading `//!` comment as Markdown.
    pub fn docs(&self) -> String {
        prose_rule_docs::page(self.source)
    }

    /// The level under `profile`, before per-code overrides.
    pub fn level(&self, profile: Profile) -> Level {
        match profile {
            Profile::Strict => Level::On(self.strict),
            Profile::Default => self.default,
        }
    }
}

/// A rule whose checks live in a language's front end: its metadata and
/// docs come from the front end's own rule table (`source` is the front
/// end's rule file, whose `//!` comment is the docs page). The front end
/// gives each check one severity, used by both profiles unless
/// `default` calibrates it.
pub(crate) fn front_end_rule(
    kind: FileKind,
    code: &'static str,
    name: &'static str,
    summary: &'static str,
    strict: Severity,
    default: Level,
    source: &'static str,
) -> &'static Rule {
    Box::leak(Box::new(Rule {
        code,
        name,
        summary,
        strict,
        default,
        source,
        check: Check::FrontEnd(kind),
    }))
}

/// One finding of a language front end, in the engine's terms.
pub(crate) struct Finding {
    pub code: &'static str,
    pub range: TextRange,
    pub message: String,
    pub related: Vec<Related>,
    pub tags: Vec<Tag>,
}

/// Groups a front end's findings into one [`Acc`] per rule of `rules`
/// (skipping the rules `config` turns off); a finding whose code is not
/// in `rules` is a bug of the registry and panics in debug builds.
pub(crate) fn front_end_accs(
    config: &Config,
    rules: &[&'static Rule],
    findings: impl IntoIterator<Item = Finding>,
) -> Vec<Acc> {
    let mut accs: Vec<Acc> = rules
        .iter()
        .filter(|r| !is_off(config, r))
        .map(|r| Acc::new(r))
        .collect();
    for f in findings {
        match accs.iter_mut().find(|a| a.rule.code == f.code) {
            Some(acc) => acc.push(f.range, f.message, f.related, f.tags, None),
            None => debug_assert!(
                rules.iter().any(|r| r.code == f.code),
                "a front end reported {}, which no rule of its registry has",
                f.code
            ),
        }
    }
    accs
}

/// All rules of every language, ordered by code.
pub fn all_rules() -> &'static [&'static Rule] {
    static RULES: std::sync::OnceLock<Vec<&'static Rule>> = std::sync::OnceLock::new();
    RULES.get_or_init(|| {
        let mut all: Vec<&'static Rule> = crate::openprose::rules::rules().to_vec();
        all.extend(crate::host::RULES);
        all.extend(crate::dialect::rules());
        all.extend(crate::markdown::rules());
        all.extend(crate::jobs::rules());
        all.sort_by_key(|r| r.code);
        all
    })
}

pub fn rule(code: &str) -> Option<&'static Rule> {
    all_rules()
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code) || r.name == code)
}

/// The docs page for `code` (or rule name).
pub fn rule_docs(code: &str) -> Option<String> {
    rule(code).map(|r| r.docs())
}

/// One reported problem, before severities are applied.
#[derive(Clone, PartialEq, Eq)]
struct Reported {
    range: TextRange,
    message: String,
    related: Vec<Related>,
    tags: Vec<Tag>,
    /// Overrides the rule's `default`-profile level for this occurrence.
    default: Option<Level>,
}

impl Reported {
    /// The same report at `range`, with its related locations in file
    /// `path` mapped by `f`; `None` if `f` cannot map one.
    fn moved(
        &self,
        range: TextRange,
        path: &str,
        f: impl Fn(TextRange) -> Option<TextRange>,
    ) -> Option<Reported> {
        let related = self
            .related
            .iter()
            .map(|rel| {
                Some(Related {
                    path: rel.path.clone(),
                    range: if rel.path == path {
                        f(rel.range)?
                    } else {
                        rel.range
                    },
                    message: rel.message.clone(),
                })
            })
            .collect::<Option<_>>()?;
        Some(Reported {
            range,
            message: self.message.clone(),
            related,
            tags: self.tags.clone(),
            default: self.default,
        })
    }
}

/// Collects what one rule reports.
#[derive(Clone)]
pub struct Acc {
    rule: &'static Rule,
    out: Vec<Reported>,
    /// Whether the reports whose `default`-profile level is off are left
    /// out as they are made ([`Acc::shows`]): set for a configuration under
    /// which [`finish`] would drop them.
    drops_off: bool,
}

/// The same rule (the same registry entry) and the same reports.
impl PartialEq for Acc {
    fn eq(&self, other: &Acc) -> bool {
        std::ptr::eq(self.rule, other.rule) && self.out == other.out
    }
}

impl Eq for Acc {}

impl Acc {
    /// An empty collector for `rule`.
    pub(crate) fn new(rule: &'static Rule) -> Acc {
        Acc {
            rule,
            out: Vec::new(),
            drops_off: false,
        }
    }

    /// An empty collector for `rule` whose reports will be finished under
    /// `config`: a report whose `default`-profile level is off is not kept
    /// when `config` would drop it (the `default` profile, no level set for
    /// the code), so a rule can skip making it ([`Acc::shows`]).
    pub(crate) fn for_config(rule: &'static Rule, config: &Config) -> Acc {
        Acc {
            drops_off: config.profile == Profile::Default
                && !config.severity.contains_key(rule.code),
            ..Acc::new(rule)
        }
    }

    /// Whether a report whose `default`-profile level is `default` would
    /// be kept ([`Acc::for_config`]): a rule need not make the message and
    /// notes of one that would not (E024 counts a line for each).
    pub(crate) fn shows(&self, default: Level) -> bool {
        !(self.drops_off && default == Level::Off)
    }

    fn push(
        &mut self,
        range: TextRange,
        message: String,
        related: Vec<Related>,
        tags: Vec<Tag>,
        default: Option<Level>,
    ) {
        self.out.push(Reported {
            range,
            message,
            related,
            tags,
            default,
        });
    }

    pub fn report(&mut self, range: TextRange, message: impl Into<String>) {
        self.push(range, message.into(), Vec::new(), Vec::new(), None);
    }

    pub fn report_related(
        &mut self,
        range: TextRange,
        message: impl Into<String>,
        related: Vec<Related>,
    ) {
        self.push(range, message.into(), related, Vec::new(), None);
    }

    pub fn report_tagged(&mut self, range: TextRange, message: impl Into<String>, tags: Vec<Tag>) {
        self.push(range, message.into(), Vec::new(), tags, None);
    }

    /// Reports with a `default`-profile level chosen for this occurrence
    /// (the `strict` profile always uses the rule's spec severity).
    pub fn report_calibrated(
        &mut self,
        range: TextRange,
        message: impl Into<String>,
        related: Vec<Related>,
        default: Level,
    ) {
        if !self.shows(default) {
            return;
        }
        self.push(range, message.into(), related, Vec::new(), Some(default));
    }

    pub fn code(&self) -> &'static str {
        self.rule.code
    }

    /// The rule that reported.
    pub(crate) fn rule(&self) -> &'static Rule {
        self.rule
    }

    /// The ranges of the reports and of their related locations in file
    /// `path`.
    pub(crate) fn ranges_in<'s>(&'s self, path: &'s str) -> impl Iterator<Item = TextRange> + 's {
        self.out.iter().flat_map(move |r| {
            std::iter::once(r.range).chain(
                r.related
                    .iter()
                    .filter(move |rel| rel.path == path)
                    .map(|rel| rel.range),
            )
        })
    }

    /// The same reports with every range of file `path` mapped by `f`;
    /// `None` if `f` cannot map one.
    pub(crate) fn mapped(
        &self,
        path: &str,
        f: impl Fn(TextRange) -> Option<TextRange>,
    ) -> Option<Acc> {
        let out = self
            .out
            .iter()
            .map(|r| r.moved(f(r.range)?, path, &f))
            .collect::<Option<_>>()?;
        Some(Acc {
            rule: self.rule,
            out,
            drops_off: self.drops_off,
        })
    }

    /// The reports of a rule that reports per name, after an edit of a
    /// few statements (`openprose/statement_edit.rs`): those whose range
    /// `f` maps (to where it now is) and `keep` accepts there, with every
    /// range of file `path` mapped by `f`, merged by where they start with
    /// `fresh`'s (the same rule's, made for the names `keep` refuses).
    /// `None` when `keep` cannot tell, or `f` cannot map a related
    /// location of a report kept.
    pub(crate) fn moved_merged(
        &self,
        path: &str,
        f: impl Fn(TextRange) -> Option<TextRange>,
        keep: impl Fn(TextRange) -> Option<bool>,
        fresh: Acc,
    ) -> Option<Acc> {
        debug_assert_eq!(self.rule.code, fresh.rule.code);
        let mut out = Vec::with_capacity(self.out.len() + fresh.out.len());
        let mut fresh = fresh.out.into_iter().peekable();
        for r in &self.out {
            let Some(range) = f(r.range) else {
                continue;
            };
            if !keep(range)? {
                continue;
            }
            while let Some(n) = fresh.next_if(|n| n.range.start() < range.start()) {
                out.push(n);
            }
            out.push(r.moved(range, path, &f)?);
        }
        out.extend(fresh);
        Some(Acc {
            rule: self.rule,
            out,
            drops_off: self.drops_off,
        })
    }

    /// Each report that lies inside `range` (with its related locations
    /// in file `path`) as a line, with ranges relative to the start of
    /// `range`, sorted (for tests that compare reports).
    #[cfg(test)]
    pub(crate) fn describe_in(&self, path: &str, range: TextRange) -> Vec<String> {
        let mut lines: Vec<String> = self
            .out
            .iter()
            .filter(|r| {
                range.contains_range(r.range)
                    && r.related
                        .iter()
                        .all(|rel| rel.path != path || range.contains_range(rel.range))
            })
            .map(|r| {
                let at = |x: TextRange| x - range.start();
                let related: Vec<_> = r
                    .related
                    .iter()
                    .map(|rel| {
                        let within = if rel.path == path {
                            at(rel.range)
                        } else {
                            rel.range
                        };
                        (rel.path.as_str(), within, rel.message.as_str())
                    })
                    .collect();
                format!(
                    "{} {:?} {:?} related {related:?} tags {:?} default {:?}",
                    self.rule.code,
                    at(r.range),
                    r.message,
                    r.tags,
                    r.default
                )
            })
            .collect();
        lines.sort();
        lines
    }

    /// How many reports were made.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.out.len()
    }

    /// The reports split by the range they lie in, each moved to start at
    /// its range's start: one collector per range of `ranges` (in text
    /// order, disjoint). `None` when a report, or a related location of it
    /// in file `path`, lies outside every range or across two.
    pub(crate) fn split(&self, path: &str, ranges: &[TextRange]) -> Option<Vec<Acc>> {
        let mut out: Vec<Acc> = ranges.iter().map(|_| Acc::new(self.rule)).collect();
        for r in &self.out {
            let i = ranges.partition_point(|x| x.end() <= r.range.start());
            let range = ranges.get(i).filter(|x| x.contains_range(r.range))?;
            let same_file = r.related.iter().filter(|rel| rel.path == path);
            if !same_file.clone().all(|rel| range.contains_range(rel.range)) {
                return None;
            }
            let moved = Acc {
                rule: self.rule,
                out: vec![r.clone()],
                drops_off: self.drops_off,
            }
            .moved(path, range.start(), TextSize::new(0));
            out[i].out.extend(moved.out);
        }
        Some(out)
    }

    /// Whether nothing was reported.
    pub(crate) fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The same reports for text moved: every range of file `path` (the
    /// reports' and their related locations') that starts at `from` or
    /// after it is moved to start at `to` instead.
    pub(crate) fn moved(&self, path: &str, from: TextSize, to: TextSize) -> Acc {
        self.mapped(path, |r| Some(r - from + to))
            .expect("moving a range never fails")
    }
}

/// The configuration of a file's root (the defaults without a workspace).
pub(crate) fn file_config(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Config {
    match workspace {
        Some(ws) => file_root(db, file, ws).config.clone(),
        None => FileRoot::outside(file.path(db), Config::default()).config,
    }
}

/// Whether `config` turns `rule` off (the rule need not run at all):
/// `[severity]` says `off`, or `select` / `ignore` leave it out.
pub(crate) fn is_off(config: &Config, rule: &Rule) -> bool {
    config.severity.get(rule.code) == Some(&Level::Off) || !config.is_selected(rule.code)
}

/// Every diagnostic of a file, sorted by position, with the configured
/// severities: the rules of the file's language ([`file_kind`]), then
/// those of the languages injected into it ([`crate::injection`]: the
/// instruction language in prompts, fenced programs), under the same
/// configuration.
///
/// Not compared with the previous list (`no_eq`): a list is computed again
/// only after an edit of its file or of what its rules read, which moves
/// or changes its diagnostics nearly always, and the few queries that
/// read it (a markdown file's fenced programs, a code lens) are computed
/// again after such an edit anyway. The comparison went through every
/// diagnostic before the edit (tens of microseconds on a long program, on
/// the way to the client).
#[salsa::tracked(returns(ref), no_eq)]
pub fn file_diagnostics(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Vec<Diagnostic> {
    let config = file_config(db, file, workspace);
    let mut out = match file_kind(db, file, workspace) {
        // Finished part by part (on two threads in the language server).
        FileKind::OpenProse => crate::openprose::rules::diagnostics(db, file, workspace, &config),
        FileKind::Dialect => finish(
            &config,
            crate::dialect::diagnostics(db, file, workspace, &config),
        ),
        FileKind::JobEntry => finish(&config, crate::jobs::diagnostics(db, file, &config)),
        FileKind::PromptFile => finish(
            &config,
            crate::markdown::diagnostics::prompt_diagnostics(db, file, workspace, &config),
        ),
        FileKind::Markdown => Vec::new(),
    };
    let injected = crate::injection::features::diagnostics(db, file, workspace, &config);
    if !injected.is_empty() {
        out.extend(injected);
        sort(&mut out);
    }
    out
}

/// Orders diagnostics by position, then code; drops repeats.
fn sort(out: &mut Vec<Diagnostic>) {
    out.sort_by_key(position);
    out.dedup();
}

/// What diagnostics are ordered by: position, then code.
fn position(d: &Diagnostic) -> (TextSize, TextSize, DiagnosticCode) {
    (d.range.start(), d.range.end(), d.code)
}

/// Applies the profile and the per-code overrides to what the rules
/// reported, and sorts the result by position.
pub(crate) fn finish(config: &Config, reported: Vec<Acc>) -> Vec<Diagnostic> {
    let mut out = finish_sorted(config, reported);
    out.dedup();
    out
}

/// [`finish`] but for dropping repeats: what each part of a file's rules
/// gives on its own thread, put together by [`merge_finished`].
pub(crate) fn finish_sorted(config: &Config, reported: Vec<Acc>) -> Vec<Diagnostic> {
    let mut out = Vec::with_capacity(reported.iter().map(|acc| acc.out.len()).sum());
    for acc in reported {
        let rule = acc.rule;
        if !config.is_selected(rule.code) {
            continue;
        }
        let configured = config.severity.get(rule.code).copied();
        for r in acc.out {
            let level = configured.unwrap_or(match config.profile {
                Profile::Strict => Level::On(rule.strict),
                Profile::Default => r.default.unwrap_or(rule.default),
            });
            let Level::On(severity) = level else { continue };
            out.push(Diagnostic {
                code: DiagnosticCode(rule.code),
                name: rule.name,
                severity,
                message: r.message,
                range: r.range,
                related: r.related,
                tags: r.tags,
            });
        }
    }
    // Stable: of two diagnostics at the same place with the same code,
    // the one reported first comes first.
    out.sort_by_key(position);
    out
}

/// Two lists from [`finish_sorted`], `a`'s reports then `b`'s, as
/// [`finish`] of both together gives them: merged by position (on a tie
/// `a`'s first, as the stable sort keeps them), repeats dropped. The
/// language server finishes the first part of a long program's rules on
/// the thread that computed it, while its job thread computes the second.
pub(crate) fn merge_finished(a: Vec<Diagnostic>, b: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out = crate::sorted::merge_by_key(a, b, position);
    out.dedup();
    out
}
