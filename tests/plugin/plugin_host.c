/* plugin_host.c: a test host for the solver plugin DLL, loading it as YASC
 * and Sokoban++ do (LoadLibrary, GetProcAddress with the plain names) and
 * calling it. Cross-built by `make windows`, run under Wine by
 * tests/windows/test_windows.sh, which checks what it prints (the solutions are
 * replayed there by the Linux keeper verify).
 *
 *   plugin_host DLL names              the plugin's name and constraints
 *   plugin_host DLL solve FILE         SolveEx on every level of an XSB file:
 *                                      "level N rc R flags F moves M pushes P
 *                                      callbacks C LURD"
 *   plugin_host DLL cancel FILE        SolveEx on level 1 with a callback
 *                                      that asks to stop at its third call
 *   plugin_host DLL terminate FILE     SolveEx on level 1, Terminate() from
 *                                      another thread after 0.5 s
 *   plugin_host DLL optimize FILE N LURD [pushes]
 *                                      Optimize level N's solution LURD
 *   plugin_host DLL bad                the calls with a bad board
 *   plugin_host DLL old FILE           the old Solve (rows) on level 1 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

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
typedef void __stdcall GETPLUGINNAME(char *, unsigned int);
typedef void __stdcall GETCONSTRAINTS(unsigned int *, unsigned int *, unsigned int *);
typedef int __stdcall SOLVEEX(unsigned int, unsigned int, char *, char *, unsigned int,
                              struct PluginStatus *, PLUGINCALLBACK *);
typedef int __stdcall SOLVE(unsigned int, unsigned int, unsigned char **, char *, unsigned int);
typedef int __stdcall OPTIMIZE(unsigned int, unsigned int, char *, char *, unsigned int,
                               struct PluginStatus *, PLUGINCALLBACK *);
typedef int __stdcall ISSUPPORTEDOPTIMIZATION(unsigned int);
typedef int __stdcall TERMINATE(void);

static HMODULE dll;

typedef void (*any_fn)(void);

static any_fn need(const char *name)
{
    FARPROC f = GetProcAddress(dll, name);
    if (!f) {
        printf("missing export %s\n", name);
        exit(3);
    }
    return (any_fn)f;
}

/* Levels of an XSB file: rows of board characters with a '#'. */
typedef struct board {
    unsigned w, h;
    char *cells; /* w*h, row by row, padded with spaces */
} board;

static int read_boards(const char *path, board *out, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024], rows[300][300];
    int n = 0, nrows = 0;
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        size_t len = got ? strcspn(line, "\r\n") : 0;
        if (got)
            line[len] = '\0';
        int is_row = got && len > 0 && strchr(line, '#') && strspn(line, "#@+$*.-_ ") == len;
        if (is_row && nrows < 300 && len < 300) {
            strcpy(rows[nrows++], line);
            continue;
        }
        if (nrows && n < max) {
            unsigned w = 0;
            for (int r = 0; r < nrows; r++)
                w = strlen(rows[r]) > w ? (unsigned)strlen(rows[r]) : w;
            board *b = &out[n++];
            b->w = w;
            b->h = (unsigned)nrows;
            b->cells = malloc((size_t)w * nrows + 1);
            for (int r = 0; r < nrows; r++)
                for (unsigned x = 0; x < w; x++)
                    b->cells[(size_t)r * w + x] = x < strlen(rows[r]) ? rows[r][x] : ' ';
            b->cells[(size_t)w * nrows] = '\0';
        }
        nrows = 0;
        if (!got)
            break;
    }
    fclose(f);
    return n;
}

static int calls, stop_at;
static DWORD stop_asked; /* GetTickCount when the search was asked to stop */

static int __stdcall callback(void)
{
    calls++;
    int stop = stop_at && calls >= stop_at;
    if (stop && !stop_asked)
        stop_asked = GetTickCount();
    return stop;
}

static DWORD WINAPI terminate_later(LPVOID arg)
{
    (void)arg;
    Sleep(500);
    stop_asked = GetTickCount();
    ((TERMINATE *)need("Terminate"))();
    return 0;
}

static char solution[1 << 20];

static int solve_one(board *b, int level)
{
    struct PluginStatus st;
    memset(&st, 0, sizeof st);
    st.uiSize = sizeof st;
    calls = 0;
    stop_asked = 0;
    DWORD t0 = GetTickCount();
    int rc = ((SOLVEEX *)need("SolveEx"))(b->w, b->h, b->cells, solution, sizeof solution, &st,
                                          callback);
    DWORD t1 = GetTickCount();
    printf("time %d: %lu ms", level, (unsigned long)(t1 - t0));
    if (stop_asked)
        printf(", stopped %lu ms after the request", (unsigned long)(t1 - stop_asked));
    printf("\n");
    printf("level %d rc %d flags %u moves %lld pushes %lld callbacks %d %s\n", level, rc,
           st.uiFlags, (long long)st.i64MovesGenerated, (long long)st.i64PushesGenerated, calls,
           rc == 0 ? solution : "-");
    printf("status %d: %s\n", level, st.szStatusText);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: plugin_host DLL names|solve|cancel|terminate|optimize|bad|old ...\n");
        return 2;
    }
    dll = LoadLibraryA(argv[1]);
    if (!dll) {
        printf("cannot load %s (error %lu)\n", argv[1], (unsigned long)GetLastError());
        return 3;
    }
    const char *cmd = argv[2];
    static board boards[400];
    int n = argc > 3 ? read_boards(argv[3], boards, 400) : 0;
    if (!strcmp(cmd, "names")) {
        char name[64];
        ((GETPLUGINNAME *)need("GetPluginName"))(name, sizeof name);
        unsigned w = 0, h = 0, boxes = 0;
        ((GETCONSTRAINTS *)need("GetConstraints"))(&w, &h, &boxes);
        ISSUPPORTEDOPTIMIZATION *iso = (ISSUPPORTEDOPTIMIZATION *)need("IsSupportedOptimization");
        printf("name %s\nconstraints %u %u %u\n", name, w, h, boxes);
        /* the published table's secondaries, then YASC's (player lines at 64) */
        printf("optimizations moves/pushes %d pushes/moves %d boxlines %d\n", iso(2 | 128),
               iso(4 | 64), iso(8 | 64));
        printf("yasc optimizations moves/pushes %d pushes/moves %d playerlines %d\n",
               iso(2 | 256), iso(4 | 128), iso(64 | 128));
        const char *all[] = {"Configure", "ShowAbout", "Terminate", "Solve", "Optimize", NULL};
        for (int i = 0; all[i]; i++)
            need(all[i]);
        printf("exports ok\n");
        return 0;
    }
    if (n <= 0 && strcmp(cmd, "bad") != 0) {
        printf("no levels in %s\n", argc > 3 ? argv[3] : "(none)");
        return 2;
    }
    if (!strcmp(cmd, "solve")) {
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += solve_one(&boards[i], i + 1) != 0;
        return bad ? 1 : 0;
    }
    if (!strcmp(cmd, "cancel")) {
        stop_at = 3;
        return solve_one(&boards[0], 1) == 9 ? 0 : 1;
    }
    if (!strcmp(cmd, "terminate")) {
        HANDLE t = CreateThread(NULL, 0, terminate_later, NULL, 0, NULL);
        int rc = solve_one(&boards[0], 1);
        WaitForSingleObject(t, INFINITE);
        return rc == 9 ? 0 : 1;
    }
    if (!strcmp(cmd, "optimize") && argc > 5 && atoi(argv[4]) >= 1 && atoi(argv[4]) <= n) {
        board *b = &boards[atoi(argv[4]) - 1];
        /* two inputs: a bad one, then the solution */
        size_t len = strlen(argv[5]);
        memcpy(solution, "l", 2);
        memcpy(solution + 2, argv[5], len + 1);
        solution[2 + len + 1] = '\0';
        struct PluginStatus st;
        memset(&st, 0, sizeof st);
        st.uiSize = sizeof st;
        st.uiFlags = argc > 6 && !strcmp(argv[6], "pushes") ? 4 | 64 : 2 | 128;
        int rc = ((OPTIMIZE *)need("Optimize"))(b->w, b->h, b->cells, solution, sizeof solution,
                                                &st, callback);
        printf("optimize rc %d moves %lld pushes %lld %s\nstatus: %s\n", rc,
               (long long)st.i64MovesGenerated, (long long)st.i64PushesGenerated,
               rc == 0 ? solution : "-", st.szStatusText);
        return rc;
    }
    if (!strcmp(cmd, "bad")) {
        SOLVEEX *solve = (SOLVEEX *)need("SolveEx");
        char small[] = "#####";
        char open_board[] = "#####"
                            "#@$. "
                            "#####";
        printf("too small rc %d\n", solve(2, 2, small, solution, sizeof solution, NULL, NULL));
        printf("not closed rc %d\n", solve(5, 3, open_board, solution, sizeof solution, NULL, NULL));
        char tiny_buffer[2];
        char ok[] = "######"
                    "#@$ .#"
                    "######";
        printf("buffer too small rc %d\n", solve(6, 3, ok, tiny_buffer, sizeof tiny_buffer, NULL, NULL));
        char dead[] = "######"
                      "#$@ .#"
                      "######";
        printf("unsolvable rc %d\n", solve(6, 3, dead, solution, sizeof solution, NULL, NULL));
        return 0;
    }
    if (!strcmp(cmd, "old")) {
        board *b = &boards[0];
        unsigned char **rows = malloc(sizeof *rows * b->h);
        for (unsigned y = 0; y < b->h; y++) {
            rows[y] = malloc(b->w + 1);
            memcpy(rows[y], b->cells + (size_t)y * b->w, b->w);
            rows[y][b->w] = '\0';
        }
        int rc = ((SOLVE *)need("Solve"))(b->w, b->h, rows, solution, sizeof solution);
        printf("old rc %d %s\n", rc, rc == 0 ? solution : "-");
        return rc;
    }
    fprintf(stderr, "unknown command %s\n", cmd);
    return 2;
}
