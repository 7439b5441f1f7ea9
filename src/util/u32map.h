/* u32map.h: a small map from 32-bit keys to 32-bit values (open addressing,
 * linear probing, deletion by backward shift, so no tombstones). Key
 * 0xFFFFFFFF is reserved. Grows by doubling; small and not budgeted: used
 * for bookkeeping whose size is bounded by the search depth or by rare
 * events. */
#ifndef KEEPER_U32MAP_H
#define KEEPER_U32MAP_H

#include <stdint.h>

#define U32MAP_NONE UINT32_MAX

typedef struct u32map {
    uint32_t *keys, *vals;
    uint32_t mask, count;
} u32map;

void u32map_init(u32map *m, uint32_t capacity_pow2);
void u32map_free(u32map *m);
/* Inserts or overwrites. */
void u32map_put(u32map *m, uint32_t key, uint32_t val);
/* The value, or U32MAP_NONE when absent. */
uint32_t u32map_get(const u32map *m, uint32_t key);
/* Removes the key if present. */
void u32map_del(u32map *m, uint32_t key);

#endif
