//! A caller's hook, called now and then from the long loops of a parse
//! (see [`crate::parse_interruptible`]): a caller that must be able to stop
//! a parse of megabytes (the analysis, when an edit arrives) panics from
//! it, and the parse unwinds. Without a panic nothing changes.

/// Calls its hook every [`Interrupt::EVERY`] steps. The loops count their
/// steps and report them a few dozen at a time ([`Interrupt::tick_by`]).
pub(crate) struct Interrupt<'a> {
    hook: &'a dyn Fn(),
    count: std::cell::Cell<u32>,
}

impl<'a> Interrupt<'a> {
    /// Steps (tokens, events) between two calls: a few milliseconds of work.
    pub(crate) const EVERY: u32 = 1 << 15;

    pub(crate) fn new(hook: &'a dyn Fn()) -> Self {
        Interrupt {
            hook,
            count: std::cell::Cell::new(0),
        }
    }

    /// Counts `n` steps at once (a loop that ticks once every `n` steps
    /// instead of every step); calls the hook when they cross a multiple
    /// of [`Self::EVERY`].
    #[inline]
    pub(crate) fn tick_by(&self, n: u32) {
        let before = self.count.get();
        let count = before.wrapping_add(n);
        self.count.set(count);
        if count / Self::EVERY != before / Self::EVERY {
            (self.hook)();
        }
    }
}

/// A hook that does nothing.
pub(crate) fn never() {}

#[cfg(test)]
mod tests {
    use std::{cell::Cell, panic};

    #[test]
    fn a_panicking_hook_stops_a_parse_and_a_quiet_one_changes_nothing() {
        let text = "let x = session \"a\"\n".repeat(20_000);
        let calls = Cell::new(0u32);
        let counting = || calls.set(calls.get() + 1);
        let parse = crate::parse_interruptible(&text, &counting);
        assert!(parse == crate::parse(&text));
        // Lexer, layout, parser and tree each call it.
        assert!(calls.get() >= 4, "{} calls", calls.get());
        let stopped =
            panic::catch_unwind(|| crate::parse_interruptible(&text, &|| panic::panic_any("stop")));
        assert_eq!(*stopped.unwrap_err().downcast::<&str>().unwrap(), "stop");
    }
}
