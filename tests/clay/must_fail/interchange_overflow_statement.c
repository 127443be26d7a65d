#pragma scop
/* Clay
   interchange([0], 1, 1, 0);
*/
a = 0;
#pragma endscop
