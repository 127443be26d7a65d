#!/usr/bin/env python3
"""Differential fuzzing of recipes (a check, not part of `cargo test`).

Every integer of every `tests/recipes/*.poly` is replaced, one at a time, by
small values (-1, 0, 1, 2, 3, 5). Each variant is run through
`target/release/polyc` (build it first). Two things are checked:

* polyc never panics: the exit status is 0, 1 or 2;
* every variant polyc accepts is compiled and run, and prints exactly what
  the original kernel prints.

Integers inside `context(...)` are not mutated: a context is a promise about
the parameters, and a mutated one breaks it (the output may then differ).

Usage: python3 tools/recipe_fuzz.py [MAX_ACCEPTED]   (default 250)
"""
import glob
import random
import re
import subprocess
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 250
random.seed(7)
orig_out={}
def run_c(src,exe,flags):
    subprocess.run(["gcc"]+flags+["-o",exe,src,"-lm"],check=True,capture_output=True)
    return subprocess.run([exe],capture_output=True,text=True,timeout=60).stdout
cases=[]
for f in sorted(glob.glob("tests/recipes/*.poly")):
    text=open(f).read()
    kernel="tests/kernels/"+text.splitlines()[0].split(": ")[1].strip()+".c"
    body=text.split("\n",1)[1]
    for m in re.finditer(r"-?\d+",body):
        # A context is a promise about the sizes: a mutated one is false for
        # the kernel's sizes, and a different output is then expected.
        line=body[body.rfind("\n",0,m.start())+1:m.start()]
        if "context(" in line: continue
        for v in ["-1","0","1","2","3","5"]:
            cases.append((kernel,text.split("\n",1)[0]+"\n"+body[:m.start()]+v+body[m.end():]))
random.shuffle(cases)
checked=0;wrong=0;acc=0
for kernel,t in cases:
    open("/tmp/g.poly","w").write(t)
    r=subprocess.run(["./target/release/polyc",kernel,"--recipe","/tmp/g.poly"],capture_output=True,text=True)
    if r.returncode not in (0,1,2) or "panicked" in r.stderr:
        wrong+=1; print("PANIC",kernel,t.replace("\n"," | ")); continue
    if r.returncode!=0: continue
    acc+=1
    if kernel not in orig_out:
        orig_out[kernel]=run_c(kernel,"/tmp/o.exe",["-O1"])
    open("/tmp/g.c","w").write(r.stdout)
    try:
        out=run_c("/tmp/g.c","/tmp/g.exe",["-O1","-fopenmp"])
    except Exception as e:
        print("COMPILE FAIL",kernel,t.replace("\n"," | "),e); wrong+=1; continue
    checked+=1
    if out!=orig_out[kernel]:
        wrong+=1; print("DIFF",kernel,t.replace("\n"," | "))
    if checked >= LIMIT: break
print("accepted",acc,"checked",checked,"wrong",wrong)
sys.exit(1 if wrong else 0)
