//! King layouts: which copy of the first layer each side's accumulator
//! reads, and whether it sees the board mirrored, by where its own king
//! stands ([`KingMap`]), and the named layouts `tune nnue --kings` offers.
//! Why apart: the file format, the evaluation and the trainer all read a
//! layout, and the names are the trainer's and the checks' vocabulary.

/// Which copy of the first layer a side's accumulator reads the board
/// through, and whether it sees the board mirrored left to right, by
/// where that side's own king stands: one entry per square, seen from
/// that side as the features are, holding the king bucket in its low bits
/// and [`MIRROR`] where the board is mirrored. All zeros ([`PLAIN_KINGS`])
/// is the plain network: one first layer, never mirrored.
///
/// Why: what a piece is worth depends on where the kings stand (a pawn
/// storm against a castled king, a rook on the king's file). A plain
/// network learns that only through sums of hidden neurons; a bucketed
/// one has a row per king region, piece and square. Mirroring halves what
/// there is to learn, as a position and its mirror image are nearly worth
/// the same (castling rights are not inputs).
pub type KingMap = [u8; 64];

/// The map of a network without king buckets or mirroring.
pub const PLAIN_KINGS: KingMap = [0; 64];

/// The bit of a [`KingMap`] entry that mirrors the board left to right.
pub const MIRROR: u8 = 0x80;

/// Number of king buckets (first-layer copies) `map` uses.
pub const fn king_buckets(map: &KingMap) -> usize {
    let mut most = 0;
    let mut i = 0;
    while i < 64 {
        let b = (map[i] & !MIRROR) as usize;
        if b > most {
            most = b;
        }
        i += 1;
    }
    most + 1
}

/// True for the map of a network without king buckets or mirroring.
pub(super) const fn is_plain(map: &KingMap) -> bool {
    let mut i = 0;
    while i < 64 {
        if map[i] != 0 {
            return false;
        }
        i += 1;
    }
    true
}

/// The named king layouts (`tune nnue --kings`), each with what it does.
pub const KING_LAYOUTS: [(&str, &str); 4] = [
    ("plain", "one first layer, never mirrored"),
    (
        "mirror",
        "one first layer; the board mirrored when the king is on files e-h",
    ),
    (
        "halves",
        "two first layers, for the king on files a-d and on files e-h; never mirrored",
    ),
    (
        "k4",
        "mirrored as `mirror`; four first layers, for the king on files a-b or c-d of its \
         first rank, on its second rank, and further up",
    ),
];

/// The [`KingMap`] of a layout of [`KING_LAYOUTS`], by name.
pub fn king_layout(name: &str) -> Option<KingMap> {
    let mut map = PLAIN_KINGS;
    for (sq, entry) in map.iter_mut().enumerate() {
        let (file, rank) = (sq % 8, sq / 8);
        let mirror = if file >= 4 { MIRROR } else { 0 };
        // The file once mirrored: 0..=3.
        let near = file.min(7 - file);
        *entry = match name {
            "plain" => 0,
            "mirror" => mirror,
            "halves" => u8::from(file >= 4),
            "k4" => {
                mirror
                    | match rank {
                        0 => u8::from(near >= 2),
                        1 => 2,
                        _ => 3,
                    }
            }
            _ => return None,
        };
    }
    Some(map)
}

/// The name of `map` among [`KING_LAYOUTS`], if it is one of them.
pub fn king_layout_name(map: &KingMap) -> Option<&'static str> {
    KING_LAYOUTS
        .iter()
        .map(|(name, _)| *name)
        .find(|name| king_layout(name).as_ref() == Some(map))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each named king layout has the buckets and mirroring it says, and
    /// is known by its name; an unknown name is none.
    #[test]
    fn king_layouts_are_what_they_say() {
        assert_eq!(king_layout("plain"), Some(PLAIN_KINGS));
        assert_eq!(king_layout("k5"), None);
        for (name, buckets, mirrored) in [
            ("plain", 1, false),
            ("mirror", 1, true),
            ("halves", 2, false),
            ("k4", 4, true),
        ] {
            let map = king_layout(name).expect("a named layout");
            assert_eq!(king_layout_name(&map), Some(name));
            assert_eq!(king_buckets(&map), buckets, "{name}");
            for sq in 0..64 {
                // Mirrored on files e-h only, if at all.
                let flips = map[sq] & MIRROR != 0;
                assert_eq!(flips, mirrored && sq % 8 >= 4, "{name} {sq}");
                if mirrored {
                    assert_eq!(map[sq] & !MIRROR, map[sq ^ 7] & !MIRROR, "{name} {sq}");
                }
            }
        }
        let k4 = king_layout("k4").expect("k4");
        // b1 and g1, d1 and e1, then the second rank and beyond.
        assert_eq!(
            [k4[1], k4[6] & !MIRROR, k4[3], k4[4] & !MIRROR],
            [0, 0, 1, 1]
        );
        assert_eq!([k4[12] & !MIRROR, k4[17], k4[63] & !MIRROR], [2, 3, 3]);
        assert!(KING_LAYOUTS.iter().all(|(n, _)| king_layout(n).is_some()));
    }
}
