/* `N` is not fixed: `-DN=…` chooses it, so `i * N` is a product of
   two unknowns. */
#ifndef N
#define N 16
#endif
void f(double A[N * N]) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i * N + j] = 0.0;
#pragma endscop
}
