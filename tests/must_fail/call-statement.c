void g(double x);
void f(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    g(A[i]);
#pragma endscop
}
