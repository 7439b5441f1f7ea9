/* plugin.c: keeper as a Sokoban solver plugin DLL for Windows hosts (YASC,
 * Sokoban++): the exports of the published plugin interface, over the public
 * API (include/keeper.h). Built by `make windows` (mingw-w64), 64-bit and
 * 32-bit; the exported names are plain (plugin.def, --kill-at), the calling
 * convention __stdcall.
 *
 *   GetPluginName, GetConstraints, SolveEx, Solve (the old call: the board
 *   as rows), Optimize, IsSupportedOptimization, Configure, ShowAbout,
 *   Terminate.
 *
 * A call runs keeper on a thread of its own; the host's thread waits in
 * steps of PLUGIN_POLL_MS, and between steps copies the latest progress into
 * the host's PluginStatus and calls the host's callback on the host's own
 * thread (so a host that pumps its window messages there keeps doing so). A
 * non-zero return from the callback, or Terminate() from any thread, stops
 * the search: the call returns SOKOBAN_PLUGIN_RESULT_TERMINATED_BY_USER.
 *
 * Settings: keeper.ini beside the DLL (the DLL's name with .ini), section
 * [keeper]: time (seconds per level, default 600), memory (MiB, default
 * 1024; a 32-bit host has 2 GiB of address space at most), threads (1 or 2,
 * default 2), optimize_time (seconds, default 60). Configure() shows the
 * settings and the file's path.
 *
 * Status flags: two tables exist. The published header's (Sokoban++):
 * SOLUTION 1, MOVES 2, PUSHES 4, BOX_LINES 8, BOX_CHANGES 16,
 * PUSHING_SESSIONS 32, then the secondary metrics from SECONDARY_MOVES 64
 * and SECONDARY_PUSHES 128. YASC's newer one inserts PLAYER_LINES 64, so
 * its secondaries start at SECONDARY_MOVES 128 and SECONDARY_PUSHES 256.
 * The bits keeper writes and reads as primary (SOLUTION, MOVES, PUSHES)
 * are the same in both; IsSupportedOptimization accepts each table's
 * "moves, then pushes" (2|128 old, 2|256 YASC) and "pushes, then moves"
 * (4|64 old, 4|128 YASC), so both hosts are served without knowing which
 * calls. One number overlaps: 2|256 is "moves, then box lines" in the old
 * table; keeper answers it as YASC means it (moves, then pushes), the
 * primary metric being right for both. On return, SOLUTION, and PUSHES when the push count
 * is proven optimal; for Optimize, the caller's flags choose the order:
 * MOVES (moves, then pushes) or PUSHES without MOVES (pushes, then
 * moves). */
#include "../../include/keeper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

/* The published interface's constants and status record. */
#define SOKOBAN_PLUGIN_RESULT_OK 0
#define SOKOBAN_PLUGIN_RESULT_CONSTRAINTSVIOLATION 1
#define SOKOBAN_PLUGIN_RESULT_INVALID 2
#define SOKOBAN_PLUGIN_RESULT_IMPOSSIBLE 3
#define SOKOBAN_PLUGIN_RESULT_GIVEUP 4
#define SOKOBAN_PLUGIN_RESULT_GAMETOOLONG 5
#define SOKOBAN_PLUGIN_RESULT_INVALIDCONFIGURATION 6
#define SOKOBAN_PLUGIN_RESULT_FAILURE 7
#define SOKOBAN_PLUGIN_RESULT_TIMEOUT 8
#define SOKOBAN_PLUGIN_RESULT_TERMINATED_BY_USER 9

#define SOKOBAN_PLUGIN_FLAG_UNSUCCESSFUL 0
#define SOKOBAN_PLUGIN_FLAG_SOLUTION 1
#define SOKOBAN_PLUGIN_FLAG_MOVES 2
#define SOKOBAN_PLUGIN_FLAG_PUSHES 4
/* the secondaries: the published table's, and YASC's (player lines at 64) */
#define SOKOBAN_PLUGIN_FLAG_SECONDARY_MOVES 64
#define SOKOBAN_PLUGIN_FLAG_SECONDARY_PUSHES 128
#define YASC_FLAG_SECONDARY_MOVES 128
#define YASC_FLAG_SECONDARY_PUSHES 256

struct PluginStatus {
    unsigned int uiSize;
    unsigned int uiFlags;
    __int64 i64MovesGenerated;
    __int64 i64PushesGenerated;
    __int64 i64StatesGenerated;
    char szStatusText[256];
    unsigned int uiPluginTimeMS;
};

typedef int __stdcall PLUGINCALLBACK(void);

#define PLUGIN_NAME "keeper " KEEPER_VERSION
#define PLUGIN_MAX_SIDE 256   /* LEVEL_MAX_WIDTH, LEVEL_MAX_HEIGHT */
#define PLUGIN_MAX_BOXES 1024 /* LEVEL_MAX_BOXES */
#define PLUGIN_POLL_MS 100

#define EXPORT __declspec(dllexport)

/* The exports (plugin.def), and DllMain. */
BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved);
EXPORT void __stdcall GetPluginName(char *pcString, unsigned int uiStringBufferSize);
EXPORT void __stdcall GetConstraints(unsigned int *puiMaxWidth, unsigned int *puiMaxHeight,
                                     unsigned int *puiMaxBoxes);
EXPORT int __stdcall SolveEx(unsigned int uiWidth, unsigned int uiHeight, char *pcBoard,
                             char *pcSolution, unsigned int uiSolutionBufferSize,
                             struct PluginStatus *psStatus, PLUGINCALLBACK *pc);
EXPORT int __stdcall Solve(unsigned int uiWidth, unsigned int uiHeight, unsigned char **ppucBoard,
                           char *pcSolution, unsigned int uiSolutionBufferSize);
EXPORT int __stdcall IsSupportedOptimization(unsigned int uiOptimization);
EXPORT int __stdcall Optimize(unsigned int uiWidth, unsigned int uiHeight, char *pcBoard,
                              char *pcMoves, unsigned int uiMovesBufferSize,
                              struct PluginStatus *psStatus, PLUGINCALLBACK *pc);
EXPORT int __stdcall Terminate(void);
EXPORT void __stdcall Configure(HWND hwndParent);
EXPORT void __stdcall ShowAbout(HWND hwndParent);

/* ------------------------------------------------------------ settings */

static HMODULE self;

/* The options of the call running now, for Terminate (one call at a time:
 * hosts run one), under `lock`: Terminate may come from any thread while
 * the call ends and frees them. */
static keeper_options *running;
static CRITICAL_SECTION lock;

typedef struct settings {
    int time, memory, threads, optimize_time;
    char path[MAX_PATH + 8];
} settings;

static void load_settings(settings *s)
{
    s->path[0] = '\0';
    DWORD n = GetModuleFileNameA(self, s->path, MAX_PATH);
    if (n > 4 && n < MAX_PATH && !_stricmp(s->path + n - 4, ".dll"))
        strcpy(s->path + n - 4, ".ini");
    s->time = (int)GetPrivateProfileIntA("keeper", "time", 600, s->path);
    s->memory = (int)GetPrivateProfileIntA("keeper", "memory", 1024, s->path);
    s->threads = (int)GetPrivateProfileIntA("keeper", "threads", 2, s->path);
    s->optimize_time = (int)GetPrivateProfileIntA("keeper", "optimize_time", 60, s->path);
}

static keeper_options *options_of(const settings *s, int seconds)
{
    keeper_options *o = keeper_options_new();
    char v[32];
    snprintf(v, sizeof v, "%d", seconds);
    keeper_options_set(o, "time", v);
    snprintf(v, sizeof v, "%d", s->memory > 0 ? s->memory : 1024);
    keeper_options_set(o, "memory", v);
    snprintf(v, sizeof v, "%d", s->threads > 1 ? 2 : 1);
    keeper_options_set(o, "threads", v);
    return o;
}

BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved)
{
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH) {
        self = h;
        InitializeCriticalSection(&lock);
    } else if (reason == DLL_PROCESS_DETACH) {
        DeleteCriticalSection(&lock);
    }
    return TRUE;
}

/* ------------------------------------------------------------ running */


typedef struct call {
    keeper_collection *c;
    keeper_options *o;
    /* solve */
    keeper_result r;
    /* optimize */
    const char *lurd, *metric;
    double seconds;
    char *out;
    keeper_metrics m;
    int rc;
    char why[256];
    int optimize;
    /* progress, copied under mu */
    CRITICAL_SECTION mu;
    keeper_progress last;
    char status[200];
    int have;
} call;

static int on_progress(void *arg, const keeper_progress *p)
{
    call *k = arg;
    EnterCriticalSection(&k->mu);
    k->last = *p;
    snprintf(k->status, sizeof k->status, "%s", p->status ? p->status : "");
    k->have = 1;
    LeaveCriticalSection(&k->mu);
    return 0;
}

static DWORD WINAPI call_thread(LPVOID arg)
{
    call *k = arg;
    if (k->optimize)
        k->rc = keeper_optimize(k->c, 1, k->lurd, k->metric, k->seconds, k->o, &k->out, &k->m,
                                k->why, sizeof k->why);
    else
        keeper_solve(k->c, 1, k->o, &k->r);
    return 0;
}

/* Sets call k up on level c (which it then owns) with the settings'
 * limits: time for a solve, optimize_time for an optimization. */
static void call_init(call *k, keeper_collection *c, int optimize)
{
    settings s;
    load_settings(&s);
    memset(k, 0, sizeof *k);
    InitializeCriticalSection(&k->mu);
    k->c = c;
    k->optimize = optimize;
    k->o = options_of(&s, optimize ? s.optimize_time : s.time);
    k->seconds = s.optimize_time > 0 ? s.optimize_time : 0;
    keeper_options_set_progress(k->o, on_progress, k, 0.25);
}

static void call_free(call *k)
{
    keeper_options_free(k->o);
    DeleteCriticalSection(&k->mu);
    keeper_free(k->c);
}

/* Runs call k on a thread, waiting on the host's thread; returns 1 when
 * the host's callback stopped it. */
static int run_call(call *k, struct PluginStatus *st, PLUGINCALLBACK *pc)
{
    DWORD t0 = GetTickCount();
    int cancelled = 0;
    EnterCriticalSection(&lock);
    running = k->o;
    LeaveCriticalSection(&lock);
    HANDLE th = CreateThread(NULL, 0, call_thread, k, 0, NULL);
    if (!th) {
        call_thread(k); /* no thread: run here, without progress */
    } else {
        while (WaitForSingleObject(th, PLUGIN_POLL_MS) == WAIT_TIMEOUT) {
            EnterCriticalSection(&k->mu);
            if (st && k->have) {
                st->i64StatesGenerated = (__int64)k->last.nodes;
                snprintf(st->szStatusText, sizeof st->szStatusText, "%s", k->status);
                k->have = 0;
            }
            LeaveCriticalSection(&k->mu);
            if (st)
                st->uiPluginTimeMS = GetTickCount() - t0;
            if (pc && !cancelled && pc() != 0) {
                cancelled = 1;
                keeper_interrupt(k->o);
            }
        }
        CloseHandle(th);
    }
    EnterCriticalSection(&lock);
    running = NULL;
    LeaveCriticalSection(&lock);
    if (st)
        st->uiPluginTimeMS = GetTickCount() - t0;
    return cancelled;
}

/* The board (w*h characters, row by row) as XSB text, or NULL with *rc set
 * (a constraint or the board's characters). */
static char *board_text(unsigned w, unsigned h, const char *board, int *rc)
{
    if (w < 3 || h < 3 || w > PLUGIN_MAX_SIDE || h > PLUGIN_MAX_SIDE) {
        *rc = SOKOBAN_PLUGIN_RESULT_CONSTRAINTSVIOLATION;
        return NULL;
    }
    if (!board || strlen(board) < (size_t)w * h) {
        *rc = SOKOBAN_PLUGIN_RESULT_INVALID;
        return NULL;
    }
    char *t = malloc((size_t)(w + 1) * h + 1), *q = t;
    if (!t) {
        *rc = SOKOBAN_PLUGIN_RESULT_FAILURE;
        return NULL;
    }
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            char ch = board[(size_t)y * w + x];
            *q++ = ch == '-' || ch == '_' ? ' ' : ch;
        }
        *q++ = '\n';
    }
    *q = '\0';
    return t;
}

/* The level of board text t as a collection of one valid level, or NULL
 * with *rc set. */
static keeper_collection *level_of(const char *t, int *rc)
{
    char *err = NULL;
    keeper_collection *c = keeper_parse("board", t, (unsigned long)strlen(t), &err);
    free(err);
    if (!c || keeper_level_count(c) != 1 || keeper_level_error(c, 1)) {
        keeper_free(c);
        *rc = SOKOBAN_PLUGIN_RESULT_INVALID;
        return NULL;
    }
    return c;
}

/* The board (w*h characters) as a collection of one valid level, or NULL
 * with *rc set. */
static keeper_collection *board_level(unsigned w, unsigned h, const char *board, int *rc)
{
    char *t = board_text(w, h, board, rc);
    if (!t)
        return NULL;
    keeper_collection *c = level_of(t, rc);
    free(t);
    return c;
}

/* ------------------------------------------------------------ exports */

EXPORT void __stdcall GetPluginName(char *pcString, unsigned int uiStringBufferSize)
{
    if (pcString && uiStringBufferSize > 0)
        snprintf(pcString, uiStringBufferSize, "%s", PLUGIN_NAME);
}

EXPORT void __stdcall GetConstraints(unsigned int *puiMaxWidth, unsigned int *puiMaxHeight,
                                     unsigned int *puiMaxBoxes)
{
    if (puiMaxWidth)
        *puiMaxWidth = PLUGIN_MAX_SIDE;
    if (puiMaxHeight)
        *puiMaxHeight = PLUGIN_MAX_SIDE;
    if (puiMaxBoxes)
        *puiMaxBoxes = PLUGIN_MAX_BOXES;
}

EXPORT int __stdcall SolveEx(unsigned int uiWidth, unsigned int uiHeight, char *pcBoard,
                             char *pcSolution, unsigned int uiSolutionBufferSize,
                             struct PluginStatus *psStatus, PLUGINCALLBACK *pc)
{
    int rc = SOKOBAN_PLUGIN_RESULT_OK;
    if (pcSolution && uiSolutionBufferSize > 0)
        pcSolution[0] = '\0';
    if (psStatus) {
        psStatus->uiFlags = SOKOBAN_PLUGIN_FLAG_UNSUCCESSFUL;
        psStatus->i64MovesGenerated = psStatus->i64PushesGenerated = 0;
        psStatus->i64StatesGenerated = 0;
        psStatus->szStatusText[0] = '\0';
    }
    keeper_collection *c = board_level(uiWidth, uiHeight, pcBoard, &rc);
    if (!c)
        return rc;
    call k;
    call_init(&k, c, 0);
    int cancelled = run_call(&k, psStatus, pc);
    const keeper_result *r = &k.r;
    if (r->status == KEEPER_SOLVED) {
        if (!pcSolution || strlen(r->solution) + 1 > uiSolutionBufferSize) {
            rc = SOKOBAN_PLUGIN_RESULT_GAMETOOLONG;
        } else {
            strcpy(pcSolution, r->solution);
            rc = SOKOBAN_PLUGIN_RESULT_OK;
        }
        if (psStatus) {
            psStatus->uiFlags = SOKOBAN_PLUGIN_FLAG_SOLUTION |
                                (r->optimal ? SOKOBAN_PLUGIN_FLAG_PUSHES : 0);
            psStatus->i64MovesGenerated = r->metrics.moves;
            psStatus->i64PushesGenerated = r->metrics.pushes;
        }
    } else if (r->status == KEEPER_INVALID) {
        rc = SOKOBAN_PLUGIN_RESULT_INVALID;
    } else if (cancelled || !strcmp(r->reason, "interrupted")) {
        rc = SOKOBAN_PLUGIN_RESULT_TERMINATED_BY_USER;
    } else if (!strcmp(r->reason, "time limit")) {
        rc = SOKOBAN_PLUGIN_RESULT_TIMEOUT;
    } else if (!strcmp(r->reason, "no solution")) {
        rc = SOKOBAN_PLUGIN_RESULT_IMPOSSIBLE;
    } else {
        rc = SOKOBAN_PLUGIN_RESULT_GIVEUP; /* memory limit, gave up */
    }
    if (psStatus) {
        psStatus->i64StatesGenerated = (__int64)r->nodes;
        snprintf(psStatus->szStatusText, sizeof psStatus->szStatusText, "%s%s%s in %.1f s",
                 r->status == KEEPER_SOLVED ? "solved" : "not solved",
                 r->status == KEEPER_SOLVED ? "" : ": ", r->reason, r->seconds);
    }
    keeper_result_free(&k.r);
    call_free(&k);
    return rc;
}

/* The old call: the board as `uiHeight` rows (shorter rows end early). */
EXPORT int __stdcall Solve(unsigned int uiWidth, unsigned int uiHeight, unsigned char **ppucBoard,
                           char *pcSolution, unsigned int uiSolutionBufferSize)
{
    if (uiWidth < 3 || uiHeight < 3 || uiWidth > PLUGIN_MAX_SIDE || uiHeight > PLUGIN_MAX_SIDE)
        return SOKOBAN_PLUGIN_RESULT_CONSTRAINTSVIOLATION;
    if (!ppucBoard)
        return SOKOBAN_PLUGIN_RESULT_INVALID;
    char *b = malloc((size_t)uiWidth * uiHeight + 1);
    if (!b)
        return SOKOBAN_PLUGIN_RESULT_FAILURE;
    for (unsigned y = 0; y < uiHeight; y++) {
        const unsigned char *row = ppucBoard[y];
        int ended = !row;
        for (unsigned x = 0; x < uiWidth; x++) {
            if (!ended && row[x] == '\0')
                ended = 1;
            b[(size_t)y * uiWidth + x] = ended ? ' ' : (char)row[x];
        }
    }
    b[(size_t)uiWidth * uiHeight] = '\0';
    int rc = SolveEx(uiWidth, uiHeight, b, pcSolution, uiSolutionBufferSize, NULL, NULL);
    free(b);
    return rc;
}

EXPORT int __stdcall IsSupportedOptimization(unsigned int uiOptimization)
{
    return uiOptimization == (SOKOBAN_PLUGIN_FLAG_MOVES | SOKOBAN_PLUGIN_FLAG_SECONDARY_PUSHES) ||
           uiOptimization == (SOKOBAN_PLUGIN_FLAG_PUSHES | SOKOBAN_PLUGIN_FLAG_SECONDARY_MOVES) ||
           uiOptimization == (SOKOBAN_PLUGIN_FLAG_MOVES | YASC_FLAG_SECONDARY_PUSHES) ||
           uiOptimization == (SOKOBAN_PLUGIN_FLAG_PUSHES | YASC_FLAG_SECONDARY_MOVES);
}

/* Optimizes the best of the solutions in pcMoves (NUL-separated, an extra
 * NUL at the end) and writes the result there. */
EXPORT int __stdcall Optimize(unsigned int uiWidth, unsigned int uiHeight, char *pcBoard,
                              char *pcMoves, unsigned int uiMovesBufferSize,
                              struct PluginStatus *psStatus, PLUGINCALLBACK *pc)
{
    int rc = SOKOBAN_PLUGIN_RESULT_OK;
    const char *metric = "moves";
    if (psStatus && (psStatus->uiFlags & SOKOBAN_PLUGIN_FLAG_PUSHES) &&
        !(psStatus->uiFlags & SOKOBAN_PLUGIN_FLAG_MOVES))
        metric = "pushes";
    if (!pcMoves || uiMovesBufferSize == 0)
        return SOKOBAN_PLUGIN_RESULT_INVALID;
    keeper_collection *c = board_level(uiWidth, uiHeight, pcBoard, &rc);
    if (!c)
        return rc;
    /* the best valid input in the chosen order */
    const char *best = NULL;
    keeper_metrics bm;
    memset(&bm, 0, sizeof bm);
    char why[256];
    for (const char *p = pcMoves; *p && p < pcMoves + uiMovesBufferSize; p += strlen(p) + 1) {
        keeper_metrics m;
        if (!keeper_verify(c, 1, p, &m, why, sizeof why))
            continue;
        int better = !best || (!strcmp(metric, "moves")
                                   ? m.moves < bm.moves || (m.moves == bm.moves && m.pushes < bm.pushes)
                                   : m.pushes < bm.pushes || (m.pushes == bm.pushes && m.moves < bm.moves));
        if (better) {
            best = p;
            bm = m;
        }
    }
    if (!best) {
        keeper_free(c);
        return SOKOBAN_PLUGIN_RESULT_INVALID;
    }
    call k;
    call_init(&k, c, 1);
    char *in = _strdup(best);
    k.lurd = in;
    k.metric = metric;
    int cancelled = run_call(&k, psStatus, pc);
    if (k.rc != 0 || !k.out) {
        rc = SOKOBAN_PLUGIN_RESULT_FAILURE;
    } else if (strlen(k.out) + 2 > uiMovesBufferSize) {
        rc = SOKOBAN_PLUGIN_RESULT_GAMETOOLONG;
    } else {
        /* the result, then the list's end */
        size_t n = strlen(k.out);
        memcpy(pcMoves, k.out, n + 1);
        pcMoves[n + 1] = '\0';
        rc = SOKOBAN_PLUGIN_RESULT_OK;
        if (psStatus) {
            psStatus->uiFlags = SOKOBAN_PLUGIN_FLAG_SOLUTION;
            psStatus->i64MovesGenerated = k.m.moves;
            psStatus->i64PushesGenerated = k.m.pushes;
            snprintf(psStatus->szStatusText, sizeof psStatus->szStatusText,
                     "%ld/%ld -> %ld/%ld (moves/pushes)%s", bm.moves, bm.pushes, k.m.moves,
                     k.m.pushes, cancelled ? ", stopped" : "");
        }
    }
    /* stopped by the host: the best found so far is still a result */
    free(k.out);
    free(in);
    call_free(&k);
    return rc;
}

EXPORT int __stdcall Terminate(void)
{
    EnterCriticalSection(&lock);
    if (running)
        keeper_interrupt(running);
    LeaveCriticalSection(&lock);
    return SOKOBAN_PLUGIN_RESULT_OK;
}

EXPORT void __stdcall Configure(HWND hwndParent)
{
    settings s;
    load_settings(&s);
    char text[1024];
    snprintf(text, sizeof text,
             "%s\n\nSettings (edit the file, section [keeper]):\n%s\n\n"
             "time = %d (seconds per level)\nmemory = %d (MiB)\nthreads = %d\n"
             "optimize_time = %d (seconds)",
             PLUGIN_NAME, s.path, s.time, s.memory, s.threads, s.optimize_time);
    MessageBoxA(hwndParent, text, PLUGIN_NAME, MB_OK | MB_ICONINFORMATION);
}

EXPORT void __stdcall ShowAbout(HWND hwndParent)
{
    MessageBoxA(hwndParent,
                PLUGIN_NAME "\n\nA Sokoban solver and solution optimizer.\n"
                            "Every solution it returns has been replayed and verified.\n"
                            "Released under the MIT license.",
                PLUGIN_NAME, MB_OK | MB_ICONINFORMATION);
}
