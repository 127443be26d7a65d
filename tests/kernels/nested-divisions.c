#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 20

#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))
#define ceild(x, d) (-floord(-(x), (d)))

static void init_array(int n, double A[N][N], double B[N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    B[i] = (double)((3 * i + 1) % n) / n;
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i * j + 5) % n) / n;
  }
}

/* Divisions of divisions: remainders of sums that hold a quotient
   (`(i + j / 2) % 3`; `(j / 2 - i) % 3`, of a negative value; `(j / 3) %
   2`) and a strided loop that starts at a quotient (`ceild(i, 2)`). Each
   is an existential whose equation reads another existential, and code
   generation must keep it exact. */
static void kernel_nested_divisions(int n, double A[N][N], double B[N])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++) {
      if ((i + j / 2) % 3 == 0)
        A[i][j] = A[i][j] + B[j];
      if ((j / 2 - i) % 3 == -1 && (j / 3) % 2 == 1)
        A[j][i] = A[j][i] * 0.5 + A[i][j];
    }
    for (j = ceild(i, 2); j <= i; j += 2)
      B[j] = B[j] + A[i][j] * 0.25;
  }
#pragma endscop
}

static void print_array(int n, double A[N][N], double B[N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    printf("%.6f ", B[i]);
    for (j = 0; j < n; j++)
      printf("%.6f ", A[i][j]);
    printf("\n");
  }
}

int main(void)
{
  static double A[N][N];
  static double B[N];
  init_array(N, A, B);
  kernel_nested_divisions(N, A, B);
  print_array(N, A, B);
  return 0;
}
