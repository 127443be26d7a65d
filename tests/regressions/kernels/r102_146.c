#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))
#define ceild(x, d) (-floord(-(x), (d)))

/* A random kernel (tools/random_kernels.py): n = 12, m = 6. */

static void kernel_r102_146(int n, int m, double C[129][129], double B[129][129], long D[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  C[67][65] += 0.5 * B[65][63];
  B[64][66] += 0.5 * C[62][66];
  for (i = n - 4; i <= n - 2; i++) {
    if (i >= 1)
      D[i + 66][i + 64] += D[(i + 3) % 3 + 64][i + 63] % 7;
    B[i + 64][i + 65] *= 0.875;
    for (j = MAX(0, i - 2); j <= n - 2; j++) {
      D[j + 66][63] = D[i + 64][i + 63] / 3 + D[j + 66][63] % 5;
      for (k = 0; k <= j; ++k) {
        for (l = 0; l < n - j; l++) {
          B[(k == 0 ? n - 1 : k - 1) + 64][l + 66] *= 0.875;
          if (l % 2 == 0)
            D[(j == 0 ? n - 1 : j - 1) + 64][-2 * l - j - 3 + 64] += D[(k == 0 ? n - 1 : k - 1) + 64][n - 1 - j + 64] % 7;
          else if (k % 2 == 0)
            B[(j + 3) / 2 + 64][l + 65] *= 0.875;
          else
            D[j + 63][l + 64] = (D[j + 63][l + 64] * 3 + D[m - 1 - i + 64][(i == 0 ? m - 1 : i - 1) + 64] + 1) % 1009;
        }
      }
      C[62][-j + 2 * i + 1 + 64] = 0.5 * C[62][-j + 2 * i + 1 + 64] + 0.25 * B[i + 63][67] + 0.125;
    }
  }
#pragma endscop
#pragma scop
  B[64][67] += 0.5 * C[65][66];
  for (i = 2; i < (n) / 2; ++i) {
    D[2 * i + 3 + 64][(i == 0 ? n - 1 : i - 1) + 64] += D[(i + 3) / 3 + 64][i + 63] % 7;
    for (j = 1; j < i % 3 + 2; j++) {
      for (k = 0; k <= j; ++k) {
        D[j + 65][k + 64]++;
        if (i + j < n)
          D[k + 64][-i + 64] = D[j + 64][i + 66] / 3 + D[k + 64][-i + 64] % 5;
        else
          D[j + 64][k + 64] = (D[j + 64][k + 64] * 3 + D[MIN(k, n - 1) + 64][m - 1 - i + 64] + 1) % 1009;
        if (k < 3 || k > n - 3)
          { C[(i == 0 ? n - 1 : i - 1) + 64][(-2 * i - 1) % 3 + 64] = 1.0 + 0.0625; C[n - 1 - i + 64][j + 64] += 0.5 * s; }
      }
      C[-i - j - 1 + 64][floord(j + 1, 2) + 64] = 0.5 * C[-i - j - 1 + 64][floord(j + 1, 2) + 64] + 0.125;
    }
  }
  for (i = n - 5; i < (m) / 2; ++i) {
    C[62][-2 * i - 3 + 64] = 0.5 * C[62][-2 * i - 3 + 64] + 0.125;
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
  static long D[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((long *)D)[c] = (c * 11 + 2) % 17;
  kernel_r102_146(12, 6, C, B, D, sink);
  print_hash("C", C, 16641);
  print_hash("B", B, 16641);
  print_hash("D", D, 16641);
  print_hash("s", sink, 1);
  return 0;
}
