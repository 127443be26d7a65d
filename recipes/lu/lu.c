#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 24

static void init_array(int n, double A[N][N])
{
  int i, j;
  /* diagonally dominant: no pivoting needed */
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i * j + 1) % n) / n;
    A[i][i] += n;
  }
}

static void kernel_lu(int n, double A[N][N])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (int j = i; j < n; j++)
      for (int k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
#pragma endscop
}

static void print_array(int n, double A[N][N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      printf("%.6f ", A[i][j]);
      if ((i * n + j) % 16 == 15)
        printf("\n");
    }
  }
  printf("\n");
}

int main(void)
{
  static double A[N][N];
  init_array(N, A);
  kernel_lu(N, A);
  print_array(N, A);
  return 0;
}
