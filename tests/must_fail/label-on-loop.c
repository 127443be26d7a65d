void f(int n, double A[100]) {
  int i;
#pragma scop
outer:
  for (i = 0; i < n; i++)
    A[i] = 0.0;
#pragma endscop
}
