//! Dropping an analysis's scratch structures after its result is out.
//!
//! A file's rule context ([`crate::openprose::ctx::Ctx`]) holds a handle
//! for every node the rules index and the helpers they share: freeing
//! them is a few per cent of a keystroke's work in a long program, done
//! before the diagnostics query returns, so before the language server
//! can send them. The server computes the first part of the rules (or
//! the diagnostics) on a spare thread ([`drop_after`] around that
//! computation): there, the scratch structures are set aside and freed
//! once the result is stored, while the other thread computes or converts.
//! Its own thread computes the second part of the rules meanwhile
//! (`openprose/rule_parts.rs`), then the diagnostics, inside a
//! [`drop_after`] around the whole run: that part's context and the
//! findings kept for typing in a prompt that its result replaces
//! (`openprose/prompt_edit.rs`) are freed once the diagnostics are
//! published. Elsewhere they are dropped where they were, as before.
//!
//! Node handles are tied to their thread, so what is set aside stays on
//! the thread that made it (a thread-local bin) and is freed there.

use std::{
    any::Any,
    cell::{Cell, RefCell},
};

thread_local! {
    static DEFERRING: Cell<bool> = const { Cell::new(false) };
    static BIN: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f`, setting aside the scratch structures the analysis drops
/// meanwhile on this thread, then drops them and returns `f`'s result.
pub fn drop_after<T>(f: impl FnOnce() -> T) -> T {
    let outer = DEFERRING.replace(true);
    // Dropped also when `f` unwinds (a cancelled query).
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            DEFERRING.set(self.0);
            if !self.0 {
                let set_aside = BIN.take();
                drop(set_aside);
            }
        }
    }
    let _reset = Reset(outer);
    f()
}

/// Drops `value` now, or once the enclosing [`drop_after`] is done.
pub(crate) fn drop_later<T: 'static>(value: T) {
    if DEFERRING.get() {
        BIN.with_borrow_mut(|bin| bin.push(Box::new(value)));
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;

    #[test]
    fn set_aside_until_the_outermost_call_is_done() {
        let value = Rc::new(());
        let held = Rc::clone(&value);
        drop_later(held);
        assert_eq!(Rc::strong_count(&value), 1, "dropped at once outside");
        drop_after(|| {
            drop_later(Rc::clone(&value));
            drop_after(|| drop_later(Rc::clone(&value)));
            assert_eq!(Rc::strong_count(&value), 3, "both set aside");
        });
        assert_eq!(Rc::strong_count(&value), 1, "dropped at the end");
    }

    #[test]
    fn dropped_when_the_computation_unwinds() {
        let value = Rc::new(());
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            drop_after(|| {
                drop_later(Rc::clone(&value));
                panic!("cancelled");
            })
        }));
        assert!(caught.is_err());
        assert_eq!(Rc::strong_count(&value), 1);
        // And nothing is set aside afterwards.
        drop_later(Rc::clone(&value));
        assert_eq!(Rc::strong_count(&value), 1);
    }
}
