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

/* A random kernel (tools/random_kernels.py): n = 8, m = 6. */

static void kernel_r33_19(int n, int m, double alpha, double A[129][129], double C[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = 0; i <= (n - 1) / 3; i++) {
    for (j = m - 4; j < W; j++) {
      for (k = 0; k <= n - 2; ++k) {
        C[j + 63][j + 65] = 0.3 * A[-2 * i + j + 3 + 64][i + 64] + 0.3 * C[j + 64][k + 64] + 0.0625;
        if (i < 3 || i > n - 3)
          A[j + 66][j + 65] = 0.3 * A[j + 64][64] + 0.0625;
      }
    }
    for (j = n - i - 1; j > 1 + i % 2 - 1; --j) {
      for (k = n - 3; k < n; k++) {
        A[k + 64][j + 64] *= 0.875;
        A[(i - 2) / 2 + 64][k + 64] = sqrt(fabs((double)C[2 * j - 3 + 64][-k - 2 * j + 3 + 64])) * 0.5 + 0.125;
        s *= 0.875;
      }
    }
  }
  for (i = 0; i < n; ++i) {
    C[66][i + 64] += alpha * A[floord(i + 1, 2) + 64][66];
    for (j = 0; j <= (m + i - 1) / 3; j++) {
      C[(2 * i + 3) / 3 + 64][(i) / 3 + 64] *= 0.875;
      C[j + 64][j + 64] *= 0.875;
    }
    s = 0.3 * C[(2 * i + 1) / 3 + 64][i + 66] + 0.0625;
  }
  for (i = 1; i <= (n - 1) / 2; i++) {
    C[i + 63][i + 65] *= 0.875;
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
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r33_19(8, 6, 0.5, A, C, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
