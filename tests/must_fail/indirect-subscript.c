void f(int n, double A[100], int B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[B[i]] = 0.0;
#pragma endscop
}
