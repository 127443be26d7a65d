#pragma GCC diagnostic ignored "-Wunknown-pragmas"
/* Loops that carry dependences at a distance (`vectorize` marks them
   with `safelen`, docs/recipe-language.md): distance 4, distance 8 in an
   inner loop, 3 and 5 together (a safelen of 2), a lexically forward
   distance 1 and a backward one (refused), and a read-only loop (no
   clause). */
#include <stdio.h>

#define N 64
#define M 40

double A[N], B[N], C[N], E[N], F[N], G[N], D[M][N];

int main(void) {
  int i, j;
  for (i = 0; i < N; i++) {
    A[i] = B[i] = C[i] = E[i] = F[i] = G[i] = 1.0 / (i + 1);
    for (j = 0; j < M; j++)
      D[j][i] = 1.0 / (i + j + 2);
  }
#pragma scop
  for (i = 4; i < N; i++)
    A[i] = A[i - 4] * 0.5 + B[i];
  for (j = 1; j < M; j++)
    for (i = 8; i < N; i++)
      D[j][i] = D[j][i - 8] + D[j - 1][i] * 0.25;
  for (i = 5; i < N; i++)
    C[i] = C[i - 3] * 0.5 + C[i - 5] * 0.25;
  for (i = 1; i < N; i++) {
    E[i] = B[i] * 2.0;
    F[i] = E[i - 1] + 1.0;
  }
  for (i = 1; i < N; i++)
    G[i] = G[i - 1] * 0.5 + B[i];
  for (i = 0; i < N; i++)
    B[i] = B[i] * 3.0;
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", A[i], B[i], C[i], E[i], F[i], G[i], D[M - 1][i]);
  return 0;
}
