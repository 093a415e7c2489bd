# Synthetic `run` reports with known distributions, for t_compare_stats:
# every run of one setup draws each row's figures around the same true
# values, times a run-to-run drift (one draw per run and row, CoV
# `drift`), times a smaller noise per repeat (CoV `noise`): repeats inside
# a run share its drift, as real repeats share a run's conditions.
#   awk -v dir=DIR -v trials=T -v runs=R -v repeats=N -v rows=K \
#       -v drift=0.02 -v noise=0.005 -v seed=S [-v change=0.10] -f compare_synth.awk
# writes DIR/tT-aR.json (the base's runs) and DIR/tT-bR.json (the new
# side's), trial T from 1, run R from 1. With change, the new side's IOPS
# of row d1 is that much lower (and nothing else changes).
function gauss(    u, v) {
	u = rand()
	v = rand()
	if (u < 1e-300)
		u = 1e-300
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v)
}

# one record's repeats: true value of each metric times drift times noise
function record(name, base, shift, f,    k, m, d, val, sep) {
	printf "{\"name\": \"%s\", \"repeats\": {\"runs\": [", name > f
	for (m = 1; m <= 5; m++)
		d[m] = exp(drift * gauss())
	for (k = 1; k <= repeats; k++) {
		printf "%s{", (k > 1 ? ", " : "") > f
		sep = ""
		for (m = 1; m <= 5; m++) {
			val = base * mult[m] * d[m] * exp(noise * gauss())
			if (m == 1)
				val *= shift
			printf "%s\"%s\": %.6f", sep, key[m], val > f
			sep = ", "
		}
		printf "}" > f
	}
	printf "]}}" > f
}

function report(f, side,    i, shift) {
	printf "{\"schema\": \"iostorm/1\", \"command\": \"run\", " > f
	printf "\"config\": {\"bs\": 4096, \"qd\": 32, \"ios\": 0, \"rate\": 0}, \"devices\": [" > f
	for (i = 1; i <= rows; i++) {
		shift = side == "b" && i == 1 ? 1 - change : 1
		record("d" i, 1000 * i, shift, f)
		printf "%s", (i < rows ? ", " : "") > f
	}
	printf "], \"total\": " > f
	record("total", 1000 * rows, 1, f)
	printf "}\n" > f
	close(f)
}

BEGIN {
	srand(seed)
	split("iops lat_mean_ns lat_p50_ns lat_p99_ns lat_p999_ns", key, " ")
	# IOPS around 1000 x the row's number, latencies in ns
	mult[1] = 100; mult[2] = 30; mult[3] = 25; mult[4] = 200; mult[5] = 600
	for (t = 1; t <= trials; t++)
		for (r = 1; r <= runs; r++) {
			report(dir "/t" t "-a" r ".json", "a")
			report(dir "/t" t "-b" r ".json", "b")
		}
}
