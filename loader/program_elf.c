/* Reading a program's ELF file: whether mpicc built it (the .note.shoal note in a PT_NOTE
 * segment: its ranks are threads) or not (its ranks are processes), the libraries it needs
 * (one of another MPI is refused by name), and function names from .symtab for crash
 * backtraces.
 * Entered by the node's main thread (check) and by a crashing thread's signal handler (symbols).
 * Must not allocate with malloc: symbolize runs inside a signal handler. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
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

/* If the program's dynamic section needs a library of another MPI, say which in `why` and
 * return -EPROTO; else 0 (a static program, or one linked with no other MPI). */
static int other_mpi(int fd, const Elf64_Ehdr *eh, const Elf64_Phdr *dyn, const char *path,
		     char *why, size_t whylen)
{
	Elf64_Dyn d[512];
	size_t n = dyn->p_filesz / sizeof(Elf64_Dyn);
	uint64_t strtab = 0, strsz = 0;
	off_t str;

	if (n > sizeof(d) / sizeof(d[0]))
		n = sizeof(d) / sizeof(d[0]);
	if (pread(fd, d, n * sizeof(d[0]), (off_t)dyn->p_offset) != (ssize_t)(n * sizeof(d[0])))
		return 0;
	for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag == DT_STRTAB)
			strtab = d[i].d_un.d_ptr;
		else if (d[i].d_tag == DT_STRSZ)
			strsz = d[i].d_un.d_val;
	}
	str = strtab ? file_offset(fd, eh, strtab) : -1;
	if (str < 0)
		return 0;
	for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++) {
		char name[64] = "";
		ssize_t r;

		if (d[i].d_tag != DT_NEEDED || d[i].d_un.d_val >= strsz)
			continue;
		r = pread(fd, name, sizeof(name) - 1, str + (off_t)d[i].d_un.d_val);
		if (r <= 0)
			continue;
		name[r] = '\0';
		for (size_t k = 0; k < sizeof(other_mpis) / sizeof(other_mpis[0]); k++)
			if (!strncmp(name, other_mpis[k].soname, strlen(other_mpis[k].soname))) {
				snprintf(why, whylen, "%s is built with %s (it needs %s): Shoal's "
					 "mpiexec cannot run it, each rank would be a job of its "
					 "own; rebuild it with Shoal's mpicc, or run it with %s's "
					 "mpiexec", path, other_mpis[k].mpi, name,
					 other_mpis[k].mpi);
				return -EPROTO;
			}
	}
	return 0;
}

int shl_loader_check_program(const char *path, char *why, size_t whylen)
{
	Elf64_Ehdr eh;
	Elf64_Phdr dyn = { .p_type = PT_NULL };
	int fd, err = SHL_PROGRAM_PROCESSES;
	bool found = false;

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
		if (ph.p_type != PT_NOTE || found || eh.e_type != ET_DYN)
			continue;
		size = ph.p_filesz < sizeof(buf) ? ph.p_filesz : sizeof(buf);
		if (pread(fd, buf, size, (off_t)ph.p_offset) != (ssize_t)size)
			break;
		found = has_note(buf, size, ph.p_align >= 8 ? 8 : 4);
	}
	if (found)
		err = SHL_PROGRAM_THREADS;
	else if (dyn.p_type == PT_DYNAMIC && other_mpi(fd, &eh, &dyn, path, why, whylen) < 0)
		err = -EPROTO;
out:
	close(fd);
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
