//! timeman
