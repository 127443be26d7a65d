#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* Three statements in three outer nests, for fusion-search.rhai: S1 reads
   what S0 wrote in the same row (fusing S0 and S1 is legal), S2 reads the
   row of B that S1 writes last (fusing S1 and S2 is not). main runs the
   kernel REPS times so that it, not start-up, dominates the run time. */

#define N 1000
#define REPS 10

static void init_array(int n, double A[N][N], double X[N][N])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      X[i][j] = (double)((i * j + 1) % n) / n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = 0.0;
}

static void kernel_fusion3(int n, double A[N][N], double B[N][N],
                           double C[N][N], double X[N][N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = 2.0 * X[i][j] + 1.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = A[i][j] * X[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      C[i][j] = B[n - 1 - i][j] + A[i][j];
#pragma endscop
}

int main(void)
{
  static double A[N][N];
  static double B[N][N];
  static double C[N][N];
  static double X[N][N];
  int i, j, r;
  double sum = 0.0;
  init_array(N, A, X);
  for (r = 0; r < REPS; r++)
    kernel_fusion3(N, A, B, C, X);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += C[i][j] * ((i + j) % 7 + 1);
  printf("%.6f\n", sum);
  return 0;
}
