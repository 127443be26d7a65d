#pragma scop
/* Clay
   stripmine([0], 1, 3);
*/
a = 0;
#pragma endscop
