#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define M 20
#define N 24

static void init_array(int m, int n, double C[M][N], double A[M][M],
                       double B[M][N])
{
  int i, j;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      C[i][j] = (double)((i + j) % 100) / m;
      B[i][j] = (double)((n + i - j) % 100) / m;
    }
  for (i = 0; i < m; i++) {
    for (j = 0; j <= i; j++)
      A[i][j] = (double)((i + j) % 100) / m;
    for (j = i + 1; j < m; j++)
      A[i][j] = -999.0; /* never read: only the lower triangle is used */
  }
}

static void kernel_symm(int m, int n, double alpha, double beta,
                        double C[M][N], double A[M][M], double B[M][N])
{
  int i, j, k;
  double temp2;
#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
#pragma endscop
}

static void print_array(int m, int n, double C[M][N])
{
  int i, j;
  for (i = 0; i < m; i++) {
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
  static double C[M][N];
  static double A[M][M];
  static double B[M][N];
  init_array(M, N, C, A, B);
  kernel_symm(M, N, 1.5, 1.2, C, A, B);
  print_array(M, N, C);
  return 0;
}
