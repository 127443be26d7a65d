#pragma scop
/* Clay
   reverse([0], 2);
*/
for(i = 0 ; i <= N ; i++) {
  a = 0;
}
#pragma endscop
