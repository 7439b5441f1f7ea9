# goalsets_k.py LEVELS.xsb N K [MAXDIST]: at the level's start, for every set of K boxes that is a
# cluster (each within Manhattan MAXDIST, default 3, of another in the set) or whose matched goals are
# pairwise within 2 steps: the fewest pushes that bring those boxes alone (every other box taken away,
# the player where he stands) onto exactly the goals the matching gives them, against their matched
# distances. A table over K goals combined with the matching's duals (heuristic/pairdb.c for K = 2)
# adds at most that excess for the set, so the greedy sum over disjoint sets bounds what such tables
# could add at the start. Needs numpy and scipy (Debian: python3-scipy) and subset_exact built as
# /tmp/subset_exact (cc -O2 -o /tmp/subset_exact bench/probes/subset_exact.c). The base matching is
# detour_lib's (lone-box distances, the better side): it runs below keeper's, so compare the sum
# with keeper's root bound, not with the printed matching.
import sys, os, itertools, subprocess
sys.argv=[sys.argv[0], sys.argv[1], sys.argv[2], '/dev/null'] + sys.argv[3:]
src=open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'detour_lib.py')).read().replace("sol=open(sys.argv[3]).read().split()[0]","sol=''")
exec(src)
K=int(sys.argv[4]); MD=int(sys.argv[5]) if len(sys.argv)>5 else 3
bl=sorted(boxes)
M=np.zeros((len(bl),len(goals)))
for i,b in enumerate(bl):
    for j in range(len(goals)): M[i,j]=bdist(j,b,None)
r,c=linear_sum_assignment(M); sig=dict(zip(r,c)); tot=int(M[r,c].sum())
print('level',sys.argv[2],'boxes',len(bl),'matching',tot,flush=True)
def man(a,b): return abs(a[0]-b[0])+abs(a[1]-b[1])
# goal-goal steps on the floor
def steps(a,b):
    seen={a:0}; q=collections.deque([a])
    while q:
        s=q.popleft()
        if s==b: return seen[s]
        for d in D:
            t=add(s,d)
            if t in floor and t not in seen: seen[t]=seen[s]+1; q.append(t)
    return 99
res=[]
for P in itertools.combinations(range(len(bl)),K):
    cl=all(any(man(bl[i],bl[j])<=MD for j in P if j!=i) for i in P)
    T=[goals[sig[i]] for i in P]
    gc=all(steps(T[a],T[b])<=2 for a in range(K) for b in range(a+1,K))
    if not (cl or gc): continue
    rows=[]
    for y in range(H):
        s=''
        for x in range(W):
            p=(y,x)
            if p in walls: s+='#'
            elif p==pl: s+='+' if p in T else '@'
            elif p in T: s+='.'
            else: s+=' '
        rows.append(s.rstrip() or ' ')
    open('/tmp/goalsets_k-pos.xsb','w').write('\n'.join(rows)+'\n')
    try:
        o=subprocess.run(['/tmp/subset_exact','/tmp/goalsets_k-pos.xsb']+['%d,%d'%bl[i] for i in P],capture_output=True,text=True,timeout=20).stdout.strip().splitlines()[-1]
    except subprocess.TimeoutExpired:
        o='timeout'
    own=int(sum(M[i,sig[i]] for i in P))
    if o.startswith('exact'):
        ex=int(o.split()[1])-own
    elif o.startswith('none'): ex=999
    else: ex=None
    res.append((P,ex,o))
    if ex: print(P,[bl[i] for i in P],'excess',ex,o,flush=True)
# greedy disjoint sum (largest first), rounded up to even
pos=sorted([x for x in res if x[1] and x[1]>0 and x[1]<999], key=lambda x:-x[1])
used=set(); s=0
for P,ex,o in pos:
    if used & set(P): continue
    used|=set(P); s+=ex
print('level',sys.argv[2],'K',K,'sets',len(res),'positive',len(pos),'greedy disjoint sum',s, 'even', s+(s%2))
