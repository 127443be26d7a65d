void f(int n, int m, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n / m; i++)
    A[i] = 0.0;
#pragma endscop
}
