//! Which candidates share pools: the conflict lists (for `enforcePoolDisjoint`) and the
//! components they form (routes in different components never affect each other, so only the
//! order of routes inside one component matters).

use crate::route::path::Path;

pub(super) struct Structure {
    /// Per candidate, the other candidates that share a pool with it.
    pub(super) conflicts: Vec<Vec<usize>>,
    /// Connected sets of the conflict graph, each sorted, numbered by their smallest member.
    pub(super) components: Vec<Vec<usize>>,
}

pub(super) fn structure(paths: &[Path]) -> Structure {
    let n = paths.len();
    let conflicts: Vec<Vec<usize>> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i && paths[i].shares_pool_with(&paths[j])).collect())
        .collect();
    let mut component_of = vec![usize::MAX; n];
    let mut components = Vec::new();
    for start in 0..n {
        if component_of[start] != usize::MAX {
            continue;
        }
        let id = components.len();
        let mut stack = vec![start];
        let mut group = Vec::new();
        component_of[start] = id;
        while let Some(i) = stack.pop() {
            group.push(i);
            for &j in &conflicts[i] {
                if component_of[j] == usize::MAX {
                    component_of[j] = id;
                    stack.push(j);
                }
            }
        }
        group.sort_unstable();
        components.push(group);
    }
    Structure { conflicts, components }
}
