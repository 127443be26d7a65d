#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define NR 10
#define NQ 12
#define NP 14

static double A[NR][NQ][NP];
static double C4[NP][NP];
static double sum[NP];

static void init_array(void)
{
  int i, j, k;
  for (i = 0; i < NR; i++)
    for (j = 0; j < NQ; j++)
      for (k = 0; k < NP; k++)
        A[i][j][k] = (double)((i * j + k) % NP) / NP;
  for (i = 0; i < NP; i++)
    for (j = 0; j < NP; j++)
      C4[i][j] = (double)((i * j + 1) % NP) / NP;
}

static void kernel_doitgen(void)
{
  int r, q, p, s;
#pragma scop
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++) {
      for (p = 0; p < NP; p++) {
        sum[p] = 0.0;
        for (s = 0; s < NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < NP; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop
}

static void print_array(void)
{
  int i, j, k, c = 0;
  for (i = 0; i < NR; i++)
    for (j = 0; j < NQ; j++)
      for (k = 0; k < NP; k++) {
        printf("%.6f ", A[i][j][k]);
        if (c++ % 16 == 15)
          printf("\n");
      }
  printf("\n");
}

int main(void)
{
  init_array();
  kernel_doitgen();
  print_array();
  return 0;
}
