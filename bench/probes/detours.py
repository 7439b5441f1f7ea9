# detours.py LEVELS.xsb N SOLUTION.lurd K1,K2,... (run with a Python that has numpy and scipy,
# e.g. Debian's /usr/bin/python3 with python3-scipy; needs subset_exact built as /tmp/subset_exact:
#   cc -O2 -o /tmp/subset_exact bench/probes/subset_exact.c)
# Probe for push-optimal proofs (bench/README.md, "Where the matching bound is wrong: clusters"):
# replays a solution with the matching bound of each position (lone-box push distances, any goals),
# and at each push that raises g + h (a detour), takes the position before it, the pushed box and its
# k-1 nearest boxes (Manhattan), and prints what the exact pushes of those boxes alone with the
# player (every other box taken away) exceed their own matching by.
import os, sys, subprocess
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'detour_lib.py')).read())
Dm={'u':(-1,0),'d':(1,0),'l':(0,-1),'r':(0,1)}
KS=[int(x) for x in sys.argv[4].split(',')]
def board_text(bx, player):
    out=[]
    for y in range(H):
        s=''
        for x in range(W):
            p=(y,x)
            if p in walls: s+='#'
            elif p==player: s+='+' if p in goals else '@'
            elif p in goals: s+='.'
            else: s+=' '
        out.append(s.rstrip() or ' ')
    return '\n'.join(out)+'\n'
k=0; prev=hval(boxes); plr=pl
for ch in sol:
    d=Dm[ch.lower()]; n=add(plr,d)
    if ch.isupper():
        b2=add(n,d)
        before=set(boxes); player_before=plr
        boxes.remove(n); boxes.add(b2); k+=1
        h=hval(boxes)
        if h>prev-1:
            open('/tmp/detours-pos.xsb','w').write(board_text(before, player_before))
            near=sorted(before, key=lambda b: abs(b[0]-n[0])+abs(b[1]-n[1]))
            res=[]
            for kk in KS:
                P=near[:kk]
                try:
                    o=subprocess.run(['/tmp/subset_exact','/tmp/detours-pos.xsb']+['%d,%d'%p for p in P],capture_output=True,text=True,timeout=60).stdout.strip().splitlines()[-1]
                except subprocess.TimeoutExpired: o='timeout'
                g='?'
                if 'gain' in o: g=o.split('gain')[1].strip(' )=>,').split(')')[0].split(',')[0]
                res.append('k=%d:%s'%(kk,g))
            print('push %d box %s->%s f %d->%d  %s'%(k,n,b2,k-1+prev,k+h,' '.join(res)),flush=True)
        prev=h
    plr=n
