/* Finding the file the dynamic linker would load for a library name, without loading it:
 * glibc 2.36's rules on x86-64 with Debian's multiarch directories (ld.so(8) and the loader
 * sources of glibc's elf/ folder describe them). Owns what ld.so knows of this
 * machine (the CPU's hwcaps subdirectories, $PLATFORM), LD_LIBRARY_PATH as it was at process
 * start and a parsed copy of /etc/ld.so.cache, read again when the file changes (ld.so drops
 * its copy after each load and reads the file again on the next one).
 * Entered by the node's main thread and by rank threads (dlopen); the machine facts are set
 * once (pthread_once), LD_LIBRARY_PATH by a constructor before any thread, the cache under
 * its mutex. Prints nothing. */
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/lib_search.h"

/* What $LIB expands to: Debian builds glibc with this value (upstream's is the last
 * component of the library directory). */
#define SHL_SEARCH_DST_LIB "lib/x86_64-linux-gnu"
/* The default directories, in ld.so's order (`ld.so --help`, "System search path"). */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu/", "/usr/lib/x86_64-linux-gnu/", "/lib/", "/usr/lib/",
};
#define SHL_SEARCH_CACHE "/etc/ld.so.cache"

/* ld.so's x86-64 ISA levels (GNU_PROPERTY_X86_ISA_1_*): bit 0 baseline, 1 v2, 2 v3, 3 v4. */
enum {
	SHL_SEARCH_ISA_BASELINE = 1,
	SHL_SEARCH_ISA_V2 = 2,
	SHL_SEARCH_ISA_V3 = 4,
	SHL_SEARCH_ISA_V4 = 8,
};
/* Legacy hwcaps bits of ld.so's hwcap word on x86-64 and the bits of a cache entry's hwcap
 * that name a platform ("haswell" 50, "xeon_phi" 51: index in i586, i686, haswell,
 * xeon_phi plus 48) or mark a glibc-hwcaps entry. */
#define SHL_SEARCH_HWCAP_X86_64 (1ull << 1)
#define SHL_SEARCH_HWCAP_AVX512_1 (1ull << 2)
#define SHL_SEARCH_CACHE_HWCAP_PLATFORMS (0xfull << 48)
#define SHL_SEARCH_CACHE_HWCAP_TLS (1ull << 63)
#define SHL_SEARCH_CACHE_HWCAP_EXTENSION (1ull << 62)
#define SHL_SEARCH_CACHE_ISA_LEVEL_MASK 0x3ffu
/* Flags of a cache entry for an x86-64 libc6 library: the only ones ld.so takes. */
#define SHL_SEARCH_CACHE_FLAGS_X86_64 0x0303

/* Subdirectories tried in each search directory: glibc-hwcaps ones (at most 3), then the
 * power set of the legacy names (tls, platform, up to two hwcap names: 16), "" last. */
#define SHL_SEARCH_MAX_CAPS 19

/* The machine as ld.so sees it: set once, read-only after. */
static struct {
	pthread_once_t once;
	unsigned isa;          /* SHL_SEARCH_ISA_* bits the CPU can run */
	const char *platform;  /* $PLATFORM: "haswell", "xeon_phi" or AT_PLATFORM; may be NULL */
	uint64_t hwcap;        /* SHL_SEARCH_HWCAP_* bits */
	const char *active[3]; /* glibc-hwcaps subdirectories searched, best first */
	int nactive;
	/* Subdirectories of a search directory, each "" or ending in '/'. */
	char caps[SHL_SEARCH_MAX_CAPS][64];
	int ncaps;
} machine = { .once = PTHREAD_ONCE_INIT };

/* LD_LIBRARY_PATH at process start; NULL when unset, empty, or the process is secure (ld.so
 * ignores it then). */
static char *library_path;

/* The parsed cache: the file's bytes and where its tables are. `data` NULL: no usable cache. */
static struct {
	pthread_mutex_t lock;
	bool read;             /* the file was looked at (even if unusable) */
	struct stat st;        /* the file read, to see it change */
	unsigned char *data;
	size_t size;
	size_t entries;        /* offset of the first entry */
	size_t entry_size;     /* 24 (new format) or 12 (old format only) */
	uint32_t nlibs;
	size_t strings;        /* offset strings are counted from */
	const uint32_t *hwcaps_names; /* glibc-hwcaps section: file offsets of subdirectory names */
	uint32_t nhwcaps_names;
} cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

__attribute__((constructor)) static void read_library_path(void)
{
	const char *llp = getenv("LD_LIBRARY_PATH");

	if (llp && *llp && !getauxval(AT_SECURE))
		library_path = strdup(llp);
}

static bool bit(unsigned word, int n)
{
	return (word >> n) & 1u;
}

/* The CPU features ld.so counts as usable, as ISA levels and legacy hwcaps. */
static void read_cpu(void)
{
	unsigned max, a, b, c, d, c1 = 0, d1 = 0, b7 = 0, c81 = 0;
	char vendor[12];

	__cpuid(0, max, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	if (max >= 1)
		__cpuid(1, a, b, c1, d1);
	if (max >= 7)
		__cpuid_count(7, 0, a, b7, c, d);
	if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000001u)
		__cpuid(0x80000001u, a, b, c81, d);

	/* AVX needs the OS to save YMM state, AVX-512 also the mask and ZMM state. */
	bool ymm = false, zmm = false;
	if (bit(c1, 27) && bit(c1, 26)) { /* OSXSAVE, XSAVE */
		unsigned lo, hi;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		ymm = (lo & 6u) == 6u;
		zmm = ymm && (lo & 0xe0u) == 0xe0u;
	}
	bool avx = ymm && bit(c1, 28), avx2 = avx && bit(b7, 5), fma = avx && bit(c1, 12);
	bool f16c = avx && bit(c1, 29), avx512f = zmm && bit(b7, 16);
	bool avx512dq = avx512f && bit(b7, 17), avx512pf = avx512f && bit(b7, 26);
	bool avx512er = avx512f && bit(b7, 27), avx512cd = avx512f && bit(b7, 28);
	bool avx512bw = avx512f && bit(b7, 30), avx512vl = avx512f && bit(b7, 31);
	bool bmi1 = bit(b7, 3), bmi2 = bit(b7, 8), lzcnt = bit(c81, 5), movbe = bit(c1, 22);
	bool popcnt = bit(c1, 23);

	if (bit(d1, 0) && bit(d1, 8) && bit(d1, 15) && bit(d1, 23) && bit(d1, 24) &&
	    bit(d1, 25) && bit(d1, 26)) {
		machine.isa = SHL_SEARCH_ISA_BASELINE;
		if (bit(c1, 13) && bit(c81, 0) && popcnt && bit(c1, 0) && bit(c1, 9) &&
		    bit(c1, 19) && bit(c1, 20)) {
			machine.isa |= SHL_SEARCH_ISA_V2;
			if (avx && avx2 && f16c && fma && lzcnt && movbe) {
				machine.isa |= SHL_SEARCH_ISA_V3;
				if (avx512f && avx512bw && avx512cd && avx512dq && avx512vl)
					machine.isa |= SHL_SEARCH_ISA_V4;
			}
		}
	}

	/* The platform is the kernel's, except on Intel CPUs, where ld.so names the ones it
	 * has libraries tuned for; avx512_1 is an Intel-only legacy hwcap too. */
	machine.hwcap = SHL_SEARCH_HWCAP_X86_64;
	machine.platform = (const char *)getauxval(AT_PLATFORM);
	if (machine.platform && !*machine.platform)
		machine.platform = NULL;
	if (!memcmp(vendor, "GenuineIntel", 12)) {
		const char *platform = NULL;

		if (avx512cd) {
			if (avx512er) {
				if (avx512pf)
					platform = "xeon_phi";
			} else if (avx512bw && avx512dq && avx512vl) {
				machine.hwcap |= SHL_SEARCH_HWCAP_AVX512_1;
			}
		}
		if (!platform && avx2 && fma && bmi1 && bmi2 && lzcnt && movbe && popcnt)
			platform = "haswell";
		if (platform)
			machine.platform = platform;
	}
}

/* The subdirectories ld.so tries in every search directory, in its order. */
static void read_machine(void)
{
	static const char *const levels[] = { "x86-64-v4", "x86-64-v3", "x86-64-v2" };
	static const unsigned level_bits[] = {
		SHL_SEARCH_ISA_V4, SHL_SEARCH_ISA_V3, SHL_SEARCH_ISA_V2,
	};
	const char *names[4];
	int n = 0;

	read_cpu();
	for (int i = 0; i < 3; i++)
		if (machine.isa & level_bits[i])
			machine.active[machine.nactive++] = levels[i];
	for (int i = 0; i < machine.nactive; i++)
		snprintf(machine.caps[machine.ncaps++], sizeof(machine.caps[0]), "glibc-hwcaps/%s/",
			 machine.active[i]);

	/* Legacy names, lowest first: the hwcap names by bit, the platform, "tls". A subset
	 * is spelled highest name first; subsets go from all names down to none, the highest
	 * name deciding first. */
	if (machine.hwcap & SHL_SEARCH_HWCAP_X86_64)
		names[n++] = "x86_64";
	if (machine.hwcap & SHL_SEARCH_HWCAP_AVX512_1)
		names[n++] = "avx512_1";
	if (machine.platform && strlen(machine.platform) < 16)
		names[n++] = machine.platform;
	names[n++] = "tls";
	for (unsigned set = (1u << n); set-- > 0;) {
		char *cap = machine.caps[machine.ncaps++];

		cap[0] = '\0';
		for (int i = n - 1; i >= 0; i--)
			if (set & (1u << i)) {
				strcat(cap, names[i]);
				strcat(cap, "/");
			}
	}
}

static void know_machine(void)
{
	pthread_once(&machine.once, read_machine);
}

/* Length of the dynamic string token `ref` at `in` (just after its '$'), braces counted:
 * "ORIGIN" or "{ORIGIN}", not followed by a letter, digit or '_'; 0 if none. */
static size_t token(const char *in, const char *ref)
{
	bool curly = in[0] == '{';
	size_t len = strlen(ref);

	if (curly)
		in++;
	if (strncmp(in, ref, len))
		return 0;
	if (curly)
		return in[len] == '}' ? len + 2 : 0;
	char next = in[len];
	if ((next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z') ||
	    (next >= '0' && next <= '9') || next == '_')
		return 0;
	return len;
}

/* `in` (len bytes) with $ORIGIN, $PLATFORM and $LIB replaced (malloc'd); "" when a token
 * has no value (ld.so then drops the entry). *had_origin says whether $ORIGIN was used. */
static char *expand(const char *in, size_t len, const char *origin, bool *had_origin)
{
	size_t cap = len + 1, o = 0, longest = strlen(SHL_SEARCH_DST_LIB);
	char *out;

	if (origin && strlen(origin) > longest)
		longest = strlen(origin);
	if (machine.platform && strlen(machine.platform) > longest)
		longest = strlen(machine.platform);
	for (size_t i = 0; i < len; i++)
		if (in[i] == '$')
			cap += longest;
	out = malloc(cap);
	if (!out)
		return NULL;
	*had_origin = false;
	for (size_t i = 0; i < len;) {
		if (in[i] != '$') {
			out[o++] = in[i++];
			continue;
		}
		const char *value = NULL;
		size_t n;

		i++;
		if ((n = token(in + i, "ORIGIN"))) {
			value = origin;
			*had_origin = true;
		} else if ((n = token(in + i, "PLATFORM"))) {
			value = machine.platform;
		} else if ((n = token(in + i, "LIB"))) {
			value = SHL_SEARCH_DST_LIB;
		}
		if (!n) {
			out[o++] = '$';
			continue;
		}
		if (!value) {
			out[0] = '\0';
			return out;
		}
		memcpy(out + o, value, strlen(value));
		o += strlen(value);
		i += n;
	}
	out[o] = '\0';
	return out;
}

enum verdict {
	LOADS,  /* ld.so takes this file */
	PASSED, /* no file, or one ld.so passes over: it goes on searching */
	STOPS,  /* ld.so fails the load at this file */
};

/* What ld.so makes of the file at `path`, from its ELF header. *err is the errno of a
 * failure; *other_class is set for a file of the other ELF class. */
static enum verdict check_file(const char *path, int *err, bool *other_class)
{
	unsigned char buf[832];
	Elf64_Ehdr eh;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		*err = errno;
		return PASSED;
	}
	errno = 0;
	while (len < sizeof(eh)) {
		ssize_t r = read(fd, buf + len, sizeof(buf) - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	enum verdict v = STOPS;
	*err = ENOEXEC;
	if (len < sizeof(eh)) {
		if (errno)
			*err = errno;
		goto out;
	}
	memcpy(&eh, buf, sizeof(eh));
	const unsigned char *id = eh.e_ident;
	bool osabi_ok = id[EI_OSABI] == ELFOSABI_SYSV || id[EI_OSABI] == ELFOSABI_GNU;
	/* glibc 2.36's x86-64 ABI versions: 0 default, 1 unique, 2 ifunc, 3 absolute. */
	bool abi_ok = id[EI_ABIVERSION] == 0 ||
		      (id[EI_OSABI] == ELFOSABI_GNU && id[EI_ABIVERSION] < 4);
	bool pad_ok = true;
	for (int i = EI_PAD; i < EI_NIDENT; i++)
		pad_ok &= id[i] == 0;
	if (memcmp(id, ELFMAG, SELFMAG))
		goto out;
	if (id[EI_CLASS] != ELFCLASS64) {
		*other_class = true;
		*err = ENOENT;
		v = PASSED;
		goto out;
	}
	if (id[EI_DATA] != ELFDATA2LSB || id[EI_VERSION] != EV_CURRENT || !osabi_ok || !abi_ok ||
	    !pad_ok || eh.e_version != EV_CURRENT)
		goto out;
	if (eh.e_machine != EM_X86_64) {
		*err = ENOENT;
		v = PASSED;
		goto out;
	}
	if ((eh.e_type != ET_DYN && eh.e_type != ET_EXEC) || eh.e_phentsize != sizeof(Elf64_Phdr))
		goto out;
	/* ld.so reads the program headers next; a file too short for them stops it. */
	size_t phlen = (size_t)eh.e_phnum * sizeof(Elf64_Phdr);
	if (eh.e_phoff + phlen > len) {
		void *ph = malloc(phlen ? phlen : 1);
		ssize_t r;

		if (!ph) {
			*err = ENOMEM;
			goto out;
		}
		errno = 0;
		r = pread(fd, ph, phlen, (off_t)eh.e_phoff);
		free(ph);
		if (r < 0 || (size_t)r != phlen) {
			*err = errno ? errno : ENOEXEC;
			goto out;
		}
	}
	v = LOADS;
out:
	close(fd);
	return v;
}

/* How a search in one list of directories ended. */
struct outcome {
	enum verdict v; /* LOADS: path is set; STOPS: err is set; PASSED: not here */
	char *path;
	int err;
	bool via_origin;
	bool other_class;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Look for `name` in directory `dir` ("" or ending in '/') and its subdirectories. Returns
 * false when ld.so would end the search of this list here: the plain file could not be
 * opened for a reason other than its absence or permissions, in a directory that exists. */
static bool search_dir(const char *dir, const char *name, struct outcome *out)
{
	size_t dlen = strlen(dir), nlen = strlen(name);
	int err = ENOENT;

	for (int i = 0; i < machine.ncaps; i++) {
		size_t clen = strlen(machine.caps[i]);
		char *path = malloc(dlen + clen + nlen + 1);

		if (!path) {
			out->v = STOPS;
			out->err = ENOMEM;
			return false;
		}
		memcpy(path, dir, dlen);
		memcpy(path + dlen, machine.caps[i], clen);
		memcpy(path + dlen + clen, name, nlen + 1);
		out->v = check_file(path, &err, &out->other_class);
		if (out->v == LOADS) {
			out->path = path;
			return false;
		}
		free(path);
		if (out->v == STOPS) {
			out->err = err;
			return false;
		}
	}
	if (err == ENOENT || err == EACCES)
		return true;
	/* ld.so takes a relative directory as existing without looking. */
	return dir[0] != '/' || !is_dir(dir);
}

/* Look for `name` in a search path (entries separated by any of `seps`), as ld.so does:
 * an empty entry is the current directory; $ORIGIN is `origin`; an entry whose token has
 * no value is dropped; trailing slashes become one. */
static void search_list(const char *list, const char *seps, const char *origin, const char *name,
			struct outcome *out)
{
	const char *p = list;

	out->v = PASSED;
	if (!list || !*list)
		return;
	for (;;) {
		size_t len = strcspn(p, seps);
		bool had_origin = false;
		char *dir = expand(p, len, origin, &had_origin);

		if (!dir) {
			out->v = STOPS;
			out->err = ENOMEM;
			return;
		}
		size_t dlen = strlen(dir);
		if (len == 0 || dlen) {
			while (dlen > 1 && dir[dlen - 1] == '/')
				dlen--;
			dir[dlen] = '\0';
			if (dlen && dir[dlen - 1] != '/') {
				char *slashed = realloc(dir, dlen + 2);

				if (!slashed) {
					free(dir);
					out->v = STOPS;
					out->err = ENOMEM;
					return;
				}
				dir = slashed;
				memcpy(dir + dlen, "/", 2);
			}
			bool go_on = search_dir(dir, name, out);

			free(dir);
			if (out->v == LOADS)
				out->via_origin = had_origin;
			if (!go_on)
				return;
		} else {
			free(dir);
		}
		if (!p[len])
			return;
		p += len + 1;
	}
}

static uint32_t u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void drop_cache(void)
{
	free(cache.data);
	cache.data = NULL;
	cache.hwcaps_names = NULL;
	cache.nhwcaps_names = 0;
}

/* The glibc-hwcaps section of the new format's extension directory (at `ext`): what ld.so
 * ranks a glibc-hwcaps entry by. Left empty (such entries unusable) if malformed. */
static void read_extensions(uint32_t ext)
{
	const unsigned char *d = cache.data;
	size_t size = cache.size;

	if (!ext || ext % 4 || (size_t)ext + 8 > size || u32(d + ext) != 0xeaa42174u)
		return;
	uint32_t count = u32(d + ext + 4);
	if ((size - ext - 8) / 16 < count)
		return;
	for (uint32_t i = 0; i < count; i++) {
		const unsigned char *s = d + ext + 8 + (size_t)i * 16;
		uint32_t tag = u32(s), off = u32(s + 8), len = u32(s + 12);

		if ((uint64_t)off + len > size) {
			/* ld.so rejects the whole directory. */
			cache.hwcaps_names = NULL;
			cache.nhwcaps_names = 0;
			return;
		}
		if (tag != 1)
			continue;
		/* The last such section counts, if aligned and not empty. */
		bool ok = len && off % 4 == 0 && len % 4 == 0;
		cache.hwcaps_names = ok ? (const uint32_t *)(d + off) : NULL;
		cache.nhwcaps_names = ok ? len / 4 : 0;
	}
}

/* Read /etc/ld.so.cache into `cache` if not read yet or changed. Caller holds cache.lock. */
static void load_cache(void)
{
	static const char new_magic[] = "glibc-ld.so.cache1.1", old_magic[] = "ld.so-1.7.0";
	struct stat st;
	int fd;

	if (stat(SHL_SEARCH_CACHE, &st)) {
		drop_cache();
		cache.read = true;
		memset(&cache.st, 0, sizeof(cache.st));
		return;
	}
	if (cache.read && st.st_dev == cache.st.st_dev && st.st_ino == cache.st.st_ino &&
	    st.st_size == cache.st.st_size && st.st_mtim.tv_sec == cache.st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == cache.st.st_mtim.tv_nsec)
		return;
	drop_cache();
	cache.read = true;
	cache.st = st;
	fd = open(SHL_SEARCH_CACHE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_size <= 0 || !(cache.data = malloc((size_t)st.st_size))) {
		close(fd);
		return;
	}
	cache.st = st;
	cache.size = 0;
	while (cache.size < (size_t)st.st_size) {
		ssize_t r = read(fd, cache.data + cache.size, (size_t)st.st_size - cache.size);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		cache.size += (size_t)r;
	}
	close(fd);

	/* New format (48-byte header, 24-byte entries, strings counted from the header), alone
	 * or after an old-format table (16-byte header, 12-byte entries); the old format alone
	 * has its strings after its entries. The new header's flags give its byte order. */
	const unsigned char *d = cache.data;
	size_t size = cache.size, at = 0;
	if (size > 48 && !memcmp(d, new_magic, 20)) {
		at = 0;
	} else if (size > 16 && !memcmp(d, old_magic, 11) && (size - 16) / 12 >= u32(d + 12)) {
		uint32_t n = u32(d + 12);

		at = (16 + (size_t)n * 12 + 7) & ~(size_t)7;
		if (size < at + 48 || memcmp(d + at, new_magic, 20)) {
			cache.entries = 16;
			cache.entry_size = 12;
			cache.nlibs = n;
			cache.strings = 16 + (size_t)n * 12;
			return;
		}
	} else {
		drop_cache();
		return;
	}
	uint32_t n = u32(d + at + 20);
	uint8_t flags = d[at + 28];
	if ((size - at - 48) / 24 < n || (flags != 0 && (flags & 3) != 2)) {
		drop_cache();
		return;
	}
	cache.entries = at + 48;
	cache.entry_size = 24;
	cache.nlibs = n;
	cache.strings = at;
	read_extensions(u32(d + at + 32));
}

/* ld.so's order of library names in the cache: runs of digits compare as numbers. */
static int libcmp(const char *a, const char *b)
{
	while (*a) {
		bool da = *a >= '0' && *a <= '9', db = *b >= '0' && *b <= '9';

		if (da && db) {
			long va = 0, vb = 0;

			while (*a >= '0' && *a <= '9')
				va = va * 10 + (*a++ - '0');
			while (*b >= '0' && *b <= '9')
				vb = vb * 10 + (*b++ - '0');
			if (va != vb)
				return va < vb ? -1 : 1;
		} else if (da) {
			return 1;
		} else if (db) {
			return -1;
		} else if (*a != *b) {
			return (signed char)*a - (signed char)*b;
		} else {
			a++;
			b++;
		}
	}
	return -(signed char)*b;
}

/* The string at offset `off` of the cache's string table, or NULL if outside the file or
 * not terminated there. */
static const char *cache_string(uint32_t off)
{
	size_t at = cache.strings + off;

	if (off >= cache.size || at >= cache.size || !memchr(cache.data + at, 0, cache.size - at))
		return NULL;
	return (const char *)cache.data + at;
}

/* ld.so's preference for a glibc-hwcaps entry whose subdirectory is number `index` of the
 * cache's list: 1 for the best active subdirectory, 0 for one not searched here. */
static uint32_t hwcaps_priority(uint32_t index)
{
	if (index >= cache.nhwcaps_names)
		return 0;
	uint32_t off = cache.hwcaps_names[index];
	if (off >= cache.size || !memchr(cache.data + off, 0, cache.size - off))
		return 0;
	for (int i = 0; i < machine.nactive; i++)
		if (!strcmp((const char *)cache.data + off, machine.active[i]))
			return (uint32_t)i + 1;
	return 0;
}

/* The cache's choice for `name` (malloc'd), or NULL. Binary search over the entries, sorted
 * in descending libcmp order; among entries of the name, glibc-hwcaps ones come first and
 * the best active one wins, else the first plain entry for x86-64 libc6 this CPU can use. */
static char *cache_lookup(const char *name)
{
	char *found = NULL;

	pthread_mutex_lock(&cache.lock);
	load_cache();
	if (!cache.data)
		goto out;

	uint64_t platform_bit = ~0ull;
	if (machine.platform && !strcmp(machine.platform, "haswell"))
		platform_bit = 1ull << 50;
	else if (machine.platform && !strcmp(machine.platform, "xeon_phi"))
		platform_bit = 1ull << 51;
	uint64_t exclude =
		~(machine.hwcap | SHL_SEARCH_CACHE_HWCAP_PLATFORMS | SHL_SEARCH_CACHE_HWCAP_TLS);
	const char *best = NULL;
	uint32_t best_priority = 0;
	long left = 0, right = (long)cache.nlibs - 1;

#define ENTRY(i) (cache.data + cache.entries + (size_t)(i) * cache.entry_size)
	while (left <= right) {
		long mid = (left + right) / 2;
		const char *key = cache_string(u32(ENTRY(mid) + 4));

		if (!key)
			goto out;
		int cmp = libcmp(name, key);
		if (cmp) {
			if (cmp < 0)
				left = mid + 1;
			else
				right = mid - 1;
			continue;
		}
		long first = mid;
		while (first > 0) {
			const char *k = cache_string(u32(ENTRY(first - 1) + 4));

			if (!k || libcmp(name, k))
				break;
			first--;
		}
		for (long i = first; i <= right; i++) {
			const unsigned char *e = ENTRY(i);
			const char *k = cache_string(u32(e + 4));
			const char *value = cache_string(u32(e + 8));
			int32_t flags = (int32_t)u32(e);

			if (i > mid && (!k || libcmp(name, k)))
				break;
			if (flags != SHL_SEARCH_CACHE_FLAGS_X86_64 || !value)
				continue;
			bool named = false;
			if (cache.entry_size == 24) {
				uint64_t hwcap;

				memcpy(&hwcap, e + 16, sizeof(hwcap));
				uint64_t high = hwcap >> 32;
				unsigned level = (unsigned)(high & SHL_SEARCH_CACHE_ISA_LEVEL_MASK);

				/* A glibc-hwcaps entry names the ISA level its library needs. */
				named = (high & ~(uint64_t)SHL_SEARCH_CACHE_ISA_LEVEL_MASK) ==
					(SHL_SEARCH_CACHE_HWCAP_EXTENSION >> 32);
				if (named && (level >= 32 || !(machine.isa & (1u << level))))
					continue;
				if (!named && best)
					break;
				if (!named && (hwcap & exclude))
					continue;
				if ((hwcap & SHL_SEARCH_CACHE_HWCAP_PLATFORMS) &&
				    (hwcap & SHL_SEARCH_CACHE_HWCAP_PLATFORMS) != platform_bit)
					continue;
				if (named) {
					uint32_t prio = hwcaps_priority((uint32_t)hwcap);

					if (!prio || (best && prio >= best_priority))
						continue;
					best_priority = prio;
				}
			}
			best = value;
			if (!named)
				break;
		}
		break;
	}
#undef ENTRY
	if (best && !(found = strdup(best)))
		errno = ENOMEM;
out:
	pthread_mutex_unlock(&cache.lock);
	return found;
}

char *shl_lib_search(const char *name, const struct shl_search_from *from, bool *via_origin)
{
	struct outcome out = { .v = PASSED, .err = ENOENT };
	bool had_origin = false;
	char *want;

	know_machine();
	if (via_origin)
		*via_origin = false;
	if (!name || !*name) {
		errno = ENOENT;
		return NULL;
	}
	/* ld.so expands tokens in a DT_NEEDED name first; one it cannot expand drops it. */
	want = expand(name, strlen(name), from ? from->origin : NULL, &had_origin);
	if (!want) {
		errno = ENOMEM;
		return NULL;
	}
	if (!*want) {
		free(want);
		errno = ENOENT;
		return NULL;
	}
	if (strchr(want, '/')) {
		out.v = check_file(want, &out.err, &out.other_class);
		if (out.v == LOADS) {
			if (via_origin)
				*via_origin = had_origin;
			return want;
		}
		free(want);
		errno = out.other_class ? ELIBBAD : out.err;
		return NULL;
	}

	bool other_class = false;
	const struct shl_search_from *top = from;
	while (top && top->loader)
		top = top->loader;
#define TRY(list, seps, origin)                                    \
	do {                                                       \
		search_list(list, seps, origin, want, &out);       \
		other_class |= out.other_class;                    \
		if (out.v != PASSED)                               \
			goto done;                                 \
	} while (0)

	/* RPATHs up the chain, unless the requester has a RUNPATH; an object with both has
	 * only its RUNPATH. */
	if (!from || !from->runpath)
		for (const struct shl_search_from *l = from; l; l = l->loader)
			if (!l->runpath)
				TRY(l->rpath, ":", l->origin);
	TRY(library_path, ":;", top ? top->origin : NULL);
	if (from)
		TRY(from->runpath, ":", from->origin);
	char *cached = cache_lookup(want);
	if (cached) {
		out.v = check_file(cached, &out.err, &out.other_class);
		other_class |= out.other_class;
		if (out.v == LOADS)
			out.path = cached;
		else
			free(cached);
		if (out.v != PASSED)
			goto done;
	}
	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++) {
		bool go_on = search_dir(default_dirs[i], want, &out);

		other_class |= out.other_class;
		if (out.v != PASSED || !go_on)
			break;
	}
#undef TRY
done:
	free(want);
	if (out.v == LOADS) {
		if (via_origin)
			*via_origin = out.via_origin;
		return out.path;
	}
	errno = out.v == STOPS ? out.err : other_class ? ELIBBAD : ENOENT;
	return NULL;
}
