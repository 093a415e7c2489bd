/* CPU kinds: hwloc's cpukinds (P and E cores, big.LITTLE), each with its
 * CPUs and the figures that rank it, most performant first. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo/topo_int.h"

/* An info's value as a count: 0 when missing or not a number. */
static unsigned info_num(const struct hwloc_info_s *infos, unsigned n, const char *name)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (infos[i].name && infos[i].value && !strcmp(infos[i].name, name)) {
			char *end;
			unsigned long v = strtoul(infos[i].value, &end, 10);

			return end != infos[i].value && v < 1000000 ? (unsigned)v : 0;
		}
	return 0;
}

static const char *info_str(const struct hwloc_info_s *infos, unsigned n, const char *name)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (infos[i].name && infos[i].value && !strcmp(infos[i].name, name))
			return infos[i].value;
	return "";
}

static int read_kind(struct topo *t, unsigned id, hwloc_bitmap_t set, struct topo_cpukind *k)
{
	struct hwloc_info_s *infos = NULL;
	unsigned ninfos = 0;
	hwloc_obj_t core = NULL;
	int ret;

	if (hwloc_cpukinds_get_info(t->h, id, set, &k->efficiency, &ninfos, &infos, 0))
		return -errno ? -errno : -EINVAL;
	ret = topo_cpuset_from_hwloc(set, &k->cpuset);
	if (ret)
		return ret;
	topo_copy_str(k->core_type, sizeof(k->core_type), info_str(infos, ninfos, "CoreType"));
	k->freq_max_mhz = info_num(infos, ninfos, "FrequencyMaxMHz");
	k->capacity = info_num(infos, ninfos, "LinuxCapacity");
	k->pus = (unsigned)hwloc_bitmap_weight(set);
	while ((core = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_CORE, core)))
		k->cores += hwloc_bitmap_intersects(core->cpuset, set);
	return topo_cpuset_asprintf(&k->cpuset, &k->cpus);
}

/* What ranks the kinds: the first figure every kind has. hwloc's
 * efficiency comes first, being its own ranking of the same infos and
 * more (hwloc/cpukinds.c, hwloc_internal_cpukinds_rank: forced
 * efficiency, then CoreType and frequency on x86, frequency on ARM);
 * it gives -1 for every kind when it cannot rank them. */
static enum topo_kind_basis pick_basis(const struct topo *t)
{
	bool eff = true, cap = true, freq = true;
	unsigned i;

	if (t->nkinds < 2)
		return TOPO_KIND_UNRANKED;
	for (i = 0; i < t->nkinds; i++) {
		eff &= t->kinds[i].efficiency >= 0;
		cap &= t->kinds[i].capacity > 0;
		freq &= t->kinds[i].freq_max_mhz > 0;
	}
	return eff ? TOPO_KIND_EFFICIENCY : cap ? TOPO_KIND_CAPACITY :
		freq ? TOPO_KIND_FREQUENCY : TOPO_KIND_UNRANKED;
}

static unsigned kind_value(const struct topo_cpukind *k, enum topo_kind_basis b)
{
	switch (b) {
	case TOPO_KIND_EFFICIENCY:
		return (unsigned)k->efficiency;
	case TOPO_KIND_CAPACITY:
		return k->capacity;
	case TOPO_KIND_FREQUENCY:
		return k->freq_max_mhz;
	case TOPO_KIND_UNRANKED:
		break;
	}
	return 0;
}

/* Each kind's rank: how many distinct higher values there are, so kinds
 * the basis cannot tell apart share a rank; then the kinds in rank order,
 * hwloc's order among equals (insertion sort: stable, a few kinds). */
static void rank_kinds(struct topo *t)
{
	unsigned i, j;

	t->kind_basis = pick_basis(t);
	for (i = 0; i < t->nkinds; i++)
		t->kinds[i].value = kind_value(&t->kinds[i], t->kind_basis);
	for (i = 0; i < t->nkinds; i++) {
		unsigned above = 0;

		for (j = 0; j < t->nkinds; j++) {
			unsigned k;
			bool dup = false;

			if (t->kinds[j].value <= t->kinds[i].value)
				continue;
			for (k = 0; k < j && !dup; k++)
				dup = t->kinds[k].value == t->kinds[j].value;
			above += !dup;
		}
		t->kinds[i].rank = above;
	}
	for (i = 1; i < t->nkinds; i++) {
		struct topo_cpukind k = t->kinds[i];

		for (j = i; j > 0 && t->kinds[j - 1].rank > k.rank; j--)
			t->kinds[j] = t->kinds[j - 1];
		t->kinds[j] = k;
	}
}

int topo_load_kinds(struct topo *t)
{
	int n = hwloc_cpukinds_get_nr(t->h, 0);
	hwloc_bitmap_t set;
	unsigned i;
	int ret = 0;

	t->kind_basis = TOPO_KIND_UNRANKED;
	if (n <= 0)
		return 0;	/* none known: the machine is one kind */
	t->kinds = calloc((size_t)n, sizeof(*t->kinds));
	set = hwloc_bitmap_alloc();
	if (!t->kinds || !set) {
		hwloc_bitmap_free(set);
		return -ENOMEM;
	}
	for (i = 0; i < (unsigned)n && !ret; i++) {
		ret = read_kind(t, i, set, &t->kinds[i]);
		t->nkinds += !ret;
	}
	hwloc_bitmap_free(set);
	if (!ret)
		rank_kinds(t);
	return ret;
}

void topo_free_kinds(struct topo *t)
{
	unsigned i;

	for (i = 0; i < t->nkinds; i++)
		free(t->kinds[i].cpus);
	free(t->kinds);
	t->kinds = NULL;
	t->nkinds = 0;
}

unsigned topo_cpukinds(const struct topo *t, const struct topo_cpukind **out)
{
	*out = t->kinds;
	return t->nkinds;
}

enum topo_kind_basis topo_cpukind_basis(const struct topo *t)
{
	return t->kind_basis;
}

const char *topo_kind_basis_name(enum topo_kind_basis b)
{
	switch (b) {
	case TOPO_KIND_UNRANKED:
		return "unranked";
	case TOPO_KIND_EFFICIENCY:
		return "efficiency";
	case TOPO_KIND_CAPACITY:
		return "capacity";
	case TOPO_KIND_FREQUENCY:
		return "frequency";
	}
	return "?";
}

int topo_cpu_kind(const struct topo *t, int cpu)
{
	unsigned i;

	for (i = 0; i < t->nkinds; i++)
		if (topo_cpuset_has(&t->kinds[i].cpuset, cpu))
			return (int)i;
	return -1;
}

bool topo_cpu_lesser(const struct topo *t, int cpu)
{
	int k = topo_cpu_kind(t, cpu);

	return t->kind_basis != TOPO_KIND_UNRANKED && k >= 0 && t->kinds[k].rank > 0;
}
