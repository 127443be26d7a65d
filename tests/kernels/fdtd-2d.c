#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define TMAX 6
#define NX 20
#define NY 24

static void init_array(int tmax, int nx, int ny, double ex[NX][NY],
                       double ey[NX][NY], double hz[NX][NY], double _fict_[TMAX])
{
  int i, j;
  for (i = 0; i < tmax; i++)
    _fict_[i] = (double)i;
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      ex[i][j] = ((double)i * (j + 1)) / nx;
      ey[i][j] = ((double)i * (j + 2)) / ny;
      hz[i][j] = ((double)i * (j + 3)) / nx;
    }
}

static void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[NX][NY],
                           double ey[NX][NY], double hz[NX][NY],
                           double _fict_[TMAX])
{
  int t, i, j;
#pragma scop
  for (t = 0; t < tmax; t++) {
    for (j = 0; j < ny; j++)
      ey[0][j] = _fict_[t];
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

static void print_array(int nx, int ny, double ex[NX][NY], double ey[NX][NY],
                        double hz[NX][NY])
{
  int i, j;
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      printf("%.6f ", ex[i][j]);
      if ((i * ny + j) % 16 == 15)
        printf("\n");
    }
  printf("\n");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      printf("%.6f ", ey[i][j]);
      if ((i * ny + j) % 16 == 15)
        printf("\n");
    }
  printf("\n");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      printf("%.6f ", hz[i][j]);
      if ((i * ny + j) % 16 == 15)
        printf("\n");
    }
  printf("\n");
}

int main(void)
{
  static double ex[NX][NY];
  static double ey[NX][NY];
  static double hz[NX][NY];
  static double _fict_[TMAX];
  init_array(TMAX, NX, NY, ex, ey, hz, _fict_);
  kernel_fdtd_2d(TMAX, NX, NY, ex, ey, hz, _fict_);
  print_array(NX, NY, ex, ey, hz);
  return 0;
}
