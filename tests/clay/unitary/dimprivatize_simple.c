#pragma scop
/* Clay
   dimprivatize([0], 3, 1); # 3 == a
*/

for (i = 0 ; i <= N ; i++) {
  a = 0;
}

#pragma endscop

