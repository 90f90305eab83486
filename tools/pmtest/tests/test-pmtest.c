// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pmtest's pure parts: host only, no root, no devices.
 * Each case is a KTAP line; the plan is known once all have run, so the
 * cases print to a buffer and the document is put together at the end.
 */
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

/* @old and @new: lines split at '|', "" for none; @want likewise. */
static void diff_case(struct t *t, const char *name, const char *old, const char *new,
		      const char *want, int count)
{
	struct strv a = { 0 }, b = { 0 }, out = { 0 }, w = { 0 };
	const char *src[] = { old, new, want };
	struct strv *dst[] = { &a, &b, &w };
	char *copy, *word, *save;
	size_t i;
	int ret;

	for (i = 0; i < 3; i++) {
		copy = strdup(src[i]);
		for (word = strtok_r(copy, "|", &save); word; word = strtok_r(NULL, "|", &save))
			strv_push(dst[i], strdup(word));
		free(copy);
	}
	ret = pm_invdiff(&a, &b, &out);
	check(t, ret == count && strv_equal(&out, &w), "diff: %s", name);
	strv_free(&a);
	strv_free(&b);
	strv_free(&w);
	strv_free(&out);
}

static void test_diff(struct t *t)
{
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
		struct kunit_args kunit;
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
	else if (!strcmp(cmd, "kunit"))
		ret = kunit_parse(&ctx, argc, argv, &a.kunit);
	if (ret == PM_PARSE_RUN && !strcmp(cmd, "kunit"))
		free(a.kunit.modules);
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

static void events_case(struct t *t, const struct pm_norm *norm, const char *name,
			const struct pm_events *evs, int pairs, int keys, int test)
{
	struct strv diag = { 0 };
	int got[3];
	size_t i;

	got[0] = pm_events_check_pairs(evs, norm, &diag);
	got[1] = pm_events_check_keys(evs, "suspend", "4", &diag);
	got[2] = pm_events_check_test(evs, "devices", &diag);
	for (i = 0; i < diag.n; i++)
		fprintf(t->out, "# %s\n", diag.v[i]);
	check(t, got[0] == pairs && got[1] == keys && got[2] == test &&
	      diag.n == (size_t)(pairs + keys + test), "events: %s", name);
	strv_free(&diag);
}

static void test_events(struct t *t)
{
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
	test_report(&t);
	test_kunit(&t);
	fclose(t.out);
	printf("KTAP version 1\n1..%u\n%s%u passed, %u failed\n", t.n, buf,
	       t.n - t.failed, t.failed);
	free(buf);
	return t.failed ? 1 : 0;
}
