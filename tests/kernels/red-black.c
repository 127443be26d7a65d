#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define TSTEPS 4
#define N 26

static void init_array(int n, double A[N][N])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = ((double)i * (j + 3) + 1) / n;
}

/* Red-black Gauss-Seidel: each sweep updates the red cells (i + j odd),
   then the black ones, from their four neighbours of the other colour.
   The inner loops step by 2 from a start that is a remainder of `i`. */
static void kernel_red_black(int tsteps, int n, double A[N][N])
{
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1 + i % 2; j < n - 1; j += 2)
        A[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
    for (i = 1; i < n - 1; i++)
      for (j = 1 + (i + 1) % 2; j < n - 1; j += 2)
        A[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
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
  kernel_red_black(TSTEPS, N, A);
  print_array(N, A);
  return 0;
}
