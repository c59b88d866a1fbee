//! The network file: its versions (one magic each, so that every file
//! ever written keeps its bytes and meaning), its header, its size, and
//! [`NetFile`], the weights of a file of any width as the trainer reads
//! and writes them. Why apart from the evaluation: the trainer and the
//! checks read files of any shape, while [`Network`](super::Network) is the one shape
//! compiled in.

use super::kings::{is_plain, king_buckets, KingMap, MIRROR, PLAIN_KINGS};
use super::{BUCKETS, HIDDEN, INPUTS, LANES};

/// First bytes of a network file with one output layer: format name and
/// version.
pub const MAGIC: &[u8; 8] = b"C960NN02";

/// First bytes of a network file with output buckets. Why a second
/// version rather than a new one for all: every one-bucket file written
/// before buckets existed keeps its bytes, and a one-bucket network is
/// still written in that form.
pub const MAGIC_BUCKETS: &[u8; 8] = b"C960NN03";

/// First bytes of a network file with a second hidden layer (any number
/// of buckets, one included). A new version so that every earlier file
/// keeps its bytes and meaning.
pub const MAGIC_LAYERS: &[u8; 8] = b"C960NN04";

/// First bytes of a network file whose first layer depends on where the
/// viewer's own king stands ([`KingMap`]): king buckets, the board
/// mirrored left to right, or both. A new version so that every earlier
/// file keeps its bytes and meaning; a network without king buckets is
/// still written in one of the older forms.
pub const MAGIC_KINGS: &[u8; 8] = b"C960NN05";

/// Bytes before the weights of a [`MAGIC`] file: the magic, the hidden
/// size and the kind.
pub(super) const HEADER: usize = 16;

/// Bytes before the weights of a [`MAGIC_BUCKETS`] file: [`HEADER`], then
/// the number of output buckets.
pub(super) const HEADER_BUCKETS: usize = 20;

/// Bytes before the weights of a [`MAGIC_LAYERS`] file: [`HEADER_BUCKETS`],
/// then the width of the second hidden layer.
pub(super) const HEADER_LAYERS: usize = 24;

/// Bytes before the weights of a [`MAGIC_KINGS`] file: [`HEADER_LAYERS`]
/// (with a width of 0 for no second layer), then the [`KingMap`].
pub(super) const HEADER_KINGS: usize = HEADER_LAYERS + 64;

/// The most king buckets a network may have. Why a bound: each bucket is
/// a copy of the first layer (`INPUTS * hidden` weights), which the
/// training data must fill; and a feature index must fit in a `u16`.
pub const MAX_KING_BUCKETS: usize = 32;

/// The widest second hidden layer a file may have. Why a bound: each of
/// its neurons costs `2 * HIDDEN` multiplications per evaluation, so a
/// few dozen already cost more than the first layer's update.
pub const MAX_LAYER2: usize = 256;

/// The most output buckets a network may have (one per piece count from 2
/// to 32 would be 31; more than 16 leaves too few positions per bucket).
pub const MAX_BUCKETS: usize = 16;

/// True if `bytes` start with `magic`.
pub(super) const fn starts_with(bytes: &[u8], magic: &[u8; 8]) -> bool {
    if bytes.len() < magic.len() {
        return false;
    }
    let mut i = 0;
    while i < magic.len() {
        if bytes[i] != magic[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Bytes before the weights of a file of `buckets` output buckets, a
/// second hidden layer of `layer2` neurons (0: none) and king map `kings`.
const fn header_size(buckets: usize, layer2: usize, kings: &KingMap) -> usize {
    if !is_plain(kings) {
        HEADER_KINGS
    } else if layer2 > 0 {
        HEADER_LAYERS
    } else if buckets == 1 {
        HEADER
    } else {
        HEADER_BUCKETS
    }
}

/// Size of a network file of `hidden` neurons, `buckets` output buckets,
/// a second hidden layer of `layer2` neurons (0: none) and king map
/// `kings`: the header, per neuron a first-layer column of [`INPUTS`]
/// weights per king bucket and a bias (`i16`), then per output bucket the
/// layers after it (`f32`): two output weights a first-layer neuron and a
/// bias; or, with a second layer, `2 * hidden` weights and a bias per
/// neuron of it, then one output weight per neuron of it and a bias.
pub const fn file_size(hidden: usize, buckets: usize, layer2: usize, kings: &KingMap) -> usize {
    let head = layer2 * (2 * hidden + 1) + out_inputs(hidden, layer2) + 1;
    header_size(buckets, layer2, kings)
        + hidden * 2 * (INPUTS * king_buckets(kings) + 1)
        + buckets * 4 * head
}

/// Inputs of the output layer of a network of `hidden` neurons and a
/// second hidden layer of `layer2` (0: none): that layer's neurons, or
/// without one both halves of the first layer. One function for the file,
/// the engine and the trainer.
pub const fn out_inputs(hidden: usize, layer2: usize) -> usize {
    if layer2 == 0 {
        2 * hidden
    } else {
        layer2
    }
}

fn read_i16s(bytes: &[u8], out: &mut [i16]) -> usize {
    for (o, c) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        *o = i16::from_le_bytes([c[0], c[1]]);
    }
    out.len() * 2
}

fn read_f32s(bytes: &[u8], out: &mut [f32]) -> usize {
    for (o, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
        *o = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    out.len() * 4
}

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// Not a network file of this format.
    #[error("not a chess960 network file (bad magic)")]
    Magic,
    /// A hidden size no network can have.
    #[error("network has {0} hidden neurons; the size must be a positive multiple of {LANES}")]
    Width(u32),
    /// Built for another hidden-layer size.
    #[error("network has {0} hidden neurons, this binary expects {HIDDEN}")]
    Hidden(u32),
    /// A number of output buckets no network can have.
    #[error("network has {0} output buckets; the number must be from 1 to {MAX_BUCKETS}")]
    Buckets(u32),
    /// Built for another number of output buckets.
    #[error("network has {0} output buckets, this binary expects {BUCKETS}")]
    OtherBuckets(u32),
    /// A second hidden layer no network can have.
    #[error("network has a second hidden layer of {0} neurons; the width must be from 1 to {MAX_LAYER2}")]
    Layer2(u32),
    /// A king map entry naming a bucket past the last one allowed.
    #[error("network's king map names bucket {0}; king buckets run from 0 to {max}", max = MAX_KING_BUCKETS - 1)]
    KingBucket(u8),
    /// A king-map file whose map is the plain one (one file per network:
    /// a plain network is written in an older form).
    #[error("network file has a king map without king buckets or mirroring")]
    PlainKings,
    /// Neither standalone (0) nor a correction to the hand-made eval (1).
    #[error("unknown network kind {0}")]
    Kind(u32),
    /// Wrong length.
    #[error("network file has {got} bytes, expected {expected}")]
    Size {
        /// Bytes in the file.
        got: usize,
        /// Bytes a file of its header's hidden size has.
        expected: usize,
    },
}

/// A network file's contents, at any width: what the trainer reads and
/// writes. [`Network`](super::Network) is the same weights at the compiled width, laid
/// out for the search.
///
/// The format: magic ([`MAGIC`] for one output bucket, [`MAGIC_BUCKETS`]
/// for several, [`MAGIC_LAYERS`] for a second hidden layer,
/// [`MAGIC_KINGS`] for a [`KingMap`] other than the plain one), hidden size
/// (u32), kind (u32: 1 if residual), the number of buckets (u32, not after
/// [`MAGIC`]), the second layer's width (u32, only after [`MAGIC_LAYERS`]
/// and [`MAGIC_KINGS`], where 0 is none), the king map (64 bytes, only
/// after [`MAGIC_KINGS`]), first-layer rows (one per input feature of each
/// king bucket, `hidden` weights each) and bias (i16). Then, all `f32`: with a second layer,
/// per bucket its rows (one per neuron, `2 * hidden` weights, the side to
/// move's half first), then per bucket its biases; then per bucket the
/// output weights (over the second layer's neurons, or over the first
/// layer's, the side to move's half first), then the buckets' output
/// biases. All little-endian. With one bucket and no second layer this
/// is the layout of every file written before buckets existed.
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    /// Hidden neurons per accumulator.
    pub hidden: usize,
    /// A correction to the hand-made evaluation (see [`Network::residual`](super::Network::residual)).
    pub residual: bool,
    /// Output buckets ([`bucket`](super::bucket)).
    pub buckets: usize,
    /// Neurons of the second hidden layer; 0 for none.
    pub layer2: usize,
    /// Which first-layer rows each side reads, by where its king stands.
    pub kings: KingMap,
    /// First-layer rows, flattened: `INPUTS * king_buckets(&kings) * hidden`.
    pub ft_weights: Vec<i16>,
    /// First-layer bias: `hidden`.
    pub ft_bias: Vec<i16>,
    /// Second-layer rows, bucket after bucket: `buckets * layer2 * 2 *
    /// hidden` (empty without that layer).
    pub l2_weights: Vec<f32>,
    /// Second-layer biases, bucket after bucket: `buckets * layer2`.
    pub l2_bias: Vec<f32>,
    /// Output weights, bucket after bucket: `buckets * layer2`, or
    /// `buckets * 2 * hidden` without a second layer.
    pub out_weights: Vec<f32>,
    /// Output biases: `buckets`.
    pub out_bias: Vec<f32>,
}

impl NetFile {
    /// Reads a network file of any width.
    ///
    /// # Errors
    /// [`NetError`] if the magic, the hidden size, the kind or the length
    /// is wrong.
    pub fn parse(bytes: &[u8]) -> Result<NetFile, NetError> {
        if bytes.len() < HEADER {
            return Err(NetError::Size {
                got: bytes.len(),
                expected: HEADER,
            });
        }
        let with_kings = starts_with(bytes, MAGIC_KINGS);
        let layered = starts_with(bytes, MAGIC_LAYERS);
        let bucketed = starts_with(bytes, MAGIC_BUCKETS);
        if !with_kings && !layered && !bucketed && !starts_with(bytes, MAGIC) {
            return Err(NetError::Magic);
        }
        let header = if with_kings {
            HEADER_KINGS
        } else if layered {
            HEADER_LAYERS
        } else if bucketed {
            HEADER_BUCKETS
        } else {
            HEADER
        };
        if bytes.len() < header {
            return Err(NetError::Size {
                got: bytes.len(),
                expected: header,
            });
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let width = word(8);
        let hidden = width as usize;
        if hidden == 0 || !hidden.is_multiple_of(LANES) {
            return Err(NetError::Width(width));
        }
        let buckets = if bucketed || layered || with_kings {
            // A bucketed file states a number other than 1: one bucket is
            // written in the older form, so each network has one file.
            let n = word(16);
            let least = if bucketed { 2 } else { 1 };
            if !(least..=MAX_BUCKETS as u32).contains(&n) {
                return Err(NetError::Buckets(n));
            }
            n as usize
        } else {
            1
        };
        let layer2 = if layered || with_kings {
            let n = word(20);
            let least = if layered { 1 } else { 0 };
            if !(least..=MAX_LAYER2 as u32).contains(&n) {
                return Err(NetError::Layer2(n));
            }
            n as usize
        } else {
            0
        };
        let mut kings = PLAIN_KINGS;
        if with_kings {
            kings.copy_from_slice(&bytes[HEADER_LAYERS..HEADER_KINGS]);
            if let Some(&bad) = kings
                .iter()
                .find(|e| usize::from(**e & !MIRROR) >= MAX_KING_BUCKETS)
            {
                return Err(NetError::KingBucket(bad & !MIRROR));
            }
            if is_plain(&kings) {
                return Err(NetError::PlainKings);
            }
        }
        let expected = file_size(hidden, buckets, layer2, &kings);
        if bytes.len() != expected {
            return Err(NetError::Size {
                got: bytes.len(),
                expected,
            });
        }
        let residual = match word(12) {
            0 => false,
            1 => true,
            other => return Err(NetError::Kind(other)),
        };
        let mut ft_weights = vec![0i16; INPUTS * king_buckets(&kings) * hidden];
        let mut ft_bias = vec![0i16; hidden];
        let mut l2_weights = vec![0f32; buckets * layer2 * 2 * hidden];
        let mut l2_bias = vec![0f32; buckets * layer2];
        let mut out_weights = vec![0f32; buckets * out_inputs(hidden, layer2)];
        let mut out_bias = vec![0f32; buckets];
        let mut at = header;
        at += read_i16s(&bytes[at..], &mut ft_weights);
        at += read_i16s(&bytes[at..], &mut ft_bias);
        at += read_f32s(&bytes[at..], &mut l2_weights);
        at += read_f32s(&bytes[at..], &mut l2_bias);
        at += read_f32s(&bytes[at..], &mut out_weights);
        read_f32s(&bytes[at..], &mut out_bias);
        Ok(NetFile {
            hidden,
            residual,
            buckets,
            layer2,
            kings,
            ft_weights,
            ft_bias,
            l2_weights,
            l2_bias,
            out_weights,
            out_bias,
        })
    }

    /// The file's bytes, in the format [`NetFile::parse`] reads.
    ///
    /// # Panics
    /// If the weight vectors do not have the lengths `hidden` and
    /// `buckets` give (a bug of the caller, not of any input).
    pub fn to_bytes(&self) -> Vec<u8> {
        let (h, b, l2) = (self.hidden, self.buckets, self.layer2);
        let plain = is_plain(&self.kings);
        assert!(
            (1..=MAX_BUCKETS).contains(&b)
                && l2 <= MAX_LAYER2
                && king_buckets(&self.kings) <= MAX_KING_BUCKETS
                && self.ft_weights.len() == INPUTS * king_buckets(&self.kings) * h
                && self.ft_bias.len() == h
                && self.l2_weights.len() == b * l2 * 2 * h
                && self.l2_bias.len() == b * l2
                && self.out_weights.len() == b * out_inputs(h, l2)
                && self.out_bias.len() == b,
            "network weights of the wrong shape for {h} hidden neurons, {b} buckets, \
             a second layer of {l2} and {} king buckets",
            king_buckets(&self.kings)
        );
        let mut out = Vec::with_capacity(file_size(h, b, l2, &self.kings));
        out.extend_from_slice(if !plain {
            MAGIC_KINGS
        } else if l2 > 0 {
            MAGIC_LAYERS
        } else if b == 1 {
            MAGIC
        } else {
            MAGIC_BUCKETS
        });
        out.extend_from_slice(&(h as u32).to_le_bytes());
        out.extend_from_slice(&u32::from(self.residual).to_le_bytes());
        if b > 1 || l2 > 0 || !plain {
            out.extend_from_slice(&(b as u32).to_le_bytes());
        }
        if l2 > 0 || !plain {
            out.extend_from_slice(&(l2 as u32).to_le_bytes());
        }
        if !plain {
            out.extend_from_slice(&self.kings);
        }
        for w in self.ft_weights.iter().chain(&self.ft_bias) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in self
            .l2_weights
            .iter()
            .chain(&self.l2_bias)
            .chain(&self.out_weights)
            .chain(&self.out_bias)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }
}
