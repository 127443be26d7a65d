#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define NI 16
#define NJ 18
#define NK 22
#define NL 24

static void init_array(int ni, int nj, int nk, int nl,
                       double A[NI][NK], double B[NK][NJ],
                       double C[NJ][NL], double D[NI][NL])
{
  int i, j;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (double)((i * j + 1) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (double)(i * (j + 1) % nj) / nj;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++)
      C[i][j] = (double)((i * (j + 3) + 1) % nl) / nl;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (double)(i * (j + 2) % nk) / nk;
}

static void kernel_2mm(int ni, int nj, int nk, int nl,
                       double alpha, double beta, double tmp[NI][NJ],
                       double A[NI][NK], double B[NK][NJ],
                       double C[NJ][NL], double D[NI][NL])
{
  int i, j, k;
#pragma scop
  /* D := alpha*A*B*C + beta*D */
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      D[i][j] *= beta;
      for (k = 0; k < nj; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
#pragma endscop
}

static void print_array(int ni, int nl, double D[NI][NL])
{
  int i, j;
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nl; j++) {
      printf("%.6f ", D[i][j]);
      if ((i * nl + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
}

int main(void)
{
  static double tmp[NI][NJ];
  static double A[NI][NK];
  static double B[NK][NJ];
  static double C[NJ][NL];
  static double D[NI][NL];
  init_array(NI, NJ, NK, NL, A, B, C, D);
  kernel_2mm(NI, NJ, NK, NL, 1.5, 1.2, tmp, A, B, C, D);
  print_array(NI, NL, D);
  return 0;
}
