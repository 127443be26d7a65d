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

static void kernel_r33_102(int n, int m, long C[129], double B[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  for (i = n - 3; i < (n) / 3; i += S) {
    C[n - 1 - i + 64]++;
  }
  for (i = 0; i <= (m - 1) / 3; ++i) {
    C[i + 65] = (C[i + 65] * 3 + C[i + 64] + 1) % 1009;
    for (j = 1 + i % 2; j < n; j++) {
      C[W * i - j + 64] = (C[W * i - j + 64] * 3 + C[i * W + j + 64] + 1) % 1009;
      for (k = n - 2; k >= ceild(i, 2); --k) {
        B[(k + 3) / 3 + 64][j + 64] = 0.3 * B[j - k + 2 + 64][(k == 0 ? n - 1 : k - 1) + 64] + 0.0625;
      }
    }
    for (j = i + 1; j < W; j++) {
      for (k = n - 3; k <= (n - 1) / 3; k++) {
        for (l = MAX(0, j - 2); l < (n) / 2; ++l) {
          C[l + 65] += C[i - 2 + 64] % 7;
        }
        B[k + 64][i + 64] = 0.5 * B[k + 64][i + 64] + 0.125;
      }
      C[n - 1 - i + 64] = (C[n - 1 - i + 64] * 3 + C[W * j - i + 64] + 1) % 1009;
      C[j + 66] = (C[j + 66] * 3 + C[W * i - j + 64] + 1) % 1009;
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
  static long C[129];
  static double B[129][129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((long *)C)[c] = (c * 7 + 0) % 17;
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r33_102(11, 3, C, B, sink);
  print_hash("C", C, 129);
  print_hash("B", B, 16641);
  print_hash("s", sink, 1);
  return 0;
}
