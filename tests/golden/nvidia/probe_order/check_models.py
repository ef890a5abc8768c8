#!/usr/bin/env python3
# check_models.py -- prints the candidate tables of docs/nvidia_float_order.md from the H100 bytes in
# this folder (probe_order X.bin, Y.bin, Out.bin). Python 3 only.
import os
import struct, itertools, random
D=os.path.dirname(os.path.abspath(__file__))+'/'
def u32s(f): b=open(D+f,'rb').read(); return list(struct.unpack('<%dI'%(len(b)//4),b))
def b2f(u): return struct.unpack('<f',struct.pack('<I',u))[0]
def f2b(f): return struct.unpack('<I',struct.pack('<f',f))[0]
def r(x): return struct.unpack('<f',struct.pack('<f',x))[0]
X=[b2f(u) for u in u32s('X.bin')]; Y=[b2f(u) for u in u32s('Y.bin')]; O=u32s('Out.bin')
masks={4:lambda l:l&1==1,5:lambda l:l&1==0,6:lambda l:l>=5,7:lambda l:l%3==1,8:lambda l:l<13,9:lambda l:(0x9E3779B9>>l)&1==1}
add=lambda a,b:r(a+b); mul=lambda a,b:r(a*b)
def bfly(v,op,idn):  # lane0 of xor butterfly = pairwise tree
    v=list(v)
    d=1
    while d<len(v):
        for l in range(0,len(v),2*d): v[l]=op(v[l],v[l+d])
        d*=2
    return v[0]
def nextp2(k):
    p=1
    while p<k:p*=2
    return p
def seq(vals,op):
    a=vals[0]
    for v in vals[1:]: a=op(a,v)
    return a
# reductions
def cands(xs,act,op,idn):
    full=[xs[l] if act[l] else idn for l in range(32)]
    A=[xs[l] for l in range(32) if act[l]]
    k=len(A)
    c={}
    c['a_bfly_full']=bfly(full,op,idn)
    c['b_compact_p2']=bfly(A+[idn]*(nextp2(k)-k),op,idn)
    c['b_compact_32']=bfly(A+[idn]*(32-k),op,idn)
    c['f_seq']=seq(A,op)
    c['f_seq_rev']=seq(A[::-1],op)
    # shuffle-down tree, lane0 result equals same as bfly lane 0? shfl down offsets 16..1: v[l]+=v[l+d]
    v=list(full)
    for d in (16,8,4,2,1):
        v=[op(v[l],v[l+d]) if l+d<32 else v[l] for l in range(32)]
    c['c_shfldown_l0']=v[0]; c['c_shfldown_first']=v[min(l for l in range(32) if act[l])]
    # shfl xor with own value when source inactive (d)
    for mode in ('own','zero'):
        v=[xs[l] if act[l] else None for l in range(32)]
        for d in (1,2,4,8,16):
            nv=list(v)
            for l in range(32):
                if v[l] is None: continue
                s=v[l^d]
                if s is None: s = v[l] if mode=='own' else idn
                nv[l]=op(v[l],s)
            v=nv
        c['d_xor_'+mode]=[v[l] for l in range(32) if act[l]]
        v=[xs[l] if act[l] else None for l in range(32)]
        for d in (16,8,4,2,1):
            nv=list(v)
            for l in range(32):
                if v[l] is None: continue
                s=v[l^d]
                if s is None: s = v[l] if mode=='own' else idn
                nv[l]=op(v[l],s)
            v=nv
        c['d_xorhi_'+mode]=[v[l] for l in range(32) if act[l]]
    # xor butterfly descending with identity
    v=list(full)
    for d in (16,8,4,2,1):
        v=[op(v[l],v[l^d]) for l in range(32)]
    c['bfly_desc']=v[0]
    return c
_c=cands
def cands2(xs,act,op,idn):
    c=_c(xs,act,op,idn)
    A=[xs[l] for l in range(32) if act[l]]
    v=list(A); d=1
    while d<len(v): v=[op(v[i-d],v[i]) if i>=d else v[i] for i in range(len(v))]; d*=2
    c['MODEL_compact_hs_last']=v[-1]
    return c
names={'a_bfly_full':'(a) xor butterfly, all 32 lanes, identity in inactive (current)','b_compact_p2':'(b) butterfly over compacted lanes, padded to next 2^k','b_compact_32':'(b) butterfly over compacted lanes, padded to 32',
'f_seq':'(f) sequential fold, ascending','f_seq_rev':'(f) sequential fold, descending','c_shfldown_l0':'(c) shuffle-down 16,8,4,2,1, identity, lane 0','c_shfldown_first':'(c) shuffle-down, first active lane',
'd_xor_own':'(d) shuffle-xor 1..16, inactive source reads own value','d_xorhi_own':'(d) shuffle-xor 16..1, own value','d_xor_zero':'(d) shuffle-xor 1..16, inactive source reads 0','d_xorhi_zero':'(d) shuffle-xor 16..1, 0',
'bfly_desc':'xor butterfly 16..1, identity','MODEL_compact_hs_last':'**compacted Hillis-Steele, last active element**'}
res={}
for w in range(2):
  for slot,xs_,op,idn,mk in [(0,X,add,0.0,lambda l:True),(1,Y,mul,1.0,lambda l:True)]+[(s,X,add,0.0,masks[s]) for s in range(4,10)]:
    xs=xs_[32*w:32*w+32]; act=[mk(l) for l in range(32)]
    dev=[O[slot*64+32*w+l] for l in range(32) if act[l]]
    for name,val in cands2(xs,act,op,idn).items():
        vals=val if isinstance(val,list) else [val]*len(dev)
        res.setdefault(name,{})[(slot,w)]=all(f2b(a)==b for a,b in zip(vals,dev))
keys=sorted(next(iter(res.values())).keys())
print('| candidate | '+' | '.join('%d/w%d'%k for k in keys)+' |'); print('|---|'+'---|'*len(keys))
for n,d in res.items(): print('| '+names[n]+' | '+' | '.join('✓' if d[k] else '✗' for k in keys)+' |')
print()
print("## exclusive scans")
def hs(v,op,idn):
    v=list(v); n=len(v); d=1
    while d<n:
        v=[op(v[l-d],v[l]) if l>=d else v[l] for l in range(n)]; d*=2
    return v
def hs_r(v,op,idn):  # operand order swapped
    v=list(v); n=len(v); d=1
    while d<n:
        v=[op(v[l],v[l-d]) if l>=d else v[l] for l in range(n)]; d*=2
    return v
def scands(xs,act,op,idn):
    full=[xs[l] if act[l] else idn for l in range(32)]
    A=[l for l in range(32) if act[l]]; k=len(A)
    c={}
    inc=hs(full,op,idn); c['hs_full_shift']=[inc[l-1] if l>0 else idn for l in A]
    sh=[idn]+full[:31]; c['hs_full_shiftin']=[hs(sh,op,idn)[l] for l in A]
    # shift of input from previous *active* lane
    cv=[xs[l] for l in A]; ic=hs(cv,op,idn)
    c['hs_compact_shift']=[ic[i-1] if i>0 else idn for i in range(k)]
    c['hs_compact_shiftin']=hs([idn]+cv[:-1],op,idn)
    c['seq']=[]; a=idn
    for i,l in enumerate(A): c['seq'].append(a if i else idn); a=op(a,xs[l]) if i else xs[l]
    # shuffle-up where the source lane's own current value used; inactive lanes: stale = x? 
    for name,init in (('up_inact_x',xs),):
        v=[xs[l] for l in range(32)]
        d=1
        while d<32:
            v=[op(v[l-d],v[l]) if (l>=d and act[l]) else v[l] for l in range(32)]; d*=2
        c['hs_inact_x_shift']=[v[l-1] if l>0 else idn for l in A]
    return c
res={}
for w in range(2):
  for slot,xs_,op,idn,mk in [(2,X,add,0.0,lambda l:True),(3,Y,mul,1.0,lambda l:True)]+[(s+6,X,add,0.0,masks[s]) for s in range(4,10)]:
    xs=xs_[32*w:32*w+32]; act=[mk(l) for l in range(32)]
    dev=[O[slot*64+32*w+l] for l in range(32) if act[l]]
    for name,val in scands(xs,act,op,idn).items():
        ok=sum(f2b(a)==b for a,b in zip(val,dev))
        res.setdefault(name,{})[(slot,w)]='%d/%d'%(ok,len(dev))
keys=sorted(next(iter(res.values())).keys())
print("| candidate | "+" | ".join("%d/w%d"%k for k in keys)+" |")
for n,d in res.items(): print("| "+n+" | "+" | ".join(d[k] for k in keys)+" |")

