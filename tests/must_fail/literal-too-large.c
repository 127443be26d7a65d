void f(double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < 99999999999999999999; i++)
    A[i] = 0.0;
#pragma endscop
}
