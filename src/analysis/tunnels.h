/* tunnels.h: tunnel macro pushes (a static analysis of the corridor a
 * push enters), used by A* (--tunnels). */
#ifndef KEEPER_TUNNELS_H
#define KEEPER_TUNNELS_H

#include "../core/position.h"

/* Tunnel macro. The box on `from` is pushed in direction d; returns how
 * many squares it should go (1 = an ordinary push), or 0 when the push
 * leads nowhere on any shortest solution.
 *
 * Let the box go from S to N with the player ending on S. If S and N are
 * corridor squares (walls on both sides across the push) and N is no goal,
 * the box can move only along the corridor. Pushing it back later (from NN,
 * the square beyond N) undoes this push: a solution doing that is two
 * pushes longer than one that never made it, so on a shortest solution the
 * box's next move is forward. If NN is also a corridor square, no other
 * push or walk of the player before that move can use NN (a box pushed onto
 * NN would freeze both), so the forward push may be made at once without
 * changing the push count: the macro preserves push-optimality. If NN is a
 * wall or a dead square, or a corridor square holding a box, the box can
 * never move forward: no shortest solution passes here. */
int tunnel_length(const board *b, const position *p, sq_t from, int d);

#endif
