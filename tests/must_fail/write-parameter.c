void f(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    A[i] = 0.0;
    n = n - 1;
  }
#pragma endscop
}
