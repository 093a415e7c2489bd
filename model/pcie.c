/* PCIe link rates and the share of them a read's data gets. */
#include "model/pcie.h"

#include <errno.h>

bool model_pcie_flit(double speed_gts)
{
	return speed_gts >= MODEL_PCIE_FLIT_GTS;
}

int model_pcie_lane_bytes_s(double speed_gts, double *bytes_s)
{
	double bits = speed_gts * 1e9;	/* one bit per transfer a lane */

	if (!(speed_gts > 0))
		return -EINVAL;
	if (speed_gts < 8.0)
		*bytes_s = bits * 8.0 / 10.0 / 8.0;
	else if (!model_pcie_flit(speed_gts))
		*bytes_s = bits * 128.0 / 130.0 / 8.0;
	else	/* PAM4 sends 2 bits a symbol, yet 64 GT/s is counted in bits */
		*bytes_s = bits / 8.0 * MODEL_PCIE_FLIT_DATA / MODEL_PCIE_FLIT_BYTES;
	return 0;
}

int model_pcie_io_bytes(unsigned bs, unsigned mps, bool flit, double *bytes)
{
	unsigned long long ntlp;
	double tlp_bytes;

	if (!bs)
		return -EINVAL;
	if (!mps)
		mps = MODEL_PCIE_MPS_DEFAULT;
	/* the data's writes, then the completion entry's */
	ntlp = ((unsigned long long)bs + mps - 1) / mps + 1;
	tlp_bytes = (double)bs + MODEL_PCIE_NVME_CQE;
	if (flit) {
		tlp_bytes += (double)ntlp * MODEL_PCIE_FLIT_TLP_OVERHEAD;
		/* the data rate counts 242 bytes a flit; TLPs get 236 */
		*bytes = tlp_bytes * MODEL_PCIE_FLIT_DATA / MODEL_PCIE_FLIT_TLP;
	} else {
		*bytes = tlp_bytes + (double)ntlp * MODEL_PCIE_TLP_OVERHEAD +
			 MODEL_PCIE_DLLP_BYTES;
	}
	return 0;
}

int model_pcie_efficiency(unsigned bs, unsigned mps, bool flit, double *eff)
{
	double io;
	int ret = model_pcie_io_bytes(bs, mps, flit, &io);

	if (ret)
		return ret;
	*eff = bs / io;
	return 0;
}

static bool has_lanes(const struct model_pcie_link *l)
{
	return l->speed_gts > 0 && l->width > 0;
}

int model_pcie_data_bytes_s(const struct model_pcie_link *l, double *bytes_s)
{
	double lane;

	if (has_lanes(l)) {
		model_pcie_lane_bytes_s(l->speed_gts, &lane);
		*bytes_s = lane * l->width;
		return 0;
	}
	if (l->data_bytes_s > 0) {
		*bytes_s = l->data_bytes_s;
		return 0;
	}
	return -EINVAL;
}

int model_pcie_iops(const struct model_pcie_link *l, unsigned bs, double *iops)
{
	double rate, io;
	int ret;

	ret = model_pcie_data_bytes_s(l, &rate);
	if (ret)
		return ret;
	ret = model_pcie_io_bytes(bs, l->mps,
				  has_lanes(l) && model_pcie_flit(l->speed_gts), &io);
	if (ret)
		return ret;
	*iops = rate / io;
	return 0;
}

static unsigned min_mps(unsigned a, unsigned b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

enum model_pcie_train model_pcie_judge(const struct model_pcie_ends *l, double *want_gts,
				       int *want_width)
{
	*want_gts = l->max_gts;
	*want_width = l->max_width;
	if (l->gts <= 0 || l->width <= 0 || l->max_gts <= 0 || l->max_width <= 0)
		return MODEL_PCIE_FULL;
	if (l->gts >= l->max_gts && l->width >= l->max_width)
		return MODEL_PCIE_FULL;
	/* what both ends of the link support */
	if (l->port_max_gts > 0 && l->port_max_gts < *want_gts)
		*want_gts = l->port_max_gts;
	if (l->port_max_width > 0 && l->port_max_width < *want_width)
		*want_width = l->port_max_width;
	return l->gts < *want_gts || l->width < *want_width ? MODEL_PCIE_DEGRADED : MODEL_PCIE_SLOT;
}

int model_pcie_link_min(const struct model_pcie_link *a,
			const struct model_pcie_link *b,
			struct model_pcie_link *out)
{
	struct model_pcie_link m = { 0, 0, 0, min_mps(a->mps, b->mps) };
	double ra, rb;

	if (model_pcie_data_bytes_s(a, &ra) || model_pcie_data_bytes_s(b, &rb))
		return -EINVAL;
	if (has_lanes(a) && has_lanes(b)) {
		m.speed_gts = a->speed_gts < b->speed_gts ? a->speed_gts : b->speed_gts;
		m.width = a->width < b->width ? a->width : b->width;
	} else {
		m.data_bytes_s = ra < rb ? ra : rb;
	}
	*out = m;
	return 0;
}
