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

/* A random kernel (tools/random_kernels.py): n = 12, m = 9. */

static void kernel_r34_378(int m, double D[129], double *sink)
{
  int i;
  double s = 1.0;
#pragma scop
  for (i = m - 3; i < (m) / 3; i++) {
    D[i + 63] = D[i + 3 + 64] = 0.5 * D[i + 3 + 64] + 0.25 * D[i + 64] + 0.25 * D[i + 66] + 0.125;
    D[(2 * i - 3) % 3 + 64] = 0.5 * D[(2 * i - 3) % 3 + 64] + 0.125;
    D[i - 1 + 64] = 0.5 * D[i - 1 + 64] + 0.25 * D[i + 66] + 0.25 * D[i + 66] + 0.125;
  }
  s += 0.5 * s;
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
  kernel_r34_378(9, D, sink);
  print_hash("D", D, 129);
  print_hash("s", sink, 1);
  return 0;
}
