//! Graph colourings for compressed Jacobians and Hessians (Curtis–Powell–Reid; Gebremedhin,
//! Manne & Pothen, *What color is your Jacobian?*, SIAM Review 2005).
//!
//! * [`color_columns`]: columns that share no row get the same colour (a distance-2
//!   colouring of the bipartite graph, that is a distance-1 colouring of the column
//!   intersection graph). One forward pass per colour, seeded with the sum of the unit
//!   directions of its columns, then gives each nonzero `J[i, j]` alone in its row's
//!   lane `colour(j)`.
//! * [`star_coloring`]: for a symmetric pattern (a Hessian's), a distance-1 colouring in
//!   which every path on four vertices uses at least three colours. Each nonzero `H[i, j]`
//!   is then alone in row `i`'s colour class of `j` or in row `j`'s of `i`, so it is read
//!   from the compressed `H·S` directly, using symmetry ([`star_recovery`]).
//!
//! Both are greedy. Column colouring tries the natural, largest-first and smallest-last
//! orders and DSATUR, and keeps the fewest colours; star colouring tries the natural,
//! largest-first and smallest-last orders.

use crate::sparse::SparsityPattern;

/// A colouring: `colors()[j]` is the colour of column (or vertex) `j`, in `0..count()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coloring {
    colors: Vec<usize>,
    count: usize,
}

impl Coloring {
    /// The colour of each column.
    pub fn colors(&self) -> &[usize] {
        &self.colors
    }
    /// The number of colours.
    pub fn count(&self) -> usize {
        self.count
    }
    fn from_colors(colors: Vec<usize>) -> Self {
        let count = colors.iter().map(|&c| c + 1).max().unwrap_or(0);
        Coloring { colors, count }
    }
}

/// An undirected graph without self loops, adjacency in compressed rows.
struct Graph {
    ptr: Vec<usize>,
    adj: Vec<usize>,
}

impl Graph {
    fn len(&self) -> usize {
        self.ptr.len() - 1
    }
    fn neighbors(&self, v: usize) -> &[usize] {
        &self.adj[self.ptr[v]..self.ptr[v + 1]]
    }
    fn degree(&self, v: usize) -> usize {
        self.ptr[v + 1] - self.ptr[v]
    }

    /// The column intersection graph: `j ~ k` when some row holds both.
    fn column_intersection(p: &SparsityPattern) -> Graph {
        let t = p.transpose();
        let n = p.ncols();
        let mut mark = vec![usize::MAX; n];
        let (mut ptr, mut adj) = (Vec::with_capacity(n + 1), Vec::new());
        ptr.push(0);
        for j in 0..n {
            mark[j] = j;
            for &r in t.row(j) {
                for &k in p.row(r) {
                    if mark[k] != j {
                        mark[k] = j;
                        adj.push(k);
                    }
                }
            }
            ptr.push(adj.len());
        }
        Graph { ptr, adj }
    }

    /// The adjacency graph of a square pattern, symmetrised, diagonal dropped.
    fn adjacency(p: &SparsityPattern) -> Graph {
        let t = p.transpose();
        let n = p.nrows();
        let mut mark = vec![usize::MAX; n];
        let (mut ptr, mut adj) = (Vec::with_capacity(n + 1), Vec::new());
        ptr.push(0);
        for v in 0..n {
            mark[v] = v;
            for &w in p.row(v).iter().chain(t.row(v)) {
                if mark[w] != v {
                    mark[w] = v;
                    adj.push(w);
                }
            }
            ptr.push(adj.len());
        }
        Graph { ptr, adj }
    }

    /// Vertices by decreasing degree (ties by index).
    fn largest_first(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by_key(|&v| core::cmp::Reverse(self.degree(v)));
        order
    }

    /// Smallest-last (Matula–Beck): repeatedly remove a vertex of smallest remaining
    /// degree; colour in the reverse order of removal.
    fn smallest_last(&self) -> Vec<usize> {
        let n = self.len();
        let mut deg: Vec<usize> = (0..n).map(|v| self.degree(v)).collect();
        let maxd = deg.iter().copied().max().unwrap_or(0);
        // Buckets as doubly linked lists over vertices.
        let none = usize::MAX;
        let (mut head, mut next, mut prev) = (vec![none; maxd + 1], vec![none; n], vec![none; n]);
        let push =
            |v: usize, d: usize, head: &mut [usize], next: &mut [usize], prev: &mut [usize]| {
                next[v] = head[d];
                prev[v] = none;
                if head[d] != none {
                    prev[head[d]] = v;
                }
                head[d] = v;
            };
        let unlink =
            |v: usize, d: usize, head: &mut [usize], next: &mut [usize], prev: &mut [usize]| {
                if prev[v] != none {
                    next[prev[v]] = next[v];
                } else {
                    head[d] = next[v];
                }
                if next[v] != none {
                    prev[next[v]] = prev[v];
                }
            };
        for v in (0..n).rev() {
            push(v, deg[v], &mut head, &mut next, &mut prev);
        }
        let mut removed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut d: usize = 0;
        for _ in 0..n {
            d = d.saturating_sub(1);
            while head[d] == none {
                d += 1;
            }
            let v = head[d];
            unlink(v, d, &mut head, &mut next, &mut prev);
            removed[v] = true;
            order.push(v);
            for &w in self.neighbors(v) {
                if !removed[w] {
                    unlink(w, deg[w], &mut head, &mut next, &mut prev);
                    deg[w] -= 1;
                    push(w, deg[w], &mut head, &mut next, &mut prev);
                }
            }
        }
        order.reverse();
        order
    }

    /// Greedy distance-1 colouring in `order`: each vertex takes the smallest colour no
    /// coloured neighbour has.
    fn greedy(&self, order: &[usize]) -> Vec<usize> {
        let none = usize::MAX;
        let mut color = vec![none; self.len()];
        let mut forbidden: Vec<usize> = Vec::new();
        for &v in order {
            for &w in self.neighbors(v) {
                if color[w] != none {
                    mark(&mut forbidden, color[w], v);
                }
            }
            color[v] = first_free(&forbidden, v);
        }
        color
    }

    /// DSATUR (Brélaz): colour next the vertex whose neighbours show the most distinct
    /// colours (then the largest degree, then the smallest index), with the smallest free
    /// colour. Finds the optimal five colours of the 5-point stencil, where greedy colouring
    /// in a fixed order takes seven.
    fn dsatur(&self) -> Vec<usize> {
        use std::collections::BinaryHeap;
        let none = usize::MAX;
        let n = self.len();
        let mut color = vec![none; n];
        // The distinct colours among each vertex's coloured neighbours.
        let mut sat: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut heap: BinaryHeap<(usize, usize, core::cmp::Reverse<usize>)> = (0..n)
            .map(|v| (0, self.degree(v), core::cmp::Reverse(v)))
            .collect();
        let mut forbidden: Vec<usize> = Vec::new();
        while let Some((s, _, core::cmp::Reverse(v))) = heap.pop() {
            if color[v] != none || s != sat[v].len() {
                continue; // stale entry
            }
            for &w in self.neighbors(v) {
                if color[w] != none {
                    mark(&mut forbidden, color[w], v);
                }
            }
            let c = first_free(&forbidden, v);
            color[v] = c;
            for &w in self.neighbors(v) {
                if color[w] == none && !sat[w].contains(&c) {
                    sat[w].push(c);
                    heap.push((sat[w].len(), self.degree(w), core::cmp::Reverse(w)));
                }
            }
        }
        color
    }

    /// Greedy star colouring in `order`: a vertex takes the smallest colour that neither a
    /// neighbour has nor would close a two-coloured path on four vertices, checked at both
    /// positions the vertex can take in such a path (an end, `v-w-x-y`, or inside,
    /// `a-v-b-c`). Each such path is checked when its last vertex is coloured.
    fn greedy_star(&self, order: &[usize]) -> Vec<usize> {
        let none = usize::MAX;
        let mut color = vec![none; self.len()];
        let mut forbidden: Vec<usize> = Vec::new();
        // Per colour, how many neighbours of the current vertex have it (stamped by vertex).
        let mut seen: Vec<(usize, usize)> = Vec::new();
        for &v in order {
            for &w in self.neighbors(v) {
                let cw = color[w];
                if cw == none {
                    continue;
                }
                mark(&mut forbidden, cw, v);
                if seen.len() <= cw {
                    seen.resize(cw + 1, (none, 0));
                }
                seen[cw] = if seen[cw].0 == v {
                    (v, seen[cw].1 + 1)
                } else {
                    (v, 1)
                };
            }
            for &w in self.neighbors(v) {
                let cw = color[w];
                if cw == none {
                    continue;
                }
                // Inside: another neighbour `a` of `v` has `w`'s colour; `a-v-w-x` is
                // two-coloured if `v` takes `x`'s colour.
                let twice = seen[cw].0 == v && seen[cw].1 >= 2;
                for &x in self.neighbors(w) {
                    let cx = color[x];
                    if x == v || cx == none {
                        continue;
                    }
                    // An end: `v-w-x-y` with `y`'s colour `w`'s.
                    let end = || self.neighbors(x).iter().any(|&y| y != w && color[y] == cw);
                    if twice || end() {
                        mark(&mut forbidden, cx, v);
                    }
                }
            }
            color[v] = first_free(&forbidden, v);
        }
        color
    }
}

fn mark(forbidden: &mut Vec<usize>, c: usize, v: usize) {
    if forbidden.len() <= c {
        forbidden.resize(c + 1, usize::MAX);
    }
    forbidden[c] = v;
}

fn first_free(forbidden: &[usize], v: usize) -> usize {
    (0..)
        .find(|&c| forbidden.get(c) != Some(&v))
        .expect("a free colour exists")
}

fn fewest(candidates: impl IntoIterator<Item = Vec<usize>>) -> Coloring {
    candidates
        .into_iter()
        .map(Coloring::from_colors)
        .min_by_key(|c| c.count)
        .unwrap_or(Coloring {
            colors: Vec::new(),
            count: 0,
        })
}

/// A colouring of the columns of `pattern` in which no two columns of one colour share a
/// row: the fewest colours of greedy colouring in the natural, largest-first and
/// smallest-last orders and of DSATUR.
///
/// ```
/// use fwdad::coloring::color_columns;
/// use fwdad::sparse::SparsityPattern;
///
/// // Tridiagonal, 5 × 5: three colours, j mod 3.
/// let rows: Vec<Vec<usize>> = (0..5usize)
///     .map(|i| (i.saturating_sub(1)..(i + 2).min(5)).collect())
///     .collect();
/// let c = color_columns(&SparsityPattern::from_rows(5, &rows));
/// assert_eq!(c.count(), 3);
/// ```
pub fn color_columns(pattern: &SparsityPattern) -> Coloring {
    let g = Graph::column_intersection(pattern);
    let natural: Vec<usize> = (0..g.len()).collect();
    fewest([
        g.greedy(&natural),
        g.greedy(&g.largest_first()),
        g.greedy(&g.smallest_last()),
        g.dsatur(),
    ])
}

/// A star colouring of the symmetric pattern `pattern` (square; the diagonal is ignored):
/// the fewest colours of greedy star colouring in the natural, largest-first and
/// smallest-last orders.
///
/// # Panics
/// If `pattern` is not square.
pub fn star_coloring(pattern: &SparsityPattern) -> Coloring {
    assert_eq!(
        pattern.nrows(),
        pattern.ncols(),
        "star_coloring: the pattern is not square"
    );
    let g = Graph::adjacency(pattern);
    let natural: Vec<usize> = (0..g.len()).collect();
    fewest([
        g.greedy_star(&natural),
        g.greedy_star(&g.largest_first()),
        g.greedy_star(&g.smallest_last()),
    ])
}

/// Whether no two columns of one colour share a row of `pattern`.
pub fn is_column_coloring(pattern: &SparsityPattern, coloring: &Coloring) -> bool {
    let mut seen = vec![usize::MAX; coloring.count()];
    (0..pattern.nrows()).all(|i| {
        pattern.row(i).iter().all(|&j| {
            let c = coloring.colors()[j];
            let fresh = seen[c] != i;
            seen[c] = i;
            fresh
        })
    })
}

/// Where to read each nonzero of a symmetric pattern from `B = H·S` (`S` the colour
/// indicator columns): for the `k`-th entry of `pattern` in row order, at `(i, j)`,
/// `Some((row, colour))` with `H[i, j] = B[row, colour]`. `None` when the colouring does
/// not allow a direct read (it is not a star colouring of the pattern).
///
/// `(i, j)` and `(j, i)` are read from the same place, so the recovered matrix is exactly
/// symmetric: from row `min(i, j)` when the colouring allows it (the orientation in which
/// the dense `hessian` computes the upper triangle, `d1 = e_min`, `d2 = e_max`), else from
/// row `max(i, j)`.
pub fn star_recovery(
    pattern: &SparsityPattern,
    coloring: &Coloring,
) -> Option<Vec<(usize, usize)>> {
    let colors = coloring.colors();
    let sym = pattern.symmetrized();
    // count[i][c]: entries of row i (diagonal included) in colour c; a stamp per row.
    let mut count = vec![(usize::MAX, 0usize); coloring.count()];
    let mut unique_in_row: Vec<Vec<bool>> = Vec::with_capacity(sym.nrows());
    for i in 0..sym.nrows() {
        for &j in sym.row(i) {
            let c = colors[j];
            count[c] = if count[c].0 == i {
                (i, count[c].1 + 1)
            } else {
                (i, 1)
            };
        }
        unique_in_row.push(
            sym.row(i)
                .iter()
                .map(|&j| count[colors[j]].1 == 1)
                .collect(),
        );
    }
    let unique = |i: usize, j: usize| -> bool {
        let k = sym
            .row(i)
            .binary_search(&j)
            .expect("entry of the symmetrised pattern");
        unique_in_row[i][k]
    };
    pattern
        .iter()
        .map(|(i, j)| {
            let (lo, hi) = (i.min(j), i.max(j));
            if unique(lo, hi) {
                Some((lo, colors[hi]))
            } else if unique(hi, lo) {
                Some((hi, colors[lo]))
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_laplacian(m: usize) -> SparsityPattern {
        let rows: Vec<Vec<usize>> = (0..m * m)
            .map(|k| {
                let (i, j) = (k / m, k % m);
                let mut r = vec![k];
                if i > 0 {
                    r.push(k - m);
                }
                if i + 1 < m {
                    r.push(k + m);
                }
                if j > 0 {
                    r.push(k - 1);
                }
                if j + 1 < m {
                    r.push(k + 1);
                }
                r.sort_unstable();
                r
            })
            .collect();
        SparsityPattern::from_rows(m * m, &rows)
    }

    /// Every path a-b-c-d of distinct vertices uses at least three colours.
    fn is_star(g: &Graph, color: &[usize]) -> bool {
        for b in 0..g.len() {
            for &c in g.neighbors(b) {
                for &a in g.neighbors(b) {
                    for &d in g.neighbors(c) {
                        let distinct = a != c && d != b && a != d;
                        if distinct && color[a] == color[c] && color[b] == color[d] {
                            return false;
                        }
                    }
                }
            }
        }
        g.ptr
            .windows(2)
            .enumerate()
            .all(|(v, _)| g.neighbors(v).iter().all(|&w| color[w] != color[v]))
    }

    fn random_symmetric(n: usize, per_row: usize, seed: u64) -> SparsityPattern {
        let mut s = seed;
        let mut rnd = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut rows: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        for i in 0..n {
            for _ in 0..per_row {
                let j = (rnd() % n as u64) as usize;
                rows[i].push(j);
                rows[j].push(i);
            }
        }
        for r in &mut rows {
            r.sort_unstable();
            r.dedup();
        }
        SparsityPattern::from_rows(n, &rows)
    }

    #[test]
    fn five_point_stencil_takes_five_colours() {
        let p = grid_laplacian(30);
        let c = color_columns(&p);
        assert!(is_column_coloring(&p, &c));
        assert_eq!(c.count(), 5);
    }

    #[test]
    fn column_coloring_of_random_patterns_is_valid() {
        for seed in 1..20 {
            let p = random_symmetric(200, 3, seed);
            let c = color_columns(&p);
            assert!(is_column_coloring(&p, &c), "seed {seed}");
            // No colour class is needed twice in any row, so at least the densest row's
            // length many colours.
            let densest = (0..p.nrows()).map(|i| p.row(i).len()).max().unwrap();
            assert!(c.count() >= densest);
        }
    }

    #[test]
    fn star_colorings_are_star_and_recoverable() {
        for seed in 1..30 {
            let p = random_symmetric(120, 2, seed);
            let c = star_coloring(&p);
            let g = Graph::adjacency(&p);
            assert!(is_star(&g, c.colors()), "seed {seed}");
            assert!(star_recovery(&p, &c).is_some(), "seed {seed}");
        }
    }

    #[test]
    fn star_coloring_beats_distance_two_on_an_arrowhead() {
        // Row 0 and column 0 full, plus the diagonal: distance-2 colouring needs n colours,
        // a star colouring two (the hub, and everyone else).
        let n = 50;
        let rows: Vec<Vec<usize>> = (0..n)
            .map(|i| if i == 0 { (0..n).collect() } else { vec![0, i] })
            .collect();
        let p = SparsityPattern::from_rows(n, &rows);
        assert_eq!(color_columns(&p).count(), n);
        let c = star_coloring(&p);
        assert_eq!(c.count(), 2);
        assert!(star_recovery(&p, &c).is_some());
    }

    #[test]
    fn a_bicoloured_path_is_not_recoverable() {
        // Path 0-1-2-3 coloured 0,1,0,1: H[1,2] is neither alone in row 1's colour 0
        // (with 0) nor in row 2's colour 1 (with 3).
        let rows = vec![vec![0, 1], vec![0, 1, 2], vec![1, 2, 3], vec![2, 3]];
        let p = SparsityPattern::from_rows(4, &rows);
        let c = Coloring::from_colors(vec![0, 1, 0, 1]);
        assert!(star_recovery(&p, &c).is_none());
        let star = star_coloring(&p);
        assert_eq!(star.count(), 3);
        assert!(star_recovery(&p, &star).is_some());
    }
}
