// The C++ project library of the build-system tests (corexx.cpp).
#ifndef COREXX_H
#define COREXX_H
#include <stdexcept>
// Prints "<who> rank R of N" on std::cout; returns the rank.
int corexx_report(const char *who);
// An exception class whose type information and virtual table live in the library (its
// destructor is defined there).
class corexx_error : public std::runtime_error {
public:
	explicit corexx_error(int r);
	~corexx_error() override;
	int rank;
};
#endif
