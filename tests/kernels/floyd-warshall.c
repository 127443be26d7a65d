#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define N 30

static void init_array(int n, int path[N][N])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      path[i][j] = i * j % 7 + 1;
      if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
        path[i][j] = 999;
    }
}

static void kernel_floyd_warshall(int n, int path[N][N])
{
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ?
                     path[i][j] : path[i][k] + path[k][j];
#pragma endscop
}

static void print_array(int n, int path[N][N])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      printf("%d ", path[i][j]);
    printf("\n");
  }
}

int main(void)
{
  static int path[N][N];
  init_array(N, path);
  kernel_floyd_warshall(N, path);
  print_array(N, path);
  return 0;
}
