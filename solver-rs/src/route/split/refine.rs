//! The local search: pairwise moves with halving steps, then whole routes emptied.

use super::search::Search;
use super::GREEDY_CHUNKS;
use crate::math::U256;

impl Search<'_, '_> {
    /// Local search from the current allocation: pairwise moves with halving steps, then whole
    /// routes emptied into others (which small steps never do when the saving is a whole route's
    /// gas); after an emptying the steps run again, since the routes left need rebalancing.
    /// Returns false if the deadline cut it short.
    pub(super) fn refine(&mut self, finest_shift: usize) -> bool {
        let amount_in = self.problem.amount_in;
        let finest = (amount_in >> finest_shift).max(U256::from(1));
        loop {
            let mut step = (amount_in / U256::from(2 * GREEDY_CHUNKS)).max(U256::from(1));
            loop {
                self.reset_cache();
                loop {
                    if self.problem.deadline.expired() {
                        return false;
                    }
                    if !self.improve_once(step) {
                        break;
                    }
                }
                if step <= finest {
                    break;
                }
                step = (step >> 1usize).max(finest);
            }
            self.reset_cache();
            let mut emptied = false;
            loop {
                if self.problem.deadline.expired() {
                    return false;
                }
                if !self.improve_once(amount_in) {
                    break;
                }
                emptied = true;
            }
            if !emptied {
                return true;
            }
        }
    }
}
