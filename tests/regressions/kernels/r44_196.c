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

/* A random kernel (tools/random_kernels.py): n = 11, m = 9. */

static void kernel_r44_196(int n, int m, double C[129], double B[129][129], double D[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  B[61][63] += 0.5 * D[64][63];
  for (i = n - 5; i < n; i++) {
    for (j = 1; j <= (m + i - 1) / 3; ++j) {
      D[n - 1 - j + 64][j + 66] *= 0.875;
      for (k = 2; k < n; k++) {
        if (k < 3 || k > n - 3)
          D[j + 64][i + 65] *= 0.875;
        else if (2 * k - i >= 1)
          C[j + 64] = C[k + 65] * 0.75 - C[j + 64] * 0.5;
        else
          D[-j - 1 + 64][k + 64] = 0.3 * D[(j == 0 ? n - 1 : j - 1) + 64][j + 66] + 0.0625;
        C[63] *= 0.875;
      }
      for (k = 1; k < (n + j) / 2; k += S) {
        for (l = 0; l < k + 2; l++) {
          D[64][k + 64] = 0.5 * D[64][k + 64] + 0.25 * D[j + 3 + 64][i + 64] + 0.125;
          C[k + 66] = 0.5 * C[k + 66] + 0.25 * B[k + 64][k + 64] + 0.125;
          if (2 * i - k >= 1)
            C[k + n * W + 64] = sqrt(fabs((double)D[k + 65][(i == 0 ? n - 1 : i - 1) + 64])) * 0.5 + 0.125;
        }
        if (j < 3 || j > n - 3)
          { B[j + 63][j + 65] += 0.5 * C[i + 63]; D[i + 64][j + 66] = B[i + 66][(j == 0 ? n - 1 : j - 1) + 64] = 0.5 * B[i + 66][(j == 0 ? n - 1 : j - 1) + 64] + 0.25 * C[m - 1 - i + 64] + 0.25 * D[j + 64][k + 65] + 0.125; }
        B[k + 63][k + 64] = 0.3 * D[j + 63][-k + j + 2 + 64] + 0.3 * D[j + 64][2 * j + 2 * i + 3 + 64] + 0.0625;
      }
    }
    if (i % 2 == 0)
      D[i + 64][i + 66] = 1.0 + 0.0625;
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
  static double C[129];
  static double B[129][129];
  static double D[129][129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)C)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)D)[c] = (double)((c * 11 + 2) % 17) / 17 + 0.25;
  kernel_r44_196(11, 9, C, B, D, sink);
  print_hash("C", C, 129);
  print_hash("B", B, 16641);
  print_hash("D", D, 16641);
  print_hash("s", sink, 1);
  return 0;
}
