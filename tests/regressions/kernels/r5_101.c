#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* A random kernel (tools/random_kernels.py): n = 8, m = 3. */

static void kernel_r5_101(int n, long A[129][129], double C[129][129], long B[129][129], double *sink)
{
  int i, j, k;
  double s = 1.0;
#pragma scop
  for (i = 2; i < n; i++) {
    for (j = 0; j < (n + i) / 2; j++) {
      if (j <= n - 2)
        C[j + 66][2 * j - 1 + 64] += 0.5 * B[j + 64][j + 64];
      else
        C[i + 63][-i - 2 * j - 1 + 64] += 0.5 * A[i + 64][i + 64];
      for (k = j - 1; k <= (n + j - 1) / 3; k++) {
        A[i + 64][-j + i + 1 + 64] += A[k + 64][-k + 2 * j - 2 + 64] % 7;
      }
      B[j + 65][j + 64] = (B[j + 65][j + 64] * 3 + A[(j + 2) / 3 + 64][i + 64] + 1) % 1009;
    }
    for (j = 0; j <= i; j++) {
      if (i >= 1)
        C[(-2 * j) / 3 + 64][i + 64] *= 0.875;
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
  static long A[129][129];
  static double C[129][129];
  static long B[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((long *)A)[c] = (c * 7 + 0) % 17;
  for (int c = 0; c < 16641; c++)
    ((double *)C)[c] = (double)((c * 9 + 1) % 17) / 17 + 0.25;
  for (int c = 0; c < 16641; c++)
    ((long *)B)[c] = (c * 11 + 2) % 17;
  kernel_r5_101(8, A, C, B, sink);
  print_hash("A", A, 16641);
  print_hash("C", C, 16641);
  print_hash("B", B, 16641);
  print_hash("s", sink, 1);
  return 0;
}
