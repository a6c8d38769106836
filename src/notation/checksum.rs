//! FNV-1a 64, the one checksum and fingerprint of the project's files: the weights and network
//! files end with it, the archive's body and game keys, the shipped book's fingerprint in the
//! store, and the training files' headers name the weights by it.
//!
//! ```
//! use othello_explorer::notation::checksum::fnv1a;
//! // The published test vectors of FNV-1a 64.
//! assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
//! assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
//! ```

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}
