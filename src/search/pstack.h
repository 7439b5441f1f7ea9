/* pstack.h: the pushes on the board, as a stack of stored nodes from the
 * root, and SetPosition (seed 000): putting any stored node's position on
 * the board by undoing to the deepest common ancestor and replaying the
 * target's pushes from there. Shared by the searches that keep their
 * positions in a node store (A*, the feature-space search). */
#ifndef KEEPER_PSTACK_H
#define KEEPER_PSTACK_H

#include "nodes.h"
#include "search.h"
#include "../core/position.h"
#include "../util/u32map.h"

typedef struct pstack_entry {
    uint32_t node;
    undo_rec u;
} pstack_entry;

typedef struct pstack {
    pstack_entry *v; /* v[0] is the root */
    uint32_t n, cap;
    u32map onpath;   /* node index -> its place in v */
    uint32_t *chain; /* scratch for pstack_set */
    uint32_t capchain;
} pstack;

void pstack_init(pstack *s);
void pstack_free(pstack *s);

/* Records that node `idx` is now on the board, reached by the move `u`
 * from the node on top. */
void pstack_push(pstack *s, uint32_t idx, const undo_rec *u);
/* Undoes the top move on p and forgets its node. */
void pstack_pop(pstack *s, position *p);

/* Puts node `target` of ns on the board p. Contract: the root is on the
 * stack, and every node's move (from, to, dir) leads from its parent's
 * position to its own. Returns the pushes made and unmade. */
uint32_t pstack_set(pstack *s, position *p, const node_store *ns, uint32_t target);

/* The moves from the root to node `goal`, as push steps (each node's
 * pushes are its g minus its parent's). */
void nodes_path(const node_store *ns, uint32_t goal, push_seq *out);

#endif
