#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))
#define ceild(x, d) (-floord(-(x), (d)))

/* A random kernel (tools/random_kernels.py): n = 11, m = 3. */

static void kernel_r9_78(int n, int m, double C[129][129], double D[129][129], double A[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = n - 2; i < n - 1; ++i) {
    for (j = 2; j < m - i; j++) {
      for (k = n - 4; k < m; k++) {
        C[-k + 3 + 64][k + 66] = 1.0 + 0.0625;
        D[(i) / 3 + 64][k + 63] *= 0.875;
      }
    }
  }
  for (i = 0; i < (n) / 2; ++i) {
    s += 0.5 * A[(-2 * i + 1) / 2 + 64][i + 64];
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
  static double C[129][129];
  static double D[129][129];
  static double A[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)D)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 11 + 2) % 17) / 17 + 0.25;
  kernel_r9_78(11, 3, C, D, A, sink);
  print_hash("C", C, 16641);
  print_hash("D", D, 16641);
  print_hash("A", A, 16641);
  print_hash("s", sink, 1);
  return 0;
}
