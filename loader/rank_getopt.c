/* getopt, getopt_long, getopt_long_only and __posix_getopt with GNU semantics, keeping the
 * scan state per rank and writing the calling copy's own optind/optarg/optopt.
 * Entered by any thread; a rank thread touches only its rank's state (glibc's is not
 * thread-safe either). Must not print anything but getopt's own diagnostics. */
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "loader/loader_internal.h"

/* How non-options are handled (GNU getopt's three orderings). */
enum order {
	PERMUTE,         /* default: options are moved ahead of non-options */
	REQUIRE_ORDER,   /* '+' or POSIXLY_CORRECT: stop at the first non-option */
	RETURN_IN_ORDER, /* '-': each non-option is returned as the argument of option 1 */
};

/* One call's view: the rank's state plus what the optstring says. */
struct scan {
	struct shl_libc *l;
	struct shl_getopt *g;
	int argc;
	char **argv;
	const char *opts;   /* optstring past its +/- and : flags */
	const struct option *longopts;
	int *longind;
	enum order order;
	bool colon;         /* leading ':' : missing argument returns ':' and nothing is printed */
	bool print;         /* opterr is set and optstring does not start with ':' */
	bool long_only;
};

static bool is_nonopt(const char *s)
{
	return s[0] != '-' || s[1] == '\0';
}

static void reverse(char **v, int from, int to)
{
	while (from < --to) {
		char *t = v[from];

		v[from++] = v[to];
		v[to] = t;
	}
}

/* argv[first_nonopt, last_nonopt) are skipped non-options, argv[last_nonopt, optind) options
 * seen since: rotate so the options come first (three reversals, no allocation). */
static void exchange(struct scan *s)
{
	struct shl_getopt *g = s->g;
	int optind = *s->l->optind;

	reverse(s->argv, g->first_nonopt, g->last_nonopt);
	reverse(s->argv, g->last_nonopt, optind);
	reverse(s->argv, g->first_nonopt, optind);
	g->first_nonopt += optind - g->last_nonopt;
	g->last_nonopt = optind;
}

/* A new scan: optind reset to 0 (or by the user to anything but where we left it) or a
 * different argv. */
static void restart(struct scan *s)
{
	struct shl_getopt *g = s->g;

	if (*s->l->optind == 0)
		*s->l->optind = 1;
	g->argv = s->argv;
	g->next = NULL;
	g->first_nonopt = g->last_nonopt = *s->l->optind;
	g->posixly = getenv("POSIXLY_CORRECT") != NULL;
	g->started = true;
}

static void parse_optstring(struct scan *s, const char *optstring)
{
	s->order = s->g->posixly ? REQUIRE_ORDER : PERMUTE;
	if (*optstring == '-') {
		s->order = RETURN_IN_ORDER;
		optstring++;
	} else if (*optstring == '+') {
		s->order = REQUIRE_ORDER;
		optstring++;
	}
	s->colon = *optstring == ':';
	s->print = *s->l->opterr && !s->colon;
	s->opts = optstring;
}

/* Find `name` (namelen bytes, not NUL-terminated) among the long options: an exact match, or
 * the only option it abbreviates. Several abbreviated matches that differ are ambiguous:
 * *ambiguous is set and NULL returned. */
static const struct option *find_long(struct scan *s, const char *name, size_t namelen,
				      int *index, bool *ambiguous)
{
	const struct option *found = NULL;
	int i;

	*ambiguous = false;
	for (i = 0; s->longopts[i].name; i++)
		if (!strncmp(s->longopts[i].name, name, namelen) &&
		    strlen(s->longopts[i].name) == namelen) {
			*index = i;
			return &s->longopts[i];
		}
	for (i = 0; s->longopts[i].name; i++) {
		const struct option *o = &s->longopts[i];

		if (strncmp(o->name, name, namelen))
			continue;
		if (!found) {
			found = o;
			*index = i;
		} else if (o->has_arg != found->has_arg || o->flag != found->flag ||
			   o->val != found->val) {
			*ambiguous = true;
		}
	}
	return *ambiguous ? NULL : found;
}

static void print_candidates(struct scan *s, const char *prefix, const char *name,
			     size_t namelen)
{
	fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:", s->argv[0], prefix,
		name);
	for (int i = 0; s->longopts[i].name; i++)
		if (!strncmp(s->longopts[i].name, name, namelen))
			fprintf(stderr, " '%s%s'", prefix, s->longopts[i].name);
	fputc('\n', stderr);
}

/* The long option whose name starts at `text` (after "--", "-" or "-W "). `consumed` says
 * whether argv[optind] is the element holding it (then it is stepped over); for -W the
 * element was already taken. Returns the option's value, 0 for a flag, '?' or ':' for an
 * error, or -1 when long_only should retry it as short options. */
static int take_long(struct scan *s, const char *text, const char *prefix, bool consumed)
{
	struct shl_libc *l = s->l;
	const char *end = text;
	const struct option *o;
	bool ambiguous;
	int index = 0;

	while (*end && *end != '=')
		end++;
	o = find_long(s, text, (size_t)(end - text), &index, &ambiguous);
	if (ambiguous) {
		if (s->print)
			print_candidates(s, prefix, text, (size_t)(end - text));
		goto bad;
	}
	if (!o) {
		/* getopt_long_only: "-f" that is no long option may still be short option f */
		if (s->long_only && consumed && s->argv[*l->optind][1] != '-' &&
		    strchr(s->opts, *text))
			return -1;
		if (s->print)
			fprintf(stderr, "%s: unrecognized option '%s%s'\n", s->argv[0], prefix, text);
		goto bad;
	}
	s->g->next = NULL;
	if (consumed)
		(*l->optind)++;
	if (*end == '=') {
		if (o->has_arg == no_argument) {
			if (s->print)
				fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n",
					s->argv[0], prefix, o->name);
			*l->optopt = o->val;
			return '?';
		}
		*l->optarg = (char *)end + 1;
	} else if (o->has_arg == required_argument) {
		if (*l->optind >= s->argc) {
			if (s->print)
				fprintf(stderr, "%s: option '%s%s' requires an argument\n",
					s->argv[0], prefix, o->name);
			*l->optopt = o->val;
			return s->colon ? ':' : '?';
		}
		*l->optarg = s->argv[(*l->optind)++];
	}
	if (s->longind)
		*s->longind = index;
	if (o->flag) {
		*o->flag = o->val;
		return 0;
	}
	return o->val;
bad:
	s->g->next = NULL;
	if (consumed)
		(*l->optind)++;
	*l->optopt = 0;
	return '?';
}

/* Step to the next argv element that holds options, permuting or stopping at non-options as
 * the ordering says. Returns 0 with g->next set, or the value getopt must return. */
static int advance(struct scan *s)
{
	struct shl_getopt *g = s->g;
	int *optind = s->l->optind;

	/* The user may have moved optind back; keep the non-option window inside argv. */
	if (g->last_nonopt > *optind)
		g->last_nonopt = *optind;
	if (g->first_nonopt > *optind)
		g->first_nonopt = *optind;
	if (s->order == PERMUTE) {
		if (g->first_nonopt != g->last_nonopt && g->last_nonopt != *optind)
			exchange(s);
		else if (g->last_nonopt != *optind)
			g->first_nonopt = *optind;
		while (*optind < s->argc && is_nonopt(s->argv[*optind]))
			(*optind)++;
		g->last_nonopt = *optind;
	}
	/* "--" ends the options; what follows are operands, after any skipped ones. */
	if (*optind != s->argc && !strcmp(s->argv[*optind], "--")) {
		(*optind)++;
		if (g->first_nonopt != g->last_nonopt && g->last_nonopt != *optind)
			exchange(s);
		else if (g->first_nonopt == g->last_nonopt)
			g->first_nonopt = *optind;
		g->last_nonopt = s->argc;
		*optind = s->argc;
	}
	if (*optind == s->argc) {
		if (g->first_nonopt != g->last_nonopt)
			*optind = g->first_nonopt;
		return -1;
	}
	if (is_nonopt(s->argv[*optind])) {
		if (s->order == REQUIRE_ORDER)
			return -1;
		*s->l->optarg = s->argv[(*optind)++];
		return 1;
	}
	g->next = s->argv[*optind] + 1;
	return 0;
}

/* -W foo means --foo when the optstring has "W;" and there are long options. */
static int take_w(struct scan *s)
{
	struct shl_libc *l = s->l;
	const char *arg;

	if (*s->g->next) {
		arg = s->g->next;
		(*l->optind)++;
	} else if (*l->optind >= s->argc) {
		if (s->print)
			fprintf(stderr, "%s: option requires an argument -- '%c'\n", s->argv[0], 'W');
		*l->optopt = 'W';
		return s->colon ? ':' : '?';
	} else {
		arg = s->argv[(*l->optind)++];
	}
	s->g->next = NULL;
	return take_long(s, arg, "-W ", false);
}

/* The next character of the current -abc cluster. */
static int take_short(struct scan *s)
{
	struct shl_libc *l = s->l;
	struct shl_getopt *g = s->g;
	char c = *g->next++;
	const char *spec = strchr(s->opts, c);

	if (*g->next == '\0')
		(*l->optind)++;
	if (!spec || c == ':' || c == ';') {
		if (s->print)
			fprintf(stderr, "%s: invalid option -- '%c'\n", s->argv[0], c);
		*l->optopt = (unsigned char)c;
		return '?';
	}
	if (spec[0] == 'W' && spec[1] == ';' && s->longopts)
		return take_w(s);
	if (spec[1] != ':')
		return (unsigned char)c;
	if (spec[2] == ':') {
		/* optional argument: only glued to the option */
		if (*g->next) {
			*l->optarg = (char *)g->next;
			(*l->optind)++;
		}
	} else if (*g->next) {
		*l->optarg = (char *)g->next;
		(*l->optind)++;
	} else if (*l->optind >= s->argc) {
		if (s->print)
			fprintf(stderr, "%s: option requires an argument -- '%c'\n", s->argv[0], c);
		*l->optopt = (unsigned char)c;
		c = s->colon ? ':' : '?';
	} else {
		*l->optarg = s->argv[(*l->optind)++];
	}
	g->next = NULL;
	return (unsigned char)c;
}

/* A program not built by mpicc (linked with -lmpi directly, run as a singleton) registered
 * nothing: use the variables its references resolve to, which are ours too. */
static void bind_vars(struct shl_libc *l)
{
	if (l->optind)
		return;
	l->optind = &optind;
	l->opterr = &opterr;
	l->optopt = &optopt;
	l->optarg = &optarg;
}

static int scan(int argc, char *const *argv, const char *optstring,
		const struct option *longopts, int *longind, bool long_only, bool posix)
{
	struct scan s = { .argc = argc, .argv = (char **)argv, .longopts = longopts,
			  .longind = longind, .long_only = long_only };
	struct shl_getopt *g;
	int r;

	s.l = shl_loader_libc();
	bind_vars(s.l);
	g = s.g = &s.l->go;
	if (argc < 1)
		return -1;
	*s.l->optarg = NULL;
	if (*s.l->optind == 0 || !g->started || g->argv != argv ||
	    *s.l->optind != g->last_optind)
		restart(&s);
	parse_optstring(&s, optstring);
	if (posix && s.order == PERMUTE)
		s.order = REQUIRE_ORDER;

	if (!g->next || !*g->next) {
		r = advance(&s);
		if (r)
			goto out;
		if (longopts && s.argv[*s.l->optind][1] == '-') {
			g->next += 1;
			r = take_long(&s, g->next, "--", true);
			goto out;
		}
		if (longopts && long_only &&
		    (s.argv[*s.l->optind][2] || !strchr(s.opts, s.argv[*s.l->optind][1]))) {
			r = take_long(&s, g->next, "-", true);
			if (r != -1)
				goto out;
		}
	}
	r = take_short(&s);
out:
	g->last_optind = *s.l->optind;
	return r;
}

SHL_LOADER_EXPORT int getopt(int argc, char *const argv[], const char *optstring)
{
	return scan(argc, argv, optstring, NULL, NULL, false, false);
}

/* <getopt.h> maps getopt here for strict POSIX builds: no permutation. */
SHL_LOADER_EXPORT int __posix_getopt(int argc, char *const argv[], const char *optstring)
{
	return scan(argc, argv, optstring, NULL, NULL, false, true);
}

SHL_LOADER_EXPORT int getopt_long(int argc, char *const argv[], const char *optstring,
				  const struct option *longopts, int *longind)
{
	return scan(argc, argv, optstring, longopts, longind, false, false);
}

SHL_LOADER_EXPORT int getopt_long_only(int argc, char *const argv[], const char *optstring,
				       const struct option *longopts, int *longind)
{
	return scan(argc, argv, optstring, longopts, longind, true, false);
}
