#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 30

static void init_array(int n, double r[N])
{
  int i;
  /* autocorrelation-like sequence: keeps the recurrence well conditioned */
  for (i = 0; i < n; i++)
    r[i] = 1.0 / (double)(i + 2);
}

/* Levinson-Durbin style recurrence (after PolyBench durbin) */
static void kernel_durbin(int n, double r[N], double y[N], double z[N])
{
  int i, k;
  double alpha, beta, sum;
#pragma scop
  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  for (k = 1; k < n; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = 0.0;
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i = i + 1)
      y[i] = z[i];
    y[k] = alpha;
  }
#pragma endscop
}

static void print_array(int n, double y[N])
{
  int i;
  for (i = 0; i < n; i++) {
    printf("%.6f ", y[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double r[N];
  static double y[N];
  static double z[N];
  init_array(N, r);
  kernel_durbin(N, r, y, z);
  print_array(N, y);
  return 0;
}
