/* One device's facts: PCI function, bridges up to the host bridge, link,
 * NUMA locality, and what sysfs or the XML export says about the drive. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo/topo_int.h"

static void link_unknown(struct topo_link *l)
{
	l->gbps = -1;
	l->speed_gts = l->max_speed_gts = -1;
	l->width = l->max_width = -1;
}

static void busid_str(char *out, size_t len, const struct hwloc_pcidev_attr_s *p)
{
	snprintf(out, len, "%04x:%02x:%02x.%01x", p->domain, p->bus, p->dev, p->func);
}

/* The bus id of a PCI function: "0000:41:00.0". */
void topo_busid(hwloc_obj_t pci, char *out, size_t len)
{
	busid_str(out, len, &pci->attr->pcidev);
}

/* The host bridge above a PCI function, as domain:secondary bus ("0000:40");
 * "" when hwloc shows none. */
void topo_host_bridge(hwloc_obj_t pci, char *out, size_t len)
{
	hwloc_obj_t b;

	out[0] = '\0';
	for (b = pci->parent; b && b->type == HWLOC_OBJ_BRIDGE; b = b->parent)
		if (b->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
			snprintf(out, len, "%04x:%02x", b->attr->bridge.downstream.pci.domain,
				 b->attr->bridge.downstream.pci.secondary_bus);
			return;
		}
}

/* d's local nodes and PUs are these sets (replacing what d had). */
int topo_dev_set_locality(struct topo *t, struct topo_dev *d, hwloc_const_cpuset_t cpus,
			  hwloc_const_nodeset_t nodes)
{
	unsigned n = 0;
	int i, ret;

	free(d->nodes);
	free(d->cpus);
	d->cpus = NULL;
	topo_cpuset_zero(&d->cpuset);
	d->nnodes = d->ncores = d->npus = 0;
	d->nodes = calloc((size_t)hwloc_bitmap_weight(nodes) + 1, sizeof(*d->nodes));
	if (!d->nodes)
		return -ENOMEM;
	hwloc_bitmap_foreach_begin(i, nodes)
		d->nodes[n++] = (unsigned)i;
	hwloc_bitmap_foreach_end();
	d->nnodes = n;
	ret = topo_cpuset_from_hwloc(cpus, &d->cpuset);
	if (!ret)
		ret = topo_cpuset_asprintf(&d->cpuset, &d->cpus);
	if (ret)
		return ret;
	d->ncores = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, cpus, HWLOC_OBJ_CORE);
	d->npus = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, cpus, HWLOC_OBJ_PU);
	return 0;
}

static int set_locality(struct topo *t, struct topo_dev *d, hwloc_obj_t io)
{
	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t->h, io);

	if (!anc)
		return 0;
	return topo_dev_set_locality(t, d, anc->cpuset, anc->nodeset);
}

static void set_pci_path(struct topo_dev *d, hwloc_obj_t pci)
{
	hwloc_obj_t b;

	d->has_pci = true;
	d->nvme = pci->attr->pcidev.class_id == 0x0108;
	busid_str(d->pci, sizeof(d->pci), &pci->attr->pcidev);
	if (pci->attr->pcidev.linkspeed > 0)
		d->link.gbps = pci->attr->pcidev.linkspeed;
	for (b = pci->parent; b && b->type == HWLOC_OBJ_BRIDGE; b = b->parent) {
		struct hwloc_bridge_attr_s *ba = &b->attr->bridge;

		if (ba->upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
			snprintf(d->host_bridge, sizeof(d->host_bridge), "%04x:%02x",
				 ba->downstream.pci.domain, ba->downstream.pci.secondary_bus);
			break;
		}
		if (d->nchain < TOPO_MAX_CHAIN)
			busid_str(d->chain[d->nchain++], TOPO_BUSID_MAX, &ba->upstream.pci);
		if (!d->port[0]) {
			busid_str(d->port, sizeof(d->port), &ba->upstream.pci);
			if (ba->upstream.pci.linkspeed > 0)
				d->port_link.gbps = ba->upstream.pci.linkspeed;
		}
	}
	if (d->nchain)
		topo_copy_str(d->upstream, sizeof(d->upstream), d->chain[d->nchain - 1]);
	else
		topo_copy_str(d->upstream, sizeof(d->upstream), d->host_bridge);
}

static void set_sysfs_facts(struct topo *t, struct topo_dev *d, hwloc_obj_t osdev)
{
	char buf[PATH_MAX];
	const char *s;

	if (!topo_sys_realpath(t->sysfs, buf, "class/block/%s/device", d->path_name)) {
		const char *base = strrchr(buf, '/');

		base = base ? base + 1 : buf;
		if (!strncmp(base, "nvme", 4))
			topo_copy_str(d->controller, sizeof(d->controller), base);
	}
	if (!topo_sys_read(t->sysfs, buf, sizeof(buf), "class/block/%s/device/model", d->path_name))
		topo_copy_str(d->model, sizeof(d->model), buf);
	if (!topo_sys_read(t->sysfs, buf, sizeof(buf), "class/block/%s/device/serial", d->path_name))
		topo_copy_str(d->serial, sizeof(d->serial), buf);
	else if (!topo_sys_read(t->sysfs, buf, sizeof(buf), "class/block/%s/serial", d->path_name))
		topo_copy_str(d->serial, sizeof(d->serial), buf);	/* virtio-blk */
	if (!topo_sys_read(t->sysfs, buf, sizeof(buf), "class/block/%s/device/firmware_rev", d->path_name))
		topo_copy_str(d->firmware, sizeof(d->firmware), buf);
	if (d->has_pci) {
		topo_sys_link(t->sysfs, d->pci, &d->link);
		topo_sys_link(t->sysfs, d->port, &d->port_link);
	}
	/* an XML export keeps what udev said when it was taken */
	if (osdev) {
		if (!d->model[0] && (s = hwloc_obj_get_info_by_name(osdev, "Model")))
			topo_copy_str(d->model, sizeof(d->model), s);
		if (!d->serial[0] && (s = hwloc_obj_get_info_by_name(osdev, "SerialNumber")))
			topo_copy_str(d->serial, sizeof(d->serial), s);
	}
	if (!d->controller[0] && d->nvme) {
		unsigned c;

		/* nvme<ctrl>n<ns>, or nvme<subsys>c<ctrl>n<ns> for a path */
		if (sscanf(d->path_name, "nvme%*uc%un", &c) == 1 ||
		    sscanf(d->path_name, "nvme%un", &c) == 1)
			snprintf(d->controller, sizeof(d->controller), "nvme%u", c);
	}
}

struct topo_dev *topo_dev_new(const char *name, const char *path_name)
{
	struct topo_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	topo_copy_str(d->name, sizeof(d->name), name);
	topo_copy_str(d->path_name, sizeof(d->path_name), path_name);
	link_unknown(&d->link);
	link_unknown(&d->port_link);
	return d;
}

void topo_dev_free(struct topo_dev *d)
{
	if (!d)
		return;
	free(d->nodes);
	free(d->cpus);
	free(d);
}

/* The PCI function above an I/O object, NULL: none. */
hwloc_obj_t topo_pci_parent(hwloc_obj_t o)
{
	for (o = o->parent; o && hwloc_obj_type_is_io(o->type); o = o->parent)
		if (o->type == HWLOC_OBJ_PCI_DEVICE)
			return o;
	return NULL;
}

/* A device from hwloc's Block OS device (osdev) and/or a PCI function. */
int topo_dev_from_hwloc(struct topo *t, const char *name, hwloc_obj_t osdev,
			hwloc_obj_t pci, struct topo_dev **out)
{
	return topo_dev_from_path(t, name, osdev ? osdev->name : name, osdev, pci, out);
}

/* The same, when the block device sysfs knows it by (path_name: a
 * multipath path) is not hwloc's osdev, or there is no osdev. */
int topo_dev_from_path(struct topo *t, const char *name, const char *path_name,
		       hwloc_obj_t osdev, hwloc_obj_t pci, struct topo_dev **out)
{
	struct topo_dev *d = topo_dev_new(name, path_name);
	int ret;

	if (!d)
		return -ENOMEM;
	if (osdev && !pci)
		pci = topo_pci_parent(osdev);
	if (pci)
		set_pci_path(d, pci);
	else
		d->no_pci = TOPO_NO_PCI_NO_FUNCTION;
	ret = set_locality(t, d, osdev ? osdev : pci);
	if (ret) {
		topo_dev_free(d);
		return ret;
	}
	set_sysfs_facts(t, d, osdev);
	*out = d;
	return 0;
}
