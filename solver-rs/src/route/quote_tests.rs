//! Routing rules: filled in below.
