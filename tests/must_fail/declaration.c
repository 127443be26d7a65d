void f(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    double t = A[i];
    A[i] = t * t;
  }
#pragma endscop
}
