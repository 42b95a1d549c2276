#!/bin/bash
# docs_cite_what_exists: every repository path that the docs (docs/*.md, README.md, tests/README.md) and the comments of the sources cite exists (runtime/p2p/send.c, io/mesh.c, tests/NAME.sh, bench/msgrate for bench/msgrate.c, short forms such as p2p/match.c or core/rt.h taken under runtime/, bare names such as send.h anywhere in the tree), none points outside the repository, a name cited with its file (`path` `name`, `name` (`path`), `name`, `path`, and path's name() in comments) is in that file's code, every shl_/SHL_/SHOAL_ name cited is in the code, and so is every name in backticks of docs/architecture.md's objects, messages, collectives and tuning sections; a section cited by its doc and quoted title is in that doc. Reads the sources only; needs no build.
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$SHOAL_TESTS/.." && pwd)
command -v perl >/dev/null || skip "no perl"
cd "$root" || fail "no source tree at $root"

perl - >"$OUT" <<'PERL'
use strict;
use warnings;

# Where a path may point: the folders at the top, and the runtime's folders, which the
# sources cite from runtime/ (p2p/send.c is runtime/p2p/send.c).
my %top = map { $_ => 1 } qw(runtime io queues loader debugger bench tests docs wrappers examples .ci);
my %short = map { $_ => 1 } qw(core datatype comm p2p coll);
# File names cited that are not the repository's, each with why.
my %foreign = (
	'osu_util.h' => "the OSU benchmarks' header (bench/bench.h follows its definitions)",
	'prog.c'     => "the user's program, in the message of a refused one",
	'summary.md' => "a table bench/run writes into its results",
	'run.py'     => "a user's script in the README's example",
	'rank.sh'    => "the script process_ranks_exit_status_follows_rank_rules writes",
	'mpif.h'     => "generated into the build's include/ by runtime/fortran/bindgen.py",
	'mpif_bindings.c' => "generated into the build by runtime/fortran/bindgen.py",
	'f08_bindings.c'  => "generated into the build by runtime/fortran/bindgen_f08.py",
);
# The sections of docs/architecture.md whose every name in backticks must be in the sources.
my %named = map { $_ => 1 } ('The objects', 'One message on a node', 'One message across hosts',
			     'Collectives', 'Tuning variables: where each acts');

# The sources: every file of the tree but builds and hidden folders (.ci/ aside) whose
# name says it is a source, a doc or a script; the tree's other files may be cited too.
my (@files, %exists, %base);
sub walk {
	my ($dir) = @_;
	opendir(my $dh, $dir) or return;
	for my $e (sort readdir $dh) {
		next if $e =~ /^\.\.?$/;
		my $p = $dir eq '.' ? $e : "$dir/$e";
		if (-d $p) {
			walk($p) unless -l $p || $p =~ m{^(?:build|\.(?!ci$))};
		} elsif (-f _ && ($e =~ /\.(?:c|h|cpp|map|py|sh|bash|conf|in|supp|md)$/ ||
				  $e eq 'Makefile' || ($e !~ /\./ && -x _ && -T _))) {
			push @files, $p;
			$exists{$p} = 1;
			$base{$e} = 1;
		} elsif (-f _) {  # cited, not read: Fortran sources, data (.f90, .inc, .txt)
			$exists{$p} = 1;
			$base{$e} = 1;
		}
	}
}
walk('.');
@files = sort @files;

my @bad;
sub bad { push @bad, sprintf("%s:%d: %s", @_) }

sub slurp { open my $fh, '<', $_[0] or return ''; local $/; my $t = <$fh>; $t }
sub is_c { $_[0] =~ /\.(?:c|h|cpp|map)$/ }
sub is_doc { $_[0] =~ m{^(?:docs/[^/]+|README|tests/README)\.md$} }

# The comments of a source file: [line, text] pairs.
sub comments {
	my ($f) = @_;
	my $t = slurp($f);
	my @c;
	if (is_c($f)) {
		while ($t =~ m{(/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')}gs) {
			my ($m, $pos) = ($1, $-[1]);
			next if $m =~ /^["']/;
			push @c, [1 + (substr($t, 0, $pos) =~ tr/\n//), $m];
		}
	} else {
		my $n = 0;
		for my $l (split /\n/, $t) {
			$n++;
			push @c, [$n, $1] if $l =~ /^\s*#(?!!)(.*)/ || $l =~ /\s#\s(.*)/;
		}
	}
	return @c;
}

# A file's code without its comments, where a name cited must be.
my %code;
sub code {
	my ($f) = @_;
	return $code{$f} //= do {
		my $t = slurp($f);
		if (is_c($f)) {
			$t =~ s{(/\*.*?\*/|//[^\n]*)|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')}{defined $1 ? ' ' : $2}gse;
		} else {
			$t =~ s/^[ \t]*#.*$//mg;
		}
		$t;
	};
}
my (%in_code, %in_text);
for my $f (@files) {
	next if $f =~ /\.md$/;
	$in_code{$_} = 1 for code($f) =~ /\b(\w+)\b/g;
	$in_text{$_} = 1 for slurp($f) =~ /\b(\w+)\b/g;
}
my %tests = map { m{^tests/(?:san/)?([^/]+)\.(?:c|cpp|sh)$} ? ($1 => 1) : () } @files;

sub path_ok {
	my ($p) = @_;
	$p =~ s{/$}{};
	return 1 if $exists{$p} || -d $p;
	# a program or test by the name of its source (bench/msgrate), files by their common
	# start (io/fuzz_)
	return 1 if grep { $exists{"$p.$_"} } qw(c cpp sh);
	return 1 if $p =~ /_$/ && grep { index($_, $p) == 0 } @files;
	return 0;
}

# check_paths FILE, LINE, TEXT: every repository path TEXT cites exists.
sub check_paths {
	my ($f, $line, $text) = @_;
	my $n = 0;
	for my $l (split /\n/, $text) {
		my $ln = $line + $n++;
		while ($l =~ m%(?<![\w./\$<>}\-~\@])((?:\.\./)*[\w.\-]+(?:/[\w.\-]*)+)%g) {
			my $p = $1;
			$p =~ s/[.\-]+$//;
			if ($p =~ m{^\.\./}) {
				bad($f, $ln, "cites $p, outside the repository");
				next;
			}
			my ($first) = split m{/}, $p;
			my $q = $top{$first} ? $p : $short{$first} ? "runtime/$p" : next;
			next if path_ok($q);
			next if grep { /^[A-Z][A-Z_]*(?:\.\w+)?$/ } split m{/}, $p;  # tests/NAME.sh
			bad($f, $ln, "cites $p, which does not exist");
		}
		bad($f, $ln, "cites $1, outside the repository") while $l =~ m{(?<![\w.])((?:/work|/home|~)/[\w.\-/]+)}g;
		while ($l =~ m{(?<![\w./\$<>*\-])([\w\-]+\.(?:c|h|cpp|py|sh|bash|md|conf|supp|map))(?![\w/])}g) {
			bad($f, $ln, "cites $1, which does not exist") unless $base{$1} || $foreign{$1};
		}
	}
}

# The file cite CITE names, seen from FROM: a path, or a name beside FROM or unique in the
# repository; undef when it is none or several.
sub resolve {
	my ($from, $c) = @_;
	my ($first) = split m{/}, $c;
	return $exists{$c} ? $c : undef if $top{$first};
	return $exists{"runtime/$c"} ? "runtime/$c" : undef if $short{$first};
	return undef if $c =~ m{/};
	(my $dir = $from) =~ s{[^/]*$}{};
	return "$dir$c" if $exists{"$dir$c"};
	my @m = grep { m{(?:^|/)\Q$c\E$} } @files;
	return @m == 1 ? $m[0] : undef;
}

my $FILE = qr{(?:[\w.\-]+/)*[\w\-]+\.(?:c|h|cpp|py)};
my $NAME = qr{[A-Za-z_]\w*};

# check_pairs FILE, LINE, TEXT: a name cited with its file is in that file. In comments a
# name counts only where it looks like a function: name(), a_name or `name`.
sub check_pairs {
	my ($f, $line, $text) = @_;
	my $doc = is_doc($f);
	my $q = $doc ? '`' : '`?';
	my @pairs;
	$text =~ s/\n[ \t]*(?:\*|#|\/\/)?[ \t]*/\n/g unless $doc;
	while ($text =~ m{$q($FILE)$q,?\s+$q($NAME)(\(\))?$q(?![\w*/.])}g) {
		push @pairs, [$1, $2, $3, $-[0]];
	}
	while ($text =~ m{$q($NAME)(\(\))?$q(?:,\s+|\s+\(|\s+in\s+)$q($FILE)$q(?![\w/])}g) {
		push @pairs, [$3, $1, $2, $-[0]];
	}
	while ($text =~ m{(?<![\w/.])($FILE)'s\s+(`)?($NAME)(\(\))?}g) {
		push @pairs, [$1, $3, $4 // $2, $-[0]] if !$doc || $2;
	}
	for (@pairs) {
		my ($c, $n, $code_like, $pos) = @$_;
		next if !$doc && !$code_like && $n !~ /^[a-z]\w*_/ && substr($text, $pos) !~ /^[^\n]*`\Q$n\E`/;
		next if $n =~ /^_/;
		my $r = resolve($f, $c) or next;
		next if code($r) =~ /\b\Q$n\E\b/;
		bad($f, $line + (substr($text, 0, $pos) =~ tr/\n//), "cites $n in $c, which has no $n");
	}
}

# check_names FILE, LINE, TEXT, ALL: every shl_/SHL_/SHOAL_ name, and in the docs every
# name in backticks of four words or more (a test's, or the code's) but another library's
# (omp_, pthread_, MPI_ ...), is the code's or a test's; with ALL, every name in backticks is in the sources (an instruction such as
# `xchg` may be named in their comments only).
sub check_names {
	my ($f, $line, $text, $all) = @_;
	my $n = 0;
	for my $l (split /\n/, $text) {
		my $ln = $line + $n++;
		my %seen;
		my @names = $l =~ /(?<![\w*])((?:shl|SHL|SHOAL)_\w*[A-Za-z0-9])\b(?!\*)/g;
		push @names, grep { !/^(?:omp|pthread|sched|posix|clock|mpi|pmpi)_/i }
			$l =~ /`([a-z0-9]+(?:_[a-z0-9]+){3,})`/g if is_doc($f);
		for my $id (grep { !$seen{$_}++ } @names) {
			next if $in_code{$id} || $tests{$id};
			bad($f, $ln, "cites $id, which the code does not have");
		}
		next unless $all;
		for my $id (grep { !$seen{$_}++ } $l =~ /`([A-Za-z]\w*)`/g) {
			bad($f, $ln, "cites $id, which the sources do not have") unless $in_text{$id};
		}
	}
}

# The titles a doc's sections go by: its headings, bold labels and first table cells.
my %titles;
for my $f (grep { is_doc($_) } @files) {
	for my $l (split /\n/, slurp($f)) {
		$titles{$f}{$1} = 1 if $l =~ /^#+ +(.*?)\s*$/ || $l =~ /^\| ([^|]*?) \|/;
		$titles{$f}{$1} = 1 while $l =~ /\*\*([^*]+?)[.:]?\*\*/g;
	}
}

# check_sections FILE, LINE, TEXT: a section cited by its doc and its title, in quotes,
# is there, its title one of the doc's or the start of one.
sub check_sections {
	my ($f, $line, $text) = @_;
	$text =~ s/\n[ \t]*(?:\*|#|\/\/)?[ \t]*/\n/g unless is_doc($f);
	while ($text =~ m{((?:docs/)?[\w\-]+\.md)`?,?\s+"([^"]+)"}g) {
		my ($d, $t, $pos) = ($1, $2, $-[0]);
		$d = "docs/$d" unless $exists{$d};
		next unless $titles{$d};
		$t =~ s/\s+/ /g;
		$t =~ s/[.,]$//;
		next if grep { index($_, $t) == 0 } keys %{ $titles{$d} };
		bad($f, $line + (substr($text, 0, $pos) =~ tr/\n//), "cites \"$t\" of $d, which has no such section");
	}
}

for my $f (@files) {
	if (is_doc($f)) {
		my $t = slurp($f);
		check_paths($f, 1, $t);
		check_pairs($f, 1, $t);
		check_sections($f, 1, $t);
		my ($ln, $all) = (0, 0);
		for my $l (split /\n/, $t) {
			$ln++;
			$all = $f eq 'docs/architecture.md' && $named{$1} if $l =~ /^##+ (.*)/;
			check_names($f, $ln, $l, $all);
		}
	} elsif ($f !~ /\.md$/) {
		for (comments($f)) {
			check_paths($f, @$_);
			check_pairs($f, @$_);
			check_sections($f, @$_);
			check_names($f, @$_, 0);
		}
	}
}
print "$_\n" for @bad;
exit(@bad ? 1 : 0);
PERL
RC=$?
[ "$RC" = 0 ] && exit 0
cat "$OUT"
fail "$(wc -l <"$OUT") citations of what does not exist (above)"
