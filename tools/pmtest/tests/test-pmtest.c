// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pmtest's pure parts: host only, no root, no devices.
 * Each case is a KTAP line; the plan is known once all have run, so the
 * cases print to a buffer and the document is put together at the end.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

struct t {
	FILE *out;
	unsigned int n;
	unsigned int failed;
};

static bool check(struct t *t, bool ok, const char *fmt, ...) PM_ATTR_PRINTF(3, 4);

static bool check(struct t *t, bool ok, const char *fmt, ...)
{
	va_list ap;

	fprintf(t->out, "%sok %u ", ok ? "" : "not ", ++t->n);
	va_start(ap, fmt);
	vfprintf(t->out, fmt, ap);
	va_end(ap);
	fputc('\n', t->out);
	t->failed += !ok;
	return ok;
}

static void test_norm(struct t *t)
{
	static const char *const cases[][2] = {
		{ "pci0000:00/0000:00:04.0/0000:01:00.0/net/eth0",
		  "pci0000:00/0000:00:04.0/0000:01:00.0/net/eth0" },
		{ "pci0000:00/0000:00:05.0/virtio3/block/vda",
		  "pci0000:00/0000:00:05.0/virtioN/block/vda" },
		{ "pci0000:00/0000:00:1f.2/ata1/host6/target6:0:0/6:0:0:0/block/sda",
		  "pci0000:00/0000:00:1f.2/ataN/hostN/targetN:0:0/N:0:0:0/block/sda" },
		{ "pci0000:00/0000:00:1d.0/usb2/2-1/2-1:1.0/0003:0627:0001.0002/input/input12",
		  "pci0000:00/0000:00:1d.0/usbN/2-1/2-1:1.0/0003:0627:0001.N/input/inputN" },
		{ "usb pci0000:00/0000:00:1d.0/usb1 usb:v1D6Bp0002d0612dc09dsc00dp01ic09",
		  "usb pci0000:00/0000:00:1d.0/usbN usb:v1D6Bp0002d0612dc09dsc00dp01ic09" },
		{ "platform/rtc_cmos/rtc/rtc0", "platform/rtc_cmos/rtc/rtcN" },
		{ "", "" },
	};
	struct pm_norm norm;
	size_t i;
	char *got;

	if (!check(t, !pm_norm_init(&norm), "norm: expressions compile"))
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = pm_norm_apply(&norm, cases[i][0]);
		if (got && strcmp(got, cases[i][1]))
			fprintf(t->out, "# got %s\n# want %s\n", got, cases[i][1]);
		check(t, got && !strcmp(got, cases[i][1]), "norm: '%s'", cases[i][0]);
		free(got);
	}
	pm_norm_free(&norm);
}

/* Lines split at '|' onto @dst; "" for none. */
static void split_lines(const char *src, struct strv *dst)
{
	char *copy = strdup(src), *word, *save;

	for (word = strtok_r(copy, "|", &save); word; word = strtok_r(NULL, "|", &save))
		strv_push(dst, strdup(word));
	free(copy);
}

/* @old and @new: lines split at '|', "" for none; @want likewise. */
static void diff_case(struct t *t, const char *name, const char *old, const char *new,
		      const char *want, int count)
{
	struct strv a = { 0 }, b = { 0 }, out = { 0 }, w = { 0 };
	const char *src[] = { old, new, want };
	struct strv *dst[] = { &a, &b, &w };
	size_t i;
	int ret;

	for (i = 0; i < 3; i++)
		split_lines(src[i], dst[i]);
	ret = pm_invdiff(&a, &b, &out);
	check(t, ret == count && strv_equal(&out, &w), "diff: %s", name);
	strv_free(&a);
	strv_free(&b);
	strv_free(&w);
	strv_free(&out);
}

/*
 * @old and @expected as diff_case() takes them, @want_gone and @want_came
 * the sorted DEVPATHs.
 */
static void changes_case(struct t *t, const char *name, const char *old,
			 const char *expected, const char *want_gone,
			 const char *want_came)
{
	struct strv a = { 0 }, b = { 0 }, wg = { 0 }, wc = { 0 };
	struct strv gone = { 0 }, came = { 0 };
	const char *src[] = { old, expected, want_gone, want_came };
	struct strv *dst[] = { &a, &b, &wg, &wc };
	size_t i;
	int ret;

	for (i = 0; i < 4; i++)
		split_lines(src[i], dst[i]);
	ret = pm_inventory_changes(&a, &b, &gone, &came);
	for (i = 0; i < gone.n; i++)
		fprintf(t->out, "# gone %s\n", gone.v[i]);
	for (i = 0; i < came.n; i++)
		fprintf(t->out, "# came %s\n", came.v[i]);
	check(t, !ret && strv_equal(&gone, &wg) && strv_equal(&came, &wc),
	      "changes: %s", name);
	strv_free(&a);
	strv_free(&b);
	strv_free(&wg);
	strv_free(&wc);
	strv_free(&gone);
	strv_free(&came);
}

static void test_diff(struct t *t)
{
	changes_case(t, "nothing changed", "pci a/b e1000e x|pci a/c - y",
		     "pci a/b e1000e x|pci a/c - y", "", "");
	changes_case(t, "a device vanished, one appeared",
		     "replug_test replug_test/rt0 replug_test replug_test:rt-0-0|"
		     "replug_test replug_test/rt0/rt5 replug_test replug_test:rt-5-0",
		     "replug_test replug_test/rt0 replug_test replug_test:rt-0-0|"
		     "replug_test replug_test/rt0/rt9 replug_test replug_test:rt-9-0",
		     "/devices/replug_test/rt0/rt5", "/devices/replug_test/rt0/rt9");
	changes_case(t, "a swap: the old identity is gone, the new came, at one path",
		     "replug_test replug_test/rt5 replug_test replug_test:rt-5-0",
		     "replug_test replug_test/rt5 replug_test replug_test:rt-5-1",
		     "/devices/replug_test/rt5", "/devices/replug_test/rt5");

	diff_case(t, "equal", "a|b|c", "a|b|c", "", 0);
	diff_case(t, "added", "a|c", "a|b|c", "+ b", 1);
	diff_case(t, "removed", "a|b|c", "a|c", "- b", 1);
	diff_case(t, "both", "a|b|d", "a|c|d|e", "- b|+ c|+ e", 3);
	diff_case(t, "empty", "", "", "", 0);
	diff_case(t, "all gone", "a|b", "", "- a|- b", 2);
	diff_case(t, "one of two twins gone", "a|a|b", "a|b", "- a", 1);
}

/* Run the parser of @cmd on @line; its stderr is kept in @err. */
static int parse(const char *cmd, const char *line, char *err, size_t size)
{
	char *copy = strdup(line), *argv[16] = { (char *)cmd }, *save, *word;
	union {
		struct inventory_args inventory;
		struct diff_args diff;
		struct cycle_args cycle;
		struct fault_args fault;
		struct tree_args tree;
		struct change_args change;
		struct bench_args bench;
		struct kunit_args kunit;
		struct report_args report;
		struct fuzz_args fuzz;
	} a;
	struct pmtest_ctx ctx = { .command = cmd, .out = fopen("/dev/null", "w"),
				  .err = fmemopen(err, size, "w") };
	int argc = 1, ret = -100;

	for (word = strtok_r(copy, " ", &save); word && argc < 15; word = strtok_r(NULL, " ", &save))
		argv[argc++] = word;
	if (!strcmp(cmd, "inventory"))
		ret = inventory_parse(&ctx, argc, argv, &a.inventory);
	else if (!strcmp(cmd, "diff"))
		ret = diff_parse(&ctx, argc, argv, &a.diff);
	else if (!strcmp(cmd, "cycle"))
		ret = cycle_parse(&ctx, argc, argv, &a.cycle);
	else if (!strcmp(cmd, "fault"))
		ret = fault_parse(&ctx, argc, argv, &a.fault);
	else if (!strcmp(cmd, "tree"))
		ret = tree_parse(&ctx, argc, argv, &a.tree);
	else if (!strcmp(cmd, "change"))
		ret = change_parse(&ctx, argc, argv, &a.change);
	else if (!strcmp(cmd, "bench"))
		ret = bench_parse(&ctx, argc, argv, &a.bench);
	else if (!strcmp(cmd, "kunit"))
		ret = kunit_parse(&ctx, argc, argv, &a.kunit);
	else if (!strcmp(cmd, "report"))
		ret = report_parse(&ctx, argc, argv, &a.report);
	else if (!strcmp(cmd, "fuzz"))
		ret = fuzz_parse(&ctx, argc, argv, &a.fuzz);
	if (ret == PM_PARSE_RUN && !strcmp(cmd, "kunit"))
		free(a.kunit.modules);
	if (ret == PM_PARSE_RUN && !strcmp(cmd, "fuzz")) {
		free(a.fuzz.knobs);
		free(a.fuzz.watch);
	}
	fclose(ctx.out);
	fclose(ctx.err);
	free(copy);
	return ret;
}

static void test_args(struct t *t)
{
	static const struct {
		const char *cmd;
		const char *line;
		int want;
	} cases[] = {
		{ "inventory", "", PM_PARSE_RUN },
		{ "inventory", "--output /tmp/inv", PM_PARSE_RUN },
		{ "inventory", "--help", PM_PARSE_HELP },
		{ "inventory", "extra", PM_PARSE_USAGE },
		{ "inventory", "--output", PM_PARSE_USAGE },
		{ "diff", "old new", PM_PARSE_RUN },
		{ "diff", "old", PM_PARSE_USAGE },
		{ "diff", "--bogus old new", PM_PARSE_USAGE },
		{ "cycle", "", PM_PARSE_RUN },
		{ "cycle", "--state freeze --test devices --count 100 --mode replug",
		  PM_PARSE_RUN },
		{ "cycle", "--intent kexec --settle-timeout 5 --format json", PM_PARSE_RUN },
		{ "cycle", "--mode classic --state mem", PM_PARSE_RUN },
		{ "cycle", "--help", PM_PARSE_HELP },
		{ "cycle", "--state standby", PM_PARSE_USAGE },
		{ "cycle", "--test bogus", PM_PARSE_USAGE },
		{ "cycle", "--count 0", PM_PARSE_USAGE },
		{ "cycle", "--count -1", PM_PARSE_USAGE },
		{ "cycle", "--count abc", PM_PARSE_USAGE },
		{ "cycle", "--count 99999999999", PM_PARSE_USAGE },
		{ "cycle", "--count", PM_PARSE_USAGE },
		{ "cycle", "--bogus", PM_PARSE_USAGE },
		{ "cycle", "extra", PM_PARSE_USAGE },
		{ "cycle", "--intent suspend", PM_PARSE_USAGE },
		{ "cycle", "--intent reboot --state mem", PM_PARSE_USAGE },
		{ "cycle", "--intent reboot --mode classic", PM_PARSE_USAGE },
		{ "cycle", "--format xml", PM_PARSE_USAGE },
		{ "cycle", "--state mem --wake-after 5 --expect /tmp/inv", PM_PARSE_RUN },
		{ "cycle", "--wake-after 0", PM_PARSE_USAGE },
		{ "cycle", "--wake-after 86401", PM_PARSE_USAGE },
		{ "cycle", "--wake-after 5s", PM_PARSE_USAGE },
		{ "cycle", "--intent kexec --wake-after 5", PM_PARSE_USAGE },
		{ "cycle", "--expect", PM_PARSE_USAGE },
		{ "bench", "", PM_PARSE_RUN },
		{ "bench", "--modes classic,replug --rounds 5 --state freeze --test none "
			   "--label wide-1000:latency=1ms --format json", PM_PARSE_RUN },
		{ "bench", "--modes replug --settle-timeout 600", PM_PARSE_RUN },
		{ "bench", "--help", PM_PARSE_HELP },
		{ "bench", "--modes replug,replug", PM_PARSE_USAGE },
		{ "bench", "--modes replug,classic,replug", PM_PARSE_USAGE },
		{ "bench", "--modes ,replug", PM_PARSE_USAGE },
		{ "bench", "--modes replug,", PM_PARSE_USAGE },
		{ "bench", "--modes dpm", PM_PARSE_USAGE },
		{ "bench", "--rounds 0", PM_PARSE_USAGE },
		{ "bench", "--rounds 1001", PM_PARSE_USAGE },
		{ "bench", "--state disk", PM_PARSE_USAGE },
		{ "bench", "--test freezer", PM_PARSE_USAGE },
		{ "bench", "--label a\"b", PM_PARSE_USAGE },
		{ "bench", "--label 0123456789012345678901234567890123456789012345678901234567890123456789",
		  PM_PARSE_USAGE },
		{ "bench", "--format ktap", PM_PARSE_USAGE },
		{ "bench", "extra", PM_PARSE_USAGE },
		{ "fuzz", "/sys/power/replug/mode", PM_PARSE_RUN },
		{ "fuzz", "a b --count 5000 --seed 0 --max-len 64 --watch w --watch v "
			  "--format json", PM_PARSE_RUN },
		{ "fuzz", "--help", PM_PARSE_HELP },
		{ "fuzz", "", PM_PARSE_USAGE },
		{ "fuzz", "--count 10", PM_PARSE_USAGE },
		{ "fuzz", "k --count 0", PM_PARSE_USAGE },
		{ "fuzz", "k --count 100001", PM_PARSE_USAGE },
		{ "fuzz", "k --seed -1", PM_PARSE_USAGE },
		{ "fuzz", "k --seed 4294967296", PM_PARSE_USAGE },
		{ "fuzz", "k --max-len 63", PM_PARSE_USAGE },
		{ "fuzz", "k --max-len 65537", PM_PARSE_USAGE },
		{ "fuzz", "k --watch", PM_PARSE_USAGE },
		{ "fuzz", "k --format xml", PM_PARSE_USAGE },
		{ "change", "vanish rt5", PM_PARSE_RUN },
		{ "change", "swap 5 --format text", PM_PARSE_RUN },
		{ "change", "appear root", PM_PARSE_RUN },
		{ "change", "appear rt0 --module /tmp/replug-testbus.ko", PM_PARSE_RUN },
		{ "change", "--help", PM_PARSE_HELP },
		{ "change", "vanish root", PM_PARSE_USAGE },
		{ "change", "swap", PM_PARSE_USAGE },
		{ "change", "melt rt5", PM_PARSE_USAGE },
		{ "change", "vanish rtx", PM_PARSE_USAGE },
		{ "change", "vanish rt5 rt6", PM_PARSE_USAGE },
		{ "change", "vanish -1", PM_PARSE_USAGE },
		{ "fault", "rt3 probe error=5", PM_PARSE_RUN },
		{ "fault", "3 replugged hang=100 --format text", PM_PARSE_RUN },
		{ "fault", "0 unplug off --module /tmp/replug-testbus.ko", PM_PARSE_RUN },
		{ "fault", "--list", PM_PARSE_RUN },
		{ "fault", "--list 3", PM_PARSE_USAGE },
		{ "fault", "rt3 probe", PM_PARSE_USAGE },
		{ "fault", "x3 probe error=5", PM_PARSE_USAGE },
		{ "fault", "3 shutdown error=5", PM_PARSE_USAGE },
		{ "fault", "3 replugged error=5", PM_PARSE_USAGE },
		{ "fault", "3 probe error=0", PM_PARSE_USAGE },
		{ "fault", "3 probe hang=abc", PM_PARSE_USAGE },
		{ "tree", "count=100 shape=wide fanout=4 links=2", PM_PARSE_RUN },
		{ "tree", "count=1 shape=flat --timeout 5", PM_PARSE_RUN },
		{ "tree", "count=100", PM_PARSE_USAGE },
		{ "tree", "count=0 shape=flat", PM_PARSE_USAGE },
		{ "tree", "count=5 shape=round", PM_PARSE_USAGE },
		{ "tree", "count=5 shape=flat color=red", PM_PARSE_USAGE },
		{ "tree", "count=5 shape=flat links", PM_PARSE_USAGE },
		{ "kunit", "", PM_PARSE_RUN },
		{ "kunit", "--module replug_test --module intent_test", PM_PARSE_RUN },
		{ "kunit", "replug_test", PM_PARSE_USAGE },
		{ "kunit", "--module", PM_PARSE_USAGE },
		{ "report", "", PM_PARSE_RUN },
		{ "report", "--trace /tmp/trace --cycle 6 --format svg --output /tmp/c.svg",
		  PM_PARSE_RUN },
		{ "report", "--format json -o /tmp/c.json", PM_PARSE_RUN },
		{ "report", "--format text --cycle 4294967295", PM_PARSE_RUN },
		{ "report", "--help", PM_PARSE_HELP },
		{ "report", "--format xml", PM_PARSE_USAGE },
		{ "report", "--format", PM_PARSE_USAGE },
		{ "report", "--cycle 0", PM_PARSE_USAGE },
		{ "report", "--cycle x", PM_PARSE_USAGE },
		{ "report", "--cycle -1", PM_PARSE_USAGE },
		{ "report", "--cycle 4294967296", PM_PARSE_USAGE },
		{ "report", "--cycle", PM_PARSE_USAGE },
		{ "report", "--trace", PM_PARSE_USAGE },
		{ "report", "--bogus", PM_PARSE_USAGE },
		{ "report", "extra", PM_PARSE_USAGE },
	};
	char err[1024], want[64];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(err, 0, sizeof(err));
		ret = parse(cases[i].cmd, cases[i].line, err, sizeof(err));
		snprintf(want, sizeof(want), "usage: pmtest %s ", cases[i].cmd);
		if (ret != cases[i].want)
			fprintf(t->out, "# returned %d, want %d\n", ret, cases[i].want);
		if (ret == PM_PARSE_USAGE && !strstr(err, want))
			fprintf(t->out, "# no usage line in: %s\n", err);
		check(t, ret == cases[i].want &&
		      (ret != PM_PARSE_USAGE || strstr(err, want)),
		      "args: %s%s%s -> %s", cases[i].cmd, *cases[i].line ? " " : "",
		      cases[i].line,
		      cases[i].want == PM_PARSE_RUN ? "run" :
		      cases[i].want == PM_PARSE_HELP ? "help" : "exit 2");
	}
}

static void add(struct pm_events *evs, const char *action, const char *devpath,
		const char *replug, const char *cycle, const char *test)
{
	pm_events_add(evs, &(struct pm_event){
		.action = action, .devpath = devpath, .replug = replug,
		.transition = "suspend", .cycle = cycle, .test = test,
		.on_bus = true,
	});
}

#define E1000E "/devices/pci0000:00/0000:00:1c.0/0000:01:00.0"
#define VDA_OLD "/devices/pci0000:00/0000:00:05.0/virtio3/block/vda"
#define VDA_NEW "/devices/pci0000:00/0000:00:05.0/virtio7/block/vda"

static void events_case_gone(struct t *t, const struct pm_norm *norm, const char *name,
			     const struct pm_events *evs, const struct strv *gone,
			     int pairs, int keys, int test)
{
	struct strv diag = { 0 };
	int got[3];
	size_t i;

	got[0] = pm_events_check_pairs(evs, norm, gone, &diag);
	got[1] = pm_events_check_keys(evs, "suspend", "4", &diag);
	got[2] = pm_events_check_test(evs, "devices", &diag);
	for (i = 0; i < diag.n; i++)
		fprintf(t->out, "# %s\n", diag.v[i]);
	check(t, got[0] == pairs && got[1] == keys && got[2] == test &&
	      diag.n == (size_t)(pairs + keys + test), "events: %s", name);
	strv_free(&diag);
}

static void events_case(struct t *t, const struct pm_norm *norm, const char *name,
			const struct pm_events *evs, int pairs, int keys, int test)
{
	events_case_gone(t, norm, name, evs, NULL, pairs, keys, test);
}

static void test_events(struct t *t)
{
	struct strv gone = { 0 };
	struct pm_events evs = { 0 };
	struct pm_norm norm;

	pm_norm_init(&norm);
	add(&evs, "change", E1000E, "1", "4", "devices");
	add(&evs, "remove", VDA_OLD, "1", "4", "devices");
	add(&evs, "remove", E1000E, "1", "4", "devices");
	add(&evs, "remove", "/devices/virtual/net/lo", NULL, NULL, NULL);
	add(&evs, "add", E1000E, "1", "4", "devices");
	add(&evs, "add", VDA_NEW, "1", "4", "devices");
	events_case(t, &norm, "all fine, vda back as another virtio", &evs, 0, 0, 0);
	check(t, pm_events_replug_count(&evs) == 5, "events: count of replug events");
	pm_events_free(&evs);

	add(&evs, "remove", E1000E, "1", "4", "devices");
	add(&evs, "remove", VDA_OLD, "1", "4", "devices");
	add(&evs, "add", E1000E, "1", "4", "devices");
	events_case(t, &norm, "REMOVE without ADD detected", &evs, 1, 0, 0);
	pm_events_free(&evs);

	add(&evs, "add", E1000E, "1", "4", "devices");
	add(&evs, "remove", E1000E, "1", "4", "devices");
	events_case(t, &norm, "ADD before its REMOVE does not match it", &evs, 1, 0, 0);
	pm_events_free(&evs);

	add(&evs, "remove", E1000E, "1", "4", "devices");
	add(&evs, "add", E1000E, "1", "3", "devices");
	events_case(t, &norm, "ADD with wrong cycle detected", &evs, 0, 1, 0);
	pm_events_free(&evs);

	add(&evs, "remove", E1000E, "1", "4", "none");
	add(&evs, "add", E1000E, "1", "4", NULL);
	events_case(t, &norm, "wrong and missing PM_TEST detected", &evs, 0, 0, 2);
	pm_events_free(&evs);

	add(&evs, "remove", E1000E, NULL, NULL, NULL);
	events_case(t, &norm, "events without PM_REPLUG are not checked", &evs, 0, 0, 0);
	pm_events_free(&evs);

	/* The NIC was pulled while the machine slept. */
	strv_push(&gone, strdup(E1000E));
	add(&evs, "remove", E1000E, "1", "4", "devices");
	add(&evs, "remove", VDA_OLD, "1", "4", "devices");
	add(&evs, "add", VDA_NEW, "1", "4", "devices");
	events_case_gone(t, &norm, "a device gone while asleep need not come back",
			 &evs, &gone, 0, 0, 0);
	strv_free(&gone);
	strv_push(&gone, strdup("/devices/pci0000:00/0000:00:1d.0"));
	events_case_gone(t, &norm, "gone elsewhere does not excuse the NIC",
			 &evs, &gone, 1, 0, 0);
	strv_free(&gone);
	pm_events_free(&evs);

	/* vda came back as vdb: a class device, renamed at will. */
	pm_events_add(&evs, &(struct pm_event){
		.action = "remove", .devpath = VDA_OLD, .replug = "1",
		.transition = "suspend", .cycle = "4", .test = "devices",
	});
	events_case(t, &norm, "a class device gone for good is not a bus device lost",
		    &evs, 0, 0, 0);
	pm_events_free(&evs);
	pm_norm_free(&norm);
}

/* @trace: lines split at '|'; @want: first, down, up, last. */
static void split_case(struct t *t, const char *name, const char *trace, int ret_want,
		       const double *want)
{
	struct strv lines = { 0 };
	struct pm_bench_marks m;
	double got[4];
	bool same = true;
	int ret, i;

	split_lines(trace, &lines);
	ret = pm_bench_split(&lines, &m);
	if (!ret) {
		fprintf(t->out, "# first %.6f down %.6f up %.6f last %.6f\n",
			m.first, m.down, m.up, m.last);
		memcpy(got, (double[]){ m.first, m.down, m.up, m.last }, sizeof(got));
		for (i = 0; i < 4; i++)
			same = same && fabs(got[i] - want[i]) < 1e-9;
	}
	check(t, ret == ret_want && (ret || same), "bench split: %s", name);
	strv_free(&lines);
}

#define SR(ts, what) "  sh-1 [000] ..... " ts ": suspend_resume: " what
#define RD(ts, what) "  kworker/0:1-9 [001] ..... " ts ": replug_device: " what
#define MARKS(...) ((const double[]){ __VA_ARGS__ })
#define CB(ts, what) "  kworker/u8:2-40 [000] ..... " ts ": device_pm_callback_" what

/* The tree's own span, from its callbacks and its devices' binds. */
static void split_tree_case(struct t *t)
{
	struct strv lines = { 0 };
	struct pm_bench_marks m;
	int ret;

	split_lines(SR("1.0", "replug_unplug[0] begin") "|"
		    CB("1.2", "start: replug_test rt9, parent: rt1, replug unplug[suspend]") "|"
		    CB("1.25", "end: replug_test rt9, err=0") "|"
		    CB("1.4", "start: replug_test rt1, parent: replug_test, replug remove[suspend]") "|"
		    CB("1.5", "end: replug_test rt1, err=0") "|"
		    SR("1.6", "replug_unplug[0] end") "|"
		    SR("2.0", "dpm_suspend[2] end") "|"
		    SR("3.0", "dpm_resume[16] begin") "|"
		    SR("3.2", "dpm_complete[16] end") "|"
		    SR("3.3", "replug_rescan[0] begin") "|"
		    CB("3.35", "start:  replug_test, parent: none, replug rescan[resume]") "|"
		    CB("3.45", "end:  replug_test, err=0") "|"
		    SR("3.5", "replug_rescan[0] end") "|"
		    RD("3.9", "replug e1000e 0000:01:00.0 cycle=2 transition=suspend") "|"
		    RD("3.7", "replug replug_test rt1 cycle=2 transition=suspend"), &lines);
	ret = pm_bench_split(&lines, &m);
	check(t, !ret && m.last == 3.9 && m.tree_first == 1.2 && m.tree_down == 1.5 &&
	      m.tree_up == 3.35 && m.tree_last == 3.7,
	      "bench split: a tree's span, from its own devices alone");
	strv_free(&lines);
	split_lines(SR("1.0", "dpm_prepare[2] begin") "|" SR("2.0", "dpm_suspend[2] end") "|"
		    SR("3.0", "dpm_resume[16] begin") "|" SR("3.5", "dpm_complete[16] end") "|"
		    RD("3.6", "replug replug_test rt1 cycle=1 transition=suspend"), &lines);
	ret = pm_bench_split(&lines, &m);
	check(t, !ret && isnan(m.tree_first) && isnan(m.tree_last),
	      "bench split: no tree without the tree's callbacks");
	strv_free(&lines);
}

static void test_bench(struct t *t)
{
	double v[] = { 5, 1, 3 }, w[] = { 4, 1, 3, 2 };

	split_case(t, "pm_test=devices: after dpm_suspend, before dpm_resume",
		   SR("10.000000", "suspend_enter[2] begin") "|"
		   SR("10.050000", "dpm_prepare[2] begin") "|"
		   SR("10.100000", "dpm_suspend[2] begin") "|"
		   SR("10.400000", "dpm_suspend[2] end") "|"
		   SR("10.400100", "dpm_resume[16] begin") "|"
		   SR("10.700000", "dpm_resume[16] end") "|"
		   SR("10.800000", "dpm_complete[16] end"), 0,
		   MARKS(10.05, 10.4, 10.4001, 10.8));
	split_case(t, "S3: late and noirq, then machine_suspend",
		   SR("0.5", "dpm_prepare[2] begin") "|"
		   SR("1.0", "dpm_suspend[2] end") "|" SR("1.5", "dpm_suspend_late[2] end") "|"
		   SR("1.7", "dpm_suspend_noirq[2] end") "|"
		   SR("1.8", "machine_suspend[3] begin") "|"
		   SR("9.0", "machine_suspend[3] end") "|"
		   SR("9.1", "dpm_resume_noirq[16] begin") "|"
		   SR("9.5", "dpm_resume[16] begin") "|" SR("9.9", "dpm_complete[16] end"),
		   0, MARKS(0.5, 1.8, 9.0, 9.9));
	split_case(t, "replug: from the walk to the last device bound again",
		   SR("1.0", "freeze_processes[0] end") "|"
		   SR("1.1", "replug_unplug[0] begin") "|"
		   SR("1.6", "replug_unplug[0] end") "|"
		   SR("1.7", "dpm_prepare[2] begin") "|"
		   SR("2.0", "dpm_suspend[2] end") "|"
		   SR("3.0", "dpm_resume[16] begin") "|"
		   SR("3.2", "dpm_complete[16] end") "|"
		   SR("3.3", "replug_rescan[0] begin") "|"
		   RD("3.4", "replug replug_test rt7 cycle=2 transition=suspend") "|"
		   SR("3.5", "replug_rescan[0] end") "|"
		   RD("4.25", "replug replug_test rt1 cycle=2 transition=suspend") "|"
		   RD("3.9", "replug replug_test rt2 cycle=2 transition=suspend"),
		   0, MARKS(1.1, 2.0, 3.0, 4.25));
	split_tree_case(t);
	split_case(t, "other events and lines are ignored",
		   "# tracer: nop|" SR("1.0", "dpm_prepare[2] begin") "|"
		   SR("2.0", "dpm_suspend[2] end") "|"
		   RD("2.5", "unplug replug_test rt1 cycle=1 transition=suspend") "|"
		   SR("2.6", "dpm_prepare[2] end") "|"
		   SR("3.0", "dpm_resume[16] begin") "|"
		   SR("3.5", "dpm_complete[16] end") "|"
		   RD("3.6", "keep replug_test rt1 cycle=1 transition=suspend"),
		   0, MARKS(1.0, 2.0, 3.0, 3.5));
	split_case(t, "a trace without the way up",
		   SR("1.0", "dpm_prepare[2] begin") "|" SR("2.0", "dpm_suspend[2] end"),
		   -ENOENT, NULL);
	split_case(t, "a trace without the device phases' ends",
		   SR("2.0", "dpm_suspend[2] end") "|" SR("3.0", "dpm_resume[16] begin"),
		   -ENOENT, NULL);
	split_case(t, "an empty trace", "", -ENOENT, NULL);
	split_case(t, "a malformed timestamp is no event",
		   SR("1.0", "dpm_prepare[2] begin") "|"
		   "  sh-1 [000] ..... x2.0: suspend_resume: dpm_suspend[2] end|"
		   SR("3.0", "dpm_resume[16] begin") "|" SR("3.5", "dpm_complete[16] end"),
		   -ENOENT, NULL);
	check(t, pm_median(v, 3) == 3, "bench: median of an odd count");
	check(t, pm_median(w, 4) == 2.5, "bench: median of an even count");
	check(t, isnan(pm_median(v, 0)), "bench: median of nothing");
	check(t, isnan(pm_median((double[]){ 1, NAN, 2 }, 3)),
	      "bench: median with a figure missing");
	check(t, pm_ratio(3, 4) == 0.75 && isnan(pm_ratio(1, 0)), "bench: ratio, none over 0");
}

/* Whether @buf holds what its kind promises: invalid for every knob. */
static bool fuzz_input_ok(const char *buf, size_t len, size_t max_len, enum pm_fuzz_kind kind)
{
	size_t i, digits = 0, run = 0;
	bool high = false;

	if (!len || len > max_len || strlen(buf) != len)
		return false;
	for (i = 0; i < len; i++) {
		high |= (unsigned char)buf[i] >= 0x80;
		run = buf[i] >= '0' && buf[i] <= '9' ? run + 1 : 0;
		digits = run > digits ? run : digits;
	}
	switch (kind) {
	case PM_FUZZ_BINARY:
		return high;
	case PM_FUZZ_OVERLONG:
		return len >= PM_FUZZ_MIN_LEN && strspn(buf, "abcdefghijklmnopqrstuvwxyz") == len;
	case PM_FUZZ_NEGATIVE:
		return strchr(buf, '-') && buf[len - 1] >= '0' && buf[len - 1] <= '9';
	case PM_FUZZ_OVERFLOW:
		return digits >= 21;
	case PM_FUZZ_NEAR_MISS:
		return (unsigned char)buf[len - 1] >= 0x80 ||
		       (buf[len - 1] >= 1 && buf[len - 1] <= 8);
	default:
		return false;
	}
}

static void test_fuzz(struct t *t)
{
	struct pm_fuzz_gen g, h;
	enum pm_fuzz_kind kind, kind2;
	unsigned int i, seen[PM_FUZZ_NR_KINDS] = { 0 }, bad = 0, same = 0;
	char buf[8193], buf2[8193], shown[16];
	size_t len, len2;

	pm_fuzz_init(&g, 7, 8192);
	for (i = 0; i < 5000; i++) {
		len = pm_fuzz_next(&g, buf, &kind);
		seen[kind]++;
		if (!fuzz_input_ok(buf, len, 8192, kind)) {
			if (!bad++)
				fprintf(t->out, "# input %u (%s) breaks its kind's promise\n", i,
					pm_fuzz_kind_name(kind));
		}
	}
	check(t, !bad, "fuzz: 5000 inputs, each invalid in the way its kind promises");
	check(t, seen[PM_FUZZ_BINARY] == 1000 && seen[PM_FUZZ_NEAR_MISS] == 1000,
	      "fuzz: the kinds come in turn");
	pm_fuzz_init(&g, 42, 64);
	pm_fuzz_init(&h, 42, 64);
	for (i = 0; i < 100; i++) {
		len = pm_fuzz_next(&g, buf, &kind);
		len2 = pm_fuzz_next(&h, buf2, &kind2);
		same += len == len2 && kind == kind2 && !memcmp(buf, buf2, len) && len <= 64;
	}
	check(t, same == 100, "fuzz: a seed gives the same inputs, within --max-len");
	pm_fuzz_init(&h, 43, 64);
	pm_fuzz_init(&g, 42, 64);
	len = pm_fuzz_next(&g, buf, &kind);
	len2 = pm_fuzz_next(&h, buf2, &kind2);
	check(t, len != len2 || memcmp(buf, buf2, len), "fuzz: another seed, other inputs");
	pm_fuzz_escape("a\\\x80\n", 4, buf, sizeof(buf));
	pm_fuzz_escape("abcdefghijklmnopqrstuvwxyz", 26, shown, sizeof(shown));
	check(t, !strcmp(buf, "a\\x5c\\x80\\x0a") && !strcmp(shown, "abcdefghijklmno"),
	      "fuzz: inputs shown as C escapes, cut to fit");
}

static void add_identity(struct pm_events *evs, const char *action, const char *devpath,
			 const char *identity, bool on_bus)
{
	pm_events_add(evs, &(struct pm_event){
		.action = action, .devpath = devpath, .replug = "1",
		.transition = "suspend", .cycle = "4", .test = "none",
		.identity = identity, .on_bus = on_bus,
	});
}

#define RT5_OLD "/devices/replug_test/rt0/rt5"
#define RT9_NEW "/devices/replug_test/rt0/rt9"

static void identity_case(struct t *t, const struct pm_norm *norm, const char *name,
			  const struct pm_events *evs, const struct strv *came, int want)
{
	struct strv diag = { 0 };
	size_t i;
	int got;

	got = pm_events_check_identity(evs, norm, came, &diag);
	for (i = 0; i < diag.n; i++)
		fprintf(t->out, "# %s\n", diag.v[i]);
	check(t, got == want && diag.n == (size_t)want, "identity: %s", name);
	strv_free(&diag);
}

static void test_identity(struct t *t)
{
	struct strv came = { 0 }, diag = { 0 };
	struct pm_events evs = { 0 };
	struct pm_norm norm;

	pm_norm_init(&norm);
	add_identity(&evs, "remove", E1000E, NULL, true);
	add_identity(&evs, "add", E1000E, "same", true);
	add_identity(&evs, "add", VDA_NEW, NULL, false);
	add_identity(&evs, "add", RT5_OLD, "changed", true);
	add_identity(&evs, "add", RT9_NEW, "new", true);
	identity_case(t, &norm, "every bus device says what it is", &evs, NULL, 0);
	pm_events_tally_identity(&evs, &diag);
	check(t, diag.n == 1 &&
	      !strcmp(diag.v[0], "devices added again: 1 the same, 1 changed, 1 new"),
	      "identity: the report counts them (%s)", diag.n ? diag.v[0] : "nothing");
	strv_free(&diag);

	strv_push(&came, strdup(RT5_OLD));
	strv_push(&came, strdup(RT9_NEW));
	strv_sort(&came);
	identity_case(t, &norm, "changed hardware not taken for the same", &evs, &came, 0);
	pm_events_free(&evs);

	add_identity(&evs, "add", RT5_OLD, "same", true);
	add_identity(&evs, "add", E1000E, "same", true);
	identity_case(t, &norm, "a swapped device said to be the same is caught",
		      &evs, &came, 1);
	identity_case(t, &norm, "unless nothing was meant to change", &evs, NULL, 0);
	pm_events_free(&evs);

	add_identity(&evs, "add", E1000E, NULL, true);
	add_identity(&evs, "add", RT9_NEW, "maybe", true);
	add_identity(&evs, "add", RT5_OLD, NULL, false);
	identity_case(t, &norm, "a missing or unknown answer of a bus device is caught",
		      &evs, NULL, 2);
	pm_events_free(&evs);

	pm_events_add(&evs, &(struct pm_event){
		.action = "add", .devpath = E1000E, .on_bus = true,
	});
	identity_case(t, &norm, "events without PM_REPLUG are not checked", &evs, NULL, 0);
	pm_events_free(&evs);
	strv_free(&came);
	pm_norm_free(&norm);
}

static void test_report(struct t *t)
{
	static const char want[] = "KTAP version 1\n1..2\nok 1 first\n# why\n"
				   "not ok 2 second\n# 1 passed, 1 failed\n";
	struct pm_report r;
	char *buf;
	size_t size;
	FILE *f = open_memstream(&buf, &size);
	int ret;

	pm_report_begin(&r, f, PM_FORMAT_KTAP, 2);
	pm_report_result(&r, true, "first");
	pm_report_diag(&r, "why");
	pm_report_result(&r, false, "second");
	ret = pm_report_end(&r);
	fclose(f);
	check(t, ret == 1 && !strcmp(buf, want), "report: KTAP with a diagnostic");
	free(buf);
}

static void kunit_case(struct t *t, const char *name, const char *file,
		       const char *want, unsigned int passed, unsigned int failed)
{
	struct pm_kunit_count count = { 0 };
	struct strv lines = { 0 };
	FILE *in = fmemopen((void *)file, strlen(file), "r"), *f;
	size_t size;
	char *buf;

	strv_read_lines(&lines, in);
	fclose(in);
	f = open_memstream(&buf, &size);
	pm_kunit_suite(f, "intent", &lines, 3, &count);
	fclose(f);
	if (strcmp(buf, want))
		fprintf(t->out, "# got:\n%s", buf);
	check(t, !strcmp(buf, want) && count.passed == passed && count.failed == failed &&
	      count.suite_failed == (failed || !strstr(want, "\nok 3 ")), "kunit: %s", name);
	free(buf);
	strv_free(&lines);
}

static void test_kunit(struct t *t)
{
	static const char body[] = "    KTAP version 1\n    # Subtest: intent\n    1..2\n"
				   "    ok 1 names\n    # uevent: EXPECTATION FAILED\n"
				   "    not ok 2 uevent\n";

	kunit_case(t, "a suite renumbered, its cases counted",
		   "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: intent\n"
		   "    1..1\n    ok 1 names\nok 1 intent\n",
		   "    KTAP version 1\n    # Subtest: intent\n    1..1\n"
		   "    ok 1 names\nok 3 intent\n", 1, 0);
	kunit_case(t, "a failed case fails the suite",
		   "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: intent\n"
		   "    1..2\n    ok 1 names\n    # uevent: EXPECTATION FAILED\n"
		   "    not ok 2 uevent\nnot ok 1 intent\n",
		   "    KTAP version 1\n    # Subtest: intent\n    1..2\n"
		   "    ok 1 names\n    # uevent: EXPECTATION FAILED\n"
		   "    not ok 2 uevent\nnot ok 3 intent\n", 1, 1);
	kunit_case(t, "a file without its result line fails", body,
		   "    KTAP version 1\n    # Subtest: intent\n    1..2\n"
		   "    ok 1 names\n    # uevent: EXPECTATION FAILED\n"
		   "    not ok 2 uevent\n# intent: no result line\nnot ok 3 intent\n", 1, 1);
}

static void test_usage(struct t *t)
{
	char *buf;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	pm_usage_all(f);
	fclose(f);
	check(t, strstr(buf, "\n  report [--trace FILE] [--cycle N] "
			     "[--format text|json|svg] [--output FILE]\n") != NULL,
	      "args: the top-level help lists report");
	free(buf);
}

#define CB_START "device_pm_callback_start: "
#define CB_END "device_pm_callback_end: "

static void parse_case(struct t *t, const char *name, const char *line, int want,
		       const struct pm_trace_event *w)
{
	struct pm_trace_event ev;
	int ret = pm_trace_parse_line(line, &ev);
	bool ok = ret == want;

#define SAME(f) (!w->f ? !ev.f : ev.f && !strcmp(w->f, ev.f))
	if (ok && ret == 1)
		ok = ev.kind == w->kind && ev.ts == w->ts && SAME(driver) &&
		     SAME(device) && SAME(action) && SAME(transition) &&
		     ev.cycle == w->cycle && SAME(parent) && SAME(info) &&
		     SAME(event) && ev.err == w->err;
#undef SAME
	if (!ok)
		fprintf(t->out, "# returned %d: %s|%s|%s|%s|%llu|%s|%s|%s|%d\n", ret,
			ev.driver, ev.device, ev.action, ev.transition, ev.cycle,
			ev.parent, ev.info, ev.event, ev.err);
	check(t, ok, "trace: %s", name);
	if (ret == 1)
		free(ev.buf);
}

static void test_trace_parse(struct t *t)
{
	struct pm_trace tr = { 0 };

	parse_case(t, "replug_device unplug",
		   "  kworker/u8:219-3654    [000] .....   173.738301: replug_device: "
		   "unplug replug_test rt7 cycle=6 transition=suspend\n", 1,
		   &(struct pm_trace_event){ .kind = PM_TRACE_REPLUG, .ts = 173.738301,
			.driver = "replug_test", .device = "rt7", .action = "unplug",
			.transition = "suspend", .cycle = 6 });
	parse_case(t, "replug_device keep, a PCI name",
		   "  kworker/0:1-12 [001] d..1.  42.5: replug_device: "
		   "keep ahci 0000:00:1f.2 cycle=6 transition=hibernate", 1,
		   &(struct pm_trace_event){ .kind = PM_TRACE_REPLUG, .ts = 42.5,
			.driver = "ahci", .device = "0000:00:1f.2", .action = "keep",
			.transition = "hibernate", .cycle = 6 });
	parse_case(t, "callback start, .N... flags, replug rescan",
		   "           pmtest-181    [000] .N...    15.347802: " CB_START
		   "replug_test rt7, parent: rt0, replug rescan[resume]\n", 1,
		   &(struct pm_trace_event){ .kind = PM_TRACE_CB_START, .ts = 15.347802,
			.driver = "replug_test", .device = "rt7", .parent = "rt0",
			.info = "replug rescan", .event = "resume" });
	parse_case(t, "callback start, classic, INFO's trailing space dropped",
		   "  kworker/u8:3-77 [000] .....  9.000001: " CB_START
		   "e1000e 0000:01:00.0, parent: 0000:00:1c.0, bus [suspend]", 1,
		   &(struct pm_trace_event){ .kind = PM_TRACE_CB_START, .ts = 9.000001,
			.driver = "e1000e", .device = "0000:01:00.0",
			.parent = "0000:00:1c.0", .info = "bus", .event = "suspend" });
	parse_case(t, "callback end with an error",
		   "  kworker/u8:219-3654    [000] .....   173.739000: " CB_END
		   "replug_test rt7, err=-16", 1,
		   &(struct pm_trace_event){ .kind = PM_TRACE_CB_END, .ts = 173.739,
			.driver = "replug_test", .device = "rt7", .err = -16 });
	parse_case(t, "replug_device without its DRIVER is refused",
		   "  kworker/u8:2-99 [000] .....  1.0: replug_device: "
		   "unplug  rt9 cycle=6 transition=suspend", -EINVAL, NULL);
	parse_case(t, "replug_device with a word short is refused",
		   "  kworker/u8:2-99 [000] .....  1.0: replug_device: "
		   "unplug rt9 cycle=6 transition=suspend", -EINVAL, NULL);
	parse_case(t, "replug_device with an unknown action is refused",
		   "  kworker/u8:2-99 [000] .....  1.0: replug_device: "
		   "eject x rt9 cycle=6 transition=suspend", -EINVAL, NULL);
	parse_case(t, "replug_device with a bad cycle is refused",
		   "  kworker/u8:2-99 [000] .....  1.0: replug_device: "
		   "unplug x rt9 cycle=-6 transition=suspend", -EINVAL, NULL);
	parse_case(t, "callback start without a DRIVER is refused",
		   "  kworker/u8:2-99 [000] .....  1.0: " CB_START
		   " rt7, parent: rt0, replug remove[suspend]", -EINVAL, NULL);
	parse_case(t, "callback end without err= is refused",
		   "  kworker/u8:2-99 [000] .....  1.0: " CB_END "replug_test rt7", -EINVAL,
		   NULL);
	parse_case(t, "a comment is ignored", "# tracer: nop", 0, NULL);
	parse_case(t, "another event is ignored",
		   "  <idle>-0 [001] d..2.  5.0: sched_switch: prev_comm=swapper/1", 0, NULL);

	pm_trace_add_line(&tr, "# tracer: nop");
	pm_trace_add_line(&tr, "  k-1 [000] ..... 1.0: replug_device: unplug  rt9 cycle=6 "
			  "transition=suspend");
	pm_trace_add_line(&tr, "  k-1 [000] ..... 1.5: " CB_END "replug_test rt7");
	pm_trace_add_line(&tr, "  k-1 [000] ..... 2.0: replug_device: unplug d rt9 cycle=6 "
			  "transition=suspend");
	check(t, tr.n == 1 && tr.skipped == 2, "trace: lines that do not parse are counted");
	pm_trace_free(&tr);
}

#define K "  kworker/u8:219-3654    [000] .....   "
#define N "           pmtest-181    [000] .N...   "

/* Cycle 5, then cycle 6 as the brief's example, with a refusal and a quote. */
static const char trace_text[] =
	"# tracer: nop\n#\n"
	K "170.000000: replug_device: unplug replug_test rt1 cycle=5 transition=hibernate\n"
	K "170.000500: replug_device: keep replug_test rt1 cycle=5 transition=hibernate\n"
	K "173.738290: " CB_START "replug_test rt7, parent: rt0, replug unplug[suspend]\n"
	K "173.738295: " CB_END "replug_test rt7, err=0\n"
	K "173.738301: replug_device: unplug replug_test rt7 cycle=6 transition=suspend\n"
	K "173.738313: replug_device: remove replug_test rt7 cycle=6 transition=suspend\n"
	K "173.738318: " CB_START "replug_test rt7, parent: rt0, replug remove[suspend]\n"
	K "173.739000: " CB_END "replug_test rt7, err=0\n"
	K "173.739100: " CB_START "replug_test rt8, parent: rt0, replug unplug[suspend]\n"
	K "173.739200: " CB_END "replug_test rt8, err=-16\n"
	K "173.739300: replug_device: unplug ahci 0000:00:1f.2 cycle=6 transition=suspend\n"
	K "173.739400: replug_device: keep ahci 0000:00:1f.2 cycle=6 transition=suspend\n"
	K "173.739450: replug_device: unplug replug_test we\"ird\\dev cycle=6 "
	  "transition=suspend\n"
	K "173.739500: replug_device: unplug  rt9 cycle=6 transition=suspend\n"
	N "175.000000: " CB_START "ahci 0000:00:1f.2, parent: pci0000:00, bus [suspend]\n"
	N "175.000100: " CB_END "ahci 0000:00:1f.2, err=0\n"
	N "175.500000: " CB_START "e1000e 0000:01:00.0, parent: pci0000:00, bus [suspend]\n"
	N "175.500100: " CB_END "e1000e 0000:01:00.0, err=0\n"
	N "178.900000: " CB_START "replug_test rt0, parent: none, replug rescan[resume]\n"
	"  kworker/u8:106-3541    [001] .....   178.910001: replug_device: "
	"replug replug_test rt7 cycle=6 transition=suspend\n"
	N "178.920000: " CB_END "replug_test rt0, err=0\n"
	"  <idle>-0 [001] d..2.  179.000000: sched_switch: prev_comm=swapper/1\n";

static const char want_text[] =
	"cycle 6 (suspend): 5 devices, 1 removed, 1 kept, span 5181.710 ms\n"
	"1 rt7          replug_test removed   unplug@0.011 remove=0.682ms back@5171.711\n"
	"2 0000:00:1f.2 ahci        kept      unplug@1.010 remove=-       back@-\n"
	"3 we\"ird\\dev   replug_test unplugged unplug@1.160 remove=-       back@-\n"
	"- rt0          replug_test none      unplug@-     remove=-       back@-\n"
	"- rt8          replug_test refused   unplug@-     remove=-       back@-        err=-16\n";

static bool load_trace(struct pm_trace *tr)
{
	FILE *f = fmemopen((void *)trace_text, strlen(trace_text), "r");
	int ret;

	*tr = (struct pm_trace){ 0 };
	if (!f)
		return false;
	ret = pm_trace_read(tr, f);
	fclose(f);
	return ret == 0;
}

static const struct pm_dev_report *find_dev(const struct pm_cycle *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ndevs; i++)
		if (!strcmp(c->devs[i].device, name))
			return &c->devs[i];
	return NULL;
}

static bool near(double a, double b)
{
	return a - b < 0.0005 && b - a < 0.0005;
}

static void test_cycle(struct t *t)
{
	const struct pm_dev_report *rt7, *ahci, *rt8, *rt0;
	struct pm_trace tr;
	struct pm_cycle c;
	int ret;

	if (!check(t, load_trace(&tr) && tr.skipped == 1, "cycle: the trace reads, one line "
		   "skipped"))
		return;
	ret = pm_cycle_build(&tr, 0, &c);
	if (!check(t, !ret && c.cycle == 6 && !strcmp(c.transition, "suspend") &&
		   c.ndevs == 5 && c.removed == 1 && c.kept == 1 && near(c.span_ms, 5181.710),
		   "cycle: the last cycle by default, its span and counts"))
		goto out;
	rt7 = find_dev(&c, "rt7");
	ahci = find_dev(&c, "0000:00:1f.2");
	rt8 = find_dev(&c, "rt8");
	rt0 = find_dev(&c, "rt0");
	check(t, rt7 && ahci && rt8 && rt0 && find_dev(&c, "we\"ird\\dev") &&
	      !find_dev(&c, "0000:01:00.0") && !find_dev(&c, "rt9"),
	      "cycle: the devices of the cycle, not those with classic callbacks only");
	if (!rt7 || !ahci || !rt8 || !rt0)
		goto out;
	check(t, c.devs[0].order == 1 && c.devs[0].device == rt7->device &&
	      c.devs[1].order == 2 && c.devs[1].device == ahci->device &&
	      c.devs[2].order == 3 && c.devs[3].order == 0 && c.devs[3].device == rt0->device &&
	      c.devs[4].order == 0 && c.devs[4].device == rt8->device,
	      "cycle: walk order, the unordered last by name");
	check(t, rt7->result == PM_RESULT_REMOVED && ahci->result == PM_RESULT_KEPT &&
	      c.devs[2].result == PM_RESULT_UNPLUGGED && rt0->result == PM_RESULT_NONE,
	      "cycle: removed, kept, unplugged, none");
	check(t, near(rt7->unplug_ms, 0.011) && near(rt7->remove_ms, 0.682) &&
	      near(rt7->back_ms, 5171.711) && rt7->error == 0,
	      "cycle: unplug time, remove duration from start/end, back time");
	check(t, rt7->nphases == 2 && !strcmp(rt7->phases[0].name, "replug unplug") &&
	      near(rt7->phases[0].start_ms, 0) && near(rt7->phases[0].end_ms, 0.005) &&
	      !strcmp(rt7->phases[1].name, "replug remove") && !rt7->phases[1].classic,
	      "cycle: replug's callbacks as phases, the unplug one before the unplug event");
	check(t, ahci->nphases == 1 && ahci->phases[0].classic &&
	      !strcmp(ahci->phases[0].name, "bus") && near(ahci->phases[0].start_ms, 1261.710),
	      "cycle: a classic callback of a kept device as a phase");
	check(t, rt8->error == -16 && rt8->result == PM_RESULT_REFUSED &&
	      rt8->nphases == 1 && rt8->phases[0].err == -16,
	      "cycle: err=-16 is the device's error; it refused");
	pm_cycle_free(&c);

	ret = pm_cycle_build(&tr, 5, &c);
	check(t, !ret && c.cycle == 5 && !strcmp(c.transition, "hibernate") && c.ndevs == 1 &&
	      c.kept == 1 && c.devs[0].order == 1 && !strcmp(c.devs[0].device, "rt1") &&
	      c.devs[0].nphases == 0 && near(c.span_ms, 0.5),
	      "cycle: --cycle 5 picks cycle 5 alone");
	pm_cycle_free(&c);
	check(t, pm_cycle_build(&tr, 7, &c) == -ENOENT, "cycle: a cycle not in the trace");
	pm_trace_free(&tr);

	/* Nested callbacks of one device; a child unplugged and back, not removed. */
	pm_trace_add_line(&tr, "k-1 [0] . 1.000: " CB_START "d p, parent: q, replug unplug[suspend]");
	pm_trace_add_line(&tr, "k-1 [0] . 1.001: " CB_START "d p, parent: q, replug remove[suspend]");
	pm_trace_add_line(&tr, "k-1 [0] . 1.002: " CB_END "d p, err=-5");
	pm_trace_add_line(&tr, "k-1 [0] . 1.004: " CB_END "d p, err=0");
	pm_trace_add_line(&tr, "k-1 [0] . 1.005: replug_device: unplug d p cycle=2 transition=kexec");
	pm_trace_add_line(&tr, "k-1 [0] . 1.010: replug_device: replug d p cycle=2 transition=kexec");
	ret = pm_cycle_build(&tr, 0, &c);
	check(t, !ret && c.ndevs == 1 && c.devs[0].result == PM_RESULT_REPLUGGED &&
	      c.devs[0].nphases == 2 && near(c.devs[0].phases[0].end_ms, 4) &&
	      near(c.devs[0].phases[1].end_ms, 2) && c.devs[0].phases[1].err == -5 &&
	      near(c.devs[0].remove_ms, 1) &&
	      c.devs[0].error == -5 && near(c.devs[0].back_ms, 10) && near(c.span_ms, 10),
	      "cycle: an end closes the latest open start; replugged");
out:
	pm_cycle_free(&c);
	pm_trace_free(&tr);
}

/* Brackets balance outside strings, and strings close. */
static bool json_balanced(const char *s)
{
	int depth = 0;
	bool in_string = false;

	for (; *s; s++) {
		if (in_string) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_string = false;
			else if ((unsigned char)*s < 0x20)
				return false;
		} else if (*s == '"') {
			in_string = true;
		} else if (*s == '{' || *s == '[') {
			depth++;
		} else if (*s == '}' || *s == ']') {
			if (--depth < 0)
				return false;
		}
	}
	return !depth && !in_string;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

static char *render(const struct pm_cycle *c, enum pm_view view)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	if (pm_render(f, c, view)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static void test_render(struct t *t)
{
	static const char *const legend[] = {
		">replug unplug<", ">replug remove<", ">replug rescan<",
		">classic callback<", ">callback failed<",
	};
	static const char json_head[] = "{\"cycle\": 6, \"transition\": \"suspend\", "
					"\"span_ms\": 5181.710, \"devices\": [\n  {";
	struct pm_dev_report many[PM_SVG_MAX_ROWS + 1];
	struct pm_trace tr;
	struct pm_cycle c;
	size_t i, phases = 0;
	bool ok;
	char *s;

	if (!load_trace(&tr) || pm_cycle_build(&tr, 0, &c)) {
		check(t, false, "render: the cycle builds");
		pm_trace_free(&tr);
		return;
	}
	s = render(&c, PM_VIEW_TEXT);
	if (s && strcmp(s, want_text))
		fprintf(t->out, "# got:\n%s", s);
	check(t, s && !strcmp(s, want_text), "render: text");
	free(s);

	s = render(&c, PM_VIEW_JSON);
	check(t, s && json_balanced(s) && !strncmp(s, json_head, strlen(json_head)),
	      "render: JSON balances, cycle first");
	check(t, s && strstr(s, "{\"order\": 1, \"device\": \"rt7\", \"driver\": "
			     "\"replug_test\", \"transition\": \"suspend\", \"result\": "
			     "\"removed\", \"unplug_ms\": 0.011, \"remove_ms\": 0.682, "
			     "\"back_ms\": 5171.711, \"error\": 0, \"phases\": [{\"name\": "
			     "\"replug unplug\", \"start_ms\": 0.000, \"end_ms\": 0.005, "
			     "\"err\": 0}, {\"name\": \"replug remove\"") &&
	      strstr(s, "\"order\": null, \"device\": \"rt8\"") &&
	      strstr(s, "\"result\": \"refused\", \"unplug_ms\": null, \"remove_ms\": null, "
			"\"back_ms\": null, \"error\": -16"),
	      "render: JSON fields, null when not seen");
	check(t, s && strstr(s, "\"device\": \"we\\\"ird\\\\dev\""),
	      "render: JSON escapes a quote and a backslash");
	free(s);

	s = render(&c, PM_VIEW_SVG);
	for (i = 0; i < c.ndevs; i++)
		phases += c.devs[i].nphases;
	check(t, s && phases == 5 && count(s, "<rect class=\"phase\"") == phases,
	      "render: SVG, one rect per phase");
	for (ok = s != NULL, i = 0; ok && i < sizeof(legend) / sizeof(legend[0]); i++)
		ok = strstr(s, legend[i]) != NULL;
	check(t, ok && s && count(s, "<rect class=\"legend\"") == 5 &&
	      !strncmp(s, "<?xml", 5) && strstr(s, "version=\"1.1\"") &&
	      !strcmp(s + strlen(s) - 7, "</svg>\n") && !strstr(s, "<script"),
	      "render: SVG, a legend, plain SVG 1.1");
	check(t, s && strstr(s, "<title>rt8: replug unplug 0.100 ms (0.810 to 0.910), "
			     "err=-16</title>") && strstr(s, "fill=\"#e15759\"") &&
	      strstr(s, ">we&quot;ird\\dev<"),
	      "render: SVG, hover titles, a failure in red, names escaped");
	free(s);
	pm_cycle_free(&c);
	pm_trace_free(&tr);

	for (i = 0; i < PM_SVG_MAX_ROWS + 1; i++)
		many[i] = (struct pm_dev_report){ .device = "d", .order = i + 1,
			.result = PM_RESULT_KEPT, .unplug_ms = i, .remove_ms = NAN,
			.back_ms = NAN };
	c = (struct pm_cycle){ .cycle = 1, .transition = "suspend", .span_ms = 600,
			       .devs = many, .ndevs = PM_SVG_MAX_ROWS + 1 };
	s = render(&c, PM_VIEW_SVG);
	check(t, s && count(s, "<text x=\"6\"") == PM_SVG_MAX_ROWS &&
	      strstr(s, "the first 500 shown</title>") &&
	      strstr(s, "only the first 500 devices of the walk are shown"),
	      "render: SVG, 500 rows at most, and says so");
	free(s);
}

int main(void)
{
	struct t t = { 0 };
	char *buf;
	size_t size;

	t.out = open_memstream(&buf, &size);
	if (!t.out)
		return 1;
	test_norm(&t);
	test_diff(&t);
	test_args(&t);
	test_events(&t);
	test_identity(&t);
	test_report(&t);
	test_kunit(&t);
	test_usage(&t);
	test_trace_parse(&t);
	test_cycle(&t);
	test_render(&t);
	test_bench(&t);
	test_fuzz(&t);
	fclose(t.out);
	printf("KTAP version 1\n1..%u\n%s%u passed, %u failed\n", t.n, buf,
	       t.n - t.failed, t.failed);
	free(buf);
	return t.failed ? 1 : 0;
}
