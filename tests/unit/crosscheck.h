/* crosscheck.h: a search against the exhaustive breadth-first search, for
 * the unit tests of every strategy. */
#ifndef KEEPER_CROSSCHECK_H
#define KEEPER_CROSSCHECK_H

#include "../../src/core/level.h"
#include "../../src/core/position.h"
#include "../../src/core/reach.h"
#include "../../src/search/search.h"

typedef void (*solve_fn)(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                         search_outcome *out);

/* Solves lv with BFS (bfs_prune: dead squares) and with `solve` (config
 * cfg), each under max_nodes stored positions. *bfs_pushes gets BFS's
 * optimum, *pushes the pushes of the other search's solution as rebuilt and
 * replayed (-1 unsolvable, -2 limit, -3 a solution that does not replay).
 * Returns 1 when they agree: the same verdict on solvability, a replaying
 * solution, and with `optimal` the same push count (else never fewer than
 * BFS's). */
int crosscheck_level(const level *lv, solve_fn solve, const void *cfg, int optimal, int bfs_prune,
                     uint64_t max_nodes, long *bfs_pushes, long *pushes);

/* crosscheck_level on the first `count` valid levels of a shared level file
 * (a fifth of them in quick runs); skips visibly when the file is absent.
 * Reports each disagreement as a test failure, and fails unless both
 * searches reached a verdict (solved or proven unsolvable) on at least
 * min_decided percent of the levels checked (a search that gives up
 * everywhere agrees with everything). KEEPER_TEST_COUNTS=1 prints the
 * counts. */
void crosscheck_file(const char *name, int count, solve_fn solve, const void *cfg, int optimal,
                     int min_decided);

/* The tests' fixture: level lv's board b built and analysed
 * (distance_analyze). Returns 0, or -1 when lv builds no board (nothing to
 * free then). */
int test_level_board(const level *lv, board *b);
/* The same and the start position p on it. Returns 0, or -1 (nothing to
 * free). test_level_free frees both. */
int test_level_setup(const level *lv, board *b, position *p);
void test_level_free(board *b, position *p);

/* Parses a one-level XSB text into c and builds and analyses its board b
 * (distance_analyze). Returns 0, or -1 when the text is no valid level
 * (then only c needs freeing). */
int test_board_of(const char *text, collection *c, board *b);
/* The same and the start position p on it. Returns 0, or -1 when the text
 * is no valid level (nothing to free then). */
int test_text_setup(const char *text, collection *c, board *b, position *p);
/* Frees what test_text_setup (or, p NULL, test_board_of) gave. */
void test_text_free(collection *c, board *b, position *p);

/* The square at row `row`, column `col` of b's grid (SQ_NONE outside). */
static inline sq_t test_sq(const board *b, int row, int col)
{
    return b->sq_of_cell[row * b->width + col];
}

/* A small pseudo-random generator, so the samples are the same every run. */
uint64_t test_rng_next(uint64_t *s);

/* Makes one push in p drawn with test_rng_next among the pushes the player
 * can make now (with off_dead, none onto a dead square); r is scratch.
 * Returns 0 when there is none. test_random_push_to also gives the square
 * the box lands on. */
int test_random_push(position *p, reach *r, uint64_t *seed, int off_dead);
int test_random_push_to(position *p, reach *r, uint64_t *seed, int off_dead, sq_t *to);

/* For brute-force move enumerations: dist[box * nsq + player] holds the
 * fewest pushes (or pulls) that bring the box on `from`, alone moving in
 * p, to `box` with the player on `player` (-1: never). Writes into
 * best[box * nsq + norm] the least over the players of each region (norm:
 * its normalized square), -1 where none. p is unchanged on return. */
void test_best_per_region(position *p, sq_t from, const int *dist, int *best);

/* A* (cfg: an astar_config) on b within 3,000,000 positions and 1 GiB. */
void test_astar_limited(const board *b, const void *cfg, search_outcome *out);

/* Push-optimal A* (an astar_config cfg) under a bound at BFS's optimum must
 * end exhausted, one above it find the optimum, on the first `count` levels
 * of a shared level file that BFS decides; raised(st) counts, at the
 * bound at the optimum, what the feature under test did: the sum must be
 * positive (else the test tests nothing), and half the levels decided. */
void test_bound_proves_the_optimum(const char *name, const void *cfg, int count,
                                   uint64_t (*raised)(const stats *st));

/* Free-floor regions with boxes on `boxes` (nboxes squares): an
 * independent flood, for the searches' region counts. */
int test_count_regions(const board *b, const sq_t *boxes);

#endif
