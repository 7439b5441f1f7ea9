# detour_lib.py: the level, its floor, lone-box push distances to each goal (pulls from the goal,
# the player's region tracked) and the matching bound hval(boxes), for detours.py. Reads sys.argv[1]
# (level file), sys.argv[2] (the level's number, its '; N' title line) and sys.argv[3] (a LURD solution).
import sys, collections
import numpy as np
from scipy.optimize import linear_sum_assignment
def load(path, n):
    cur=None; out=[]
    for line in open(path):
        line=line.rstrip('\n')
        if line.startswith(';'):
            cur = [] if line.strip()=='; %d'%n else None
            if cur is not None: out=cur
            continue
        if cur is not None and line.strip() and set(line)<=set(' #$.*@+_-'):
            cur.append(line)
    return out
rows=load(sys.argv[1], int(sys.argv[2])); sol=open(sys.argv[3]).read().split()[0]
W=max(len(r) for r in rows); H=len(rows); g=[list(r.ljust(W)) for r in rows]
walls=set();goals=[];boxes=set();pl=None
for y,r in enumerate(g):
    for x,c in enumerate(r):
        if c=='#': walls.add((y,x))
        if c in '.*+': goals.append((y,x))
        if c in '$*': boxes.add((y,x))
        if c in '@+': pl=(y,x)
D=[(-1,0),(1,0),(0,-1),(0,1)]; DN='udlr'
def add(a,b): return (a[0]+b[0],a[1]+b[1])
# floor = reachable squares from player ignoring boxes
floor=set(); st=[pl]
while st:
    s=st.pop()
    if s in floor or s in walls: continue
    if not (0<=s[0]<H and 0<=s[1]<W): continue
    floor.add(s); st.extend(add(s,d) for d in D)
# pull-BFS from each goal: distance (box at s, player at side) to goal; lone box, player-aware
def region(box, start):
    seen={start}; st=[start]
    while st:
        s=st.pop()
        for d in D:
            t=add(s,d)
            if t in floor and t!=box and t not in seen: seen.add(t); st.append(t)
    return seen
INF=10**6
dist={}  # dist[goal][(box,plsq_side)] min pushes
def goal_dist(gl):
    # backward BFS over states (box, player square normalized by region) via pulls
    res={}
    q=collections.deque()
    for d in D:
        p=add(gl,d)
        if p in floor:
            st=(gl, min(region(gl,p)))
            if st not in res: res[st]=0; q.append(st)
    regcache={}
    while q:
        box,pn=q.popleft(); c=res[(box,pn)]
        reg=regcache.get((box,pn)) or region(box,pn); regcache[(box,pn)]=reg
        for d in D:
            p=add(box,d)          # player stands here, pulls box to p, player to p+d
            p2=add(p,d)
            if p in reg and p2 in floor:
                nb=p; np_=p2
                key=(nb, min(region(nb,np_)))
                if key not in res: res[key]=c+1; q.append(key)
    return res
GD=[goal_dist(gl) for gl in goals]
def bdist(gi, box, boxes_pl_region_rep):
    # min over player sides reachable? use best over sides (lone box)
    best=INF
    r=GD[gi]
    for d in D:
        p=add(box,d)
        if p in floor:
            k=(box,min(region(box,p)))
            if k in r: best=min(best,r[k])
    return best
cache={}
def hval(bx):
    bl=sorted(bx)
    M=np.zeros((len(bl),len(goals)))
    for i,b in enumerate(bl):
        for j in range(len(goals)):
            k=(b,j)
            if k not in cache: cache[k]=bdist(j,b,None)
            M[i,j]=cache[k]
    r,c=linear_sum_assignment(M)
    return int(M[r,c].sum())
