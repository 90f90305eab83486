/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM replug

#if !defined(_TRACE_REPLUG_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_REPLUG_H

#include <linux/device.h>
#include <linux/pm/intent.h>
#include <linux/tracepoint.h>

/*
 * What replug did with one device in one cycle: "unplug" (its ->unplug()
 * accepted the intent), "remove" (its PCI function was hot-removed),
 * "keep" (it stayed and was told the transition is over), "replug" (it
 * came back and its driver is bound).
 */
TRACE_EVENT(replug_device,

	TP_PROTO(struct device *dev, const struct pm_intent *intent,
		 const char *action),

	TP_ARGS(dev, intent, action),

	TP_STRUCT__entry(
		__string(device, dev_name(dev))
		__string(driver, dev_driver_string(dev))
		__string(action, action)
		__field(u64, cycle)
		__field(int, transition)
	),

	TP_fast_assign(
		__assign_str(device);
		__assign_str(driver);
		__assign_str(action);
		__entry->cycle = intent->cycle;
		__entry->transition = intent->transition;
	),

	TP_printk("%s %s %s cycle=%llu transition=%s", __get_str(action),
		  __get_str(driver), __get_str(device), __entry->cycle,
		  pm_transition_name(__entry->transition))
);

#endif /* _TRACE_REPLUG_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
