#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <string.h>

/* A random kernel (tools/random_kernels.py): n = 12, m = 9. */

static void kernel_r2_245(int n, double D[129], double A[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = 1; i < n; i++) {
    A[-2 * i + 64][-i + 3 + 64] = 0.5 * A[-2 * i + 64][-i + 3 + 64] + 0.125;
    for (j = 2; j <= n - 2; j++) {
      A[-j - i - 2 + 64][j + 63] += 0.5 * D[i + 63];
      D[(2 * j) / 3 + 64] = 0.5 * D[(2 * j) / 3 + 64] + 0.25 * D[i + 64] + 0.125;
      for (k = 1; k <= n - 2; k++) {
        A[j + 63][j + 63] = D[2 * j - 1 + 64] * 0.75 - A[j + 63][j + 63] * 0.5;
      }
    }
    A[i + 64][i + 64] = A[i + 64][i + 2 + 64] * 0.75 - A[i + 64][i + 64] * 0.5;
  }
#pragma endscop
  sink[0] = s;
}

static void print_hash(const char *name, const double *x, int count)
{
  unsigned long long h = 1469598103934665603ULL;
  double sum = 0.0;
  for (int c = 0; c < count; c++) {
    unsigned long long bits;
    memcpy(&bits, &x[c], sizeof bits);
    h = (h ^ bits) * 1099511628211ULL;
    sum += x[c];
  }
  printf("%s %016llx %.6e\n", name, h, sum);
}

int main(void)
{
  static double D[129];
  static double A[129][129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)D)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)A)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  kernel_r2_245(12, D, A, sink);
  print_hash("D", (const double *)D, 129);
  print_hash("A", (const double *)A, 16641);
  print_hash("s", sink, 1);
  return 0;
}
