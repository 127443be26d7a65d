#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <math.h>

#define N 24

static void init_array(int n, double A[N][N])
{
  static double B[N][N];
  int i, j, k;
  /* A = B * B^T + n * I : symmetric positive definite */
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = (double)((i * j + i + 1) % n) / n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = 0.0;
      for (k = 0; k < n; k++)
        A[i][j] += B[i][k] * B[j][k];
    }
  for (i = 0; i < n; i++)
    A[i][i] += n;
}

static void kernel_cholesky(int n, double A[N][N])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++) {
    /* j < i */
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    /* i == j case */
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
#pragma endscop
}

static void print_array(int n, double A[N][N])
{
  int i, j, c = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      printf("%.6f ", A[i][j]);
      if (c++ % 16 == 15)
        printf("\n");
    }
  printf("\n");
}

int main(void)
{
  static double A[N][N];
  init_array(N, A);
  kernel_cholesky(N, A);
  print_array(N, A);
  return 0;
}
