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

static void kernel_r36_316(int n, int m, double alpha, double B[129], double D[129], double *sink)
{
  int i;
  double s = 1.0;
#pragma scop
  for (i = m - 1; i >= n - 5; i--) {
    D[n - 1 - i + 64] += alpha * B[i + 64];
  }
  for (i = n - 3; i < n; i++) {
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
  static double D[129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)B)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 129; c++)
    ((double *)D)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r36_316(11, 3, 0.5, B, D, sink);
  print_hash("B", B, 129);
  print_hash("D", D, 129);
  print_hash("s", sink, 1);
  return 0;
}
