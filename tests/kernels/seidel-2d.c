#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define TSTEPS 5
#define N 30

/* PolyBench-style loop-bound macros */
#define _PB_TSTEPS TSTEPS
#define _PB_N N

static void init_array(int n, double A[N][N])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = ((double)i * (j + 2) + 2) / n;
}

static void kernel_seidel_2d(double A[N][N])
{
  int t, i, j;
#pragma scop
  for (t = 0; t <= _PB_TSTEPS - 1; t++)
    for (i = 1; i <= _PB_N - 2; i++)
      for (j = 1; j <= _PB_N - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                   + A[i][j - 1] + A[i][j] + A[i][j + 1]
                   + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
#pragma endscop
}

static void print_array(int n, double A[N][N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      printf("%.6f ", A[i][j]);
      if ((i * n + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
}

int main(void)
{
  static double A[N][N];
  init_array(N, A);
  kernel_seidel_2d(A);
  print_array(N, A);
  return 0;
}
