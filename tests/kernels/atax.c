#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define M 20
#define N 24

static void init_array(int m, int n, double A[M][N], double x[N])
{
  int i, j;
  double fn = (double)n;
  for (i = 0; i < n; i++)
    x[i] = 1.0 + (i / fn);
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i + j) % n) / (5 * m);
}

static void kernel_atax(int m, int n, double A[M][N], double x[N],
                        double y[N], double tmp[M])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = 0.0;
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
#pragma endscop
}

static void print_array(int n, double y[N])
{
  int i;
  for (i = 0; i < n; i++) {
    printf("%.6f ", y[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double A[M][N];
  static double x[N];
  static double y[N];
  static double tmp[M];
  init_array(M, N, A, x);
  kernel_atax(M, N, A, x, y, tmp);
  print_array(N, y);
  return 0;
}
