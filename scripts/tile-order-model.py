#!/usr/bin/env python3
"""A model (not a measurement) of GRID=persistent's tile assignment on causal grids.

Each tile's work is its KV blocks plus 0.3 of a block for its epilogue; tiles come in
GRID=tiles' order (a head's tiles together, longest first). Prints the longest CTA's work for
the round-robin of the fourteenth session (CTA c takes tiles c, c + G, ...), the boustrophedon
of attncc-map-to-gpu since the fifteenth (round k: tile kG + c when k is even, kG + G - 1 - c
when odd), a greedy dynamic scheduler (each tile to the least-loaded CTA, in order) and the
perfect split, and checks that the boustrophedon computes every tile once.
Usage: scripts/tile-order-model.py
"""
import heapq

EPILOGUE = 0.3


def causal_tiles(heads, qblocks):
    return [qblocks - i for _ in range(heads) for i in range(qblocks)]


def boustrophedon(points, grid):
    """Tile ids per CTA, as attncc-map-to-gpu's tile loop computes them."""
    out = []
    for c in range(grid):
        whole, mirror = points // grid, grid - 1 - c
        rest = points - whole * grid
        last = mirror if whole & 1 else c
        trips = whole + (1 if last < rest else 0)
        out.append([k * grid + (mirror if k & 1 else c) for k in range(trips)])
    return out


def longest(assign, work):
    return max(sum(work[t] + EPILOGUE for t in ts) for ts in assign)


def main():
    for p in range(1, 200):
        for g in range(1, 200):
            ids = sorted(t for ts in boustrophedon(p, g) for t in ts)
            assert ids == list(range(p)), (p, g)
    print("boustrophedon: every tile once for tiles, grids < 200")
    for name, heads, qblocks, grid in [("[8,16,4096,128] causal, 128-row tiles", 128, 32, 132),
                                       ("[1,8,4096,64] causal, 128-row tiles", 8, 32, 132)]:
        work = causal_tiles(heads, qblocks)
        n = len(work)
        robin = [list(range(c, n, grid)) for c in range(grid)]
        heap = [(0.0, c) for c in range(grid)]
        for w in work:
            load, c = heapq.heappop(heap)
            heapq.heappush(heap, (load + w + EPILOGUE, c))
        dynamic = max(load for load, _ in heap)
        print(f"{name} on {grid} CTAs: perfect {sum(w + EPILOGUE for w in work) / grid:.1f}, "
              f"round-robin {longest(robin, work):.1f}, boustrophedon "
              f"{longest(boustrophedon(n, grid), work):.1f}, greedy dynamic {dynamic:.1f} (block-times)")


if __name__ == "__main__":
    main()
