#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* PolyBench's Nussinov RNA folding, written for the tests at small sizes:
   a dynamic program over a triangle, its maxima through `?:` macros and
   conditions on the iterators. */

#define N 30
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)

static void kernel_nussinov(int n, int seq[N], int table[N][N])
{
  int i, j, k;
#pragma scop
  for (i = n - 1; i >= 0; i--) {
    for (j = i + 1; j < n; j++) {
      if (j - 1 >= 0)
        table[i][j] = max_score(table[i][j], table[i][j - 1]);
      if (i + 1 < n)
        table[i][j] = max_score(table[i][j], table[i + 1][j]);
      if (j - 1 >= 0 && i + 1 < n) {
        if (i < j - 1)
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
        else
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
      }
      for (k = i + 1; k < j; k++)
        table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
    }
  }
#pragma endscop
}

int main(void)
{
  static int seq[N], table[N][N];
  int i, j;
  for (i = 0; i < N; i++)
    seq[i] = (i + 1) % 4;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      table[i][j] = 0;
  kernel_nussinov(N, seq, table);
  for (i = 0; i < N; i++) {
    for (j = i; j < N; j++)
      printf("%d ", table[i][j]);
    printf("\n");
  }
  return 0;
}
