//! Lists kept sorted by a key. Tested here and through its callers, each
//! against a stable sort: the merge of the declarations
//! (`openprose::rules::variables_shared`) and of the two parts'
//! diagnostics (`diagnostics::merge_finished`).

/// `a` and `b`, each sorted by `key`, merged into one list sorted by
/// `key`: on a tie `a`'s element first, so the result is the stable sort
/// of `a` followed by `b`.
pub(crate) fn merge_by_key<T, K: Ord>(a: Vec<T>, b: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let mut b = b.into_iter().peekable();
    for d in a {
        while let Some(e) = b.next_if(|e| key(e) < key(&d)) {
            out.push(e);
        }
        out.push(d);
    }
    out.extend(b);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn ties_keep_the_first_lists_elements_first() {
        let a = vec![(1, 'a'), (3, 'a')];
        let b = vec![(0, 'b'), (1, 'b'), (3, 'b'), (4, 'b')];
        assert_eq!(
            super::merge_by_key(a, b, |e| e.0),
            [(0, 'b'), (1, 'a'), (1, 'b'), (3, 'a'), (3, 'b'), (4, 'b')]
        );
    }
}
