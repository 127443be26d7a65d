#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))
#define ceild(x, d) (-floord(-(x), (d)))
/* Fixed: a row's width and a step, read as their values. */
#define W 3
#define S (W - 1)

/* A random kernel (tools/random_kernels.py): n = 11, m = 3. */

static void kernel_r21_390(int n, int m, double A[129][129], double D[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = n - 4; i < n; i++) {
    for (j = 0; j < n - 1; j++) {
      D[j + 64][j + 66] = 0.5 * D[j + 64][j + 66] + 0.125;
    }
    A[i + 63][i - 1 + 64] = 0.5 * A[i + 63][i - 1 + 64] + 0.25 * D[i + 1 + 64][i + 64] + 0.25 * s + 0.125;
    for (j = 0; j < W; j++) {
      for (k = 1; k < n - i; k++) {
        A[k + 64][(i == 0 ? n - 1 : i - 1) + 64] = A[k + 64][k + 63] * 0.75 - A[k + 64][(i == 0 ? n - 1 : i - 1) + 64] * 0.5;
      }
      A[(-j - 2) / 3 + 64][n - 1 - j + 64] = 0.5 * A[(-j - 2) / 3 + 64][n - 1 - j + 64] + 0.25 * A[j + 66][i + 65] + 0.25 * A[i + 66][MAX(i - 2, 0) + 64] + 0.125;
      for (k = ceild(j, 2); k < W; k++) {
        A[i + 64][i + 66] = 0.3 * D[j + k + 2 + 64][j + 65] + 0.0625;
        if (i >= j)
          D[(i == 0 ? n - 1 : i - 1) + 64][k + 64] = A[m - 1 - j + 64][j + 65] > 0.75 ? A[m - 1 - j + 64][j + 65] * 0.5 : D[(i == 0 ? n - 1 : i - 1) + 64][k + 64] + 0.25;
        else if (2 * j - i >= 1)
          D[(j == 0 ? n - 1 : j - 1) + 64][i + 65] *= 0.875;
        else
          D[i + 64][m - 1 - i + 64] *= 0.875;
      }
    }
  }
#pragma endscop
  sink[0] = s;
}

/* An exact hash of `count` 8-byte cells (`double` or `long`). */
static void print_hash(const char *name, const void *x, int count)
{
  unsigned long long h = 1469598103934665603ULL;
  for (int c = 0; c < count; c++) {
    unsigned long long bits;
    memcpy(&bits, (const char *)x + 8 * c, sizeof bits);
    h = (h ^ bits) * 1099511628211ULL;
  }
  printf("%s %016llx\n", name, h);
}

int main(void)
{
  static double A[129][129];
  static double D[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)D)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r21_390(11, 3, A, D, sink);
  print_hash("A", A, 16641);
  print_hash("D", D, 16641);
  print_hash("s", sink, 1);
  return 0;
}
