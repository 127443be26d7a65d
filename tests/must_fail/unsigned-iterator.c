void f(int n, double A[100]) {
#pragma scop
  for (unsigned i = 0; i < n; i++)
    A[i] = 0.0;
#pragma endscop
}
