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

/* A random kernel (tools/random_kernels.py): n = 11, m = 6. */

static void kernel_r34_259(int n, int m, double A[129][129], double C[129][129], double B[129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = n - 2; i < (n) / 2; i++) {
    A[(i) % 3 + 64][i + 65] = 1.0 + 0.0625;
    C[i + 66][i + 63] = 0.5 * C[i + 66][i + 63] + 0.25 * B[(-i - 1) / 2 + 64] + 0.125;
    for (j = 0; j < (m) / 2; ++j) {
      for (k = 1; k <= (n + j - 1) / 2; k++) {
        if (k != 2)
          { A[i + 64][k + 64] = A[m - 1 - k + 64][n - 1 - j + 64] * 0.75 - A[i + 64][k + 64] * 0.5; A[ceild(2 * k - 2 * j, 3) + 64][62] = C[(-k + 1) / 2 + 64][(j == 0 ? n - 1 : j - 1) + 64] = 0.5 * C[(-k + 1) / 2 + 64][(j == 0 ? n - 1 : j - 1) + 64] + 0.125; }
        B[67] *= 0.875;
        A[k + 64][(-2 * j - 1) / 2 + 64] *= 0.875;
      }
      if (i + j < n)
        C[(j - 3) % 3 + 64][-i - j + 3 + 64] = 0.5 * C[(j - 3) % 3 + 64][-i - j + 3 + 64] + 0.25 * B[i * W + j + 64] + 0.25 * B[j * W + i + 64] + 0.125;
    }
  }
  for (i = 1; i <= n - 2; ++i) {
    s *= 0.875;
    A[i + 2 + 64][i + 64] = s * 0.75 - A[i + 2 + 64][i + 64] * 0.5;
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
  static double B[129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 129; c++)
    ((double *)B)[c] = (double)((c * 11 + 2) % 17) / 17 + 0.25;
  kernel_r34_259(11, 6, A, C, B, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 16641);
  print_hash("B", B, 129);
  print_hash("s", sink, 1);
  return 0;
}
