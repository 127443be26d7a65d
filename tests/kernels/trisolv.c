#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 32

static void init_array(int n, double L[N][N], double x[N], double y[N],
                       double b[N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    x[i] = -999.0;
    y[i] = -999.0;
    b[i] = i + 1;
    for (j = 0; j <= i; j++)
      L[i][j] = (double)(i + n - j + 1) * 2 / n;
  }
}

static void kernel_trisolv(int n, double L[N][N], double x[N], double y[N],
                           double b[N])
{
  int i, j;
  double sum;
#pragma scop
  /* forward substitution: L y = b */
  for (i = 0; i < n; i++) {
    y[i] = b[i];
    for (j = 0; j < i; j++)
      y[i] -= L[i][j] * y[j];
    y[i] = y[i] / L[i][i];
  }
  /* backward substitution: L^T x = y */
  for (i = n - 1; i >= 0; i--) {
    sum = y[i];
    for (j = i + 1; j < n; j++)
      sum -= L[j][i] * x[j];
    x[i] = sum / L[i][i];
  }
#pragma endscop
}

static void print_array(int n, double x[N], double y[N])
{
  int i;
  for (i = 0; i < n; i++) {
    printf("%.6f ", y[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
  for (i = 0; i < n; i++) {
    printf("%.6f ", x[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double L[N][N];
  static double x[N];
  static double y[N];
  static double b[N];
  init_array(N, L, x, y, b);
  kernel_trisolv(N, L, x, y, b);
  print_array(N, x, y);
  return 0;
}
