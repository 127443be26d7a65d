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

/* A random kernel (tools/random_kernels.py): n = 8, m = 9. */

static void kernel_r34_47(int n, int m, double A[129][129], double C[129][129], double B[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = 0; i < n; ++i) {
    A[i + 64][i + 66] = 0.5 * A[i + 64][i + 66] + 0.25 * C[i + 65][i + 64] + 0.25 * C[i + 64][i + 65] + 0.125;
  }
  for (i = m - 3; i < (n) / 2; i++) {
    for (j = n - 3; j < n - 1; j++) {
      for (k = 0; k < n - 1; ++k) {
        A[floord(k + 1, 2) + 64][j + 64] += 0.5 * C[i + 63][j + 65];
        B[n - 1 - j + 64][k + 64] = A[i + 64][j + 65] * 0.75 - B[n - 1 - j + 64][k + 64] * 0.5;
      }
      for (k = 2; k <= j; ++k) {
        C[66][i + 63] = 1.0 + 0.0625;
      }
      C[j + 64][j + 64] = 0.5 * C[j + 64][j + 64] + 0.25 * s + 0.25 * B[m - 1 - j + 64][64] + 0.125;
    }
    C[i + 63][n - 1 - i + 64] = 1.0 + 0.0625;
    for (j = n - 1 - 1; j > 0 - 1; --j) {
      for (k = W - 1; k >= ceild(j, 2); k--) {
        if (k >= j)
          B[(i == 0 ? n - 1 : i - 1) + 64][i + 64] = s = 0.3 * B[i + 64][i + 65] + 0.3 * A[(i == 0 ? n - 1 : i - 1) + 64][n - 1 - j + 64] + 0.0625;
        if (i + k < n)
          C[j + 63][i + 63] = 0.3 * A[k + 64][(i == 0 ? n - 1 : i - 1) + 64] + 0.3 * C[i + 64][MAX(i - 2, 0) + 64] + 0.0625;
      }
      s *= 0.875;
      B[i + 63][-2 * i + j - 2 + 64] = 1.0 + 0.0625;
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
  static double C[129][129];
  static double B[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 11 + 2) % 17) / 17 + 0.25;
  kernel_r34_47(8, 9, A, C, B, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 16641);
  print_hash("B", B, 16641);
  print_hash("s", sink, 1);
  return 0;
}
