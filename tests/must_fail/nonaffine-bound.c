void f(int n, double A[100][100]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < i * i; j++)
      A[i][j] = 0.0;
#pragma endscop
}
