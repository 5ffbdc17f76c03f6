// Eigen's dense core, as every file of Avocet includes it (nn/matrix.h's Matrix, the
// kernels' references).
//
// With AVX-512 (-march=icelake-server, or native on such a CPU), gcc 12 warns that the `__Y` of
// _mm512_undefined_ps() "may be used uninitialized" wherever Eigen's packet code (pmin, pmax,
// pexp, a reduction) is inlined: it is undefined on purpose, a false positive, and -Werror
// would make it an error in whichever of our functions it is inlined into. gcc honours a
// pragma at any location of the inlining chain, so ignoring the warning around Eigen's headers
// silences those reports and no others: a maybe-uninitialized variable of our own still fails
// a -Werror build. Include Eigen through this header only; tools/build/test.sh compiles the library
// for several -march targets with -Werror, which finds a file that does not.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
