//! FNV-1a (64 bits), the checksum that guards files against mix-ups:
//! the parts of a perft run (`perft::shard`), a training's checkpoint
//! (the tuner). Its value is fixed by its definition (Fowler, Noll and
//! Vo), so it stays the same across builds, platforms and Rust releases,
//! which the standard library's hasher does not promise. A guard against
//! mixing up honest files, not against forgery.

/// An FNV-1a hash over the bytes written so far.
#[derive(Debug, Clone)]
pub struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// The hash of no bytes.
    pub fn new() -> Fnv1a {
        Fnv1a(Fnv1a::OFFSET)
    }

    /// Hash `bytes` after those written before.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Fnv1a::PRIME);
        }
    }

    /// The hash of everything written.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a::new()
    }
}

#[cfg(test)]
mod tests {
    use super::Fnv1a;

    fn hash(parts: &[&[u8]]) -> u64 {
        let mut h = Fnv1a::new();
        for p in parts {
            h.write(p);
        }
        h.finish()
    }

    /// The published FNV-1a 64-bit test vectors (the FNV reference code's
    /// test suite, by Fowler, Noll and Vo), whole and written in pieces.
    #[test]
    fn matches_the_published_vectors() {
        assert_eq!(hash(&[]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash(&[b"a"]), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash(&[b"foobar"]), 0x8594_4171_f739_67e8);
        assert_eq!(hash(&[b"foo", b"", b"bar"]), 0x8594_4171_f739_67e8);
    }
}
