/* portfolio.h: several strategies on one level. Each strategy keeps its
 * own search (positions, open list or cells) and runs in slices of work
 * counted in stored positions, so a run on one thread is the same every
 * time: the feature-space search first, then A*, then (on levels where the
 * packing plan replaced a greedy packing order) a second feature-space
 * search that keeps the order ("fess-order"), or else (where the plan
 * followed is the simpler of the two base searches' plans and the other is
 * complete too) a second FESS following the other plan ("fess-plan2"),
 * and the backward search (cfg->use_backward), each from where it stopped.
 * The first FESS takes every other turn, the others the turns between, in
 * the order A*, backward, and with fess-order that one and backward again
 * (FESS, A*, FESS, backward, FESS, FESS-order, FESS, backward). With
 * cfg->use_opening the opening search (opening.h) joins once the first
 * FESS has stored OPENING_JOIN positions (300,000; the levels the others
 * solve by then pay nothing for it), the round then starting again with it
 * after A* and at its end (FESS, A*, FESS, opening, FESS, backward, ...,
 * FESS, opening); fess-plan2 joins then too, taking every other of the
 * first FESS's turns (FESS, A*, FESS-plan2, opening, ...), and with
 * cfg->use_rev the reverse search (rev.h), its turn after the opening
 * search's last and, where no fess-order runs, A*'s every other round,
 * with a large slice (its positions are cheap). With
 * cfg->meet the FESS members and the
 * backward search meet (fess_watch, backward_watch), so the backward
 * search's short turns grow the set of positions from which a FESS member
 * finishes at once. Slices start at a sixteenth of their full
 * size and double each turn, so an easy level is solved by whichever
 * strategy suits it before the others have spent a full slice. The first
 * solution ends the level; a strategy that proves the level unsolvable ends
 * it too; one that runs out of memory leaves the rest of the run to the
 * others.
 *
 * When lim->spares lends an idle thread (the run has no other level left
 * to start), the strategies go on side by side: this thread keeps the
 * others in the round's turns, the lent one takes what cfg->lent says (by
 * default A* and the reverse search in turn; with cfg->lent_tracks a
 * reverse search of its own), each
 * stepping its own until it ends, and the first to end the level
 * stops the others (a shared halt flag, polled with the other limits). The lent thread's memory share is
 * added to the level's budget; the node limit is shared out in grants.
 * Then node counts, the solution and which strategy finds it depend on
 * timing. */
#ifndef KEEPER_PORTFOLIO_H
#define KEEPER_PORTFOLIO_H

#include "astar.h"
#include "fess.h"

#include "backward.h"
#include "opening.h"
#include "rev.h"

/* portfolio_config.lent, in the order of --lent's names */
enum { LENT_ASTAR, LENT_OPENING, LENT_OPENING_ALONE, LENT_REV, LENT_ASTAR_REV };

typedef struct portfolio_config {
    astar_config astar;
    fess_config fess;
    backward_config backward;
    int use_backward; /* the backward search as a member with a short turn */
    int use_opening;  /* the opening search (opening.h) as a member */
    int use_rev;      /* the reverse search (rev.h) as a member, joining
                         with the opening search */
    rev_config rev;   /* its configuration */
    int meet;         /* the FESS members and the backward search meet */
    unsigned opening_halves; /* the opening's forward halves (opening_begin's
                                mask: OPENING_BOTH and its variants) */
    int lent;         /* what a lent thread runs (--lent): LENT_ASTAR,
                         LENT_OPENING (the opening search beside A*),
                         LENT_OPENING_ALONE (A* stays with the others) or
                         LENT_REV (the reverse search alone) or
                         LENT_ASTAR_REV (A* and the reverse search
                         sharing the lent thread's time equally) */
    unsigned lent_tracks; /* with LENT_REV: a reverse search of its own with
                             these tracks (rev_config.tracks) on the lent
                             thread, the round's staying on this one (0:
                             the round's moves there) */
    int rearrange;    /* --rearrange: a level where at least this percentage
                         of the boxes start on goals gives the opening
                         search A*'s and the reverse search's turns once
                         it has joined, until it ends, and with
                         LENT_ASTAR_REV or LENT_REV a lent thread runs it
                         alone (0 = never) */
} portfolio_config;

/* Solves from the level's start; out->strategy names the strategy that
 * found the solution (or "portfolio"), out->st sums both searches'
 * counters. lim->max_nodes limits the positions of both together. */
void portfolio_solve(const board *b, const portfolio_config *cfg, search_limits *lim,
                     membudget *mem, search_outcome *out);

#endif
