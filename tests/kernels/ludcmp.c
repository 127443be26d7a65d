#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* PolyBench's ludcmp, written for the tests at small sizes: an LU
   decomposition through a scalar accumulator, then forward and backward
   substitution (the backward one counts down). */

#define N 24

static void kernel_ludcmp(int n, double A[N][N], double b[N], double x[N], double y[N])
{
  int i, j, k;
  double w;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
  for (i = 0; i < n; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }
  for (i = n - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < n; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
#pragma endscop
}

int main(void)
{
  static double A[N][N], b[N], x[N], y[N];
  int i, j;
  for (i = 0; i < N; i++) {
    x[i] = 0;
    y[i] = 0;
    b[i] = (i + 1) / (double)N / 2.0 + 4;
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 3 + j * 5) % 11) / 11 + (i == j ? N : 0);
  }
  kernel_ludcmp(N, A, b, x, y);
  for (i = 0; i < N; i++)
    printf("%.6f ", x[i]);
  printf("\n");
  return 0;
}
