#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 32

static void init_array(int n, double *alpha, double *beta, double A[N][N],
                       double u1[N], double v1[N], double u2[N], double v2[N],
                       double w[N], double x[N], double y[N], double z[N])
{
  int i, j;
  double fn = (double)n;
  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < n; i++) {
    u1[i] = i;
    u2[i] = ((i + 1) / fn) / 2.0;
    v1[i] = ((i + 1) / fn) / 4.0;
    v2[i] = ((i + 1) / fn) / 6.0;
    y[i] = ((i + 1) / fn) / 8.0;
    z[i] = ((i + 1) / fn) / 9.0;
    x[i] = 0.0;
    w[i] = 0.0;
    for (j = 0; j < n; j++)
      A[i][j] = (double)(i * j % n) / n;
  }
}

static void kernel_gemver(int n, double alpha, double beta, double A[N][N],
                          double u1[N], double v1[N], double u2[N], double v2[N],
                          double w[N], double x[N], double y[N], double z[N])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i += 1)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j += 1)
      w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}

static void print_array(int n, double w[N])
{
  int i;
  for (i = 0; i < n; i++) {
    printf("%.6f ", w[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double A[N][N];
  static double u1[N], v1[N], u2[N], v2[N];
  static double w[N], x[N], y[N], z[N];
  double alpha, beta;
  init_array(N, &alpha, &beta, A, u1, v1, u2, v2, w, x, y, z);
  kernel_gemver(N, alpha, beta, A, u1, v1, u2, v2, w, x, y, z);
  print_array(N, w);
  return 0;
}
