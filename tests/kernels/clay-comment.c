#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* A recipe in a Clay comment inside the region: polyc applies it when no
   --recipe is given (as Clay's own test files are written). Wavefront of a
   stencil with distance (1, -1): skew, then interchange. */

#define N 40

static void kernel(int n, double A[N][N])
{
  int i, j;
#pragma scop
  /* Clay
     skew([0], 2, 1, -1);
     interchange([0], 1, 2);
  */
  for (i = 1; i < n; i++)
    for (j = 0; j < n - 1; j++)
      A[i][j] = 0.5 * (A[i][j] + A[i - 1][j + 1]);
#pragma endscop
}

int main(void)
{
  static double A[N][N];
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 11;
  kernel(N, A);
  for (i = 0; i < N; i++)
    printf("%.6f\n", A[i][(i * 5) % N]);
  return 0;
}
