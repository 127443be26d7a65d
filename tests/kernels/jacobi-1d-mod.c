#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* Jacobi 1-D with two time buffers chosen by `%` (as in Pluto's tests):
   A[t % 2] is read and A[(t + 1) % 2] written. */

#define TSTEPS 9
#define N 40

static void kernel_jacobi_1d_mod(int tsteps, int n, double A[2][N])
{
  int t, i;
#pragma scop
  for (t = 0; t < tsteps; t++)
    for (i = 1; i < n - 1; i++)
      A[(t + 1) % 2][i] = 0.33333 * (A[t % 2][i - 1] + A[t % 2][i] + A[t % 2][i + 1]);
#pragma endscop
}

int main(void)
{
  static double A[2][N];
  int i;
  for (i = 0; i < N; i++) {
    A[0][i] = ((double)i + 2) / N;
    A[1][i] = ((double)i + 3) / N;
  }
  kernel_jacobi_1d_mod(TSTEPS, N, A);
  for (i = 0; i < N; i++)
    printf("%.6f %.6f\n", A[0][i], A[1][i]);
  return 0;
}
