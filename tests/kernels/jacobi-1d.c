#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define TSTEPS 8
#define N 40

static void init_array(int n, double A[N], double B[N])
{
  int i;
  for (i = 0; i < n; i++) {
    A[i] = ((double)i + 2) / n;
    B[i] = ((double)i + 3) / n;
  }
}

static void kernel_jacobi_1d(int tsteps, int n, double A[N], double B[N])
{
  int t, i;
#pragma scop
  for (t = 0; t < tsteps; ++t) {
    for (i = 1; i < n - 1; ++i)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < n - 1; ++i)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
#pragma endscop
}

static void print_array(int n, double A[N])
{
  int i;
  for (i = 0; i < n; i++) {
    printf("%.6f ", A[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double A[N];
  static double B[N];
  init_array(N, A, B);
  kernel_jacobi_1d(TSTEPS, N, A, B);
  print_array(N, A);
  return 0;
}
