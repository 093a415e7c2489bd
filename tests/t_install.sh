#!/bin/bash
# make install DESTDIR=D PREFIX=/usr puts every file where the man page and
# the package expect it, and make uninstall with the same settings removes
# every file install made and iostorm's own folder (share/iostorm), while
# the generic folders (bin, man/man1, bash-completion/completions) stay, as
# do other packages' files in them. It installs the binary under test
# ($IOSTORM) and builds nothing: make -o keeps make from remaking it in the
# build folder that other tests use (checked with make -n first).
. "$(dirname "$0")/lib.sh"

need_iostorm
need_cmd make install cmp
src=${IOSTORM_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
dest=$T_DIR/dest

# mk TARGET: make TARGET with the test's settings, output in $T_DIR/make.
mk() {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$src" --no-print-directory \
		-o "$IOSTORM" BIN="$IOSTORM" BUILD="$T_DIR/nobuild" SANITIZE= \
		DESTDIR="$dest" PREFIX=/usr "$@" >"$T_DIR/make" 2>&1
}

# listing: every path under $dest, one a line, files marked f, folders d.
listing() {
	(cd "$dest" && find . -mindepth 1 -printf '%y %P\n' | LC_ALL=C sort)
}

# nothing is built: every command make would run installs or removes
for t in install uninstall; do
	mk -n "$t" || fail "make -n $t: $(cat "$T_DIR/make")"
	if grep -Eq '(^|[[:space:]/])(cc|gcc|clang|ar|ld)[[:space:]]|\.[oa]([[:space:]]|$)|nobuild' \
		"$T_DIR/make"; then
		fail "make $t would do more than copy or remove: $(cat "$T_DIR/make")"
	fi
done

# another package's files, in the generic folders install uses
mkdir -p "$dest/usr/bin" "$dest/usr/share/man/man1"
echo other >"$dest/usr/bin/other"
echo other >"$dest/usr/share/man/man1/other.1"
listing >"$T_DIR/before"

mk install || fail "make install: $(cat "$T_DIR/make")"
listing >"$T_DIR/installed"
for f in usr/bin/iostorm usr/share/man/man1/iostorm.1 \
	usr/share/bash-completion/completions/iostorm; do
	[ -f "$dest/$f" ] || check_fail "make install did not install $f"
done
[ -x "$dest/usr/bin/iostorm" ] || check_fail "usr/bin/iostorm is not executable"
cmp -s "$IOSTORM" "$dest/usr/bin/iostorm" ||
	check_fail "usr/bin/iostorm is not the binary under test ($IOSTORM)"
cmp -s "$src/docs/iostorm.1" "$dest/usr/share/man/man1/iostorm.1" ||
	check_fail "the installed man page is not docs/iostorm.1"
for f in "$src"/configs/*.ini; do
	cmp -s "$f" "$dest/usr/share/iostorm/configs/${f##*/}" ||
		check_fail "configs/${f##*/} is not installed in usr/share/iostorm/configs"
done
"$dest/usr/bin/iostorm" --version >/dev/null 2>&1 ||
	check_fail "the installed iostorm does not run (--version)"
created=$(comm -13 "$T_DIR/before" "$T_DIR/installed")
grep -q '^f ' <<<"$created" || check_fail "make install created no file"

mk uninstall || check_fail "make uninstall failed: $(cat "$T_DIR/make")"
listing >"$T_DIR/after"
# every file install created is gone
left=$(comm -12 <(grep '^f ' <<<"$created") "$T_DIR/after")
[ -z "$left" ] || check_fail "make uninstall left files behind: $(tr '\n' ' ' <<<"$left")"
# no iostorm folder stays; the folders that stay are generic ones
while read -r kind path; do
	[ "$kind" = d ] || continue
	case $path in
	*iostorm*)
		check_fail "make uninstall left the folder $path" ;;
	usr | usr/bin | usr/share | usr/share/man | usr/share/man/man1 | \
		usr/share/bash-completion | usr/share/bash-completion/completions) ;;
	*)
		check_fail "make install made the folder $path and uninstall left it: not a generic one" ;;
	esac
done < <(comm -13 "$T_DIR/before" "$T_DIR/after")
# nothing else changed: what was there before is there after
missing=$(comm -23 "$T_DIR/before" "$T_DIR/after")
[ -z "$missing" ] || check_fail "make uninstall removed what it did not install: $(tr '\n' ' ' <<<"$missing")"
[ "$(cat "$dest/usr/bin/other" 2>/dev/null)" = other ] ||
	check_fail "make uninstall touched usr/bin/other"

# a second uninstall, with nothing left to remove, still succeeds
mk uninstall || check_fail "a second make uninstall failed: $(cat "$T_DIR/make")"

t_done
