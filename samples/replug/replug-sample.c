// SPDX-License-Identifier: GPL-2.0
/*
 * A driver written for replug: it implements ->unplug() and ->replugged()
 * and logs the intent it is given, so that a transition can be followed
 * from the driver's side.  It binds QEMU's standard VGA function, which
 * no other driver in the test kernel claims.
 *
 * When replug keeps the device in place (power/replug set to "keep"), the
 * classic callbacks run instead, and the driver logs the intent they find
 * with dev_pm_intent(); so does ->shutdown().
 *
 * refuse_unplug=ERRNO makes ->unplug() refuse with -ERRNO, to exercise
 * the rollback of a transition.  The function is declared able to wake
 * the system, so that enabling its power/wakeup shows a driver asking to
 * stay in place while its wakeup is armed.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/pm.h>
#include <linux/pm/intent.h>
#include <linux/pm_wakeup.h>

static int refuse_unplug;
module_param(refuse_unplug, int, 0644);
MODULE_PARM_DESC(refuse_unplug, "refuse ->unplug() with this errno (0: accept)");

static void replug_sample_log(struct device *dev, const char *what,
			      const struct pm_intent *intent)
{
	if (!intent) {
		dev_info(dev, "%s: no intent\n", what);
		return;
	}
	dev_info(dev, "%s: transition=%s state=%s phase=%s test=%s power_lost=%d firmware_reinit=%d kernel_resumes=%d wakeup_armed=%d cycle=%llu mode=%s\n",
		 what, pm_transition_name(intent->transition),
		 pm_intent_suspend_state_name(intent->suspend_state),
		 pm_hibernate_phase_name(intent->hibernate_phase),
		 pm_intent_test_name(intent->test), intent->power_lost,
		 intent->firmware_reinit, intent->kernel_resumes,
		 intent->wakeup_armed, intent->cycle,
		 intent->transition == PM_TRANSITION_HIBERNATE ?
		 pm_hibernate_mode_name(intent->hibernate_mode) : "none");
}

static int replug_sample_unplug(struct device *dev,
				const struct pm_intent *intent)
{
	int refuse = READ_ONCE(refuse_unplug);

	replug_sample_log(dev, "unplug", intent);
	if (refuse > 0 && refuse < MAX_ERRNO) {
		dev_info(dev, "refusing to unplug: %pe\n", ERR_PTR(-refuse));
		return -refuse;
	}
	/* Removed, it could not wake the system: stay while armed. */
	return intent->wakeup_armed && device_may_wakeup(dev);
}

static void replug_sample_replugged(struct device *dev,
				    const struct pm_intent *intent)
{
	replug_sample_log(dev, "replugged", intent);
}

/*
 * A kept device goes through the classic callbacks, which learn from the
 * intent what the pm_message_t cannot tell them: which hibernation phase,
 * whether power goes, whether this kernel comes back.
 */
#define REPLUG_SAMPLE_CLASSIC(callback)					\
static int replug_sample_##callback(struct device *dev)			\
{									\
	replug_sample_log(dev, #callback, dev_pm_intent(dev));		\
	return 0;							\
}

REPLUG_SAMPLE_CLASSIC(suspend)
REPLUG_SAMPLE_CLASSIC(resume)
REPLUG_SAMPLE_CLASSIC(freeze)
REPLUG_SAMPLE_CLASSIC(thaw)
REPLUG_SAMPLE_CLASSIC(poweroff)
REPLUG_SAMPLE_CLASSIC(restore)

static const struct dev_pm_ops replug_sample_pm_ops = {
	REPLUG_PM_OPS(replug_sample_unplug, replug_sample_replugged)
	.suspend	= replug_sample_suspend,
	.resume		= replug_sample_resume,
	.freeze		= replug_sample_freeze,
	.thaw		= replug_sample_thaw,
	.poweroff	= replug_sample_poweroff,
	.restore	= replug_sample_restore,
};

static int replug_sample_probe(struct pci_dev *pdev,
			       const struct pci_device_id *id)
{
	device_set_wakeup_capable(&pdev->dev, true);
	dev_info(&pdev->dev, "probed\n");
	return 0;
}

static void replug_sample_remove(struct pci_dev *pdev)
{
	dev_info(&pdev->dev, "removed\n");
}

static void replug_sample_shutdown(struct pci_dev *pdev)
{
	replug_sample_log(&pdev->dev, "shutdown", dev_pm_intent(&pdev->dev));
}

static const struct pci_device_id replug_sample_ids[] = {
	{ PCI_DEVICE(0x1234, 0x1111) },	/* QEMU standard VGA */
	{ }
};
MODULE_DEVICE_TABLE(pci, replug_sample_ids);

static struct pci_driver replug_sample_driver = {
	.name		= "replug_sample",
	.id_table	= replug_sample_ids,
	.probe		= replug_sample_probe,
	.remove		= replug_sample_remove,
	.shutdown	= replug_sample_shutdown,
	.driver.pm	= &replug_sample_pm_ops,
};
module_pci_driver(replug_sample_driver);

MODULE_DESCRIPTION("A sample driver for replug's unplug and replugged callbacks");
MODULE_LICENSE("GPL");
