#pragma GCC diagnostic ignored "-Wunknown-pragmas"
/* Two loops: the second reads what the first writes, cell by cell. */
#include <stdio.h>

#define N 20

double A[N], B[N];

int main(void) {
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    A[i] = i;
  for (i = 0; i < N; i++)
    B[i] = A[i];
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%g\n", B[i]);
  return 0;
}
