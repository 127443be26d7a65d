#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <string.h>

/* A random kernel (tools/random_kernels.py): n = 12, m = 6. */

static void kernel_r2_280(int n, double C[129][129], double D[129][129], double B[129][129], double *sink)
{
  int i;
  double s = 1.0;
#pragma scop
  B[67][65] = 1.0 + 0.0625;
  for (i = 0; i < n; i += 2) {
    if (i % 2 == 1)
      D[i + 64][-i - 2 + 64] = C[2 * i - 1 + 64][i - 2 + 64] * 0.75 - D[i + 64][-i - 2 + 64] * 0.5;
    B[(2 * i - 1) / 2 + 64][i + 65] += 0.5 * D[2 * i + 64][i + 64];
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
  static double C[129][129];
  static double D[129][129];
  static double B[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)D)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((double *)B)[c] = (double)((c * 11 + 2) % 17) / 17 + 0.25;
  kernel_r2_280(12, C, D, B, sink);
  print_hash("C", (const double *)C, 16641);
  print_hash("D", (const double *)D, 16641);
  print_hash("B", (const double *)B, 16641);
  print_hash("s", sink, 1);
  return 0;
}
