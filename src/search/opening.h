/* opening.h: the opening strategy, for levels whose boxes must first be
 * carried away from the goal area (parked) before the goals can be filled
 * (Festival's "imagined board"; the seeds' reverse search as a guide).
 *
 *  1. Backward: the backward search (backward.h) in its opening order
 *     pulls from the solved position towards an open one: fewest free-floor
 *     regions, then fewest boxes no pull moves, then the boxes farthest from
 *     the goals, with the waiting positions in cells of (free-floor
 *     regions, boxes on goals) served in turn (backward_config.cells), so
 *     that no plateau of one region count holds the whole half. After
 *     OPENING_BACK_NODES stored positions its best
 *     position with one free-floor region is the target: an opened position
 *     from which the goal is known to be reachable (its pulls read
 *     forwards). One region matters: the player is then anywhere, so a
 *     forward search that puts the boxes on the target's squares stands in
 *     the target itself, whatever side it pushed the last box from.
 *  2. Forward: FESS on the level with the target's box squares as its goals
 *     (cfg goal_needs_meet: those goals alone end nothing), looking up each
 *     position it stores in the backward search's store; the first one found
 *     there is a meeting: FESS's pushes to it and the backward pulls from it,
 *     read forwards, are the solution (rebuilt and replayed as any other).
 *     Two forward halves take turns, in slices of stored positions: one
 *     follows the target board's packing plan (jsonl strategy "opening"),
 *     the other has none, so that its packed feature counts the boxes on
 *     the target's squares ("opening-squares"; Festival's HF forward
 *     cells: free-floor regions and boxes on the imagined squares). Each
 *     solves levels the other does not.
 *
 * Two such legs, each with its own backward half, target and forward
 * halves, take turns: the backward order OPEN_MATCHED (the boxes' minimum
 * matching to the goals, stuck boxes counted once the floor is one region;
 * OPEN_BICON, with the free-floor squares on no cycle after the stuck
 * boxes, when opening_begin is given OPENING_BICON, as by default)
 * and OPEN_NEAREST (nearest goals, stuck boxes always); the targets differ
 * and so do the levels each leg solves. With OPENING_HOT (the default) the
 * first leg's squares half also orders a cell's children by Festival's HF
 * hotspots, the second's not: each order solves levels the other loses
 * (bench/README.md, "Festival's HF hotspots"). With OPENING_WEIGHTED_LEG
 * (the default) a leg between the two runs the first leg's order with its
 * backward half weighted (backward_config weighted), hotspots included:
 * its targets lie deeper, and it solves levels the others lose
 * (bench/README.md, "Weighted backward halves").
 *
 * As a portfolio member (portfolio.h) it runs in slices of stored positions
 * (opening_step); on its own, --strategy 4 (opening_solve). A level where
 * every leg gives up (no one-region position among its backward positions,
 * or both forward halves end without a meeting) ends with STOP_GAVE_UP
 * (nothing is proven). Not push-optimal. */
#ifndef KEEPER_OPENING_H
#define KEEPER_OPENING_H

#include "backward.h"
#include "fess.h"

/* Positions of the backward half (about a second on the benchmark
 * machine): XSokoban 66 needs 300,000 (100,000 leave no one-region target
 * the forward half meets), 69 100,000. */
#define OPENING_BACK_NODES 300000u

typedef struct opening opening;

/* The forward halves opening_begin runs (a mask; the tests run each alone). */
#define OPENING_PLAN 1u    /* FESS with the target board's plan */
#define OPENING_SQUARES 2u /* FESS with packed = boxes on the target's squares */
#define OPENING_BOTH 3u
/* With OPENING_SQUARES: that half in Festival's HF order (fess_config hf). */
#define OPENING_HF 4u
/* With OPENING_SQUARES: that half without the advisors (every move weighs
 * the same; fess_config advisors 0). */
#define OPENING_SQUARES_PLAIN 8u
/* A third forward half beside the two: the squares half without advisors
 * (jsonl strategy "opening-plain"). */
#define OPENING_THIRD 16u
/* The first leg's backward order OPEN_BICON instead of OPEN_MATCHED. */
#define OPENING_BICON 32u
/* With OPENING_HF: the first leg's squares half orders a cell's children
 * by Festival's HF hotspots (fess_config hot). */
#define OPENING_HOT 64u
/* The first leg's backward half weighted (backward_config weighted:
 * Festival's HF backward search, which follows chains of improving pulls
 * far from the goal before it widens). */
#define OPENING_WEIGHTED 512u
/* Three legs: the first leg's order, then the same order with its
 * backward half weighted (the first leg's then not; its squares half with
 * the first leg's hotspots too), then OPEN_NEAREST. */
#define OPENING_WEIGHTED_LEG 1024u
/* Deepening (opening.c): a leg whose forward halves have stored
 * OPENING_DEEPEN_RATIO times the positions of its backward half since its
 * target without a meeting drops them, runs its backward half on to
 * OPENING_DEEPEN_GROWTH times its positions and starts again from the best
 * target then, up to OPENING_DEEPEN_MAX backward positions. With
 * OPENING_DEEPEN_ENDED also a leg that would give up (no target of one
 * region, or its forward halves ended): without it the leg gives up as
 * before and leaves its turns to the other searches. */
#define OPENING_DEEPEN 128u
#define OPENING_DEEPEN_ENDED 256u
#define OPENING_DEEPEN_RATIO 8u
#define OPENING_DEEPEN_GROWTH 3u
#define OPENING_DEEPEN_MAX 2700000u
#define OPENING_HALVES 3

/* Targets: one backward half (and its forward halves) per opening order,
 * OPEN_MATCHED then OPEN_NEAREST (backward.h), taking turns; with
 * OPENING_WEIGHTED_LEG a weighted one between them. */
#define OPENING_LEGS 3

/* Sets up the opening search on b (analysed, distance_analyze). fcfg is the
 * forward half's FESS configuration (goal_needs_meet is set here), bcfg the
 * backward half's (open is set here); both are copied. back_nodes: the
 * backward half's positions (OPENING_BACK_NODES; the tests use fewer);
 * halves: the forward halves run (OPENING_BOTH, or one of them). */
opening *opening_begin(const board *b, const fess_config *fcfg, const backward_config *bcfg,
                       uint64_t back_nodes, unsigned halves, search_limits *lim,
                       membudget *mem, search_outcome *out);
/* Runs until out counts node_budget stored positions (0 = no budget), then
 * returns 0; or returns 1 once the search has ended (out->stop). The
 * caller's lim->max_nodes counts all its searches together (STOP_NODES). */
int opening_step(opening *o, uint64_t node_budget);
/* Writes the solution (if any) into out and frees o. */
void opening_end(opening *o);

/* begin, step to the end, end. */
void opening_solve(const board *b, const fess_config *fcfg, const backward_config *bcfg,
                   uint64_t back_nodes, unsigned halves, search_limits *lim, membudget *mem,
                   search_outcome *out);

#endif
