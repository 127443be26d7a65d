#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <math.h>

/* PolyBench's Gram-Schmidt QR, written for the tests at small sizes: a
   scalar norm per column, then each later column projected out. */

#define M 20
#define N 24

static void kernel_gramschmidt(int m, int n, double A[M][N], double R[N][N], double Q[M][N])
{
  int i, j, k;
  double nrm;
#pragma scop
  for (k = 0; k < n; k++) {
    nrm = 0.0;
    for (i = 0; i < m; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = sqrt(nrm);
    for (i = 0; i < m; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < n; j++) {
      R[k][j] = 0.0;
      for (i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}

int main(void)
{
  static double A[M][N], R[N][N], Q[M][N];
  int i, j;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (((double)((i * j) % M) / M) * 100) + 10;
      Q[i][j] = 0.0;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      R[i][j] = 0.0;
  kernel_gramschmidt(M, N, A, R, Q);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%.6f ", R[i][j]);
    printf("\n");
  }
  for (i = 0; i < M; i++) {
    for (j = 0; j < N; j++)
      printf("%.6f ", Q[i][j]);
    printf("\n");
  }
  return 0;
}
