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

/* A random kernel (tools/random_kernels.py): n = 5, m = 6. */

static void kernel_r30_198(int n, int m, double A[129][129], long C[129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  for (i = 0; i < (n) / 2; ++i) {
    C[(i == 0 ? n - 1 : i - 1) + 64] = (C[(i == 0 ? n - 1 : i - 1) + 64] * 3 + C[64] + 1) % 1009;
  }
  C[65] = (C[65] * 3 + C[63] + 1) % 1009;
  for (i = n - 4; i <= (m - 1) / 3; i++) {
    for (j = 2; j <= (n + i - 1) / 2; j++) {
      C[j + 66] = (C[j + 66] * 3 + C[j + 65] + 1) % 1009;
      C[i * W + j + 64] = (C[i * W + j + 64] * 3 + C[j + 66] + 1) % 1009;
      for (k = m - 4; k < n && k <= j + 2; k++) {
        for (l = 0; l <= floord(m + k, 2); l++) {
          C[i + 2 + 64] += C[W * i - j + 64] % 7;
          A[i + 64][l - 3 + 64] = 1.0 + 0.0625;
          if (l % 2 == 0)
            { C[W * i - k + 64] += C[k + 65] % 7; C[W * j - k + 64] += C[-2 * i + l + 3 + 64] % 7; }
        }
      }
    }
    for (j = 0; j < n - i; j++) {
      C[j + n * W + 64] = (C[j + n * W + 64] * 3 + C[MIN(j, m - 1) + 64] + 1) % 1009;
      for (k = 0; k <= i; ++k) {
        if (i >= k)
          { C[i + 64] += C[2 * i - 1 + 64] % 7; A[i + 65][i + 64] += 0.5 * A[j + 63][n - 1 - i + 64]; }
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
  static long C[129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 129; c++)
    ((long *)C)[c] = (c * 9 + 1) % 17;
  kernel_r30_198(5, 6, A, C, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 129);
  print_hash("s", sink, 1);
  return 0;
}
