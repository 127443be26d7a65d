#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* PolyBench's covariance, written for the tests at small sizes: column
   means, centred data, then the covariance matrix's upper triangle,
   mirrored. */

#define M 20
#define N 24

static void kernel_covariance(int m, int n, double float_n, double data[N][M],
                              double cov[M][M], double mean[M])
{
  int i, j, k;
#pragma scop
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] -= mean[j];
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      cov[i][j] = 0.0;
      for (k = 0; k < n; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - 1.0);
      cov[j][i] = cov[i][j];
    }
#pragma endscop
}

int main(void)
{
  static double data[N][M], cov[M][M], mean[M];
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = ((double)i * j) / M;
  kernel_covariance(M, N, (double)N, data, cov, mean);
  for (i = 0; i < M; i++) {
    for (j = 0; j < M; j++)
      printf("%.6f ", cov[i][j]);
    printf("\n");
  }
  return 0;
}
