/* model_drop_find on synthetic per-second series: a clean step is named at
 * its second with the means of each side; noise without a step, a single
 * slow second, a slow ramp, a rise and a step smaller than the noise are
 * not; too short a series has no drop. */
#include "model/drop.h"
#include "tests/helpers.h"

#define N 40

/* deterministic noise in [-a, a] */
static double noise(unsigned *seed, double a)
{
	*seed = *seed * 1103515245u + 12345u;
	return a * (2.0 * ((*seed >> 16) & 0x7fff) / 32767.0 - 1.0);
}

int main(void)
{
	struct model_drop d;
	double v[N];
	unsigned i, seed = 7;

	/* a clean step at second 25: 100k with 1% noise, then 60k */
	for (i = 0; i < N; i++)
		v[i] = (i < 25 ? 100000 : 60000) + noise(&seed, 1000);
	CHECK(model_drop_find(v, N, &d));
	CHECK(d.at == 25);
	CHECK(d.before > 99000 && d.before < 101000);
	CHECK(d.after > 59000 && d.after < 61000);
	CHECK(d.fall_pct > 39 && d.fall_pct < 41);

	/* the step as early and as late as a side allows */
	for (i = 0; i < N; i++)
		v[i] = i < MODEL_DROP_MIN_S ? 100000 : 50000;
	CHECK(model_drop_find(v, N, &d) && d.at == MODEL_DROP_MIN_S);
	for (i = 0; i < N; i++)
		v[i] = i < N - MODEL_DROP_MIN_S ? 100000 : 50000;
	CHECK(model_drop_find(v, N, &d) && d.at == N - MODEL_DROP_MIN_S);

	/* noise without a step: +-10% */
	for (i = 0; i < N; i++)
		v[i] = 100000 + noise(&seed, 10000);
	CHECK(!model_drop_find(v, N, &d));

	/* a single slow second in a flat run, anywhere */
	for (unsigned at = 0; at < N; at++) {
		for (i = 0; i < N; i++)
			v[i] = 100000 + noise(&seed, 500);
		v[at] = 5000;
		CHECK(!model_drop_find(v, N, &d));
	}

	/* a slow ramp down from 100k to 50k */
	for (i = 0; i < N; i++)
		v[i] = 100000 - 50000.0 * i / (N - 1);
	CHECK(!model_drop_find(v, N, &d));

	/* a step up is no drop */
	for (i = 0; i < N; i++)
		v[i] = i < 20 ? 50000 : 100000;
	CHECK(!model_drop_find(v, N, &d));

	/* a clean step under MODEL_DROP_MIN_PCT */
	for (i = 0; i < N; i++)
		v[i] = i < 20 ? 100000 : 95000;
	CHECK(!model_drop_find(v, N, &d));

	/* a step of 3 standard deviations of its sides' noise */
	for (i = 0; i < N; i++)
		v[i] = (i < 20 ? 100000 : 70000) + (i % 2 ? 10000 : -10000);
	CHECK(!model_drop_find(v, N, &d));

	/* a fall of 2 standard deviations of the noisy side before it, the
	 * side after it flat */
	for (i = 0; i < N; i++)
		v[i] = i < 20 ? 100000 + (i % 2 ? 15000 : -15000) : 70000;
	CHECK(!model_drop_find(v, N, &d));

	/* one fast first second (a cache warming up) alone is no side */
	for (i = 0; i < N; i++)
		v[i] = i ? 100000 : 200000;
	CHECK(!model_drop_find(v, N, &d));

	/* too short: both sides cannot have their seconds */
	for (i = 0; i < 2 * MODEL_DROP_MIN_S - 1; i++)
		v[i] = i < MODEL_DROP_MIN_S ? 100000 : 10000;
	CHECK(!model_drop_find(v, 2 * MODEL_DROP_MIN_S - 1, &d));
	v[2 * MODEL_DROP_MIN_S - 1] = 10000;
	CHECK(model_drop_find(v, 2 * MODEL_DROP_MIN_S, &d) && d.at == MODEL_DROP_MIN_S);
	return t_result();
}
