/* subset_exact.c: a probe for push-optimal proofs (bench/README.md, "Where the matching bound is
 * wrong: clusters"). The fewest pushes that bring a few boxes onto any goals with every other box
 * taken away and the player where he stands, found by A* on the boxes' matching (lone-box push
 * distances, the player ignored), against that matching: the gain a bound over those boxes alone
 * could add. Usage: subset_exact LEVEL.xsb Y,X ... (one level, the player as '@'; boxes in the file
 * are ignored, the squares given are the boxes kept, row and column from 0). Stops at 4 M states. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#define MAXS 1024
#define MAXK 8
static int W, H, nsq, ngoal, goals[64], K;
static char grid[64][64];
static int floor_[MAXS], isgoal[MAXS];
static int nb[MAXS][4];
static int dist[64][MAXS]; /* dist[goal][sq] */
static int dy[4] = {-1, 1, 0, 0}, dx[4] = {0, 0, -1, 1};
static int sq(int y, int x) { return y * W + x; }
static void bfs_goal(int gi) {
    int *d = dist[gi]; for (int i = 0; i < nsq; i++) d[i] = 9999;
    int q[MAXS], h = 0, t = 0; d[goals[gi]] = 0; q[t++] = goals[gi];
    while (h < t) { int s = q[h++];
        for (int k = 0; k < 4; k++) { /* pull: box from s to s+dir, player at s+2dir */
            int a = nb[s][k]; if (a < 0 || !floor_[a]) continue;
            int b = nb[a][k]; if (b < 0 || !floor_[b]) continue;
            if (d[a] > d[s] + 1) { d[a] = d[s] + 1; q[t++] = a; } } }
}
static int hval(const int *bx) { /* min assignment of K boxes to goals: DP over boxes, goal mask */
    /* depth-first over the boxes' goals, cut at the best found */
    int best = 99999; int used[64] = {0};
    int cur = 0;
    int idx[MAXK + 1]; int lvl = 0; idx[0] = -1;
    while (lvl >= 0) {
        if (lvl == K) { if (cur < best) best = cur; lvl--; if (lvl >= 0) { used[idx[lvl]] = 0; cur -= dist[idx[lvl]][bx[lvl]]; } continue; }
        int g = idx[lvl] + 1;
        while (g < ngoal && (used[g] || cur + dist[g][bx[lvl]] >= best)) g++;
        if (g >= ngoal) { lvl--; if (lvl >= 0) { used[idx[lvl]] = 0; cur -= dist[idx[lvl]][bx[lvl]]; } continue; }
        idx[lvl] = g; used[g] = 1; cur += dist[g][bx[lvl]]; lvl++; idx[lvl] = -1;
    }
    return best;
}
typedef struct { uint16_t b[MAXK]; uint16_t pl; uint16_t g; } st;
static st *pool; static size_t npool, cappool;
static uint32_t *tab; static size_t tcap;
static uint64_t hkey(const st *s) { uint64_t h = 1469598103934665603ull; for (int i = 0; i < K; i++) h = (h ^ s->b[i]) * 1099511628211ull; h = (h ^ s->pl) * 1099511628211ull; return h; }
static int same(const st *a, const st *b) { return !memcmp(a->b, b->b, sizeof a->b[0] * K) && a->pl == b->pl; }
static int occ[MAXS];
static int region(const st *s, int *mark, int stamp) { /* returns min square; marks region */
    int q[MAXS], t = 0, m = s->pl; mark[s->pl] = stamp; q[t++] = s->pl;
    for (int h = 0; h < t; h++) { int x = q[h]; if (x < m) m = x;
        for (int k = 0; k < 4; k++) { int y = nb[x][k]; if (y < 0 || !floor_[y] || occ[y] || mark[y] == stamp) continue; mark[y] = stamp; q[t++] = y; } }
    return m;
}
static int cmpu16(const void *a, const void *b) { return *(uint16_t *)a - *(uint16_t *)b; }
/* bucket lists per f */
#define MAXF 2000
static uint32_t *bucket[MAXF]; static size_t bn[MAXF], bc[MAXF];
static void push_b(int f, uint32_t i) { if (bn[f] == bc[f]) { bc[f] = bc[f] ? bc[f] * 2 : 1024; bucket[f] = realloc(bucket[f], bc[f] * 4); } bucket[f][bn[f]++] = i; }
static long find_or_add(const st *s, int *isnew) {
    if (npool * 2 >= tcap) { size_t nc = tcap ? tcap * 2 : 1 << 20; uint32_t *nt = malloc(nc * 4); memset(nt, 0xff, nc * 4);
        for (size_t i = 0; i < npool; i++) { uint64_t h = hkey(&pool[i]) & (nc - 1); while (nt[h] != UINT32_MAX) h = (h + 1) & (nc - 1); nt[h] = (uint32_t)i; }
        free(tab); tab = nt; tcap = nc; }
    uint64_t h = hkey(s) & (tcap - 1);
    while (tab[h] != UINT32_MAX) { if (same(&pool[tab[h]], s)) { *isnew = 0; return tab[h]; } h = (h + 1) & (tcap - 1); }
    if (npool == cappool) { cappool = cappool ? cappool * 2 : 1 << 20; pool = realloc(pool, cappool * sizeof *pool); }
    pool[npool] = *s; tab[h] = (uint32_t)npool; *isnew = 1; return (long)npool++;
}
int main(int argc, char **argv) {
    /* argv[1]: level file (one level), argv[2..]: y,x of the subset boxes */
    FILE *f = fopen(argv[1], "r"); char line[256]; int y = 0, py = -1, px = -1;
    memset(grid, ' ', sizeof grid);
    while (fgets(line, sizeof line, f)) { if (line[0] == ';' || line[0] == '\n') continue; int l = (int)strcspn(line, "\n"); if (l > W) W = l; memcpy(grid[y], line, l); y++; }
    H = y; nsq = W * H;
    for (int yy = 0; yy < H; yy++) for (int xx = 0; xx < W; xx++) { int s = sq(yy, xx); char c = grid[yy][xx];
        for (int k = 0; k < 4; k++) { int ny = yy + dy[k], nx = xx + dx[k]; nb[s][k] = (ny < 0 || nx < 0 || ny >= H || nx >= W) ? -1 : sq(ny, nx); }
        if (c == '@' || c == '+') { py = yy; px = xx; }
        if (c == '.' || c == '*' || c == '+') { isgoal[s] = 1; goals[ngoal++] = s; } }
    /* floor: flood from player over non-walls */
    { int q[MAXS], t = 0; int s0 = sq(py, px); floor_[s0] = 1; q[t++] = s0;
      for (int h = 0; h < t; h++) for (int k = 0; k < 4; k++) { int n = nb[q[h]][k]; if (n < 0 || floor_[n] || grid[n / W][n % W] == '#') continue; floor_[n] = 1; q[t++] = n; } }
    for (int g = 0; g < ngoal; g++) bfs_goal(g);
    st s0; memset(&s0, 0, sizeof s0); K = argc - 2;
    for (int i = 0; i < K; i++) { int a, b; sscanf(argv[2 + i], "%d,%d", &a, &b); s0.b[i] = (uint16_t)sq(a, b); }
    qsort(s0.b, K, 2, cmpu16);
    int *mark = calloc(nsq, sizeof(int)); int *mark2 = calloc(nsq, sizeof(int)); int stamp = 1;
    for (int i = 0; i < K; i++) occ[s0.b[i]] = 1;
    s0.pl = (uint16_t)sq(py, px); s0.pl = (uint16_t)region(&s0, mark, stamp++);
    for (int i = 0; i < K; i++) occ[s0.b[i]] = 0;
    int bx[MAXK]; for (int i = 0; i < K; i++) bx[i] = s0.b[i];
    int h0 = hval(bx); printf("root matching %d\n", h0);
    int isnew; long r = find_or_add(&s0, &isnew); push_b(h0, (uint32_t)r);
    long expanded = 0;
    for (int fcur = h0; fcur < MAXF; fcur++) {
        for (size_t bi = 0; bi < bn[fcur]; bi++) {
            st cur = pool[bucket[fcur][bi]];
            for (int i = 0; i < K; i++) bx[i] = cur.b[i];
            int hc = hval(bx); if (cur.g + hc != fcur) continue; /* stale */
            int on = 1; for (int i = 0; i < K; i++) on &= isgoal[cur.b[i]];
            if (on) { printf("exact %d (matching %d, gain %d), %ld expanded, %zu stored\n", cur.g, h0, cur.g - h0, expanded, npool); return 0; }
            expanded++;
            for (int i = 0; i < K; i++) occ[cur.b[i]] = 1;
            int st2 = stamp++; region(&cur, mark2, st2);
            for (int i = 0; i < K; i++) for (int k = 0; k < 4; k++) {
                int b = cur.b[i], behind = nb[b][k ^ 1], to = nb[b][k];
                if (behind < 0 || to < 0 || mark2[behind] != st2 || !floor_[to] || occ[to]) continue;
                st c = cur; c.b[i] = (uint16_t)to; c.g = cur.g + 1;
                int cb[MAXK]; for (int j = 0; j < K; j++) cb[j] = c.b[j];
                int hn = hval(cb); if (hn >= 9999) continue;
                occ[b] = 0; occ[to] = 1; c.pl = (uint16_t)b;
                c.pl = (uint16_t)region(&c, mark, stamp++);
                occ[to] = 0; occ[b] = 1;
                qsort(c.b, K, 2, cmpu16);
                long x = find_or_add(&c, &isnew);
                if (!isnew) { if (pool[x].g <= c.g) continue; pool[x].g = c.g; }
                push_b(c.g + hn, (uint32_t)x);
            }
            for (int i = 0; i < K; i++) occ[cur.b[i]] = 0;
            /* restore mark stamp for the current region no longer needed */
        }
        if (npool > 4000000) { printf("limit at f %d (matching %d, gain >= %d)\n", fcur, h0, fcur - h0); return 0; }
        if (bn[fcur]) fprintf(stderr, "f %d done: %zu stored, %ld expanded\n", fcur, npool, expanded);
    }
    printf("none\n"); return 0;
}
