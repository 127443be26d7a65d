/* A gcc fault, not a polyc one (seen with gcc 12.2, Debian 12).

   The inner loop carries no dependence (each `i` reads and writes its own
   row), so `omp simd` is a true promise; the outer loop carries one along
   the columns (`u[i][c + 1]` is written one outer step earlier). gcc -O3
   unrolls the outer loop and jams the copies into the inner one
   (-floop-unroll-and-jam), keeps the inner loop's `omp simd` promise for
   the jammed body, whose copies do depend on each other, and vectorises it
   with the second copy's strided loads ahead of the first copy's stores.
   The two builds below must print the same number; with -DSIMD gcc 12 -O3
   prints another. -fno-loop-unroll-and-jam, or no `omp simd`, avoids it;
   clang is not affected.

   Reduced by hand from polyc's `auto(pluto)` schedule of adi
   (tests/kernels/adi.c, its last sweep) with the inner loop marked vector
   outside any parallel loop.

     gcc -O3 -fopenmp gcc-simd-unroll-and-jam.c && ./a.out
     gcc -O3 -fopenmp -DSIMD gcc-simd-unroll-and-jam.c && ./a.out */
#include <stdio.h>
#define N 200
static double u[N][N], p[N][N], q[N][N];
__attribute__((noinline)) static void sweep(int n)
{
  int i;
  /* The columns n - 2 down to 1, counted up as polyc prints them. */
  for (int c = 3 * n + 2; c < 4 * n; c++) {
#ifdef SIMD
#pragma omp simd
#endif
    for (i = 1; i < n - 1; i++)
      u[i][-c + 4 * n] = p[i][-c + 4 * n] * u[i][-c + 4 * n + 1] + q[i][-c + 4 * n];
  }
}
int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      u[i][j] = (i + j) % 7 * 0.25;
      p[i][j] = (i * j) % 5 * 0.5;
      q[i][j] = (i - j) % 3 * 0.125;
    }
  sweep(N);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += u[i][j] * (i + 1) + j;
  printf("%.17g\n", s);
  return 0;
}
