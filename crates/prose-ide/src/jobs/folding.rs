//! Folding in job entries: every object and array whose contents span
//! lines, from after its opening bracket to the end of its last member, so
//! that the closing bracket's line stays visible (as editors fold JSON).

use prose_jobs::json::{Value, ValueKind};
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile},
    features::folding::{Fold, FoldKind},
    jobs::parsed,
};

pub(crate) fn folding_ranges(db: &dyn Db, file: SourceFile) -> Vec<Fold> {
    let text = file.text(db);
    let mut out = Vec::new();
    if let Some(root) = &parsed(db, file).json.root {
        fold(text, root, &mut out);
    }
    out.sort_by_key(|f| f.range.start());
    out
}

fn fold(text: &str, value: &Value, out: &mut Vec<Fold>) {
    let children: Vec<&Value> = match &value.kind {
        ValueKind::Object(members) => members.iter().map(|m| &m.value).collect(),
        ValueKind::Array(items) => items.iter().collect(),
        _ => return,
    };
    let last_end = match &value.kind {
        ValueKind::Object(members) => members.last().map(|m| m.value.range.end()),
        _ => children.last().map(|v| v.range.end()),
    };
    if let Some(end) = last_end {
        let start = value.range.start() + TextSize::from(1);
        if start < end && text[usize::from(start)..usize::from(end)].contains('\n') {
            out.push(Fold {
                range: TextRange::new(start, end),
                kind: FoldKind::Region,
            });
        }
    }
    for child in children {
        fold(text, child, out);
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::{fixture::Fixture, kind::FileKind};

    #[test]
    fn objects_and_arrays_over_several_lines() {
        let text = "{\n  \"a\": {\n    \"b\": [1,\n      2]\n  },\n  \"c\": [3]\n}\n";
        let (host, file) = Fixture::parse_as(text, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let shown: Vec<String> = a
            .folding_ranges(file)
            .unwrap()
            .iter()
            .map(|f| format!("{:?}", &text[f.range]))
            .collect();
        expect![[r#"
            "\n  \"a\": {\n    \"b\": [1,\n      2]\n  },\n  \"c\": [3]"
            "\n    \"b\": [1,\n      2]"
            "1,\n      2""#]]
        .assert_eq(&shown.join("\n"));
    }
}
