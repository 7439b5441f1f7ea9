# goalsets.py LEVELS.xsb N SOLUTION.lurd K [PUSHES] (Debian's /usr/bin/python3 with python3-scipy)
# Probe for push-optimal proofs: the bound of a few boxes alone per set of goals.
# At the level's start and before each detour push of the solution (a push that raises g + h; the
# first PUSHES of them, default 3), P = the pushed box and its K-1 nearest boxes. A breadth-first
# search of P alone with the player (every other box taken away) gives, for each set G of |P| goals,
# the fewest pushes c(G) that put P on exactly G (up to L + 12, L the least over all G). Printed:
#   M      the matching of all boxes to the goals (keeper's bound)
#   old    max(M, L + matching of the others to any goals)   (--penalties)
#   new    min over G of c(G) + matching of the others to the goals outside G (sets not found within
#          L + 12 count as L + 13 with the others' matching to any goals): admissible, since P's
#          pushes alone fill some G and the others must fill the rest
import os, sys, collections
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'detour_lib.py')).read())
K=int(sys.argv[4]); NP=int(sys.argv[5]) if len(sys.argv)>5 else 3
SLACK=12
Dm={'u':(-1,0),'d':(1,0),'l':(0,-1),'r':(0,1)}
goal_set=set(goals); gidx={gl:i for i,gl in enumerate(goals)}
def live(s): return any(bdist(j,s,None)<INF for j in range(len(goals)))
LIVE={s for s in floor if live(s)}
def preg(bx, start):
    seen={start}; st=[start]
    while st:
        s=st.pop()
        for d in D:
            t=add(s,d)
            if t in floor and t not in bx and t not in seen: seen.add(t); st.append(t)
    return seen
def goal_costs(P, player):
    start=(frozenset(P), min(preg(P,player)))
    dist={start:0}; q=collections.deque([start]); best={}; L=None
    while q:
        bx,pn=q.popleft(); c=dist[(bx,pn)]
        if L is not None and c>L+SLACK: break
        if all(b in goal_set for b in bx):
            G=frozenset(gidx[b] for b in bx)
            if G not in best: best[G]=c
            if L is None: L=c
        reg=preg(bx,pn)
        for b in bx:
            for d in D:
                p=add(b,(-d[0],-d[1])); t=add(b,d)
                if p in reg and t in LIVE and t not in bx:
                    nbx=(bx-{b})|{t}
                    key=(nbx, min(preg(nbx,b)))
                    if key not in dist: dist[key]=c+1; q.append(key)
    return L,best,len(dist)
def match(rows, cols):
    if not rows: return 0
    M=np.array([[cache.setdefault((b,j),bdist(j,b,None)) for j in cols] for b in rows],dtype=float)
    r,c=linear_sum_assignment(M)
    v=M[r,c].sum()
    return INF if v>=INF else int(v)
def probe(bx, player, box, label):
    near=sorted(bx, key=lambda b: abs(b[0]-box[0])+abs(b[1]-box[1]))
    P=near[:K]; rest=[b for b in bx if b not in P]
    L,best,n=goal_costs(P, player)
    Mall=hval(bx); allg=list(range(len(goals)))
    mrest=match(rest, allg)  # any goals (rectangular)
    old=max(Mall, L+mrest) if L is not None else None
    new=(L+SLACK+1)+mrest if L is not None else None
    arg=None
    for G,c in best.items():
        v=c+match(rest,[j for j in allg if j not in G])
        if v<new: new=v; arg=(sorted(goals[j] for j in G),c)
    print('%s: P %s  M %d  L %s  old %s  new %s  (%d goal sets, %d states; best %s)'%(label,P,Mall,L,old,new,len(best),n,arg),flush=True)
probe(set(boxes), pl, None if False else sorted(boxes)[0], 'start(first box)') if False else None
k=0; prev=hval(boxes); plr=pl; done=0
for ch in sol:
    d=Dm[ch.lower()]; n=add(plr,d)
    if ch.isupper():
        b2=add(n,d); before=set(boxes)
        boxes.remove(n); boxes.add(b2); k+=1
        h=hval(boxes)
        if h>prev-1 and done<NP:
            probe(before, plr, n, 'before push %d (g %d)'%(k,k-1)); done+=1
        prev=h
    plr=n
