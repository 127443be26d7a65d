#pragma GCC diagnostic ignored "-Wunknown-pragmas"
/* A dependence at distance (1, 1, -1): jamming i alone or j alone keeps
   it in order, jamming both at once does not (both jams' copies share
   one iteration of k, where the target's k is one less). And one at
   distance (1, 1, 1): both jams together are legal, but they put its two
   ends in one iteration of the jammed loops, on different iterations of
   k, which can then not be parallel. */
#include <stdio.h>

#define N 12

double A[N][N][N], B[N][N][N];

int main(void) {
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = 1.0 / (i + 2 * j + 3 * k + 1);
#pragma scop
  for (i = 1; i < N; i++)
    for (j = 1; j < N; j++)
      for (k = 0; k < N - 1; k++)
        A[i][j][k] = A[i - 1][j - 1][k + 1] * 0.5 + A[i][j][k];
  for (i = 1; i < N; i++)
    for (j = 1; j < N; j++)
      for (k = 1; k < N; k++)
        B[i][j][k] = B[i - 1][j - 1][k - 1] * 0.5 + B[i][j][k];
#pragma endscop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      printf("%.17g %.17g\n", A[i][j][i % N], B[i][j][(i + j) % N]);
  return 0;
}
