#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define M 22
#define N 26

static void init_array(int m, int n, double A[N][M], double r[N], double p[M])
{
  int i, j;
  for (i = 0; i < m; i++)
    p[i] = (double)(i % m) / m;
  for (i = 0; i < n; i++) {
    r[i] = (double)(i % n) / n;
    for (j = 0; j < m; j++)
      A[i][j] = (double)((i * (j + 1) + 1) % n) / n;
  }
}

static void kernel_bicg(int m, int n, double A[N][M], double s[M],
                        double q[N], double p[M], double r[N])
{
  int i, j;
#pragma scop
  for (i = 0; i < m; i++)
    s[i] = 0;
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop
}

static void print_array(int m, int n, double s[M], double q[N])
{
  int i;
  for (i = 0; i < m; i++) {
    printf("%.6f ", s[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
  for (i = 0; i < n; i++) {
    printf("%.6f ", q[i]);
    if (i % 16 == 15)
      printf("\n");
  }
  printf("\n");
}

int main(void)
{
  static double A[N][M];
  static double s[M];
  static double q[N];
  static double p[M];
  static double r[N];
  init_array(M, N, A, r, p);
  kernel_bicg(M, N, A, s, q, p, r);
  print_array(M, N, s, q);
  return 0;
}
