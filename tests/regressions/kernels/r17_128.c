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

static void kernel_r17_128(int n, int m, double B[129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  B[65] = B[61] * 0.75 - B[65] * 0.5;
  for (i = 2; i <= (m - 1) / 2; i++) {
    for (j = 1 + i % 2; j < i + 2; j++) {
      for (k = 0; k <= i; k++) {
        B[k + 64] = 0.5 * B[k + 64] + 0.25 * B[j + 64] + 0.125;
      }
      for (k = 0; k < n - 1; k++) {
        if (j >= 1)
          B[j + 66] *= 0.875;
        if (j >= 1)
          B[i + 65] = s = 0.3 * B[i * W + k + 64] + 0.3 * B[k + 66] + 0.0625;
        for (l = 1; l < (n) / 2; l++) {
          B[(2 * l + 2) % 2 + 64] *= 0.875;
          B[k + 63] = B[W * i - k + 64] * 0.75 - B[k + 63] * 0.5;
          B[j + n * W + 64] = 0.5 * B[j + n * W + 64] + 0.125;
        }
      }
    }
    for (j = 2; j < W; ++j) {
      for (k = 1 + j % 2; k < W; k++) {
        B[i + 65] = 0.5 * B[i + 65] + 0.125;
      }
      for (k = 0; k <= floord(n + j, 2); k += S) {
        B[i * W + j + 64] = sqrt(fabs((double)B[62])) * 0.5 + 0.125;
      }
      B[j + n * W + 64] = 0.3 * B[W * j - i + 64] + 0.3 * B[i * W + j + 64] + 0.0625;
    }
  }
  for (i = 0; i < n; i++) {
    B[i + 63] = 0.5 * B[i + 63] + 0.25 * B[i + 64] + 0.125;
    if (i < 3 || i > n - 3)
      B[i + 63] = B[i + 64] * 0.75 - B[i + 63] * 0.5;
    else
      B[i + 64] *= 0.875;
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
  static double B[129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)B)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r17_128(8, 6, B, sink);
  print_hash("B", B, 129);
  print_hash("s", sink, 1);
  return 0;
}
