# goalroom.py LEVELS.xsb N (Debian's /usr/bin/python3 with python3-scipy)
# Probe for push-optimal proofs: the cost of filling the goal squares, boxes arriving one at a time.
# Every box off the goals needs at least d_out(b) pushes to land on some goal (its push distance,
# alone, to the nearest goal). Once there, the goal squares hold it: a search over the sets S of
# filled goals and the player's region (the squares off the goals merged into one hub, always
# connected: a relaxation) gives V(S), the fewest pushes inside the goal squares that fill them all,
# a box arriving on any free goal square beside the hub at no cost (its landing push is in d_out),
# a box pushed off the goals costing 2 (that push and at least one to land again) and counting as
# one more to arrive. h = sum d_out + V(S0) is admissible; printed beside the matching M.
import os, sys, heapq
sys.argv = sys.argv[:3] + ['/dev/stdin']
sys.stdin = open(os.devnull)
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'detour_lib.py')).read()
src = src.replace("sol=open(sys.argv[3]).read().split()[0]", "sol=''")
exec(src)
G = goals; NG = len(G); gi = {g: i for i, g in enumerate(G)}
HUB = -1
adj = {s: [add(s, d) for d in D] for s in floor}
boundary = [g for g in G if any(t in floor and t not in gi for t in adj[g])]
def fregion(S, start):
    """the player's region from start (a goal index or HUB) with filled goals S:
    a bitmask of free goals reachable, bit NG for the hub"""
    seen = 0; st = []
    if start == HUB:
        seen |= 1 << NG
        for g in boundary:
            i = gi[g]
            if not S >> i & 1 and not seen >> i & 1: seen |= 1 << i; st.append(g)
    else:
        seen |= 1 << start; st.append(G[start])
    while st:
        s = st.pop()
        for t in adj[s]:
            if t not in floor: continue
            if t in gi:
                i = gi[t]
                if not S >> i & 1 and not seen >> i & 1: seen |= 1 << i; st.append(t)
            elif not seen >> NG & 1:
                seen |= 1 << NG
                for g in boundary:
                    i = gi[g]
                    if not S >> i & 1 and not seen >> i & 1: seen |= 1 << i; st.append(g)
    return seen
def at(reg, sq):
    """the player can stand on sq (a floor square) in region reg"""
    if sq in gi: return reg >> gi[sq] & 1
    return reg >> NG & 1
def fill(S0, r0, player):
    full = (1 << NG) - 1
    start = (S0, r0, fregion(S0, player))
    dist = {start: 0}; pq = [(0, start)]; n = 0
    while pq:
        c, st = heapq.heappop(pq)
        if dist.get(st) != c: continue
        S, r, reg = st; n += 1
        if S == full: return c, n
        def relax(nst, nc):
            if nc < dist.get(nst, 1 << 30): dist[nst] = nc; heapq.heappush(pq, (nc, nst))
        if r > 0:   # a box lands on a free goal e beside the hub, pushed from o by a player at p
            for e in boundary:
                i = gi[e]
                if S >> i & 1: continue
                for d in D:
                    o = add(e, (-d[0], -d[1])); p = add(o, (-d[0], -d[1]))
                    if o in floor and o not in gi and p in floor and at(reg, p):
                        NS = S | 1 << i
                        relax((NS, r - 1, fregion(NS, HUB)), c)
        for i in range(NG):
            if not S >> i & 1: continue
            b = G[i]
            for d in D:
                p = add(b, (-d[0], -d[1])); t = add(b, d)
                if p not in floor or t not in floor or not at(reg, p): continue
                if t in gi:
                    j = gi[t]
                    if S >> j & 1: continue
                    NS = S & ~(1 << i) | 1 << j
                    relax((NS, r, fregion(NS, i)), c + 1)
                else:
                    NS = S & ~(1 << i)
                    relax((NS, r + 1, fregion(NS, i)), c + 2)
    return None, n
M = hval(boxes)
off = [b for b in boxes if b not in gi]
dout = sum(min(bdist(j, b, None) for j in range(NG)) for b in off)
S0 = sum(1 << gi[b] for b in boxes if b in gi)
V, n = fill(S0, len(off), gi[pl] if pl in gi else HUB)
print('level %s: boxes %d, goals %d (%d beside the hub); M %d; sum d_out %d + V %s = %s (%d states)'
      % (sys.argv[2], len(boxes), NG, len(boundary), M, dout, V, None if V is None else dout + V, n), flush=True)
