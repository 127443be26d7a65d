#pragma GCC diagnostic ignored "-Wunknown-pragmas"
/* Scalar reductions (`parallelize(…, reduction = x)`,
   docs/recipe-language.md): a dot product (`+=`), a sum over a 2-d nest
   (`x = x + e - f`), a product of ±1s (`*=`), and a running sum that a
   statement of its loop also reads (no reduction). All in integers, so
   that every order of the updates prints the same. */
#include <stdio.h>

#define N 300
#define M 200

long A[N], B[N], D[N], C[M][N], S[N];
long dot, total, sign, running;

int main(void) {
  int i, j;
  for (i = 0; i < N; i++) {
    A[i] = i % 7 - 3;
    B[i] = (i * 13) % 11 - 5;
    D[i] = (i % 5 == 2) ? -1 : 1;
    for (j = 0; j < M; j++)
      C[j][i] = (i * j) % 5 - 2;
  }
#pragma scop
  dot = 0;
  for (i = 0; i < N; i++)
    dot += A[i] * B[i];
  total = dot;
  for (j = 0; j < M; j++)
    for (i = 0; i < N; i++)
      total = total + C[j][i] - A[i];
  sign = 1;
  for (i = 0; i < N; i++)
    sign *= D[i];
  running = 0;
  for (i = 0; i < N; i++) {
    running += A[i];
    S[i] = running;
  }
#pragma endscop
  printf("%ld %ld %ld %ld\n", dot, total, sign, running);
  for (i = 0; i < N; i++)
    printf("%ld\n", S[i]);
  return 0;
}
