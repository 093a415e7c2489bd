/* PCIe link capacities against figures worked out by hand (docs/ceiling.md
 * shows the arithmetic): per generation, with 4 KiB reads and 256-byte
 * MPS, a read takes 4096 + 16 (CQE) + 17 TLPs x 24 + 8 (DLLP) = 4528
 * bytes of data rate outside flit mode, and (4096 + 16 + 17 x 16) x
 * 242/236 in flit mode. */
#include <errno.h>
#include <math.h>

#include "model/pcie.h"
#include "tests/helpers.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-9;
}

static void test_lanes(void)
{
	double v = -1;

	CHECK(!model_pcie_lane_bytes_s(2.5, &v) && near(v, 250e6));
	CHECK(!model_pcie_lane_bytes_s(5.0, &v) && near(v, 500e6));
	CHECK(!model_pcie_lane_bytes_s(8.0, &v) && near(v, 8e9 / 8 * 128 / 130));
	CHECK(!model_pcie_lane_bytes_s(16.0, &v) && near(v, 1969230769.2307692));
	CHECK(!model_pcie_lane_bytes_s(32.0, &v) && near(v, 3938461538.4615383));
	CHECK(!model_pcie_lane_bytes_s(64.0, &v) && near(v, 7.5625e9));
	v = -1;
	CHECK(model_pcie_lane_bytes_s(0, &v) == -EINVAL && v == -1);
	CHECK(model_pcie_lane_bytes_s(-8, &v) == -EINVAL);
	CHECK(model_pcie_lane_bytes_s(NAN, &v) == -EINVAL);
	CHECK(!model_pcie_flit(32.0) && model_pcie_flit(64.0));
}

static void test_io_bytes(void)
{
	double v = -1;

	CHECK(!model_pcie_io_bytes(4096, 256, false, &v) && near(v, 4528));
	CHECK(!model_pcie_io_bytes(4096, 0, false, &v) && near(v, 4528));
	CHECK(!model_pcie_io_bytes(4096, 256, true, &v) &&
	      near(v, 4384.0 * 242 / 236));
	/* 512-byte MPS: 9 TLPs */
	CHECK(!model_pcie_io_bytes(4096, 512, false, &v) &&
	      near(v, 4096 + 16 + 9 * 24 + 8));
	/* 128-byte MPS: 33 TLPs */
	CHECK(!model_pcie_io_bytes(4096, 128, false, &v) &&
	      near(v, 4096 + 16 + 33 * 24 + 8));
	/* a part TLP: 512 + 100 bytes is 3 writes of up to 256 */
	CHECK(!model_pcie_io_bytes(612, 256, false, &v) &&
	      near(v, 612 + 16 + 4 * 24 + 8));
	CHECK(!model_pcie_efficiency(4096, 256, false, &v) &&
	      near(v, 4096.0 / 4528));
	v = -1;
	CHECK(model_pcie_io_bytes(0, 256, false, &v) == -EINVAL && v == -1);
	CHECK(model_pcie_efficiency(0, 256, false, &v) == -EINVAL);
}

struct gen {
	double gts;
	unsigned width;
	double iops;	/* 4 KiB reads, MPS 256 */
};

/* data rate / 4528 (flit: / 4495.457...) */
static const struct gen gens[] = {
	{ 2.5, 1, 55212.01413427562 },
	{ 2.5, 16, 883392.2261484099 },
	{ 5.0, 1, 110424.02826855124 },
	{ 5.0, 4, 441696.11307420494 },
	{ 8.0, 1, 217450.39412883937 },
	{ 8.0, 4, 869801.5765153575 },
	{ 8.0, 16, 3479206.30606143 },
	{ 16.0, 4, 1739603.153030715 },
	{ 16.0, 16, 6958412.61212286 },
	{ 32.0, 4, 3479206.30606143 },
	{ 32.0, 16, 13916825.22424572 },
	{ 64.0, 1, 1682253.6496350365 },
	{ 64.0, 4, 6729014.598540146 },
	{ 64.0, 16, 26916058.394160584 },
};

static void test_generations(void)
{
	struct model_pcie_link l = { 0 };
	double iops;
	unsigned i;

	for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
		l.speed_gts = gens[i].gts;
		l.width = gens[i].width;
		iops = -1;
		CHECKF(!model_pcie_iops(&l, 4096, &iops) && near(iops, gens[i].iops),
		       "%.1f GT/s x%u: %.3f, want %.3f", gens[i].gts,
		       gens[i].width, iops, gens[i].iops);
	}
}

/* An lstopo export gives hwloc's linkspeed only: 7.88 GB/s for Gen4 x4
 * (the rounded figure), which is not taken as flit mode. */
static void test_data_rate_only(void)
{
	struct model_pcie_link l = { .data_bytes_s = 7.88e9 };
	double v = -1;

	CHECK(!model_pcie_data_bytes_s(&l, &v) && near(v, 7.88e9));
	CHECK(!model_pcie_iops(&l, 4096, &v) && near(v, 7.88e9 / 4528));
	/* speed and width win over the data rate */
	l.speed_gts = 8.0;
	l.width = 4;
	CHECK(!model_pcie_iops(&l, 4096, &v) && near(v, 869801.5765153575));
	l = (struct model_pcie_link){ .speed_gts = 8.0 };	/* no width */
	v = -1;
	CHECK(model_pcie_iops(&l, 4096, &v) == -EINVAL && v == -1);
	l = (struct model_pcie_link){ .width = 4 };
	CHECK(model_pcie_data_bytes_s(&l, &v) == -EINVAL);
	l.speed_gts = 8.0;
	CHECK(model_pcie_iops(&l, 0, &v) == -EINVAL);
}

static void test_link_min(void)
{
	struct model_pcie_link gen5x4 = { 32.0, 4, 0, 512 };
	struct model_pcie_link gen3x16 = { 8.0, 16, 0, 256 };
	struct model_pcie_link rate = { .data_bytes_s = 2e9 };
	struct model_pcie_link none = { 0 };
	struct model_pcie_link out = { 0 };
	double v;

	CHECK(!model_pcie_link_min(&gen5x4, &gen3x16, &out));
	CHECK(out.speed_gts == 8.0 && out.width == 4 && out.mps == 256);
	CHECK(!model_pcie_iops(&out, 4096, &v) && near(v, 869801.5765153575));
	CHECK(!model_pcie_link_min(&gen5x4, &rate, &out));
	CHECK(out.width == 0 && near(out.data_bytes_s, 2e9) && out.mps == 512);
	out.width = 99;
	CHECK(model_pcie_link_min(&gen5x4, &none, &out) == -EINVAL);
	CHECK(out.width == 99);
}

/* The one rule for a link's training: against the lower of the device's
 * and the port's maximum; a port's maximum not known leaves the device's. */
static void test_judge(void)
{
	struct model_pcie_ends e = { 8, 16, -1, 4, 4, -1 };
	double gts;
	int w;

	CHECK(model_pcie_judge(&e, &gts, &w) == MODEL_PCIE_DEGRADED && gts == 16 && w == 4);
	e.port_max_gts = 8;	/* the slot runs at most 8 GT/s: at it */
	CHECK(model_pcie_judge(&e, &gts, &w) == MODEL_PCIE_SLOT && gts == 8 && w == 4);
	e.width = 2;		/* and half the width the slot has */
	CHECK(model_pcie_judge(&e, &gts, &w) == MODEL_PCIE_DEGRADED && gts == 8 && w == 4);
	e.port_max_width = 2;	/* an x2 slot */
	CHECK(model_pcie_judge(&e, &gts, &w) == MODEL_PCIE_SLOT && gts == 8 && w == 2);
	e = (struct model_pcie_ends){ 16, 16, 8, 4, 4, 2 };	/* at the drive's most */
	CHECK(model_pcie_judge(&e, &gts, &w) == MODEL_PCIE_FULL);
	e = (struct model_pcie_ends){ 8, -1, -1, 4, 4, -1 };	/* its maximum not known */
	CHECK(model_pcie_judge(&e, &gts, &w) == MODEL_PCIE_FULL);
}

int main(void)
{
	test_lanes();
	test_io_bytes();
	test_generations();
	test_data_rate_only();
	test_link_min();
	test_judge();
	return t_result();
}
