#pragma scop
/* Clay
   context([0,1,-5]);
*/
for(i = 0 ; i <= N ; i++) 
  a[i] = 0;
#pragma endscop
