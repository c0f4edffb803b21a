/* args.c - one option parser for every command: the command's options
 * from flags.def (and the rules' from passes/options.def) as one
 * getopt_long table, files kept in the order given, errors as one line
 * naming the option.  libc's getopt_long, not a parser of our own: it
 * already has the conventions users expect (--opt=value, -oFILE, -hj4,
 * unambiguous prefixes, "--"), and every CLI they use behaves like it. */
#include "args.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"

const struct flag_info flag_table[FLAG_COUNT] = {
#define FLAG(id, c, name, arg, cmds, kind, help) { c, name, arg, help, cmds, kind },
#include "flags.def"
#undef FLAG
};

const struct command_info command_table[CMD_COUNT] = {
#define COMMAND(id, name, minpos, maxpos, files, summary, about, exits) \
	{ #name, files, summary, about, exits, minpos, maxpos },
#include "commands.def"
#undef COMMAND
};

/* getopt_long's value for flag k, or for rule option k (FLAG_RULE + k). */
#define ARGS_VAL(k) (256 + (k))

static bool args_for(enum cmd_id cmd, enum flag_id f)
{
	return (flag_table[f].cmds & (1u << cmd)) != 0;
}

/* The long options of cmd (NULL-terminated, malloc'd) and its short ones
 * ("-:" first: files come back in order as 1, a missing value as ':'). */
static struct option *args_table(enum cmd_id cmd, char *shorts, size_t cap)
{
	int n = 0, rules = (CMDS_RULES & (1u << cmd)) ? CONFIG_OPT_COUNT : 0;
	struct option *o = xcalloc(FLAG_COUNT + (size_t)rules + 1, sizeof *o);
	size_t s = 0;
	shorts[s++] = '-';
	shorts[s++] = ':';
	for (int f = 0; f < FLAG_COUNT; f++) {
		if (!args_for(cmd, (enum flag_id)f))
			continue;
		o[n++] = (struct option){ flag_table[f].name, flag_table[f].arg ? required_argument : no_argument,
					  NULL, ARGS_VAL(f) };
		if (flag_table[f].c && s + 3 < cap) {
			shorts[s++] = (char)flag_table[f].c;
			if (flag_table[f].arg)
				shorts[s++] = ':';
		}
	}
	for (int k = 0; k < rules; k++)
		o[n++] = (struct option){ config_options[k].name, required_argument, NULL, ARGS_VAL(FLAG_RULE + k) };
	shorts[s] = 0;
	return o;
}

static enum flag_id args_short(enum cmd_id cmd, int c)
{
	for (int f = 0; f < FLAG_COUNT; f++)
		if (flag_table[f].c == c && args_for(cmd, (enum flag_id)f))
			return (enum flag_id)f;
	return FLAG_COUNT;
}

/* "--name" of an argument "--name=value". */
static int args_name_len(const char *s)
{
	return (int)strcspn(s, "=");
}

/* "check, mem and diff": the commands of the set cmds. */
static const char *args_command_list(unsigned cmds, char *buf, size_t cap)
{
	int n = 0, total = __builtin_popcount(cmds);
	size_t len = 0;
	buf[0] = 0;
	for (int k = 0; k < CMD_COUNT && len < cap; k++)
		if (cmds & (1u << k)) {
			n++;
			len += (size_t)snprintf(buf + len, cap - len, "%s%s", n == 1 ? "" : n == total ? " and " : ", ",
						command_table[k].name);
		}
	return buf;
}

/* The error line for getopt_long's '?': an unknown, ambiguous or
 * valueless-given-a-value long option, or an unknown short one. */
static void args_unknown(enum cmd_id cmd, const struct option *o, const char *arg, int opt)
{
	const char *name = command_table[cmd].name;
	if (opt >= ARGS_VAL(0)) {
		fprintf(stderr, "hlolint: error: option '%.*s' takes no value\n", args_name_len(arg), arg);
		return;
	}
	if (opt) {
		fprintf(stderr, "hlolint: error: unknown option '-%c' for %s (see 'hlolint %s --help')\n", opt, name,
			name);
		return;
	}
	int n = args_name_len(arg) - 2, hits = 0;
	char alts[256] = "";
	for (const struct option *p = o; p->name; p++)
		if (n > 0 && !strncmp(p->name, arg + 2, (size_t)n) && ++hits <= 4) {
			size_t l = strlen(alts);
			snprintf(alts + l, sizeof alts - l, "%s--%s", hits > 1 ? ", " : "", p->name);
		}
	unsigned others = 0;
	for (int f = 0; f < FLAG_COUNT && hits <= 1; f++)
		if ((int)strlen(flag_table[f].name) == n && !strncmp(flag_table[f].name, arg + 2, (size_t)n))
			others |= flag_table[f].cmds;
	if (hits > 1)
		fprintf(stderr, "hlolint: error: ambiguous option '%.*s' for %s: %s%s\n", n + 2, arg, name, alts,
			hits > 4 ? ", ..." : "");
	else if (others)
		fprintf(stderr, "hlolint: error: option '%.*s' is for %s, not %s\n", n + 2, arg,
			args_command_list(others, alts, sizeof alts), name);
	else
		fprintf(stderr, "hlolint: error: unknown option '%.*s' for %s (see 'hlolint %s --help' and "
				"'hlolint rules')\n", n + 2, arg, name, name);
}

static void args_push(struct args *a, enum flag_id f, int rule, const char *v)
{
	a->opts = xreallocarray(a->opts, (size_t)a->nopts + 1, sizeof *a->opts);
	a->opts[a->nopts++] = (struct arg){ f, rule, v };
}

/* The count of files against the command's. */
static bool args_files_ok(const struct args *a)
{
	const struct command_info *c = &command_table[a->cmd];
	if (a->nfiles >= c->minpos && (c->maxpos < 0 || a->nfiles <= c->maxpos))
		return true;
	if (c->maxpos == 0)
		fprintf(stderr, "hlolint: error: %s takes no arguments, got '%s'\n", c->name, a->files[0]);
	else if (a->nfiles < c->minpos)
		fprintf(stderr, "hlolint: error: %s needs %s (see 'hlolint %s --help')\n", c->name, c->files, c->name);
	else
		fprintf(stderr, "hlolint: error: %s takes %s, got '%s' too\n", c->name, c->files,
			a->files[c->maxpos]);
	return false;
}

bool args_parse(enum cmd_id cmd, int argc, char **argv, struct args *a)
{
	char shorts[64];
	struct option *o = args_table(cmd, shorts, sizeof shorts);
	memset(a, 0, sizeof *a);
	a->cmd = cmd;
	a->files = xcalloc((size_t)argc + 1, sizeof *a->files);
	bool ok = true;
	int c;
	opterr = 0;
	optind = 0;   /* glibc: start afresh */
	while (ok && (c = getopt_long(argc, argv, shorts, o, NULL)) != -1) {
		if (c == 1) {
			a->files[a->nfiles++] = optarg;
		} else if (c == '?') {
			args_unknown(cmd, o, argv[optind - 1], optopt);
			ok = false;
		} else if (c == ':') {
			if (optopt >= ARGS_VAL(FLAG_RULE))
				fprintf(stderr, "hlolint: error: option '--%s' needs a value\n",
					config_options[optopt - ARGS_VAL(FLAG_RULE)].name);
			else if (optopt >= ARGS_VAL(0))
				fprintf(stderr, "hlolint: error: option '--%s' needs a value\n",
					flag_table[optopt - ARGS_VAL(0)].name);
			else
				fprintf(stderr, "hlolint: error: option '-%c' needs a value\n", optopt);
			ok = false;
		} else if (c >= ARGS_VAL(FLAG_RULE)) {
			args_push(a, FLAG_RULE, c - ARGS_VAL(FLAG_RULE), optarg);
		} else {
			enum flag_id f = c >= ARGS_VAL(0) ? (enum flag_id)(c - ARGS_VAL(0)) : args_short(cmd, c);
			args_push(a, f, -1, flag_table[f].arg ? optarg : NULL);
			a->help |= f == FLAG_HELP;
		}
	}
	for (int k = optind; ok && k < argc; k++)   /* after "--" */
		a->files[a->nfiles++] = argv[k];
	free(o);
	return ok && (a->help || args_files_ok(a));
}

void args_free(struct args *a)
{
	free(a->opts);
	free(a->files);
	memset(a, 0, sizeof *a);
}

bool args_has(const struct args *a, enum flag_id flag)
{
	for (int k = 0; k < a->nopts; k++)
		if (a->opts[k].flag == flag)
			return true;
	return false;
}

const char *args_value(const struct args *a, enum flag_id flag)
{
	const char *v = NULL;
	for (int k = 0; k < a->nopts; k++)
		if (a->opts[k].flag == flag)
			v = a->opts[k].value;
	return v;
}

bool args_uint(const struct args *a, enum flag_id flag, unsigned *out)
{
	const char *v = args_value(a, flag);
	char *end;
	if (!v)
		return true;
	unsigned long n = strtoul(v, &end, 10);
	if (*v == '-' || end == v || *end || n > 1000000000ul) {
		fprintf(stderr, "hlolint: error: option '--%s' expects a number, got '%s'\n", flag_table[flag].name, v);
		return false;
	}
	*out = (unsigned)n;
	return true;
}

bool args_config(const struct args *a, struct config *c)
{
	char err[512], name[160];
	for (int k = 0; k < a->nopts; k++) {
		const struct arg *g = &a->opts[k];
		if (g->flag == FLAG_EXIT_ZERO) {
			c->exit_zero = true;
			continue;
		}
		if (g->flag == FLAG_REQUIRE_TARGET || g->flag == FLAG_NO_REQUIRE_TARGET) {
			c->require_target = g->flag == FLAG_REQUIRE_TARGET;
			continue;
		}
		if (g->flag != FLAG_RULE && flag_table[g->flag].kind != FLAGK_CONFIG)
			continue;
		snprintf(name, sizeof name, "--%s", g->flag == FLAG_RULE ? config_options[g->rule_option].name :
			 flag_table[g->flag].name);
		int r = config_set_arg(c, name, g->value, err, sizeof err);
		if (r <= 0) {
			fprintf(stderr, "hlolint: error: %s\n", r < 0 ? "internal error: an option without a setting" : err);
			return false;
		}
	}
	return true;
}

/* Edit distance between a and b, a swap of two neighbours counting one
 * (short words: commands). */
static int args_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	int d[32][32];
	if (n >= 32 || m >= 32)
		return 99;
	for (size_t i = 0; i <= n; i++)
		for (size_t j = 0; j <= m; j++) {
			if (!i || !j) {
				d[i][j] = (int)(i + j);
				continue;
			}
			int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[n][m];
}

enum cmd_id args_command(const char *word)
{
	for (int k = 0; k < CMD_COUNT; k++)
		if (!strcmp(word, command_table[k].name))
			return (enum cmd_id)k;
	return CMD_COUNT;
}

const char *args_suggest_command(const char *word)
{
	const char *best = NULL;
	int bd = 3;   /* at most two edits away, or a prefix */
	for (int k = 0; k < CMD_COUNT; k++) {
		const char *n = command_table[k].name;
		int d = strlen(word) >= 2 && !strncmp(n, word, strlen(word)) ? 0 : args_distance(word, n);
		if (d < bd) {
			bd = d;
			best = n;
		}
	}
	return best;
}
