//! `prose check` analyses the files a batch at a time, each batch in a
//! database of its own that is freed once its diagnostics are taken.
//!
//! A database keeps every file's tree, names and rule results until it is
//! dropped: about 14 bytes for each byte of program text. Checked all in
//! one, the corpus (99 programs, 0.49 MB) peaked at 7 MB more than a check
//! of one line, and a workspace of 10 MB would hold 140 MB. In batches of
//! [`BYTES`], memory holds a batch a thread, whatever the size of the
//! workspace; the report keeps only each file's text and diagnostics.
//!
//! Each thread takes a batch at a time and analyses it alone, so the
//! threads share no database and wait for nothing until the last batch. A
//! file longer than a batch is a batch of its own, analysed on every core
//! as the editor does (its rules on two threads), and so is the only
//! batch: a check of a few files runs as it did in one database.
//!
//! Every batch loads what its files need (imported programs, memory files,
//! `/read` targets) as the language server does for the files open in it,
//! so a file's diagnostics are the same whichever batch it is in: they
//! depend on its text and on what it needs, never on which other files
//! are checked (`check_batches_tests.rs` compares the reports).

/// The text a batch holds, at most (unless one file is larger).
pub const BYTES: usize = 32 * 1024;

/// `items` in order, cut into batches of at most `bytes` bytes by `len`;
/// an item of more than `bytes` is a batch alone. No batch is empty.
pub fn split<T>(items: Vec<T>, len: impl Fn(&T) -> usize, bytes: usize) -> Vec<Vec<T>> {
    let mut batches: Vec<Vec<T>> = Vec::new();
    let mut size = 0;
    for item in items {
        let n = len(&item);
        match batches.last_mut() {
            Some(batch) if size + n <= bytes => {
                batch.push(item);
                size += n;
            }
            _ => {
                batches.push(vec![item]);
                size = n;
            }
        }
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::split;

    fn sizes(items: &[usize], bytes: usize) -> Vec<Vec<usize>> {
        split(items.to_vec(), |n| *n, bytes)
    }

    #[test]
    fn files_fill_a_batch_in_order() {
        assert_eq!(sizes(&[3, 4, 3, 5, 1], 10), [vec![3, 4, 3], vec![5, 1]]);
        assert_eq!(sizes(&[10, 1], 10), [vec![10], vec![1]]);
    }

    #[test]
    fn a_large_file_is_a_batch_alone() {
        assert_eq!(sizes(&[2, 30, 2], 10), [vec![2], vec![30], vec![2]]);
        assert_eq!(sizes(&[30], 10), [vec![30]]);
    }

    #[test]
    fn nothing_gives_no_batch() {
        assert!(sizes(&[], 10).is_empty());
        assert_eq!(sizes(&[0, 0], 10), [vec![0, 0]]);
    }
}
