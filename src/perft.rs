//! Perft: counting the leaves of the legal move tree.
