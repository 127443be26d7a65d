struct s { double v[100]; };
void f(int n, struct s *p) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    p->v[i] = 0.0;
#pragma endscop
}
