#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* A chained assignment as in PolyBench's deriche (`a1 = a5 = k;`): polyc
   reads it as two statements, `a5 = k;` then `a1 = a5;`. The int target
   truncates: `a1` receives the truncated value, as in C. */

#define N 30

static void kernel_chained(int n, double A[N], double B[N], double k)
{
  int i;
  int a5;
  double a1;
#pragma scop
  a1 = a5 = k;
  for (i = 0; i < n; i++)
    A[i] = B[i] = a1 * i + a5;
  for (i = 1; i < n; i++)
    B[i] += A[i - 1] = B[i - 1] * 0.5;
#pragma endscop
}

int main(void)
{
  static double A[N], B[N];
  int i;
  for (i = 0; i < N; i++)
    A[i] = B[i] = i;
  kernel_chained(N, A, B, 2.75);
  for (i = 0; i < N; i++)
    printf("%.6f %.6f\n", A[i], B[i]);
  return 0;
}
