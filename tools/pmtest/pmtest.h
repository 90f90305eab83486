/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmtest: what the files of the replug test tool share.
 *
 * The pure parts (strv, norm, invdiff, events, report, args, suite) do no I/O
 * but on the streams they are handed, so the unit tests link them alone.
 */
#ifndef PMTEST_H
#define PMTEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
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

/* events.c: the uevents one cycle saw, and what must hold of them. */
struct pm_event {
	const char *action;
	const char *devpath;
	const char *replug;	/* the values of PM_REPLUG, PM_TRANSITION, */
	const char *transition;	/* PM_CYCLE and PM_TEST, NULL when unset */
	const char *cycle;
	const char *test;
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
			  struct strv *diag);
int pm_events_check_keys(const struct pm_events *evs, const char *transition,
			 const char *cycle, struct strv *diag);
int pm_events_check_test(const struct pm_events *evs, const char *test,
			 struct strv *diag);

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
	unsigned int count;
	unsigned int settle_timeout;
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

struct tree_args {
	char **words;
	int nwords;
	unsigned int count;
	unsigned int timeout;
	const char *module;
	enum pm_format format;
};

struct kunit_args {
	const char **modules;
	size_t nmodules;
};

int inventory_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		    struct inventory_args *a);
int diff_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
	       struct diff_args *a);
int cycle_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		struct cycle_args *a);
int fault_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		struct fault_args *a);
int tree_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
	       struct tree_args *a);
int kunit_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		struct kunit_args *a);
void pm_usage_all(FILE *f);

/* suite.c: a KUnit debugfs results file as subtest @number of ours. */
struct pm_kunit_count {
	unsigned int passed;	/* test cases: "    ok" and "    not ok" lines */
	unsigned int failed;
	bool suite_failed;
};

void pm_kunit_suite(FILE *out, const char *name, const struct strv *lines,
		    unsigned int number, struct pm_kunit_count *count);

/* sysfs.c: small files under /sys and debugfs. */
int sysfs_read(const char *path, char *buf, size_t size);
int sysfs_write(const char *path, const char *value);
int sysfs_read_choice(const char *path, char *buf, size_t size);
bool pm_is_root(const struct pmtest_ctx *ctx);

/* module.c: loading a module by name or from a path with libkmod. */
int pm_module_load(const struct pmtest_ctx *ctx, const char *name, bool is_path);

/* inventory.c: every device on a bus, by bus identity, sorted. */
int pm_inventory_take(const struct pmtest_ctx *ctx, const struct pm_norm *norm,
		      struct strv *out);

int cmd_inventory(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_diff(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_cycle(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_fault(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_tree(struct pmtest_ctx *ctx, int argc, char **argv);
int cmd_kunit(struct pmtest_ctx *ctx, int argc, char **argv);

#endif
