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

/* A random kernel (tools/random_kernels.py): n = 5, m = 6. */

static void kernel_r35_255(int n, double C[129][129], double *sink)
{
  int i;
  double s = 1.0;
#pragma scop
  for (i = n - 3; i <= (n - 1) / 3; i++) {
    C[i + 64][(-i - 1) / 2 + 64] += 0.5 * C[i + 63][i + 66];
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
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r35_255(5, C, sink);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
