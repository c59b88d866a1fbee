//! The iteration driver: iterative deepening with aspiration windows on
//! the main thread, the helpers' loop (Lazy SMP), when to stop between
//! iterations, and the reports of finished iterations.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::Position;

use super::Worker;
use crate::search::params::*;
use crate::search::tt::Bound;
use crate::search::{Outcome, Report, Reporter, Score, INFINITY, MATE, MATE_BOUND};

impl<'a> Worker<'a> {
    /// Helper threads (Lazy SMP) search ever deeper until told to stop,
    /// filling the shared table; they start at staggered depths so that
    /// they do not all search the same iteration.
    pub(in crate::search) fn helper_loop(&mut self, helpers_stop: &'a AtomicBool) {
        self.helpers_stop = Some(helpers_stop);
        let mut depth = 1 + (self.id % 2) as i32;
        while !helpers_stop.load(Ordering::Relaxed)
            && !self.control.ended()
            && depth <= self.max_depth() as i32
        {
            self.aborted = false;
            self.root_search(depth, -INFINITY, INFINITY);
            depth += 1;
        }
        self.flush_nodes();
    }

    pub(in crate::search) fn iterative_deepening(
        &mut self,
        reporter: &mut dyn Reporter,
    ) -> Outcome {
        let mut outcome = Outcome {
            best: self.root_moves.first().copied(),
            ..Outcome::default()
        };
        if self.root_moves.is_empty() {
            self.report_game_over(reporter);
            self.wait_for_release();
            return outcome;
        }
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        let mut prev_score = 0;
        let mut stable = 0u32;
        let mut score_drop = 0;
        'deepening: for depth in 1..=self.max_depth() {
            self.excluded.clear();
            // MultiPV: this iteration's finished lines, reported together
            // once it ends (or is cut short), best score first.
            let mut finished: Vec<FinishedLine> = Vec::new();
            for line in 1..=multipv {
                self.seldepth = 0;
                self.finishing_first = self.id == 0 && depth == 1 && line == 1;
                self.root_improved = None;
                let score = self.aspiration(depth as i32, prev_score, line, reporter);
                self.finishing_first = false;
                if self.aborted {
                    if let (1, Some(score)) = (multipv, self.root_improved) {
                        self.keep_partial(depth, score, &mut outcome, reporter);
                    }
                    self.report_sorted(depth, &mut finished, &mut outcome, reporter);
                    break 'deepening;
                }
                let best = self.pv[0].first().copied();
                if line == 1 {
                    if depth > 1 {
                        stable = if best == outcome.best { stable + 1 } else { 0 };
                        score_drop = prev_score - score;
                    }
                    prev_score = score;
                    outcome.best = best.or(outcome.best);
                    outcome.ponder = self.pv[0].get(1).copied();
                    outcome.score = score;
                    outcome.depth = depth;
                }
                if let Some(b) = best {
                    self.excluded.push(b);
                    if self.line_moves.len() < line {
                        self.line_moves.resize(line, b);
                    }
                    self.line_moves[line - 1] = b;
                }
                if multipv == 1 {
                    self.report(depth, line, score, None, reporter);
                } else {
                    finished.push(FinishedLine {
                        score,
                        seldepth: self.seldepth,
                        pv: self.pv[0].clone(),
                    });
                }
            }
            self.report_sorted(depth, &mut finished, &mut outcome, reporter);
            if self.should_stop_after_iteration(prev_score, stable, score_drop) {
                break;
            }
        }
        self.flush_nodes();
        outcome.nodes = self.control.nodes();
        // A pondering or infinite search must not answer before it is told.
        self.wait_for_release();
        outcome
    }

    /// An iteration cut short after a root move raised alpha: that move
    /// beat, at the new depth, every move searched before it in this
    /// iteration (the last iteration's best among them, searched first),
    /// or failed high above the aspiration window, so it is played in place
    /// of the last finished iteration's move, and its line is reported
    /// so that the last `pv` a GUI shows begins with the `bestmove`. Its
    /// score is the move's, a lower bound of the position's at this depth
    /// (the moves not yet searched may do better): the line says
    /// `lowerbound`, and the outcome keeps the finished iteration's score
    /// and depth. A node limit or `go movetime` ends about one search in
    /// five this way, a clock almost none (it stops between iterations);
    /// at 10,000 nodes a move this scored +41 +/- 16 Elo against the
    /// finished iteration's move (docs/strength.md).
    fn keep_partial(
        &self,
        depth: u32,
        score: i32,
        outcome: &mut Outcome,
        reporter: &mut dyn Reporter,
    ) {
        let Some(&first) = self.pv[0].first() else {
            return;
        };
        outcome.best = Some(first);
        outcome.ponder = self.pv[0].get(1).copied();
        reporter.report(&self.line_report(
            depth,
            1,
            self.seldepth,
            score,
            Some(Bound::Lower),
            self.pv[0].clone(),
        ));
    }

    /// The MultiPV lines of one iteration, best score first as `multipv`
    /// 1, 2, ... (GUIs and python-chess read line 1 as the best): each line
    /// is searched with the earlier lines' moves left out, so a later line
    /// can score above an earlier one when the search sees more the second
    /// time. The best of them is the move played, so `bestmove` begins the
    /// last line 1 shown. Nothing is reported for no finished line.
    fn report_sorted(
        &self,
        depth: u32,
        finished: &mut Vec<FinishedLine>,
        outcome: &mut Outcome,
        reporter: &mut dyn Reporter,
    ) {
        // Stable: equal scores keep the order they were searched in.
        finished.sort_by_key(|l| std::cmp::Reverse(l.score));
        if let Some(best) = finished.first() {
            if let Some(&first) = best.pv.first() {
                outcome.best = Some(first);
                outcome.ponder = best.pv.get(1).copied();
                outcome.score = best.score;
            }
        }
        for (i, line) in finished.drain(..).enumerate() {
            reporter.report(&self.line_report(
                depth,
                i + 1,
                line.seldepth,
                line.score,
                None,
                line.pv,
            ));
        }
    }

    /// A root with no legal move (mated or stalemated) gets one depth-0
    /// report, mate 0 or a draw, as the other engines give it: a GUI then
    /// shows why the answer is `0000` rather than a search that said
    /// nothing. A root emptied by `searchmoves` alone has nothing to report.
    fn report_game_over(&self, reporter: &mut dyn Reporter) {
        if self.id != 0 || !self.root.legal_moves().is_empty() {
            return;
        }
        let score = if self.root.is_check() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        };
        reporter.report(&Report {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: None,
            nodes: 0,
            time: self.control.since_start(),
            hashfull: self.table.hashfull(),
            pv: Vec::new(),
        });
    }

    fn wait_for_release(&self) {
        while self.control.hold.load(Ordering::SeqCst) && !self.control.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    fn should_stop_after_iteration(&self, score: i32, stable: u32, score_drop: i32) -> bool {
        if self.control.ended() {
            return true;
        }
        if let Some(mate) = self.limits.mate {
            if score >= MATE - 2 * mate as i32 {
                return true;
            }
        }
        if self.control.hold.load(Ordering::Relaxed) {
            return false;
        }
        if let Some(soft) = self.limits.soft {
            let mut target = soft.mul_f64(crate::search::time::soft_scale(stable, score_drop));
            if let Some(hard) = self.limits.hard {
                target = target.min(hard);
            }
            // Since the start: the time pondered before a `ponderhit` counts
            // too (the same as `elapsed` for a search that never pondered).
            if self.control.since_start() >= target {
                return true;
            }
        }
        // Only one legal move: no need to think (unless analysing).
        self.root_moves.len() == 1 && (self.limits.soft.is_some() || self.limits.hard.is_some())
    }

    fn aspiration(
        &mut self,
        depth: i32,
        prev: i32,
        line: usize,
        reporter: &mut dyn Reporter,
    ) -> i32 {
        if depth < ASPIRATION_MIN_DEPTH || prev.abs() >= MATE_BOUND {
            return self.root_search(depth, -INFINITY, INFINITY);
        }
        let mut delta = ASPIRATION_DELTA.get();
        let mut alpha = (prev - delta).max(-INFINITY);
        let mut beta = (prev + delta).min(INFINITY);
        loop {
            let score = self.root_search(depth, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                self.report(depth as u32, line, score, Some(Bound::Upper), reporter);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                self.report(depth as u32, line, score, Some(Bound::Lower), reporter);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > ASPIRATION_FULL_WIDTH {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn report(
        &self,
        depth: u32,
        line: usize,
        score: i32,
        bound: Option<Bound>,
        reporter: &mut dyn Reporter,
    ) {
        // Time-heavy lines only once a second into long searches? No: GUIs
        // expect one line per iteration; fail-high/low lines only after 1 s.
        if bound.is_some() && self.control.since_start().as_millis() < 1000 {
            return;
        }
        let pv = match bound {
            None => self.pv[0].clone(),
            // A fail-high: the move that beat the window, just put first.
            Some(Bound::Lower) => self.pv[0].iter().take(1).copied().collect(),
            // A fail-low put no move in the table: the line's move from the
            // last iteration, or (taken by an earlier line this time) the
            // first later line's move still free; none if all are taken.
            Some(_) => self.line_moves[line.saturating_sub(1).min(self.line_moves.len())..]
                .iter()
                .find(|m| !self.excluded.contains(m))
                .into_iter()
                .copied()
                .collect(),
        };
        reporter.report(&self.line_report(depth, line, self.seldepth, score, bound, pv));
    }

    /// The report of one line now: its own figures with the search's
    /// counts so far.
    fn line_report(
        &self,
        depth: u32,
        multipv: usize,
        seldepth: usize,
        score: i32,
        bound: Option<Bound>,
        pv: Vec<shakmaty::Move>,
    ) -> Report {
        Report {
            depth,
            seldepth: seldepth as u32,
            multipv,
            score: Score::from_internal(score),
            bound,
            nodes: self.control.nodes() + self.unflushed,
            time: self.control.since_start(),
            hashfull: self.table.hashfull(),
            pv,
        }
    }
}

/// A MultiPV line of the iteration under way, kept until the iteration's
/// lines are reported together.
struct FinishedLine {
    score: i32,
    seldepth: usize,
    pv: Vec<shakmaty::Move>,
}
