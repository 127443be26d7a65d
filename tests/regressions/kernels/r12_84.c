#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))
#define ceild(x, d) (-floord(-(x), (d)))

/* A random kernel (tools/random_kernels.py): n = 8, m = 9. */

static void kernel_r12_84(int n, int m, double C[129][129], double B[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  B[63][63] *= 0.875;
  for (i = 0; i < m; i++) {
    for (j = 0; j <= n - 2; ++j) {
      for (k = m - 2; k <= j; k++) {
        for (l = j; l <= k; l++) {
          if (i < 3 || i > n - 3)
            { B[k + 64][63] = s * 0.75 - B[k + 64][63] * 0.5; B[j + 64][(j - 3) / 2 + 64] *= 0.875; }
          C[l + 66][l + 64] = B[n - 1 - l + 64][j + 64] * 0.75 - C[l + 66][l + 64] * 0.5;
        }
        if (k % 2 == 0)
          C[j + 65][i + 65] *= 0.875;
      }
    }
    for (j = 0; j <= n - 2; ++j) {
      C[(j - 2) % 3 + 64][i + 64] = 0.3 * B[i + 63][j + 64] + 0.0625;
      for (k = n - 3; k < n - 1; ++k) {
        for (l = 0; l < n - 1; ++l) {
          if (k >= 1)
            C[l + 65][i + 63] = 0.5 * C[l + 65][i + 63] + 0.125;
          B[l + 66][(-l + 1) % 3 + 64] = C[k + 66][(2 * l + 1) % 3 + 64] * 0.75 - B[l + 66][(-l + 1) % 3 + 64] * 0.5;
        }
        B[i + 63][i + 66] *= 0.875;
      }
      B[i + 65][65] = B[61][floord(i + 1, 2) + 64] * 0.75 - B[i + 65][65] * 0.5;
    }
  }
  for (i = 0; i <= n - 2; ++i) {
    B[i + 64][62] = 0.5 * B[i + 64][62] + 0.25 * C[i + 64][i + 65] + 0.25 * B[i + 64][MAX(i - 2, 0) + 64] + 0.125;
    B[i + 65][66] = B[ceild(-2 * i, 3) + 64][i + 66] > 0.75 ? B[ceild(-2 * i, 3) + 64][i + 66] * 0.5 : B[i + 65][66] + 0.25;
    for (j = 0; j < m - 1; j++) {
      if (i % 2 == 0)
        { B[j + 66][j + 66] = sqrt(fabs((double)B[j - 2 + 64][j + 64])) * 0.5 + 0.125; B[i + 63][(j == 0 ? n - 1 : j - 1) + 64] = 0.5 * B[i + 63][(j == 0 ? n - 1 : j - 1) + 64] + 0.125; }
      for (k = i + 1; k <= j; k++) {
        C[i + 63][65] += 0.5 * B[ceild(-2 * j + 2 * k - 1, 3) + 64][j + 64];
      }
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
  static double C[129][129];
  static double B[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r12_84(8, 9, C, B, sink);
  print_hash("C", C, 16641);
  print_hash("B", B, 16641);
  print_hash("s", sink, 1);
  return 0;
}
