#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define M 20
#define N 24

static void init_array(int m, int n, double A[M][M], double B[M][N])
{
  int i, j;
  for (i = 0; i < m; i++) {
    for (j = 0; j < i; j++)
      A[i][j] = (double)((i + j) % m) / m;
    A[i][i] = 1.0;
    for (j = 0; j < n; j++)
      B[i][j] = (double)((n + (i - j)) % n) / n;
  }
}

static void kernel_trmm(int m, int n, double alpha, double A[M][M],
                        double B[M][N])
{
  int i, j, k;
#pragma scop
  /* B := alpha*A'*B, A unit lower triangular */
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      for (k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
#pragma endscop
}

static void print_array(int m, int n, double B[M][N])
{
  int i, j;
  for (i = 0; i < m; i++) {
    for (j = 0; j < n; j++) {
      printf("%.6f ", B[i][j]);
      if ((i * n + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
}

int main(void)
{
  static double A[M][M];
  static double B[M][N];
  init_array(M, N, A, B);
  kernel_trmm(M, N, 1.5, A, B);
  print_array(M, N, B);
  return 0;
}
