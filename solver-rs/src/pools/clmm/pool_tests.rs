//! Pool-level tests: see below.
