#pragma GCC diagnostic ignored "-Wunknown-pragmas"
/* Spelled as PolyBench/C 4.2 spells it: DATA_TYPE, SCALAR_VAL, SQRT_FUN,
   POLYBENCH_2D/1D declarations and _PB_ bounds (a correlation-like kernel). */
#include <math.h>
#include <stdio.h>

#define M 12
#define N 16
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define SQRT_FUN(x) sqrt(x)
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[dim1][dim2]
#define POLYBENCH_1D(var, dim1, ddim1) var[dim1]
#define _PB_M m
#define _PB_N n

static void init_array(int m, int n, DATA_TYPE POLYBENCH_2D(data, N, M, n, m))
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] = (DATA_TYPE)(i * j % 7) / M + i;
}

static void kernel_correlation(int m, int n, DATA_TYPE float_n,
                               DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                               DATA_TYPE POLYBENCH_2D(corr, M, M, m, m),
                               DATA_TYPE POLYBENCH_1D(mean, M, m),
                               DATA_TYPE POLYBENCH_1D(stddev, M, m))
{
  int i, j, k;
  DATA_TYPE eps = SCALAR_VAL(0.1);
#pragma scop
  for (j = 0; j < _PB_M; j++) {
    mean[j] = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (j = 0; j < _PB_M; j++) {
    stddev[j] = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_N; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = SQRT_FUN(stddev[j]);
    stddev[j] = stddev[j] <= eps ? SCALAR_VAL(1.0) : stddev[j];
  }
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= SQRT_FUN(float_n) * stddev[j];
    }
  for (i = 0; i < _PB_M - 1; i++) {
    corr[i][i] = SCALAR_VAL(1.0);
    for (j = i + 1; j < _PB_M; j++) {
      corr[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_N; k++)
        corr[i][j] += (data[k][i] * data[k][j]);
      corr[j][i] = corr[i][j];
    }
  }
  corr[_PB_M - 1][_PB_M - 1] = SCALAR_VAL(1.0);
#pragma endscop
}

int main(void)
{
  static DATA_TYPE POLYBENCH_2D(data, N, M, n, m);
  static DATA_TYPE POLYBENCH_2D(corr, M, M, m, m);
  static DATA_TYPE POLYBENCH_1D(mean, M, m);
  static DATA_TYPE POLYBENCH_1D(stddev, M, m);
  int i, j;
  init_array(M, N, data);
  kernel_correlation(M, N, (DATA_TYPE)N, data, corr, mean, stddev);
  for (i = 0; i < M; i++) {
    for (j = 0; j < M; j++)
      printf("%.6f ", corr[i][j]);
    printf("\n");
  }
  return 0;
}
