#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define M 20
#define N 24

static void init_array(int n, int m, double C[N][N], double A[N][M])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = (double)((i * j + 1) % n) / n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      C[i][j] = (double)((i * j + 2) % m) / m;
}

static void kernel_syrk(int n, int m, double alpha, double beta,
                        double C[N][N], double A[N][M])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
#pragma endscop
}

static void print_array(int n, double C[N][N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      printf("%.6f ", C[i][j]);
      if ((i * n + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
}

int main(void)
{
  static double C[N][N];
  static double A[N][M];
  init_array(N, M, C, A);
  kernel_syrk(N, M, 1.5, 1.2, C, A);
  print_array(N, C);
  return 0;
}
