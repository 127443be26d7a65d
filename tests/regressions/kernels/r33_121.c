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

/* A random kernel (tools/random_kernels.py): n = 12, m = 3. */

static void kernel_r33_121(int n, int m, double A[129][129], long C[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  s *= 0.875;
  for (i = m - 2; i < (n) / 3; ++i) {
    for (j = 1 + i % 2; j < n; j++) {
      for (k = 0; k < (n + j) / 2; k++) {
        if (k + i < n)
          A[j + 64][(j == 0 ? m - 1 : j - 1) + 64] = 0.5 * A[j + 64][(j == 0 ? m - 1 : j - 1) + 64] + 0.25 * A[i + 64][(i - 2) % 3 + 64] + 0.25 * A[j + 64][j + 65] + 0.125;
        for (l = i + 1; l <= j; l++) {
          C[l + 63][65] = (C[l + 63][65] * 3 + C[(j == 0 ? n - 1 : j - 1) + 64][k + 64] + 1) % 1009;
          s = 0.5 * s + 0.125;
        }
      }
    }
    for (j = 1; j <= (n + i - 1) / 2; j++) {
      if (i % 2 == 0)
        A[(i - 1) / 3 + 64][j + 63] += 0.5 * C[i + 64][i + 64];
    }
    for (j = ceild(i, 2); j <= i; j++) {
      if (j % 2 == 0)
        C[66][-i + 1 + 64]++;
      if (j % 2 == 1)
        { C[j + 64][j + 64] = (C[j + 64][j + 64] * 3 + C[i - 2 + 64][i + 63] + 1) % 1009; s = 1.0 + 0.0625; }
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
  static long C[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((long *)C)[c] = (c * 9 + 1) % 17;
  kernel_r33_121(12, 3, A, C, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
