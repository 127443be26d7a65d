#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))
#define ceild(x, d) (-floord(-(x), (d)))

/* A random kernel (tools/random_kernels.py): n = 8, m = 6. */

static void kernel_r12_24(int n, int m, double B[129][129], double D[129], double C[129][129], double *sink)
{
  int i, j;
  double s = 1.0;
#pragma scop
  s = 1.0 + 0.0625;
  for (i = n - 1 - 1; i > 1 - 1; i--) {
    B[2 * i - 2 + 64][i + 64] = C[i + 65][i + 65] * 0.75 - B[2 * i - 2 + 64][i + 64] * 0.5;
    C[i + 64][i + 65] = 0.5 * C[i + 64][i + 65] + 0.25 * C[(2 * i + 3) / 2 + 64][i + 65] + 0.25 * C[i + 65][i + 65] + 0.125;
  }
  for (i = n - 2; i <= (n - 1) / 3; i++) {
    for (j = 1; j <= i; j += 2) {
      if (n > 6 && j > 1)
        C[j + 64][(i == 0 ? m - 1 : i - 1) + 64] = D[i + 64] = C[64][64] * 0.75 - D[i + 64] * 0.5;
      else
        C[(i + 2) % 2 + 64][j + 63] = 0.5 * C[(i + 2) % 2 + 64][j + 63] + 0.25 * C[j + 64][j + 63] + 0.125;
      D[i + 64] = 0.5 * D[i + 64] + 0.25 * B[-j + 2 + 64][i + 66] + 0.125;
    }
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
  static double B[129][129];
  static double D[129];
  static double C[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 129; c++)
    ((double *)D)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 11 + 2) % 17) / 17 + 0.25;
  kernel_r12_24(8, 6, B, D, C, sink);
  print_hash("B", B, 16641);
  print_hash("D", D, 129);
  print_hash("C", C, 16641);
  print_hash("s", sink, 1);
  return 0;
}
