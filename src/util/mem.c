/* mem.c: budgeted allocation, exact under threads (see mem.h).
 *
 * Every block carries a 16-byte header with its size and how it was made.
 * Large blocks (MEM_MAP_MIN bytes and more) are mapped from the system on
 * their own and unmapped when freed, so the memory a search gives back
 * returns to the system at once: the process's resident memory follows the
 * budget instead of the C library's heap, whose freed holes (left by a
 * growing array copied elsewhere, or by a search that ran on another
 * thread's arena) stay resident. The sanitizer builds keep the C library's
 * allocator for every block, so that their bounds checks see them all. */
#include "mem.h"

#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define MEM_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MEM_SANITIZED 1
#endif
#if defined(__linux__) && !defined(MEM_SANITIZED)
#define MEM_MAPPED 1
#include <sys/mman.h>
#endif

#define MEM_MAP_MIN ((size_t)128 * 1024)
#define HDR 16 /* header bytes: keeps the block 16-byte aligned */

typedef struct {
    size_t n;      /* the caller's size */
    size_t mapped; /* bytes mapped (header included), 0 = from malloc */
} hdr;

_Static_assert(sizeof(hdr) <= HDR, "the header fits its 16 bytes");

void mem_init(membudget *m, uint64_t limit)
{
    atomic_init(&m->limit, limit);
    atomic_init(&m->used, 0);
    atomic_init(&m->peak, 0);
}

int mem_fits(const membudget *m, size_t n)
{
    uint64_t limit = atomic_load(&m->limit);
    return limit == 0 || atomic_load(&m->used) + n <= limit;
}

/* Takes `n` bytes of the budget, or returns 0 if they would pass the limit.
 * A compare-and-swap loop, so concurrent reservations never pass it
 * together; the peak follows. */
static int reserve(membudget *m, uint64_t n)
{
    uint64_t used = atomic_load(&m->used);
    do {
        uint64_t limit = atomic_load(&m->limit);
        if (limit && used + n > limit)
            return 0;
    } while (!atomic_compare_exchange_weak(&m->used, &used, used + n));
    uint64_t now = used + n, peak = atomic_load(&m->peak);
    while (now > peak && !atomic_compare_exchange_weak(&m->peak, &peak, now))
        ;
    return 1;
}

static void release(membudget *m, uint64_t n)
{
    atomic_fetch_sub(&m->used, n);
}

int mem_take(membudget *m, uint64_t n)
{
    return reserve(m, n);
}

void mem_give(membudget *m, uint64_t n)
{
    release(m, n);
}

void mem_grow(membudget *m, uint64_t n)
{
    uint64_t limit = atomic_load(&m->limit);
    while (limit && !atomic_compare_exchange_weak(&m->limit, &limit, limit + n))
        ;
}

#ifdef MEM_MAPPED
static size_t page_round(size_t n)
{
    const size_t page = 4096;
    return (n + page - 1) & ~(page - 1);
}
#endif

/* A block of `n` caller bytes (zeroed if `zero`), header filled; NULL if the
 * system refuses. Takes nothing from the budget. */
static void *block_new(size_t n, int zero)
{
    hdr *h;
#ifdef MEM_MAPPED
    if (n >= MEM_MAP_MIN) {
        size_t len = page_round(n + HDR);
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        h = p; /* fresh anonymous pages are zero */
        h->n = n;
        h->mapped = len;
        return (char *)p + HDR;
    }
#endif
    h = zero ? calloc(1, n + HDR) : malloc(n + HDR);
    if (!h)
        return NULL;
    h->n = n;
    h->mapped = 0;
    return (char *)h + HDR;
}

static hdr *header(void *p, size_t n)
{
    hdr *h = (hdr *)((char *)p - HDR);
#ifdef KEEPER_DEBUG
    if (h->n != n)
        abort(); /* freed or resized with another size than it has */
#else
    (void)n;
#endif
    return h;
}

static void block_free(hdr *h)
{
#ifdef MEM_MAPPED
    if (h->mapped) {
        munmap(h, h->mapped);
        return;
    }
#endif
    free(h);
}

/* Resizes a block (contents kept up to the smaller size); NULL, with the
 * block untouched, if the system refuses. */
static void *block_resize(void *p, size_t old_n, size_t new_n)
{
    hdr *h = header(p, old_n);
#ifdef MEM_MAPPED
    if (h->mapped && new_n >= MEM_MAP_MIN) {
        size_t len = page_round(new_n + HDR);
        void *q = len == h->mapped ? (void *)h : mremap(h, h->mapped, len, MREMAP_MAYMOVE);
        if (q == MAP_FAILED)
            return NULL;
        h = q;
        h->n = new_n;
        h->mapped = len;
        return (char *)q + HDR;
    }
    if (h->mapped || new_n >= MEM_MAP_MIN) { /* crossing the threshold */
        void *q = block_new(new_n, 0);
        if (!q)
            return NULL;
        memcpy(q, p, old_n < new_n ? old_n : new_n);
        block_free(h);
        return q;
    }
#endif
    h = realloc(h, new_n + HDR);
    if (!h)
        return NULL;
    h->n = new_n;
    return (char *)h + HDR;
}

void *mem_alloc(membudget *m, size_t n)
{
    if (!reserve(m, n))
        return NULL;
    void *p = block_new(n, 0);
    if (!p)
        release(m, n);
    return p;
}

void *mem_calloc(membudget *m, size_t n)
{
    if (!reserve(m, n))
        return NULL;
    void *p = block_new(n, 1);
    if (!p)
        release(m, n);
    return p;
}

void *mem_realloc(membudget *m, void *p, size_t old_n, size_t new_n)
{
    if (!p)
        return mem_alloc(m, new_n);
    if (new_n > old_n && !reserve(m, new_n - old_n))
        return NULL;
    void *q = block_resize(p, old_n, new_n);
    if (!q) {
        if (new_n > old_n)
            release(m, new_n - old_n);
        return NULL;
    }
    if (new_n < old_n)
        release(m, old_n - new_n);
    return q;
}

void mem_free(membudget *m, void *p, size_t n)
{
    if (!p)
        return;
    block_free(header(p, n));
    release(m, n);
}
