#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 20
#define M 24

static void init_array(int n, int m, double A[N][M], double x[M])
{
  int i, j;
  for (j = 0; j < m; j++)
    x[j] = (double)(j % 7 + 1) / 7;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = (double)((i * j + 3) % m) / m;
}

/* Two separate static control parts in one function, with ordinary
   (non-SCoP) code between them. */
static void kernel_two_regions(int n, int m, double A[N][M], double x[M],
                               double y[N], double B[N][M])
{
  int i, j;
  double scale;

  /* region 1: y := A x, then a row scaling of A into B */
#pragma scop
  for (i = 0; i < n; i++) {
    y[i] = 0.0;
    for (j = 0; j < m; j++)
      y[i] += A[i][j] * x[j];
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      B[i][j] = A[i][j] * y[i];
#pragma endscop

  /* plain C between the regions */
  scale = 1.0 / (1.0 + y[0]);

  /* region 2: scaled 1-D smoothing of each row of B */
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 1; j < m - 1; j++)
      A[i][j] = scale * (B[i][j - 1] + B[i][j] + B[i][j + 1]) / 3.0;
  for (i = 1; i < n; i++)
    y[i] = y[i] + y[i - 1] * scale;
#pragma endscop
}

static void print_array(int n, int m, double A[N][M], double y[N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < m; j++) {
      printf("%.6f ", A[i][j]);
      if ((i * m + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
  for (i = 0; i < n; i++) {
    printf("%.6f ", y[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double A[N][M];
  static double B[N][M];
  static double x[M];
  static double y[N];
  init_array(N, M, A, x);
  kernel_two_regions(N, M, A, x, y, B);
  print_array(N, M, A, y);
  return 0;
}
