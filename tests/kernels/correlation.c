#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <math.h>

/* PolyBench's correlation, written for the tests at small sizes: column
   means and deviations (a `?:` guards a tiny deviation), then the
   correlation matrix's upper triangle, mirrored. */

#define M 20
#define N 24

static void kernel_correlation(int m, int n, double float_n, double data[N][M],
                               double corr[M][M], double mean[M], double stddev[M])
{
  int i, j, k;
  double eps = 0.1;
#pragma scop
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrt(float_n) * stddev[j];
    }
  for (i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0;
    for (j = i + 1; j < m; j++) {
      corr[i][j] = 0.0;
      for (k = 0; k < n; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0;
#pragma endscop
}

int main(void)
{
  static double data[N][M], corr[M][M], mean[M], stddev[M];
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (double)(i * j % 7) / M + i;
  kernel_correlation(M, N, (double)N, data, corr, mean, stddev);
  for (i = 0; i < M; i++) {
    for (j = 0; j < M; j++)
      printf("%.6f ", corr[i][j]);
    printf("\n");
  }
  return 0;
}
