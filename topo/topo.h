/* Where each drive sits: PCI path, NUMA node, local cores; and where to put
 * the workers that drive it. The only module that includes hwloc or reads
 * PCI/NUMA facts from sysfs. Never prints, never exits; every call returns
 * 0, a count or -errno and writes its out-parameters only on success. */
#ifndef TOPO_TOPO_H
#define TOPO_TOPO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "topo/cpu.h"
#include "topo/sysfs.h"	/* TOPO_NAME_MAX, struct topo_link */

#define TOPO_BUSID_MAX 16	/* "0000:00:00.0" */
#define TOPO_MAX_CHAIN 16	/* bridges between a device and its host bridge */
#define TOPO_MAX_PATHS 8	/* paths of a multipath namespace kept */
#define TOPO_MAX_PATH_NODES 8	/* local NUMA nodes kept per path */

struct topo;

/* What a device without PCI locality is instead: a value (its name,
 * topo_no_pci_name, is what findings and notes carry); cli/words says it. */
enum topo_no_pci {
	TOPO_NO_PCI_UNKNOWN,		/* has PCI locality, or not known */
	TOPO_NO_PCI_FABRICS,		/* an NVMe namespace without a PCIe path */
	TOPO_NO_PCI_LOOP,
	TOPO_NO_PCI_RAM,		/* zram, brd */
	TOPO_NO_PCI_VIRTUAL,		/* another block device of devices/virtual */
	TOPO_NO_PCI_NO_FUNCTION,	/* no PCI function above it */
	TOPO_NO_PCI_FILE,		/* a file on tmpfs, overlay: no block device */
	TOPO_NO_PCI_NKINDS
};

/* One path of a native NVMe multipath namespace: the hidden block device
 * one controller of the subsystem has for it ("nvme0c1n1": subsystem 0,
 * controller nvme1, no /dev node). Controller numbers change from boot to
 * boot; bus ids do not. */
struct topo_path {
	char name[TOPO_NAME_MAX];	/* "nvme0c1n1" */
	char controller[TOPO_NAME_MAX];	/* "nvme1"; "" unknown */
	char pci[TOPO_BUSID_MAX];	/* the controller's function; "" unknown */
	char host_bridge[TOPO_BUSID_MAX];	/* "0000:40"; "" unknown */
	unsigned nnodes;		/* local NUMA nodes of the controller
					 * (OS indexes); 0: unknown */
	unsigned nodes[TOPO_MAX_PATH_NODES];
};

struct topo_dev {
	char name[TOPO_NAME_MAX];	/* user-visible: "nvme0n1", "vda", "loop3" */
	char path_name[TOPO_NAME_MAX];	/* hwloc's block device: paths[0].name
					 * for a multipath head, else = name */
	char given[256];		/* the target as given; "" when discovered */
	bool nvme;			/* under a PCI class 0x0108 function */
	bool has_pci;
	enum topo_no_pci no_pci;	/* !has_pci: what it is instead */
	char controller[TOPO_NAME_MAX];	/* "nvme0"; "" unknown */
	char model[128], serial[64], firmware[32];	/* "" unknown */
	char pci[TOPO_BUSID_MAX];	/* bus id of the function */
	char host_bridge[TOPO_BUSID_MAX];	/* "0000:80": domain:secondary bus */
	/* The root port above the device (the bridge right below the host
	 * bridge): devices with the same upstream share one link to the CPU.
	 * The host bridge's id where there is no PCI bridge in between. */
	char upstream[TOPO_BUSID_MAX];
	char port[TOPO_BUSID_MAX];	/* the bridge right above the device, "" none */
	unsigned nchain;		/* bridges from the device up, nearest first */
	char chain[TOPO_MAX_CHAIN][TOPO_BUSID_MAX];
	struct topo_link link;		/* of the device */
	struct topo_link port_link;	/* of the port above it */
	unsigned nnodes;		/* local NUMA nodes (OS indexes); 0: none */
	unsigned *nodes;
	struct topo_cpuset cpuset;	/* the local PUs, passed on as a set */
	char *cpus;			/* the same as a cpulist, for people and
					 * JSON (topo_cpuset_format); NULL: no
					 * locality (cpuset then empty) */
	unsigned ncores, npus;		/* inside the local cpuset */
	/* Native NVMe multipath: name is the head ("nvme0n1", what users
	 * open) and paths are its controllers' paths in PCI order (the first
	 * TOPO_MAX_PATHS). The PCI and sysfs fields above (pci, host_bridge,
	 * chain, link, controller, model...) are those of the first path whose
	 * function hwloc knows; nodes, cpus, ncores and npus are the union
	 * over every path, since each IO takes the path of its CPU's node
	 * (iopolicy numa, the default). npaths 0: not a multipath head (a
	 * namespace only its own controller reaches, "nvme2n1" right under
	 * nvme2, or a device that is no NVMe namespace). */
	unsigned npaths;
	struct topo_path paths[TOPO_MAX_PATHS];
	char iopolicy[16];		/* the subsystem's: "numa", "round-robin",
					 * "queue-depth"; "" unknown or no head */
};

struct topo_node {
	unsigned os_index;
	bool cpuless;			/* no CPUs of its own (HBM, CXL...) */
	unsigned cores, pus;		/* its own; 0 when cpuless */
	uint64_t memory_bytes;		/* local memory; 0 unknown */
	struct topo_cpuset cpuset;	/* the CPUs it is local to (for a
					 * CPU-less node: its neighbours') */
	char *cpus;			/* the same as a cpulist, for people */
	char *host_bridges;		/* "0000:00, 0000:40"; "" none */
};

/*
 * Loads the live machine (xml NULL) or an lstopo XML export. sysfs_root is
 * where sysfs facts (link speeds, model, serial, partitions) are read, the
 * caller's root (topo/sysfs.h: nothing here reads the environment): NULL
 * means "/sys" for the live machine and nothing for an XML export (those
 * facts are then unknown). Discovers every
 * NVMe namespace, a multipath one once, as its head with all its paths.
 * -ENOENT/-EACCES/-EISDIR: the XML file; -EINVAL: hwloc refused it.
 */
int topo_load(struct topo **out, const char *xml, const char *sysfs_root);
void topo_free(struct topo *t);
bool topo_is_live(const struct topo *t);
/* Where sysfs facts come from; NULL: nowhere (they are unknown). */
const char *topo_sysfs_root(const struct topo *t);

/* NVMe namespaces found at load, in PCI order. */
unsigned topo_ndevs(const struct topo *t);
const struct topo_dev *topo_dev(const struct topo *t, unsigned i);

/*
 * The device behind a target path: a namespace, a partition (its disk), a
 * regular file (the disk under its file system) or a loop/virtual device
 * (has_pci false, no_pci says why). On an XML export only the basename
 * is matched against the recorded block devices. The result lives as long
 * as t. A file on a file system without a block device (tmpfs, overlay)
 * is its own device without PCI. A multipath path's name ("nvme0c1n1")
 * finds its head. -ENOENT etc.: stat of the path (live);
 * -ENOENT: no such block device in the export (XML).
 */
int topo_lookup(struct topo *t, const char *path, const struct topo_dev **out);

/* Cores and PUs of the whole machine. */
void topo_counts(const struct topo *t, unsigned *cores, unsigned *pus);
unsigned topo_nnodes(const struct topo *t);
const struct topo_node *topo_node(const struct topo *t, unsigned i);
/* Index of the node with that OS index, -ENOENT when there is none. */
int topo_node_index(const struct topo *t, unsigned os_index);
/* The node with CPUs nearest to node os_index (itself when it has CPUs):
 * hwloc distances where recorded, else the first node with CPUs. */
int topo_nearest_cpu_node(const struct topo *t, unsigned os_index);

/* Host bridges (root complexes) and their root ports, for the ceiling
 * model and the root-complex finding (topo/bridges.c, docs/topo.md). */
struct topo_port {
	char busid[TOPO_BUSID_MAX];	/* the root port, "0000:40:01.1" */
	struct topo_link link;		/* its link: hwloc's gbps, sysfs's rest */
	unsigned nfunctions;		/* PCI functions below it; 0: free (an
					 * empty slot) */
	char *below;			/* their bus ids, "0000:41:00.0, ..."; "" free */
};

struct topo_host_bridge {
	char name[TOPO_BUSID_MAX];	/* domain:secondary bus, "0000:40" */
	int node;			/* NUMA node OS index; -1: unknown (the
					 * firmware does not say, or several
					 * nodes with CPUs at once) */
	unsigned nports, nfree;		/* root ports below it, free ones */
	struct topo_port *ports;	/* in bus order */
	unsigned nfunctions;		/* PCI functions right below it, no
					 * port in between (integrated) */
};

/* The host bridges in bus order: count and *out (lives as long as t). An
 * empty root port is only there when hwloc kept it: topo_load keeps every
 * bridge, and an lstopo export only has those its filter kept. */
unsigned topo_host_bridges(const struct topo *t, const struct topo_host_bridge **out);
/* The host bridge named name ("0000:40"), NULL: none. */
const struct topo_host_bridge *topo_host_bridge_find(const struct topo *t, const char *name);

/* One bridge between a device and its host bridge, with its link. */
struct topo_hop {
	char busid[TOPO_BUSID_MAX];
	struct topo_link link;		/* the link below it for a root or
					 * downstream port, the one above it
					 * for a switch's upstream port */
	bool switch_up;			/* a switch's upstream port: its link is
					 * the switch's way up, shared by every
					 * device behind it; the port above it
					 * is the other end of that link */
};

/* d's bridges, nearest first, up to its root port (as d->chain): at most
 * max into hops. Returns the count, 0 for a device without PCI or right
 * under its host bridge. A switch's upstream port is told from a
 * downstream port by its place counted from the root port (root port,
 * upstream, downstream, upstream...: PCIe switches). */
int topo_dev_hops(struct topo *t, const struct topo_dev *d, struct topo_hop *hops,
		  unsigned max);

/* Whether the CPUs are AMD's: hwloc's CPUVendor "AuthenticAMD" on a
 * Package, else on the live machine /proc/cpuinfo's vendor_id. */
bool topo_cpu_amd(const struct topo *t);

/* CPU kinds (hybrid CPUs: P and E cores, big.LITTLE): PUs hwloc groups
 * as identical (its cpukinds API, hwloc 2.4+), ranked by what a worker
 * on them can drive. What ranks them, for the whole machine at once:
 * hwloc's efficiency (higher: more performant) where it gives one for
 * every kind, else Linux's cpu_capacity (LinuxCapacity), else the highest
 * frequency (FrequencyMaxMHz); UNRANKED where none is known for every
 * kind, or there is one kind. docs/topo.md, "CPU kinds". */
enum topo_kind_basis {
	TOPO_KIND_UNRANKED,
	TOPO_KIND_EFFICIENCY,
	TOPO_KIND_CAPACITY,
	TOPO_KIND_FREQUENCY,
};

#define TOPO_KIND_NAME 32

struct topo_cpukind {
	struct topo_cpuset cpuset;	/* its PUs */
	char *cpus;			/* the same as a cpulist, for people */
	unsigned cores, pus;		/* cores with a PU of it; its PUs */
	int efficiency;			/* hwloc's, 0 the least performant;
					 * -1: hwloc could not rank */
	char core_type[TOPO_KIND_NAME];	/* "IntelCore", "IntelAtom"; "" unknown */
	unsigned freq_max_mhz;		/* 0: unknown */
	unsigned capacity;		/* LinuxCapacity (1024: the biggest
					 * core); 0: unknown */
	unsigned value;			/* the figure the basis ranks by */
	unsigned rank;			/* 0: the most performant kind; kinds
					 * the basis cannot tell apart share one */
};

/* The kinds, most performant first (rank order), count and *out (lives as
 * long as t); 0 where hwloc knows none. */
unsigned topo_cpukinds(const struct topo *t, const struct topo_cpukind **out);
enum topo_kind_basis topo_cpukind_basis(const struct topo *t);
const char *topo_kind_basis_name(enum topo_kind_basis b);
/* The index in topo_cpukinds of cpu's kind, -1 when it has none. */
int topo_cpu_kind(const struct topo *t, int cpu);
/* Whether cpu is of a less performant kind than the machine's best: a
 * ranked machine's CPU of rank > 0. */
bool topo_cpu_lesser(const struct topo *t, int cpu);

/* What a person should act on: topo states each as values, and cli/'s
 * words table says it in one sentence that says what to do. */
enum topo_finding_kind {
	TOPO_FIND_NO_NVME,	/* no NVMe namespace in the topology */
	TOPO_FIND_IMBALANCE,	/* drives per node against cores per node */
	TOPO_FIND_ROOT_COMPLEX,	/* drives on one of a node's host bridges */
	TOPO_FIND_UNKNOWN_LOCALITY,	/* drives under a host bridge of no node */
	TOPO_FIND_DEGRADED_LINK,	/* current speed/width below a maximum */
	TOPO_FIND_CPULESS_NODE,	/* local only to a node without CPUs */
	TOPO_FIND_MULTI_NODE,	/* local to several nodes at once */
	TOPO_FIND_FEW_CORES,	/* fewer local cores than local drives */
	TOPO_FIND_NO_PCI,	/* a target without a PCI device */
	TOPO_FIND_NKINDS
};

/* Which shape of its kind a finding takes. */
enum topo_finding_form {
	TOPO_FORM_PLAIN,
	TOPO_FORM_LIVE,		/* no_nvme: on the live machine, not an export */
	TOPO_FORM_NO_BRIDGE,	/* imbalance: no host bridge of the node to name */
	TOPO_FORM_SLOT,		/* degraded_link: the slot limits it (MODEL_PCIE_SLOT) */
	TOPO_FORM_PATHS_NUMA,	/* multi_node: multipath paths, iopolicy numa */
	TOPO_FORM_PATHS_OTHER,	/* multi_node: multipath paths, another iopolicy */
	TOPO_FORM_ONE_WITH_CPUS,	/* multi_node: only one of its nodes has CPUs */
};

#define TOPO_FINDING_WORDS 4	/* 256 devices: the CLI's most targets */
#define TOPO_FINDING_NUMS 8
#define TOPO_FINDING_LIST 160	/* a list: "nvme0n1, nvme1n1"; cut to fit */
#define TOPO_FINDING_HBS 8	/* host bridges one finding names */
#define TOPO_FINDING_PATHS 4	/* multipath paths one finding names */

/* A host bridge a finding names: root_complex's crowded ones (how many
 * drives, the first four's names) and those with free root ports (how
 * many, the first three's bus ids); imbalance's with free root ports. */
struct topo_finding_hb {
	char name[TOPO_BUSID_MAX];
	unsigned n;
	char list[TOPO_FINDING_LIST];
};

/* A multipath path a multi_node finding names. */
struct topo_finding_path {
	char name[TOPO_NAME_MAX];	/* its controller, else its name */
	char pci[TOPO_BUSID_MAX];	/* "" not known */
	char nodes[32];			/* "0,1"; "" not known */
	unsigned nnodes;
};

struct topo_finding {
	enum topo_finding_kind kind;
	char device[TOPO_NAME_MAX];	/* "" when about no single device */
	int node;			/* the NUMA node (OS index) it is about:
					 * imbalance's crowded node, a drive's
					 * node; -1 for none */
	char host_bridge[TOPO_BUSID_MAX];	/* the host bridge it is about
						 * (root_complex's busiest,
						 * unknown_locality's); "" for none */
	/* the devices it is about, by their index in the array topo_findings
	 * was given (bit i: devs[i]); none for a finding about no device */
	uint64_t about[TOPO_FINDING_WORDS];
	/* the values cli/words/findings_words.c says it from */
	enum topo_finding_form form;
	double num[TOPO_FINDING_NUMS];	/* the kind's figures */
	/* the devices it names, the first four, "a, b" (num says how many in
	 * all where there can be more) */
	char names[TOPO_FINDING_LIST];
	/* a value it names: nodes "0,1", a cpulist, a port, an iopolicy, the
	 * host bridges of a node, what a target without PCI is */
	char what[TOPO_FINDING_LIST];
	struct topo_finding_hb hbs[TOPO_FINDING_HBS];
	unsigned nhbs, ncrowded;	/* root_complex: hbs[0..ncrowded) are the
					 * crowded ones, the rest have free ports */
	struct topo_finding_path paths[TOPO_FINDING_PATHS];
	unsigned npaths;		/* named; num says how many in all */
	char iopolicy[16];		/* multi_node's paths: the subsystem's; ""
					 * not known */
};

/* Whether finding f is about devs[i] of the array topo_findings was given. */
static inline bool topo_finding_about(const struct topo_finding *f, unsigned i)
{
	return i < 64 * TOPO_FINDING_WORDS && (f->about[i / 64] >> (i % 64) & 1);
}

/* Findings about devs (the ones a report shows). Returns the count and a
 * malloc'd array in *out (NULL when 0), or -ENOMEM. */
int topo_findings(struct topo *t, const struct topo_dev *const *devs,
		  unsigned ndevs, struct topo_finding **out);
const char *topo_finding_kind_name(enum topo_finding_kind k);
/* "loop", "fabrics", ...: k's name; "" for TOPO_NO_PCI_UNKNOWN. */
const char *topo_no_pci_name(enum topo_no_pci k);
/* The names of kind k's figures, num[0..): NULL after the last. */
const char *const *topo_finding_num_names(enum topo_finding_kind k);

/* Placement of workers. */
enum topo_policy {
	TOPO_PLACE_LOCAL,	/* cores local to each device (default) */
	TOPO_PLACE_REMOTE,	/* the farthest node with CPUs */
	TOPO_PLACE_NONE,	/* no pinning */
};

struct topo_slot {
	int cpu;		/* PU OS index, -1: not pinned */
	int node;		/* NUMA node OS index for memory, -1: first touch */
	unsigned dev;		/* index into the paths given */
};

/* What a person should know before a run, one device at a time: the
 * kind, the device and the facts the kind needs. cli_notes_lines
 * (cli/words/notes_words.h) says each kind once, naming every device it concerns. */
enum topo_note_kind {
	TOPO_NOTE_NO_PCI,		/* what: topo_no_pci_name */
	TOPO_NOTE_CPULESS,		/* node: its CPU-less node, to: the nearest */
	TOPO_NOTE_PATHS_NUMA,		/* what: its paths' nodes ("0,1") */
	TOPO_NOTE_PATHS_SPREAD,		/* what: the nodes, where: the iopolicy */
	TOPO_NOTE_REMOTE_EVERY_PATH,	/* a path on every node with CPUs */
	TOPO_NOTE_REMOTE_NO_OTHER,	/* no other node with CPUs */
	TOPO_NOTE_REMOTE_ON,		/* node: where, dist: by hwloc distances */
	TOPO_NOTE_NOT_ALLOWED,		/* what: its cpulist, where: spread over */
	TOPO_NOTE_SHARED_CORES,		/* where, ncores, nplaces, nfree, nworkers */
	TOPO_NOTE_LESSER_KIND,		/* what, where, best, basis, value,
					 * best_value, nworkers, nplaces, given */
	TOPO_NOTE_NKINDS
};

#define TOPO_NOTE_FACT 96
struct topo_note {
	enum topo_note_kind kind;
	unsigned dev;			/* index into the paths given */
	char name[TOPO_NAME_MAX];	/* the device's */
	char what[TOPO_NOTE_FACT];
	char where[TOPO_NOTE_FACT];	/* a set of CPUs ("node 0"); PATHS_SPREAD:
					 * the iopolicy */
	unsigned node, to;
	bool dist;
	/* SHARED_CORES: where has ncores cores for nplaces workers in all
	 * (every device placed there); this device found nfree of them free
	 * for its nworkers */
	unsigned ncores, nplaces, nfree, nworkers;
	/* LESSER_KIND: nworkers of the device's nplaces workers are on CPUs
	 * (what) of a less performant CPU kind than the machine's best: where
	 * is that kind's core type, best the best kind's ("" unknown); value
	 * and best_value the figures basis ranked them by. given: the CPUs
	 * were the user's (--cpus), not placement's. */
	char best[TOPO_KIND_NAME];
	enum topo_kind_basis basis;
	unsigned value, best_value;
	bool given;
};

/* Up to TOPO_MAX_NOTES notes in the order found (ndropped: the ones past
 * that); cli/words/notes_words.h says them. */
#define TOPO_MAX_NOTES 64
#define TOPO_NOTE_LEN 200	/* a note alone as a sentence, at most */
struct topo_notes {
	unsigned n, ndropped;
	struct topo_note note[TOPO_MAX_NOTES];
};

/* "local", "remote", "none" -> 0 and *pol; -EINVAL otherwise. */
int topo_policy_parse(const char *s, enum topo_policy *pol);
const char *topo_policy_name(enum topo_policy pol);

/*
 * One slot per worker: paths[d] gets nworkers[d] consecutive slots, so
 * slots holds sum(nworkers). Physical cores first (the first PU of each
 * core, one worker per core while a core is free), SMT siblings next, then
 * round again; cores are shared across devices only when they run out.
 * Among equally loaded cores, one of the most performant CPU kind first
 * (topo_cpukinds): a free core of a lesser kind comes before a second PU
 * of a busy better one, as the scheduler does (docs/topo.md).
 * A device without PCI locality is spread over the whole machine; one
 * local to a CPU-less node goes to the nearest node with CPUs. On the
 * live machine only CPUs this process may run on are used. notes (may be
 * NULL) gets what a person should know before the run. Errors of
 * topo_lookup for a path.
 */
int topo_place(struct topo *t, enum topo_policy pol,
	       const char *const *paths, const unsigned *nworkers,
	       unsigned ndev, struct topo_slot *slots,
	       struct topo_notes *notes);

/* A device's poll queues for a polled run: the CPUs each one serves (as
 * blk-mq's mq/N/cpu_list gives them, setup_hwq's cpuset); n 0: not known. */
struct topo_pollq {
	const struct topo_cpuset *cpus;	/* n sets */
	unsigned n;
};

/*
 * LESSER_KIND notes for workers already placed (by topo_place or by the
 * user's CPU list, given): one per device of paths with a worker on a CPU
 * of a less performant kind than the machine's best (topo_cpu_lesser).
 * slots[i].dev indexes paths; a slot with cpu -1 is not pinned. Nothing
 * on a machine whose kinds are not ranked. 0, or topo_lookup's error.
 */
int topo_kind_notes(struct topo *t, const char *const *paths, unsigned ndev,
		    const struct topo_slot *slots, unsigned nslots, bool given,
		    struct topo_notes *notes);

/* topo_place for a polled run: pollq has ndev entries (NULL: none known).
 * A device's next worker goes to a free core of a poll queue that none of
 * its earlier workers uses, when the CPUs it may use hold one; else where
 * topo_place would put it. Polling workers on one poll queue share its
 * lock and its completion queue (docs/check.md, shared_poll_queue). */
int topo_place_polled(struct topo *t, enum topo_policy pol,
		      const char *const *paths, const unsigned *nworkers,
		      unsigned ndev, const struct topo_pollq *pollq,
		      struct topo_slot *slots, struct topo_notes *notes);

/* CPU lists and sets: topo/cpu.h. */

/* Whether block device dev (a disk or a partition, by number) completes
 * polled IO: its queue/io_poll, a partition's disk's. sysfs_root NULL is
 * the live machine's /sys (not $IOSTORM_SYSFS_ROOT: a device number only
 * means something on the machine it came from). Returns 1 or 0; -ENOENT
 * when sysfs has no such device, other -errno when it cannot be read. */
int topo_io_poll(const char *sysfs_root, dev_t dev);

/* Whether loop device name ("loop3") still has a backing file: 1 or 0, or
 * -errno when sysfs cannot say. sysfs_root NULL: the live /sys. */
int topo_loop_attached(const char *sysfs_root, const char *name);
/* The file system loop device name's backing file lives on, its device
 * number into *fs. The file's path is read below sysfs_root (NULL: the
 * live /sys) and its folder stat'ed on this machine: a recorded tree's
 * path means nothing here. 0, -ENOENT (not a loop device, or no file
 * attached), -EINVAL, or -errno of stat. */
int topo_loop_backing(const char *sysfs_root, const char *name, dev_t *fs);
/* The whole disk under file-system device dev, into out: "sda", also for
 * a file system on sda1; "dev MAJ:MIN" for one with no disk (tmpfs).
 * Files, and loop devices' files, with the same answer share that disk.
 * The live /sys: a device number only means something here. 0 or
 * -ENAMETOOLONG. */
int topo_disk_of(dev_t dev, char *out, size_t len);

/* The NQN of every NVMe subsystem (local drives and NVMe-oF arrays alike)
 * under sysfs_root's class/nvme-subsystem (NULL: the live /sys), sorted,
 * each once, at most max. Returns the count (0 without NVMe), or -errno
 * when the folder cannot be read. */
#define TOPO_NQN_LEN 224		/* an NQN is at most 223 bytes */
int topo_subsys_nqns(const char *sysfs_root, char (*nqn)[TOPO_NQN_LEN], unsigned max);

/* MemAvailable: what the kernel estimates can be allocated without
 * swapping. meminfo NULL is the live /proc/meminfo. Returns 0 with *bytes,
 * -ENODATA when the file has no such line (kernels before 3.14), or the
 * -errno of opening it. */
int topo_mem_available(const char *meminfo, uint64_t *bytes);

#endif
