# The runner and the test helpers cannot hide a failure (skips, CI's list
# of expected skips, retries): tests/run.sh runs made-up tests in a folder of their own and
# its verdicts are read back. A check that failed before a skip fails the
# test (lib.sh and helpers.h alike); with CI=true a skip whose reason is not
# on the list fails the run, one on it does not; a retried pass is shown and
# counted; the summary line keeps its form.
. "$(dirname "$0")/lib.sh"
need_cmd cc
IOSTORM_SRC=${IOSTORM_SRC:-$(cd "$(dirname "$0")/.." && pwd)}

d=$T_DIR/suite
mkdir -p "$d"
lib=$IOSTORM_SRC/tests/lib.sh
# one made-up test per behaviour, sourcing the real lib.sh
printf '. %q\ncheck_fail "the first check"\ncheck_fail "the second"\nskip "no widget here"\n' \
	"$lib" >"$d/t_failskip.sh"
printf '. %q\nskip "no widget here"\n' "$lib" >"$d/t_skip.sh"
printf '. %q\nskip "listed: make other runs it"\n' "$lib" >"$d/t_listed.sh"
printf '. %q\nretried "case 3 missed once"\nt_done\n' "$lib" >"$d/t_retry.sh"
printf '. %q\nt_done\n' "$lib" >"$d/t_pass.sh"
# a failed check, then a dump longer than the tail the runner shows
printf '. %q\ncheck_fail "the buried check"\nseq 1 40 >&2\nt_done\n' "$lib" >"$d/t_dump.sh"
printf 't_listed\tlisted: make other\twhy: a test of the list\n' >"$T_DIR/expected"

# runner [ENV...]: tests/run.sh on that folder; output in $T_OUT, status in $T_RC
runner() {
	# the suite's own SANITIZE (make passes it on) is not the case's: a
	# case names its own
	env TEST_TIMES= SANITIZE= "$@" EXPECTED_SKIPS="$T_DIR/expected" T_SCRIPTS="$d" \
		"$IOSTORM_SRC/tests/run.sh" >"$T_OUT" 2>&1 </dev/null
	T_RC=$?
}

runner CI=
grep -qx 'FAIL t_failskip (exit 1)' "$T_OUT" ||
	{ check_fail "a skip after a failed check is not a failure"; cat "$T_OUT" >&2; }
grep -q 'skipped (no widget here) after a failed check: the first check' "$T_OUT" ||
	check_fail "the failure does not name the first failed check"
grep -qx 'SKIP t_skip: no widget here' "$T_OUT" || check_fail "a plain skip is not a SKIP"
grep -qx 'PASS t_retry (retried)' "$T_OUT" || check_fail "a retried pass is not marked"
grep -qx 'PASS t_pass' "$T_OUT" || check_fail "a plain pass is marked"
grep -qx '    FAIL: the buried check' "$T_OUT" ||
	check_fail "a failed check that a long dump follows is not shown"
grep -qx '2 passed, 2 failed, 2 skipped' "$T_OUT" || check_fail "the summary line changed form"
grep -qx 'skipped: t_listed t_skip' "$T_OUT" || check_fail "the skipped tests are not named"
grep -qx 'retried: 1 (t_retry)' "$T_OUT" || check_fail "the retried tests are not counted"
grep -qx 'unexpected skip: t_skip: no widget here' "$T_OUT" ||
	check_fail "the unlisted skip is not named unexpected"
grep -q 'unexpected skip: t_listed' "$T_OUT" && check_fail "a listed skip is called unexpected"
[ "$T_RC" -eq 1 ] || check_fail "a failed test: the runner exited $T_RC, want 1"

# without the failing tests: outside CI skips pass, under CI an unlisted one fails
rm "$d/t_failskip.sh" "$d/t_dump.sh"
runner CI=
[ "$T_RC" -eq 0 ] || { check_fail "skips outside CI: exit $T_RC, want 0"; cat "$T_OUT" >&2; }
runner CI=true
[ "$T_RC" -eq 1 ] || { check_fail "an unlisted skip under CI=true: exit $T_RC, want 1"; cat "$T_OUT" >&2; }
grep -q '^CI=true: 1 unexpected skips' "$T_OUT" || check_fail "CI=true does not say why it failed"
rm "$d/t_skip.sh"
runner CI=true
[ "$T_RC" -eq 0 ] || { check_fail "only a listed skip under CI=true: exit $T_RC, want 0"; cat "$T_OUT" >&2; }

# TEST_TIMES: a line per test run, its seconds then its name
runner CI=true TEST_TIMES="$T_DIR/times"
[ "$(cut -f2 "$T_DIR/times" | sort | tr '\n' ' ')" = "t_listed t_pass t_retry " ] ||
	{ check_fail "TEST_TIMES does not name each test once"; cat "$T_DIR/times" >&2; }
grep -qvE '^[0-9]+'$'\t' "$T_DIR/times" && check_fail "a TEST_TIMES line does not start with its seconds"

# under TSan the threadless tests are left out and named, and only then
printf 't_pass\tmade up\n' >"$T_DIR/threadless"
runner CI=true SANITIZE=thread THREADLESS="$T_DIR/threadless"
grep -q '^PASS t_pass' "$T_OUT" && check_fail "a threadless test ran under TSan"
grep -qx 'not run under SANITIZE=thread (tests/threadless, tests/unsanitized): t_pass' "$T_OUT" ||
	{ check_fail "the threadless tests are not named"; cat "$T_OUT" >&2; }
grep -qx 'PASS t_retry (retried)' "$T_OUT" || check_fail "under TSan a test not listed did not run"
runner CI=true SANITIZE=address,undefined THREADLESS="$T_DIR/threadless"
grep -qx 'PASS t_pass' "$T_OUT" || check_fail "a threadless test did not run under ASan"
# under any sanitizer the unsanitized tests are left out and named; the
# plain suite runs them
printf 't_pass\tmade up\n' >"$T_DIR/unsanitized"
runner CI=true SANITIZE=address,undefined UNSANITIZED="$T_DIR/unsanitized"
grep -q '^PASS t_pass' "$T_OUT" && check_fail "an unsanitized test ran under ASan"
grep -qx 'not run under SANITIZE=address,undefined (tests/threadless, tests/unsanitized): t_pass' "$T_OUT" ||
	{ check_fail "the unsanitized tests are not named"; cat "$T_OUT" >&2; }
runner CI=true UNSANITIZED="$T_DIR/unsanitized"
grep -qx 'PASS t_pass' "$T_OUT" || check_fail "an unsanitized test did not run in the plain suite"

# helpers.h: a SKIP after a failed CHECK exits 1 and names the check
cat >"$T_DIR/failskip.c" <<'C'
#include "tests/helpers.h"
int main(void)
{
	CHECK(1 + 1 == 3);
	SKIP("skip: no widget here");
	return t_result();
}
C
cat >"$T_DIR/skip.c" <<'C'
#include "tests/helpers.h"
int main(void)
{
	CHECK(1 + 1 == 2);
	SKIP("skip: no widget here");
	return t_result();
}
C
for p in failskip skip; do
	cc -std=c11 -I"$IOSTORM_SRC" -o "$T_DIR/$p" "$T_DIR/$p.c" || fail "cannot build $p.c"
done
"$T_DIR/failskip" >"$T_OUT" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q 'after a failed check: .*failskip.c:4: 1 + 1 == 3' "$T_OUT" ||
	{ check_fail "helpers.h: SKIP after a failed CHECK exited $rc"; cat "$T_OUT" >&2; }
"$T_DIR/skip" >"$T_OUT" 2>&1
rc=$?
[ "$rc" -eq 77 ] || check_fail "helpers.h: a plain SKIP exited $rc, want 77"
# the tests listed in ALONGSIDE run together, TEST_JOBS at a time: each of
# two waits for the other's mark (a guard of 20 s against a hang, not a
# time checked), so both pass only when they ran at once; their lines come
# in order, before the tests that run alone
d2=$T_DIR/together
mkdir -p "$d2"
for p in a b; do
	o=$([ $p = a ] && echo b || echo a)
	printf '. %q\ntouch %q\nfor i in $(seq 200); do [ -e %q ] && t_done; sleep 0.1; done\ncheck_fail "%s never saw %s running"\nt_done\n' \
		"$lib" "$T_DIR/$p.mark" "$T_DIR/$o.mark" "$p" "$o" >"$d2/t_p$p.sh"
done
printf '. %q\nt_done\n' "$lib" >"$d2/t_alone.sh"
printf 't_pa\ttogether\nt_pb\ttogether\n' >"$T_DIR/alongside"
env TEST_TIMES= CI= TEST_JOBS=2 ALONGSIDE="$T_DIR/alongside" T_SCRIPTS="$d2" \
	"$IOSTORM_SRC/tests/run.sh" >"$T_OUT" 2>&1 </dev/null
T_RC=$?
[ "$T_RC" -eq 0 ] || { check_fail "two listed tests did not run at once: exit $T_RC"; cat "$T_OUT" >&2; }
[ "$(grep -E '^(PASS|FAIL|SKIP) ' "$T_OUT" | tr '\n' ,)" = "PASS t_pa,PASS t_pb,PASS t_alone," ] ||
	{ check_fail "listed tests not reported in order before the others"; cat "$T_OUT" >&2; }
grep -qx '3 passed, 0 failed, 0 skipped' "$T_OUT" || check_fail "the summary does not count the listed tests"

t_done
