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
//! threads share no database and wait for nothing until the last batch;
//! they take the largest first, so that no large batch is left to the end
//! for one thread while the others stop. A file longer than a batch is a
//! batch of its own. A batch too large to share the work (more than a
//! core's share of all the text, [`schedule`]: a long file among a few
//! short ones) is analysed on every core as the editor does (its rules on
//! two threads), and so is the only batch: a check of a few files runs as
//! it did in one database.
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

/// How `batches` (each with its text's length, by `len`) are analysed on
/// `cores` cores: those to analyse one after the other, each on every
/// core, and those the threads share, the largest first.
///
/// A batch holding more than a core's share of all the text (`cores`
/// times its size exceeds the total) is analysed on every core: the others
/// could not keep the other cores busy while one thread analysed it. So is
/// a batch alone. The others are shared; a file longer than a batch among
/// them is taken first, on a thread of its own, while the other threads
/// take the rest: a long program gains little from a second core (the
/// 49 KB of the corpus's longest, 7%), and the corpus with a 196 KB program
/// added was checked 12% faster this way than with that program on both cores
/// first (docs/performance/peer-2026-12-02.md).
pub fn schedule<T>(
    batches: Vec<Vec<T>>,
    len: impl Fn(&T) -> usize,
    cores: usize,
) -> (Vec<Vec<T>>, Vec<Vec<T>>) {
    let size = |b: &[T]| b.iter().map(&len).sum::<usize>();
    let total: usize = batches.iter().map(|b| size(b)).sum();
    let (mut whole, mut shared): (Vec<_>, Vec<_>) = batches
        .into_iter()
        .partition(|b| size(b).saturating_mul(cores) > total);
    if shared.len() == 1 {
        whole.append(&mut shared);
    }
    // Stable: batches of a size keep their order.
    shared.sort_by_key(|b| std::cmp::Reverse(size(b)));
    (whole, shared)
}

#[cfg(test)]
mod tests {
    use super::{schedule, split};

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

    fn scheduled(batches: &[&[usize]], cores: usize) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let batches = batches.iter().map(|b| b.to_vec()).collect();
        schedule(batches, |n| *n, cores)
    }

    #[test]
    fn the_threads_take_the_largest_batches_first() {
        let (whole, shared) = scheduled(&[&[3, 4], &[9], &[2], &[5, 2], &[7]], 2);
        assert!(whole.is_empty());
        assert_eq!(shared, [vec![9], vec![3, 4], vec![5, 2], vec![7], vec![2]]);
    }

    #[test]
    fn a_batch_larger_than_a_cores_share_runs_on_every_core() {
        // 40 of 52: more than half, on two cores.
        let batches: &[&[usize]] = &[&[4], &[40], &[3, 5]];
        assert_eq!(
            scheduled(batches, 2),
            (vec![vec![40]], vec![vec![3, 5], vec![4]])
        );
        assert_eq!(
            scheduled(&[&[4], &[9], &[3, 5], &[9], &[8]], 4),
            (
                Vec::new(),
                vec![vec![9], vec![9], vec![3, 5], vec![8], vec![4]]
            )
        );
        // 10 of 39: more than a quarter, on four cores.
        assert_eq!(
            scheduled(&[&[4], &[10], &[3, 5], &[9], &[8]], 4),
            (vec![vec![10]], vec![vec![9], vec![3, 5], vec![8], vec![4]])
        );
        // Two long files of even size share the cores.
        assert_eq!(
            scheduled(&[&[25], &[30], &[10]], 2),
            (Vec::new(), vec![vec![30], vec![25], vec![10]])
        );
    }

    #[test]
    fn a_batch_alone_runs_on_every_core() {
        assert_eq!(scheduled(&[&[3, 4]], 2), (vec![vec![3, 4]], Vec::new()));
        assert_eq!(
            scheduled(&[&[40], &[3]], 2),
            (vec![vec![40], vec![3]], Vec::new())
        );
        assert_eq!(scheduled(&[], 2), (Vec::new(), Vec::new()));
        // One core: nothing is larger than all the text.
        assert_eq!(
            scheduled(&[&[40], &[3], &[5]], 1),
            (Vec::new(), vec![vec![40], vec![5], vec![3]])
        );
    }
}
