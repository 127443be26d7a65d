#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 24

static void init_array(int n, double A[N][N], double B[N][N], double C[N][N],
                       double x[N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    x[i] = (double)(i % 5 + 1) / 5;
    for (j = 0; j < n; j++) {
      A[i][j] = (double)((i * j + 1) % n) / n;
      B[i][j] = (double)((i + 2 * j) % n) / n;
      C[i][j] = 0.0;
    }
  }
}

/* Loop bodies guarded by affine conditions: if/else, &&, ||, !, nesting,
   plus a bound with integer division and a stride-2 loop. */
static void kernel_guards(int n, double A[N][N], double B[N][N], double C[N][N],
                          double x[N])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if (i == j)
        A[i][j] = A[i][j] + 1.0;
      else
        A[i][j] = A[i][j] * 0.5;
      if (i > 0 && j < n - 1)
        B[i][j] = B[i][j] + A[i - 1][j + 1];
      if (i < 2 || j >= n - 2)
        B[i][j] += 1.0;
      if (!(i + j < n))
        C[i][j] = A[i][j] - B[i][j];
      if (2 * i - j >= 1) {
        if (j + 8 <= n)
          C[i][j] += 2.0 * A[j][i];
      }
    }
  for (i = 0; i < n / 2; i++)
    x[i] = x[2 * i] + x[2 * i + 1];
  for (i = 0; i < n; i += 2)
    C[i][0] = C[i][0] + x[i];
#pragma endscop
}

static void print_array(int n, double B[N][N], double C[N][N], double x[N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      printf("%.6f ", B[i][j]);
      if ((i * n + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      printf("%.6f ", C[i][j]);
      if ((i * n + j) % 16 == 15)
        printf("\n");
    }
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
  static double A[N][N];
  static double B[N][N];
  static double C[N][N];
  static double x[N];
  init_array(N, A, B, C, x);
  kernel_guards(N, A, B, C, x);
  print_array(N, B, C, x);
  return 0;
}
