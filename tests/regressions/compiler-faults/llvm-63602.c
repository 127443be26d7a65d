/* A clang fault, not a polyc one (LLVM issue 63602, fixed in LLVM 17).

   The loop below carries no dependence, so `omp simd` is a true promise,
   and every compiler must print 1 1 1 1 5 6 7 ... 16. clang 14 at -O1
   with -DSIMD -fopenmp prints 1 1 1 1 5 1 7 1 ...: its loop vectoriser
   reads C[j] and C[j + 1] as one interleaved group at the place of the
   first load, before the store `C[j + 1] = A[j + 1]` of the same
   iteration. `-mllvm -enable-interleaved-mem-accesses=false` avoids it.

   Reduced by hand from tests/regressions/s21-miscompile-1.poly (guards.c,
   unroll_jam then vectorize): the jammed copies of a statement pair give
   exactly this shape.

     clang -O1 -fopenmp -DSIMD llvm-63602.c && ./a.out */
#include <stdio.h>
#define N 16
static double A[N], C[N];
__attribute__((noinline)) static void f(int n, int m)
{
  int j;
#ifdef SIMD
#pragma omp simd
#endif
  for (j = 0; j < n; j += 2) {
    if (j >= m)
      C[j] = A[j];
    C[j] += 1.0;
    if (j + 1 >= m)
      C[j + 1] = A[j + 1];
    C[j + 1] += 1.0;
  }
}
int main(void)
{
  int j;
  for (j = 0; j < N; j++)
    A[j] = j;
  f(N, 4);
  for (j = 0; j < N; j++)
    printf("%g ", C[j]);
  printf("\n");
  return 0;
}
