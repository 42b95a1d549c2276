/* file_matrix_views_and_forms_match_pread: a global 70 x 70 int array written and read back
 * through vector, subarray and darray (block, cyclic) views, native and external32, by every
 * access form (offsets, individual, collective, split, nonblocking, shared, ordered) and
 * with hints; after each write rank 0 checks every byte of the file with pread. */
/* ranks: 1 4 16 64 */
/* timeout: 300 */

/* Each rank's part: (a) a vector (a stripe of columns), (b) a subarray (a block of the
 * 2-D process grid), (c) a darray, block and cyclic (cyclic(2) rows, cyclic(1) columns);
 * forms: explicit offsets, the individual pointer, collective, collective at explicit
 * offsets, split collective, nonblocking independent, nonblocking collective, collective
 * through a memory type with a halo; and, with one view the same on every rank (rows after
 * a 16-byte header), the shared pointer (blocking and nonblocking: rows land in any order,
 * each whole and once) and ordered access (blocking and split). Then the collective forms
 * with a collective buffer smaller than a rank's part and two aggregators, collective
 * buffering disabled, and data sieving with small buffers. The file: the header's holes
 * read as zeros, the elements in the representation's byte order, nothing past the array;
 * every read is checked element for element. The file's directory: argv[1], else
 * $TEST_TMP, else ".". file_matrix_across_hosts_matches_pread.sh runs it on two hosts.
 * Entered by each rank's main thread. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

enum { G = 70, HDR = 16 };

enum view { V_VECTOR, V_SUBARRAY, V_DARRAY_BLOCK, V_DARRAY_CYCLIC, V_ROWS, NVIEWS };
static const char *const view_name[NVIEWS] = { "vector", "subarray", "darray block",
					       "darray cyclic", "rows" };

enum form {
	F_AT, F_POINTER, F_ALL, F_AT_ALL, F_SPLIT, F_NB, F_NB_ALL, F_HALO,  /* any view */
	F_ORDERED, F_ORDERED_SPLIT, F_SHARED, F_NB_SHARED,          /* V_ROWS only */
	NFORMS
};
static const char *const form_name[NFORMS] = {
	"write_at/read_at", "seek+write/read", "write_all/read_all",
	"write_at_all/read_at_all", "write_all_begin/end", "iwrite_at/iread_at",
	"iwrite_all/iread_all", "write_all/read_all of a halo'd memory type",
	"write_ordered/read_ordered", "write_ordered_begin/end",
	"write_shared/read_shared", "iwrite_shared/iread_shared"
};

static int rank, size;
static char dir[1024];

/* This rank's part under a view: the filetype (from disp) and the global indices i*G+j
 * of its elements in the order the view's data stream holds them. */
struct part {
	MPI_Offset disp;
	MPI_Datatype filetype;
	int count;
	int *idx;
	int nr, nc;  /* the elements form an nr x nc rectangle of the array, row-major */
};

/* [start, start + len) of `parts` near-equal parts of n, part q. */
static void split(int n, int parts, int q, int *start, int *len)
{
	*len = n / parts + (q < n % parts);
	*start = q * (n / parts) + (q < n % parts ? q : n % parts);
}

/* The rows (or columns) coordinate q of p owns under a darray distribution of G. */
static int darray_owned(int block, int p, int q, int darg, int *out)
{
	int m = 0;

	if (block) {
		int b = (G + p - 1) / p;
		for (int i = q * b; i < G && i < (q + 1) * b; i++)
			out[m++] = i;
	} else {
		for (int i = 0; i < G; i++)
			if ((i / darg) % p == q)
				out[m++] = i;
	}
	return m;
}

static struct part make_part(enum view v)
{
	struct part p = { HDR, MPI_DATATYPE_NULL, 0, NULL, 0, 0 };
	int dims[2] = { 0, 0 };

	MPI_Dims_create(size, 2, dims);
	int qr = rank / dims[1], qc = rank % dims[1];
	p.idx = malloc(sizeof(int) * G * G);
	CHECK(p.idx);
	if (v == V_VECTOR) {
		int c0, w;
		split(G, size, rank, &c0, &w);
		CHECK_MPI(MPI_Type_vector(G, w, G, MPI_INT, &p.filetype));
		p.disp = HDR + (MPI_Offset)c0 * 4;
		p.nr = G, p.nc = w;
		for (int i = 0; i < G; i++)
			for (int j = c0; j < c0 + w; j++)
				p.idx[p.count++] = i * G + j;
	} else if (v == V_SUBARRAY) {
		int r0, h, c0, w;
		split(G, dims[0], qr, &r0, &h);
		split(G, dims[1], qc, &c0, &w);
		int sizes[2] = { G, G }, sub[2] = { h, w }, start[2] = { r0, c0 };
		CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT,
						   &p.filetype));
		p.nr = h, p.nc = w;
		for (int i = r0; i < r0 + h; i++)
			for (int j = c0; j < c0 + w; j++)
				p.idx[p.count++] = i * G + j;
	} else if (v == V_DARRAY_BLOCK || v == V_DARRAY_CYCLIC) {
		int block = v == V_DARRAY_BLOCK;
		int gs[2] = { G, G };
		int dist[2] = { block ? MPI_DISTRIBUTE_BLOCK : MPI_DISTRIBUTE_CYCLIC,
				block ? MPI_DISTRIBUTE_BLOCK : MPI_DISTRIBUTE_CYCLIC };
		/* cyclic(2) over rows, cyclic(1) over columns */
		int darg[2] = { block ? MPI_DISTRIBUTE_DFLT_DARG : 2, MPI_DISTRIBUTE_DFLT_DARG };
		CHECK_MPI(MPI_Type_create_darray(size, rank, 2, gs, dist, darg, dims, MPI_ORDER_C,
						 MPI_INT, &p.filetype));
		int rows[G], cols[G];
		int nr = darray_owned(block, dims[0], qr, 2, rows);
		int nc = darray_owned(block, dims[1], qc, 1, cols);
		for (int a = 0; a < nr; a++)
			for (int b = 0; b < nc; b++)
				p.idx[p.count++] = rows[a] * G + cols[b];
		p.nr = nr, p.nc = nc;
		int tsize;
		MPI_Type_size(p.filetype, &tsize);
		CHECK_INT(tsize, p.count * 4);
	} else {
		int r0, h;
		split(G, size, rank, &r0, &h);
		CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &p.filetype));
		for (int g = r0 * G; g < (r0 + h) * G; g++)
			p.idx[p.count++] = g;
		p.nr = h, p.nc = G;
	}
	CHECK_MPI(MPI_Type_commit(&p.filetype));
	return p;
}

static int value(int salt, int g)
{
	return salt * 100000 + g + 1;
}

/* The 4 bytes of `v` in the file under representation `rep`. */
static void file_bytes(int v, int ext32, unsigned char out[4])
{
	if (ext32) {
		uint32_t u = (uint32_t)v;
		out[0] = (unsigned char)(u >> 24);
		out[1] = (unsigned char)(u >> 16);
		out[2] = (unsigned char)(u >> 8);
		out[3] = (unsigned char)u;
	} else {
		memcpy(out, &v, 4);
	}
}

static int from_file(const unsigned char *b, int ext32)
{
	int v;

	if (ext32)
		return (int)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
	memcpy(&v, b, 4);
	return v;
}

static void fail_case(int cs, const char *what)
{
	char m[CHECK_MSG_MAX];

	snprintf(m, sizeof m, "case %d: %s", cs, what);
	check_fail(__FILE__, __LINE__, m);
}

/* Rank 0: the whole file by pread: HDR zero bytes, then the array, nothing more. With
 * `shuffled` (shared pointer writes) rows may lie in any order, each complete and each
 * once. */
static void check_file(int cs, const char *path, int salt, int ext32, int shuffled,
		       const char *label)
{
	if (rank != 0)
		return;
	size_t want = HDR + (size_t)G * G * 4;
	unsigned char *f = malloc(want + 1);
	int fd = open(path, O_RDONLY);
	char m[512];
	CHECK(f && fd >= 0);
	struct stat st;
	CHECK(fstat(fd, &st) == 0);
	if ((size_t)st.st_size != want) {
		snprintf(m, sizeof m, "%s: file size %lld, expected %zu", label,
			 (long long)st.st_size, want);
		fail_case(cs, m);
	}
	size_t got = 0;
	while (got < want) {
		ssize_t r = pread(fd, f + got, want - got, (off_t)got);
		CHECK(r > 0);
		got += (size_t)r;
	}
	close(fd);
	for (int b = 0; b < HDR; b++)
		if (f[b] != 0) {
			snprintf(m, sizeof m, "%s: header byte %d is %d, not 0", label, b, f[b]);
			fail_case(cs, m);
		}
	int seen[G] = { 0 };
	for (int i = 0; i < G; i++) {
		const unsigned char *row = f + HDR + (size_t)i * G * 4;
		int ri = i;
		if (shuffled) {
			ri = from_file(row, ext32) - value(salt, 0);
			if (ri % G != 0 || ri < 0 || ri / G >= G) {
				snprintf(m, sizeof m, "%s: row slot %d starts with %d, no row's start",
					 label, i, from_file(row, ext32));
				fail_case(cs, m);
			}
			ri /= G;
			if (seen[ri]++) {
				snprintf(m, sizeof m, "%s: row %d is in the file twice", label, ri);
				fail_case(cs, m);
			}
		}
		for (int j = 0; j < G; j++) {
			unsigned char e[4];
			file_bytes(value(salt, ri * G + j), ext32, e);
			if (memcmp(row + 4 * j, e, 4) != 0) {
				snprintf(m, sizeof m, "%s: element (%d,%d) at byte %d: file has %d, "
					 "expected %d (%s)", label, ri, j, HDR + (i * G + j) * 4,
					 from_file(row + 4 * j, ext32), value(salt, ri * G + j),
					 ext32 ? "external32" : "native");
				fail_case(cs, m);
			}
		}
	}
	free(f);
}

static void check_count(int cs, const char *label, MPI_Status *st, int want)
{
	int n = -1;
	char m[256];

	CHECK_MPI(MPI_Get_count(st, MPI_INT, &n));
	if (n != want) {
		snprintf(m, sizeof m, "%s: status counts %d ints, expected %d", label, n, want);
		fail_case(cs, m);
	}
}

/* Moves buf (count ints) to or from fh by `form`; statuses checked. */
static void move(int cs, const char *label, MPI_File fh, enum form form, int write, int *buf,
		 const struct part *p)
{
	int count = p->count;
	MPI_Status st, sts[2];
	MPI_Request rq[2];
	MPI_Offset pos;
	int h = count / 2;

	switch (form) {
	case F_AT:
		CHECK_MPI(write ? MPI_File_write_at(fh, 0, buf, count, MPI_INT, &st)
				: MPI_File_read_at(fh, 0, buf, count, MPI_INT, &st));
		check_count(cs, label, &st, count);
		break;
	case F_POINTER:
		CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
		CHECK_MPI(write ? MPI_File_write(fh, buf, h, MPI_INT, &st)
				: MPI_File_read(fh, buf, h, MPI_INT, &st));
		check_count(cs, label, &st, h);
		CHECK_MPI(MPI_File_get_position(fh, &pos));
		CHECK_INT(pos, h);
		CHECK_MPI(write ? MPI_File_write(fh, buf + h, count - h, MPI_INT, &st)
				: MPI_File_read(fh, buf + h, count - h, MPI_INT, &st));
		check_count(cs, label, &st, count - h);
		CHECK_MPI(MPI_File_get_position(fh, &pos));
		CHECK_INT(pos, count);
		break;
	case F_ALL:
		CHECK_MPI(write ? MPI_File_write_all(fh, buf, count, MPI_INT, &st)
				: MPI_File_read_all(fh, buf, count, MPI_INT, &st));
		check_count(cs, label, &st, count);
		break;
	case F_AT_ALL:
		CHECK_MPI(write ? MPI_File_write_at_all(fh, 0, buf, count, MPI_INT, &st)
				: MPI_File_read_at_all(fh, 0, buf, count, MPI_INT, &st));
		check_count(cs, label, &st, count);
		break;
	case F_SPLIT:
		if (write) {
			CHECK_MPI(MPI_File_write_all_begin(fh, buf, count, MPI_INT));
			CHECK_MPI(MPI_File_write_all_end(fh, buf, &st));
		} else {
			CHECK_MPI(MPI_File_read_all_begin(fh, buf, count, MPI_INT));
			CHECK_MPI(MPI_File_read_all_end(fh, buf, &st));
		}
		check_count(cs, label, &st, count);
		break;
	case F_NB:
		/* two halves in flight at once, the second first */
		CHECK_MPI(write ? MPI_File_iwrite_at(fh, h, buf + h, count - h, MPI_INT, &rq[0])
				: MPI_File_iread_at(fh, h, buf + h, count - h, MPI_INT, &rq[0]));
		CHECK_MPI(write ? MPI_File_iwrite_at(fh, 0, buf, h, MPI_INT, &rq[1])
				: MPI_File_iread_at(fh, 0, buf, h, MPI_INT, &rq[1]));
		CHECK_MPI(MPI_Waitall(2, rq, sts));
		check_count(cs, label, &sts[0], count - h);
		check_count(cs, label, &sts[1], h);
		break;
	case F_NB_ALL:
		CHECK_MPI(write ? MPI_File_iwrite_all(fh, buf, count, MPI_INT, &rq[0])
				: MPI_File_iread_all(fh, buf, count, MPI_INT, &rq[0]));
		CHECK_MPI(MPI_Wait(&rq[0], &st));
		check_count(cs, label, &st, count);
		break;
	case F_HALO: {
		/* the rectangle inside a halo of one element, which must stay as it is */
		int hr = p->nr + 2, hc = p->nc + 2;
		int sizes[2] = { hr, hc }, sub[2] = { p->nr, p->nc }, start[2] = { 1, 1 };
		int *halo = malloc(sizeof(int) * hr * hc);
		MPI_Datatype mt;
		CHECK(halo);
		for (int k = 0; k < hr * hc; k++)
			halo[k] = -7;
		for (int k = 0; k < count; k++)
			if (write)
				halo[(k / p->nc + 1) * hc + k % p->nc + 1] = buf[k];
		CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &mt));
		CHECK_MPI(MPI_Type_commit(&mt));
		CHECK_MPI(write ? MPI_File_write_all(fh, halo, 1, mt, &st)
				: MPI_File_read_all(fh, halo, 1, mt, &st));
		check_count(cs, label, &st, count);
		for (int k = 0; k < hr * hc; k++) {
			int i = k / hc, j = k % hc;
			if (i == 0 || j == 0 || i == hr - 1 || j == hc - 1) {
				if (halo[k] != -7)
					fail_case(cs, "an access through a memory type touched its halo");
			} else if (!write) {
				buf[(i - 1) * p->nc + j - 1] = halo[k];
			}
		}
		MPI_Type_free(&mt);
		free(halo);
		break;
	}
	case F_ORDERED:
		CHECK_MPI(write ? MPI_File_write_ordered(fh, buf, count, MPI_INT, &st)
				: MPI_File_read_ordered(fh, buf, count, MPI_INT, &st));
		check_count(cs, label, &st, count);
		CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
		CHECK_INT(pos, G * G);
		break;
	case F_ORDERED_SPLIT:
		if (write) {
			CHECK_MPI(MPI_File_write_ordered_begin(fh, buf, count, MPI_INT));
			CHECK_MPI(MPI_File_write_ordered_end(fh, buf, &st));
		} else {
			CHECK_MPI(MPI_File_read_ordered_begin(fh, buf, count, MPI_INT));
			CHECK_MPI(MPI_File_read_ordered_end(fh, buf, &st));
		}
		check_count(cs, label, &st, count);
		break;
	case F_SHARED:
	case F_NB_SHARED:
		/* one row a call: rows land in any order, each whole */
		for (int r = 0; r < count / G; r++) {
			if (form == F_SHARED) {
				CHECK_MPI(write ? MPI_File_write_shared(fh, buf + r * G, G, MPI_INT, &st)
						: MPI_File_read_shared(fh, buf + r * G, G, MPI_INT, &st));
			} else {
				CHECK_MPI(write ? MPI_File_iwrite_shared(fh, buf + r * G, G, MPI_INT,
									 &rq[0])
						: MPI_File_iread_shared(fh, buf + r * G, G, MPI_INT,
									&rq[0]));
				CHECK_MPI(MPI_Wait(&rq[0], &st));
			}
			check_count(cs, label, &st, G);
		}
		break;
	default:
		CHECK(0);
	}
}

static void run_case(int cs, enum view v, int ext32, enum form form, MPI_Info info,
		     const char *hints)
{
	struct part p = make_part(v);
	const char *rep = ext32 ? "external32" : "native";
	char path[1200], label[256];
	MPI_File fh;
	int salt = cs + 1;
	int shuffled = form == F_SHARED || form == F_NB_SHARED;

	snprintf(path, sizeof path, "%s/file_matrix.%d.dat", dir, cs);
	snprintf(label, sizeof label, "%s view, %s, %s%s%s", view_name[v], rep, form_name[form],
		 *hints ? ", hints " : "", hints);
	int *buf = malloc(sizeof(int) * (p.count + 1));
	int *got = malloc(sizeof(int) * (p.count + 1));
	CHECK(buf && got);
	for (int k = 0; k < p.count; k++)
		buf[k] = value(salt, p.idx[k]);

	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info,
				&fh));
	CHECK_MPI(MPI_File_set_view(fh, p.disp, MPI_INT, p.filetype, rep, info));
	move(cs, label, fh, form, 1, buf, &p);
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	check_file(cs, path, salt, ext32, shuffled, label);
	MPI_Barrier(MPI_COMM_WORLD);

	for (int k = 0; k < p.count; k++)
		got[k] = -1;
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, info, &fh));
	CHECK_MPI(MPI_File_set_view(fh, p.disp, MPI_INT, p.filetype, rep, info));
	move(cs, label, fh, form, 0, got, &p);
	CHECK_MPI(MPI_File_close(&fh));
	if (shuffled) {
		/* each row read whole, every row read once by someone */
		int mine[G] = { 0 }, all[G];
		for (int r = 0; r < p.count / G; r++) {
			int g0 = got[r * G] - value(salt, 0);
			CHECK(g0 >= 0 && g0 % G == 0 && g0 / G < G);
			for (int j = 0; j < G; j++)
				CHECK_INT(got[r * G + j], value(salt, g0 + j));
			mine[g0 / G]++;
		}
		CHECK_MPI(MPI_Allreduce(mine, all, G, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
		for (int i = 0; i < G; i++)
			CHECK_INT(all[i], 1);
	} else {
		for (int k = 0; k < p.count; k++)
			if (got[k] != buf[k]) {
				char m[512];
				snprintf(m, sizeof m, "%s: element %d of %d read back as %d, expected %d "
					 "(global (%d,%d))", label, k, p.count, got[k], buf[k],
					 p.idx[k] / G, p.idx[k] % G);
				fail_case(cs, m);
			}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
	MPI_Type_free(&p.filetype);
	free(p.idx);
	free(buf);
	free(got);
}

int main(int argc, char **argv)
{
	int cs = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		const char *d = argc > 1 ? argv[1] : getenv("TEST_TMP");
		snprintf(dir, sizeof dir, "%s", d && *d ? d : ".");
	}
	MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);

	/* Every view and form in both representations without hints; then the collective
	 * forms with a collective buffer smaller than a rank's part (many rounds) and two
	 * aggregators, collective buffering switched off, and data sieving of independent
	 * accesses with a small buffer. */
	static const struct {
		const char *keys[4], *vals[4];
		unsigned forms;  /* bit per enum form; 0: all */
	} passes[] = {
		{ { NULL }, { NULL }, 0 },
		{ { "cb_buffer_size", "cb_nodes", "romio_cb_write", "romio_cb_read" },
		  { "1024", "2", "enable", "enable" },
		  1u << F_ALL | 1u << F_AT_ALL | 1u << F_SPLIT | 1u << F_NB_ALL | 1u << F_HALO |
			  1u << F_ORDERED },
		{ { "romio_cb_write", "romio_cb_read" }, { "disable", "disable" },
		  1u << F_ALL | 1u << F_HALO },
		{ { "romio_ds_write", "romio_ds_read", "ind_wr_buffer_size", "ind_rd_buffer_size" },
		  { "enable", "enable", "512", "512" }, 1u << F_AT | 1u << F_NB },
	};
	for (size_t ps = 0; ps < sizeof passes / sizeof passes[0]; ps++) {
		MPI_Info info = MPI_INFO_NULL;
		char hints[256] = "";
		if (passes[ps].keys[0]) {
			MPI_Info_create(&info);
			for (int k = 0; k < 4 && passes[ps].keys[k]; k++) {
				MPI_Info_set(info, passes[ps].keys[k], passes[ps].vals[k]);
				snprintf(hints + strlen(hints), sizeof hints - strlen(hints), "%s%s=%s",
					 k ? " " : "", passes[ps].keys[k], passes[ps].vals[k]);
			}
		}
		for (int ext32 = 0; ext32 < (ps == 0 ? 2 : 1); ext32++)
			for (enum view v = V_VECTOR; v <= V_ROWS; v++)
				for (enum form f = F_AT; f < NFORMS; f++) {
					if ((v == V_ROWS) != (f >= F_ORDERED))
						continue;
					if (passes[ps].forms && !(passes[ps].forms & 1u << f))
						continue;
					run_case(cs++, v, ext32, f, info, hints);
				}
		if (info != MPI_INFO_NULL)
			MPI_Info_free(&info);
	}
	if (rank == 0)
		printf("ok: %d cases at %d ranks\n", cs, size);
	MPI_Finalize();
	return 0;
}
