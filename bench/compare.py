#!/usr/bin/env python3
"""bench/compare.py WORK REPS CPU SECS TSC_HZ BIG_MIB SMALL_MIB: the table and verdicts of
bench/run.sh from the raw outputs it left in WORK: iostorm's and fio's JSON
(NAME-ROUND.json) and t/io_uring's text (NAME-ROUND.out). A run that is
missing shows as '-'; a target that cannot be judged says why, and the exit
status is then 1. Ratios are medians of the rounds' own ratios.
bench/compare.py --callgrind WORK REPS: the (o) instruction verdicts from
bench/callgrind.sh's table in WORK/callgrind.out (REPS runs per length),
or, where it could not run, the reason in WORK/callgrind.why."""
import json
import math
import os
import re
import statistics
import sys

unjudged = 0


def verdict(label, value, ok, detail):
    global unjudged
    if value is None:
        unjudged += 1
        why = detail or "a run is missing"
        print(f"target {label}: could not be judged ({why})")
        return
    print(f"target {label}: {value}  {'met' if ok else 'NOT met'}  ({detail})")


OPEN_MAX = 1.30  # issue 30: the open loop's instructions per IO over the closed loop's


def callgrind(work, reps):
    """bench/callgrind.sh's table: case, function, Ir LO, Ir HI, per IO"""
    per_io, why = {}, None
    try:
        with open(f"{work}/callgrind.why") as f:
            why = f.read().strip() or "bench/callgrind.sh did not run"
    except OSError:
        try:
            with open(f"{work}/callgrind.out") as f:
                for line in f.read().splitlines()[1:]:
                    cols = line.split()
                    if len(cols) == 5:
                        per_io[cols[0]] = float(cols[4])
        except (OSError, ValueError) as e:
            why = f"no table from bench/callgrind.sh: {e}"
    for suffix, what in (("", ""), ("-untimed", " --no-latency")):
        o, c = per_io.get("open" + suffix), per_io.get("closed" + suffix)
        label = (f"(o) open loop{what} <= {OPEN_MAX:.2f}x the closed loop's instructions "
                 f"per IO (issue 30)")
        if why or o is None or not c:
            verdict(label, None, False,
                    why or f"no open{suffix} and closed{suffix} rows from bench/callgrind.sh")
            continue
        r = o / c
        verdict(label, f"{r:.2f}x", r <= OPEN_MAX,
                f"{o:.2f} vs {c:.2f} instructions per IO, callgrind, smallest of {reps} runs")
    return 1 if unjudged else 0


if len(sys.argv) > 1 and sys.argv[1] == "--callgrind":
    sys.exit(callgrind(sys.argv[2], sys.argv[3]))

work, reps, cpu, secs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
tsc_hz = float(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] else None
big_mib, small_mib = (int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) > 7 else (1024, 16)


def size_name(mib):
    return f"{mib >> 10} GiB" if mib % 1024 == 0 else f"{mib} MiB"


def load_json(name, i):
    try:
        with open(f"{work}/{name}-{i}.json") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def iostorm(name, i):
    d = load_json(name, i)
    if not d:
        return None
    dev = d["devices"][0]
    cpu_s = dev["cpu"]["user_s"] + dev["cpu"]["sys_s"]
    lat = dev.get("lat_ns") or {}
    if dev.get("open_loop"):
        # from submission, as the closed loop's: the time from the schedule
        # grows with the backlog where the rate is beyond reach (1g)
        lat = dev["open_loop"].get("service_lat_ns") or {}
    return {"iops": dev["iops"], "per_cpu": dev["ios"] / cpu_s if cpu_s else None,
            "p50_us": lat["p50"] / 1e3 if lat.get("p50") else None}


def iostorm_total(name, i):
    """several devices in one run (case m): the total row"""
    d = load_json(name, i)
    if not d:
        return None
    t = d["total"]
    cpu_s = t["cpu"]["user_s"] + t["cpu"]["sys_s"]
    return {"iops": t["iops"], "per_cpu": t["ios"] / cpu_s if cpu_s else None,
            "p50_us": None}


def fio(name, i):
    d = load_json(name, i)
    if not d:
        return None
    job = d["jobs"][0]
    rd = job["read"]
    run_s = rd["runtime"] / 1e3
    cpu_s = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * run_s
    p50 = rd.get("lat_ns", {}).get("percentile", {}).get("50.000000")
    return {"iops": rd["iops"], "per_cpu": rd["total_ios"] / cpu_s if cpu_s else None,
            "p50_us": p50 / 1e3 if p50 else None}


IOPS_RE = re.compile(r"^IOPS=([0-9.]+)([MK]?),")
P50_RE = re.compile(r"50\.0000th=\[\s*([0-9]+)\]")
UNIT_RE = re.compile(r"percentiles \((tsc ticks|nsec|usec)\)")


def tio(name, i):
    """t/io_uring prints one IOPS line per second after the first (the
    ramp, which run.sh's -r leaves out of them) and, with -t1, percentiles
    of its histogram: in TSC ticks without -T, converted here."""
    try:
        with open(f"{work}/{name}-{i}.out") as f:
            text = f.read()
    except OSError:
        return None
    per_s = []
    for line in text.splitlines():
        m = IOPS_RE.match(line)
        if m:
            per_s.append(float(m.group(1)) * {"M": 1e6, "K": 1e3, "": 1}[m.group(2)])
    per_s = per_s[1:]  # the first second is the ramp
    if not per_s:
        return None
    p50_us = None
    unit, m = UNIT_RE.search(text), P50_RE.search(text)
    if unit and m:
        v = float(m.group(1))
        if unit.group(1) == "usec":
            p50_us = v
        elif unit.group(1) == "nsec":
            p50_us = v / 1e3
        elif tsc_hz:
            p50_us = v / tsc_hz * 1e6
    return {"iops": statistics.mean(per_s), "per_cpu": None, "p50_us": p50_us}


def runs(name, parse):
    return [parse(name, i) for i in range(1, reps + 1)]


def median(name, parse, key):
    vals = [r[key] for r in runs(name, parse) if r and r[key] is not None]
    return statistics.median(vals) if vals else None


def ratio(num, den, key="iops"):
    """median over rounds of round i's num/den: drift between rounds cancels"""
    vals = []
    for a, b in zip(runs(*num), runs(*den)):
        if a and b and a[key] and b[key]:
            vals.append(a[key] / b[key])
    return statistics.median(vals) if vals else None


def fmt(v, width):
    if v is None:
        s = "-"
    elif v >= 100:
        s = f"{v:,.0f}"
    else:
        s = f"{v:.2f}"
    return s.rjust(width)


def fmt_iops(v):
    if v is None:
        return "-"
    return f"{v / 1e6:.2f}M" if v >= 1e6 else f"{v / 1e3:.1f}K"


missing_tio = None
if os.path.exists(f"{work}/tio-missing"):
    with open(f"{work}/tio-missing") as f:
        missing_tio = f.read().strip() or "t/io_uring could not be built"

IOS, IOST, TIO, FIO = iostorm, iostorm_total, tio, fio
cases = [
    (f"(c) cached {size_name(big_mib)} tmpfs", "QD32 b32", "c1g", [
        ("iostorm", "c1g-iostorm", IOS), ("t/io_uring -t1", "c1g-tio", TIO),
        ("iostorm nolat", "c1g-nolat", IOS), ("t/io_uring -t0", "c1g-tio0", TIO),
        ("fio", "c1g-fio", FIO)]),
    (f"(c) cached {size_name(small_mib)}", "QD32 b32", "c16", [
        ("iostorm", "c16-iostorm", IOS), ("t/io_uring -t1", "c16-tio", TIO),
        ("iostorm nolat", "c16-nolat", IOS), ("t/io_uring -t0", "c16-tio0", TIO),
        ("fio", "c16-fio", FIO)]),
    (f"(o) open loop, cached {size_name(small_mib)}", "QD32 b32", "o16", [
        ("iostorm open", "c16-open", IOS), ("iostorm closed", "c16-iostorm", IOS)]),
    ("(n) NOP", "QD128 b32", "nop", [
        ("iostorm", "nop-iostorm", IOS), ("t/io_uring -N1", "nop-tio", TIO)]),
    (f"(m) 3 x cached {size_name(small_mib)}", "1 thread", "m3", [
        ("iostorm --group", "m3-iostorm", IOST), ("t/io_uring -n1", "m3-tio", TIO)]),
    ("(q) loop O_DIRECT", "QD1", "q1", [
        ("iostorm", "q1-iostorm", IOS), ("t/io_uring -t1", "q1-tio", TIO),
        ("fio", "q1-fio", FIO)]),
    ("(q) loop O_DIRECT", "QD32 b32", "q32", [
        ("iostorm", "q32-iostorm", IOS), ("fio", "q32-fio", FIO)]),
]

print(f"iostorm vs t/io_uring and fio: {reps} rounds x {secs}s (+1s ramp), "
      f"pinned to CPU {cpu}, medians")
tw = max(24, *(len(c[0]) for c in cases))
print(f"{'case':{tw}} {'':10} {'tool':15} {'IOPS':>12} {'IOs/CPU-s':>12} {'p50 us':>9}")
for title, shape, _, tools in cases:
    for n, (tool, name, parse) in enumerate(tools):
        left = f"{title:{tw}} {shape:10}" if n == 0 else f"{'':{tw}} {'':10}"
        print(f"{left} {tool:15} {fmt(median(name, parse, 'iops'), 12)} "
              f"{fmt(median(name, parse, 'per_cpu'), 12)} {fmt(median(name, parse, 'p50_us'), 9)}")

print()
hz = f"{tsc_hz / 1e9:.3f} GHz" if tsc_hz else "an unknown rate"
print("clock: t/io_uring -t1 reads the TSC (rdtsc) once per submitted batch, after "
      "preparing it and before io_uring_enter, and once per run of that batch's "
      "completions it reaps; with 2 batch stamps (depth/batch rounded up, at least 2) "
      "it skips stamp 0, so it times every other batch, and where more than 2 batches "
      "are in flight a newer stamp overwrites an older one (shorter latencies); its "
      f"histogram has 64 buckets per power of two, read at the bucket middle, ticks "
      f"converted here at {hz}. iostorm reads its calibrated TSC once per loop and "
      "times every IO from the loop that submits it to the loop that reaps it.")
print()
# (o): no wall-clock target; its instruction target is judged after the table
ro = ratio(("c16-open", IOS), ("c16-iostorm", IOS))
rc = ratio(("c16-open", IOS), ("c16-iostorm", IOS), "per_cpu")
print(f"(o) open loop (--rate 1g) / closed loop, cached {size_name(small_mib)}: IOPS "
      f"{'-' if ro is None else f'{ro:.2f}x'}, IOs/CPU-s {'-' if rc is None else f'{rc:.2f}x'} "
      "(medians of per-round ratios; informational, no target: at 1g every IO is always "
      "due, so the open loop issues exactly as the closed one and their IOPS should be "
      "close; its p50 is the service time from submission, as the closed loop's, not "
      "the time from the schedule, which grows with the backlog at 1g; its target, "
      "instructions per IO, is judged after the table)")
print()

def versus(label, num, den, want, tio_side):
    r = ratio(num, den)
    if r is None and tio_side and missing_tio:
        return verdict(label, None, False, f"no t/io_uring: {missing_tio}")
    detail = (f"{fmt_iops(median(*num, 'iops'))} vs {fmt_iops(median(*den, 'iops'))} IOPS, "
              f"median of per-round ratios")
    verdict(label, None if r is None else f"{r:.2f}x", r is not None and r >= want,
            None if r is None else detail)


for _, _, k, _ in cases[:2]:
    size = size_name(big_mib if k == "c1g" else small_mib)
    versus(f"(c {size}) iostorm >= 1.00x t/io_uring, latency on",
           (f"{k}-iostorm", IOS), (f"{k}-tio", TIO), 1.00, True)
    versus(f"(c {size}) iostorm --no-latency >= 1.05x t/io_uring -t0",
           (f"{k}-nolat", IOS), (f"{k}-tio0", TIO), 1.05, True)
    versus(f"(c {size}) iostorm >= 2.0x fio", (f"{k}-iostorm", IOS), (f"{k}-fio", FIO),
           2.0, False)
    r = ratio((f"{k}-iostorm", IOS), (f"{k}-nolat", IOS))
    cost = None if r is None else 1 - r
    verdict(f"(c {size}) latency timing costs <= 5% IOPS",
            None if cost is None else f"{cost * 100:.1f}%", cost is not None and cost <= 0.05,
            None if cost is None else "1 - iostorm/iostorm --no-latency")
versus("(n) NOP iostorm >= 1.00x t/io_uring", ("nop-iostorm", IOS), ("nop-tio", TIO), 1.00, True)
versus("(m) 3 files, one thread: iostorm --group --no-latency >= 0.98x t/io_uring -t0 -n1 (issue 30)",
       ("m3-iostorm", IOST), ("m3-tio", TIO), 0.98, True)
versus("(q) QD1 iostorm IOPS >= 0.98x t/io_uring", ("q1-iostorm", IOS), ("q1-tio", TIO),
       0.98, True)


def p50_versus(label, other, why_missing):
    a = median("q1-iostorm", IOS, "p50_us")
    b = median(other, TIO if other.endswith("tio") else FIO, "p50_us")
    if a is None or b is None:
        return verdict(label, None, False, why_missing)
    verdict(label, f"{a:.2f} us vs {b:.2f} us", a <= b, "medians over rounds")


p50_versus("(q) QD1 iostorm p50 <= t/io_uring's -t1 p50", "q1-tio",
           f"no t/io_uring: {missing_tio}" if missing_tio else
           ("no TSC rate for t/io_uring's ticks" if not tsc_hz else None))
p50_versus("(q) QD1 iostorm p50 <= fio's p50 (both submission to completion)", "q1-fio", None)

sys.exit(1 if unjudged else 0)
