#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 30

static void init_array(int n, double x1[N], double x2[N], double y_1[N],
                       double y_2[N], double A[N][N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    x1[i] = (double)(i % n) / n;
    x2[i] = (double)((i + 1) % n) / n;
    y_1[i] = (double)((i + 3) % n) / n;
    y_2[i] = (double)((i + 4) % n) / n;
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i * j + 1) % n) / n;
  }
}

static void kernel_mvt(int n, double x1[N], double x2[N], double y_1[N],
                       double y_2[N], double A[N][N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
#pragma endscop
}

static void print_array(int n, double x1[N], double x2[N])
{
  int i;
  for (i = 0; i < n; i++) {
    printf("%.6f ", x1[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
  for (i = 0; i < n; i++) {
    printf("%.6f ", x2[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double A[N][N];
  static double x1[N];
  static double x2[N];
  static double y_1[N];
  static double y_2[N];
  init_array(N, x1, x2, y_1, y_2, A);
  kernel_mvt(N, x1, x2, y_1, y_2, A);
  print_array(N, x1, x2);
  return 0;
}
