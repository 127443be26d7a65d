void f(int n, double A[100]) {
  int i;
#pragma scop
  i = 0;
  while (i < n)
    A[i] = 0.0;
#pragma endscop
}
