//! Dev helper: print the tree of a file.
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    print!("{}", prose_syntax::parse(&text).debug_dump());
}
