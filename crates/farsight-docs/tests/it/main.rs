//! farsight-docs' integration tests: documents made by the tests (see
//! `farsight_docs::testing`) read back, and hostile ones refused in bounds.

mod hostile;
mod office;
mod pdf;
