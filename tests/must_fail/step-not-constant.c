void f(int n, int s, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i += s)
    A[i] = 0.0;
#pragma endscop
}
