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

/* A random kernel (tools/random_kernels.py): n = 8, m = 3. */

static void kernel_r35_39(int n, int m, double A[129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  for (i = 0; i <= n - 2; ++i) {
    A[i + 65] = 0.3 * A[i + 66] + 0.0625;
    for (j = 1; j < W; ++j) {
      for (k = n - 1 - 1; k > 1 + i % 2 - 1; k -= 2) {
        if (j <= n - 2)
          A[i * W + k + 64] = A[k + 66] * 0.75 - A[i * W + k + 64] * 0.5;
        else
          A[k + 63] = 1.0 + 0.0625;
        if (2 * k - j >= 1)
          A[k * W + i + 64] = A[i + 64] * 0.75 - A[k * W + i + 64] * 0.5;
        A[-2 * j + i + 1 + 64] = A[W * i - j + 64] = 0.3 * A[j + 64] + 0.0625;
      }
      for (k = 0; k <= n - 2; ++k) {
        for (l = 2; l < W; l += S) {
          if (n > 6 && i > 1)
            A[n - 1 - j + 64] = A[l * W + i + 64] * 0.75 - A[n - 1 - j + 64] * 0.5;
          if (i < 3 || i > n - 3)
            s = A[i + 64] * 0.75 - s * 0.5;
          A[k - l - 3 + 64] = 0.3 * A[j + 64] + 0.3 * A[k + 66] + 0.0625;
        }
        A[i + 65] = A[i + 64] * 0.75 - A[i + 65] * 0.5;
        A[k + 66] = 0.5 * A[k + 66] + 0.125;
      }
    }
    for (j = m - 4; j <= i; ++j) {
      A[j + 66] = A[j * W + i + 64] * 0.75 - A[j + 66] * 0.5;
    }
  }
  for (i = n - 2; i <= n - 2; i += 2) {
    A[ceild(-i + 2, 3) + 64] = 0.5 * A[ceild(-i + 2, 3) + 64] + 0.25 * A[i + 1 + 64] + 0.125;
    if (i != 2)
      A[i + 64] = 0.5 * A[i + 64] + 0.125;
  }
  A[64] = 0.3 * A[65] + 0.0625;
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
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r35_39(8, 3, A, sink);
  print_hash("A", A, 129);
  print_hash("s", sink, 1);
  return 0;
}
