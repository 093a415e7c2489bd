# Sourced by bench/tio.sh, tests/vm/kernel.sh and tests/vm/qemu.sh: a private apt
# configuration that reaches the same Debian mirror as this machine's own
# apt sources, so that a package or a source package can be fetched without
# touching the host's sources, lists or dpkg status.

# The URI of the first 'deb' entry in the host's apt sources (one-line
# *.list files and deb822 *.sources files) that serves suite $1.
apt_host_uri() {
	local want=$1 f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		# deb [opt=val ...] URI SUITE COMPONENT...; the options may hold spaces
		awk -v s="$want" '$1 == "deb" {
			i = 2
			if ($i ~ /^\[/) { while (i < NF && $i !~ /\]$/) i++; i++ }
			if ($(i + 1) == s) { print $i; exit }
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# stanzas are separated by blank lines; Types must include deb
		awk -v s="$want" '
			function flush() { if (u != "" && hit && deb) { print u; found = 1 } u = ""; hit = 0; deb = 0 }
			/^[[:space:]]*#/ { next }
			/^[[:space:]]*$/ { flush(); if (found) exit; next }
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			tolower($1) == "uris:" { u = $2 }
			tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == s) hit = 1 }
			END { if (!found) flush() }' "$f"
	done
}

# apt_private_init DIR LINE: a private apt tree under DIR whose only source
# is LINE (e.g. "deb-src [signed-by=...] URI SUITE main"); fills the array
# apt_opts with the options that make apt-get and apt-cache use it.
apt_private_init() {
	local dir=$1 line=$2
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" || return 1
	echo "$line" >"$dir/sources.list" || return 1
	[ -e "$dir/status" ] || : >"$dir/status"
	apt_opts=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
		-o Dir::State::status="$dir/status" -o Debug::NoLocking=1
		-o APT::Sandbox::User=root)
}

# apt_debian_binary DIR URI SUITE: apt_private_init for Debian's binary
# packages of SUITE at URI, signed by Debian's archive keyring, amd64,
# with the lists updated. 0, or 1 with a line on stderr.
apt_debian_binary() {
	local dir=$1 uri=$2 suite=$3 keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] || { echo "no $keyring (apt-get install debian-archive-keyring)" >&2; return 1; }
	apt_private_init "$dir" "deb [signed-by=$keyring] $uri $suite main" ||
		{ echo "cannot make $dir" >&2; return 1; }
	mkdir -p "$dir/debs" || return 1
	apt_opts+=(-o APT::Architecture=amd64)
	apt-get "${apt_opts[@]}" -qq update >&2 ||
		{ echo "apt-get update of the private $suite list failed" >&2; return 1; }
}

# apt_unpack DIR ROOT PKG...: downloads PKG... (name or name=version)
# through the private tree under DIR (apt_debian_binary first) and
# unpacks them into ROOT; no maintainer script runs, nothing is
# installed. The .debs are removed again. 0, or 1 with a line on stderr.
apt_unpack() {
	local dir=$1 root=$2 d
	shift 2
	(cd "$dir/debs" && rm -f ./*.deb && apt-get "${apt_opts[@]}" -qq download "$@") >&2 ||
		{ echo "apt-get download $* failed" >&2; return 1; }
	for d in "$dir"/debs/*.deb; do
		dpkg-deb -x "$d" "$root" || { echo "dpkg-deb -x $d failed" >&2; return 1; }
	done
	rm -f "$dir"/debs/*.deb
}
