/* cmd_verify.c: "keeper verify": replay solutions and report their metrics.

 * Which solutions it reads, and from where: solread.h. */
#include "cli.h"
#include "solread.h"
#include "verify.h"
#include "../core/board.h"
#include "../core/solution.h"
#include "../analysis/distance.h"
#include "../search/audit.h"
#include "../util/str.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- one */

/* What replaying one solution found: its status ("valid", "saved game" or
 * "invalid"), the reason when it is not valid, the replay's metrics when
 * the moves could be decoded, and the audit when one ran. */
typedef struct vcheck {
    const char *status;
    char reason[320];
    replay_result rr;
    int have_metrics, audited;
    audit_report ar;
} vcheck;

/* Replays the item's moves on its level and fills vc: the status, the reason,
 * the metrics, and (with f->audit, valid solutions only) the audit and
 * vo->audit_pushes. */
static void check_item(const vitem *it, const verify_flags *f, vcheck *vc, verify_outcome *vo)
{
    const level *lv = it->lv;
    if (lv->error) {
        /* The caller reports the level's own error. */
        vc->status = "invalid";
        snprintf(vc->reason, sizeof vc->reason, "the level is invalid: %s", lv->error);
        return;
    }
    board bd;
    board_build(&bd, lv);
    movelist mv;
    moves_init(&mv);
    char msg[160];
    replay_result *rr = &vc->rr;
    if (lurd_decode(it->moves, &mv, msg, sizeof msg) != 0) {
        vc->status = "invalid";
        snprintf(vc->reason, sizeof vc->reason, "%s", msg);
    } else {
        solution_replay(&bd, &mv, rr);
        vc->have_metrics = 1;
        if (rr->solved) {
            vc->status = "valid";
            if ((it->claim_moves >= 0 && it->claim_moves != rr->m.moves) ||
                (it->claim_pushes >= 0 && it->claim_pushes != rr->m.pushes)) {
                vc->status = "invalid";
                snprintf(vc->reason, sizeof vc->reason,
                         "claims %ld moves and %ld pushes; the replay gives %ld and %ld",
                         it->claim_moves, it->claim_pushes, rr->m.moves, rr->m.pushes);
            }
            if (f->audit && !strcmp(vc->status, "valid") && distance_analyze(&bd) == 0 &&
                audit_solution(&bd, &mv, &vc->ar) == 0) {
                vc->audited = 1;
                vo->audit_pushes = vc->ar.pushes;
            }
        } else if (rr->legal && it->saved_game) {
            vc->status = "saved game";
            snprintf(vc->reason, sizeof vc->reason, "%s", rr->reason);
        } else {
            vc->status = "invalid";
            snprintf(vc->reason, sizeof vc->reason, "%s%s",
                     rr->legal ? "does not solve the level: " : "", rr->reason);
        }
    }
    moves_free(&mv);
    board_free(&bd);
}

/* Appends one JSON line for the solution to b: where it is, its status and
 * reason, the metrics and the audit when there are some. */
static void put_json(strbuf *b, const vitem *it, const vcheck *vc)
{
    const level *lv = it->lv;
    const replay_result *rr = &vc->rr;
    const audit_report *ar = &vc->ar;
    sb_printf(b, "{\"index\":%d,\"title\":", lv->index);
    sb_json_string(b, lv->title);
    sb_printf(b, ",\"section\":%d,\"section_title\":", it->section);
    if (it->title)
        sb_json_string(b, it->title);
    else
        sb_puts(b, "null");
    sb_puts(b, ",\"file\":");
    sb_json_string(b, it->src);
    sb_printf(b, ",\"line\":%d,\"status\":", it->line);
    sb_json_string(b, vc->status);
    sb_puts(b, ",\"reason\":");
    sb_json_string(b, vc->reason);
    if (vc->have_metrics)
        sb_printf(b,
                  ",\"moves\":%ld,\"pushes\":%ld,\"box_lines\":%ld,\"box_changes\":%ld,"
                  "\"pushing_sessions\":%ld,\"player_lines\":%ld",
                  rr->m.moves, rr->m.pushes, rr->m.box_lines, rr->m.box_changes,
                  rr->m.pushing_sessions, rr->m.player_lines);
    if (vc->have_metrics && !rr->legal)
        sb_printf(b, ",\"fail_step\":%ld", rr->fail_step);
    if (vc->audited) {
        sb_printf(b, ",\"audit\":{\"false_verdicts\":%ld", audit_false_verdicts(ar));
        for (int d = 0; d < AUDIT_N; d++)
            if (ar->dead[d])
                sb_printf(b, ",\"%s\":{\"dead\":%ld,\"first_push\":%ld}", audit_name[d],
                          ar->dead[d], ar->first[d]);
        sb_printf(b,
                  ",\"plan_steps\":%d,\"packed_start\":%d,\"packed_best\":%d,"
                  "\"packed_best_push\":%ld,\"packed_final\":%d,\"packed_low_longest\":%ld,"
                  "\"packed_low_from\":%ld",
                  ar->plan_steps, ar->packed_start, ar->packed_best, ar->packed_best_push,
                  ar->packed_final, ar->packed_low_longest, ar->packed_low_from);
        sb_puts(b, ",\"packed_first\":[");
        for (int k = 0; k <= ar->packed_best && k <= AUDIT_MAX_PACKED; k++)
            sb_printf(b, "%s%ld", k ? "," : "", ar->packed_first[k]);
        sb_puts(b, "]}");
    }
    sb_puts(b, "}\n");
}

/* Reports an audit that ran: its false deadlock verdicts as errors on err
 * (and vo->audit_failed), and unless quiet or JSON lines a summary line on
 * out. where: the solution's "SRC:LINE: level ..." prefix. */
static void put_audit(const vcheck *vc, const char *where, const verify_flags *f, strbuf *out,
                      strbuf *err, verify_outcome *vo)
{
    const audit_report *ar = &vc->ar;
    long nf = audit_false_verdicts(ar);
    if (nf) {
        vo->audit_failed = 1;
        for (int d = 0; d < AUDIT_N; d++)
            if (ar->dead[d])
                sb_printf(err,
                        "%s: error: audit: %s (%s) calls %ld of the solution's positions "
                        "dead, the first after push %ld\n",
                        where, audit_name[d], audit_desc[d], ar->dead[d], ar->first[d]);
    }
    if (!f->jsonl && !f->quiet) {
        char plan[64];
        if (ar->plan_steps)
            snprintf(plan, sizeof plan, "plan of %d steps", ar->plan_steps);
        else
            snprintf(plan, sizeof plan, "no plan");
        sb_printf(out, "%s: audit: %ld pushes, %ld false deadlock verdicts; packed (%s) %d at "
               "the start, at most %d (first after push %ld), %d at the end; longest "
               "fall below the best so far: %ld pushes from push %ld\n",
               where, ar->pushes, nf, plan, ar->packed_start, ar->packed_best,
               ar->packed_best_push, ar->packed_final, ar->packed_low_longest,
               ar->packed_low_from);
    }
}

void verify_item(const vitem *it, const verify_flags *f, strbuf *out, strbuf *err,
                 verify_outcome *vo)
{
    const level *lv = it->lv;
    memset(vo, 0, sizeof *vo);
    vcheck vc;
    memset(&vc, 0, sizeof vc);
    check_item(it, f, &vc, vo);
    const replay_result *rr = &vc.rr;
    int invalid = 0;
    if (!strcmp(vc.status, "valid")) {
        vo->kind = 0;
    } else if (!strcmp(vc.status, "saved game")) {
        vo->kind = 1;
    } else {
        vo->kind = 2;
        invalid = 1;
    }
    /* "SRC:LINE: level N "title", section S "title"" */
    strbuf where;
    sb_init(&where);
    sb_printf(&where, "%s:%d: ", it->src, it->line);
    if (invalid)
        sb_puts(&where, "error: ");
    sb_printf(&where, "level %d", lv->index);
    if (lv->title[0])
        sb_printf(&where, " \"%s\"", lv->title);
    sb_printf(&where, ", section %d", it->section);
    if (it->title)
        sb_printf(&where, " \"%s\"", it->title);
    strbuf b;
    sb_init(&b);
    if (f->jsonl) {
        put_json(&b, it, &vc);
        sb_puts(out, b.s);
    }
    /* Text: valid solutions and saved games on stdout, invalid ones on
     * stderr as errors. JSON lines: every solution on stdout, and the
     * invalid ones also on stderr. */
    if ((!f->jsonl && (!f->quiet || invalid)) || (f->jsonl && invalid && !lv->error)) {
        sb_clear(&b);
        sb_puts(&b, where.s);
        sb_printf(&b, ": %s", vc.status);
        if (vc.reason[0])
            sb_printf(&b, ": %s", vc.reason);
        if (vc.have_metrics && (rr->legal || rr->m.moves))
            sb_printf(&b,
                      "%s%ld moves, %ld pushes, %ld box lines, %ld box changes, "
                      "%ld pushing sessions, %ld player lines",
                      vc.reason[0] ? "; " : ": ", rr->m.moves, rr->m.pushes, rr->m.box_lines,
                      rr->m.box_changes, rr->m.pushing_sessions, rr->m.player_lines);
        sb_putc(&b, '\n');
        sb_puts(invalid ? err : out, b.s);
    }
    if (vc.audited)
        put_audit(&vc, where.s, f, out, err, vo);
    sb_free(&where);
    sb_free(&b);
}

void verify_count(verify_tally *t, const vitem *it, const verify_outcome *vo, int *has_solution)
{
    if (vo->kind == 0) {
        t->nvalid++;
        has_solution[it->lv->index] = 1;
    } else if (vo->kind == 1) {
        t->nsaved++;
    } else {
        t->ninvalid++;
    }
    t->naudit_pushes += vo->audit_pushes;
    t->naudit_failed += vo->audit_failed;
}

void verify_summary(FILE *f, const verify_tally *t, const collection *c, const level_sel *sel,
                    const int *has_solution, int audit)
{
    int without = 0;
    for (int k = 0; k < c->nlevels; k++)
        if (cli_selected(sel, c->levels[k].index) && !has_solution[c->levels[k].index])
            without++;
    int n = t->nvalid + t->ninvalid + t->nsaved;
    fprintf(f, "keeper: %d solution%s: %d valid, %d invalid, %d saved game%s; %d level%s "
               "without a valid solution\n",
            n, n == 1 ? "" : "s", t->nvalid, t->ninvalid, t->nsaved, t->nsaved == 1 ? "" : "s",
            without, without == 1 ? "" : "s");
    if (audit)
        fprintf(f, "keeper: audit: %ld pushes, %d solution%s with a false deadlock verdict\n",
                t->naudit_pushes, t->naudit_failed, t->naudit_failed == 1 ? "" : "s");
}

int verify_status(const verify_tally *t, const char *from)
{
    if (t->nvalid + t->ninvalid + t->nsaved == 0) {
        fprintf(stderr, "keeper: no solution to check: %s holds none for the levels selected\n",
                from);
        return EXIT_SOME_FAILED;
    }
    return t->ninvalid || t->naudit_failed ? EXIT_SOME_FAILED : EXIT_ALL_OK;
}

/* ------------------------------------------------------------- command */

void verify_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper verify FILE [SOLUTIONS] [OPTIONS]\n"
            "\n"
            "Replays solutions and reports, for each: valid or invalid (with the step and\n"
            "the reason), moves, pushes, box lines, box changes, pushing sessions and player\n"
            "lines. Without SOLUTIONS the solutions stored in FILE's levels are checked.\n"
            "SOLUTIONS may be a SOK/XSB file, a CSV file with 'level' and 'lurd' columns\n"
            "(claimed 'moves' and 'pushes' are checked too), one LURD line per level, or\n"
            "keeper's JSON lines (solve --format jsonl); '-' reads standard input.\n"
            "A section titled as a saved game (SaveGame, Snapshot) that does not solve its\n"
            "level is checked for legal moves only.\n"
            "\n"
            "  --level N | --levels LIST  check these levels only (LIST: 1-5,9,12-20)\n"
            "  --format text|jsonl        report format (default text)\n"
            "  --quiet                    print invalid solutions and the summary only\n"
            "  --audit                    also run every deadlock detector on every position\n"
            "                             of each valid solution (none may call one dead)\n"
            "                             and follow the packing plan along it\n"
            "\n"
            "exit status: 0 all solutions valid, 1 some solution invalid (or, with --audit,\n"
            "some detector called a solution's position dead), 2 bad input.\n");
}

int verify_parse_args(verify_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        int c = cli_common_arg(&a->sel, &a->f.quiet, argc, argv, &i, "verify");
        if (c < 0)
            return c == CLI_ARG_HELP ? -1 : EXIT_BAD_INPUT;
        if (c)
            continue;
        if (!strcmp(s, "--audit")) {
            a->f.audit = 1;
            continue;
        }
        if (!strcmp(s, "--format") || !strncmp(s, "--format=", 9)) {
            const char *v = s[8] == '=' ? s + 9 : next;
            if (!v)
                return cli_usage_error("verify", "--format needs a value");
            if (s[8] != '=')
                i++;
            if (!strcmp(v, "jsonl"))
                a->f.jsonl = 1;
            else if (!strcmp(v, "text"))
                a->f.jsonl = 0;
            else
                return cli_usage_error("verify", "--format: '%s' is not text or jsonl", v);
            continue;
        }
        if (s[0] == '-' && s[1] != '\0')
            return cli_usage_error("verify", "unknown option '%s'", s);
        if (!a->file)
            a->file = s;
        else if (!a->solfile)
            a->solfile = s;
        else
            return cli_usage_error("verify", "too many files ('%s')", s);
    }
    if (!a->file)
        return cli_usage_error("verify", "no input file");
    if (a->solfile && !strcmp(a->file, "-") && !strcmp(a->solfile, "-"))
        return cli_usage_error("verify", "FILE and SOLUTIONS cannot both be standard input");
    return 0;
}

int cmd_verify(int argc, char **argv)
{
    verify_args va;
    int prc = verify_parse_args(&va, argc, argv);
    if (prc < 0) {
        verify_usage(stdout);
        return 0;
    }
    if (prc)
        return prc;
    const char *file = va.file, *solfile = va.solfile;
    level_sel sel = va.sel;
    const verify_flags vf = va.f;
    const int audit = vf.audit;

    collection c;
    if (collection_load(&c, file) != 0) {
        fprintf(stderr, "%s\n", c.error);
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    if (cli_check_level_sel(&sel, &c, "verify") != 0) {
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    int rc = 0;
    vlist items = {0};
    if (solfile) {
        rc = sol_read(&items, &c, &sel, solfile);
        if (rc && items.n == 0) {
            free(items.v);
            collection_free(&c);
            return rc;
        }
    } else {
        for (int k = 0; k < c.nlevels; k++)
            sol_add_sections(&items, &c.levels[k], &c.levels[k], c.name);
    }

    /* A malformed level is bad input even when no solution refers to it. */
    int nbadlevel = 0;
    verify_tally vt;
    memset(&vt, 0, sizeof vt);
    for (int k = 0; k < c.nlevels; k++) {
        if (c.levels[k].error && cli_selected(&sel, c.levels[k].index)) {
            fprintf(stderr, "%s\n", c.levels[k].error);
            nbadlevel++;
        }
    }
    int *has_solution = xcalloc((size_t)c.nlevels + 1, sizeof(int));
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    for (int i = 0; i < items.n; i++) {
        const vitem *it = &items.v[i];
        if (!cli_selected(&sel, it->lv->index))
            continue;
        sb_clear(&out);
        sb_clear(&err);
        verify_outcome vo;
        verify_item(it, &vf, &out, &err, &vo);
        if (out.len)
            fwrite(out.s, 1, out.len, stdout);
        if (err.len)
            fwrite(err.s, 1, err.len, stderr);
        verify_count(&vt, it, &vo, has_solution);
    }
    verify_summary(stderr, &vt, &c, &sel, has_solution, audit);
    sb_free(&out);
    sb_free(&err);
    free(has_solution);
    sol_list_free(&items);
    collection_free(&c);
    if (rc || nbadlevel)
        return EXIT_BAD_INPUT;
    return verify_status(&vt, solfile ? solfile : file);
}
