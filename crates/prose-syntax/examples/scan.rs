//! Dev helper: parse files, check losslessness, print errors.
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = prose_syntax::parse(&text);
        assert_eq!(
            parse.syntax_node().text().to_string(),
            text,
            "{path} not lossless"
        );
        for e in parse.errors() {
            let line = text[..usize::from(e.range.start())].matches('\n').count() + 1;
            println!("{path}:{line}: {e}");
        }
    }
}
