#pragma GCC diagnostic ignored "-Wunknown-pragmas"
/* Updates whose unrolled copies may or may not be folded into one
   assignment (src/emit/loops/fold.rs): a `double` sum or product folds;
   a `float` one, an `int` one, one that reads a `long double` or its own
   array, and one that calls a function do not. */
#include <stdio.h>
#include <math.h>

#define N 13

double D[N], E[N], G[N], H[N], X[N][N];
float F[N];
int I[N];
long double w = 1.0L / 3;
double s = 0.1;

int main(void) {
  int i, k;
  for (i = 0; i < N; i++) {
    D[i] = E[i] = G[i] = F[i] = I[i] = 0;
    H[i] = 1;
    for (k = 0; k < N; k++)
      X[i][k] = 1.0 / (i + k + 1);
  }
#pragma scop
  for (i = 0; i < N; i++) {
    for (k = 0; k < N; k++)
      D[i] += s * X[i][k] - X[k][i];
    for (k = 0; k < N; k++)
      E[i] = E[i] - (X[i][k] - s);
    for (k = 0; k < N; k++)
      F[i] += X[i][k] * 3;
    for (k = 0; k < N; k++)
      I[i] += k * 3 + i;
    for (k = 0; k < N; k++)
      G[i] += w * X[i][k];
    for (k = 0; k < N; k++)
      D[i] *= 1.0 + X[k][i] + D[0] * 1e-9;
    for (k = 0; k < N; k++)
      E[i] -= sqrt(X[i][k]);
    for (k = 0; k < N; k++)
      H[i] *= 1.0 + X[k][i] * 1e-3;
  }
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%.17g %.17g %.9g %d %.17g %.17g\n", D[i], E[i], F[i], I[i], G[i], H[i]);
  return 0;
}
