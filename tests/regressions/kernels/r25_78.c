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

/* A random kernel (tools/random_kernels.py): n = 8, m = 9. */

static void kernel_r25_78(int n, int m, double B[129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  for (i = n - 1; i > 2 - 1; i = i - 3) {
    for (j = i; j >= 2; j = j - 3) {
      B[(i) % 2 + 64] = s = 0.5 * s + 0.25 * B[j + 63] + 0.25 * B[j + 66] + 0.125;
      for (k = 2; k < n - 1; k += S) {
        B[(2 * k - 2) / 3 + 64] += 0.5 * B[k + n * W + 64];
        if (i + j < n)
          B[i + n * W + 64] = 1.0 + 0.0625;
        else if (k < 3 || k > n - 3)
          B[i + n * W + 64] *= 0.875;
        else
          B[k + n * W + 64] += 0.5 * B[i * W + j + 64];
        for (l = 0; l < n; ++l) {
          if (n > 6 && l > 1)
            B[l + 66] = 0.5 * B[l + 66] + 0.25 * B[j + 64] + 0.25 * B[W * j - i + 64] + 0.125;
        }
      }
    }
    for (j = i + 1; j < n - 1; j++) {
      for (k = 1; k < n - i; k++) {
        B[k + n * W + 64] = 0.3 * B[i + 65] + 0.0625;
      }
      for (k = j - 1; k < m && k <= i + 2; k++) {
        if (k % 2 == 0)
          B[W * j - i + 64] = 0.3 * B[k + n * W + 64] + 0.0625;
        if (j >= k)
          B[-2 * i - j - 2 + 64] = 0.5 * B[-2 * i - j - 2 + 64] + 0.25 * B[j + 65] + 0.125;
      }
    }
  }
  B[65] = B[62] * 0.75 - B[65] * 0.5;
  B[61] = 0.5 * B[61] + 0.125;
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
  static double B[129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)B)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r25_78(8, 9, B, sink);
  print_hash("B", B, 129);
  print_hash("s", sink, 1);
  return 0;
}
