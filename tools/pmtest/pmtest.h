/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmtest: what the files of the replug test tool share.
 *
 * The pure parts (strv, norm, invdiff, events, report, args, suite, trace,
 * render) do no I/O but on the streams they are handed, so the unit tests
 * link them alone.
 */
#ifndef PMTEST_H
#define PMTEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <regex.h>

#define PM_ATTR_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Where a command writes, and the name its messages carry. */
struct pmtest_ctx {
	FILE *out;
	FILE *err;
	const char *command;
};

/* "pmtest: COMMAND: message" on ctx->err; %m works as errno was. */
void pm_err(const struct pmtest_ctx *ctx, const char *fmt, ...) PM_ATTR_PRINTF(2, 3);

/* strv.c: a growable array of owned strings. */
struct strv {
	char **v;
	size_t n;
	size_t cap;
};

int strv_push(struct strv *sv, char *s);
int strv_pushv(struct strv *sv, const char *fmt, va_list ap) PM_ATTR_PRINTF(2, 0);
int strv_pushf(struct strv *sv, const char *fmt, ...) PM_ATTR_PRINTF(2, 3);
void strv_sort(struct strv *sv);
bool strv_has_sorted(const struct strv *sv, const char *s);
bool strv_equal(const struct strv *a, const struct strv *b);
int strv_read_lines(struct strv *sv, FILE *f);
void strv_free(struct strv *sv);

/* norm.c: instance numbers a re-enumeration hands out afresh, as N. */
struct pm_norm {
	regex_t re[3];
};

int pm_norm_init(struct pm_norm *norm);
char *pm_norm_apply(const struct pm_norm *norm, const char *s);
void pm_norm_free(struct pm_norm *norm);

/* invdiff.c: two sorted inventories into "- line" and "+ line". */
int pm_invdiff(const struct strv *old, const struct strv *new, struct strv *out);
int pm_inventory_changes(const struct strv *old, const struct strv *expected,
			 struct strv *gone, struct strv *came);

/* events.c: the uevents one cycle saw, and what must hold of them. */
struct pm_event {
	const char *action;
	const char *devpath;
	const char *replug;	/* the values of PM_REPLUG, PM_TRANSITION, */
	const char *transition;	/* PM_CYCLE and PM_TEST, NULL when unset */
	const char *cycle;
	const char *test;
	const char *identity;	/* PM_REPLUG_IDENTITY, NULL when unset */
	/*
	 * A device on a bus (its subsystem is in /sys/bus) comes back by its
	 * bus identity; a class device (block, net, ata_link) is renamed at
	 * will by the kernel that re-enumerates it.
	 */
	bool on_bus;
};

struct pm_events {
	struct pm_event *v;
	size_t n;
	size_t cap;
};

int pm_events_add(struct pm_events *evs, const struct pm_event *ev);
void pm_events_free(struct pm_events *evs);
size_t pm_events_replug_count(const struct pm_events *evs);
int pm_events_check_pairs(const struct pm_events *evs, const struct pm_norm *norm,
			  const struct strv *gone, struct strv *diag);
int pm_events_check_keys(const struct pm_events *evs, const char *transition,
			 const char *cycle, struct strv *diag);
int pm_events_check_test(const struct pm_events *evs, const char *test,
			 struct strv *diag);
int pm_events_check_identity(const struct pm_events *evs, const struct pm_norm *norm,
			     const struct strv *came, struct strv *diag);
int pm_events_tally_identity(const struct pm_events *evs, struct strv *diag);

/* report.c: results as KTAP, text or JSON, diagnostics before each. */
enum pm_format {
	PM_FORMAT_KTAP,
	PM_FORMAT_TEXT,
	PM_FORMAT_JSON,
};

struct pm_report {
	FILE *out;
	enum pm_format format;
	unsigned int number;
	unsigned int passed;
	unsigned int failed;
	struct strv diag;
};

void pm_report_begin(struct pm_report *r, FILE *out, enum pm_format format,
		     unsigned int planned);
int pm_report_diag(struct pm_report *r, const char *fmt, ...) PM_ATTR_PRINTF(2, 3);
void pm_report_result(struct pm_report *r, bool ok, const char *fmt, ...)
	PM_ATTR_PRINTF(3, 4);
int pm_report_end(struct pm_report *r);

/* args.c: every command's arguments; no exit(), for the unit tests. */
enum pm_parse {
	PM_PARSE_RUN = -1,	/* go on with the command */
	PM_PARSE_HELP = 0,	/* --help was shown: exit 0 */
	PM_PARSE_USAGE = 2,	/* a usage line was shown: exit 2 */
};

struct inventory_args {
	const char *output;
};

struct diff_args {
	const char *old;
	const char *new;
};

struct cycle_args {
	const char *state;
	const char *test;
	const char *mode;
	const char *intent;
	const char *expect;	/* the inventory to end with, or NULL: as before */
	unsigned int count;
	unsigned int settle_timeout;
	unsigned int wake_after;	/* seconds to the RTC alarm, 0: none */
	enum pm_format format;
};

struct fault_args {
	bool list;
	unsigned int id;
	const char *phase;
	const char *action;
	const char *module;
	enum pm_format format;
};

struct change_args {
	const char *change;	/* vanish, appear or swap */
	unsigned int id;
	bool root;		/* appear under the tree's root */
	const char *module;
	enum pm_format format;
};

struct tree_args {
	char **words;
	int nwords;
	unsigned int count;
	unsigned int timeout;
	const char *module;
	enum pm_format format;
};

#define PM_BENCH_MAX_MODES	2
#define PM_BENCH_MAX_ROUNDS	1000

struct bench_args {
	const char *modes[PM_BENCH_MAX_MODES];
	size_t nmodes;
	const char *state;
	const char *test;
	const char *label;
	unsigned int rounds;
	unsigned int settle_timeout;
	enum pm_format format;	/* text or json */
	char modes_buf[32];
};

#define PM_FUZZ_MIN_LEN		64	/* longer than any keyword */
#define PM_FUZZ_MAX_SHOWN	5	/* failures shown per knob before giving up */

struct fuzz_args {
	const char **knobs;
	size_t nknobs;
	const char **watch;
	size_t nwatch;
	unsigned int count;
	unsigned int seed;
	unsigned int max_len;
	enum pm_format format;
};

struct kunit_args {
	const char **modules;
	size_t nmodules;
};

/* What the report command draws: render.c's three views of a cycle. */
enum pm_view {
	PM_VIEW_TEXT,
	PM_VIEW_JSON,
	PM_VIEW_SVG,
};

struct report_args {
	const char *trace;
	const char *output;
	unsigned int cycle;	/* 0: the last cycle of the trace */
	enum pm_view view;
};

int inventory_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		    struct inventory_args *a);
int diff_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
	       struct diff_args *a);
int cycle_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		struct cycle_args *a);
int fault_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		struct fault_args *a);
int change_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		 struct change_args *a);
int tree_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
	       struct tree_args *a);
int fuzz_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
	       struct fuzz_args *a);
int kunit_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		struct kunit_args *a);
int bench_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		struct bench_args *a);
int report_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		 struct report_args *a);
void pm_usage_all(FILE *f);

/* suite.c: a KUnit debugfs results file as subtest @number of ours. */
struct pm_kunit_count {
	unsigned int passed;	/* test cases: "    ok" and "    not ok" lines */
	unsigned int failed;
	bool suite_failed;
};

void pm_kunit_suite(FILE *out, const char *name, const struct strv *lines,
		    unsigned int number, struct pm_kunit_count *count);

/* trace.c: an ftrace text trace of replug's and the PM core's events. */
enum pm_trace_kind {
	PM_TRACE_REPLUG,	/* replug_device */
	PM_TRACE_CB_START,	/* device_pm_callback_start */
	PM_TRACE_CB_END,	/* device_pm_callback_end */
};

/* The strings point into buf, which the event owns. */
struct pm_trace_event {
	enum pm_trace_kind kind;
	double ts;			/* seconds, as the trace gives them */
	const char *driver;
	const char *device;
	const char *action;		/* replug: unplug, remove, replug or keep */
	const char *transition;		/* replug */
	unsigned long long cycle;	/* replug */
	const char *parent;		/* start */
	const char *info;		/* start: "replug remove", "suspend", ... */
	const char *event;		/* start: the PM event, "suspend" */
	int err;			/* end */
	char *buf;
};

struct pm_trace {
	struct pm_trace_event *v;
	size_t n;
	size_t cap;
	size_t skipped;		/* lines of these three events that did not parse */
};

int pm_trace_parse_line(const char *line, struct pm_trace_event *ev);
int pm_trace_add_line(struct pm_trace *tr, const char *line);
int pm_trace_read(struct pm_trace *tr, FILE *f);
void pm_trace_free(struct pm_trace *tr);

/* What became of a device in a cycle, from the least to the most telling. */
enum pm_result {
	PM_RESULT_NONE,		/* only its callbacks were seen */
	PM_RESULT_UNPLUGGED,
	PM_RESULT_REFUSED,
	PM_RESULT_REPLUGGED,
	PM_RESULT_KEPT,
	PM_RESULT_REMOVED,
};

const char *pm_result_name(enum pm_result result);

/* One callback, start to end; times in ms from the cycle's first event. */
struct pm_phase {
	const char *name;	/* its INFO: "replug remove", or a classic one */
	double start_ms;
	double end_ms;
	int err;
	bool classic;
};

/* Times are NAN when not seen; the strings are the trace's. */
struct pm_dev_report {
	const char *device;
	const char *driver;
	const char *transition;
	unsigned int order;	/* in the walk, from 1; 0 when never unplugged */
	enum pm_result result;
	double unplug_ms;
	double remove_ms;	/* how long its "replug remove" callback took */
	double back_ms;
	int error;		/* of the first callback that failed, or 0 */
	struct pm_phase *phases;
	size_t nphases;
};

/* Valid as long as the trace it was built from. */
struct pm_cycle {
	unsigned long long cycle;
	const char *transition;
	double span_ms;
	struct pm_dev_report *devs;	/* in walk order, the rest by name */
	size_t ndevs;
	size_t removed;
	size_t kept;
	size_t unmatched;	/* callback starts in the span without an end */
};

int pm_cycle_build(const struct pm_trace *tr, unsigned long long cycle,
		   struct pm_cycle *c);
void pm_cycle_free(struct pm_cycle *c);

/* render.c: a cycle as a table, JSON or an SVG timeline. */
#define PM_SVG_MAX_ROWS 500

int pm_render_text(FILE *out, const struct pm_cycle *c);
int pm_render_json(FILE *out, const struct pm_cycle *c);
int pm_render_svg(FILE *out, const struct pm_cycle *c);
int pm_render(FILE *out, const struct pm_cycle *c, enum pm_view view);

/* sysfs.c: small files under /sys and debugfs. */
int sysfs_read(const char *path, char *buf, size_t size);
int sysfs_write(const char *path, const char *value);
int sysfs_read_choice(const char *path, char *buf, size_t size);
bool pm_is_root(const struct pmtest_ctx *ctx);

/* benchstat.c: the bench command's arithmetic. */
#define PM_TREE_DRIVER	"replug_test"	/* the test bus's driver and root */
struct pm_bench_marks {
	double first;	/* the first device phase on the way down begins */
	double down;	/* the last one ends */
	double up;	/* the first device phase on the way up begins */
	double last;	/* the last one ends, or the last replugged device binds */
	/* The same for the test bus's devices alone, NAN without a tree. */
	double tree_first, tree_down, tree_up, tree_last;
};
int pm_bench_split(const struct strv *lines, struct pm_bench_marks *m);
double pm_median(double *v, size_t n);
double pm_ratio(double a, double b);

/* fuzzgen.c: the fuzz command's hostile inputs, from a seed. */
enum pm_fuzz_kind {
	PM_FUZZ_BINARY,
	PM_FUZZ_OVERLONG,
	PM_FUZZ_NEGATIVE,
	PM_FUZZ_OVERFLOW,
	PM_FUZZ_NEAR_MISS,
	PM_FUZZ_NR_KINDS
};

struct pm_fuzz_gen {
	uint64_t state;
	size_t max_len;
	unsigned long made;
};

void pm_fuzz_init(struct pm_fuzz_gen *g, uint64_t seed, size_t max_len);
size_t pm_fuzz_next(struct pm_fuzz_gen *g, char *buf, enum pm_fuzz_kind *kind);
const char *pm_fuzz_kind_name(enum pm_fuzz_kind kind);
void pm_fuzz_escape(const char *buf, size_t len, char *out, size_t room);

/* module.c: loading a module by name or from a path with libkmod. */
int pm_module_load(const struct pmtest_ctx *ctx, const char *name, bool is_path);

/* inventory.c: every device on a bus, by bus identity, sorted. */
int pm_inventory_take(const struct pmtest_ctx *ctx, const struct pm_norm *norm,
		      struct strv *out);
int pm_inventory_read(const struct pmtest_ctx *ctx, const char *path, struct strv *out);

int cmd_inventory(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_diff(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_cycle(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_fault(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_change(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_tree(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_kunit(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_report(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_bench(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_fuzz(struct pmtest_ctx *ctx, int argc, char **argv);

#endif
