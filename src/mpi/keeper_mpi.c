/* keeper_mpi.c: keeper-mpi, "keeper solve" and "keeper verify" with the
 * levels (solutions) spread over the ranks of an MPI job: main, the
 * arguments and files, and the two payloads. Where jobs run is the
 * scheduler's (scheduler.h): this file makes each level or solution a job
 * of bytes, runs it on whichever rank it lands, and takes the replies.
 *
 * Rank 0 reads the arguments and the files and broadcasts the files' bytes
 * (every rank parses the same collections, so no shared file system is
 * needed and '-' works); the scheduler then hands the jobs out largest
 * first. Results are written by rank 0 alone, in input order, through the
 * formatters of keeper solve and keeper verify (solveout.h, verify.h): the
 * output is byte for byte what keeper writes, times aside.
 *
 * Payloads: solve sends none (every rank has the levels: the job id says
 * which), and replies with the solve_result and its strings; verify sends
 * the solution and replies with the outcome and the text. The ranks run
 * the same binary: structs travel as bytes.
 *
 * Signals (solve): SIGINT, SIGTERM and SIGHUP stop a run as they stop
 * keeper solve, on whichever rank they arrive (mpirun passes them on to
 * every rank, Slurm sends them to every task): they set the flag the
 * scheduler watches, which stops every rank (scheduler.c says how): the
 * levels running end 'interrupted', those not started are skipped, and
 * every level finished is written, in input order. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include "scheduler.h"

#include "../cli/cli.h"
#include "../cli/solveout.h"
#include "../cli/solread.h"
#include "../cli/verify.h"
#include "../../include/keeper.h"
#include "../driver/run.h"
#include "../util/spares.h"
#include "../util/str.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set on any rank by SIGINT, SIGTERM or SIGHUP (cli_catch_stop_signals, in
 * solve), and by the scheduler when another rank stopped (work.interrupt
 * points here); read by every thread (an atomic: see cmd_solve.c). */
static atomic_int interrupted = 0;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be lock-free");

static void on_stop_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

/* ---------------------------------------------------------------- files */

/* Rank 0 reads the files, every rank receives their bytes and parses them
 * the same way. Returns 0, or EXIT_BAD_INPUT on every rank when rank 0 could
 * not read one (rank 0 printed why). */
static int share_files(collection *c, const char *const *files, int nfiles, int me)
{
    int status = 0;
    char **data = xcalloc((size_t)nfiles + 1, sizeof(char *));
    uint64_t *len = xcalloc((size_t)nfiles + 1, sizeof(uint64_t));
    if (me == 0) {
        for (int f = 0; f < nfiles && !status; f++) {
            char *error;
            size_t n;
            if (collection_read(files[f], &data[f], &n, &error) != 0) {
                fprintf(stderr, "%s\n", error);
                free(error);
                status = EXIT_BAD_INPUT;
            }
            len[f] = n;
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!status) {
        MPI_Bcast(len, nfiles, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        for (int f = 0; f < nfiles; f++) {
            if (me != 0)
                data[f] = xmalloc(len[f] + 1);
            MPI_Bcast(data[f], (int)len[f], MPI_CHAR, 0, MPI_COMM_WORLD);
            const char *name = strcmp(files[f], "-") == 0 ? "<stdin>" : files[f];
            collection_parse(&c[f], name, data[f], len[f]);
        }
    }
    for (int f = 0; f < nfiles; f++)
        free(data[f]);
    free(data);
    free(len);
    return status;
}

/* Ranks other than 0 keep quiet while they parse the arguments (rank 0
 * prints the same messages); then their stderr is back, for fatal errors.
 * The one mutable static of the program, set once in main. */
static int saved_stderr = -1;

static void speak(void)
{
    if (saved_stderr >= 0) {
        dup2(saved_stderr, 2);
        close(saved_stderr);
        saved_stderr = -1;
    }
}

/* Agrees on a status: rank 0's. */
static int agree(int status)
{
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

/* ---------------------------------------------------------------- solve */

typedef struct solve_work {
    work w;
    const solve_args *a;
    collection *c;      /* by file */
    int nfiles;
    char *resumed;      /* by level of c[0]: solved in the --resume file */
    int nresumed;       /* rank 0: how many */
    const level **lv;   /* by job */
    int *file;          /* by job: its file */
    uint64_t mem;       /* memory budget of one thread */
    /* rank 0 */
    solve_result *res;  /* by job */
    char **keep;        /* by job: the reply the result's strings point into */
    char *done;         /* by job: 1 its result is in, 2 it will not run */
    int out_next, cur_file;
    int *file_end;      /* by file: one past its last job */
    int *file_jobs;
    FILE *out;
    int write_errno;
    solve_tally tally, sum;
    int64_t t_file;
} solve_work;

static void solve_run(work *w, int id, const char *payload, size_t n, strbuf *reply)
{
    solve_work *sw = (solve_work *)w;
    search_limits lim;
    driver_limits(&lim, &sw->a->o, w->interrupt);
    lim.spares = w->spares;
    solve_result r;
    solve_level(sw->lv[id], &sw->a->o, &lim, sw->mem, &r);
    /* the struct, then its strings: strategy, member names, solution */
    sb_putn(reply, (const char *)&r, sizeof r);
    sb_puts(reply, r.strategy ? r.strategy : "");
    sb_putc(reply, '\0');
    for (int i = 0; i < r.nmembers; i++) {
        sb_puts(reply, r.members[i].name ? r.members[i].name : "");
        sb_putc(reply, '\0');
    }
    sb_puts(reply, r.lurd ? r.lurd : "");
    sb_putc(reply, '\0');
    solve_result_free(&r);
}

static void solve_payload(work *w, int id, strbuf *out) {}

/* Writes the results that are next in input order, with each file's header
 * before its first level and its totals after its last. */
static void solve_flush(solve_work *sw)
{
    const solve_args *a = sw->a;
    while (sw->cur_file < sw->nfiles) {
        int f = sw->cur_file;
        if (sw->out_next < sw->file_end[f]) {
            int id = sw->out_next;
            if (!sw->done[id])
                return;
            if (sw->done[id] == 2) { /* interrupted before it started */
                sw->tally.skipped++;
                sw->out_next++;
                continue;
            }
            solveout_row(stderr, sw->lv[id], &sw->res[id], a->quiet, a->verbose, &sw->tally);
            fflush(stderr);
            solveout_level(sw->out, a->fmt, sw->lv[id], &sw->res[id]);
            if (fflush(sw->out) != 0 && !sw->write_errno)
                sw->write_errno = errno;
            sw->out_next++;
            continue;
        }
        /* the file is done: its totals, then the next file's header */
        if (!a->quiet)
            solveout_total(stderr, &sw->tally, sw->file_jobs[f], timer_seconds_since(sw->t_file),
                           atomic_load(&interrupted));
        sw->sum.solved += sw->tally.solved;
        sw->sum.unsolved += sw->tally.unsolved;
        sw->sum.invalid += sw->tally.invalid;
        sw->sum.skipped += sw->tally.skipped;
        memset(&sw->tally, 0, sizeof sw->tally);
        sw->t_file = timer_now_ns();
        sw->cur_file++;
        if (sw->cur_file < sw->nfiles) {
            int g = sw->cur_file;
            if (!a->quiet)
                solveout_header(stderr, sw->c[g].name, sw->file_jobs[g], &a->o,
                                driver_threads(&a->o, sw->file_jobs[g]));
            solveout_notes(sw->out, a->fmt, &sw->c[g]);
        }
    }
}

static void solve_take(work *w, int id, const char *reply, size_t n)
{
    solve_work *sw = (solve_work *)w;
    solve_result *r = &sw->res[id];
    if (!reply || n < sizeof *r) {
        memset(r, 0, sizeof *r);
        r->status = RESULT_UNSOLVED;
        r->lower_bound = -1;
        r->strategy = "";
        snprintf(r->reason, sizeof r->reason, "worker lost");
    } else {
        char *k = xmalloc(n + 1);
        memcpy(k, reply, n);
        k[n] = '\0';
        sw->keep[id] = k;
        memcpy(r, k, sizeof *r);
        const char *s = k + sizeof *r;
        r->strategy = s;
        s += strlen(s) + 1;
        for (int i = 0; i < r->nmembers; i++) {
            r->members[i].name = s;
            s += strlen(s) + 1;
        }
        r->lurd = r->status == RESULT_SOLVED ? xstrdup(s) : NULL;
    }
    sw->done[id] = 1;
    solve_flush(sw);
}

static void solve_unstarted(work *w, int id)
{
    solve_work *sw = (solve_work *)w;
    sw->done[id] = 2;
    solve_flush(sw);
}

static void solve_usage(FILE *f)
{
    fprintf(f,
            "usage: mpirun -n N keeper-mpi solve FILE... [OPTIONS]\n"
            "       mpirun -n N keeper-mpi verify FILE [SOLUTIONS] [OPTIONS]\n"
            "\n"
            "Solves the levels of each FILE as keeper solve does, spread over the MPI\n"
            "ranks: rank 0 hands the levels out, largest first, --threads at a time to\n"
            "each rank (itself included), and writes the results in input order, the\n"
            "same bytes keeper solve writes for each FILE in turn (SOK, LURD or JSON\n"
            "lines; the result table on stderr). --html and --resume take one FILE. A\n"
            "signal (SIGTERM, Ctrl-C) on any rank stops every rank; the levels finished\n"
            "are written. A rank that dies is reported and its levels come out unsolved\n"
            "with the reason 'worker lost'. verify checks solutions the same way (see\n"
            "keeper verify --help).\n"
            "\n");
    solve_usage_options(f);
}

/* Parses solve's arguments (every rank parses the same) and checks what
 * takes one file here. Returns 0 to run, a negative number after --help
 * (rank 0 printed it), or the exit status every rank agreed on. */
static int solve_args_check(solve_args *a, int argc, char **argv, int me)
{
    int status = solve_parse_args(a, argc, argv, "solve", 1);
    if (status < 0) {
        if (me == 0)
            solve_usage(stdout);
        return status;
    }
    if (!status && a->html && a->nfiles > 1)
        status = cli_usage_error("solve", "--html takes one input file");
    /* the seeds would have to be read on every rank, beside the files */
    if (!status && a->seeds)
        status = cli_usage_error("solve", "--seed is keeper solve's (run the seeded proofs "
                                          "there)");
    /* The output of a run over several files cannot be matched to each
     * file exactly: its JSON lines repeat level numbers, its LURD lines do
     * not say where a file ends. */
    if (!status && a->resume && a->nfiles > 1)
        status = cli_usage_error("solve", "--resume takes one input file (continue each file's "
                                          "run on its own)");
    return agree(status);
}

/* The files shared and checked (rank 0 says what is wrong), rank 0's
 * --resume file read and its output opened; then every rank learns the
 * levels solved in the --resume file (sw->resumed). Returns 0, or the exit
 * status every rank agreed on. */
static int solve_input(solve_work *sw, int me)
{
    const solve_args *a = sw->a;
    collection *c = sw->c;
    int status = share_files(c, a->files, a->nfiles, me);
    for (int f = 0; f < a->nfiles && !status && me == 0; f++) {
        if (c[f].error) {
            fprintf(stderr, "%s\n", c[f].error);
            status = EXIT_BAD_INPUT;
        } else if (cli_check_level_sel(&a->sel, &c[f], "solve") != 0 ||
                   solve_output_is_input(a, a->files[f])) {
            status = EXIT_BAD_INPUT;
        }
    }
    /* --resume: rank 0 reads the earlier output (solutions replayed); every
     * rank leaves out the levels solved there */
    if (me == 0 && !status && a->resume &&
        solve_resume_read(a, &c[0], &sw->resumed, &sw->nresumed) != 0)
        status = EXIT_BAD_INPUT;
    if (me == 0 && !status && !(sw->out = solve_open_output(a)))
        status = EXIT_BAD_INPUT;
    if ((status = agree(status)) != 0)
        return status;
    if (a->resume) {
        if (me != 0)
            sw->resumed = xcalloc((size_t)MAX(c[0].nlevels, 1), 1);
        MPI_Bcast(sw->resumed, c[0].nlevels, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    return 0;
}

/* The jobs, on every rank alike: the selected levels of every file but
 * those the --resume file solved, weighed by size; the hooks, the threads
 * per rank and each one's memory. */
static void solve_jobs(solve_work *sw)
{
    const solve_args *a = sw->a;
    const collection *c = sw->c;
    int total = 0;
    for (int f = 0; f < a->nfiles; f++)
        total += c[f].nlevels;
    sw->lv = xcalloc((size_t)total + 1, sizeof(level *));
    sw->file = xcalloc((size_t)total + 1, sizeof(int));
    sw->file_end = xcalloc((size_t)a->nfiles, sizeof(int));
    sw->file_jobs = xcalloc((size_t)a->nfiles, sizeof(int));
    sw->w.weight = xcalloc((size_t)total + 1, sizeof(long));
    int n = 0;
    for (int f = 0; f < a->nfiles; f++) {
        for (int k = 0; k < c[f].nlevels; k++) {
            const level *lv = &c[f].levels[k];
            if (!cli_selected(&a->sel, lv->index) || (sw->resumed && f == 0 && sw->resumed[k]))
                continue;
            sw->file[n] = f;
            /* size: boxes first, then the board's area */
            sw->w.weight[n] = lv->error ? 0 : (long)level_count(lv, '$') * 100000 +
                                                  (long)lv->width * lv->height;
            sw->lv[n++] = lv;
        }
        sw->file_end[f] = n;
        sw->file_jobs[f] = n - (f ? sw->file_end[f - 1] : 0);
    }
    sw->w.njobs = n;
    sw->w.threads = driver_threads(&a->o, n);
    sw->w.run = solve_run;
    sw->w.payload = solve_payload;
    sw->w.take = solve_take;
    sw->w.unstarted = solve_unstarted;
    sw->w.interrupt = &interrupted;
    sw->mem = driver_memory_share(&a->o, sw->w.threads);
}

/* Rank 0, before the run: room for the results, then what keeper solve
 * writes first (the --resume note, the first file's header and notes, and
 * the files with no level selected). */
static void solve_begin(solve_work *sw)
{
    const solve_args *a = sw->a;
    int n = sw->w.njobs;
    sw->res = xcalloc((size_t)n + 1, sizeof(solve_result));
    sw->keep = xcalloc((size_t)n + 1, sizeof(char *));
    sw->done = xcalloc((size_t)n + 1, 1);
    sw->t_file = timer_now_ns();
    if (a->resume && !a->quiet)
        solveout_resumed(stderr, a->resume, sw->nresumed);
    if (!a->quiet)
        solveout_header(stderr, sw->c[0].name, sw->file_jobs[0], &a->o,
                        driver_threads(&a->o, sw->file_jobs[0]));
    solveout_notes(sw->out, a->fmt, &sw->c[0]);
    solve_flush(sw); /* files without a selected level */
}

/* Rank 0, --html: the page of the levels that ran. Returns 0, or -1 when
 * it could not be written (said on stderr). */
static int solve_html(const solve_work *sw)
{
    int n = sw->w.njobs;
    const level **lp = xcalloc((size_t)n + 1, sizeof *lp);
    const solve_result **rp = xcalloc((size_t)n + 1, sizeof *rp);
    int m = 0;
    for (int k = 0; k < n; k++)
        if (sw->done[k] == 1) {
            lp[m] = sw->lv[k];
            rp[m++] = &sw->res[k];
        }
    int rc = solveout_html(sw->a->html, sw->c[0].name, lp, rp, m, sw->a->quiet) != 0 ? -1 : 0;
    free(lp);
    free(rp);
    return rc;
}

/* Rank 0, after the run: the rest written, the output closed, the HTML
 * page; the results freed. Returns the exit status. */
static int solve_end(solve_work *sw)
{
    const solve_args *a = sw->a;
    solve_flush(sw);
    int bad_out = solveout_close(sw->out, a->output, sw->write_errno) != 0;
    if (a->html && solve_html(sw) != 0)
        bad_out = 1;
    int status = solveout_exit(&sw->sum, bad_out);
    for (int k = 0; k < sw->w.njobs; k++) {
        solve_result_free(&sw->res[k]);
        free(sw->keep[k]);
    }
    free(sw->res);
    free(sw->keep);
    free(sw->done);
    return status;
}

/* Every rank: the jobs spread over the ranks, idle threads lent to the
 * levels still running, a signal stopping the run as it stops keeper solve
 * (see the top of this file). Returns rank 0's exit status (0 on the other
 * ranks); *lost: whether a rank was lost. */
static int solve_spread(solve_work *sw, int me, int size, int *lost)
{
    spares sp;
    spares_init(&sp, sw->w.threads, sw->mem);
    sw->w.spares = &sp;
    if (me == 0)
        solve_begin(sw);
    atomic_store(&interrupted, 0);
    cli_signals old_sa;
    cli_catch_stop_signals(on_stop_signal, &old_sa);
    sched_distribute(&sw->w, me, size);
    *lost = sw->w.lost;
    int status = me == 0 ? solve_end(sw) : 0;
    cli_restore_stop_signals(&old_sa);
    spares_destroy(&sp);
    return status;
}

/* keeper-mpi solve, on every rank with the same arguments. Returns the
 * exit status; *lost: whether a rank was lost. */
static int mpi_solve(int argc, char **argv, int me, int size, int *lost)
{
    solve_args a;
    int status = solve_args_check(&a, argc, argv, me);
    if (status) {
        solve_args_free(&a);
        return status < 0 ? 0 : status;
    }
    speak();
    solve_work sw;
    memset(&sw, 0, sizeof sw);
    sw.a = &a;
    sw.nfiles = a.nfiles;
    sw.c = xcalloc((size_t)a.nfiles, sizeof(collection));
    status = solve_input(&sw, me);
    if (!status) {
        solve_jobs(&sw);
        free(sw.resumed);
        sw.resumed = NULL;
        status = solve_spread(&sw, me, size, lost);
        free(sw.lv);
        free(sw.file);
        free(sw.file_end);
        free(sw.file_jobs);
        free(sw.w.weight);
    }
    free(sw.resumed);
    for (int f = 0; f < a.nfiles; f++)
        collection_free(&sw.c[f]);
    free(sw.c);
    solve_args_free(&a);
    /* No collective call here: a lost rank would never join it. Rank 0's
     * status is the run's (mpirun exits with it); the others return 0 once
     * the run started. */
    return status;
}

/* --------------------------------------------------------------- verify */

typedef struct verify_work {
    work w;
    const verify_args *a;
    const collection *c;
    vlist items; /* rank 0 */
    int *item;   /* by job: its index in items */
    /* rank 0 */
    char *done;
    strbuf *out, *err;
    verify_outcome *vo;
    int out_next;
    int *has_solution;
    verify_tally tally;
} verify_work;

static void put_i64(strbuf *b, int64_t x)
{
    sb_putn(b, (const char *)&x, sizeof x);
}

static int64_t get_i64(const char **p)
{
    int64_t x;
    memcpy(&x, *p, sizeof x);
    *p += sizeof x;
    return x;
}

/* A solution as a job's payload: the level (its place in the collection),
 * the numbers, then the strings src, title (or none) and moves. */
static void verify_payload(work *w, int id, strbuf *out)
{
    verify_work *vw = (verify_work *)w;
    const vitem *it = &vw->items.v[vw->item[id]];
    put_i64(out, it->lv - vw->c->levels);
    put_i64(out, it->line);
    put_i64(out, it->section);
    put_i64(out, it->saved_game);
    put_i64(out, it->claim_moves);
    put_i64(out, it->claim_pushes);
    put_i64(out, it->title != NULL);
    sb_puts(out, it->src);
    sb_putc(out, '\0');
    sb_puts(out, it->title ? it->title : "");
    sb_putc(out, '\0');
    sb_puts(out, it->moves);
    sb_putc(out, '\0');
}

static void verify_run(work *w, int id, const char *payload, size_t n, strbuf *reply)
{
    verify_work *vw = (verify_work *)w;
    const char *p = payload;
    vitem it;
    memset(&it, 0, sizeof it);
    it.lv = &vw->c->levels[get_i64(&p)];
    it.line = (int)get_i64(&p);
    it.section = (int)get_i64(&p);
    it.saved_game = (int)get_i64(&p);
    it.claim_moves = (long)get_i64(&p);
    it.claim_pushes = (long)get_i64(&p);
    int has_title = (int)get_i64(&p);
    it.src = (char *)(uintptr_t)p;
    p += strlen(p) + 1;
    it.title = has_title ? (char *)(uintptr_t)p : NULL;
    p += strlen(p) + 1;
    it.moves = (char *)(uintptr_t)p;
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    verify_outcome vo;
    verify_item(&it, &vw->a->f, &out, &err, &vo);
    /* the outcome, the stdout text's length, the stdout text, the stderr text */
    sb_putn(reply, (const char *)&vo, sizeof vo);
    put_i64(reply, (int64_t)out.len);
    sb_putn(reply, out.s ? out.s : "", out.len);
    sb_putn(reply, err.s ? err.s : "", err.len);
    sb_free(&out);
    sb_free(&err);
}

static void verify_take(work *w, int id, const char *reply, size_t n)
{
    verify_work *vw = (verify_work *)w;
    const vitem *it = &vw->items.v[vw->item[id]];
    sb_init(&vw->out[id]);
    sb_init(&vw->err[id]);
    if (!reply || n < sizeof(verify_outcome) + sizeof(int64_t)) {
        memset(&vw->vo[id], 0, sizeof vw->vo[id]);
        vw->vo[id].kind = 2;
        sb_printf(&vw->err[id], "%s:%d: error: level %d, section %d: not checked: worker lost\n",
                  it->src, it->line, it->lv->index, it->section);
    } else {
        memcpy(&vw->vo[id], reply, sizeof vw->vo[id]);
        const char *p = reply + sizeof vw->vo[id];
        size_t olen = (size_t)get_i64(&p);
        sb_putn(&vw->out[id], p, olen);
        sb_putn(&vw->err[id], p + olen, (size_t)(reply + n - (p + olen)));
    }
    vw->done[id] = 1;
    while (vw->out_next < w->njobs && vw->done[vw->out_next]) {
        int k = vw->out_next++;
        if (vw->out[k].len)
            fwrite(vw->out[k].s, 1, vw->out[k].len, stdout);
        fflush(stdout);
        if (vw->err[k].len)
            fwrite(vw->err[k].s, 1, vw->err[k].len, stderr);
        verify_count(&vw->tally, &vw->items.v[vw->item[k]], &vw->vo[k], vw->has_solution);
        sb_free(&vw->out[k]);
        sb_free(&vw->err[k]);
    }
}

static int mpi_verify(int argc, char **argv, int me, int size, int *lost)
{
    verify_args a;
    int status = verify_parse_args(&a, argc, argv);
    if (status < 0) {
        if (me == 0)
            verify_usage(stdout);
        return 0;
    }
    if (agree(status))
        return status;
    speak();
    collection c;
    memset(&c, 0, sizeof c);
    status = share_files(&c, &a.file, 1, me);
    if (!status && me == 0 && (c.error || cli_check_level_sel(&a.sel, &c, "verify") != 0)) {
        if (c.error)
            fprintf(stderr, "%s\n", c.error);
        status = EXIT_BAD_INPUT;
    }
    verify_work vw;
    memset(&vw, 0, sizeof vw);
    vw.a = &a;
    vw.c = &c;
    int rc = 0, nbadlevel = 0;
    if (!status && me == 0) {
        /* the solutions, read on rank 0 alone */
        if (a.solfile) {
            rc = sol_read(&vw.items, &c, &a.sel, a.solfile);
            if (rc && vw.items.n == 0)
                status = rc;
        } else {
            for (int k = 0; k < c.nlevels; k++)
                sol_add_sections(&vw.items, &c.levels[k], &c.levels[k], c.name);
        }
    }
    if (agree(status)) {
        sol_list_free(&vw.items);
        collection_free(&c);
        return status;
    }
    if (me == 0) {
        for (int k = 0; k < c.nlevels; k++) {
            if (c.levels[k].error && cli_selected(&a.sel, c.levels[k].index)) {
                fprintf(stderr, "%s\n", c.levels[k].error);
                nbadlevel++;
            }
        }
        vw.item = xcalloc((size_t)vw.items.n + 1, sizeof(int));
        vw.w.weight = xcalloc((size_t)vw.items.n + 1, sizeof(long));
        for (int i = 0; i < vw.items.n; i++) {
            if (!cli_selected(&a.sel, vw.items.v[i].lv->index))
                continue;
            vw.w.weight[vw.w.njobs] = (long)strlen(vw.items.v[i].moves);
            vw.item[vw.w.njobs++] = i;
        }
        vw.done = xcalloc((size_t)vw.w.njobs + 1, 1);
        vw.out = xcalloc((size_t)vw.w.njobs + 1, sizeof(strbuf));
        vw.err = xcalloc((size_t)vw.w.njobs + 1, sizeof(strbuf));
        vw.vo = xcalloc((size_t)vw.w.njobs + 1, sizeof(verify_outcome));
        vw.has_solution = xcalloc((size_t)c.nlevels + 1, sizeof(int));
    }
    MPI_Bcast(&vw.w.njobs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    vw.w.threads = 1;
    vw.w.run = verify_run;
    vw.w.payload = verify_payload;
    vw.w.take = verify_take;
    sched_distribute(&vw.w, me, size);
    *lost = vw.w.lost;
    if (me == 0) {
        verify_summary(stderr, &vw.tally, &c, &a.sel, vw.has_solution, a.f.audit);
        if (rc || nbadlevel)
            status = EXIT_BAD_INPUT;
        else
            status = verify_status(&vw.tally, a.solfile ? a.solfile : a.file);
        free(vw.item);
        free(vw.w.weight);
        free(vw.done);
        free(vw.out);
        free(vw.err);
        free(vw.vo);
        free(vw.has_solution);
    }
    sol_list_free(&vw.items);
    collection_free(&c);
    return me == 0 ? status : 0;
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -n N keeper-mpi solve FILE... [OPTIONS]\n"
               "       mpirun -n N keeper-mpi verify FILE [SOLUTIONS] [OPTIONS]\n"
               "(keeper-mpi solve --help, keeper-mpi verify --help)\n");
}

int main(int argc, char **argv)
{
    cli_setup_allocator();
    int provided, me, size;
    /* Open MPI's point-to-point layer: ob1 unless the user chose one. Its
     * default probes UCX first, which costs 0.2 s at every start (mpirun
     * -n 2 on the demo: 0.35 s against 0.14 s); keeper-mpi's messages are
     * few and small, so the choice costs nothing once running. Other MPI
     * libraries ignore the variable. */
    setenv("OMPI_MCA_pml", "ob1", 0);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Only rank 0 speaks: the others' copies of the same messages (every
     * rank parses the same arguments) go nowhere. */
    if (me != 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            saved_stderr = dup(2);
            dup2(null, 2);
            close(null);
        }
    }
    int status, lost = 0;
    if (argc < 2) {
        if (me == 0)
            usage(stderr);
        status = EXIT_BAD_INPUT;
    } else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (me == 0)
            usage(stdout);
        status = 0;
    } else if (!strcmp(argv[1], "--version")) {
        if (me == 0)
            printf("keeper-mpi %s\n", KEEPER_VERSION);
        status = 0;
    } else if (!strcmp(argv[1], "solve")) {
        status = mpi_solve(argc - 1, argv + 1, me, size, &lost);
    } else if (!strcmp(argv[1], "verify")) {
        status = mpi_verify(argc - 1, argv + 1, me, size, &lost);
    } else {
        status = me == 0 ? cli_usage_error(NULL, "unknown command '%s' (solve or verify)", argv[1])
                         : EXIT_BAD_INPUT;
    }
    speak();
    if (lost) {
        /* MPI_Finalize would wait for the lost rank forever; everything is
         * written, so leave without it (mpirun then ends the other ranks). */
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    MPI_Finalize();
    return status;
}
