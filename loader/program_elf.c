/* Reading a program's ELF file: whether mpicc or a build system's flags built it (the
 * .note.shoal note in a PT_NOTE segment: its ranks are threads) or not (its ranks are
 * processes), whether it needs a library of another MPI (refused by name) or libstdc++,
 * what loading an executable once per rank needs or forbids (DF_1_PIE,
 * copy relocations, its own TLS, text relocations), and function names from .symtab for
 * crash backtraces.
 * Entered by the node's main thread (check) and by a crashing thread's signal handler (symbols).
 * Must not allocate with malloc: symbolize runs inside a signal handler. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/loader.h"
#include "loader/loader_internal.h"

/* Notes are 4-byte aligned, or 8 in segments aligned to 8 (GNU property notes). */
static bool has_note(const unsigned char *p, size_t size, size_t align)
{
	size_t off = 0;

	while (off + sizeof(Elf64_Nhdr) <= size) {
		const Elf64_Nhdr *n = (const Elf64_Nhdr *)(p + off);
		size_t name = off + sizeof(*n);
		size_t desc = name + ((n->n_namesz + align - 1) & ~(align - 1));

		if (desc > size)
			return false;
		if (n->n_type == SHL_LOADER_NOTE_TYPE &&
		    n->n_namesz == sizeof(SHL_LOADER_NOTE_NAME) &&
		    !memcmp(p + name, SHL_LOADER_NOTE_NAME, sizeof(SHL_LOADER_NOTE_NAME)))
			return true;
		off = desc + ((n->n_descsz + align - 1) & ~(align - 1));
	}
	return false;
}

/* Libraries of other MPI implementations, by the start of their soname: a program that
 * needs one calls that library's MPI_Init, which under Shoal's mpiexec would make every rank
 * a singleton of a job of its own. */
static const struct { const char *soname, *mpi; } other_mpis[] = {
	{ "libmpi.so.40", "Open MPI" },       /* Open MPI 3, 4, 5 */
	{ "libmpi_mpifh.so.", "Open MPI" },   /* its Fortran bindings */
	{ "libmpi_cxx.so.", "Open MPI" },     /* its C++ bindings */
	{ "libmpich.so.", "MPICH" },
	{ "libmpichcxx.so.", "MPICH" },
	{ "libmpichfort.so.", "MPICH" },
	{ "libmpi.so.12", "MPICH" },          /* MPICH 3 and 4 (and Intel MPI, built on it) */
};

const char *shl_loader_other_mpi(const char *soname)
{
	for (size_t k = 0; k < sizeof(other_mpis) / sizeof(other_mpis[0]); k++)
		if (!strncmp(soname, other_mpis[k].soname, strlen(other_mpis[k].soname)))
			return other_mpis[k].mpi;
	return NULL;
}

/* File offset of virtual address `vaddr` by the PT_LOAD segments of `fd`, or -1. */
static off_t file_offset(int fd, const Elf64_Ehdr *eh, uint64_t vaddr)
{
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh->e_phoff + (size_t)i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			return -1;
		if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz)
			return (off_t)(ph.p_offset + (vaddr - ph.p_vaddr));
	}
	return -1;
}

/* The NUL-terminated string at file offset `at` (cut at PATH_MAX bytes), malloc'd; NULL if
 * out of memory. */
static char *read_string(int fd, off_t at)
{
	char buf[PATH_MAX];
	ssize_t got = pread(fd, buf, sizeof(buf) - 1, at);

	buf[got > 0 ? got : 0] = '\0';
	return strdup(buf);
}

/* Objects of libraries that an executable's code may address through a copy of its own
 * (R_X86_64_COPY), filled when each rank's copy is loaded: ones that do not change once the
 * copy is loaded. C++'s type information and virtual tables are read-only; the standard
 * streams are set up before any rank starts, and a rank's own copy of std::cout (its format
 * flags, its state) is what a process has. Anything else (environ, a library's counter)
 * would be a stale snapshot, so such a program is refused. */
static bool copy_taken(const char *name)
{
	static const char *const streams[] = {
		"stdin", "stdout", "stderr", "_ZSt3cin", "_ZSt4cout", "_ZSt4cerr", "_ZSt4clog",
		"_ZSt4wcin", "_ZSt5wcout", "_ZSt5wcerr", "_ZSt5wclog",
	};

	if (!strncmp(name, "_ZTI", 4) || !strncmp(name, "_ZTS", 4) || !strncmp(name, "_ZTV", 4))
		return true;
	for (size_t k = 0; k < sizeof(streams) / sizeof(streams[0]); k++)
		if (!strcmp(name, streams[k]))
			return true;
	return false;
}

/* The copy relocations of an executable: each must be one copy_taken accepts, and the file
 * offset of its symbol goes to elf->copy_syms (-ENOEXEC with the reason in `why` if not, or
 * -ENOMEM). In a copy loaded with dlopen, the dynamic linker would find the copy's own
 * definition of the symbol first and copy it onto itself; with that definition made
 * undefined in the copy (loader/node.c), it finds the library's. */
static int read_copies(int fd, const Elf64_Ehdr *eh, uint64_t rela, uint64_t relasz,
		       uint64_t symtab, off_t str, uint64_t strsz, const char *path,
		       struct shl_program_elf *elf, char *why, size_t whylen)
{
	off_t at = file_offset(fd, eh, rela), syms = file_offset(fd, eh, symtab);

	if (at < 0 || syms < 0)
		return 0;
	for (uint64_t k = 0; k < relasz / sizeof(Elf64_Rela); k++) {
		Elf64_Rela r;
		Elf64_Sym sym;
		off_t sym_at;
		char name[256] = "";
		ssize_t got;
		off_t *more;

		if (pread(fd, &r, sizeof(r), at + (off_t)(k * sizeof(r))) != (ssize_t)sizeof(r))
			break;
		if (ELF64_R_TYPE(r.r_info) != R_X86_64_COPY)
			continue;
		sym_at = syms + (off_t)(ELF64_R_SYM(r.r_info) * sizeof(sym));
		if (pread(fd, &sym, sizeof(sym), sym_at) != (ssize_t)sizeof(sym) ||
		    sym.st_name >= strsz)
			continue;
		got = pread(fd, name, sizeof(name) - 1, str + (off_t)sym.st_name);
		name[got > 0 ? got : 0] = '\0';
		if (!copy_taken(name)) {
			snprintf(why, whylen, "%s is linked as an executable (as build systems "
				 "link programs) and its code, compiled -fPIE, uses the library "
				 "object `%s` directly: a copy loaded once per rank would only "
				 "have a snapshot of it; compile it with -fPIC, or build with "
				 "Shoal's mpicc or mpicxx (CC=mpicc CXX=mpicxx)", path, name);
			return -ENOEXEC;
		}
		more = realloc(elf->copy_syms, (size_t)(elf->ncopy_syms + 1) * sizeof(*more));
		if (!more) {
			snprintf(why, whylen, "%s: out of memory", path);
			return -ENOMEM;
		}
		elf->copy_syms = more;
		elf->copy_syms[elf->ncopy_syms++] = sym_at;
	}
	return 0;
}

/* Read the program's dynamic section into `elf` (DT_FLAGS_1, text relocations, whether it
 * needs libstdc++, and for a `shoal` program (with the note) its copy relocations).
 * Returns -EPROTO, with the reason in `why`, if it needs a library of another MPI, an error
 * of read_copies, or 0. */
static int read_dynamic(int fd, const Elf64_Ehdr *eh, const Elf64_Phdr *dyn, const char *path,
			bool shoal, struct shl_program_elf *elf, char *why, size_t whylen)
{
	Elf64_Dyn d[512];
	size_t n = dyn->p_filesz / sizeof(Elf64_Dyn);
	uint64_t strtab = 0, strsz = 0, rela = 0, relasz = 0, symtab = 0;
	off_t str;
	int err = 0;

	if (n > sizeof(d) / sizeof(d[0]))
		n = sizeof(d) / sizeof(d[0]);
	if (pread(fd, d, n * sizeof(d[0]), (off_t)dyn->p_offset) != (ssize_t)(n * sizeof(d[0])))
		return 0;
	for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag == DT_STRTAB)
			strtab = d[i].d_un.d_ptr;
		else if (d[i].d_tag == DT_STRSZ)
			strsz = d[i].d_un.d_val;
		else if (d[i].d_tag == DT_RELA)
			rela = d[i].d_un.d_ptr;
		else if (d[i].d_tag == DT_RELASZ)
			relasz = d[i].d_un.d_val;
		else if (d[i].d_tag == DT_SYMTAB)
			symtab = d[i].d_un.d_ptr;
		else if (d[i].d_tag == DT_FLAGS_1 && (d[i].d_un.d_val & DF_1_PIE)) {
			elf->flags_1 = d[i].d_un.d_val;
			elf->pie_flag_at = (off_t)(dyn->p_offset + i * sizeof(d[0]) +
						   offsetof(Elf64_Dyn, d_un));
		} else if (d[i].d_tag == DT_TEXTREL ||
			   (d[i].d_tag == DT_FLAGS && (d[i].d_un.d_val & DF_TEXTREL))) {
			elf->textrel = true;
		}
	}
	str = strtab ? file_offset(fd, eh, strtab) : -1;
	if (str < 0)
		return 0;
	if (shoal && elf->pie_flag_at >= 0 && rela && symtab &&
	    (err = read_copies(fd, eh, rela, relasz, symtab, str, strsz, path, elf, why,
			       whylen)) < 0)
		return err;
	for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++) {
		char *name;
		const char *mpi;

		if (d[i].d_tag != DT_NEEDED || d[i].d_un.d_val >= strsz)
			continue;
		name = read_string(fd, str + (off_t)d[i].d_un.d_val);
		if (!name) {
			snprintf(why, whylen, "%s: out of memory", path);
			return -ENOMEM;
		}
		if (!strcmp(name, "libstdc++.so.6"))
			elf->cxx = true;
		if ((mpi = shl_loader_other_mpi(name))) {
			snprintf(why, whylen, "%s is built with %s (it needs %s): Shoal's mpiexec "
				 "cannot run it, each rank would be a job of its own; rebuild it "
				 "with Shoal's mpicc, or run it with %s's mpiexec", path, mpi, name,
				 mpi);
			err = -EPROTO;
		}
		free(name);
	}
	return err;
}

static void free_elf(struct shl_program_elf *elf)
{
	free(elf->copy_syms);
}

int shl_loader_check_program(const char *path, struct shl_program_elf *elf, char *why,
			     size_t whylen)
{
	struct shl_program_elf own;
	Elf64_Ehdr eh;
	Elf64_Phdr dyn = { .p_type = PT_NULL };
	int fd, err = SHL_PROGRAM_PROCESSES;
	bool found = false, tls = false;

	if (!elf)
		elf = &own;
	*elf = (struct shl_program_elf){ .pie_flag_at = -1 };
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == EACCES && access(path, X_OK) == 0)
		return SHL_PROGRAM_PROCESSES;  /* runnable, not readable: exec can still run it */
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return err;
	}
	/* Not ELF (a #! script), not x86-64, not position independent (a static or non-PIE
	 * program): not mpicc's, so the ranks are processes and execve judges the file. */
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_machine != EM_X86_64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		goto out;
	for (int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		unsigned char buf[4096];
		size_t size;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (size_t)i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type == PT_DYNAMIC)
			dyn = ph;
		tls |= ph.p_type == PT_TLS;
		if (ph.p_type != PT_NOTE || found || eh.e_type != ET_DYN)
			continue;
		size = ph.p_filesz < sizeof(buf) ? ph.p_filesz : sizeof(buf);
		if (pread(fd, buf, size, (off_t)ph.p_offset) != (ssize_t)size)
			break;
		found = has_note(buf, size, ph.p_align >= 8 ? 8 : 4);
	}
	err = dyn.p_type == PT_DYNAMIC ? read_dynamic(fd, &eh, &dyn, path, found, elf, why,
								 whylen) : 0;
	/* Shoal's libmpi.so comes first in a copy's lookups: another MPI beside it is unused. */
	if (err < 0 && !(err == -EPROTO && found))
		goto out;
	err = found ? SHL_PROGRAM_THREADS : SHL_PROGRAM_PROCESSES;
	/* An executable's own thread-local variables sit at a fixed offset from the thread
	 * pointer, the place of shoal-node's own: no copy loaded later can have them. */
	if (found && elf->textrel) {
		/* Relocated code reaches its targets within 2 GiB only, which neither a copy
		 * loaded among many nor a program run directly is sure to be. */
		snprintf(why, whylen, "%s has text relocations (code that addresses other "
			 "libraries' data directly): mpiexec cannot load it once per rank; link "
			 "it with Shoal's mpicc or mpicxx (CC=mpicc CXX=mpicxx for a build "
			 "system)", path);
		err = -ENOEXEC;
	} else if (found && tls && elf->pie_flag_at >= 0) {
		snprintf(why, whylen, "%s is linked as an executable (as build systems link "
			 "programs) and has thread-local variables of its own, which a copy "
			 "loaded once per rank cannot have: link it with Shoal's mpicc or mpicxx "
			 "(CC=mpicc CXX=mpicxx for a build system)", path);
		err = -ENOEXEC;
	}
out:
	close(fd);
	if (elf == &own)
		free_elf(&own);
	return err;
}

/* The best function symbol of one symbol table for `vaddr`: the one containing it, else the
 * closest start below it among sized-zero symbols. */
static const char *search(const unsigned char *base, size_t size, const Elf64_Shdr *tab,
			  const Elf64_Shdr *str, unsigned long vaddr, unsigned long *start)
{
	const Elf64_Sym *sym;
	size_t n;
	const char *best = NULL;

	if (tab->sh_offset + tab->sh_size > size || str->sh_offset + str->sh_size > size ||
	    tab->sh_entsize != sizeof(Elf64_Sym))
		return NULL;
	sym = (const Elf64_Sym *)(base + tab->sh_offset);
	n = tab->sh_size / sizeof(*sym);
	for (size_t i = 0; i < n; i++) {
		unsigned long lo = sym[i].st_value;

		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || sym[i].st_shndx == SHN_UNDEF ||
		    lo > vaddr || sym[i].st_name >= str->sh_size)
			continue;
		if (vaddr < lo + sym[i].st_size || (sym[i].st_size == 0 && (!best || lo > *start))) {
			best = (const char *)base + str->sh_offset + sym[i].st_name;
			*start = lo;
			if (sym[i].st_size)
				break;
		}
	}
	return best;
}

const char *shl_loader_symbolize(const char *path, unsigned long vaddr, unsigned long *start)
{
	const unsigned char *base;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *name = NULL;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return NULL;
	}
	/* Left mapped on success: the name points into it and the process is about to end. */
	base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		return NULL;
	eh = (const Elf64_Ehdr *)base;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > (size_t)st.st_size)
		goto unmap;
	sh = (const Elf64_Shdr *)(base + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum && !name; i++)
		if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < eh->e_shnum)
			name = search(base, (size_t)st.st_size, &sh[i], &sh[sh[i].sh_link], vaddr,
				      start);
	if (name)
		return name;
unmap:
	munmap((void *)base, (size_t)st.st_size);
	return NULL;
}
