#pragma GCC diagnostic ignored "-Wunused-label"
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define NI 1024
#define NJ 1024
#define NK 1024

static void init_array(int ni, int nj, int nk, double *alpha, double *beta,
                       double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
  int i, j;
  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (double)((i * j + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (double)((i * (j + 1) + 1) % nk) / nk;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (double)(i * (j + 2) % nj) / nj;
}

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      init: C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        update: C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}

/* A checksum instead of the 1048576 values: printing them would take
   longer than the kernel. */
static void print_array(int ni, int nj, double C[NI][NJ])
{
  int i, j;
  double sum = 0.0, weighted = 0.0;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      sum += C[i][j];
      weighted += C[i][j] * ((i * nj + j) % 7 + 1);
    }
  printf("%.6f %.6f %.6f\n", sum, weighted, C[ni / 2][nj / 3]);
}

int main(void)
{
  static double C[NI][NJ];
  static double A[NI][NK];
  static double B[NK][NJ];
  double alpha, beta;
  init_array(NI, NJ, NK, &alpha, &beta, C, A, B);
  kernel_gemm(NI, NJ, NK, alpha, beta, C, A, B);
  print_array(NI, NJ, C);
  return 0;
}
