/* iostorm topo: where each drive sits (node, bus id, link, host bridge) and
 * what to change. Text for a person, JSON (schema iostorm/1) for tools. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/commands.h"
#include "cli/report/setup_json.h"
#include "cli/report/out.h"
#include "cli/topo/topo_load.h"
#include "cli/topo/topo_dot.h"
#include "cli/words/findings_words.h"
#include "cli/words/notes_words.h"
#include "topo/topo.h"

/* topo's JSON keeps jansson's full real precision (the reports round to 12
 * digits) */
#define TOPO_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

static int cmd_topo(int argc, char **argv);

const struct cli_verb cli_verb_topo = {
	.name = "topo",
	.what = "where each NVMe drive sits: PCI path, NUMA node, cores",
	.synopsis = "iostorm topo [--json FILE|-] [--dot] [--topology FILE.xml] [TARGET...]\n\n"
		"Where each NVMe drive sits: its NUMA node, PCI bus id, link and host\n"
		"bridge; per node its cores, memory and drives; then findings. With\n"
		"TARGET: these devices or files instead of every NVMe namespace.",
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_JSON | CLI_OG_TOPO,
	.run = cmd_topo,
};

/* ---- text ---- */

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (!b)
		snprintf(buf, len, "memory unknown");
	else if (b >= (1ULL << 30))
		snprintf(buf, len, "%.1f GiB", (double)b / (1ULL << 30));
	else
		snprintf(buf, len, "%.0f MiB", (double)b / (1ULL << 20));
}

static void fmt_link(char *buf, size_t len, const struct topo_link *l)
{
	int n = 0;

	if (l->speed_gts > 0 && l->width > 0)
		n = snprintf(buf, len, "%g GT/s x%d", l->speed_gts, l->width);
	else if (l->gbps > 0)
		n = snprintf(buf, len, "%.2f GB/s", l->gbps);
	else
		n = snprintf(buf, len, "unknown");
	if (n > 0 && (size_t)n < len && l->max_speed_gts > 0 && l->max_width > 0)
		snprintf(buf + n, len - (size_t)n, " (max %g GT/s x%d)", l->max_speed_gts, l->max_width);
}

static void fmt_nodes(char *buf, size_t len, const struct topo_dev *d)
{
	size_t o = 0;
	unsigned k;

	snprintf(buf, len, "-");
	for (k = 0; k < d->nnodes && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u", k ? "," : "", d->nodes[k]);
}

static bool dev_on_node(const struct topo_dev *d, unsigned os)
{
	unsigned k;

	for (k = 0; k < d->nnodes; k++)
		if (d->nodes[k] == os)
			return true;
	return false;
}

/* "    path nvme0c1n1   nvme1  0000:41:00.0  node 1  host bridge 0000:40" */
static void print_path(FILE *f, const struct topo_path *p)
{
	char nodes[64];
	size_t o = 0;
	unsigned k;

	snprintf(nodes, sizeof(nodes), "node -");
	for (k = 0; k < p->nnodes && o < sizeof(nodes); k++)
		o += (size_t)snprintf(nodes + o, sizeof(nodes) - o, "%s%u",
				      k ? "," : p->nnodes > 1 ? "nodes " : "node ", p->nodes[k]);
	fprintf(f, "    path %-11s %-6s %-13s %-7s host bridge %s\n", p->name,
	           p->controller[0] ? p->controller : "-", p->pci[0] ? p->pci : "-", nodes,
	           p->host_bridge[0] ? p->host_bridge : "-");
}

/* "    free root ports: 0000:40:01.1 (15.75 GB/s), 0000:40:03.1" */
static void print_free_ports(FILE *out, const struct topo *t, int node)
{
	const struct topo_host_bridge *hb;
	unsigned n = topo_host_bridges(t, &hb), i, k, shown = 0;

	for (i = 0; i < n; i++) {
		if (hb[i].node != node)
			continue;
		for (k = 0; k < hb[i].nports; k++) {
			const struct topo_port *p = &hb[i].ports[k];
			char link[96];

			if (p->nfunctions)
				continue;
			fmt_link(link, sizeof(link), &p->link);
			fprintf(out, "%s%s (%s)", shown++ ? ", " : "    free root ports: ", p->busid, link);
		}
	}
	if (shown)
		fputc('\n', out);
}

/* Host bridges no node is known for: said, never placed under one. */
static void print_unknown_bridges(FILE *out, const struct topo *t)
{
	const struct topo_host_bridge *hb;
	unsigned n = topo_host_bridges(t, &hb), i, shown = 0;

	for (i = 0; i < n; i++)
		if (hb[i].node < 0)
			fprintf(out, "%s%s", shown++ ? ", " : "  host bridges of unknown node: ", hb[i].name);
	if (shown)
		fprintf(out, " (the firmware gives no NUMA node)\n");
	if (shown)
		print_free_ports(out, t, -1);
}

/* Per NUMA node: its CPUs, memory, drives and host bridges. */
static void print_nodes(FILE *out, struct topo *t, const struct topo_dev *const *devs,
			unsigned ndevs)
{
	unsigned i, k;

	fprintf(out, "\nNUMA nodes\n");
	for (i = 0; i < topo_nnodes(t); i++) {
		const struct topo_node *nd = topo_node(t, i);
		char mem[32];
		bool any = false;

		fmt_bytes(mem, sizeof(mem), nd->memory_bytes);
		if (nd->pus)
			fprintf(out, "  node %u: %u cores, %u PUs (%s), %s\n", nd->os_index,
			             nd->cores, nd->pus, nd->cpus, mem);
		else if (nd->cpus[0])
			fprintf(out, "  node %u: no CPUs of its own (memory local to CPUs %s), %s\n",
			             nd->os_index, nd->cpus, mem);
		else
			fprintf(out, "  node %u: no CPUs, %s\n", nd->os_index, mem);
		fprintf(out, "    drives: ");
		for (k = 0; k < ndevs; k++)
			if (dev_on_node(devs[k], nd->os_index)) {
				fprintf(out, "%s%s", any ? " " : "", devs[k]->name);
				any = true;
			}
		fprintf(out, "%s\n    host bridges: %s\n", any ? "" : "none",
		             nd->host_bridges[0] ? nd->host_bridges : "none");
		print_free_ports(out, t, (int)nd->os_index);
	}
	print_unknown_bridges(out, t);
}

/* The CPU kinds, most performant first, where there are two or more (one
 * kind says nothing a node's line does not): each kind's CPUs and what
 * ranks it. */
static void print_kinds(FILE *out, const struct topo *t)
{
	const struct topo_cpukind *k;
	enum topo_kind_basis b = topo_cpukind_basis(t);
	unsigned n = topo_cpukinds(t, &k), i;

	if (n < 2)
		return;
	if (b == TOPO_KIND_UNRANKED)
		fprintf(out, "\nCPU kinds (not ranked: hwloc gives no efficiency, and not every kind "
			     "has a capacity or a highest frequency)\n");
	else
		fprintf(out, "\nCPU kinds (most performant first, by %s)\n",
			     b == TOPO_KIND_EFFICIENCY ? "hwloc's efficiency" :
			     b == TOPO_KIND_CAPACITY ? "Linux's cpu_capacity" : "highest frequency");
	for (i = 0; i < n; i++) {
		char eff[24] = "-", mhz[24] = "-", cap[24] = "-";

		if (k[i].efficiency >= 0)
			snprintf(eff, sizeof(eff), "%d", k[i].efficiency);
		if (k[i].freq_max_mhz)
			snprintf(mhz, sizeof(mhz), "%u MHz", k[i].freq_max_mhz);
		if (k[i].capacity)
			snprintf(cap, sizeof(cap), "%u", k[i].capacity);
		fprintf(out, "  ");
		/* an XML file's words: never raw bytes on a terminal */
		cli_put_escaped(k[i].core_type[0] ? k[i].core_type : "-", out);
		fprintf(out, ": CPUs %s (%u core%s, %u PU%s), efficiency %s, up to %s, capacity %s%s\n",
			     k[i].cpus, k[i].cores, k[i].cores == 1 ? "" : "s", k[i].pus,
			     k[i].pus == 1 ? "" : "s", eff, mhz, cap,
			     b != TOPO_KIND_UNRANKED && k[i].rank ?
			     ": placement takes these after every free core of a better kind" : "");
	}
}

static void print_text(FILE *out, struct topo *t, const struct cli_opts *o,
		       const struct topo_dev *const *devs, unsigned ndevs,
		       const struct topo_finding *f, int nf)
{
	char text[CLI_TOPO_WORDS_MAX];
	unsigned i, k, cores = 0, pus = 0;
	int j;

	topo_counts(t, &cores, &pus);
	fprintf(out, "topology: %s (%u NUMA node%s, %u cores, %u PUs)%s\n",
	             o->topology ? o->topology : "this machine", topo_nnodes(t),
	             topo_nnodes(t) == 1 ? "" : "s", cores, pus, topo_sysfs_root(t) ? "" :
	             "; link speed/width, model and firmware come from sysfs and are unknown here");
	print_nodes(out, t, devs, ndevs);
	print_kinds(out, t);
	fprintf(out, "\ndrives\n");
	if (!ndevs)
		fprintf(out, "  none\n");
	else
		fprintf(out, "  %-12s %-6s %-13s %-33s %-12s %s\n", "DEVICE", "NODE", "PCI", "LINK",
		             "HOST BRIDGE", "MODEL");
	for (k = 0; k < ndevs; k++) {
		const struct topo_dev *d = devs[k];
		char nodes[64], link[96];

		if (!d->has_pci) {
			fprintf(out, "  %-12s %-6s %-13s %-33s %-12s (no PCI: %s)\n", d->name, "-", "-", "-",
			             "-", cli_no_pci_words(d->no_pci) ? cli_no_pci_words(d->no_pci) : "unknown");
			continue;
		}
		fmt_nodes(nodes, sizeof(nodes), d);
		fmt_link(link, sizeof(link), &d->link);
		fprintf(out, "  %-12s %-6s %-13s %-33s %-12s ", d->name, nodes, d->pci, link,
		             d->host_bridge[0] ? d->host_bridge : "-");
		/* sysfs or an XML file's words: never raw bytes on a terminal */
		cli_put_escaped(d->model[0] ? d->model : "-", out);
		fputc('\n', out);
		for (i = 0; i < d->npaths; i++)
			print_path(out, &d->paths[i]);
	}
	fprintf(out, "\nfindings\n");
	if (!nf)
		fprintf(out, "  none: every drive sits well\n");
	for (j = 0; j < nf; j++) {
		cli_topo_text(&f[j], text, sizeof(text));
		fprintf(out, "  - %s\n", text);
	}
}

/* ---- JSON ---- */

static json_t *num_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *int_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *json_link(const struct topo_link *l)
{
	return json_pack("{s:o s:o s:o s:o s:o}",
			 "gbps", num_or_null(l->gbps),
			 "speed_gts", num_or_null(l->speed_gts),
			 "width", int_or_null(l->width),
			 "max_speed_gts", num_or_null(l->max_speed_gts),
			 "max_width", int_or_null(l->max_width));
}

/* A multipath head's paths; [] for any other device. */
static json_t *json_paths(const struct topo_dev *d)
{
	json_t *a = json_array();
	unsigned k, i;

	for (k = 0; a && k < d->npaths; k++) {
		const struct topo_path *p = &d->paths[k];
		json_t *nodes = json_array();

		for (i = 0; nodes && i < p->nnodes; i++)
			json_array_append_new(nodes, json_integer(p->nodes[i]));
		json_array_append_new(a, json_pack("{s:s s:o s:o s:o s:o}",
			"name", p->name,
			"controller", str_or_null(p->controller),
			"pci", str_or_null(p->pci),
			"host_bridge", str_or_null(p->host_bridge),
			"numa_nodes", nodes ? nodes : json_null()));
	}
	return a ? a : json_null();
}

static json_t *json_dev(const struct topo_dev *d)
{
	json_t *nodes = json_array(), *chain = json_array(), *j;
	unsigned k;

	for (k = 0; nodes && k < d->nnodes; k++)
		json_array_append_new(nodes, json_integer(d->nodes[k]));
	for (k = 0; chain && k < d->nchain; k++)
		json_array_append_new(chain, json_string(d->chain[k]));
	j = json_pack("{s:s s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o}",
		      "name", d->name,
		      "path_name", json_string(d->path_name),
		      "pci", str_or_null(d->has_pci ? d->pci : NULL),
		      "numa_nodes", nodes ? nodes : json_null(),
		      "local_cpus", str_or_null(d->has_pci ? d->cpus : NULL),
		      "local_cores", d->has_pci && d->cpus ? json_integer(d->ncores) : json_null(),
		      "local_pus", d->has_pci && d->cpus ? json_integer(d->npus) : json_null(),
		      "link", json_link(&d->link),
		      "port_link", json_link(&d->port_link),
		      "port", str_or_null(d->port),
		      "host_bridge", str_or_null(d->host_bridge),
		      "upstream", str_or_null(d->upstream),
		      "bridges", chain ? chain : json_null(),
		      "controller", str_or_null(d->controller),
		      "model", str_or_null(d->model),
		      "serial", str_or_null(d->serial),
		      "firmware", str_or_null(d->firmware),
		      "no_pci_reason", str_or_null(d->has_pci ? NULL : cli_no_pci_words(d->no_pci)));
	if (j) {
		json_object_set_new(j, "paths", json_paths(d));
		json_object_set_new(j, "iopolicy", str_or_null(d->iopolicy));
	}
	if (j && d->given[0])
		json_object_set_new(j, "target", json_string(d->given));
	return j;
}

/* "0000:41:00.0, 0000:42:00.0" as an array of strings. */
static json_t *split_ids(const char *s)
{
	json_t *a = json_array();
	const char *e;

	while (a && *s) {
		e = strchr(s, ',');
		json_array_append_new(a, json_stringn(s, e ? (size_t)(e - s) : strlen(s)));
		if (!e)
			break;
		for (s = e + 1; *s == ' '; s++)
			;
	}
	return a ? a : json_null();
}

/* [{name, node, ports: [{busid, free, functions, link}]}]; node null:
 * unknown. */
static json_t *json_bridges(const struct topo *t)
{
	const struct topo_host_bridge *hb;
	unsigned n = topo_host_bridges(t, &hb), i, k;
	json_t *a = json_array();

	for (i = 0; a && i < n; i++) {
		json_t *ports = json_array();

		for (k = 0; ports && k < hb[i].nports; k++) {
			const struct topo_port *p = &hb[i].ports[k];

			json_array_append_new(ports, json_pack("{s:s s:b s:o s:o}", "busid", p->busid,
				"free", !p->nfunctions, "functions", split_ids(p->below),
				"link", json_link(&p->link)));
		}
		json_array_append_new(a, json_pack("{s:s s:o s:o}", "name", hb[i].name,
			"node", int_or_null(hb[i].node), "ports", ports ? ports : json_null()));
	}
	return a ? a : json_null();
}

/* The figures a finding's text is said from, [{name, value}] by the names
 * topo/findings.c gives them (-1: not known). */
static json_t *values_json(const struct topo_finding *f)
{
	const char *const *names = topo_finding_num_names(f->kind);
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < TOPO_FINDING_NUMS && names[i]; i++)
		json_array_append_new(a, json_pack("{s:s, s:f}", "name", names[i], "value",
						   f->num[i]));
	return a;
}

/* [{cpus, cores, pus, rank, lesser, efficiency, core_type,
 * frequency_max_mhz, linux_capacity}], most performant first; [] where
 * hwloc knows no kind. */
static json_t *json_kinds(const struct topo *t)
{
	const struct topo_cpukind *k;
	bool ranked = topo_cpukind_basis(t) != TOPO_KIND_UNRANKED;
	unsigned n = topo_cpukinds(t, &k), i;
	json_t *a = json_array();

	for (i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack("{s:s s:i s:i s:i s:b s:o s:o s:o s:o}",
			"cpus", k[i].cpus, "cores", (int)k[i].cores, "pus", (int)k[i].pus,
			"rank", (int)k[i].rank, "lesser", ranked && k[i].rank > 0,
			"efficiency", int_or_null(k[i].efficiency),
			"core_type", str_or_null(k[i].core_type),
			"frequency_max_mhz", k[i].freq_max_mhz ?
				json_integer(k[i].freq_max_mhz) : json_null(),
			"linux_capacity", k[i].capacity ? json_integer(k[i].capacity) : json_null()));
	return a ? a : json_null();
}

static json_t *json_report(struct topo *t, const struct topo_dev *const *devs, unsigned ndevs,
			   const struct topo_finding *f, int nf)
{
	char text[CLI_TOPO_WORDS_MAX];
	json_t *root, *nodes = json_array(), *jd = json_array(), *jf = json_array();
	unsigned i, k;
	int j;

	root = json_pack("{s:s s:s s:o s:o s:o s:o}", "schema", CLI_JSON_SCHEMA, "command", "topo",
			 "nodes", nodes ? nodes : json_null(), "host_bridges", json_bridges(t),
			 "devices", jd ? jd : json_null(), "findings", jf ? jf : json_null());
	if (!root || !nodes || !jd || !jf) {
		json_decref(root);
		return NULL;
	}
	/* the machine that read the topology; the devices' settings are
	 * those of a run's targets, which topo has none of */
	json_object_set_new(root, "cpu_kinds", json_kinds(t));
	json_object_set_new(root, "cpu_kinds_basis",
			    json_string(topo_kind_basis_name(topo_cpukind_basis(t))));
	json_object_set_new(root, "setup", cli_json_setup(NULL, 0));
	for (i = 0; i < topo_nnodes(t); i++) {
		const struct topo_node *nd = topo_node(t, i);
		json_t *names = json_array();

		for (k = 0; names && k < ndevs; k++)
			if (dev_on_node(devs[k], nd->os_index))
				json_array_append_new(names, json_string(devs[k]->name));
		json_array_append_new(nodes, json_pack("{s:i s:i s:i s:I s:o s:o s:o s:o}",
			"os_index", (int)nd->os_index, "cores", (int)nd->cores, "pus", (int)nd->pus,
			"memory_bytes", (json_int_t)nd->memory_bytes,
			"cpuless", json_boolean(nd->cpuless),
			"cpus", json_string(nd->cpus),
			"host_bridges", json_string(nd->host_bridges),
			"devices", names ? names : json_null()));
	}
	for (k = 0; k < ndevs; k++)
		json_array_append_new(jd, json_dev(devs[k]));
	for (j = 0; j < nf; j++) {
		cli_topo_text(&f[j], text, sizeof(text));
		json_array_append_new(jf, json_pack("{s:s s:o s:s s:o}",
			"kind", topo_finding_kind_name(f[j].kind),
			"device", str_or_null(f[j].device), "text", text,
			"values", values_json(&f[j])));
	}
	return root;
}

/* The devices to report: the targets (a file and its disk are one device,
 * one row) or every NVMe namespace. The count, or -errno having said why
 * (a target that cannot be found is a runtime error, never -EINVAL). */
static int select_devs(struct topo *t, const struct cli_opts *o,
		       const struct topo_dev **devs)
{
	unsigned ndevs = 0, i, k;
	int ret;

	if (!o->ntargets) {
		for (i = 0; i < topo_ndevs(t); i++)
			devs[ndevs++] = topo_dev(t, i);
		return (int)ndevs;
	}
	for (i = 0; i < o->ntargets; i++) {
		ret = topo_lookup(t, o->targets[i], &devs[ndevs]);
		if (ret) {
			cli_say("%s: %s", o->targets[i],
				ret == -ENOENT && o->topology ? "no such block device in the topology" :
				strerror(-ret));
			return ret == -EINVAL ? -ENODEV : ret;
		}
		for (k = 0; k < ndevs && devs[k] != devs[ndevs]; k++)
			;
		ndevs += k == ndevs;
	}
	return (int)ndevs;
}

/* The topology, its devices and findings, as text, a drawing or JSON:
 * 0 or -errno, said. */
static int topo_report(const struct cli_opts *o)
{
	const struct topo_dev **devs = NULL;
	struct topo_finding *f = NULL;
	struct topo *t = NULL;
	int ndevs, nf = 0, rc;

	rc = cli_topo_load(o->topology, &t);
	if (rc)
		return rc;
	rc = -ENOMEM;
	devs = calloc((size_t)(o->ntargets ? o->ntargets : topo_ndevs(t)) + 1, sizeof(*devs));
	if (!devs)
		goto oom;
	ndevs = select_devs(t, o, devs);
	if (ndevs < 0) {
		rc = ndevs;
		goto out;
	}
	nf = topo_findings(t, devs, (unsigned)ndevs, &f);
	if (nf < 0)
		goto oom;
	if (o->dot && o->json && !strcmp(o->json, "-")) {
		cli_say("--dot and --json - both want stdout: give --json a file");
		rc = -EINVAL;
		goto out;
	}
	if (o->dot ? cli_topo_dot(stdout, t, o->topology, devs, (unsigned)ndevs, f, nf) :
		     (print_text(cli_out_text(o), t, o, devs, (unsigned)ndevs, f, nf), 0))
		goto oom;
	rc = 0;
	/* cli_out_json says why it could not write the report */
	if (o->json && cli_out_json(o->json, json_report(t, devs, (unsigned)ndevs, f, nf),
				    TOPO_JSON_FLAGS))
		rc = -EIO;
	goto out;
oom:
	cli_say("out of memory");
	rc = -ENOMEM;
out:
	free(f);
	free(devs);
	topo_free(t);
	return rc;
}

static int cmd_topo(int argc, char **argv)
{
	struct cli_opts o;
	int rc = cli_opts_cmdline(&o, &cli_verb_topo, argc, argv);

	if (!rc)
		rc = topo_report(&o);
	return cli_exit_status(rc);
}
