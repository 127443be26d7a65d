/* A gcc fault, not a polyc one (seen with gcc 12.2, Debian 12).

   The nest below runs the planes `c = i - j` of a three-dimensional
   update one after the other; inside a plane, step `i` reads the cell
   that step `i - 1` wrote (`B[i - 1][j - 1][k - 1]`, with `j = i - c`), so
   the `i` loop carries a dependence of distance one. gcc -O3 vectorises
   that `i` loop anyway (`-fopt-info-vec`: "loop vectorized using 16 byte
   vectors" on it, after the `k` loop is unrolled completely), reading
   step `i`'s cells before step `i - 1` has stored them. The two builds
   below must print the same number; without -DORIGINAL gcc 12 -O3 prints
   another. -O2, -fno-tree-loop-vectorize or -fvect-cost-model=very-cheap
   avoid it; clang is not affected.

   Reduced by hand from polyc's `auto(spatial)` schedule of
   tests/kernels/jam-pair.c (its second nest, `(i - j, i, k)`).

     gcc -O3 -DORIGINAL gcc-outer-loop-vectorize.c && ./a.out
     gcc -O3 gcc-outer-loop-vectorize.c && ./a.out */
#include <stdio.h>
#define N 12
static double B[N][N][N];
int main(void)
{
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        B[i][j][k] = 1.0 / (i + 2 * j + 3 * k + 1);
#ifdef ORIGINAL
  for (i = 1; i < N; i++)
    for (j = 1; j < N; j++)
      for (k = 1; k < N; k++)
        B[i][j][k] = B[i - 1][j - 1][k - 1] * 0.5 + B[i][j][k];
#else
  for (int c = -N + 2; c < N - 1; c++)
    for (i = (c + 1 > 1 ? c + 1 : 1); i <= (N - 1 < c + N - 1 ? N - 1 : c + N - 1); i++)
      for (k = 1; k < N; k++)
        B[i][i - c][k] = B[i - 1][i - c - 1][k - 1] * 0.5 + B[i][i - c][k];
#endif
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        sum += B[i][j][k] * (i * N * N + j * N + k);
  printf("%.17g\n", sum);
  return 0;
}
