#pragma scop
/* Clay
   reorder([], [0,1])
*/
#pragma endscop
