#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 23

static void init_array(int n, double A[N][N], double B[N][N])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = (double)((i * j + 3) % n) / n;
      B[i][j] = 0.0;
    }
}

/* Iterators after `-`, `*`, `/` and `%`, where an unrolled copy's
   `j + 1` needs parentheses: `n - 1 - (j + 1)`, never `n - 1 - j + 1`. */
static void kernel_mirror(int n, double A[N][N], double B[N][N])
{
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 1; j < n; j++)
      B[i][n - 1 - j] = A[n - i][j] * j + (double)(100 / j) + (double)(i % j)
                        - (double)(n - j * i);
#pragma endscop
}

static void print_array(int n, double B[N][N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      printf("%.2f ", B[i][j]);
    printf("\n");
  }
}

int main(void)
{
  static double A[N][N];
  static double B[N][N];
  init_array(N, A, B);
  kernel_mirror(N, A, B);
  print_array(N, B);
  return 0;
}
