/* model_steady on synthetic windows: flat and noisy within the band is
 * steady; one value outside the band, a slow drift inside it (the slope
 * over the window beyond pct), a step, too few values or none at all are
 * not; the figures are the window's. */
#include <math.h>

#include "model/steady.h"
#include "tests/helpers.h"

#define N 10

int main(void)
{
	struct model_steady s;
	double v[N];
	unsigned i;

	/* +-3% alternating around 1000: steady within 5%, not within 2% */
	for (i = 0; i < N; i++)
		v[i] = i % 2 ? 1030 : 970;
	CHECK(model_steady(v, N, 5, &s));
	CHECK(fabs(s.mean - 1000) < 1e-9 && fabs(s.dev_pct - 3) < 1e-9);
	CHECK(s.slope_pct < 5);
	CHECK(!model_steady(v, N, 2, &s));

	/* one second 10% off */
	v[4] = 1100;
	CHECK(!model_steady(v, N, 5, &s) && s.dev_pct > 5);

	/* a drift of 0.8% a second: within 5% of the mean everywhere, but
	 * the line falls 8% over the window */
	for (i = 0; i < N; i++)
		v[i] = 1000 - 8.0 * i;
	CHECK(!model_steady(v, N, 5, &s));
	CHECK(s.dev_pct < 5 && fabs(s.slope_pct - 100.0 * 8 * N / s.mean) < 1e-6);

	/* a step in the window */
	for (i = 0; i < N; i++)
		v[i] = i < N / 2 ? 1000 : 700;
	CHECK(!model_steady(v, N, 20, &s));

	/* flat */
	for (i = 0; i < N; i++)
		v[i] = 500;
	CHECK(model_steady(v, N, 1, &s) && s.dev_pct == 0 && s.slope_pct == 0);

	/* too few seconds, or nothing done */
	CHECK(!model_steady(v, 1, 50, &s));
	for (i = 0; i < N; i++)
		v[i] = 0;
	CHECK(!model_steady(v, N, 50, &s));
	return t_result();
}
