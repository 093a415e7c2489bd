#!/bin/bash
# make bench: iostorm against fio (io_uring with its best options), side by
# side in one run, pinned to the same core, on the same targets:
#  (a) 4K random reads at QD32 from a 16 MiB file in the page cache
#      (--buffered / direct=0): the engine's CPU cost per IO, and what timing
#      every IO costs (iostorm --no-latency). The file is small on purpose:
#      once it fits in the CPU caches the kernel's copy stops dominating and
#      what is left to compare is the engines' own cost per IO;
#  (b) a loop device over a /dev/shm file with O_DIRECT at QD1 and QD32.
# Each pair runs alternately REPS times; the table shows medians, and the
# ratios are medians of each round's ratio (the machine's drift cancels).
# Latency: iostorm times submission to completion; so does fio's total
# "lat" (lat_percentiles=1), which is what QD1 p50 is compared with; fio's
# clat (which leaves out the submit call) is shown beside it.
# Env: IOSTORM (binary), BENCH_CPU (core, default the last one), BENCH_TIME
# (seconds per run, default 3), BENCH_REPS (default 5), BENCH_DIR (/var/tmp),
# BENCH_A_MIB (size of the page-cache file, default 16),
# BENCH_KEEP=1 keeps the JSON files.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IOSTORM=${IOSTORM:-$root/iostorm}
cpu=${BENCH_CPU:-$(($(nproc) - 1))}
secs=${BENCH_TIME:-3}
reps=${BENCH_REPS:-5}
dir=${BENCH_DIR:-/var/tmp}
size_mib=1024
a_mib=${BENCH_A_MIB:-16}

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$IOSTORM" ] || die "no iostorm binary at $IOSTORM (run make)"
command -v fio >/dev/null || die "fio is not installed (apt-get install fio)"
command -v python3 >/dev/null || die "python3 is not installed"
[ "$(id -u)" -eq 0 ] || die "needs root (loop device)"

work=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-bench.XXXXXX")
file="" shm="" loop=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$shm" ] && rm -f "$shm"
	[ -n "$file" ] && rm -f "$file"
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "JSON kept in $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fill() {	# real bytes: unwritten extents would read as zeros without IO
	head -c "$(($2 << 20))" /dev/urandom >"$1"
}

file=$(mktemp "$dir/iostorm-bench.XXXXXX")
shm=$(mktemp /dev/shm/iostorm-bench.XXXXXX)
echo "preparing a ${a_mib} MiB file in $dir and a ${size_mib} MiB loop device on /dev/shm ..." >&2
fill "$file" "$a_mib"
fill "$shm" "$size_mib"
loop=$(losetup -f --show --direct-io=on "$shm") || die "losetup failed"
cat "$file" >/dev/null	# into the page cache for (a)

# iostorm NAME TARGET QD [ARGS...]
run_iostorm() {
	local name=$1 target=$2 qd=$3
	shift 3
	"$IOSTORM" run -q --cpus "$cpu" --qd "$qd" --batch "$qd" --bs 4k \
		--time "${secs}s" --ramp 1s --json "$work/$name.json" "$@" "$target" \
		>/dev/null
}

# fio NAME TARGET QD DIRECT SIZE_MIB
run_fio() {
	local name=$1 target=$2 qd=$3 direct=$4 mib=$5
	fio --name=bench --filename="$target" --ioengine=io_uring --rw=randread \
		--bs=4k --iodepth="$qd" --direct="$direct" --fixedbufs=1 \
		--registerfiles=1 --sqthread_poll=0 --iodepth_batch_submit="$qd" \
		--iodepth_batch_complete_min=1 --invalidate=0 --hipri=0 \
		--norandommap=1 --randrepeat=0 --thread=1 --cpus_allowed="$cpu" \
		--time_based=1 --runtime="$secs" --ramp_time=1 --size="${mib}M" \
		--lat_percentiles=1 \
		--output-format=json --output="$work/$name.json" >/dev/null
}

for ((i = 1; i <= reps; i++)); do
	echo "round $i/$reps ..." >&2
	run_iostorm "a-iostorm-$i" "$file" 32 --buffered
	run_iostorm "a-nolat-$i" "$file" 32 --buffered --no-latency
	run_fio "a-fio-$i" "$file" 32 0 "$a_mib"
	run_iostorm "b1-iostorm-$i" "$loop" 1
	run_fio "b1-fio-$i" "$loop" 1 1 "$size_mib"
	run_iostorm "b32-iostorm-$i" "$loop" 32
	run_fio "b32-fio-$i" "$loop" 32 1 "$size_mib"
done

python3 - "$work" "$reps" "$cpu" "$secs" <<'EOF'
import json, statistics, sys

work, reps, cpu, secs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def load(name, i):
    with open(f"{work}/{name}-{i}.json") as f:
        return json.load(f)

def iostorm(d):
    dev = d["devices"][0]
    cpu_s = dev["cpu"]["user_s"] + dev["cpu"]["sys_s"]
    lat = dev.get("lat_ns") or {}
    return {"iops": dev["iops"], "per_cpu": dev["ios"] / cpu_s if cpu_s else 0,
            "p50_us": lat["p50"] / 1e3 if lat.get("p50") else None}

def fio(d):
    job = d["jobs"][0]
    rd = job["read"]
    run_s = rd["runtime"] / 1e3
    cpu_s = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * run_s
    p50 = rd.get("lat_ns", {}).get("percentile", {}).get("50.000000")
    c50 = rd["clat_ns"].get("percentile", {}).get("50.000000")
    return {"iops": rd["iops"], "per_cpu": rd["total_ios"] / cpu_s if cpu_s else 0,
            "p50_us": p50 / 1e3 if p50 else None,
            "clat_p50_us": c50 / 1e3 if c50 else None}

def median(name, parse):
    runs = [parse(load(name, i)) for i in range(1, reps + 1)]
    out = {}
    for k in runs[0]:
        vals = [r[k] for r in runs if r[k] is not None]
        out[k] = statistics.median(vals) if vals else None
    return out

def ratio(num, den, parse_num, parse_den, key="iops"):
    """median over rounds of round i's num/den: drift between rounds cancels"""
    vals = []
    for i in range(1, reps + 1):
        a, b = parse_num(load(num, i))[key], parse_den(load(den, i))[key]
        if a and b:
            vals.append(a / b)
    return statistics.median(vals) if vals else float("nan")

def fmt(v, unit=""):
    if v is None:
        return "-"
    return f"{v:,.0f}{unit}" if v >= 100 else f"{v:.2f}{unit}"

rows = [
    ("(a) page cache QD32", "a", True),
    ("(b) loop O_DIRECT QD1", "b1", False),
    ("(b) loop O_DIRECT QD32", "b32", False),
]
print(f"iostorm vs fio {reps} rounds x {secs}s, pinned to CPU {cpu}, medians")
print(f"{'case':24} {'tool':14} {'IOPS':>12} {'IOs/CPU-s':>12} {'p50 us':>9}")
res = {}
for title, key, nolat in rows:
    a = median(f"{key}-iostorm", iostorm)
    b = median(f"{key}-fio", fio)
    res[key] = (a, b)
    print(f"{title:24} {'iostorm':14} {fmt(a['iops']):>12} {fmt(a['per_cpu']):>12} {fmt(a['p50_us']):>9}")
    if nolat:
        c = median(f"{key}-nolat", iostorm)
        res["nolat"] = c
        print(f"{'':24} {'iostorm nolat':14} {fmt(c['iops']):>12} {fmt(c['per_cpu']):>12} {'-':>9}")
    print(f"{'':24} {'fio':14} {fmt(b['iops']):>12} {fmt(b['per_cpu']):>12} {fmt(b['p50_us']):>9}"
          f"  (clat p50 {fmt(b['clat_p50_us'])})")
    res[key + "-ratio"] = ratio(f"{key}-iostorm", f"{key}-fio", iostorm, fio)
    res[key + "-cpu-ratio"] = ratio(f"{key}-iostorm", f"{key}-fio", iostorm, fio, "per_cpu")
    print(f"{'':24} {'ratio':14} {res[key + '-ratio']:>11.2f}x {res[key + '-cpu-ratio']:>11.2f}x")

def verdict(ok):
    return "met" if ok else "NOT met"

speedup = res["a-ratio"]
cost = 1 - ratio("a-iostorm", "a-nolat", iostorm, iostorm)
q1, f1 = res["b1"]
print()
print(f"target (a) iostorm >= 2.0x fio IOPS: {speedup:.2f}x  {verdict(speedup >= 2.0)}")
print(f"target (a) latency timing costs <= 5% IOPS: {cost * 100:.1f}%  {verdict(cost <= 0.05)}")
if q1["p50_us"] is not None and f1["p50_us"] is not None:
    print(f"target (b) QD1 p50 <= fio's p50 (both submission to completion): {q1['p50_us']:.2f} us vs "
          f"{f1['p50_us']:.2f} us  {verdict(q1['p50_us'] <= f1['p50_us'])}")
EOF
