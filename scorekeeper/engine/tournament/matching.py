"""Minimum-cost perfect matching of positions 0..n-1 (n even), the cost of a pair being
`penalty(a, b)` first (rematches) and then `(a - b)²`: lexicographic, through networkx's
`max_weight_matching(..., maxcardinality=True)` on weights `K - cost` (integers: exact). Among
pairings equal on both, a third tier prefers the one where the better-placed meet the closer
opponents: the smallest sum of `(b - a) × (n - a)` over the pairs (a < b).

A complete graph of 150 entrants takes networkx over a second, so the pairs are looked for among
positions at most `W` apart first, and that answer is proven optimal or `W` doubles (up to the
complete graph): a pairing with no penalty and a squared-gap sum `S` within the window is optimal
when `S <= (W + 1)² + (n/2 - 1)`, since any pairing using a pair further apart costs at least that
much (that pair, and at least 1 for each of the others); strictly less, for the third tier."""

from collections.abc import Callable

Pair = tuple[int, int]
FIRST_WINDOW = 4


def pairing_cost(pairs: list[Pair], penalty: Callable[[int, int], int]) -> tuple[int, int]:
    """(penalties, sum of squared gaps) of a pairing: the two tiers of the cost."""
    return (sum(penalty(a, b) for a, b in pairs), sum((a - b) ** 2 for a, b in pairs))


def _solve(n: int, window: int, penalty: Callable[[int, int], int]) -> list[Pair]:
    # Imported here, not at the top: networkx is a third of the modules a process would load at
    # start (every page and command imports the engine), and only a draw pairs entrants.
    import networkx as nx

    tie_big = (n // 2) * n * n + 1  # more than any sum of the third tier
    gap_big = ((n // 2) * (n - 1) ** 2 + 1) * tie_big  # more than any sum of the two below
    edges = []
    for a in range(n):
        for b in range(a + 1, min(n, a + window + 1)):
            cost = penalty(a, b) * gap_big + (b - a) ** 2 * tie_big + (b - a) * (n - a)
            edges.append((a, b, cost))
    top = max(cost for _, _, cost in edges) + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((a, b, top - cost) for a, b, cost in edges)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matched)


def min_cost_pairs(n: int, penalty: Callable[[int, int], int]) -> list[Pair]:
    """A perfect matching of 0..n-1 with the fewest penalties, then the smallest sum of
    `(a - b)²`; pairs as (a, b) with a < b, sorted."""
    if n % 2:
        raise ValueError("a perfect matching needs an even number of positions")
    if n == 0:
        return []
    window = min(FIRST_WINDOW, n - 1)
    while True:
        pairs = _solve(n, window, penalty)
        if window >= n - 1:
            return pairs
        penalties, gaps = pairing_cost(pairs, penalty)
        if len(pairs) == n // 2 and not penalties and gaps < (window + 1) ** 2 + n // 2 - 1:
            return pairs
        window = min(window * 2, n - 1)
