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

static void kernel_r33_302(int n, int m, long A[129][129], long D[129][129], double *sink)
{
  int i, j, k, l;
  double s = 1.0;
#pragma scop
  for (i = m - 5; i <= (n - 1) / 3; i++) {
    for (j = i; j < W; j = j + 2) {
      for (k = 1 + j % 2; k < n; k++) {
        for (l = 0; l < MIN(n, i + 3); l += 3) {
          A[i + 63][k + 66]++;
          if (!(k < 2))
            A[k + 66][j + i - 1 + 64] += D[n - 1 - j + 64][(l + 1) / 2 + 64] % 7;
          else
            D[l + 66][j + 64] = (D[l + 66][j + 64] * 3 + D[k + 63][j + 64] + 1) % 1009;
          D[i + 65][j + 64] += D[k + 64][j + 65] % 7;
        }
        D[i + 64][j + 63] = (D[i + 64][j + 63] * 3 + A[i + 64][k + 64] + 1) % 1009;
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
  static long A[129][129];
  static long D[129][129];
  double sink[1];
  for (int c = 0; c < 16641; c++)
    ((long *)A)[c] = (c * 7 + 0) % 17;
  for (int c = 0; c < 16641; c++)
    ((long *)D)[c] = (c * 9 + 1) % 17;
  kernel_r33_302(11, 9, A, D, sink);
  print_hash("A", A, 16641);
  print_hash("D", D, 16641);
  print_hash("s", sink, 1);
  return 0;
}
