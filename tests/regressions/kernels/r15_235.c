#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))
#define ceild(x, d) (-floord(-(x), (d)))

/* A random kernel (tools/random_kernels.py): n = 8, m = 3. */

static void kernel_r15_235(int n, int m, double A[129], double C[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  C[62][62] *= 0.875;
  C[62][65] = 0.5 * C[62][65] + 0.25 * C[67][67] + 0.25 * A[63] + 0.125;
  for (i = n - 5; i < (n) / 2; i++) {
    for (j = n - i - 1; j >= ceild(i, 2); j--) {
      for (k = n - 4; k < i + 2; ++k) {
        C[-2 * k - 2 * i + 64][k + 65] = 0.5 * C[-2 * k - 2 * i + 64][k + 65] + 0.125;
        for (l = k + 1; l <= i; l = l + 2) {
          A[n - 1 - j + 64] = C[l + 64][j + 65] * 0.75 - A[n - 1 - j + 64] * 0.5;
          A[j + 65] *= 0.875;
          s = 0.3 * A[i + 66] + 0.0625;
        }
      }
      s = 0.5 * s + 0.125;
    }
    for (j = MAX(0, i - 2); j < n - 1; ++j) {
      for (k = 2; k < n - i; k++) {
        C[MAX(j - 2, 0) + 64][k + 64] += 0.5 * C[i + 66][i + 66];
      }
      A[-2 * i - 2 + 64] = 1.0 + 0.0625;
      for (k = m - 4; k <= i; k++) {
        if (!(k < 2 && i > 1))
          C[j + 64][j + 64] = 1.0 + 0.0625;
        else
          A[k + 64] = 0.5 * A[k + 64] + 0.25 * A[i + 64] + 0.125;
        C[n - 1 - i + 64][k + 63] *= 0.875;
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
  static double A[129];
  static double C[129][129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r15_235(8, 3, A, C, sink);
  print_hash("A", A, 129);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
