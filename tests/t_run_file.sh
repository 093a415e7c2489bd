# iostorm run on a data file under /var/tmp: both engines, auto, --buffered,
# sqpoll, the JSON report's shape, an exact --ios limit, --no-latency.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_data_file f 32
q=(-q --time 300ms --ramp 0)

for eng in io_uring libaio auto; do
	if expect_ok "engine $eng" run "${q[@]}" --engine "$eng" --json - "$f"; then
		json_check "$T_OUT" run 1 || check_fail "engine $eng: JSON shape"
		used=$(jq -r '.config.engine_used' "$T_OUT")
		want=$eng
		[ "$eng" = auto ] && want=io_uring
		[ "$used" = "$want" ] || check_fail "engine $eng: engine_used $used"
	fi
done

if expect_ok buffered run "${q[@]}" --buffered --json - "$f"; then
	json_check "$T_OUT" run 1 || check_fail "buffered: JSON shape"
	[ "$(jq -r .config.buffered "$T_OUT")" = true ] || check_fail "buffered: config says not buffered"
fi
expect_ok "buffered libaio" run "${q[@]}" --buffered --engine libaio "$f"

if expect_ok sqpoll run "${q[@]}" --completion sqpoll --json - "$f"; then
	json_check "$T_OUT" run 1 || check_fail "sqpoll: JSON shape"
fi

# the table goes to stdout: one device row and a total (or device) row
if expect_ok table run "${q[@]}" "$f"; then
	grep -q "^$(basename "$f") " "$T_OUT" || { check_fail "table: no row for $(basename "$f")"; show_output; }
fi

# JSON to a file: the table still goes to stdout
if expect_ok "json file" run "${q[@]}" --json "$T_DIR/r.json" "$f"; then
	json_check "$T_DIR/r.json" run 1 || check_fail "--json FILE: JSON shape"
	[ -s "$T_OUT" ] || check_fail "--json FILE: no table on stdout"
fi

for eng in io_uring libaio; do
	if expect_ok "ios limit $eng" run -q --engine "$eng" --ios 1234 --json - "$f"; then
		n=$(jq '.devices[0].ios' "$T_OUT")
		[ "$n" = 1234 ] || check_fail "--ios 1234 with $eng: $n IOs"
	fi
done

if expect_ok "no latency" run "${q[@]}" --no-latency --json - "$f"; then
	jq -e '.devices[0].ios > 0 and .config.latency == false' "$T_OUT" >/dev/null ||
		check_fail "--no-latency: report"
fi

# two files at once: two device rows, totals add up
make_data_file g 16
if expect_ok "two files" run "${q[@]}" --json - "$f" "$g"; then
	json_check "$T_OUT" run 2 || check_fail "two files: JSON shape"
fi

# --range and --bs
if expect_ok "range and bs" run "${q[@]}" --bs 64k --range 1m:4m --json - "$f"; then
	jq -e '.devices[0].bw_bytes > 0 and .config.bs == 65536' "$T_OUT" >/dev/null ||
		check_fail "--bs 64k --range: report"
fi
t_done
