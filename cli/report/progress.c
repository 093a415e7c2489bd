/* The live progress line. Written from the reporting thread only, never from
 * a signal handler. */
#include "cli/report/progress.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static bool shown;

bool cli_progress_enabled(bool quiet)
{
	return !quiet && isatty(STDERR_FILENO);
}

/* 1234567 -> "1.23M": the live line only needs three digits. */
static void fmt_rate(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

static size_t term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

static size_t append(char *line, size_t len, size_t at, const char *s)
{
	int n = snprintf(line + at, len - at, "%s", s);

	if (n < 0 || (size_t)n >= len - at)
		return len;	/* no room: the caller stops adding */
	return at + (size_t)n;
}

void cli_progress_show(const char *phase, double elapsed_s, double total_s,
		       const struct cli_progress_dev *dev, unsigned ndev)
{
	char line[512], rate[32], head[96], piece[96];
	double sum = 0;
	size_t at, width = term_width() - 1;
	unsigned i;

	if (width >= sizeof(line))
		width = sizeof(line) - 1;
	for (i = 0; i < ndev; i++)
		sum += dev[i].iops;
	fmt_rate(rate, sizeof(rate), sum);
	if (total_s > 0)
		snprintf(head, sizeof(head), "[%s] %.0fs/%.0fs ETA %.0fs  total %s IOPS",
			 phase, elapsed_s, total_s,
			 total_s > elapsed_s ? total_s - elapsed_s : 0.0, rate);
	else
		snprintf(head, sizeof(head), "[%s] %.0fs  total %s IOPS", phase,
			 elapsed_s, rate);
	at = append(line, width + 1, 0, head);
	for (i = 0; ndev > 1 && i < ndev && at < width; i++) {
		fmt_rate(rate, sizeof(rate), dev[i].iops);
		snprintf(piece, sizeof(piece), "  %s %s", dev[i].name, rate);
		at = append(line, width + 1, at, piece);
	}
	line[at < width ? at : width] = '\0';
	cli_progress_line(line);
}

void cli_progress_line(const char *line)
{
	fprintf(stderr, "\r%.*s\033[K", (int)(term_width() - 1), line);
	fflush(stderr);
	shown = true;
}

void cli_progress_clear(void)
{
	if (!shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	shown = false;
}
