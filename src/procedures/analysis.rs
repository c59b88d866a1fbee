//! Fairness figures from an exact distribution, and the optimal-procedure
//! bound the sources quote for a die ("between 4 and 4.45 die rolls").

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::framework::{Distribution, Prob};
use super::Method;
use crate::numbering::COUNT;

/// Positions sharing one probability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// The probability of each of these positions.
    pub probability: Prob,
    /// Their Scharnagl numbers, ascending.
    pub positions: Vec<u32>,
}

/// Everything `chess960 analyze` reports.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The procedure.
    pub method: Method,
    /// Probability of each position, by Scharnagl number.
    pub probabilities: Vec<Prob>,
    /// Whether all 960 positions have probability exactly 1/960.
    pub uniform: bool,
    /// How many positions have a non-zero probability.
    pub reachable: usize,
    /// Smallest probability over the 960 positions (0 if one is unreachable).
    pub min: Prob,
    /// Largest probability.
    pub max: Prob,
    /// max / min, or `None` when some position is unreachable.
    pub ratio: Option<Prob>,
    /// Expected number of physical actions.
    pub expected: Prob,
    /// Probability that an attempt ends in "start over".
    pub restart: Prob,
    /// Positions grouped by probability, likeliest first.
    pub classes: Vec<Class>,
}

/// How a procedure spreads the 960 positions, as the reports name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spread {
    /// Every position exactly 1/960.
    Uniform,
    /// A draw, but not a uniform one.
    Uneven,
    /// No draw: the players choose (the figures take every legal choice
    /// as equally likely, as a reference).
    Chosen,
}

impl Summary {
    /// How this procedure spreads the positions.
    pub fn spread(&self) -> Spread {
        match (self.method.is_random(), self.uniform) {
            (false, _) => Spread::Chosen,
            (true, true) => Spread::Uniform,
            (true, false) => Spread::Uneven,
        }
    }

    /// Summarise an exact distribution.
    pub fn new(method: Method, d: Distribution) -> Summary {
        let mut by_prob: BTreeMap<Prob, Vec<u32>> = BTreeMap::new();
        for (n, p) in d.probabilities.iter().enumerate() {
            by_prob.entry(p.clone()).or_default().push(n as u32);
        }
        let classes: Vec<Class> = by_prob
            .into_iter()
            .rev()
            .map(|(probability, positions)| Class {
                probability,
                positions,
            })
            .collect();
        let max = classes
            .first()
            .map(|c| c.probability.clone())
            .unwrap_or_else(Prob::zero);
        let min = classes
            .last()
            .map(|c| c.probability.clone())
            .unwrap_or_else(Prob::zero);
        let ratio = (!min.is_zero()).then(|| &max / &min);
        let uniform_p = Prob::new(BigInt::one(), BigInt::from(COUNT));
        let uniform = classes.len() == 1 && max == uniform_p;
        let reachable = d.probabilities.iter().filter(|p| !p.is_zero()).count();
        Summary {
            method,
            probabilities: d.probabilities,
            uniform,
            reachable,
            min,
            max,
            ratio,
            expected: d.expected_actions,
            restart: d.restart_probability,
            classes,
        }
    }
}

/// Analyse a method exactly.
pub fn summarize(method: Method) -> Summary {
    Summary::new(method, method.distribution())
}

/// A fraction as `a/b` (always with the slash, also for whole numbers).
pub fn frac(p: &Prob) -> String {
    format!("{}/{}", p.numer(), p.denom())
}

/// A fraction for people: `a/b`, or just `a` for a whole number.
pub fn frac_short(p: &Prob) -> String {
    if p.is_integer() {
        p.numer().to_string()
    } else {
        frac(p)
    }
}

/// A fraction as a float, for humans and JSON numbers.
pub fn to_f64(p: &Prob) -> f64 {
    p.to_f64().unwrap_or(f64::NAN)
}

/// The least expected number of throws of a fair `m`-sided die (or coin,
/// m = 2) that any procedure needs to pick one of `n` outcomes uniformly:
/// the Knuth–Yao bound, `Σ_{k≥0} (m^k mod n) / m^k`, summed exactly (the
/// remainders repeat, so the tail is a geometric series).
///
/// After k throws at most `n·⌊m^k/n⌋` of the `m^k` equally likely sequences
/// can have ended (each outcome needs the same number of them), so the
/// probability of needing more than k throws is at least `(m^k mod n)/m^k`;
/// the optimal tree meets that at every depth.
///
/// # Panics
/// If `n == 0` or `m < 2`.
pub fn optimal_expected_throws(n: u64, m: u64) -> Prob {
    assert!(
        n > 0 && m >= 2,
        "need at least one outcome and a die with two faces"
    );
    let big = |x: u64| BigInt::from(x);
    let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
    let mut terms: Vec<Prob> = Vec::new();
    let mut r = 1 % n;
    let mut scale = BigInt::one(); // m^k
    let mut k = 0usize;
    loop {
        if r == 0 {
            return terms.iter().fold(Prob::zero(), |a, t| a + t);
        }
        if let Some(&start) = seen.get(&r) {
            let head: Prob = terms[..start].iter().fold(Prob::zero(), |a, t| a + t);
            let cycle: Prob = terms[start..].iter().fold(Prob::zero(), |a, t| a + t);
            let period = (k - start) as u32;
            let shrink = BigRational::new(BigInt::one(), big(m).pow(period));
            return head + cycle / (Prob::one() - shrink);
        }
        seen.insert(r, k);
        terms.push(BigRational::new(big(r), scale.clone()));
        r = (r * m) % n;
        scale *= big(m);
        k += 1;
    }
}

/// The information-theoretic floor `log_m(n)` (never reachable exactly
/// unless n is a power of m).
pub fn entropy_throws(n: u64, m: u64) -> f64 {
    (n as f64).ln() / (m as f64).ln()
}
