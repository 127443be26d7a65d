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

/* A random kernel (tools/random_kernels.py): n = 5, m = 3. */

static void kernel_r34_57(int n, double C[129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  for (i = n - 1; i > 0 - 1; i = i - 3) {
    for (j = 0; j < n && j <= i + 2; ++j) {
      C[i + 66] = C[j + 66] * 0.75 - C[i + 66] * 0.5;
    }
    for (j = MAX(0, i - 2); j < n - i; j++) {
      if (i % 2 == 0)
        C[j + 64] += 0.5 * C[n - 1 - i + 64];
      for (k = 1 + j % 2; k <= (n + j - 1) / 3; k++) {
        for (l = i; l > 1 - 1; --l) {
          C[k + 64] = C[k + n * W + 64] * 0.75 - C[k + 64] * 0.5;
          if (n > 6 && i > 1)
            C[(j - 1) % 3 + 64] = 0.3 * C[n - 1 - j + 64] + 0.0625;
        }
        for (l = 0; l < MIN(n, i + 3); l++) {
          if (l >= i)
            C[W * i - j + 64] = C[k + 64] * 0.75 - C[W * i - j + 64] * 0.5;
          C[l + 63] = 0.5 * C[l + 63] + 0.125;
        }
      }
      for (k = i - 1; k <= (n + j - 1) / 3; k++) {
        if (!(i < 2))
          { C[-2 * j + 2 * k - 2 + 64] = 0.3 * C[k + 65] + 0.0625; C[j + 64] *= 0.875; }
        s += 0.5 * C[k * W + i + 64];
        C[j + 64] = C[(-2 * i + 3) / 2 + 64] * 0.75 - C[j + 64] * 0.5;
      }
    }
    C[i + 64] = 0.5 * C[i + 64] + 0.25 * s + 0.25 * C[MIN(i, n - 1) + 64] + 0.125;
  }
  C[66] = C[67] * 0.75 - C[66] * 0.5;
  for (i = 2; i < (n) / 2; ++i) {
    C[(i == 0 ? n - 1 : i - 1) + 64] = 0.3 * C[i + 64] + 0.3 * C[i + 64] + 0.0625;
    for (j = (i + 1) % 3; j < i + 2; j++) {
      C[n - 1 - i + 64] = C[W * j - i + 64] * 0.75 - C[n - 1 - i + 64] * 0.5;
      C[j + 65] = 1.0 + 0.0625;
    }
    if (i < 3 || i > n - 3)
      s = 0.5 * s + 0.25 * C[-i - 2 + 64] + 0.25 * C[(i == 0 ? n - 1 : i - 1) + 64] + 0.125;
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
  static double C[129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)C)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r34_57(5, C, sink);
  print_hash("C", C, 129);
  print_hash("s", sink, 1);
  return 0;
}
