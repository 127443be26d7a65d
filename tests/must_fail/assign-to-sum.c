void f(int n, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] + B[i] = 0.0;
#pragma endscop
}
