#pragma GCC diagnostic ignored "-Wunknown-pragmas"
/* The report's Listing 15 with a fixed size (its Examples 13 and 30): one
   sum over a 10 x 10 array. The row 10i + j carries every dependence
   at once and runs both loops as one (loop coalescing); the schedulers
   must give i, then j. */
#include <stdio.h>

double A[10][10];
double s[1];

int main(void) {
  int i, j;
  for (i = 0; i < 10; i++)
    for (j = 0; j < 10; j++)
      A[i][j] = (i * 7 + j * 3) % 11;
#pragma scop
  for (i = 0; i < 10; i++)
    for (j = 0; j < 10; j++)
      s[0] = s[0] + A[i][j];
#pragma endscop
  printf("%g\n", s[0]);
  return 0;
}
