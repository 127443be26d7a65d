#pragma scop
/* Clay
   reorder([], [1,0]);
*/
a = 0;
b = 0;
#pragma endscop
