/* Reading a program's ELF file: the check that mpicc built it (the .note.shoal note in a
 * PT_NOTE segment) and function names from .symtab for crash backtraces.
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

static int reject(int err, char *why, size_t whylen, const char *fmt, const char *path)
{
	snprintf(why, whylen, fmt, path);
	return err;
}

/* The message names the fix: "rebuild it with: mpicc -o prog prog.c". */
static int refuse(char *why, size_t whylen, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	snprintf(why, whylen, "%s was not built with Shoal's mpicc; rebuild it with: "
		 "mpicc -o %s %s.c", path, path, base);
	return -EPROTO;
}

int shl_loader_check_program(const char *path, char *why, size_t whylen)
{
	Elf64_Ehdr eh;
	int fd, err = 0;
	bool found = false;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return err;
	}
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
		err = reject(-ENOEXEC, why, whylen, "%s is not an ELF program (a script or data "
			     "file?); mpiexec runs programs built with mpicc", path);
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
		err = reject(-ENOEXEC, why, whylen, "%s is not an x86-64 program", path);
		goto out;
	}
	if (eh.e_type != ET_DYN || eh.e_phentsize != sizeof(Elf64_Phdr)) {
		err = refuse(why, whylen, path);
		goto out;
	}
	for (int i = 0; i < eh.e_phnum && !found; i++) {
		Elf64_Phdr ph;
		unsigned char buf[4096];
		size_t size;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (size_t)i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type != PT_NOTE)
			continue;
		size = ph.p_filesz < sizeof(buf) ? ph.p_filesz : sizeof(buf);
		if (pread(fd, buf, size, (off_t)ph.p_offset) != (ssize_t)size)
			break;
		found = has_note(buf, size, ph.p_align >= 8 ? 8 : 4);
	}
	if (!found)
		err = refuse(why, whylen, path);
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
