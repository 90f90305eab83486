// SPDX-License-Identifier: GPL-2.0
/*
 * Who a USB device is, for replug: the port it is plugged into and what
 * its descriptors and serial number say of it.
 *
 * A replug takes a USB device away with the unit above it (its host
 * controller, or a hub) and the hub driver finds it again on the port.
 * Its bus number and address are handed out anew, so neither names it:
 * the chain of ports from the root hub down does, and the controller
 * above the root hub names its own place.
 */

#include <linux/pm/replug.h>
#include <linux/usb.h>

#include "usb.h"

/* USB devices only: an interface is part of its device's hardware. */
static bool usb_replug_owns(const struct device *dev)
{
	return is_usb_device(dev);
}

/*
 * The root hubs of one controller (an xHCI's USB 2 and USB 3 halves) sit
 * in the same place, so their speed tells them, and the ports below them,
 * apart.
 */
static bool usb_replug_where(const struct device *dev, char *buf, size_t len)
{
	const struct usb_device *udev = to_usb_device(dev);

	if (udev->parent)
		snprintf(buf, len, "port %d", udev->portnum);
	else
		snprintf(buf, len, "root hub %s", usb_speed_string(udev->speed));
	return false;
}

/*
 * The device descriptor says what the device is (vendor, product, release,
 * class, configurations); a release that differs is a firmware update
 * behind the user's back.  A serial number, where the device has one,
 * tells two sticks of one make apart.
 */
static void usb_replug_what(const struct device *dev, char *buf, size_t len)
{
	const struct usb_device *udev = to_usb_device(dev);

	snprintf(buf, len, "%*phN serial %s", (int)sizeof(udev->descriptor),
		 &udev->descriptor, udev->serial ?: "");
}

static struct pm_replug_identifier usb_replug_identifier = {
	.name	= "usb",
	.owns	= usb_replug_owns,
	.where	= usb_replug_where,
	.what	= usb_replug_what,
};

int __init usb_replug_init(void)
{
	return pm_replug_register_identifier(&usb_replug_identifier);
}

void usb_replug_exit(void)
{
	pm_replug_unregister_identifier(&usb_replug_identifier);
}
