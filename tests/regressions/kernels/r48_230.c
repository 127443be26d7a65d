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

static void kernel_r48_230(int n, double D[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = 0; i < W; i++) {
    for (j = ceild(i, 2); j <= i % 4; j++) {
      D[j + 64][i + 64] *= 0.875;
      for (k = 2; k <= n - 2; ++k) {
        if (i % 2 == 1)
          D[k + 66][j + 66] = 0.5 * D[k + 66][j + 66] + 0.125;
        else if (k + i < n)
          D[k + 2 + 64][i + 64] = D[i + 63][n - 1 - j + 64] * 0.75 - D[k + 2 + 64][i + 64] * 0.5;
        else
          D[n - 1 - k + 64][MIN(i, n - 1) + 64] = 0.5 * D[n - 1 - k + 64][MIN(i, n - 1) + 64] + 0.125;
        if (i >= j)
          { D[k + 64][j + 66] += 0.5 * D[(i == 0 ? n - 1 : i - 1) + 64][i + 63]; D[k + 64][j + 64] = 0.3 * s + 0.3 * D[j + 65][k + 64] + 0.0625; }
        if (k + j < n)
          D[67][j + 64] = 0.3 * D[i + 64][i - 1 + 64] + 0.3 * D[MIN(i, n - 1) + 64][j + 66] + 0.0625;
        else
          D[k + 66][k + 64] = 0.5 * D[k + 66][k + 64] + 0.25 * D[i + 63][k + 64] + 0.25 * D[k + i - 3 + 64][i + 64] + 0.125;
      }
      D[i + 64][j + 66] = 0.3 * D[i + 66][i + 64] + 0.0625;
    }
  }
  for (i = 0; i <= (n - 1) / 2; i++) {
    for (j = 1; j < n - i; j++) {
      for (k = 2; k < n - 1; k++) {
        D[j + 65][floord(k + 1, 2) + 64] = 0.5 * D[j + 65][floord(k + 1, 2) + 64] + 0.25 * D[j + k - 3 + 64][j + 66] + 0.125;
        D[k + 64][j + 64] *= 0.875;
        D[i + 66][2 * i - 1 + 64] *= 0.875;
      }
      if (j >= i)
        { D[j + 65][63] = 1.0 + 0.0625; D[(i == 0 ? n - 1 : i - 1) + 64][j + 64] = 0.5 * D[(i == 0 ? n - 1 : i - 1) + 64][j + 64] + 0.25 * D[67][i + 64] + 0.25 * D[i + 64][j + 66] + 0.125; }
    }
    D[i + 65][(-2 * i + 3) % 2 + 64] = 0.5 * D[i + 65][(-2 * i + 3) % 2 + 64] + 0.125;
  }
  D[64][63] = D[67][66] * 0.75 - D[64][63] * 0.5;
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
  static double D[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)D)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r48_230(11, D, sink);
  print_hash("D", D, 16641);
  print_hash("s", sink, 1);
  return 0;
}
