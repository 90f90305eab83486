// SPDX-License-Identifier: GPL-2.0
/*
 * replug on PCI: functions go through the PCI core's own hot-remove path
 * and come back from a rescan of the bus they were on, as they would on a
 * hotplug slot.  Bridges hold the hierarchy together and stay; whatever
 * hangs off an endpoint (USB, SCSI, block, net) goes and comes back with it.
 * A function found again is told from another card in its slot by its IDs
 * and serial number.
 */

#define pr_fmt(fmt) "PM: replug: " fmt

#include <linux/device.h>
#include <linux/init.h>
#include <linux/pci.h>
#include <linux/pm/replug.h>
#include <linux/string.h>

static bool replug_pci_is_unit(struct device *dev)
{
	return dev_is_pci(dev) &&
	       (to_pci_dev(dev)->class >> 16) != PCI_BASE_CLASS_BRIDGE;
}

/* The bridge of the function's bus: a PCI bridge or the host bridge. */
static struct device *replug_pci_rescan_point(struct device *unit)
{
	return get_device(to_pci_dev(unit)->bus->bridge);
}

static int replug_pci_remove(struct device *unit)
{
	/*
	 * The driver letting go is the slow part and may run in parallel with
	 * other units; PCI serialises the removal of the bare function.  With
	 * probing blocked, nothing binds to it in between.
	 */
	device_release_driver(unit);
	pci_stop_and_remove_bus_device_locked(to_pci_dev(unit));
	return 0;
}

static void replug_pci_rescan(struct device *point)
{
	struct pci_bus *bus;

	if (dev_is_pci(point))
		bus = to_pci_dev(point)->subordinate;
	else
		bus = to_pci_host_bridge(point)->bus;
	if (!bus)
		return;

	pci_lock_rescan_remove();
	pci_rescan_bus(bus);
	pci_unlock_rescan_remove();
}

static struct pm_replug_bus replug_pci_bus = {
	.name		= "pci",
	.is_unit	= replug_pci_is_unit,
	.rescan_point	= replug_pci_rescan_point,
	.remove		= replug_pci_remove,
	.rescan		= replug_pci_rescan,
};

static bool replug_pci_owns(const struct device *dev)
{
	return dev_is_pci(dev);
}

/* Bridges stay, so a function's address names the same slot afterwards. */
static bool replug_pci_where(const struct device *dev, char *buf, size_t len)
{
	strscpy(buf, pci_name(to_pci_dev(dev)), len);
	return true;
}

/*
 * The card's IDs, without its Device Serial Number: the DSN sits in
 * extended configuration space, which firmware that does not restore the
 * ECAM window on resume (QEMU's q35 with SeaBIOS after S3) leaves reading
 * as zeroes, so the same card would look changed after every wake.
 */
static void replug_pci_what(const struct device *dev, char *buf, size_t len)
{
	struct pci_dev *pdev = to_pci_dev(dev);

	snprintf(buf, len, "%04x:%04x %04x:%04x rev %02x class %06x",
		 pdev->vendor, pdev->device, pdev->subsystem_vendor,
		 pdev->subsystem_device, pdev->revision, pdev->class);
}

static struct pm_replug_identifier replug_pci_identifier = {
	.name	= "pci",
	.owns	= replug_pci_owns,
	.where	= replug_pci_where,
	.what	= replug_pci_what,
};

static int __init replug_pci_init(void)
{
	int error = pm_replug_register_identifier(&replug_pci_identifier);

	return error ?: pm_replug_register_bus(&replug_pci_bus);
}
late_initcall(replug_pci_init);
