//! Fynd's exchange refinement of the 256-chunk pool-disjoint split: a chunked water-fill never
//! takes a chunk back, so it can sit up to a chunk off the equal-marginal split. This pass moves
//! `delta` of input from one path to another whenever the pair's summed output net of gas strictly
//! rises (the largest such gain first), and halves `delta` once no move helps, from one fine chunk
//! down to 1/[`EXCHANGE_DELTA_FLOOR`] of one. Paths are pool-disjoint, so a trial re-simulates only
//! the two paths it touches, each alone on the untouched market. It stops at the deadline or after
//! [`EXCHANGE_MAX_SIMS`] path simulations, and never ends below where it started.

use super::swap_cache::SwapCache;
use super::{Solve, EXCHANGE_DELTA_FLOOR, EXCHANGE_MAX_SIMS};
use crate::math::{U256, U512};
use crate::route::net::Net;
use std::cmp::Ordering;

/// A signed sum of nets, kept as two non-negative 512-bit halves so sums of a few 256-bit amounts
/// compare exactly (their saturating sums never reach 2^512).
#[derive(Clone, Copy, Debug, Default)]
struct Signed {
    plus: U512,
    minus: U512,
}

impl Signed {
    fn of(nets: &[Net]) -> Signed {
        let widen = |x: U256| U512::from(x);
        Signed {
            plus: nets.iter().fold(U512::ZERO, |sum, n| sum.saturating_add(widen(n.gross))),
            minus: nets.iter().fold(U512::ZERO, |sum, n| sum.saturating_add(widen(n.cost))),
        }
    }

    fn minus(self, other: Signed) -> Signed {
        Signed {
            plus: self.plus.saturating_add(other.minus),
            minus: self.minus.saturating_add(other.plus),
        }
    }

    fn cmp(&self, other: &Signed) -> Ordering {
        self.plus.saturating_add(other.minus).cmp(&other.plus.saturating_add(self.minus))
    }
}

/// A path's output net of its gas at `amount`, alone on the untouched market (0 for no input: a
/// path given nothing is not swapped and costs no gas). None when a pool refuses.
fn path_net(solve: &Solve, cache: &mut SwapCache, path: usize, amount: U256) -> Option<Net> {
    if amount.is_zero() {
        return Some(Net::ZERO);
    }
    let (out, gas) = cache.path(solve.market, &solve.paths[path], amount)?;
    Some(Net::new(out, solve.pricer.cost(gas)))
}

/// Refines `alloc` (input per path of `active`, pool-disjoint) as described above.
pub fn refine(
    solve: &Solve,
    cache: &mut SwapCache,
    active: &[usize],
    fine_chunks: usize,
    alloc: Vec<U256>,
) -> Vec<U256> {
    let n = active.len();
    if n < 2 {
        return alloc;
    }
    let chunks = U256::from(fine_chunks.max(1));
    // Both divisors are at least 1.
    let mut delta = solve.amount_in.checked_div(chunks).unwrap_or(U256::ZERO);
    let floor = solve
        .amount_in
        .checked_div(chunks.saturating_mul(U256::from(EXCHANGE_DELTA_FLOOR)))
        .unwrap_or(U256::ZERO);
    if delta.is_zero() {
        return alloc;
    }
    let mut alloc = alloc;
    let mut nets = Vec::with_capacity(n);
    for (i, &p) in active.iter().enumerate() {
        match path_net(solve, cache, p, alloc[i]) {
            Some(net) => nets.push(net),
            // The start does not simulate cleanly: refining it is unsafe, so it stands.
            None => return alloc,
        }
    }
    let mut sims = 0usize;
    while delta >= floor && !delta.is_zero() {
        if solve.deadline.expired() || sims >= EXCHANGE_MAX_SIMS {
            break;
        }
        // (donor, recipient, donor's net, recipient's net, gain)
        let mut best: Option<(usize, usize, Net, Net, Signed)> = None;
        'donors: for donor in 0..n {
            if sims >= EXCHANGE_MAX_SIMS {
                break;
            }
            if alloc[donor] < delta {
                continue;
            }
            let Some(donor_net) =
                path_net(solve, cache, active[donor], alloc[donor].saturating_sub(delta))
            else {
                continue;
            };
            sims = sims.saturating_add(1);
            for recipient in (0..n).filter(|&r| r != donor) {
                if sims >= EXCHANGE_MAX_SIMS {
                    break 'donors;
                }
                let Some(recipient_net) = path_net(
                    solve,
                    cache,
                    active[recipient],
                    alloc[recipient].saturating_add(delta),
                ) else {
                    continue;
                };
                sims = sims.saturating_add(1);
                let gain = Signed::of(&[donor_net, recipient_net])
                    .minus(Signed::of(&[nets[donor], nets[recipient]]));
                if gain.cmp(&Signed::default()) != Ordering::Greater {
                    continue;
                }
                if best.as_ref().is_none_or(|b| gain.cmp(&b.4) == Ordering::Greater) {
                    best = Some((donor, recipient, donor_net, recipient_net, gain));
                }
            }
        }
        match best {
            None => delta = delta.checked_div(U256::from(2)).unwrap_or(U256::ZERO),
            Some((donor, recipient, donor_net, recipient_net, _)) => {
                // The allocations sum to amountIn: neither saturates.
                alloc[donor] = alloc[donor].saturating_sub(delta);
                alloc[recipient] = alloc[recipient].saturating_add(delta);
                nets[donor] = donor_net;
                nets[recipient] = recipient_net;
            }
        }
    }
    alloc
}
