// SPDX-License-Identifier: GPL-2.0
/*
 * The command lines of every command.  A parser returns instead of
 * exiting, so that the unit tests can call it: PM_PARSE_RUN to go on,
 * PM_PARSE_HELP after --help, PM_PARSE_USAGE after a usage line.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

static const char *const states[] = { "freeze", "mem", "disk", NULL };
static const char *const tests[] = {
	"none", "core", "processors", "platform", "devices", "freezer", NULL
};
static const char *const modes[] = { "replug", "classic", NULL };
static const char *const intents[] = { "poweroff", "halt", "reboot", "kexec", NULL };
static const char *const phases[] = { "unplug", "probe", "remove", "replugged", NULL };
static const char *const formats[] = { "ktap", "text", "json", NULL };
static const char *const views[] = { "text", "json", "svg", NULL };
static const char *const changes[] = { "vanish", "appear", "swap", NULL };
static const char *const shapes[] = { "flat", "deep", "wide", NULL };
static const char *const tree_keys[] = {
	"count", "shape", "fanout", "depth", "links", "unplug_us", "probe_us", NULL
};

static const struct pm_help {
	const char *name;
	const char *synopsis;
	const char *text;
} helps[] = {
	{ "inventory", "[--output FILE]",
	  "Print every device on a bus, one line each, sorted: BUS PATH DRIVER\n"
	  "MODALIAS, PATH under /sys/devices with re-enumerated instance numbers\n"
	  "as N, DRIVER '-' when none is bound.\n\n"
	  "  -o, --output FILE   write to FILE instead of standard output\n" },
	{ "diff", "OLD NEW",
	  "Compare two inventories: '- line' only in OLD, '+ line' only in NEW.\n"
	  "Exit 0 when equal, 1 when they differ, 2 on trouble.\n" },
	{ "cycle", "[--state freeze|mem|disk] [--test LEVEL] [--count N] "
		   "[--mode replug|classic] [--intent poweroff|halt|reboot|kexec] "
		   "[--wake-after SEC] [--expect FILE] [--settle-timeout SEC] "
		   "[--format ktap|text|json]",
	  "Run N suspend cycles (or replug dry runs with --intent) and check that\n"
	  "every device came back, with the uevents a replug cycle must send and\n"
	  "the identity each device came back with (same, changed or new).\n"
	  "Needs root.  Something must wake the machine: --wake-after, a key, or\n"
	  "the host of a virtual machine.\n\n"
	  "  --state STATE         written to /sys/power/state (default mem)\n"
	  "  --test LEVEL          /sys/power/pm_test: none, core, processors,\n"
	  "                        platform, devices or freezer (default none)\n"
	  "  --count N             cycles to run, 1 to 100000 (default 1)\n"
	  "  --mode MODE           /sys/power/replug/mode (default replug)\n"
	  "  --intent TRANSITION   rehearse it through /sys/power/replug/dry_run\n"
	  "                        instead; always at pm_test devices\n"
	  "  --wake-after SEC      arm the RTC alarm (/sys/class/rtc/rtc0/wakealarm)\n"
	  "                        to wake the machine SEC seconds after each write,\n"
	  "                        1 to 86400\n"
	  "  --expect FILE         the inventory each cycle must end with, when the\n"
	  "                        hardware changes while the machine sleeps (see\n"
	  "                        change); a device missing from FILE need not come\n"
	  "                        back (default: the inventory before the cycle)\n"
	  "  --settle-timeout SEC  wait for udev and the devices (default 60); a\n"
	  "                        device still missing when udev has been idle\n"
	  "                        and nothing changed for 5 s is not waited for\n"
	  "  --format FORMAT       ktap (default), text or json\n" },
	{ "fault", "DEVICE unplug|probe|remove|replugged error=ERRNO|hang=MS|off "
		   "[--module PATH] [--format ktap|text|json] | --list",
	  "Arm a fault of the replug test bus, once, for device rtID (or ID), and\n"
	  "read it back; --list prints every fault armed or fired.  Loads\n"
	  "replug-testbus when /sys/kernel/debug/replug_test is missing.  Needs root.\n\n"
	  "  --module PATH        load the test bus from PATH instead of by name\n"
	  "  --format FORMAT      ktap (default), text or json\n"
	  "  --list               print /sys/kernel/debug/replug_test/fault\n" },
	{ "change", "vanish|swap DEVICE | appear PARENT [--module PATH] "
		    "[--format ktap|text|json]",
	  "Change the replug test bus's hardware as the next rescan finds it:\n"
	  "device rtID (or ID) vanishes, or comes back with another identity\n"
	  "(swap), or a new device appears under PARENT (rtID, ID or root).  The\n"
	  "devices present do not change until a replug cycle rescans the bus.\n"
	  "Loads replug-testbus as fault does.  Needs root.\n\n"
	  "  --module PATH        load the test bus from PATH instead of by name\n"
	  "  --format FORMAT      ktap (default), text or json\n" },
	{ "tree", "count=N shape=flat|deep|wide [fanout=F] [depth=D] [links=L] [unplug_us=U] "
		  "[probe_us=P] [--module PATH] [--timeout SEC] [--format ktap|text|json]",
	  "Build a new tree of test bus devices and wait until all are bound.\n"
	  "Loads replug-testbus as fault does.  Needs root.\n\n"
	  "  --module PATH        load the test bus from PATH instead of by name\n"
	  "  --timeout SEC        wait for the devices to bind (default 60)\n"
	  "  --format FORMAT      ktap (default), text or json\n" },
	{ "kunit", "[--module NAME]...",
	  "Load the given modules, then print the results of every KUnit suite in\n"
	  "/sys/kernel/debug/kunit as one KTAP document, ending with\n"
	  "'N passed, N failed'.  Exit 1 if anything failed.  Needs root.\n\n"
	  "  --module NAME        load module NAME first; may be repeated\n" },
	{ "bench", "[--modes replug,classic] [--rounds N] [--state freeze|mem] "
		   "[--test LEVEL] [--label TEXT] [--settle-timeout SEC] [--format text|json]",
	  "Time the same suspend in each mode by turns (A B A B ...) on the\n"
	  "devices present, from the kernel's power:suspend_resume trace: suspend\n"
	  "until the last device phase on the way down, resume from the first one\n"
	  "on the way up until the write returns, then until udev settled with\n"
	  "every device back.  Prints the medians and, for two modes, the ratios\n"
	  "of the first to the second.  pm_test's wait is set to 0 for the run.\n"
	  "Needs root and tracefs.\n\n"
	  "  --modes A[,B]         replug and/or classic (default replug,classic)\n"
	  "  --rounds N            cycles per mode, 1 to 1000 (default 3)\n"
	  "  --state STATE         freeze or mem (default mem)\n"
	  "  --test LEVEL          /sys/power/pm_test (default devices)\n"
	  "  --label TEXT          names the run in the output: letters, digits,\n"
	  "                        and ' ._=,:-', up to 64\n"
	  "  --settle-timeout SEC  wait for udev and the devices (default 120)\n"
	  "  --format FORMAT       text (default) or json\n" },
	{ "fuzz", "KNOB... [--count N] [--seed S] [--max-len BYTES] [--watch FILE]... "
		  "[--format ktap|text|json]",
	  "Write N hostile inputs to each KNOB (a sysfs or debugfs file): binary\n"
	  "bytes that are not UTF-8, words too long for any keyword, negative\n"
	  "numbers, numbers past 64 bits and keywords with a stray byte, none with\n"
	  "a NUL byte.  Each write must fail with EINVAL (or E2BIG, past a page)\n"
	  "and change neither the knob, nor any FILE watched, nor the kernel's\n"
	  "taint flags, which a WARN or an oops sets.  A result per KNOB; the\n"
	  "inputs that were not refused cleanly are shown escaped.  The same seed\n"
	  "gives the same inputs.  Needs root.\n\n"
	  "  --count N            inputs per knob, 1 to 100000 (default 1000)\n"
	  "  --seed S             0 to 4294967295 (default 1)\n"
	  "  --max-len BYTES      the longest input, 64 to 65536 (default 8192)\n"
	  "  --watch FILE         a file whose content must not change; may be\n"
	  "                       repeated\n"
	  "  --format FORMAT      ktap (default), text or json\n" },
	{ "report", "[--trace FILE] [--cycle N] [--format text|json|svg] [--output FILE]",
	  "Read an ftrace text trace of the replug_device and device_pm_callback_*\n"
	  "events and show, for one replug cycle, each device's part in it: its\n"
	  "order in the walk, its result (removed, kept, replugged, refused,\n"
	  "unplugged, none), when it was unplugged and came back, how long its\n"
	  "'replug remove' took and any callback error; times in ms from the\n"
	  "cycle's first event.  Needs no root when FILE is a regular file.\n\n"
	  "  --trace FILE         the trace (default /sys/kernel/tracing/trace)\n"
	  "  --cycle N            the cycle, 1 to 4294967295 (default: the last)\n"
	  "  --format FORMAT      text (default), json or svg (a timeline)\n"
	  "  -o, --output FILE    write to FILE instead of standard output\n" },
};

static const struct pm_help *help_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		if (!strcmp(helps[i].name, name))
			return &helps[i];
	return &helps[0];
}

void pm_usage_all(FILE *f)
{
	size_t i;

	fputs("usage: pmtest COMMAND [ARGS]\n\nCommands:\n", f);
	for (i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		fprintf(f, "  %s %s\n", helps[i].name, helps[i].synopsis);
	fputs("\nEach command takes --help.\n", f);
}

static int show_help(const struct pmtest_ctx *ctx)
{
	const struct pm_help *h = help_of(ctx->command);

	fprintf(ctx->out, "usage: pmtest %s %s\n\n%s", h->name, h->synopsis, h->text);
	return PM_PARSE_HELP;
}

static int usage_error(const struct pmtest_ctx *ctx, const char *fmt, ...)
	PM_ATTR_PRINTF(2, 3);

static int usage_error(const struct pmtest_ctx *ctx, const char *fmt, ...)
{
	const struct pm_help *h = help_of(ctx->command);
	va_list ap;

	fprintf(ctx->err, "pmtest: %s: ", ctx->command);
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	fprintf(ctx->err, "\nusage: pmtest %s %s\n", h->name, h->synopsis);
	return PM_PARSE_USAGE;
}

static bool one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* Decimal only: "-1" and "1x" are refused, not wrapped or cut. */
static bool parse_uint(const char *s, unsigned long min, unsigned long max,
		       unsigned int *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_format(const char *s, enum pm_format *format)
{
	if (!one_of(s, formats))
		return false;
	*format = s[0] == 'k' ? PM_FORMAT_KTAP : s[0] == 't' ? PM_FORMAT_TEXT : PM_FORMAT_JSON;
	return true;
}

/*
 * getopt_long, reset for each call and silent, so that the caller words
 * the errors.  Return: the option, or PM_PARSE_USAGE after a usage line.
 */
static int next_opt(const struct pmtest_ctx *ctx, int argc, char **argv,
		    const char *shorts, const struct option *longs)
{
	int c = getopt_long(argc, argv, shorts, longs, NULL);

	if (c == '?')
		return usage_error(ctx, "unknown option '%s'", argv[optind - 1]);
	if (c == ':')
		return usage_error(ctx, "option '%s' needs an argument", argv[optind - 1]);
	return c;
}

static void reset_getopt(void)
{
	optind = 0;
	opterr = 0;
}

int inventory_parse(const struct pmtest_ctx *ctx, int argc, char **argv,
		    struct inventory_args *a)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*a = (struct inventory_args){ 0 };
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":o:h", longs)) != -1) {
		if (c == PM_PARSE_USAGE)
			return c;
		if (c == 'h')
			return show_help(ctx);
		a->output = optarg;
	}
	if (optind != argc)
		return usage_error(ctx, "unexpected argument '%s'", argv[optind]);
	return PM_PARSE_RUN;
}

int diff_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct diff_args *a)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*a = (struct diff_args){ 0 };
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		if (c == PM_PARSE_USAGE)
			return c;
		return show_help(ctx);
	}
	if (argc - optind != 2)
		return usage_error(ctx, "needs two inventory files");
	a->old = argv[optind];
	a->new = argv[optind + 1];
	return PM_PARSE_RUN;
}

int cycle_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct cycle_args *a)
{
	enum { O_STATE = 256, O_TEST, O_COUNT, O_MODE, O_INTENT, O_SETTLE, O_FORMAT,
	       O_WAKE, O_EXPECT };
	static const struct option longs[] = {
		{ "state", required_argument, NULL, O_STATE },
		{ "test", required_argument, NULL, O_TEST },
		{ "count", required_argument, NULL, O_COUNT },
		{ "mode", required_argument, NULL, O_MODE },
		{ "intent", required_argument, NULL, O_INTENT },
		{ "settle-timeout", required_argument, NULL, O_SETTLE },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "wake-after", required_argument, NULL, O_WAKE },
		{ "expect", required_argument, NULL, O_EXPECT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool state_given = false, test_given = false;
	int c;

	*a = (struct cycle_args){ .state = "mem", .test = "none", .mode = "replug",
				  .count = 1, .settle_timeout = 60 };
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		switch (c) {
		case PM_PARSE_USAGE:
			return c;
		case 'h':
			return show_help(ctx);
		case O_STATE:
			if (!one_of(optarg, states))
				return usage_error(ctx, "bad --state '%s'", optarg);
			a->state = optarg;
			state_given = true;
			break;
		case O_TEST:
			if (!one_of(optarg, tests))
				return usage_error(ctx, "bad --test '%s'", optarg);
			a->test = optarg;
			test_given = true;
			break;
		case O_COUNT:
			if (!parse_uint(optarg, 1, 100000, &a->count))
				return usage_error(ctx, "bad --count '%s': 1 to 100000", optarg);
			break;
		case O_MODE:
			if (!one_of(optarg, modes))
				return usage_error(ctx, "bad --mode '%s'", optarg);
			a->mode = optarg;
			break;
		case O_INTENT:
			if (!one_of(optarg, intents))
				return usage_error(ctx, "bad --intent '%s'", optarg);
			a->intent = optarg;
			break;
		case O_SETTLE:
			if (!parse_uint(optarg, 1, 86400, &a->settle_timeout))
				return usage_error(ctx, "bad --settle-timeout '%s': 1 to 86400",
						   optarg);
			break;
		case O_FORMAT:
			if (!parse_format(optarg, &a->format))
				return usage_error(ctx, "bad --format '%s'", optarg);
			break;
		case O_WAKE:
			if (!parse_uint(optarg, 1, 86400, &a->wake_after))
				return usage_error(ctx, "bad --wake-after '%s': 1 to 86400",
						   optarg);
			break;
		case O_EXPECT:
			if (!*optarg)
				return usage_error(ctx, "--expect needs a file");
			a->expect = optarg;
			break;
		}
	}
	if (optind != argc)
		return usage_error(ctx, "unexpected argument '%s'", argv[optind]);
	/* A dry run has no state, runs at pm_test devices and needs replug. */
	if (a->intent && (state_given || test_given || a->wake_after))
		return usage_error(ctx, "--intent goes without --state, --test and --wake-after");
	if (a->intent && strcmp(a->mode, "replug"))
		return usage_error(ctx, "--intent needs --mode replug");
	return PM_PARSE_RUN;
}

static bool key_known(const char *word, size_t len)
{
	const char *const *key;

	for (key = tree_keys; *key; key++)
		if (strlen(*key) == len && !strncmp(word, *key, len))
			return true;
	return false;
}

/* The options fault and tree share. */
enum { O_MODULE = 256, O_FORMAT_TB, O_LIST, O_TIMEOUT };

static int testbus_opt(const struct pmtest_ctx *ctx, int c, const char **module,
		       enum pm_format *format)
{
	if (c == 'h')
		return show_help(ctx);
	if (c == O_MODULE)
		*module = optarg;
	else if (c == O_FORMAT_TB && !parse_format(optarg, format))
		return usage_error(ctx, "bad --format '%s'", optarg);
	return c == PM_PARSE_USAGE ? c : PM_PARSE_RUN;
}

/* A test bus device: "rtID" or "ID". */
static bool parse_device(const char *s, unsigned int *id)
{
	return parse_uint(s + (strncmp(s, "rt", 2) ? 0 : 2), 0, UINT_MAX, id);
}

int fault_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct fault_args *a)
{
	static const struct option longs[] = {
		{ "module", required_argument, NULL, O_MODULE },
		{ "format", required_argument, NULL, O_FORMAT_TB },
		{ "list", no_argument, NULL, O_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *device, *value;
	unsigned int n;
	int c, ret;

	*a = (struct fault_args){ 0 };
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		if (c == O_LIST) {
			a->list = true;
			continue;
		}
		ret = testbus_opt(ctx, c, &a->module, &a->format);
		if (ret != PM_PARSE_RUN)
			return ret;
	}
	if (a->list)
		return optind == argc ? PM_PARSE_RUN :
			usage_error(ctx, "--list takes no other argument");
	if (argc - optind != 3)
		return usage_error(ctx, "needs DEVICE, PHASE and a fault");
	device = argv[optind];
	if (!parse_device(device, &a->id))
		return usage_error(ctx, "bad device '%s': rtID or ID", device);
	a->phase = argv[optind + 1];
	if (!one_of(a->phase, phases))
		return usage_error(ctx, "bad phase '%s'", a->phase);
	a->action = argv[optind + 2];
	value = strchr(a->action, '=');
	if (!strcmp(a->action, "off"))
		return PM_PARSE_RUN;
	if (value && !strncmp(a->action, "error=", 6) && parse_uint(value + 1, 1, 4095, &n)) {
		if (!strcmp(a->phase, "replugged"))
			return usage_error(ctx, "->replugged() cannot fail: use hang=MS");
		return PM_PARSE_RUN;
	}
	if (value && !strncmp(a->action, "hang=", 5) && parse_uint(value + 1, 0, 600000, &n))
		return PM_PARSE_RUN;
	return usage_error(ctx, "bad fault '%s': error=1..4095, hang=0..600000 or off",
			   a->action);
}

int change_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct change_args *a)
{
	static const struct option longs[] = {
		{ "module", required_argument, NULL, O_MODULE },
		{ "format", required_argument, NULL, O_FORMAT_TB },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *device;
	int c, ret;

	*a = (struct change_args){ 0 };
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		ret = testbus_opt(ctx, c, &a->module, &a->format);
		if (ret != PM_PARSE_RUN)
			return ret;
	}
	if (argc - optind != 2)
		return usage_error(ctx, "needs a change and a device");
	a->change = argv[optind];
	if (!one_of(a->change, changes))
		return usage_error(ctx, "bad change '%s': vanish, appear or swap", a->change);
	device = argv[optind + 1];
	a->root = !strcmp(a->change, "appear") && !strcmp(device, "root");
	if (!a->root && !parse_device(device, &a->id))
		return usage_error(ctx, "bad device '%s': rtID or ID%s", device,
				   strcmp(a->change, "appear") ? "" : " or root");
	return PM_PARSE_RUN;
}

int tree_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct tree_args *a)
{
	static const struct option longs[] = {
		{ "module", required_argument, NULL, O_MODULE },
		{ "format", required_argument, NULL, O_FORMAT_TB },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool shape = false;
	size_t len;
	int c, i, ret;

	*a = (struct tree_args){ .timeout = 60 };
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		if (c == O_TIMEOUT) {
			if (!parse_uint(optarg, 1, 86400, &a->timeout))
				return usage_error(ctx, "bad --timeout '%s': 1 to 86400", optarg);
			continue;
		}
		ret = testbus_opt(ctx, c, &a->module, &a->format);
		if (ret != PM_PARSE_RUN)
			return ret;
	}
	/* The kernel checks the values; the count and shape are needed here. */
	for (i = optind; i < argc; i++) {
		len = strcspn(argv[i], "=");
		if (!argv[i][len] || !argv[i][len + 1])
			return usage_error(ctx, "bad word '%s': KEY=VALUE", argv[i]);
		if (!key_known(argv[i], len))
			return usage_error(ctx, "unknown key in '%s'", argv[i]);
		if (!strncmp(argv[i], "count=", 6) &&
		    !parse_uint(argv[i] + 6, 1, 10000, &a->count))
			return usage_error(ctx, "bad '%s': count=1..10000", argv[i]);
		if (!strncmp(argv[i], "shape=", 6)) {
			if (!one_of(argv[i] + 6, shapes))
				return usage_error(ctx, "bad '%s': flat, deep or wide", argv[i]);
			shape = true;
		}
	}
	if (!a->count || !shape)
		return usage_error(ctx, "needs count=N and shape=SHAPE");
	a->words = argv + optind;
	a->nwords = argc - optind;
	return PM_PARSE_RUN;
}

static bool label_ok(const char *s)
{
	size_t len = strlen(s);

	return len && len <= 64 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
					  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._=,:-") == len;
}

/* "replug", "classic", or both, comma-separated, each once. */
static bool parse_modes(const char *s, struct bench_args *a)
{
	char *save, *word;

	if (strlen(s) >= sizeof(a->modes_buf))
		return false;
	strcpy(a->modes_buf, s);
	a->nmodes = 0;
	for (word = strtok_r(a->modes_buf, ",", &save); word;
	     word = strtok_r(NULL, ",", &save)) {
		if (a->nmodes == PM_BENCH_MAX_MODES || !one_of(word, modes) ||
		    (a->nmodes && !strcmp(a->modes[0], word)))
			return false;
		a->modes[a->nmodes++] = word;
	}
	return a->nmodes > 0 && s[strlen(s) - 1] != ',' && s[0] != ',' && !strstr(s, ",,");
}

int bench_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct bench_args *a)
{
	enum { O_MODES = 256, O_ROUNDS, O_STATE, O_TEST, O_LABEL, O_SETTLE, O_FORMAT };
	static const struct option longs[] = {
		{ "modes", required_argument, NULL, O_MODES },
		{ "rounds", required_argument, NULL, O_ROUNDS },
		{ "state", required_argument, NULL, O_STATE },
		{ "test", required_argument, NULL, O_TEST },
		{ "label", required_argument, NULL, O_LABEL },
		{ "settle-timeout", required_argument, NULL, O_SETTLE },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*a = (struct bench_args){ .state = "mem", .test = "devices", .label = "devices",
				  .rounds = 3, .settle_timeout = 120,
				  .format = PM_FORMAT_TEXT };
	parse_modes("replug,classic", a);
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		switch (c) {
		case PM_PARSE_USAGE:
			return c;
		case 'h':
			return show_help(ctx);
		case O_MODES:
			if (!parse_modes(optarg, a))
				return usage_error(ctx, "bad --modes '%s': replug, classic or both",
						   optarg);
			break;
		case O_ROUNDS:
			if (!parse_uint(optarg, 1, PM_BENCH_MAX_ROUNDS, &a->rounds))
				return usage_error(ctx, "bad --rounds '%s': 1 to %d", optarg,
						   PM_BENCH_MAX_ROUNDS);
			break;
		case O_STATE:
			if (!one_of(optarg, states) || !strcmp(optarg, "disk"))
				return usage_error(ctx, "bad --state '%s': freeze or mem", optarg);
			a->state = optarg;
			break;
		case O_TEST:
			if (!one_of(optarg, tests) || !strcmp(optarg, "freezer"))
				return usage_error(ctx, "bad --test '%s': no devices move at "
						   "freezer", optarg);
			a->test = optarg;
			break;
		case O_LABEL:
			if (!label_ok(optarg))
				return usage_error(ctx, "bad --label '%s'", optarg);
			a->label = optarg;
			break;
		case O_SETTLE:
			if (!parse_uint(optarg, 1, 86400, &a->settle_timeout))
				return usage_error(ctx, "bad --settle-timeout '%s': 1 to 86400",
						   optarg);
			break;
		case O_FORMAT:
			if (!strcmp(optarg, "text"))
				a->format = PM_FORMAT_TEXT;
			else if (!strcmp(optarg, "json"))
				a->format = PM_FORMAT_JSON;
			else
				return usage_error(ctx, "bad --format '%s': text or json", optarg);
			break;
		}
	}
	if (optind != argc)
		return usage_error(ctx, "unexpected argument '%s'", argv[optind]);
	return PM_PARSE_RUN;
}

/* On PM_PARSE_RUN, the caller frees a->modules. */
int fuzz_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct fuzz_args *a)
{
	enum { O_COUNT = 256, O_SEED, O_MAX_LEN, O_WATCH, O_FORMAT };
	static const struct option longs[] = {
		{ "count", required_argument, NULL, O_COUNT },
		{ "seed", required_argument, NULL, O_SEED },
		{ "max-len", required_argument, NULL, O_MAX_LEN },
		{ "watch", required_argument, NULL, O_WATCH },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, ret = PM_PARSE_RUN;

	*a = (struct fuzz_args){ .count = 1000, .seed = 1, .max_len = 8192 };
	/* Never more than argc of either. */
	a->knobs = calloc(argc, sizeof(*a->knobs));
	a->watch = calloc(argc, sizeof(*a->watch));
	if (!a->knobs || !a->watch) {
		fprintf(ctx->err, "pmtest: %s: out of memory\n", ctx->command);
		ret = PM_PARSE_USAGE;
	}
	reset_getopt();
	while (ret == PM_PARSE_RUN && (c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		if (c == PM_PARSE_USAGE)
			ret = c;
		else if (c == 'h')
			ret = show_help(ctx);
		else if (c == O_COUNT && !parse_uint(optarg, 1, 100000, &a->count))
			ret = usage_error(ctx, "bad --count '%s': 1 to 100000", optarg);
		else if (c == O_SEED && !parse_uint(optarg, 0, UINT_MAX, &a->seed))
			ret = usage_error(ctx, "bad --seed '%s': 0 to 4294967295", optarg);
		else if (c == O_MAX_LEN && !parse_uint(optarg, PM_FUZZ_MIN_LEN, 65536, &a->max_len))
			ret = usage_error(ctx, "bad --max-len '%s': 64 to 65536", optarg);
		else if (c == O_WATCH)
			a->watch[a->nwatch++] = optarg;
		else if (c == O_FORMAT && !parse_format(optarg, &a->format))
			ret = usage_error(ctx, "bad --format '%s'", optarg);
	}
	if (ret == PM_PARSE_RUN && optind == argc)
		ret = usage_error(ctx, "needs a knob to write to");
	while (ret == PM_PARSE_RUN && optind < argc)
		a->knobs[a->nknobs++] = argv[optind++];
	if (ret != PM_PARSE_RUN) {
		free(a->knobs);
		free(a->watch);
		a->knobs = a->watch = NULL;
	}
	return ret;
}

int kunit_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct kunit_args *a)
{
	static const struct option longs[] = {
		{ "module", required_argument, NULL, O_MODULE },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, ret = PM_PARSE_RUN;

	*a = (struct kunit_args){ .modules = calloc(argc, sizeof(*a->modules)) };
	if (!a->modules)
		return usage_error(ctx, "out of memory");
	reset_getopt();
	while (ret == PM_PARSE_RUN && (c = next_opt(ctx, argc, argv, ":h", longs)) != -1) {
		if (c == 'h')
			ret = show_help(ctx);
		else if (c == O_MODULE)
			a->modules[a->nmodules++] = optarg;
		else
			ret = c;
	}
	if (ret == PM_PARSE_RUN && optind != argc)
		ret = usage_error(ctx, "unexpected argument '%s'", argv[optind]);
	if (ret != PM_PARSE_RUN) {
		free(a->modules);
		a->modules = NULL;
	}
	return ret;
}

int report_parse(const struct pmtest_ctx *ctx, int argc, char **argv, struct report_args *a)
{
	enum { O_TRACE = 256, O_CYCLE, O_VIEW };
	static const struct option longs[] = {
		{ "trace", required_argument, NULL, O_TRACE },
		{ "cycle", required_argument, NULL, O_CYCLE },
		{ "format", required_argument, NULL, O_VIEW },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*a = (struct report_args){ .trace = "/sys/kernel/tracing/trace" };
	reset_getopt();
	while ((c = next_opt(ctx, argc, argv, ":o:h", longs)) != -1) {
		switch (c) {
		case PM_PARSE_USAGE:
			return c;
		case 'h':
			return show_help(ctx);
		case 'o':
			a->output = optarg;
			break;
		case O_TRACE:
			a->trace = optarg;
			break;
		case O_CYCLE:
			if (!parse_uint(optarg, 1, UINT_MAX, &a->cycle))
				return usage_error(ctx, "bad --cycle '%s': 1 to %u", optarg,
						   UINT_MAX);
			break;
		case O_VIEW:
			if (!one_of(optarg, views))
				return usage_error(ctx, "bad --format '%s'", optarg);
			a->view = optarg[0] == 't' ? PM_VIEW_TEXT :
				  optarg[0] == 'j' ? PM_VIEW_JSON : PM_VIEW_SVG;
			break;
		}
	}
	if (optind != argc)
		return usage_error(ctx, "unexpected argument '%s'", argv[optind]);
	return PM_PARSE_RUN;
}
