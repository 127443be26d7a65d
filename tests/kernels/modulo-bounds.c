#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 22

static void init_array(int n, double A[N][N], double B[N][N])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = (double)((i * j + 5) % n) / n;
      B[i][j] = (double)((2 * i + j) % 7) / 7;
    }
}

/* `%` and `/` by constants in loop bounds and conditions: each becomes an
   existential in the domain, and code generation must keep it exact
   (`i % 4 < 2` is a floor guard, `i % 3 == 1` a stride). */
static void kernel_modulo_bounds(int n, double A[N][N], double B[N][N])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i % 4; j++)
      A[i][j] = A[i][j] + B[i][j];
    if (i % 3 == 1)
      A[i][0] = A[i][0] * 2.0;
    if (i % 4 < 2)
      B[i][1] = B[i][1] + A[i][2];
    for (j = i % 3; j < n; j++)
      B[i][j] = B[i][j] * 0.5 + A[j][i];
    for (j = 0; j <= i / 2; j++)
      if ((i + j) % 3 != 0)
        A[i][j] = A[i][j] + B[j][i];
  }
#pragma endscop
}

static void print_array(int n, double A[N][N], double B[N][N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      printf("%.6f %.6f ", A[i][j], B[i][j]);
    printf("\n");
  }
}

int main(void)
{
  static double A[N][N];
  static double B[N][N];
  init_array(N, A, B);
  kernel_modulo_bounds(N, A, B);
  print_array(N, A, B);
  return 0;
}
