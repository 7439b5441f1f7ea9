/* u32map.c: open-addressing map of 32-bit keys. */
#include "u32map.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static inline uint32_t slot(const u32map *m, uint32_t key)
{
    return (key * 2654435761u) & m->mask;
}

void u32map_init(u32map *m, uint32_t cap)
{
    m->mask = cap - 1;
    m->count = 0;
    m->keys = xmalloc(sizeof(uint32_t) * cap);
    m->vals = xmalloc(sizeof(uint32_t) * cap);
    memset(m->keys, 0xFF, sizeof(uint32_t) * cap);
}

void u32map_free(u32map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static void grow(u32map *m)
{
    uint32_t old = m->mask + 1;
    uint32_t *ok = m->keys, *ov = m->vals;
    u32map_init(m, old * 2);
    for (uint32_t i = 0; i < old; i++)
        if (ok[i] != U32MAP_NONE)
            u32map_put(m, ok[i], ov[i]);
    free(ok);
    free(ov);
}

void u32map_put(u32map *m, uint32_t key, uint32_t val)
{
    if (2 * (m->count + 1) > m->mask + 1)
        grow(m);
    uint32_t k = slot(m, key);
    while (m->keys[k] != U32MAP_NONE && m->keys[k] != key)
        k = (k + 1) & m->mask;
    if (m->keys[k] == U32MAP_NONE)
        m->count++;
    m->keys[k] = key;
    m->vals[k] = val;
}

uint32_t u32map_get(const u32map *m, uint32_t key)
{
    uint32_t k = slot(m, key);
    while (m->keys[k] != U32MAP_NONE) {
        if (m->keys[k] == key)
            return m->vals[k];
        k = (k + 1) & m->mask;
    }
    return U32MAP_NONE;
}

void u32map_del(u32map *m, uint32_t key)
{
    uint32_t k = slot(m, key);
    while (m->keys[k] != key) {
        if (m->keys[k] == U32MAP_NONE)
            return;
        k = (k + 1) & m->mask;
    }
    uint32_t hole = k;
    for (;;) {
        k = (k + 1) & m->mask;
        if (m->keys[k] == U32MAP_NONE)
            break;
        uint32_t home = slot(m, m->keys[k]);
        /* move k into the hole unless its home lies cyclically in (hole, k] */
        int between = hole <= k ? (home > hole && home <= k) : (home > hole || home <= k);
        if (!between) {
            m->keys[hole] = m->keys[k];
            m->vals[hole] = m->vals[k];
            hole = k;
        }
    }
    m->keys[hole] = U32MAP_NONE;
    m->count--;
}
