//! Code paths, the seed's way of saying where in the entry something is:
//! a JavaScript expression from `entry` (`entry.tasks["scrum-task"].model`,
//! `entry.grid[0].jobs[1].id`), and for prompts reached through prompt
//! variables, one `/$name` per variable (`entry.tasks["t"].prompt/$a/$b`).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CodePath(String);

impl CodePath {
    /// `entry`.
    pub fn entry() -> CodePath {
        CodePath("entry".into())
    }

    /// A path that starts with any text (a caller's own prefix).
    pub fn from_text(text: impl Into<String>) -> CodePath {
        CodePath(text.into())
    }

    /// `.name`
    pub fn field(&self, name: &str) -> CodePath {
        CodePath(format!("{}.{name}", self.0))
    }

    /// `["name"]`, the name written as a JSON string.
    pub fn key(&self, name: &str) -> CodePath {
        CodePath(format!("{}[{}]", self.0, quote(name)))
    }

    /// `.name` when `name` is a JavaScript identifier, else `["name"]`:
    /// how JavaScript writes a property access.
    pub fn member(&self, name: &str) -> CodePath {
        let mut chars = name.chars();
        let identifier = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if identifier {
            self.field(name)
        } else {
            self.key(name)
        }
    }

    /// `[index]`
    pub fn index(&self, index: usize) -> CodePath {
        CodePath(format!("{}[{index}]", self.0))
    }

    /// `/$name`: the prompt of variable `name`, expanded from this one.
    pub fn variable(&self, name: &str) -> CodePath {
        CodePath(format!("{}/${name}", self.0))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A code path not written out yet: the reader builds one on the stack for
/// every value it visits, and only a diagnostic writes it out
/// ([`At::render`]). Formatting every path eagerly cost more than reading
/// the JSON.
#[derive(Debug, Clone, Copy)]
pub(crate) struct At<'p> {
    parent: Option<&'p At<'p>>,
    seg: Seg<'p>,
}

#[derive(Debug, Clone, Copy)]
enum Seg<'p> {
    Entry,
    /// A path given as text (a caller's).
    Raw(&'p str),
    Variable(&'p str),
    Field(&'p str),
    Key(&'p str),
    Member(&'p str),
    Index(usize),
}

impl<'p> At<'p> {
    /// `entry`.
    pub(crate) const ENTRY: At<'static> = At {
        parent: None,
        seg: Seg::Entry,
    };

    /// A path given as text, such as a caller's [`CodePath`].
    pub(crate) fn raw(text: &'p str) -> At<'p> {
        At {
            parent: None,
            seg: Seg::Raw(text),
        }
    }

    fn child(&'p self, seg: Seg<'p>) -> At<'p> {
        At {
            parent: Some(self),
            seg,
        }
    }

    /// See [`CodePath::field`].
    pub(crate) fn field(&'p self, name: &'p str) -> At<'p> {
        self.child(Seg::Field(name))
    }

    /// See [`CodePath::key`].
    pub(crate) fn key(&'p self, name: &'p str) -> At<'p> {
        self.child(Seg::Key(name))
    }

    /// See [`CodePath::member`].
    pub(crate) fn member(&'p self, name: &'p str) -> At<'p> {
        self.child(Seg::Member(name))
    }

    /// See [`CodePath::index`].
    pub(crate) fn index(&'p self, index: usize) -> At<'p> {
        self.child(Seg::Index(index))
    }

    /// See [`CodePath::variable`].
    pub(crate) fn variable(&'p self, name: &'p str) -> At<'p> {
        self.child(Seg::Variable(name))
    }

    /// The code path, written out.
    pub(crate) fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(a) = at {
            segs.push(a.seg);
            at = a.parent;
        }
        let mut path = CodePath::entry();
        for seg in segs.iter().rev() {
            path = match *seg {
                Seg::Entry => CodePath::entry(),
                Seg::Raw(text) => CodePath::from_text(text),
                Seg::Variable(name) => path.variable(name),
                Seg::Field(name) => path.field(name),
                Seg::Key(name) => path.key(name),
                Seg::Member(name) => path.member(name),
                Seg::Index(i) => path.index(i),
            };
        }
        path.0
    }
}

/// `text` as a JSON string literal, quotes included.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::CodePath;

    #[test]
    fn lazy_paths_render_like_code_paths() {
        let entry = super::At::ENTRY;
        let tasks = entry.field("tasks");
        let task = tasks.key("a-b");
        let odd = task.member("x-y");
        assert_eq!(odd.index(3).render(), r#"entry.tasks["a-b"]["x-y"][3]"#);
        assert_eq!(task.member("model").render(), r#"entry.tasks["a-b"].model"#);
        assert_eq!(entry.render(), "entry");
        let raw = super::At::raw("file.json:entry.tasks");
        assert_eq!(
            raw.key("t").variable("a").render(),
            r#"file.json:entry.tasks["t"]/$a"#
        );
    }

    #[test]
    fn paths_read_like_the_seed() {
        let task = CodePath::entry().field("tasks").key("scrum-problem-task");
        assert_eq!(
            task.field("model").as_str(),
            r#"entry.tasks["scrum-problem-task"].model"#
        );
        assert_eq!(
            task.field("prompt")
                .variable("cppjob")
                .variable("defineRepoRoot")
                .as_str(),
            r#"entry.tasks["scrum-problem-task"].prompt/$cppjob/$defineRepoRoot"#
        );
        assert_eq!(
            CodePath::entry()
                .field("grid")
                .index(0)
                .field("jobs")
                .index(2)
                .as_str(),
            "entry.grid[0].jobs[2]"
        );
        assert_eq!(
            CodePath::entry().key("a\"b\\c\n").as_str(),
            r#"entry["a\"b\\c\n"]"#
        );
        assert_eq!(CodePath::entry().member("promt").as_str(), "entry.promt");
        assert_eq!(
            CodePath::entry().member("$schema2").as_str(),
            "entry.$schema2"
        );
        assert_eq!(CodePath::entry().member("a-b").as_str(), r#"entry["a-b"]"#);
        assert_eq!(CodePath::entry().member("").as_str(), r#"entry[""]"#);
    }
}
