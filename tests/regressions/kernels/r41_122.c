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

/* A random kernel (tools/random_kernels.py): n = 5, m = 9. */

static void kernel_r41_122(int n, int m, double A[129][129], double B[129], double C[129], double *sink)
{

  double s = 1.0;
#pragma scop
  for (int i = 0; i < m; ++i) {
    B[i + 63] = 0.5 * B[i + 63] + 0.125;
    for (int j = 0; j < i + 2; j++) {
      A[j + 64][i + 65] = 0.5 * A[j + 64][i + 65] + 0.25 * A[j + 63][i + 66] + 0.25 * A[j + 63][i + 64] + 0.125;
      for (int k = 1; k < W; k = k + 2) {
        B[W * i - j + 64] += 0.5 * A[(-2 * j) % 3 + 64][i + 63];
        B[j + 66] *= 0.875;
        C[k * W + j + 64] = B[k + n * W + 64] * 0.75 - C[k * W + j + 64] * 0.5;
      }
      B[67] = 0.3 * A[m - 1 - j + 64][j + 64] + 0.0625;
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
  static double A[129][129];
  static double B[129];
  static double C[129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 129; c++)
    ((double *)B)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 129; c++)
    ((double *)C)[c] = (double)((c * 11 + 2) % 17) / 17 + 0.25;
  kernel_r41_122(5, 9, A, B, C, sink);
  print_hash("A", A, 16641);
  print_hash("B", B, 129);
  print_hash("C", C, 129);
  print_hash("s", sink, 1);
  return 0;
}
