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

static void kernel_r37_309(int n, double B[129][129], double C[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  B[65][61] *= 0.875;
  for (i = 1; i < n - 1; i = i + 2) {
    B[i + 64][i + 63] *= 0.875;
    for (j = 2; j < n - i; ++j) {
      if (2 * i - j >= 1)
        C[2 * j + 2 * i - 3 + 64][i + 64] *= 0.875;
      B[(i) / 2 + 64][j + 64] = 0.5 * B[(i) / 2 + 64][j + 64] + 0.25 * C[j + 64][j - 2 * i + 2 + 64] + 0.25 * C[j + 63][i + 64] + 0.125;
    }
    for (j = i; j <= n - 2; j++) {
      for (k = 0; k < W; k++) {
        if (j < 3 || j > n - 3)
          C[j + 66][n - 1 - k + 64] = 0.5 * C[j + 66][n - 1 - k + 64] + 0.125;
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
  static double B[129][129];
  static double C[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r37_309(12, B, C, sink);
  print_hash("B", B, 16641);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
