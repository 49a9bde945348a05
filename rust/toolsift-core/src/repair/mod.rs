//! Lenient JSON repair (being written).
