#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define NI 20
#define NJ 24
#define NK 16
#define BS 4

/* gemm on flat arrays, rows laid out by hand: `C[i * NJ + j]`. The
   macros are fixed (defined once, outside every `#if`), so polyc reads
   `i * NJ` as `24i`, and the bounds keep `NI`, `NJ`, `NK` as parameters
   whose context holds those values. The scaling steps by `BS`. */
static double A[NI * NK], B[NK * NJ], C[NI * NJ];

static void init_array(void)
{
  int i;
  for (i = 0; i < NI * NK; i++)
    A[i] = (double)((i * 7 + 1) % 13) / 13;
  for (i = 0; i < NK * NJ; i++)
    B[i] = (double)((i * 5 + 2) % 11) / 11;
  for (i = 0; i < NI * NJ; i++)
    C[i] = (double)((i * 3 + 3) % 7) / 7;
}

static void kernel_flat_gemm(double alpha, double beta)
{
  int i, j, jj, k;
#pragma scop
  for (i = 0; i < NI; i++) {
    for (jj = 0; jj < NJ; jj += BS)
      for (j = jj; j < jj + BS; j++)
        C[i * NJ + j] *= beta;
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        C[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
  }
#pragma endscop
}

int main(void)
{
  int i;
  init_array();
  kernel_flat_gemm(1.5, 1.2);
  for (i = 0; i < NI * NJ; i++) {
    printf("%.6f ", C[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
  return 0;
}
