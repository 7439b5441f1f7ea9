/* tunnels.c: tunnel macro pushes (see tunnels.h). */
#include "tunnels.h"

/* Whether both neighbours of s across the axis of direction d are walls. */
static inline int corridor(const board *b, sq_t s, int d)
{
    int side = (d + 1) & 3; /* a perpendicular direction */
    return b->nb[s][side] == SQ_NONE && b->nb[s][DIR_OPP(side)] == SQ_NONE;
}

int tunnel_length(const board *b, const position *p, sq_t from, int d)
{
    sq_t S = from, N = b->nb[from][d];
    int len = 1;
    for (;;) {
        if (!corridor(b, S, d) || !corridor(b, N, d) || b->is_goal[N])
            return len;
        sq_t NN = b->nb[N][d];
        if (NN == SQ_NONE || b->dead[NN])
            return 0;
        if (!corridor(b, NN, d))
            return len;
        if (p->box_at[NN] != NO_BOX)
            return 0;
        if (len >= 1000)
            return len;
        len++;
        S = N;
        N = NN;
    }
}
