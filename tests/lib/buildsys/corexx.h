// The C++ project library of the build-system tests (corexx.cpp).
#ifndef COREXX_H
#define COREXX_H
// Prints "<who> rank R of N" on std::cout; returns the rank.
int corexx_report(const char *who);
#endif
