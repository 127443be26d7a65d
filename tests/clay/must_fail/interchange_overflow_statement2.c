#pragma scop
/* Clay
   interchange([0,1], 2, 1, 0);
*/
for(i = 0 ; i <= N ; i++) {
  a[i] = 0;
}
#pragma endscop
