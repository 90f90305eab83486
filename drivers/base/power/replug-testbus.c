// SPDX-License-Identifier: GPL-2.0
/*
 * A synthetic bus to test and measure replug: trees of up to 10,000
 * devices of any shape, built through debugfs (replug_test/), with links
 * between branches and a latency and injected faults per device and phase.
 *
 * The hardware is a model, separate from the struct devices that are its
 * current enumeration: replug's remove hook takes devices away and leaves
 * the model, and its rescan hook enumerates the model again as new
 * devices.  So the model can change while its devices are away, as
 * hardware does while a system sleeps: a device vanishes, another appears,
 * one is swapped for another in the same slot.
 */

#define pr_fmt(fmt) "replug_test: " fmt

#include <linux/bits.h>
#include <linux/cleanup.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm.h>
#include <linux/pm/intent.h>
#include <linux/pm/replug.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>

#define RT_MAX_NODES		10000
#define RT_MAX_LATENCY_US	USEC_PER_SEC
#define RT_MAX_HANG_MS		600000
#define RT_DEFAULT_FANOUT	8
#define RT_MAX_INPUT		256
#define RT_MAX_WORDS		8
#define RT_IDENTITY_FMT		"rt-%u-%u"
#define RT_IDENTITY_LEN		32

enum rt_phase {
	RT_PHASE_UNPLUG,
	RT_PHASE_PROBE,
	RT_PHASE_REMOVE,
	RT_PHASE_REPLUGGED,
	RT_NR_PHASES
};

static const char * const rt_phase_names[] = {
	[RT_PHASE_UNPLUG]	= "unplug",
	[RT_PHASE_PROBE]	= "probe",
	[RT_PHASE_REMOVE]	= "remove",
	[RT_PHASE_REPLUGGED]	= "replugged",
};

enum rt_fault_kind {
	RT_FAULT_OFF,
	RT_FAULT_ERROR,
	RT_FAULT_HANG,
};

static const char * const rt_fault_names[] = {
	[RT_FAULT_OFF]		= "off",
	[RT_FAULT_ERROR]	= "error",
	[RT_FAULT_HANG]		= "hang",
};

enum rt_shape {
	RT_SHAPE_FLAT,
	RT_SHAPE_DEEP,
	RT_SHAPE_WIDE,
};

static const char * const rt_shape_names[] = {
	[RT_SHAPE_FLAT]	= "flat",
	[RT_SHAPE_DEEP]	= "deep",
	[RT_SHAPE_WIDE]	= "wide",
};

/* The parameters of a tree, in the order the tree file shows them. */
enum rt_key {
	RT_KEY_COUNT,
	RT_KEY_SHAPE,
	RT_KEY_FANOUT,
	RT_KEY_LINKS,
	RT_KEY_UNPLUG_US,
	RT_KEY_PROBE_US,
	RT_KEY_DEPTH,
	RT_NR_KEYS
};

static const struct {
	const char *name;
	u32 min;
	u32 max;
} rt_keys[] = {
	[RT_KEY_COUNT]		= { "count", 1, RT_MAX_NODES },
	[RT_KEY_SHAPE]		= { "shape" },
	[RT_KEY_FANOUT]		= { "fanout", 1, RT_MAX_NODES },
	[RT_KEY_LINKS]		= { "links", 0, RT_MAX_NODES },
	[RT_KEY_UNPLUG_US]	= { "unplug_us", 0, RT_MAX_LATENCY_US },
	[RT_KEY_PROBE_US]	= { "probe_us", 0, RT_MAX_LATENCY_US },
	[RT_KEY_DEPTH]		= { "depth", 1, RT_MAX_NODES },
};

#define RT_TREE_KEYS		(BIT(RT_NR_KEYS) - 1)
#define RT_TREE_REQUIRED	(BIT(RT_KEY_COUNT) | BIT(RT_KEY_SHAPE))
#define RT_LATENCY_KEYS		(BIT(RT_KEY_UNPLUG_US) | BIT(RT_KEY_PROBE_US))

/*
 * A fault stays in the record once it has fired, disarmed so that the
 * rollback of the transition it broke can bring the device back.
 */
struct rt_fault {
	enum rt_fault_kind kind;
	u32 value;
	u32 fired;
	bool armed;
};

/* What one callback does: wait its latency, then fire its fault if any. */
struct rt_action {
	u32 latency_us;
	struct rt_fault fault;
};

/* One enumeration of a node: each rescan that finds it makes a new one. */
struct rt_device {
	struct device dev;
	u32 id;
	u32 born;
	char identity[RT_IDENTITY_LEN];
	struct rt_action probe;
	struct list_head doomed;
};

#define to_rt_device(d) container_of_const(d, struct rt_device, dev)

/* A piece of hardware; @rtd is its device while it is enumerated. */
struct rt_node {
	u32 id;
	u32 generation;
	struct rt_node *parent;
	struct list_head children;
	struct list_head sibling;
	u32 latency_us[RT_NR_PHASES];
	struct rt_fault faults[RT_NR_PHASES];
	bool present;
	struct rt_device *rtd;
};

struct rt_link {
	u32 consumer;
	u32 supplier;
};

/*
 * The hardware.  @root stands for the bus root device, and is in no
 * @nodes slot; a node's id is its slot, and a parent's id is always below
 * its children's.
 */
struct rt_model {
	u32 params[RT_NR_KEYS];
	struct rt_node root;
	struct rt_node **nodes;
	u32 nr;
	struct rt_link *links;
	u32 nr_links;
	u32 rescans;
};

/*
 * rt_lock guards the model.  Devices are registered under it, as their
 * probes do not take it, but unregistered outside it, as unbinding one
 * waits for its ->unplug(), which does.  rt_tree_lock serialises building
 * and destroying whole trees, which unregister outside rt_lock.
 */
static DEFINE_MUTEX(rt_lock);
static DEFINE_MUTEX(rt_tree_lock);
static struct rt_model *rt_model;
static struct device *rt_root;
static struct dentry *rt_debugfs;

static const struct bus_type rt_bus;

static struct rt_node *rt_lookup(u32 id)
{
	lockdep_assert_held(&rt_lock);
	return rt_model && id < rt_model->nr ? rt_model->nodes[id] : NULL;
}

/* @dev's node, or NULL once @dev is on its way out of the model. */
static struct rt_node *rt_node_of(struct device *dev)
{
	struct rt_device *rtd = to_rt_device(dev);
	struct rt_node *node = rt_lookup(rtd->id);

	return node && node->rtd == rtd ? node : NULL;
}

/*
 * The node after @node in a walk of @top's subtree, parents before
 * children and siblings in id order; !@descend skips what is below @node.
 */
static struct rt_node *rt_next(struct rt_node *node, struct rt_node *top,
			       bool descend)
{
	if (descend && !list_empty(&node->children))
		return list_first_entry(&node->children, struct rt_node,
					sibling);
	for (; node != top; node = node->parent) {
		if (!list_is_last(&node->sibling, &node->parent->children))
			return list_next_entry(node, sibling);
	}
	return NULL;
}

/* Fire @phase's fault of @node if it is armed: once only. */
static struct rt_action rt_take(struct rt_node *node, enum rt_phase phase)
{
	struct rt_action act = { .latency_us = node->latency_us[phase] };
	struct rt_fault *fault = &node->faults[phase];

	if (fault->armed) {
		fault->armed = false;
		fault->fired++;
		act.fault = *fault;
	}
	return act;
}

/*
 * A hang ends when its time is up or when it is released: a test that
 * holds a walk with a hang lets it go when it has seen what it wanted,
 * instead of guessing how long that takes.  Writing "off" for any device
 * and phase, or unloading the module, releases every hang in progress.
 */
static atomic_t rt_hang_releases = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(rt_hang_released);

static void rt_release_hangs(void)
{
	atomic_inc(&rt_hang_releases);
	wake_up_all(&rt_hang_released);
}

static void rt_hang(u32 ms)
{
	int releases = atomic_read(&rt_hang_releases);

	wait_event_interruptible_timeout(rt_hang_released,
					 atomic_read(&rt_hang_releases) != releases,
					 msecs_to_jiffies(ms));
}

/* Return: what the callback returns: the fault's -errno, or 0. */
static int rt_act(struct device *dev, enum rt_phase phase,
		  const struct rt_action *act)
{
	const struct rt_fault *fault = &act->fault;
	const struct pm_intent *intent;
	const char *why;

	/* fsleep() may double a sleep; a benchmark wants the one it set. */
	if (act->latency_us)
		usleep_range(act->latency_us,
			     act->latency_us + act->latency_us / 16);
	if (fault->kind == RT_FAULT_OFF)
		return 0;

	intent = dev_pm_intent(dev);
	why = intent ? pm_transition_name(intent->transition) : "no transition";
	dev_info(dev, "%s fault fires (%s): %s %u\n", rt_phase_names[phase],
		 why, rt_fault_names[fault->kind], fault->value);
	if (fault->kind == RT_FAULT_ERROR)
		return -(int)fault->value;
	rt_hang(fault->value);
	return 0;
}

/*
 * A callback of a device the model no longer has does nothing.  Faults
 * are replug's alone: classic callbacks only take the time.
 */
static int rt_run(struct device *dev, enum rt_phase phase, bool faults)
{
	struct rt_action act = {};
	struct rt_node *node;

	scoped_guard(mutex, &rt_lock) {
		node = rt_node_of(dev);
		if (node && faults)
			act = rt_take(node, phase);
		else if (node)
			act.latency_us = node->latency_us[phase];
	}
	return rt_act(dev, phase, &act);
}

static int rt_callback(struct device *dev, enum rt_phase phase)
{
	return rt_run(dev, phase, true);
}

/*
 * A device's last reference may go long after its removal (replug holds
 * some until its re-enumeration window closes; a debug kernel releases
 * every kobject late), and its release is this module's code: unloading
 * waits for the last one.
 */
static atomic_t rt_nr_unreleased = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(rt_all_released);

static void rt_release(struct device *dev)
{
	kfree(to_rt_device(dev));
	if (atomic_dec_and_test(&rt_nr_unreleased))
		wake_up(&rt_all_released);
}

/*
 * The probe takes no lock, so that devices can be registered under
 * rt_lock: it was decided, fault included, when the device was made.
 */
static int rt_add(struct rt_model *model, struct rt_node *node)
{
	struct rt_device *rtd;
	int error;

	lockdep_assert_held(&rt_lock);
	rtd = kzalloc(sizeof(*rtd), GFP_KERNEL);
	if (!rtd)
		return -ENOMEM;
	rtd->id = node->id;
	rtd->born = model->rescans;
	snprintf(rtd->identity, sizeof(rtd->identity), RT_IDENTITY_FMT,
		 node->id, node->generation);
	rtd->probe = rt_take(node, RT_PHASE_PROBE);

	device_initialize(&rtd->dev);
	atomic_inc(&rt_nr_unreleased);
	rtd->dev.bus = &rt_bus;
	rtd->dev.parent = node->parent == &model->root ?
			  rt_root : &node->parent->rtd->dev;
	rtd->dev.release = rt_release;
	device_enable_async_suspend(&rtd->dev);
	error = dev_set_name(&rtd->dev, "rt%u", node->id);
	if (!error)
		error = device_add(&rtd->dev);
	if (error) {
		put_device(&rtd->dev);
		return error;
	}
	node->rtd = rtd;
	return 0;
}

/*
 * Link the pairs one device of which was just made: a link goes with
 * either of its devices, and those that kept both kept it.
 */
static void rt_link(struct rt_model *model, u32 born)
{
	struct rt_device *consumer, *supplier;
	u32 i;

	for (i = 0; i < model->nr_links; i++) {
		consumer = model->nodes[model->links[i].consumer]->rtd;
		supplier = model->nodes[model->links[i].supplier]->rtd;
		if (!consumer || !supplier ||
		    (consumer->born != born && supplier->born != born))
			continue;
		if (!device_link_add(&consumer->dev, &supplier->dev,
				     DL_FLAG_STATELESS))
			dev_warn(&consumer->dev, "no link to %s\n",
				 dev_name(&supplier->dev));
	}
}

/* Enumerate what is present below @top and has no device yet. */
static void rt_populate(struct rt_model *model, struct rt_node *top)
{
	struct rt_node *node;
	bool descend;
	int error;

	lockdep_assert_held(&rt_lock);
	model->rescans++;
	node = rt_next(top, top, true);
	while (node) {
		descend = node->rtd;
		if (!node->rtd && node->present) {
			error = rt_add(model, node);
			if (error)
				pr_warn("rt%u not added: %pe\n", node->id,
					ERR_PTR(error));
			descend = !error;
		}
		node = rt_next(node, top, descend);
	}
	rt_link(model, model->rescans);
}

/*
 * Take the devices of @top and below out of the model, onto @doomed in
 * the reverse of the walk's order, which has children before parents.
 */
static void rt_detach(struct rt_node *top, struct list_head *doomed)
{
	struct rt_node *node = top;
	struct rt_device *rtd;

	lockdep_assert_held(&rt_lock);
	while (node) {
		rtd = node->rtd;
		if (rtd) {
			list_add(&rtd->doomed, doomed);
			node->rtd = NULL;
		}
		/* Devices are only made under devices: nothing further down. */
		node = rt_next(node, top, rtd || node == top);
	}
}

static void rt_unregister(struct list_head *doomed)
{
	struct rt_device *rtd, *next;

	list_for_each_entry_safe(rtd, next, doomed, doomed) {
		list_del(&rtd->doomed);
		device_unregister(&rtd->dev);
	}
}

static void rt_free_model(struct rt_model *model)
{
	u32 i;

	if (!model)
		return;
	for (i = 0; i < model->nr; i++)
		kfree(model->nodes[i]);
	kvfree(model->nodes);
	kvfree(model->links);
	kfree(model);
}

DEFINE_FREE(rt_model, struct rt_model *, rt_free_model(_T))

static struct rt_node *rt_new_node(struct rt_model *model,
				   struct rt_node *parent)
{
	struct rt_node *node;

	if (model->nr == RT_MAX_NODES)
		return ERR_PTR(-ENOSPC);
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return ERR_PTR(-ENOMEM);
	node->id = model->nr;
	node->parent = parent;
	INIT_LIST_HEAD(&node->children);
	list_add_tail(&node->sibling, &parent->children);
	node->latency_us[RT_PHASE_UNPLUG] = model->params[RT_KEY_UNPLUG_US];
	node->latency_us[RT_PHASE_PROBE] = model->params[RT_KEY_PROBE_US];
	node->present = true;
	model->nodes[model->nr++] = node;
	return node;
}

/* The parent of node @i of a new tree, every node before it made. */
static struct rt_node *rt_shape_parent(struct rt_model *model, u32 i)
{
	u32 fanout = model->params[RT_KEY_FANOUT];

	switch (model->params[RT_KEY_SHAPE]) {
	case RT_SHAPE_DEEP:
		return i % model->params[RT_KEY_DEPTH] ? model->nodes[i - 1] :
							 &model->root;
	case RT_SHAPE_WIDE:
		return i < fanout ? &model->root : model->nodes[i / fanout - 1];
	default:
		return &model->root;
	}
}

/*
 * Link leaves of the last top-level branch (consumers, in turn) to leaves
 * of the others (suppliers, each once).  Leaves of different branches
 * depend on each other in no other way, and no consumer is a supplier,
 * so there can be no cycle.
 */
static int rt_pick_links(struct rt_model *model, u32 nr_links)
{
	struct rt_node *root = &model->root, *last, *node;
	u32 k = 0;

	if (!nr_links)
		return 0;
	if (list_empty(&root->children) || list_is_singular(&root->children))
		return -EINVAL;
	model->links = kvcalloc(nr_links, sizeof(*model->links), GFP_KERNEL);
	if (!model->links)
		return -ENOMEM;
	model->nr_links = nr_links;

	last = list_last_entry(&root->children, struct rt_node, sibling);
	for (node = rt_next(root, root, true); node != last && k < nr_links;
	     node = rt_next(node, root, true)) {
		if (list_empty(&node->children))
			model->links[k++].supplier = node->id;
	}
	if (k < nr_links)
		return -EINVAL;

	k = 0;
	while (k < nr_links) {
		for (node = last; node && k < nr_links;
		     node = rt_next(node, last, true)) {
			if (list_empty(&node->children))
				model->links[k++].consumer = node->id;
		}
	}
	return 0;
}

static struct rt_model *rt_build(const u32 *params)
{
	struct rt_model *model __free(rt_model) =
		kzalloc(sizeof(*model), GFP_KERNEL);
	struct rt_node *node;
	int error;
	u32 i;

	if (!model)
		return ERR_PTR(-ENOMEM);
	memcpy(model->params, params, sizeof(model->params));
	INIT_LIST_HEAD(&model->root.children);
	model->nodes = kvcalloc(RT_MAX_NODES, sizeof(*model->nodes),
				GFP_KERNEL);
	if (!model->nodes)
		return ERR_PTR(-ENOMEM);

	for (i = 0; i < params[RT_KEY_COUNT]; i++) {
		node = rt_new_node(model, rt_shape_parent(model, i));
		if (IS_ERR(node))
			return ERR_CAST(node);
	}
	error = rt_pick_links(model, params[RT_KEY_LINKS]);
	if (error)
		return ERR_PTR(error);
	return_ptr(model);
}

static void rt_destroy(void)
{
	struct rt_model *model;
	LIST_HEAD(doomed);

	lockdep_assert_held(&rt_tree_lock);
	/* Probes under way end together, not one by one as each goes. */
	wait_for_device_probe();
	scoped_guard(mutex, &rt_lock) {
		model = rt_model;
		rt_model = NULL;
		if (model)
			rt_detach(&model->root, &doomed);
	}
	rt_unregister(&doomed);
	rt_free_model(model);
}

static bool rt_is_unit(struct device *dev)
{
	return dev->bus == &rt_bus;
}

static struct device *rt_rescan_point(struct device *unit)
{
	return get_device(unit->parent);
}

static int rt_remove(struct device *unit)
{
	struct rt_node *node;
	LIST_HEAD(doomed);
	int error;

	error = rt_callback(unit, RT_PHASE_REMOVE);
	if (error)
		return error;
	scoped_guard(mutex, &rt_lock) {
		node = rt_node_of(unit);
		if (node)
			rt_detach(node, &doomed);
	}
	rt_unregister(&doomed);
	return 0;
}

static void rt_rescan(struct device *point)
{
	struct rt_node *top;

	guard(mutex)(&rt_lock);
	if (!rt_model || !device_is_registered(point))
		return;
	if (point == rt_root)
		top = &rt_model->root;
	else if (rt_is_unit(point))
		top = rt_node_of(point);
	else
		return;
	if (top)
		rt_populate(rt_model, top);
}

static struct pm_replug_bus rt_replug_bus = {
	.name		= "replug_test",
	.is_unit	= rt_is_unit,
	.rescan_point	= rt_rescan_point,
	.remove		= rt_remove,
	.rescan		= rt_rescan,
};

static bool rt_owns(const struct device *dev)
{
	return rt_is_unit((struct device *)dev);
}

/* A node keeps its number for life, and a new node gets a new one. */
static bool rt_where(const struct device *dev, char *buf, size_t len)
{
	snprintf(buf, len, "replug_test/%s", dev_name(dev));
	return true;
}

/* A swapped node is other hardware in the same place. */
static void rt_what(const struct device *dev, char *buf, size_t len)
{
	strscpy(buf, to_rt_device(dev)->identity, len);
}

static struct pm_replug_identifier rt_identifier = {
	.name	= "replug_test",
	.owns	= rt_owns,
	.where	= rt_where,
	.what	= rt_what,
};

static int rt_uevent(const struct device *dev, struct kobj_uevent_env *env)
{
	const struct rt_device *rtd = to_rt_device(dev);

	return add_uevent_var(env, "REPLUG_TEST_ID=%s", rtd->identity) ?:
	       add_uevent_var(env, "MODALIAS=replug_test:%s", rtd->identity);
}

static ssize_t identity_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", to_rt_device(dev)->identity);
}
static DEVICE_ATTR_RO(identity);

/* As real buses have it, so that an inventory tells a swapped device. */
static ssize_t modalias_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "replug_test:%s\n", to_rt_device(dev)->identity);
}
static DEVICE_ATTR_RO(modalias);

static struct attribute *rt_dev_attrs[] = {
	&dev_attr_identity.attr,
	&dev_attr_modalias.attr,
	NULL
};
ATTRIBUTE_GROUPS(rt_dev);

static const struct bus_type rt_bus = {
	.name		= "replug_test",
	.uevent		= rt_uevent,
	.dev_groups	= rt_dev_groups,
};

static int rt_probe(struct device *dev)
{
	struct rt_action *probe = &to_rt_device(dev)->probe;
	struct rt_action now = *probe;

	/* A later probe of the same device (a bind from sysfs) succeeds. */
	probe->fault.kind = RT_FAULT_OFF;
	return rt_act(dev, RT_PHASE_PROBE, &now);
}

static int rt_unplug(struct device *dev, const struct pm_intent *intent)
{
	return rt_callback(dev, RT_PHASE_UNPLUG);
}

static void rt_replugged(struct device *dev, const struct pm_intent *intent)
{
	rt_callback(dev, RT_PHASE_REPLUGGED);
}

/*
 * Classic mode saves a device's state in the time its unplug takes and
 * restores it in the time its probe takes, so that a benchmark of the
 * two modes compares like with like.
 */
static int rt_suspend(struct device *dev)
{
	return rt_run(dev, RT_PHASE_UNPLUG, false);
}

static int rt_resume(struct device *dev)
{
	return rt_run(dev, RT_PHASE_PROBE, false);
}

static const struct dev_pm_ops rt_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(rt_suspend, rt_resume)
	REPLUG_PM_OPS(rt_unplug, rt_replugged)
};

static struct device_driver rt_driver = {
	.name		= "replug_test",
	.bus		= &rt_bus,
	.owner		= THIS_MODULE,
	.probe		= rt_probe,
	.probe_type	= PROBE_PREFER_ASYNCHRONOUS,
	.pm		= &rt_pm_ops,
};

static int rt_parse_u32(const char *s, u32 min, u32 max, u32 *val)
{
	if (!s || kstrtou32(s, 10, val) || *val < min || *val > max)
		return -EINVAL;
	return 0;
}

/*
 * Parse "key=value" words into @vals, each key of @allowed at most once,
 * and note in @seen which were given.
 */
static int rt_parse_keys(char **words, int n, unsigned long allowed,
			 u32 *vals, unsigned long *seen)
{
	int i, key, shape;
	char *value;

	for (i = 0; i < n; i++) {
		value = words[i];
		strsep(&value, "=");
		for (key = 0; key < RT_NR_KEYS; key++)
			if (!strcmp(words[i], rt_keys[key].name))
				break;
		if (key == RT_NR_KEYS || !(allowed & BIT(key)) ||
		    (*seen & BIT(key)))
			return -EINVAL;
		*seen |= BIT(key);

		if (key != RT_KEY_SHAPE) {
			if (rt_parse_u32(value, rt_keys[key].min,
					 rt_keys[key].max, &vals[key]))
				return -EINVAL;
			continue;
		}
		shape = value ? match_string(rt_shape_names,
					     ARRAY_SIZE(rt_shape_names),
					     value) : -EINVAL;
		if (shape < 0)
			return -EINVAL;
		vals[key] = shape;
	}
	return 0;
}

/*
 * "off", "error=ERRNO" or "hang=MS" into @fault, which is all clear; a
 * ->replugged() cannot fail.
 */
static int rt_parse_fault(char *word, enum rt_phase phase,
			  struct rt_fault *fault)
{
	char *value = word;
	int kind;

	strsep(&value, "=");
	kind = match_string(rt_fault_names, ARRAY_SIZE(rt_fault_names), word);
	switch (kind) {
	case RT_FAULT_OFF:
		return value ? -EINVAL : 0;
	case RT_FAULT_ERROR:
		if (phase == RT_PHASE_REPLUGGED ||
		    rt_parse_u32(value, 1, MAX_ERRNO, &fault->value))
			return -EINVAL;
		break;
	case RT_FAULT_HANG:
		if (rt_parse_u32(value, 0, RT_MAX_HANG_MS, &fault->value))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	fault->kind = kind;
	fault->armed = true;
	return 0;
}

static int rt_tree_store(char **words, int n)
{
	u32 params[RT_NR_KEYS] = { [RT_KEY_FANOUT] = RT_DEFAULT_FANOUT };
	struct rt_model *model;
	unsigned long seen = 0;

	if (rt_parse_keys(words, n, RT_TREE_KEYS, params, &seen) ||
	    (seen & RT_TREE_REQUIRED) != RT_TREE_REQUIRED)
		return -EINVAL;
	if (params[RT_KEY_SHAPE] != RT_SHAPE_WIDE) {
		if (seen & BIT(RT_KEY_FANOUT))
			return -EINVAL;
		params[RT_KEY_FANOUT] = 0;
	}
	/* Chains as long as the tree unless cut: sysfs paths have a limit. */
	if (params[RT_KEY_SHAPE] != RT_SHAPE_DEEP) {
		if (seen & BIT(RT_KEY_DEPTH))
			return -EINVAL;
		params[RT_KEY_DEPTH] = 0;
	} else if (!(seen & BIT(RT_KEY_DEPTH))) {
		params[RT_KEY_DEPTH] = params[RT_KEY_COUNT];
	}
	model = rt_build(params);
	if (IS_ERR(model))
		return PTR_ERR(model);

	guard(mutex)(&rt_tree_lock);
	rt_destroy();
	guard(mutex)(&rt_lock);
	rt_model = model;
	rt_populate(model, &model->root);
	return 0;
}

static int rt_destroy_store(char **words, int n)
{
	if (n != 1 || strcmp(words[0], "1"))
		return -EINVAL;
	guard(mutex)(&rt_tree_lock);
	rt_destroy();
	return 0;
}

static int rt_fault_store(char **words, int n)
{
	struct rt_fault fault = {};
	struct rt_node *node;
	int phase;
	u32 id;

	if (n != 3 || kstrtou32(words[0], 10, &id))
		return -EINVAL;
	phase = match_string(rt_phase_names, ARRAY_SIZE(rt_phase_names),
			     words[1]);
	if (phase < 0 || rt_parse_fault(words[2], phase, &fault))
		return -EINVAL;

	guard(mutex)(&rt_lock);
	node = rt_lookup(id);
	if (!node)
		return -EINVAL;
	/* Arming again keeps the count; "off" forgets the fault. */
	if (fault.armed)
		fault.fired = node->faults[phase].fired;
	else
		rt_release_hangs();
	node->faults[phase] = fault;
	return 0;
}

enum rt_change {
	RT_CHANGE_VANISH,
	RT_CHANGE_APPEAR,
	RT_CHANGE_SWAP,
};

static const char * const rt_change_names[] = {
	[RT_CHANGE_VANISH]	= "vanish",
	[RT_CHANGE_APPEAR]	= "appear",
	[RT_CHANGE_SWAP]	= "swap",
};

/* Changes reach the devices at the next rescan, as found hardware does. */
static int rt_change_store(char **words, int n)
{
	struct rt_node *node;
	bool root;
	int change;
	u32 id;

	if (n != 2)
		return -EINVAL;
	change = match_string(rt_change_names, ARRAY_SIZE(rt_change_names),
			      words[0]);
	root = change == RT_CHANGE_APPEAR && !strcmp(words[1], "root");
	if (change < 0 || (!root && kstrtou32(words[1], 10, &id)))
		return -EINVAL;

	guard(mutex)(&rt_lock);
	if (!rt_model)
		return -EINVAL;
	node = root ? &rt_model->root : rt_lookup(id);
	if (!node)
		return -EINVAL;
	switch (change) {
	case RT_CHANGE_VANISH:
		node->present = false;
		return 0;
	case RT_CHANGE_SWAP:
		node->generation++;
		return 0;
	default:
		return PTR_ERR_OR_ZERO(rt_new_node(rt_model, node));
	}
}

static int rt_latency_store(char **words, int n)
{
	unsigned long seen = 0;
	u32 vals[RT_NR_KEYS];
	struct rt_node *node;
	u32 id;

	if (n < 2 || kstrtou32(words[0], 10, &id) ||
	    rt_parse_keys(words + 1, n - 1, RT_LATENCY_KEYS, vals, &seen))
		return -EINVAL;

	guard(mutex)(&rt_lock);
	node = rt_lookup(id);
	if (!node)
		return -EINVAL;
	if (seen & BIT(RT_KEY_UNPLUG_US))
		node->latency_us[RT_PHASE_UNPLUG] = vals[RT_KEY_UNPLUG_US];
	if (seen & BIT(RT_KEY_PROBE_US))
		node->latency_us[RT_PHASE_PROBE] = vals[RT_KEY_PROBE_US];
	return 0;
}

/*
 * Hand @store the blank-separated words of a write; one that is too long,
 * empty or has a NUL in it is refused before anything is looked at.
 */
static ssize_t rt_write(const char __user *ubuf, size_t count,
			int (*store)(char **words, int n))
{
	char *buf __free(kfree) = NULL;
	char *words[RT_MAX_WORDS];
	char *rest, *word;
	int n = 0, error;

	if (!count || count > RT_MAX_INPUT)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (strlen(buf) != count)
		return -EINVAL;

	rest = buf;
	while ((word = strsep(&rest, " \t\n"))) {
		if (!*word)
			continue;
		if (n == ARRAY_SIZE(words))
			return -EINVAL;
		words[n++] = word;
	}
	if (!n)
		return -EINVAL;
	error = store(words, n);
	if (error)
		return error;
	return count;
}

#define RT_WRITER(name)							\
static ssize_t rt_##name##_write(struct file *file,			\
				 const char __user *ubuf,		\
				 size_t count, loff_t *ppos)		\
{									\
	return rt_write(ubuf, count, rt_##name##_store);		\
}

RT_WRITER(tree)
RT_WRITER(destroy)
RT_WRITER(fault)
RT_WRITER(change)
RT_WRITER(latency)

static int rt_tree_show(struct seq_file *m, void *unused)
{
	static const u32 none[RT_NR_KEYS];
	u32 i, present = 0, bound = 0;
	const u32 *params = none;
	struct rt_device *rtd;
	int key;

	guard(mutex)(&rt_lock);
	if (rt_model) {
		params = rt_model->params;
		for (i = 0; i < rt_model->nr; i++) {
			rtd = rt_model->nodes[i]->rtd;
			if (rtd) {
				present++;
				bound += device_is_bound(&rtd->dev);
			}
		}
	}
	for (key = 0; key < RT_NR_KEYS; key++) {
		if (key == RT_KEY_SHAPE)
			seq_printf(m, " shape=%s", rt_model ?
				   rt_shape_names[params[key]] : "none");
		else
			seq_printf(m, "%s%s=%u", key ? " " : "",
				   rt_keys[key].name, params[key]);
	}
	seq_printf(m, " present=%u bound=%u\n", present, bound);
	return 0;
}
DEFINE_SHOW_STORE_ATTRIBUTE(rt_tree);

static int rt_fault_show(struct seq_file *m, void *unused)
{
	const struct rt_fault *fault;
	int phase;
	u32 i;

	guard(mutex)(&rt_lock);
	for (i = 0; rt_model && i < rt_model->nr; i++) {
		for (phase = 0; phase < RT_NR_PHASES; phase++) {
			fault = &rt_model->nodes[i]->faults[phase];
			if (fault->armed || fault->fired)
				seq_printf(m, "%u %s %s %u fired=%u\n", i,
					   rt_phase_names[phase],
					   rt_fault_names[fault->kind],
					   fault->value, fault->fired);
		}
	}
	return 0;
}
DEFINE_SHOW_STORE_ATTRIBUTE(rt_fault);

static const struct file_operations rt_destroy_fops = {
	.owner	= THIS_MODULE,
	.write	= rt_destroy_write,
	.llseek	= noop_llseek,
};

static const struct file_operations rt_change_fops = {
	.owner	= THIS_MODULE,
	.write	= rt_change_write,
	.llseek	= noop_llseek,
};

static const struct file_operations rt_latency_fops = {
	.owner	= THIS_MODULE,
	.write	= rt_latency_write,
	.llseek	= noop_llseek,
};

/* rt_lock is held from ->start() to ->stop(), so a read is consistent. */
static void *rt_nodes_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&rt_lock);
	return *pos < U32_MAX ? rt_lookup(*pos) : NULL;
}

static void *rt_nodes_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return *pos < U32_MAX ? rt_lookup(*pos) : NULL;
}

static void rt_nodes_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&rt_lock);
}

static int rt_nodes_show(struct seq_file *m, void *v)
{
	const struct rt_node *node = v;

	seq_printf(m, "%u ", node->id);
	if (node->parent == &rt_model->root)
		seq_puts(m, "- ");
	else
		seq_printf(m, "%u ", node->parent->id);
	seq_printf(m, RT_IDENTITY_FMT " present=%d device=%s\n", node->id,
		   node->generation, node->present,
		   node->rtd ? dev_name(&node->rtd->dev) : "-");
	return 0;
}

static const struct seq_operations rt_nodes_sops = {
	.start	= rt_nodes_start,
	.next	= rt_nodes_next,
	.stop	= rt_nodes_stop,
	.show	= rt_nodes_show,
};
DEFINE_SEQ_ATTRIBUTE(rt_nodes);

static void rt_debugfs_create(void)
{
	rt_debugfs = debugfs_create_dir("replug_test", NULL);
	debugfs_create_file("tree", 0600, rt_debugfs, NULL, &rt_tree_fops);
	debugfs_create_file("destroy", 0200, rt_debugfs, NULL,
			    &rt_destroy_fops);
	debugfs_create_file("fault", 0600, rt_debugfs, NULL, &rt_fault_fops);
	debugfs_create_file("change", 0200, rt_debugfs, NULL,
			    &rt_change_fops);
	debugfs_create_file("latency", 0200, rt_debugfs, NULL,
			    &rt_latency_fops);
	debugfs_create_file("nodes", 0400, rt_debugfs, NULL, &rt_nodes_fops);
}

static int __init rt_init(void)
{
	int error;

	rt_root = root_device_register("replug_test");
	if (IS_ERR(rt_root))
		return PTR_ERR(rt_root);
	error = bus_register(&rt_bus);
	if (error)
		goto unregister_root;
	error = driver_register(&rt_driver);
	if (error)
		goto unregister_bus;
	error = pm_replug_register_identifier(&rt_identifier);
	if (error)
		goto unregister_driver;
	error = pm_replug_register_bus(&rt_replug_bus);
	if (error)
		goto unregister_identifier;
	rt_debugfs_create();
	return 0;

unregister_identifier:
	pm_replug_unregister_identifier(&rt_identifier);
unregister_driver:
	driver_unregister(&rt_driver);
unregister_bus:
	bus_unregister(&rt_bus);
unregister_root:
	root_device_unregister(rt_root);
	return error;
}
module_init(rt_init);

static void __exit rt_exit(void)
{
	/* A walk held in one of our devices would hold up the unload. */
	rt_release_hangs();
	/* Waits for writers under way, so none builds a tree behind us. */
	debugfs_remove(rt_debugfs);
	scoped_guard(mutex, &rt_tree_lock)
		rt_destroy();
	pm_replug_unregister_bus(&rt_replug_bus);
	pm_replug_unregister_identifier(&rt_identifier);
	driver_unregister(&rt_driver);
	bus_unregister(&rt_bus);
	root_device_unregister(rt_root);
	wait_event(rt_all_released, !atomic_read(&rt_nr_unreleased));
}
module_exit(rt_exit);

MODULE_DESCRIPTION("A synthetic bus to test and measure replug");
MODULE_LICENSE("GPL");
