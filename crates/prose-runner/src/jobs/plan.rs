//! What running a task will do, decided before anything runs: the model
//! option (one session, or a driving session beside the task session),
//! the models, and every prompt after static expansion with its code path
//! and line. The dry run prints it; the execution follows it.

use prose_jobs::{
    CodePath, ParsedEntry, expand_prompt_static,
    json::{JsonDocument, Value as JsonValue},
    model::{Entry, FailureKind, Prompt, Task},
};

/// The model option (seed 002, "Determine the Model Option").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One session is both the driving and the task session, with the
    /// task's model.
    Single,
    /// The driving session has `models.driving`, the task session the
    /// task's model.
    Double,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Single => "single",
            Mode::Double => "double",
        }
    }
}

/// A prompt of the task, statically expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptStep {
    /// The prompt after static expansion: prompt variables replaced,
    /// runtime variables (`$user-input`, ...) still written.
    pub text: String,
    /// Where it is in the entry (`entry.tasks["t"].prompt`).
    pub code_path: CodePath,
    /// Where it is in the task (`prompt`, `availability.condition`,
    /// `criteria.condition`, `criteria.failureAction[2]`).
    pub step: String,
    /// The 1-based line of the prompt's array in the entry.
    pub line: u32,
}

/// A model and why it is the one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelPick {
    /// The model id (`gpt-5.2`); `None` leaves it to the backend.
    pub id: Option<String>,
    /// Where it comes from, for people (`models.planning`).
    pub from: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AvailabilityPlan {
    /// `previousJobKeywords`, when given.
    pub previous_job_keywords: Option<Vec<String>>,
    /// `previousTasks`, when given.
    pub previous_tasks: Option<Vec<String>>,
    pub condition: Option<PromptStep>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CriteriaPlan {
    /// `toolExecuted`, when given.
    pub tool_executed: Option<Vec<String>>,
    pub condition: Option<PromptStep>,
    pub failure: FailurePlan,
}

/// `criteria.failureAction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailurePlan {
    pub kind: FailureKind,
    /// How many more attempts.
    pub retries: u32,
    /// The prompt of `RetryWithUserPrompt`.
    pub prompt: Option<PromptStep>,
}

/// Everything a task run does, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskPlan {
    pub task: String,
    pub mode: Mode,
    /// Why this mode, for people.
    pub mode_reason: String,
    pub task_model: ModelPick,
    pub driving_model: ModelPick,
    pub prompt: PromptStep,
    /// `requireUserInput`.
    pub user_input: bool,
    pub availability: Option<AvailabilityPlan>,
    pub criteria: Option<CriteriaPlan>,
}

/// How the run was asked to choose.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// The model of a task that names none (`--model`, `[runner] model`):
    /// a model key of the entry, or a model id.
    pub model: Option<String>,
    /// The single-model option, asked for (`--single-model`).
    pub single_model: bool,
}

/// The member at `path` (object keys; the last of duplicates, as the
/// entry's model reads them).
fn member<'a>(doc: &'a JsonDocument, path: &[&str]) -> Option<&'a JsonValue> {
    let mut v = doc.root.as_ref()?;
    for key in path {
        v = &v
            .as_object()?
            .iter()
            .rev()
            .find(|m| m.key.as_str() == *key)?
            .value;
    }
    Some(v)
}

/// The 1-based line of byte `offset` of `text`.
pub fn line_of(text: &str, offset: usize) -> u32 {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count() as u32
        + 1
}

fn strings(list: &[Option<prose_jobs::json::JsonString>]) -> Vec<String> {
    list.iter()
        .flatten()
        .map(|s| s.as_str().to_string())
        .collect()
}

impl TaskPlan {
    /// The plan of task `name` of `parsed` (read from `text`). Fails when
    /// there is no such task or a prompt does not expand (an entry that
    /// `validate` accepts always expands).
    pub fn new(
        parsed: &ParsedEntry,
        text: &str,
        name: &str,
        options: &PlanOptions,
    ) -> Result<TaskPlan, String> {
        let entry = &parsed.entry;
        let task = entry
            .task(name)
            .ok_or_else(|| format!("the entry has no task `{name}`"))?;
        let at = CodePath::entry().field("tasks").key(name);
        let step = |prompt: &Prompt, path: CodePath, boolean: bool| {
            let text_out =
                expand_prompt_static(entry, &path, prompt, boolean).map_err(|errors| {
                    errors
                        .iter()
                        .map(|e| e.message.clone())
                        .collect::<Vec<_>>()
                        .join("\n")
                })?;
            let step = path
                .as_str()
                .strip_prefix(at.as_str())
                .unwrap_or("")
                .trim_start_matches('.')
                .to_string();
            Ok::<_, String>(PromptStep {
                text: text_out,
                step,
                code_path: path,
                line: line_of(text, prompt.range.start().into()),
            })
        };
        let prompt = task
            .prompt
            .as_ref()
            .ok_or_else(|| format!("{}: the task has no prompt", at.field("prompt")))?;
        let prompt = step(prompt, at.field("prompt"), false)?;
        let has = |rest: &[&str]| {
            let mut path = vec!["tasks", name];
            path.extend_from_slice(rest);
            member(&parsed.json, &path).is_some()
        };

        let availability = match &task.availability {
            None => None,
            Some(a) => Some(AvailabilityPlan {
                previous_job_keywords: has(&["availability", "previousJobKeywords"])
                    .then(|| strings(&a.previous_job_keywords)),
                previous_tasks: has(&["availability", "previousTasks"])
                    .then(|| strings(&a.previous_tasks)),
                condition: match &a.condition {
                    Some(c) => Some(step(c, at.field("availability").field("condition"), true)?),
                    None => None,
                },
            }),
        };
        let criteria = match &task.criteria {
            None => None,
            Some(c) => {
                let path = at.field("criteria");
                let failure = match &c.failure_action {
                    Some(f) => FailurePlan {
                        kind: f.kind.unwrap_or(FailureKind::RetryWithNewSession),
                        retries: f.retries.unwrap_or(0),
                        prompt: match &f.prompt {
                            Some(p) => Some(step(p, path.field("failureAction").index(2), false)?),
                            None => None,
                        },
                    },
                    None => FailurePlan {
                        kind: FailureKind::RetryWithNewSession,
                        retries: 0,
                        prompt: None,
                    },
                };
                Some(CriteriaPlan {
                    tool_executed: has(&["criteria", "toolExecuted"])
                        .then(|| strings(&c.tool_executed)),
                    condition: match &c.condition {
                        Some(p) => Some(step(p, path.field("condition"), true)?),
                        None => None,
                    },
                    failure,
                })
            }
        };

        let (mode, mode_reason) = mode(task, options);
        let task_model = task_model(entry, task, options);
        let driving_model = match mode {
            Mode::Single => ModelPick {
                id: task_model.id.clone(),
                from: "the task's model: one session is the driving and the task session"
                    .to_string(),
            },
            Mode::Double => ModelPick {
                id: model_id(entry, "driving"),
                from: "models.driving".to_string(),
            },
        };
        Ok(TaskPlan {
            task: name.to_string(),
            mode,
            mode_reason,
            task_model,
            driving_model,
            prompt,
            user_input: task.require_user_input.is_some_and(|f| f.value),
            availability,
            criteria,
        })
    }

    /// How many attempts the task may take: 1 + the failure action's
    /// retries (1 without criteria).
    pub fn max_attempts(&self) -> u32 {
        self.criteria
            .as_ref()
            .map_or(1, |c| c.failure.retries.saturating_add(1))
    }
}

/// The model id of key `key` of `models` (not `reviewers`).
fn model_id(entry: &Entry, key: &str) -> Option<String> {
    entry
        .models
        .as_ref()?
        .keys
        .iter()
        .rev()
        .find(|k| k.key.as_str() == key)
        .map(|k| k.model.as_str().to_string())
}

/// Seed 002: the single-model option when it is asked for, or when
/// `criteria.runConditionInSameSession` is undefined (no criteria at all
/// included) or true.
fn mode(task: &Task, options: &PlanOptions) -> (Mode, String) {
    if options.single_model {
        return (Mode::Single, "asked for (--single-model)".into());
    }
    match &task.criteria {
        None => (Mode::Single, "the task has no criteria".into()),
        Some(c) => match c.run_condition_in_same_session {
            None => (
                Mode::Single,
                "criteria.runConditionInSameSession is not given".into(),
            ),
            Some(f) if f.value => (
                Mode::Single,
                "criteria.runConditionInSameSession is true".into(),
            ),
            Some(_) => (
                Mode::Double,
                "criteria.runConditionInSameSession is false".into(),
            ),
        },
    }
}

/// `models[task.model]`; for a task that names none, the run's model (a
/// model key, or a model id as written), else the backend's default.
fn task_model(entry: &Entry, task: &Task, options: &PlanOptions) -> ModelPick {
    if let Some(key) = &task.model {
        return ModelPick {
            id: model_id(entry, key.as_str()),
            from: format!("models.{}", key.as_str()),
        };
    }
    match &options.model {
        Some(m) => match model_id(entry, m) {
            Some(id) => ModelPick {
                id: Some(id),
                from: format!("models.{m}, from --model or [runner] model (the task names none)"),
            },
            None => ModelPick {
                id: Some(m.clone()),
                from: "--model or [runner] model (the task names none)".into(),
            },
        },
        None => ModelPick {
            id: None,
            from: "the backend's default (the task names no model; choose one with --model)".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENTRY: &str = r#"{
  "models": {"driving": "small", "planning": "big", "coding": "code", "reviewers": ["r"]},
  "promptVariables": {"ask": ["Call job_boolean_true or job_boolean_false:"], "go": ["Go on: $reported-false-reason"]},
  "grid": [{"keyword": "plan", "automate": true, "jobs": []}],
  "tasks": {
    "plan": {
      "model": "planning",
      "prompt": ["Plan it.", "$user-input"],
      "requireUserInput": true,
      "availability": {"previousTasks": [], "condition": ["$ask", "ready?"]},
      "criteria": {
        "runConditionInSameSession": false,
        "condition": ["$ask", "done?"],
        "failureAction": ["RetryWithUserPrompt", 2, ["$go"]]
      }
    },
    "free": {"prompt": ["Anything."], "requireUserInput": false}
  }
}"#;

    fn plan(name: &str, options: &PlanOptions) -> TaskPlan {
        TaskPlan::new(&prose_jobs::parse(ENTRY), ENTRY, name, options).unwrap()
    }

    #[test]
    fn a_double_model_task_with_every_step() {
        let p = plan("plan", &PlanOptions::default());
        assert_eq!(p.mode, Mode::Double);
        assert_eq!(p.task_model.id.as_deref(), Some("big"));
        assert_eq!(p.driving_model.id.as_deref(), Some("small"));
        assert_eq!(p.prompt.text, "Plan it.\n$user-input");
        assert_eq!(p.prompt.code_path.as_str(), r#"entry.tasks["plan"].prompt"#);
        assert_eq!(p.prompt.line, 8);
        assert_eq!(p.prompt.step, "prompt");
        let a = p.availability.as_ref().unwrap();
        assert_eq!(a.previous_tasks, Some(vec![]), "given, even empty");
        assert_eq!(a.previous_job_keywords, None, "not given");
        assert_eq!(
            a.condition.as_ref().unwrap().text,
            "Call job_boolean_true or job_boolean_false:\nready?"
        );
        let c = p.criteria.as_ref().unwrap();
        assert_eq!(c.tool_executed, None);
        assert_eq!(c.failure.kind, FailureKind::RetryWithUserPrompt);
        assert_eq!(c.failure.retries, 2);
        let retry = c.failure.prompt.as_ref().unwrap();
        assert_eq!(retry.text, "Go on: $reported-false-reason");
        assert_eq!(
            retry.code_path.as_str(),
            r#"entry.tasks["plan"].criteria.failureAction[2]"#
        );
        assert_eq!(retry.step, "criteria.failureAction[2]");
        assert_eq!(p.max_attempts(), 3);
        assert!(p.user_input);
    }

    #[test]
    fn single_model_when_asked_or_without_criteria_and_models_for_tasks_that_name_none() {
        let p = plan(
            "plan",
            &PlanOptions {
                single_model: true,
                ..Default::default()
            },
        );
        assert_eq!(p.mode, Mode::Single);
        assert_eq!(p.driving_model.id.as_deref(), Some("big"));

        let p = plan("free", &PlanOptions::default());
        assert_eq!(p.mode, Mode::Single);
        assert_eq!(p.mode_reason, "the task has no criteria");
        assert_eq!(p.task_model.id, None);
        assert_eq!(p.max_attempts(), 1);
        let by_key = plan(
            "free",
            &PlanOptions {
                model: Some("coding".into()),
                ..Default::default()
            },
        );
        assert_eq!(by_key.task_model.id.as_deref(), Some("code"));
        let by_id = plan(
            "free",
            &PlanOptions {
                model: Some("gpt-x".into()),
                ..Default::default()
            },
        );
        assert_eq!(by_id.task_model.id.as_deref(), Some("gpt-x"));
    }

    #[test]
    fn lines_are_one_based() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 99), 3);
    }
}
