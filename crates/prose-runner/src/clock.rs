//! Waiting, behind a trait so tests can run retries with backoff instantly
//! and see the delays that were asked for.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use futures::future::BoxFuture;

/// Something that waits.
pub trait Clock: Send + Sync {
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()>;
}

/// Real time (tokio's timer).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(duration))
    }
}

/// Returns at once and records every wait (tests).
#[derive(Debug, Clone, Default)]
pub struct FakeClock {
    sleeps: Arc<Mutex<Vec<Duration>>>,
}

impl FakeClock {
    pub fn new() -> Self {
        Self::default()
    }

    /// The waits asked for so far, in order.
    pub fn sleeps(&self) -> Vec<Duration> {
        self.sleeps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Clock for FakeClock {
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        self.sleeps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(duration);
        Box::pin(async {})
    }
}
