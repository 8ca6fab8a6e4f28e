//! Reading `tasks[name]`: the task, its `availability` and its `criteria`.

use super::{Lower, anchor};
use crate::{
    json::Member,
    model::{Availability, Criteria, Task},
    path::At,
    rules::{condition_session_pair, invalid_failure_action},
};

const TASK_FIELDS: [&str; 5] = [
    "model",
    "prompt",
    "requireUserInput",
    "availability",
    "criteria",
];
const AVAILABILITY_FIELDS: [&str; 3] = ["previousJobKeywords", "previousTasks", "condition"];
const CRITERIA_FIELDS: [&str; 4] = [
    "toolExecuted",
    "failureAction",
    "condition",
    "runConditionInSameSession",
];

impl Lower {
    pub(super) fn task(&mut self, member: &Member, tasks: &At<'_>) -> Task {
        let path = tasks.key(member.key.as_str());
        let mut task = Task {
            name: member.key.clone(),
            range: member.value.range,
            model: None,
            prompt: None,
            require_user_input: None,
            availability: None,
            criteria: None,
        };
        let Some(object) = self.object(&member.value, &path) else {
            return task;
        };
        self.unknown_keys(&object, &path, &TASK_FIELDS);
        self.require(
            &object,
            &path,
            &["prompt", "requireUserInput"],
            anchor(Some(&member.key), &member.value),
        );
        for m in &object.members {
            let field = path.field(m.key.as_str());
            match m.key.as_str() {
                "model" => task.model = self.string(&m.value, &field),
                "prompt" => task.prompt = self.prompt(&m.value, &field),
                "requireUserInput" => task.require_user_input = self.flag(&m.value, &field),
                "availability" => task.availability = self.availability(m, &field),
                "criteria" => task.criteria = self.criteria(m, &field),
                _ => {}
            }
        }
        task
    }

    fn availability(&mut self, member: &Member, path: &At<'_>) -> Option<Availability> {
        let object = self.object(&member.value, path)?;
        self.unknown_keys(&object, path, &AVAILABILITY_FIELDS);
        let mut availability = Availability {
            range: object.range,
            previous_job_keywords: Vec::new(),
            previous_tasks: Vec::new(),
            condition: None,
        };
        for m in &object.members {
            let field = path.field(m.key.as_str());
            match m.key.as_str() {
                "previousJobKeywords" => {
                    availability.previous_job_keywords =
                        self.strings(&m.value, &field).unwrap_or_default();
                }
                "previousTasks" => {
                    availability.previous_tasks =
                        self.strings(&m.value, &field).unwrap_or_default();
                }
                "condition" => availability.condition = self.prompt(&m.value, &field),
                _ => {}
            }
        }
        Some(availability)
    }

    fn criteria(&mut self, member: &Member, path: &At<'_>) -> Option<Criteria> {
        let object = self.object(&member.value, path)?;
        self.unknown_keys(&object, path, &CRITERIA_FIELDS);
        self.require(&object, path, &["failureAction"], member.key.range());
        let mut criteria = Criteria {
            range: object.range,
            tool_executed: Vec::new(),
            failure_action: None,
            condition: None,
            run_condition_in_same_session: None,
        };
        for m in &object.members {
            let field = path.field(m.key.as_str());
            match m.key.as_str() {
                "toolExecuted" => {
                    criteria.tool_executed = self.strings(&m.value, &field).unwrap_or_default()
                }
                "failureAction" => {
                    criteria.failure_action = invalid_failure_action::read(self, &m.value, &field);
                }
                "condition" => criteria.condition = self.prompt(&m.value, &field),
                "runConditionInSameSession" => {
                    criteria.run_condition_in_same_session = self.flag(&m.value, &field);
                }
                _ => {}
            }
        }
        let condition = object.get("condition").map(|m| &m.key);
        let same_session = object.get("runConditionInSameSession").map(|m| &m.key);
        if let Some(d) = condition_session_pair::check(path, condition, same_session) {
            self.report(d);
        }
        Some(criteria)
    }
}
