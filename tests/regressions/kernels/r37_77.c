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

static void kernel_r37_77(int n, int m, double A[129][129], double C[129][129], double *sink)
{
  int i, j;
  double s = 1.0;
#pragma scop
  for (i = n - 4; i < m - 1; i++) {
    for (j = m - 4; j < i + 2; j++) {
      C[(j + 1) % 2 + 64][i + 63] += 0.5 * C[(i == 0 ? m - 1 : i - 1) + 64][(-2 * i + 2) / 3 + 64];
      A[(j == 0 ? n - 1 : j - 1) + 64][(-2 * j + 3) % 3 + 64] = A[61][m - 1 - j + 64] * 0.5 + n * 0.0625;
    }
    for (j = ceild(i, 2); j < m - i; j++) {
      C[-j - 1 + 64][i + 66] = 1.0 + 0.0625;
    }
  }
#pragma endscop
#pragma scop
  for (i = 1; i <= m - 2; i++) {
    A[i + 64][66] += 0.5 * C[n - 1 - i + 64][i + 64];
    C[i + 64][(-2 * i) / 2 + 64] *= 0.875;
  }
  A[67][61] = 0.5 * A[67][61] + 0.125;
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
  kernel_r37_77(8, 6, A, C, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
