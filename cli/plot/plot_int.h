/* iostorm plot: a report drawn by gnuplot. cmd_plot.c reads the report and
 * picks the kind; each plot_KIND.c writes the body of a gnuplot script
 * (data inline as datablocks, one panel per plot); plot_gp.c writes the
 * strings, runs gnuplot on the script and puts its picture in place. No
 * drawing of our own. */
#ifndef CLI_PLOT_H
#define CLI_PLOT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/report/out.h"

/* Every panel's size in pixels: a picture is PLOT_WIDTH wide and
 * PLOT_PANEL_HEIGHT times its panels high (the tests read these). */
#define PLOT_WIDTH 900
#define PLOT_PANEL_HEIGHT 380

/* What a kind writes: the script's body on gp (after the terminal, before
 * the end of the multiplot), one `plot` per panel. Returns the panels
 * drawn (at least 1), or -ENODATA with err saying what is missing. r is
 * the whole report, its command already checked. */
typedef int (*plot_kind_fn)(FILE *gp, const json_t *r, char *err, size_t errlen);
/* A kind whose second panel draws a chosen metric (--metric: an enum
 * cli_metric) against its x axis; -EINVAL with err where this report
 * cannot draw one. */
typedef int (*plot_metric_fn)(FILE *gp, const json_t *r, int metric, char *err,
			      size_t errlen);

int cli_plot_run(FILE *gp, const json_t *r, char *err, size_t errlen);
int cli_plot_latency(FILE *gp, const json_t *r, char *err, size_t errlen);
/* The second panel p99 latency unless metric says another (cli_metrics). */
int cli_plot_sweep(FILE *gp, const json_t *r, int metric, char *err, size_t errlen);
/* A sweep by load ("by": "rate"), which cli_plot_sweep hands on. */
int cli_plot_sweep_rate(FILE *gp, const json_t *r, char *err, size_t errlen);
/* A --slo search's "slo" object: a panel per device (at most 8). */
int cli_plot_slo(FILE *gp, const json_t *slo, char *err, size_t errlen);
/* saturate --slo's search together: one panel, 0 where there is none. */
int cli_plot_slo_together(FILE *gp, const json_t *slo);
int cli_plot_saturate(FILE *gp, const json_t *r, char *err, size_t errlen);
int cli_plot_compare(FILE *gp, const json_t *r, int metric, char *err, size_t errlen);
/* tune's search: every candidate's runs with their intervals, by stage. */
int cli_plot_tune(FILE *gp, const json_t *r, char *err, size_t errlen);

/* ---- plot_gp.c: the script's pieces ---- */

/* s as a gnuplot single-quoted string: a quote doubled, control
 * characters, C1 controls, bytes that are not UTF-8 and U+FFFE/U+FFFF
 * (not XML) written as visible \xNN or \uNNNN text, at most 120 bytes of
 * it and "..." after. Inside single quotes gnuplot expands nothing (no
 * backquote commands, no @macros, no backslash escapes), and the terminal
 * is noenhanced, so a report's strings stay text. */
void cli_gp_str(FILE *gp, const char *s);
/* A panel's start: the settings of the last panel cleared, its title,
 * grid and key. */
void cli_gp_panel(FILE *gp, const char *title);
/* The key of an object as a number; NAN when absent or not a number. */
double cli_gp_num(const json_t *o, const char *key);
/* The key of an object as a string; NULL when absent or not a string. */
const char *cli_gp_name(const json_t *o, const char *key);

/* ---- plot_gp.c: gnuplot itself ---- */

/* Runs gnuplot (or $IOSTORM_GNUPLOT) on script and writes its picture
 * into out, a file cmd_plot.c reserved before it began (cli/report/out.h: the
 * temporary beside it is renamed into place, so a failed plot leaves no
 * half picture). 0; -ENOENT when gnuplot is not installed; -EIO when it
 * failed (err: its last line); other -errno with err naming the file.
 * out holds nothing after, either way. */
int cli_gp_render(const char *script, size_t len, struct cli_outfile *out, char *err,
		  size_t errlen);

#endif
