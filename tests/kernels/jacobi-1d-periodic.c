#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* Periodic Jacobi 1-D as in Pluto's tests: two time buffers chosen by `%`,
   and the neighbours of the ends wrap around with `?:` in the subscripts. */

#define T 7
#define N 24

static void kernel_jacobi_1d_periodic(double u[2][N])
{
  int t, i;
#pragma scop
  for (t = 1; t <= T; t++)
    for (i = 0; i < N; i++)
      u[t % 2][i] = 0.25 * (u[(t - 1) % 2][i == 0 ? N - 1 : i - 1]
                            + 2.0 * u[(t - 1) % 2][i]
                            + u[(t - 1) % 2][i == N - 1 ? 0 : i + 1]);
#pragma endscop
}

int main(void)
{
  static double u[2][N];
  int i;
  for (i = 0; i < N; i++) {
    u[0][i] = (double)(i * i % 7);
    u[1][i] = 0.0;
  }
  kernel_jacobi_1d_periodic(u);
  for (i = 0; i < N; i++)
    printf("%.6f %.6f\n", u[0][i], u[1][i]);
  return 0;
}
