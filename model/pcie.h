/* PCIe link arithmetic: how many reads of bs bytes a link carries per
 * second, from its speed and width. Pure: figures in, figures out.
 * docs/ceiling.md derives every constant and gives its source. */
#ifndef MODEL_PCIE_H
#define MODEL_PCIE_H

#include <stdbool.h>

/* Max_Payload_Size when the caller does not know it: what server root
 * ports commonly program (the OS sets the smallest along the path). */
#define MODEL_PCIE_MPS_DEFAULT 256

/* Bytes around each TLP outside flit mode: 4 of framing (Gen1/2: STP and
 * END symbols and the 2-byte sequence number; Gen3-5: the STP token that
 * holds the sequence number), a 4DW header (64-bit address), 4 of LCRC. */
#define MODEL_PCIE_TLP_OVERHEAD 24
/* In flit mode framing, sequence number and LCRC move into the flit:
 * only the 4DW header is left per TLP. */
#define MODEL_PCIE_FLIT_TLP_OVERHEAD 16
/* One Ack or UpdateFC DLLP with its framing, counted once per IO outside
 * flit mode (the DLLPs acknowledging the upstream writes travel the other
 * way; these acknowledge each IO's downstream traffic). */
#define MODEL_PCIE_DLLP_BYTES 8
/* The NVMe completion queue entry the drive writes for each IO. */
#define MODEL_PCIE_NVME_CQE 16
/* A flit: 256 bytes, 242 of them TLP and DLP bytes (the data rate hwloc
 * and the PCI-SIG quote), 236 of those TLP bytes. */
#define MODEL_PCIE_FLIT_BYTES 256
#define MODEL_PCIE_FLIT_DATA 242
#define MODEL_PCIE_FLIT_TLP 236
/* From this speed on links run in flit mode (PCIe 6.0). */
#define MODEL_PCIE_FLIT_GTS 64.0

/* A link, as topo/ knows it. Speed and width when sysfs told them; else
 * data_bytes_s, the data rate after line coding over all lanes (hwloc's
 * linkspeed x 1e9: all an lstopo export records). */
struct model_pcie_link {
	double speed_gts;	/* per lane; <= 0: unknown */
	unsigned width;		/* lanes; 0: unknown */
	double data_bytes_s;	/* <= 0: unknown; unused when speed and
				 * width are known */
	unsigned mps;		/* Max_Payload_Size, bytes; 0: the default */
};

/* Whether a link at this speed runs in flit mode. */
bool model_pcie_flit(double speed_gts);
/* Data rate of one lane after line coding, bytes/s: 8b/10b below 8 GT/s,
 * 128b/130b below 64, flit (242 of 256 bytes) from 64 on. -EINVAL for a
 * speed <= 0. */
int model_pcie_lane_bytes_s(double speed_gts, double *bytes_s);
/* Bytes of data rate one read of bs bytes takes on its way up (device to
 * memory): its data in MPS-sized memory writes and its completion entry,
 * each TLP with its overhead, plus one DLLP outside flit mode. In flit
 * mode counted in the 242 data bytes of a flit. mps 0: the default.
 * -EINVAL for bs 0. */
int model_pcie_io_bytes(unsigned bs, unsigned mps, bool flit, double *bytes);
/* bs over model_pcie_io_bytes: the share of the data rate that is data. */
int model_pcie_efficiency(unsigned bs, unsigned mps, bool flit, double *eff);
/* Data rate of link l, bytes/s: speed x width after line coding, else
 * data_bytes_s. -EINVAL when neither is known. */
int model_pcie_data_bytes_s(const struct model_pcie_link *l, double *bytes_s);
/* Reads of bs bytes per second link l carries: data rate over
 * model_pcie_io_bytes. A link known only by data_bytes_s is taken as not
 * in flit mode. -EINVAL: bs 0 or the data rate unknown. */
int model_pcie_iops(const struct model_pcie_link *l, unsigned bs, double *iops);
/* The link a device able to run a trains to in a slot able to run b: the
 * lower speed and the narrower width; the lower data rate when either
 * lacks speed or width; the smaller known MPS. -EINVAL when a or b has no
 * data rate at all. */
int model_pcie_link_min(const struct model_pcie_link *a,
			const struct model_pcie_link *b,
			struct model_pcie_link *out);

/* A PCIe link as sysfs states it: its speed and width now, the most the
 * device supports and the most the port above it supports; <= 0: not
 * known. */
struct model_pcie_ends {
	double gts, max_gts, port_max_gts;
	int width, max_width, port_max_width;
};

enum model_pcie_train {
	MODEL_PCIE_FULL,	/* at the most both ends support, or a fact of
				 * the device's not known */
	MODEL_PCIE_DEGRADED,	/* below the most both ends support: the
				 * seating, a riser, a cable or an adapter */
	MODEL_PCIE_SLOT,	/* at what the port supports, below the
				 * device's maximum: the slot limits it */
};

/* The one rule for how a link trained, which topo's findings and check's
 * both follow: a link is judged against the lower of the device's and the
 * port's maximum (the device's where the port's is not known). *want_gts
 * and *want_width get that lower maximum. */
enum model_pcie_train model_pcie_judge(const struct model_pcie_ends *l, double *want_gts,
				       int *want_width);

#endif
