#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <string.h>

/* A random kernel (tools/random_kernels.py): n = 5, m = 3. */

static void kernel_r1_50(int n, double B[129], double *sink)
{
  int i;
  double s = 1.0;
#pragma scop
  B[67] = B[67] * 0.75 - B[67] * 0.5;
  for (i = 1; i <= n - 2; i++) {
    B[i + 65] = 0.5 * B[i + 65] + 0.125;
  }
  for (i = 0; i < n; i++) {
    B[i + 65] += 0.5 * B[-i - 1 + 64];
    B[i + 63] = 0.5 * B[i + 63] + 0.125;
    B[i + 65] *= 0.875;
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
  static double B[129];
  double sink[1];
  for (int c = 0; c < 129; c++)
    ((double *)B)[c] = (double)((c * 7 + 0) % 17) / 17 + 0.25;
  kernel_r1_50(5, B, sink);
  print_hash("B", (const double *)B, 129);
  print_hash("s", sink, 1);
  return 0;
}
