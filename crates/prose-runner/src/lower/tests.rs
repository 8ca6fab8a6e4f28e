use super::*;
use crate::backend::{PermissionKind, PermissionValue};
use crate::ir::{Expr, Join, OnFail, Persist, Piece, StmtKind};

fn lowered(src: &str) -> Lowered {
    lower(src)
}

#[test]
fn agents_sessions_and_properties() {
    let l = lowered(
        "agent captain:\n  model: opus\n  persist: true\n  prompt: \"\"\"\n    You lead.\n    Always.\n    \"\"\"\n  permissions:\n    read: [\"*.md\"]\n    bash: deny\n  early_exit: true\n\nlet plan = session: captain\n  prompt: \"Plan {topic.name} now\"\n  retry: 2\n  backoff: \"exponential\"\n  timeout: 120s\n",
    );
    let p = &l.program;
    let captain = &p.agents["captain"];
    assert_eq!(captain.props.model.as_deref(), Some("opus"));
    assert_eq!(captain.props.persist, Some(Persist::Run));
    assert_eq!(
        captain.props.prompt.as_ref().unwrap().raw(),
        "You lead.\nAlways."
    );
    let perms = captain.props.permissions.as_ref().unwrap();
    assert_eq!(perms.rules[0].kind, PermissionKind::Read);
    assert_eq!(
        perms.rules[0].value,
        PermissionValue::Patterns(vec!["*.md".into()])
    );
    assert_eq!(perms.rules[1].value, PermissionValue::Deny);
    assert_eq!(l.ignored.len(), 1);
    assert_eq!(l.ignored[0].0, "property `early_exit`");
    assert_eq!(l.ignored[0].1.line, 11);

    let StmtKind::Let {
        value: Expr::Session(s),
        ..
    } = &p.body.last().unwrap().kind
    else {
        panic!("{:?}", p.body)
    };
    assert_eq!(s.agent.as_deref(), Some("captain"));
    assert_eq!(s.site.line, 13);
    assert_eq!(s.props.timeout_ms, Some(120_000));
    let prompt = s.props.prompt.as_ref().unwrap();
    assert_eq!(
        prompt.pieces[1],
        Piece::Var {
            name: "topic".into(),
            fields: vec!["name".into()],
            raw: "{topic.name}".into()
        }
    );
}

#[test]
fn parallel_modifiers_and_named_branches() {
    let l = lowered(
        "parallel (\"any\", count: 2, on-fail: \"ignore\"):\n  a = session \"A\"\n  session \"B\"\n",
    );
    let StmtKind::Expr(Expr::Parallel(p)) = &l.program.body[0].kind else {
        panic!()
    };
    assert_eq!(p.join, Join::Any);
    assert_eq!(p.on_fail, OnFail::Ignore);
    assert!(p.count.is_some());
    assert_eq!(p.branches.len(), 2);
    assert_eq!(p.branches[0].name.as_deref(), Some("a"));
    assert!(matches!(
        p.branches[0].stmt.kind,
        StmtKind::Expr(Expr::Session(_))
    ));
    assert_eq!(p.branches[1].name, None);
}

#[test]
fn inputs_outputs_blocks_and_imports() {
    let l = lowered(
        "use \"@alice/research\" as research\ninput topic: \"The topic\"\nblock b(x, y):\n  output x\noutput report = do b(1, 2)\ninput later: **Proceed?**\n",
    );
    let p = &l.program;
    assert_eq!(p.imports["research"].path, "@alice/research");
    assert_eq!(
        p.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
        ["topic", "later"]
    );
    assert_eq!(p.inputs[1].prompt.raw(), "Proceed?");
    assert_eq!(p.outputs, ["report"]);
    assert_eq!(p.blocks["b"].params, ["x", "y"]);
    assert!(matches!(
        p.blocks["b"].body[0].kind,
        StmtKind::Output { name: None, .. }
    ));
}
