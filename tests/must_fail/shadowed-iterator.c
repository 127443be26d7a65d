void f(int n, double A[100][100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    for (int i = 0; i < n; i++)
      A[i][i] = 0.0;
#pragma endscop
}
