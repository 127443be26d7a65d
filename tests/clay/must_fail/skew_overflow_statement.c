#pragma scop
/* Clay
   skew([0], 1, 1, 1);
*/
a = 0;
#pragma endscop
