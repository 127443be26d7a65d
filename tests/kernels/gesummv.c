#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 30

static double A[N][N];
static double B[N][N];
static double tmp[N];
static double x[N];
static double y[N];

static void init_array(void)
{
  int i, j;
  for (i = 0; i < N; i++) {
    x[i] = (double)(i % N) / N;
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * j + 1) % N) / N;
      B[i][j] = (double)((i * j + 2) % N) / N;
    }
  }
}

static void kernel_gesummv(double alpha, double beta)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (j = 0; j < N; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
#pragma endscop
}

static void print_array(void)
{
  int i;
  for (i = 0; i < N; i++) {
    printf("%.6f ", y[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  init_array();
  kernel_gesummv(1.5, 1.2);
  print_array();
  return 0;
}
