//! A group's merge history: the tree of ID merges that formed it, with the
//! optimal plan found for every merge of its subgroups alone. It gives a
//! merged group's admissible bound ([`MergeBound`]) and the parts a
//! conflict-based search over a merge replans.

use std::rc::Rc;

use super::problem::{GroupPlan, MergeBound, MergeNode, Part};

/// A group's merge history.
#[derive(Clone, Debug)]
pub(crate) enum History {
    Unit(usize),
    /// Two groups merged, and the optimal plan of their union alone (`None`
    /// while it is being searched for).
    Merge(Box<History>, Box<History>, Option<Rc<Solved>>),
}

/// The optimal plan of a merged group alone, over its units in ascending
/// order, and the expansions it took.
#[derive(Clone, Debug)]
pub(crate) struct Solved {
    pub plan: GroupPlan,
    pub effort: u64,
}

impl History {
    /// The optimal cost of a merge alone, 0 while unknown (and for one unit).
    pub fn cost(&self) -> u64 {
        match self {
            History::Merge(_, _, Some(s)) => s.plan.cost,
            _ => 0,
        }
    }

    /// The units, ascending.
    pub fn units(&self) -> Vec<usize> {
        fn walk(h: &History, out: &mut Vec<usize>) {
            match h {
                History::Unit(u) => out.push(*u),
                History::Merge(a, b, _) => {
                    walk(a, out);
                    walk(b, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out.sort_unstable();
        out
    }

    /// The bound over the group's `units` (ascending), or `None` for one unit.
    pub fn bound(&self, units: &[usize]) -> Option<MergeBound> {
        fn walk(h: &History, units: &[usize], out: &mut Vec<MergeNode>) -> Part {
            match h {
                History::Unit(u) => Part::Unit(units.binary_search(u).expect("unit of the group")),
                History::Merge(a, b, _) => {
                    let parts = [walk(a, units, out), walk(b, units, out)];
                    out.push(MergeNode {
                        parts,
                        cost: u32::try_from(h.cost()).unwrap_or(u32::MAX),
                    });
                    Part::Merge(out.len() - 1)
                }
            }
        }
        let mut merges = Vec::new();
        walk(self, units, &mut merges);
        (!merges.is_empty()).then(|| MergeBound::new(merges, units.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_history_becomes_a_bound_over_group_indices() {
        let solved = |cost| {
            Some(Rc::new(Solved {
                plan: GroupPlan {
                    paths: Vec::new(),
                    cost,
                },
                effort: 0,
            }))
        };
        let h = History::Merge(
            Box::new(History::Merge(
                Box::new(History::Unit(5)),
                Box::new(History::Unit(2)),
                solved(10),
            )),
            Box::new(History::Unit(7)),
            None,
        );
        assert_eq!(h.units(), [2, 5, 7]);
        let b = h.bound(&[2, 5, 7]).expect("a merge");
        assert_eq!(
            b.merges,
            vec![
                MergeNode {
                    parts: [Part::Unit(1), Part::Unit(0)],
                    cost: 10
                },
                MergeNode {
                    parts: [Part::Merge(0), Part::Unit(2)],
                    cost: 0
                },
            ]
        );
        // Units' g + h of 3, 4 and 5: the pair is raised to its optimum 10.
        let mut vals = Vec::new();
        assert_eq!(b.eval(&[3, 4, 5], &mut vals), 15);
        assert_eq!(vals, [10, 15]);
        // Changing one unit only recomputes the merges above it.
        assert_eq!(b.eval_one(&[3, 4, 5], &vals, 1, 9), 17);
        assert_eq!(b.eval_one(&[3, 4, 5], &vals, 2, 8), 18);
        assert_eq!(b.eval(&[3, 9, 5], &mut vals), 17);
        assert!(History::Unit(3).bound(&[3]).is_none());
    }
}
