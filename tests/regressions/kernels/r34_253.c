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

static void kernel_r34_253(int n, double A[129][129], double C[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  C[63][64] = 0.5 * C[63][64] + 0.125;
  for (i = 2; i < (n) / 3; i++) {
    for (j = 2; j < i + 2; j++) {
      A[61][j + 1 + 64] = 0.5 * A[61][j + 1 + 64] + 0.25 * A[(j == 0 ? n - 1 : j - 1) + 64][ceild(j + i - 3, 3) + 64] + 0.25 * s + 0.125;
      if (i != 2)
        C[j + 65][(i + 3) / 2 + 64] = 1.0 + 0.0625;
      for (k = j; k < n - 1; ++k) {
        for (l = k; l < n - 1; l++) {
          if (2 * j - i >= 1)
            C[i + 64][l + 64] *= 0.875;
          else if (!(l < 2 && k > 1))
            C[(i + 3) / 2 + 64][j + 64] = C[i + 64][l + 64] * 0.75 - C[(i + 3) / 2 + 64][j + 64] * 0.5;
          else
            C[i - 2 + 64][j + 64] = A[j + 66][i + 64] * 0.75 - C[i - 2 + 64][j + 64] * 0.5;
          A[i + 65][l + 65] *= 0.875;
        }
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
  static double C[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r34_253(11, A, C, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
