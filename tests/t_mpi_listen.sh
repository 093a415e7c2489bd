# --listen under iostorm-mpi: the ranks of one host each serve their own
# figures, rank i of the host on PORT + i, so two ranks on this machine
# do not fight over one port; each endpoint's final IOs are its rank's
# own (its stream's end line), served while it lingers.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
need_mpi
need_cmd jq
need_cmd curl
need_cmd ss

make_loop l0 32
make_loop l1 32
make_targets_file tf "$l0" "$l1"

# two free ports in a row (an outer loop only guards against a busy machine)
free() { ! ss -Htln | awk '{ print $4 }' | grep -q ":$1\$"; }
for ((i = 0; i < 50; i++)); do
	p=$((20000 + RANDOM % 20000))
	free "$p" && free $((p + 1)) && break
done

# lingering for long: the test ends it once it has scraped
timeout -k 5 "$T_RUN_GUARD" "${MPIRUN[@]}" -np 2 "$IOSTORM_MPI" run -q --qd 8 --ramp 0 \
	--time 1s --targets-file "$tf" --stream "$T_DIR/s.%r.jsonl" \
	--listen "127.0.0.1:$p" --linger 10m >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; pkill -KILL -f "listen 127.0.0.1:$p" 2>/dev/null; wait $pid 2>/dev/null; t_cleanup' EXIT

ended() { [ "$(tail -n 1 "$1" 2>/dev/null | jq -r .type 2>/dev/null)" = end ]; }
for ((i = 0; i < T_TRIES; i++)); do
	ended "$T_DIR/s.0.jsonl" && ended "$T_DIR/s.1.jsonl" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
ended "$T_DIR/s.0.jsonl" && ended "$T_DIR/s.1.jsonl" ||
	{ show_output; fail "the ranks' streams never ended"; }
for r in 0 1; do
	dev=$(jq -r 'select(.type == "window") | .devices[0]' "$T_DIR/s.$r.jsonl")
	ios=$(tail -n 1 "$T_DIR/s.$r.jsonl" | jq '.report.run.devices[0].ios')
	curl -sf -o "$T_DIR/m.$r" "http://127.0.0.1:$((p + r))/metrics" ||
		{ check_fail "rank $r: nothing served on port $((p + r))"; continue; }
	grep -qx "iostorm_ios_total{device=\"$dev\"} $ios" "$T_DIR/m.$r" ||
		check_fail "rank $r: port $((p + r)) does not serve its $ios IOs on $dev: $(grep '^iostorm_ios_total' "$T_DIR/m.$r")"
done
# each port one rank's: the other's device is not there
grep -q "device=\"$(jq -r 'select(.type == "window") | .devices[0]' "$T_DIR/s.1.jsonl")\"" "$T_DIR/m.0" &&
	check_fail "port $p serves rank 1's device too"
t_done
