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

/* A random kernel (tools/random_kernels.py): n = 12, m = 6. */

static void kernel_r34_112(int n, int m, double D[129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = 2; i <= (m - 1) / 2; i++) {
    for (j = 0; j < (n) / 2; j++) {
      for (k = 1; k < n - 1; k += 2) {
        if ((i + j) % 3 != 1)
          { D[i * W + k + 64] = 0.3 * D[W * j - i + 64] + 0.3 * D[(-2 * k - 2) % 2 + 64] + 0.0625; s *= 0.875; }
      }
      for (k = 1; k < (n) / 3; k++) {
        if (i + j < n)
          D[(j + 1) / 2 + 64] = 0.5 * D[(j + 1) / 2 + 64] + 0.125;
        if (k % 2 == 0)
          D[j + n * W + 64] = D[i + 66] * 0.75 - D[j + n * W + 64] * 0.5;
      }
      s += 0.5 * D[i + 64];
    }
    D[i + 64] *= 0.875;
    D[n - 1 - i + 64] = 0.3 * D[i + 64] + 0.0625;
  }
  for (i = 1; i <= (m - 1) / 3; ++i) {
    D[i + 64] = 0.3 * s + 0.0625;
    D[i + 66] += 0.5 * D[i + 64];
    if (i >= 1)
      D[(2 * i - 2) % 2 + 64] = 0.5 * D[(2 * i - 2) % 2 + 64] + 0.25 * D[i + 66] + 0.25 * D[i + 66] + 0.125;
    else
      D[i + 65] = s * 0.75 - D[i + 65] * 0.5;
  }
  for (i = n - 2; i < W; ++i) {
    for (j = n - 5; j < n; ++j) {
      s *= 0.875;
      for (k = n - 5; k < m - i; k++) {
        if (!(j < 2 && i > 1))
          D[k + n * W + 64] *= 0.875;
        if (!(i < 2))
          D[k + 66] = 0.5 * D[k + 66] + 0.25 * D[j + 65] + 0.125;
      }
    }
    if (i % 2 == 0)
      D[(-2 * i + 3) % 3 + 64] = 0.5 * D[(-2 * i + 3) % 3 + 64] + 0.25 * D[i + 66] + 0.125;
    else
      D[i + 64] = D[n - 1 - i + 64] * 0.75 - D[i + 64] * 0.5;
    D[i + 64] = 1.0 + 0.0625;
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
  static double D[129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)D)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r34_112(12, 6, D, sink);
  print_hash("D", D, 129);
  print_hash("s", sink, 1);
  return 0;
}
