//! FEN in and out, for any position (not only start positions).
//!
//! Reading accepts every castling notation a GUI sends (plain FEN, X-FEN and
//! Shredder-FEN) because shakmaty's FEN parser understands all three and we
//! always build the position in [`CastlingMode::Chess960`], which is a
//! superset of standard castling. Writing offers both X-FEN (what shakmaty
//! prints) and Shredder-FEN (file letters, what cutechess and fastchess send).
//!
//! This is the one model of the Chess960 dialects GUIs and engines speak:
//! castles as king-takes-own-rook, as the king's move to its castled square
//! or as `O-O`/`O-O-O` ([`CastlingStyle`]), FENs in every castling flavour,
//! and FENs whose castling rights no rook backs ([`parse_fen_lenient`]).

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position,
    PositionError, Role,
};

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN syntax.
    #[error("bad FEN '{fen}': {reason}")]
    Syntax { fen: String, reason: String },
    /// The FEN is well-formed but describes an impossible or unsupported position.
    #[error("illegal position '{fen}': {reason}")]
    Position { fen: String, reason: String },
}

/// Parse a FEN (4 to 6 space-separated fields) into a position, reading the
/// castling field as plain FEN, X-FEN or Shredder-FEN.
///
/// # Errors
/// [`FenError::Syntax`] when the text is not a FEN, [`FenError::Position`]
/// when the position is illegal (e.g. side not to move in check, castling
/// rights without a rook, too many kings).
pub fn parse_fen(text: &str) -> Result<Chess, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let fen = fields.join(" ");
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::Syntax {
            fen,
            reason: format!("expected 4 to 6 fields, found {}", fields.len()),
        });
    }
    if let Err(e) = check_board_field(fields[0]) {
        let reason = e.to_string();
        return Err(FenError::Syntax { fen, reason });
    }
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| FenError::Syntax {
        fen: fen.clone(),
        reason: e.to_string(),
    })?;
    if parsed.as_setup().remaining_checks.is_some() || parsed.as_setup().pockets.is_some() {
        return Err(FenError::Syntax {
            fen,
            reason: "variant fields (pockets, remaining checks) are not chess".into(),
        });
    }
    parsed.into_position(CastlingMode::Chess960).map_err(|e| {
        // The set-up, read again from the text on this error path only:
        // a valid FEN does not pay for the message.
        let reason = match Fen::from_ascii(fen.as_bytes()) {
            Ok(f) => position_reason(f.as_setup(), e.kinds(), fields[2], &e.to_string()),
            Err(_) => e.to_string(),
        };
        FenError::Position { fen, reason }
    })
}

/// Why shakmaty refused a set-up, in words that name the culprit: which
/// king is in check with the other side to move, which pawn stands on a
/// back rank, which castling right no rook backs. shakmaty's own words
/// ("opposite check", "invalid ep square") name only the rule. Worked out
/// on the error path alone.
fn position_reason(
    setup: &shakmaty::Setup,
    kinds: shakmaty::PositionErrorKinds,
    castling_field: &str,
    shakmaty_words: &str,
) -> String {
    use shakmaty::PositionErrorKinds as K;
    let board = &setup.board;
    let name = |c: Color| if c.is_white() { "white" } else { "black" };
    let mut reasons = Vec::new();
    if kinds.contains(K::EMPTY_BOARD) {
        reasons.push("the board is empty".to_owned());
    }
    for color in Color::ALL {
        let kings = (board.kings() & board.by_color(color)).count();
        if kinds.contains(K::MISSING_KING) && kings == 0 && !kinds.contains(K::EMPTY_BOARD) {
            reasons.push(format!("{} has no king", name(color)));
        }
        if kinds.contains(K::TOO_MANY_KINGS) && kings > 1 {
            reasons.push(format!("{} has {kings} kings", name(color)));
        }
    }
    if kinds.contains(K::PAWNS_ON_BACKRANK) {
        let squares: Vec<String> = (board.pawns() & Bitboard::BACKRANKS)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        reasons.push(format!("a pawn on a back rank ({})", squares.join(", ")));
    }
    if kinds.contains(K::INVALID_CASTLING_RIGHTS) {
        reasons.push(
            castling_culprit(setup, castling_field).unwrap_or_else(|| {
                format!("castling rights '{castling_field}' do not fit the board")
            }),
        );
    }
    if kinds.contains(K::INVALID_EP_SQUARE) {
        let square = setup.ep_square.map_or("-".to_owned(), |sq| sq.to_string());
        reasons.push(format!(
            "en passant square {square} does not follow a pawn's double step by {}",
            name(!setup.turn)
        ));
    }
    if kinds.contains(K::OPPOSITE_CHECK) {
        reasons.push(format!(
            "{}'s king is in check with {} to move",
            name(!setup.turn),
            name(setup.turn)
        ));
    }
    if kinds.contains(K::IMPOSSIBLE_CHECK) {
        reasons.push(format!(
            "{}'s king is in a check no last move can have given",
            name(setup.turn)
        ));
    }
    if kinds.contains(K::TOO_MUCH_MATERIAL) {
        reasons.push("more pieces than promotions can give a side".to_owned());
    }
    if reasons.is_empty() {
        // A kind this function does not know: shakmaty's own words.
        reasons.push(shakmaty_words.to_owned());
    }
    reasons.join("; ")
}

/// A FEN read leniently: the position, and the castling rights of the FEN
/// that were dropped because no rook backs them.
#[derive(Debug, Clone)]
pub struct LenientFen {
    /// The position, with the castling rights some rook backs.
    pub position: Chess,
    /// Each dropped right as the FEN wrote it, with the reason
    /// (`castling right 'D' has no white rook on d1`).
    pub dropped: Vec<String>,
    /// An en passant square no pawn can have just passed over (`d6` with
    /// no black pawn on d5), dropped as Stockfish and python-chess drop it.
    pub dropped_ep: Option<shakmaty::Square>,
    /// More material than a game can reach (nine pawns, three rooks beside
    /// eight pawns): read anyway, as Stockfish and XBoard's adapters play
    /// such set-ups, where refusing left the GUI a `bestmove 0000` that
    /// polyglot turns into a resignation and UCI2WB into a stalemate.
    pub too_much_material: bool,
}

/// Read a FEN as [`parse_fen`] does, except that castling rights no rook
/// (or no king on its back rank) backs, and an en passant square no pawn
/// can have just passed over, are dropped instead of refused, as
/// python-chess reads them, and more material than a game can reach is
/// read as it is. GUIs send such FENs (PyChess has turned an
/// X-FEN `KQkq` into `DAda` for a start whose rooks stand on a and h); the
/// game the GUI plays is the one without those rights, and keeping them
/// (Stockfish 15.1 does) makes castles with no rook.
///
/// # Errors
/// As [`parse_fen`], for everything but castling rights.
pub fn parse_fen_lenient(text: &str) -> Result<LenientFen, FenError> {
    let strict = match parse_fen(text) {
        Ok(position) => {
            return Ok(LenientFen {
                position,
                dropped: Vec::new(),
                dropped_ep: None,
                too_much_material: false,
            })
        }
        Err(e @ FenError::Syntax { .. }) => return Err(e),
        Err(e) => e,
    };
    let fields: Vec<&str> = text.split_whitespace().collect();
    let fen = fields.join(" ");
    // parse_fen accepted the syntax, so this reads.
    let Ok(parsed) = Fen::from_ascii(fen.as_bytes()) else {
        return Err(strict);
    };
    let setup = parsed.as_setup().clone();
    let mut too_much_material = false;
    let position = match parsed.into_position::<Chess>(CastlingMode::Chess960) {
        Ok(p) => p,
        Err(e) => {
            too_much_material = e
                .kinds()
                .contains(shakmaty::PositionErrorKinds::TOO_MUCH_MATERIAL);
            e.ignore_invalid_castling_rights()
                .or_else(PositionError::ignore_invalid_ep_square)
                .or_else(PositionError::ignore_too_much_material)
                .map_err(|_| strict)?
        }
    };
    let dropped_ep = setup
        .ep_square
        .filter(|_| position.maybe_ep_square().is_none());
    let kept = position.castles().castling_rights();
    let field = fields.get(2).copied().unwrap_or("-");
    // Each letter alone, read as shakmaty reads it: the rook square it
    // names. A letter whose square lost its right was dropped.
    let square_of = |c: char| {
        Fen::from_ascii(format!("{} w {c}", fields[0]).as_bytes())
            .map_or(Bitboard::EMPTY, |f| f.as_setup().castling_rights)
    };
    let dropped = field
        .chars()
        .filter(|&c| (square_of(c) & !kept).any())
        .map(|c| {
            castling_culprit(&setup, &c.to_string())
                .unwrap_or_else(|| format!("castling right '{c}' cannot be used"))
        })
        .collect();
    Ok(LenientFen {
        position,
        dropped,
        dropped_ep,
        too_much_material,
    })
}

/// The most other readings of an X-FEN castling field that are tried:
/// each letter may name any rook on its side, so a board with many rooks
/// on a back rank would give thousands (two rooks a side, as GUIs send,
/// give at most 15).
pub const MAX_INNER_ROOK_READINGS: usize = 64;

/// The other readings of an X-FEN castling field. `K` and `Q` name the
/// outermost rook on their side of the king, but GUIs have written them for
/// an inner rook (Scid 4.7.4 sends `RR2K3 w Qq` and then castles `e1b1`
/// with the b-rook), for one side or both. Each reading replaces one or
/// more such letters by the file letter of another rook on that side, as
/// X-FEN would write it: the FEN and what was read differently, e.g.
/// `castling right 'Q' read as the rook on b1 (X-FEN writes it 'B')`.
/// Readings that change fewer letters come first; at most
/// [`MAX_INNER_ROOK_READINGS`]. Empty when the field is unambiguous.
pub fn inner_rook_readings(text: &str) -> Vec<(String, String)> {
    use shakmaty::Square;
    let fields: Vec<&str> = text.split_whitespace().collect();
    let Some(field) = fields.get(2) else {
        return Vec::new();
    };
    let Ok(fen) = Fen::from_ascii(fields.join(" ").as_bytes()) else {
        return Vec::new();
    };
    let board = &fen.as_setup().board;
    /// A letter with other rooks on its side: its place in the field, the
    /// letter, and each other rook with the letter X-FEN gives it.
    struct Choice {
        at: usize,
        letter: char,
        others: Vec<(Square, char)>,
    }
    let mut choices: Vec<Choice> = Vec::new();
    // A letter written twice (`KK`, which shakmaty reads as one) is one
    // choice: the combinations grow as a power of the letters.
    let mut seen = Vec::new();
    for (i, c) in field.char_indices() {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        let color = Color::from_white(c.is_ascii_uppercase());
        let rank = color.backrank();
        let Some(king) = (board.kings() & board.by_color(color) & rank).first() else {
            continue;
        };
        let rooks: Vec<Square> = (board.rooks() & board.by_color(color) & rank)
            .into_iter()
            .filter(|sq| match c.to_ascii_lowercase() {
                'k' => sq.file() > king.file(),
                'q' => sq.file() < king.file(),
                _ => false,
            })
            .collect();
        // The outermost rook is the letter's own reading; the others are
        // the alternatives.
        let outermost = match c.to_ascii_lowercase() {
            'k' => rooks.iter().map(|sq| sq.file()).max(),
            _ => rooks.iter().map(|sq| sq.file()).min(),
        };
        let others: Vec<(Square, char)> = rooks
            .iter()
            .filter(|sq| Some(sq.file()) != outermost)
            .map(|&sq| {
                let letter = if color.is_white() {
                    sq.file().upper_char()
                } else {
                    sq.file().char()
                };
                (sq, letter)
            })
            .collect();
        if !others.is_empty() {
            choices.push(Choice {
                at: i,
                letter: c,
                others,
            });
        }
    }
    // Every combination: for each letter, its own reading (0) or one of
    // its alternatives (1..).
    let mut picks: Vec<Vec<usize>> = vec![Vec::new()];
    for Choice { others, .. } in &choices {
        picks = picks
            .into_iter()
            .flat_map(|p| {
                (0..=others.len()).map(move |k| {
                    let mut q = p.clone();
                    q.push(k);
                    q
                })
            })
            .collect();
    }
    picks.retain(|p| p.iter().any(|&k| k > 0));
    picks.sort_by_key(|p| p.iter().filter(|&&k| k > 0).count());
    picks.truncate(MAX_INNER_ROOK_READINGS);
    picks
        .into_iter()
        .map(|p| {
            let mut castling: Vec<char> = field.chars().collect();
            let mut why = Vec::new();
            for (choice, &k) in choices.iter().zip(&p) {
                if k == 0 {
                    continue;
                }
                let (sq, letter) = choice.others[k - 1];
                castling[choice.at] = letter;
                why.push(format!(
                    "castling right '{}' read as the rook on {sq} (X-FEN writes it '{letter}')",
                    choice.letter
                ));
            }
            let mut alt: Vec<String> = fields.iter().map(|f| (*f).to_owned()).collect();
            alt[2] = castling.into_iter().collect();
            (alt.join(" "), why.join(", "))
        })
        .collect()
}

/// Why the board field of a FEN is not eight ranks of eight squares.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not 8 ranks.
    #[error("the board has {0} ranks separated by '/', a FEN board has 8")]
    Ranks(usize),
    /// A character that is neither a piece letter nor a digit.
    #[error("rank {number} ('{text}') has '{found}', which is not a piece letter or a digit 1-8")]
    Character {
        /// Rank number, 8 first as in the FEN.
        number: usize,
        /// The rank's text.
        text: String,
        /// The character.
        found: char,
    },
    /// A rank of more or fewer than 8 squares.
    #[error("rank {number} ('{text}') covers {squares} squares, a rank has 8")]
    Width {
        /// Rank number.
        number: usize,
        /// The rank's text.
        text: String,
        /// Squares it covers.
        squares: u32,
    },
}

/// Why a move given in UCI notation cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not UCI move syntax at all.
    #[error("'{0}' is not a UCI move")]
    NotUci(String),
    /// Well formed, not legal here.
    #[error("illegal move '{text}' in {fen}")]
    Illegal {
        /// The move as given.
        text: String,
        /// The position as X-FEN: `KQkq` wherever the rooks allow it, so a
        /// classical game's message reads as the FEN its GUI shows, and
        /// rook file letters only where a Chess960 position needs them.
        fen: String,
    },
}

/// Check the board field of a FEN the way a person reads it: eight ranks,
/// eight squares each, piece letters and digits only. shakmaty's reader
/// would call a ninth rank a crazyhouse pocket.
///
/// # Errors
/// A [`BoardError`] naming the culprit: how many ranks, which rank is too
/// wide or short, which character is not a piece.
pub fn check_board_field(board: &str) -> Result<(), BoardError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(BoardError::Ranks(ranks.len()));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let number = 8 - i;
        let mut squares = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => squares += c.to_digit(10).unwrap_or(0),
                _ if "pnbrqkPNBRQK".contains(c) => squares += 1,
                // shakmaty's promoted-piece marker (crazyhouse).
                '~' => {}
                _ => {
                    return Err(BoardError::Character {
                        number,
                        text: (*rank).to_owned(),
                        found: c,
                    })
                }
            }
        }
        if squares != 8 {
            return Err(BoardError::Width {
                number,
                text: (*rank).to_owned(),
                squares,
            });
        }
    }
    Ok(())
}

/// The first castling right of `field` that has no rook to castle with
/// (or no king on its back rank), named; `None` when every right has one.
fn castling_culprit(setup: &shakmaty::Setup, field: &str) -> Option<String> {
    use shakmaty::{File, Rank, Square};
    if field == "-" {
        return None;
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let side = if color.is_white() { "white" } else { "black" };
        let rank = color.fold_wb(Rank::First, Rank::Eighth);
        let rook_at = |f: File| {
            setup.board.piece_at(Square::from_coords(f, rank)) == Some(Role::Rook.of(color))
        };
        let king = File::ALL.into_iter().find(|&f| {
            setup.board.piece_at(Square::from_coords(f, rank)) == Some(Role::King.of(color))
        });
        let Some(king) = king else {
            return Some(format!(
                "castling right '{c}' but the {side} king is not on rank {}",
                rank.char()
            ));
        };
        let ok = match c.to_ascii_lowercase() {
            'k' => File::ALL.into_iter().any(|f| f > king && rook_at(f)),
            'q' => File::ALL.into_iter().any(|f| f < king && rook_at(f)),
            l @ 'a'..='h' => rook_at(File::from_char(l).unwrap_or(File::A)),
            _ => true,
        };
        if !ok {
            let place = match c.to_ascii_lowercase() {
                'k' => format!("between the king and the h-file on rank {}", rank.char()),
                'q' => format!("between the a-file and the king on rank {}", rank.char()),
                l => format!("on {l}{}", rank.char()),
            };
            return Some(format!("castling right '{c}' has no {side} rook {place}"));
        }
    }
    None
}

/// The position as X-FEN: castling rights as `KQkq` where the rook is the
/// outermost one on its side, file letters otherwise.
pub fn xfen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The position as Shredder-FEN: castling rights always as rook file
/// letters, white's (upper case) first, each colour from the h-file down.
pub fn shredder_fen(pos: &Chess) -> String {
    let x = xfen(pos);
    let mut fields: Vec<String> = x.split(' ').map(str::to_owned).collect();
    if fields.len() >= 3 {
        fields[2] = shredder_castling(pos);
    }
    fields.join(" ")
}

/// The castling field alone in Shredder-FEN form (`-` when no rights).
pub fn shredder_castling(pos: &Chess) -> String {
    let rights = pos.castles().castling_rights();
    let mut s = String::new();
    for color in Color::ALL {
        for sq in (rights & color.backrank()).into_iter().rev() {
            let c = sq.file().char();
            s.push(if color.is_white() {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// True when the castling rights of `pos` can only be expressed in
/// Chess960 terms (king off the e-file or a castling rook off a/h), i.e.
/// when UCI castling moves must be written king-takes-rook.
pub fn needs_chess960(pos: &Chess) -> bool {
    let setup = pos.to_setup(EnPassantMode::Legal);
    CastlingMode::detect(&setup) == CastlingMode::Chess960
}

/// A board for people: rank 8 on top, white in upper case, `.` for an
/// empty square, files and ranks labelled. Used by `show`, UCI `d` and the
/// other human-facing outputs so that they all look alike.
pub fn diagram(board: &shakmaty::Board) -> String {
    use shakmaty::{File, Rank, Square};
    let mut s = String::from("  +-----------------+\n");
    for rank in Rank::ALL.into_iter().rev() {
        s.push(rank.char());
        s.push_str(" |");
        for file in File::ALL {
            s.push(' ');
            s.push(
                board
                    .piece_at(Square::from_coords(file, rank))
                    .map_or('.', |p| p.char()),
            );
        }
        s.push_str(" |\n");
    }
    s.push_str("  +-----------------+\n    a b c d e f g h\n");
    s
}

/// How castles are written in UCI move text: the dialects GUIs and engines
/// speak. Every other move is plain UCI in all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingStyle {
    /// The king's move to its castled square (`e1g1`): UCI for classical
    /// chess.
    #[default]
    KingToSquare,
    /// King takes own rook (`e1h1`, `b1a1`): UCI with `UCI_Chess960`, the
    /// only form that is never ambiguous in Chess960.
    KingTakesRook,
    /// `O-O` (the h-side rook) and `O-O-O` (the a-side rook): the dialect
    /// of Arena and of engines from before the Chess960 UCI convention.
    Arena,
}

/// The castle a side-named word stands for: `O-O` and `0-0` are the
/// h-side castle, `O-O-O` and `0-0-0` the a-side one.
pub fn castle_word(text: &str) -> Option<CastlingSide> {
    match text {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// True when `text` is move text in one of the dialects: UCI syntax
/// (`e2e4`, `e7e8q`) or a castle word (`O-O`). The null move `0000` is not
/// a move. Legality is a matter for [`parse_uci_move`].
pub fn is_move_text(text: &str) -> bool {
    castle_word(text).is_some() || (text != "0000" && text.parse::<UciMove>().is_ok())
}

/// Read a move in any dialect against `pos`.
///
/// Castling is accepted in every form GUIs send: king-takes-own-rook
/// (`e1h1`, the Chess960 convention, and what shakmaty reads natively),
/// `O-O`/`O-O-O` (and with zeros, [`castle_word`]), and the king's move to
/// its castling destination (`e1g1`; in Chess960 e.g. `b1g1`), the latter
/// only when it is unambiguous: no ordinary legal move has the same squares
/// and exactly one castling move puts the king there. Castles and
/// destinations come from shakmaty's legal moves (`CastlingSide::king_to`),
/// never from hand-written square arithmetic.
///
/// # Errors
/// A [`MoveError`] naming the move when it is not move text or not legal.
pub fn parse_uci_move(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    if let Some(side) = castle_word(text) {
        let mut castles = pos.legal_moves();
        castles.retain(|m| m.castling_side() == Some(side));
        return castles.first().copied().ok_or_else(|| MoveError::Illegal {
            text: text.to_owned(),
            fen: xfen(pos),
        });
    }
    let uci: UciMove = text
        .parse()
        .map_err(|_| MoveError::NotUci(text.to_owned()))?;
    if let Ok(m) = uci.to_move(pos) {
        return Ok(m);
    }
    if let UciMove::Normal {
        from,
        to,
        promotion: None,
    } = uci
    {
        if pos.board().role_at(from) == Some(Role::King)
            && pos.board().color_at(from) == Some(pos.turn())
        {
            let mut candidates = pos.legal_moves();
            candidates.retain(|m| {
                m.is_castle()
                    && m.from() == Some(from)
                    && m.castling_side()
                        .is_some_and(|side| side.king_to(pos.turn()) == to)
            });
            if candidates.len() == 1 {
                return Ok(candidates[0]);
            }
        }
    }
    Err(MoveError::Illegal {
        text: text.to_owned(),
        fen: xfen(pos),
    })
}

/// Write a move in UCI notation, castles in `style`.
///
/// The king's-destination form of a Chess960 castle can be ambiguous (king
/// b1 and rook a1: `b1c1` is also the king's plain step; king g1 and rook
/// h1: `g1g1` is no move at all). Where the position is known, write with
/// [`uci_move_at`], which falls back to king-takes-rook there.
pub fn uci_move(m: Move, style: CastlingStyle) -> String {
    match (style, m.castling_side()) {
        (CastlingStyle::Arena, Some(CastlingSide::KingSide)) => "O-O".to_owned(),
        (CastlingStyle::Arena, Some(CastlingSide::QueenSide)) => "O-O-O".to_owned(),
        (CastlingStyle::KingTakesRook, _) => m.to_uci(CastlingMode::Chess960).to_string(),
        _ => m.to_uci(CastlingMode::Standard).to_string(),
    }
}

/// Write `m`, played in `pos`, in UCI notation with castles in `style`, so
/// that it reads back as `m`: a castle whose king's-destination form
/// [`parse_uci_move`] would read as another move (the king's plain step to
/// that square), or whose king does not move (`g1g1`, which shakmaty and
/// python-chess refuse as move text), is written king-takes-rook, the only
/// form that is never ambiguous. A reader that takes a move's squares as
/// the plain move first, as shakmaty and python-chess do, then keeps the
/// game its writer meant.
pub fn uci_move_at(pos: &Chess, m: Move, style: CastlingStyle) -> String {
    let text = uci_move(m, style);
    let king_stays = || {
        m.castling_side()
            .is_some_and(|side| Some(side.king_to(pos.turn())) == m.from())
    };
    if style == CastlingStyle::KingToSquare
        && m.is_castle()
        && (king_stays() || parse_uci_move(pos, &text).ok() != Some(m))
    {
        uci_move(m, CastlingStyle::KingTakesRook)
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_in_both_encodings() {
        // Start 0: BBQNNRKR, king g1, rooks f1 and h1. Clear the way first.
        let pos = parse_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQ4K1R w H - 0 1");
        assert!(pos.is_err(), "king must stand between the rooks for H");
        let pos = parse_fen("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
        // King g1, rook h1: king-side castling leaves the king on g1, so it
        // can only be written king-takes-rook.
        let oo = parse_uci_move(&pos, "g1h1").unwrap();
        assert!(oo.is_castle());
        assert_eq!(uci_move(oo, CastlingStyle::KingTakesRook), "g1h1");
        // Queen-side: king g1 -> c1, rook b1 -> d1; both encodings work.
        let ooo = parse_uci_move(&pos, "g1b1").unwrap();
        assert!(ooo.is_castle());
        assert_eq!(parse_uci_move(&pos, "g1c1").unwrap(), ooo);
        // Standard start: e1g1 and e1h1 are the same castle.
        let std = parse_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").unwrap();
        let a = parse_uci_move(&std, "e1g1").unwrap();
        let b = parse_uci_move(&std, "e1h1").unwrap();
        assert_eq!(a, b);
        assert_eq!(uci_move(a, CastlingStyle::KingToSquare), "e1g1");
        assert_eq!(uci_move(a, CastlingStyle::KingTakesRook), "e1h1");
    }

    #[test]
    fn ordinary_king_move_wins_over_castling_reading() {
        // King f1, rook h1 (right H): f1g1 is an ordinary legal king step;
        // castling would also put the king on g1, so f1g1 must stay a step.
        let pos = parse_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        let m = parse_uci_move(&pos, "f1g1").unwrap();
        assert!(!m.is_castle());
        assert!(parse_uci_move(&pos, "f1h1").unwrap().is_castle());
    }

    #[test]
    fn illegal_moves_are_named() {
        let pos = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(matches!(
            parse_uci_move(&pos, "e1e3"),
            Err(MoveError::Illegal { text, .. }) if text == "e1e3"
        ));
        assert_eq!(
            parse_uci_move(&pos, "zz"),
            Err(MoveError::NotUci("zz".into()))
        );
    }

    #[test]
    fn all_castling_notations_give_the_same_position() {
        let shredder =
            parse_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .expect("shredder");
        let xfen_pos =
            parse_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
                .expect("x-fen");
        assert_eq!(shredder_fen(&shredder), shredder_fen(&xfen_pos));
        assert_eq!(
            shredder_fen(&shredder),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
        assert_eq!(
            xfen(&shredder),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
    }

    #[test]
    fn inner_rook_needs_a_file_letter_in_xfen() {
        // Rooks on a1 and b1 (queenside) with the king on c1: castling with the
        // inner b-rook must be written B in X-FEN.
        let pos = parse_fen("rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1").expect("fen");
        assert_eq!(xfen(&pos).split(' ').nth(2), Some("Bb"));
        assert_eq!(shredder_castling(&pos), "Bb");
    }

    #[test]
    fn an_illegal_position_names_its_culprit() {
        let reason = |fen: &str| match parse_fen(fen) {
            Err(FenError::Position { reason, .. }) => reason,
            other => panic!("{fen}: {other:?}"),
        };
        assert_eq!(
            reason("7k/8/8/8/8/8/8/K6R w - - 0 1"),
            "black's king is in check with white to move"
        );
        assert_eq!(reason("8/8/8/8/8/8/8/8 w - - 0 1"), "the board is empty");
        assert_eq!(reason("8/8/8/8/8/8/8/K7 w - - 0 1"), "black has no king");
        assert_eq!(reason("k7/8/8/8/8/8/8/K1K5 w - - 0 1"), "white has 2 kings");
        assert_eq!(
            reason("k6P/8/8/8/8/8/8/K3p3 w - - 0 1"),
            "a pawn on a back rank (e1, h8)"
        );
        assert_eq!(
            reason("k7/8/8/8/8/8/8/K7 w H - 0 1"),
            "castling right 'H' has no white rook on h1"
        );
        assert_eq!(
            reason("k7/8/8/3p4/8/8/8/K7 w - e3 0 1"),
            "en passant square e3 does not follow a pawn's double step by black"
        );
    }

    #[test]
    fn refuses_garbage_and_illegal_positions() {
        assert!(matches!(parse_fen("hello"), Err(FenError::Syntax { .. })));
        assert!(matches!(
            parse_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(FenError::Position { .. })
        ));
        assert!(matches!(
            parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"),
            Err(FenError::Syntax { .. })
        ));
    }

    #[test]
    fn standard_rights_do_not_need_chess960() {
        let std = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(!needs_chess960(&std));
        let frc = parse_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        assert!(needs_chess960(&frc));
    }

    #[test]
    fn king_destinations_are_written_only_where_they_read_back() {
        // King b1, rooks a1 and h1, c1 empty: the a-side castle puts the
        // king on c1, where its plain step also goes.
        let pos = parse_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1").unwrap();
        let long = parse_uci_move(&pos, "b1a1").unwrap();
        let step = parse_uci_move(&pos, "b1c1").unwrap();
        assert!(long.is_castle() && !step.is_castle());
        assert_eq!(uci_move(long, CastlingStyle::KingToSquare), "b1c1");
        assert_eq!(uci_move_at(&pos, long, CastlingStyle::KingToSquare), "b1a1");
        assert_eq!(uci_move_at(&pos, step, CastlingStyle::KingToSquare), "b1c1");
        // The h-side castle's destination g1 is no plain move: kept.
        let short = parse_uci_move(&pos, "b1h1").unwrap();
        assert_eq!(
            uci_move_at(&pos, short, CastlingStyle::KingToSquare),
            "b1g1"
        );
        // King g1, rook h1: the king does not move; `g1g1` is no move.
        let still = parse_fen("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
        let oo = parse_uci_move(&still, "g1h1").unwrap();
        assert_eq!(uci_move(oo, CastlingStyle::KingToSquare), "g1g1");
        assert_eq!(uci_move_at(&still, oo, CastlingStyle::KingToSquare), "g1h1");
        // Every start with only its king and rooks on the back ranks:
        // every legal move, castles and the king's steps among them, is
        // written so that it reads back as itself.
        for n in 0..960 {
            let rank: String = crate::startpos::back_rank(n)
                .chars()
                .map(|c| if c == 'K' || c == 'R' { c } else { '1' })
                .collect();
            let mut packed = String::new();
            let mut empty = 0;
            for c in rank.chars() {
                if c == '1' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        packed.push_str(&empty.to_string());
                        empty = 0;
                    }
                    packed.push(c);
                }
            }
            if empty > 0 {
                packed.push_str(&empty.to_string());
            }
            let fen = format!(
                "{}/pppppppp/8/8/8/8/PPPPPPPP/{packed} w KQkq - 0 1",
                packed.to_lowercase()
            );
            let pos = parse_fen(&fen).unwrap();
            let moves = pos.legal_moves();
            // Both castles, unless the other rook stands in the way.
            assert!(moves.iter().any(|m| m.is_castle()), "{fen}");
            for &m in &moves {
                let text = uci_move_at(&pos, m, CastlingStyle::KingToSquare);
                assert_eq!(parse_uci_move(&pos, &text), Ok(m), "{fen}: {text}");
            }
        }
        // Other dialects are untouched.
        assert_eq!(uci_move_at(&pos, long, CastlingStyle::Arena), "O-O-O");
        assert_eq!(
            uci_move_at(&pos, long, CastlingStyle::KingTakesRook),
            "b1a1"
        );
    }

    #[test]
    fn castle_words_read_as_the_side_s_castle() {
        let pos = parse_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1").unwrap();
        let short = parse_uci_move(&pos, "O-O").unwrap();
        assert_eq!(uci_move(short, CastlingStyle::KingTakesRook), "b1h1");
        assert_eq!(parse_uci_move(&pos, "0-0").unwrap(), short);
        assert_eq!(uci_move(short, CastlingStyle::Arena), "O-O");
        let long = parse_uci_move(&pos, "0-0-0").unwrap();
        assert_eq!(uci_move(long, CastlingStyle::KingTakesRook), "b1a1");
        assert_eq!(uci_move(long, CastlingStyle::Arena), "O-O-O");
        // Ordinary moves are plain UCI in every dialect.
        let push = parse_uci_move(&pos, "e2e4").unwrap();
        assert_eq!(uci_move(push, CastlingStyle::Arena), "e2e4");
        // No castle of that side: named as illegal.
        let none = parse_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w A - 0 1").unwrap();
        assert!(
            matches!(parse_uci_move(&none, "O-O"), Err(MoveError::Illegal { text, .. }) if text == "O-O")
        );
        assert!(is_move_text("O-O-O") && is_move_text("e7e8q") && !is_move_text("0000"));
        assert!(!is_move_text("O-O-O-O") && !is_move_text("o-o"));
    }

    #[test]
    fn an_illegal_move_names_its_position_as_the_gui_writes_it() {
        // A classical game's position reads KQkq, as a classical GUI shows
        // it, not HAha.
        let start = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let e = parse_uci_move(&start, "e2e5").unwrap_err().to_string();
        assert_eq!(
            e,
            "illegal move 'e2e5' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        // A Chess960 position whose rights KQkq cannot say keeps file letters.
        let inner = parse_fen("rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1").unwrap();
        let e = parse_uci_move(&inner, "O-O").unwrap_err().to_string();
        assert!(e.ends_with("w Bb - 0 1"), "{e}");
    }

    #[test]
    fn too_much_material_is_read_and_said() {
        // Three rooks beside eight pawns (a promotion needs a pawn less).
        let fen = "r2rk2r/pppppppp/8/8/8/8/PPPPPPPP/R2RK2R w DHdh - 0 1";
        assert!(parse_fen(fen).is_err());
        let read = parse_fen_lenient(fen).expect("read leniently");
        assert!(read.too_much_material && read.dropped.is_empty());
        assert!(!read.position.legal_moves().is_empty());
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(!parse_fen_lenient(start).expect("valid").too_much_material);
        // Anything else wrong is still refused: two white kings.
        assert!(parse_fen_lenient("4k3/8/8/8/8/8/8/K3K3 w - - 0 1").is_err());
    }

    #[test]
    fn an_impossible_en_passant_square_is_dropped_and_named() {
        // d6 with no black pawn on d5: no pawn can have just passed over it.
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1";
        assert!(parse_fen(fen).is_err());
        let read = parse_fen_lenient(fen).expect("read leniently");
        assert_eq!(read.dropped_ep, Some(shakmaty::Square::D6));
        assert!(read.dropped.is_empty());
        assert_eq!(read.position.maybe_ep_square(), None);
        // The same FEN with e6 (the pawn just moved e7e5) keeps it.
        let fine = parse_fen_lenient(&fen.replace(" d6 ", " e6 ")).expect("valid");
        assert_eq!(fine.dropped_ep, None);
        assert_eq!(fine.position.maybe_ep_square(), Some(shakmaty::Square::E6));
        // Both at once: a right no rook backs and an impossible square.
        let both = parse_fen_lenient("4k3/8/8/8/8/8/8/4K3 w K a6 0 1").expect("read");
        assert_eq!(
            (both.dropped.len(), both.dropped_ep),
            (1, Some(shakmaty::Square::A6))
        );
    }

    #[test]
    fn rights_without_a_rook_are_dropped_and_named() {
        let read =
            parse_fen_lenient("rk5r/p1pppppp/1q6/8/8/1Q6/P1PPPPPP/RK5R w DAda - 0 1").unwrap();
        assert_eq!(shredder_castling(&read.position), "Aa");
        assert_eq!(read.dropped.len(), 2, "{:?}", read.dropped);
        assert!(read.dropped[0].contains("'D'") && read.dropped[0].contains("d1"));
        assert!(read.dropped[1].contains("'d'") && read.dropped[1].contains("d8"));
        // X-FEN K with no rook on the king's h-side.
        let read = parse_fen_lenient("r3k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1").unwrap();
        assert_eq!(shredder_castling(&read.position), "Aa");
        assert_eq!(read.dropped.len(), 2, "{:?}", read.dropped);
        // Nothing to drop: nothing said.
        let read = parse_fen_lenient("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert!(read.dropped.is_empty());
        // Other faults are still refused.
        assert!(parse_fen_lenient("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(parse_fen_lenient("hello").is_err());
    }

    #[test]
    fn x_fen_letters_have_inner_rook_readings() {
        let readings = inner_rook_readings("1r2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Qq - 0 1");
        assert_eq!(readings.len(), 1, "{readings:?}");
        assert_eq!(
            readings[0].0,
            "1r2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Bq - 0 1"
        );
        assert!(readings[0].1.contains("'Q'") && readings[0].1.contains("b1"));
        // Both sides' letters for inner rooks: each alone, then both.
        let both = inner_rook_readings("rr2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Qq - 0 1");
        let fens: Vec<&str> = both.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            fens,
            [
                "rr2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Qb - 0 1",
                "rr2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Bq - 0 1",
                "rr2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Bb - 0 1",
            ]
        );
        assert!(
            both[2].1.contains("'Q'") && both[2].1.contains("'q'"),
            "{both:?}"
        );
        // A letter written many times is one choice (the combinations of
        // twelve `K`s with three other rooks each were 4^12).
        let many =
            inner_rook_readings("4k3/pppppppp/8/8/8/8/PPPPPPPP/RRRKRRRR w KKKKKKKKKKKK - 0 1");
        assert_eq!(many.len(), 3, "{many:?}");
        assert!(inner_rook_readings("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").is_empty());
        assert!(inner_rook_readings("rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1").is_empty());
    }
}
