//! The salsa database: inputs and tracked queries.

use prose_syntax::Parse;

/// The database trait every query takes (`&dyn Db`).
#[salsa::db]
pub trait Db: salsa::Database {}

/// One source file: its workspace-relative (or absolute) path and text.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: String,
}

/// The concrete database.
#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
}

impl RootDatabase {
    /// A database whose salsa events go to `callback` (tests count
    /// `WillExecute` events with it to prove incrementality).
    pub fn with_event_callback(
        callback: Box<dyn Fn(salsa::Event) + Send + Sync + 'static>,
    ) -> Self {
        RootDatabase {
            storage: salsa::Storage::new(Some(callback)),
        }
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {}

/// Parses a file. Re-runs on every text change; queries that only read
/// derived summaries are shielded by backdating.
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    prose_syntax::parse(file.text(db))
}
