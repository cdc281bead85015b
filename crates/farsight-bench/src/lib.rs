//! farsight-bench as a library: the corpus reader and the scorers, shared
//! by the `farsight-bench` command (`main.rs`) and the regression gate of
//! the test suite (`tests/gate.rs`), so both score a page the same way.

pub mod corpus;
pub mod score;
