//! Openings files (EPD, PGN) for match runners.
