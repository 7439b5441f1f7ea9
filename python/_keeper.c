/* _keeper.c: the C extension under the Python package keeper (whose modules
 * in keeper/ are the face users see). It wraps the public API (include/keeper.h):
 *
 *   parse(name, text) -> Collection      (KeeperError: "NAME:LINE: error: ...")
 *   Collection.count(), .title(i), .error(i)
 *   verify(coll, index, lurd) -> (True, metrics) | (False, reason)
 *   options_check(options)                (ValueError with keeper's message)
 *   option_names() -> str
 *   solve_job(coll, indices, options, progress_every) -> Job
 *   optimize_job(coll, index, lurd, metric, seconds, options) -> Job
 *
 * A Job runs its keeper call on a thread of its own, so that the Python
 * thread that waits on it (Job.next, Job.wait, with a timeout, the GIL
 * released) gets back to Python often enough to see Ctrl-C: the Python
 * layer then calls Job.interrupt() (keeper_interrupt: the searches stop at
 * their next check) and Job.wait(), and raises KeyboardInterrupt once the
 * search has stopped. Results and progress reports are copied into the Job
 * under its mutex by keeper's threads and turned into Python objects only
 * on the Python thread. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "keeper.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static PyObject *KeeperError;

/* ------------------------------------------------------------ Collection */

typedef struct {
    PyObject_HEAD
    keeper_collection *c;
} CollectionObject;

static void collection_dealloc(CollectionObject *self)
{
    keeper_free(self->c);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int index_ok(CollectionObject *self, int i)
{
    if (i < 1 || i > keeper_level_count(self->c)) {
        PyErr_Format(PyExc_IndexError, "no level %d (the collection has %d)", i,
                     keeper_level_count(self->c));
        return 0;
    }
    return 1;
}

static PyObject *collection_count(CollectionObject *self, PyObject *unused)
{
    return PyLong_FromLong(keeper_level_count(self->c));
}

static PyObject *collection_title(CollectionObject *self, PyObject *arg)
{
    int i = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred() || !index_ok(self, i))
        return NULL;
    return PyUnicode_FromString(keeper_level_title(self->c, i));
}

static PyObject *collection_error(CollectionObject *self, PyObject *arg)
{
    int i = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred() || !index_ok(self, i))
        return NULL;
    const char *e = keeper_level_error(self->c, i);
    if (!e)
        Py_RETURN_NONE;
    return PyUnicode_FromString(e);
}

static PyMethodDef collection_methods[] = {
    {"count", (PyCFunction)collection_count, METH_NOARGS, "number of levels"},
    {"title", (PyCFunction)collection_title, METH_O, "title of level i (1-based)"},
    {"error", (PyCFunction)collection_error, METH_O,
     "None for a valid level i, else its FILE:LINE: error message"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CollectionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "keeper._keeper.Collection",
    .tp_basicsize = sizeof(CollectionObject),
    .tp_dealloc = (destructor)collection_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "levels parsed by keeper (see keeper.Level)",
    .tp_methods = collection_methods,
};

static PyObject *py_parse(PyObject *mod, PyObject *args)
{
    const char *name, *text;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "ss#", &name, &text, &n))
        return NULL;
    char *err = NULL;
    keeper_collection *c;
    Py_BEGIN_ALLOW_THREADS
    c = keeper_parse(name, text, (unsigned long)n, &err);
    Py_END_ALLOW_THREADS
    if (!c) {
        PyErr_SetString(KeeperError, err ? err : "cannot parse");
        free(err);
        return NULL;
    }
    CollectionObject *o = PyObject_New(CollectionObject, &CollectionType);
    if (!o) {
        keeper_free(c);
        return NULL;
    }
    o->c = c;
    return (PyObject *)o;
}

/* ------------------------------------------------------------ results */

static PyObject *metrics_dict(const keeper_metrics *m)
{
    return Py_BuildValue("{s:l,s:l,s:l,s:l,s:l,s:l}", "moves", m->moves, "pushes", m->pushes,
                         "box_lines", m->box_lines, "box_changes", m->box_changes,
                         "pushing_sessions", m->pushing_sessions, "player_lines",
                         m->player_lines);
}

static const char *status_name(keeper_status s)
{
    return s == KEEPER_SOLVED ? "solved" : s == KEEPER_INVALID ? "invalid" : "unsolved";
}

static PyObject *result_dict(const keeper_result *r)
{
    PyObject *m = metrics_dict(&r->metrics), *f = metrics_dict(&r->found);
    PyObject *d = NULL;
    if (m && f)
        d = Py_BuildValue("{s:s,s:s,s:O,s:d,s:K,s:K,s:N,s:N,s:s,s:l,s:z}", "status",
                          status_name(r->status), "reason", r->reason, "optimal",
                          r->optimal ? Py_True : Py_False, "seconds", r->seconds, "nodes",
                          r->nodes, "expanded", r->expanded, "metrics", m, "found", f,
                          "strategy", r->strategy ? r->strategy : "", "lower_bound",
                          r->lower_bound, "lurd", r->solution);
    if (!d) {
        Py_XDECREF(m);
        Py_XDECREF(f);
    }
    return d;
}

static PyObject *py_verify(PyObject *mod, PyObject *args)
{
    CollectionObject *c;
    int index;
    const char *lurd;
    if (!PyArg_ParseTuple(args, "O!is", &CollectionType, &c, &index, &lurd))
        return NULL;
    keeper_metrics m;
    memset(&m, 0, sizeof m);
    char why[512] = "";
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = keeper_verify(c->c, index, lurd, &m, why, sizeof why);
    Py_END_ALLOW_THREADS
    if (ok)
        return Py_BuildValue("(ON)", Py_True, metrics_dict(&m));
    return Py_BuildValue("(Os)", Py_False, why);
}

static PyObject *py_seed(PyObject *mod, PyObject *args)
{
    CollectionObject *c;
    int index;
    const char *lurd;
    if (!PyArg_ParseTuple(args, "O!is", &CollectionType, &c, &index, &lurd))
        return NULL;
    char why[512] = "";
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = keeper_seed(c->c, index, lurd, why, sizeof why);
    Py_END_ALLOW_THREADS
    if (rc == 0)
        return Py_BuildValue("(OO)", Py_True, Py_None);
    return Py_BuildValue("(Os)", Py_False, why);
}

/* ------------------------------------------------------------ options */

/* keeper options from a sequence of (name, value) string pairs, or NULL
 * with ValueError set (keeper's message). */
static keeper_options *make_options(PyObject *seq)
{
    keeper_options *o = keeper_options_new();
    PyObject *fast = PySequence_Fast(seq, "options must be a sequence of (name, value) pairs");
    if (!fast) {
        keeper_options_free(o);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *name, *value;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ss", &name, &value)) {
            Py_DECREF(fast);
            keeper_options_free(o);
            return NULL;
        }
        if (keeper_options_set(o, name, value) != 0) {
            PyErr_SetString(PyExc_ValueError, keeper_options_error(o));
            Py_DECREF(fast);
            keeper_options_free(o);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return o;
}

static PyObject *py_options_check(PyObject *mod, PyObject *seq)
{
    keeper_options *o = make_options(seq);
    if (!o)
        return NULL;
    keeper_options_free(o);
    Py_RETURN_NONE;
}

static PyObject *py_option_names(PyObject *mod, PyObject *unused)
{
    return PyUnicode_FromString(keeper_option_names());
}

/* ------------------------------------------------------------ jobs */

enum { JOB_SOLVE, JOB_OPTIMIZE };

typedef struct {
    PyObject_HEAD
    int kind;
    PyObject *coll;        /* the CollectionObject, kept alive */
    keeper_collection *c;
    keeper_options *o;
    int *indices;          /* JOB_SOLVE: n levels (1-based) */
    int n;
    /* JOB_OPTIMIZE */
    int index;
    char *lurd, *metric, *out;
    double seconds;
    keeper_metrics m;
    int rc;
    char why[512];
    /* the thread and what it hands over (mu) */
    pthread_t thread;
    int running;           /* the thread was started and not joined */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int finished;
    keeper_result *res;    /* JOB_SOLVE: [n] results, ready[k] when in */
    char *ready;
    int taken;             /* results handed to Python */
    keeper_progress last;  /* the latest progress report */
    char last_status[200];
    int have_progress;
} JobObject;

static void job_done(void *arg, int i, keeper_result *r)
{
    JobObject *j = arg;
    pthread_mutex_lock(&j->mu);
    j->res[i] = *r;
    r->solution = NULL; /* the job owns it now */
    j->ready[i] = 1;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

static int job_progress(void *arg, const keeper_progress *p)
{
    JobObject *j = arg;
    pthread_mutex_lock(&j->mu);
    j->last = *p;
    snprintf(j->last_status, sizeof j->last_status, "%s", p->status ? p->status : "");
    j->last.status = j->last_status;
    j->have_progress = 1;
    pthread_mutex_unlock(&j->mu);
    return 0;
}

static void *job_thread(void *arg)
{
    JobObject *j = arg;
    if (j->kind == JOB_SOLVE)
        keeper_solve_many(j->c, j->indices, j->n, j->o, job_done, j);
    else
        j->rc = keeper_optimize(j->c, j->index, j->lurd, j->metric, j->seconds, j->o, &j->out,
                                &j->m, j->why, sizeof j->why);
    pthread_mutex_lock(&j->mu);
    j->finished = 1;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* Waits (GIL released) until cond holds or `timeout` seconds pass (< 0:
 * no timeout). Returns cond's value. */
static int job_wait_until(JobObject *j, int (*cond)(JobObject *), double timeout)
{
    int ok;
    Py_BEGIN_ALLOW_THREADS
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    if (timeout >= 0) {
        long long ns = (long long)until.tv_nsec + (long long)(timeout * 1e9);
        until.tv_sec += (time_t)(ns / 1000000000);
        until.tv_nsec = (long)(ns % 1000000000);
    }
    pthread_mutex_lock(&j->mu);
    while (!(ok = cond(j))) {
        if (timeout < 0)
            pthread_cond_wait(&j->cv, &j->mu);
        else if (pthread_cond_timedwait(&j->cv, &j->mu, &until) == ETIMEDOUT)
            break;
    }
    ok = cond(j);
    pthread_mutex_unlock(&j->mu);
    Py_END_ALLOW_THREADS
    return ok;
}

static int cond_finished(JobObject *j)
{
    return j->finished;
}

static int cond_next(JobObject *j)
{
    return j->taken >= j->n || j->ready[j->taken];
}

static void job_join(JobObject *j)
{
    if (!j->running)
        return;
    Py_BEGIN_ALLOW_THREADS
    pthread_join(j->thread, NULL);
    Py_END_ALLOW_THREADS
    j->running = 0;
}

static void job_dealloc(JobObject *j)
{
    if (j->running) { /* dropped while running: stop it and wait */
        keeper_interrupt(j->o);
        job_join(j);
    }
    for (int k = 0; j->res && k < j->n; k++)
        keeper_result_free(&j->res[k]);
    free(j->res);
    free(j->ready);
    free(j->indices);
    free(j->lurd);
    free(j->metric);
    free(j->out);
    keeper_options_free(j->o);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    Py_XDECREF(j->coll);
    Py_TYPE(j)->tp_free((PyObject *)j);
}

static PyObject *job_next(JobObject *j, PyObject *args)
{
    double timeout = -1;
    if (!PyArg_ParseTuple(args, "|d", &timeout))
        return NULL;
    if (j->kind != JOB_SOLVE || j->taken >= j->n)
        Py_RETURN_NONE;
    if (!job_wait_until(j, cond_next, timeout))
        Py_RETURN_NONE;
    pthread_mutex_lock(&j->mu);
    keeper_result r = j->res[j->taken];
    pthread_mutex_unlock(&j->mu);
    PyObject *d = result_dict(&r);
    if (d) {
        PyObject *i = PyLong_FromLong(j->taken);
        if (!i || PyDict_SetItemString(d, "i", i) != 0) {
            Py_XDECREF(i);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(i);
        j->taken++;
    }
    return d;
}

static PyObject *job_remaining(JobObject *j, PyObject *unused)
{
    return PyLong_FromLong(j->kind == JOB_SOLVE ? j->n - j->taken : !j->finished);
}

static PyObject *job_progress_get(JobObject *j, PyObject *unused)
{
    pthread_mutex_lock(&j->mu);
    int have = j->have_progress;
    keeper_progress p = j->last;
    char status[200];
    snprintf(status, sizeof status, "%s", j->last_status);
    j->have_progress = 0;
    pthread_mutex_unlock(&j->mu);
    if (!have)
        Py_RETURN_NONE;
    return Py_BuildValue("{s:i,s:d,s:K,s:K,s:l,s:s}", "level", p.level, "seconds", p.seconds,
                         "nodes", p.nodes, "memory", p.memory, "lower_bound", p.lower_bound,
                         "status", status);
}

static PyObject *job_interrupt(JobObject *j, PyObject *unused)
{
    keeper_interrupt(j->o);
    Py_RETURN_NONE;
}

static PyObject *job_wait(JobObject *j, PyObject *args)
{
    double timeout = -1;
    if (!PyArg_ParseTuple(args, "|d", &timeout))
        return NULL;
    int done = job_wait_until(j, cond_finished, timeout);
    if (done)
        job_join(j);
    return PyBool_FromLong(done);
}

static PyObject *job_optimized(JobObject *j, PyObject *unused)
{
    if (j->kind != JOB_OPTIMIZE || !j->finished) {
        PyErr_SetString(PyExc_RuntimeError, "the optimization has not finished");
        return NULL;
    }
    if (j->rc != 0)
        return Py_BuildValue("(Os)", Py_False, j->why);
    return Py_BuildValue("(OsN)", Py_True, j->out, metrics_dict(&j->m));
}

static PyMethodDef job_methods[] = {
    {"next", (PyCFunction)job_next, METH_VARARGS,
     "next([timeout]): the next level's result in order, or None (timeout, or none left)"},
    {"remaining", (PyCFunction)job_remaining, METH_NOARGS, "results not yet taken"},
    {"progress", (PyCFunction)job_progress_get, METH_NOARGS,
     "the latest progress report since the last call, or None"},
    {"interrupt", (PyCFunction)job_interrupt, METH_NOARGS, "stop the searches"},
    {"wait", (PyCFunction)job_wait, METH_VARARGS,
     "wait([timeout]): True once the job's thread has ended"},
    {"optimized", (PyCFunction)job_optimized, METH_NOARGS,
     "an ended optimize job: (True, lurd, metrics) or (False, reason)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject JobType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "keeper._keeper.Job",
    .tp_basicsize = sizeof(JobObject),
    .tp_dealloc = (destructor)job_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a keeper call running on a thread of its own",
    .tp_methods = job_methods,
};

static JobObject *job_new(int kind, CollectionObject *c, PyObject *options)
{
    keeper_options *o = make_options(options);
    if (!o)
        return NULL;
    JobObject *j = PyObject_New(JobObject, &JobType);
    if (!j) {
        keeper_options_free(o);
        return NULL;
    }
    /* every field after the header starts zeroed */
    memset((char *)j + sizeof(PyObject), 0, sizeof *j - sizeof(PyObject));
    j->kind = kind;
    j->o = o;
    Py_INCREF(c);
    j->coll = (PyObject *)c;
    j->c = c->c;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    return j;
}

static PyObject *job_start(JobObject *j)
{
    if (pthread_create(&j->thread, NULL, job_thread, j) != 0) {
        Py_DECREF(j);
        PyErr_SetString(PyExc_RuntimeError, "cannot start a thread");
        return NULL;
    }
    j->running = 1;
    return (PyObject *)j;
}

static PyObject *py_solve_job(PyObject *mod, PyObject *args)
{
    CollectionObject *c;
    PyObject *indices, *options;
    double every = 0;
    if (!PyArg_ParseTuple(args, "O!OO|d", &CollectionType, &c, &indices, &options, &every))
        return NULL;
    PyObject *fast = PySequence_Fast(indices, "indices must be a sequence of level numbers");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    JobObject *j = job_new(JOB_SOLVE, c, options);
    if (!j) {
        Py_DECREF(fast);
        return NULL;
    }
    j->n = (int)n;
    j->indices = calloc((size_t)n + 1, sizeof(int));
    j->res = calloc((size_t)n + 1, sizeof(keeper_result));
    j->ready = calloc((size_t)n + 1, 1);
    if (!j->indices || !j->res || !j->ready) {
        Py_DECREF(fast);
        Py_DECREF(j);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        j->indices[k] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            Py_DECREF(j);
            return NULL;
        }
    }
    Py_DECREF(fast);
    if (every > 0)
        keeper_options_set_progress(j->o, job_progress, j, every);
    if (n == 0) { /* nothing to run */
        j->finished = 1;
        return (PyObject *)j;
    }
    return job_start(j);
}

static PyObject *py_optimize_job(PyObject *mod, PyObject *args)
{
    CollectionObject *c;
    int index;
    const char *lurd, *metric;
    double seconds;
    PyObject *options;
    if (!PyArg_ParseTuple(args, "O!issdO", &CollectionType, &c, &index, &lurd, &metric, &seconds,
                          &options))
        return NULL;
    JobObject *j = job_new(JOB_OPTIMIZE, c, options);
    if (!j)
        return NULL;
    j->index = index;
    j->seconds = seconds;
    j->lurd = strdup(lurd);
    j->metric = strdup(metric);
    if (!j->lurd || !j->metric) {
        Py_DECREF(j);
        return PyErr_NoMemory();
    }
    return job_start(j);
}

/* ------------------------------------------------------------ module */

static PyMethodDef module_methods[] = {
    {"parse", py_parse, METH_VARARGS, "parse(name, text) -> Collection"},
    {"verify", py_verify, METH_VARARGS,
     "verify(coll, index, lurd) -> (True, metrics) or (False, reason)"},
    {"seed", py_seed, METH_VARARGS,
     "seed(coll, index, lurd) -> (True, None) or (False, reason)"},
    {"options_check", py_options_check, METH_O, "raise ValueError for a bad option"},
    {"option_names", py_option_names, METH_NOARGS, "the option names, comma-separated"},
    {"solve_job", py_solve_job, METH_VARARGS,
     "solve_job(coll, indices, options, progress_every) -> Job"},
    {"optimize_job", py_optimize_job, METH_VARARGS,
     "optimize_job(coll, index, lurd, metric, seconds, options) -> Job"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "keeper._keeper", "keeper's C core (see the keeper package)", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__keeper(void)
{
    if (PyType_Ready(&CollectionType) < 0 || PyType_Ready(&JobType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    KeeperError = PyErr_NewExceptionWithDoc(
        "keeper.KeeperError", "bad input: the message says FILE:LINE: what is wrong",
        PyExc_ValueError, NULL);
    if (!KeeperError || PyModule_AddObject(m, "KeeperError", KeeperError) != 0 ||
        PyModule_AddStringConstant(m, "VERSION", KEEPER_VERSION) != 0) {
        Py_XDECREF(KeeperError);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
