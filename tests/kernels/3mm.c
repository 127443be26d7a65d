#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define NI 16
#define NJ 18
#define NK 20
#define NL 22
#define NM 24

/* PolyBench-style loop-bound macros */
#define _PB_NI NI
#define _PB_NJ NJ
#define _PB_NK NK
#define _PB_NL NL
#define _PB_NM NM

static double E[NI][NJ];
static double A[NI][NK];
static double B[NK][NJ];
static double F[NJ][NL];
static double C[NJ][NM];
static double D[NM][NL];
static double G[NI][NL];

static void init_array(void)
{
  int i, j;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (double)((i * j + 1) % NI) / (5 * NI);
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (double)((i * (j + 1) + 2) % NJ) / (5 * NJ);
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NM; j++)
      C[i][j] = (double)(i * (j + 3) % NL) / (5 * NL);
  for (i = 0; i < NM; i++)
    for (j = 0; j < NL; j++)
      D[i][j] = (double)((i * (j + 2) + 2) % NK) / (5 * NK);
}

static void kernel_3mm(void)
{
  int i, j, k;
#pragma scop
  /* E := A*B */
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++) {
      E[i][j] = 0.0;
      for (k = 0; k < _PB_NK; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  /* F := C*D */
  for (i = 0; i < _PB_NJ; i++)
    for (j = 0; j < _PB_NL; j++) {
      F[i][j] = 0.0;
      for (k = 0; k < _PB_NM; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  /* G := E*F */
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++) {
      G[i][j] = 0.0;
      for (k = 0; k < _PB_NJ; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
#pragma endscop
}

static void print_array(void)
{
  int i, j;
  for (i = 0; i < NI; i++) {
    for (j = 0; j < NL; j++) {
      printf("%.6f ", G[i][j]);
      if ((i * NL + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
}

int main(void)
{
  init_array();
  kernel_3mm();
  print_array();
  return 0;
}
