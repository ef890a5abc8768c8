/* jump_without_fpu_control.S -- session 47's probe (not part of the build): Boost.Context
   1.74's x86-64 System V jump_fcontext as Debian's libboost_context has it (objdump), less the
   LDMXCSR and FLDCW that restore the SSE and x87 control words on every switch. It still saves
   them, so that Boost's ontop_fcontext (which ends a fiber) finds valid words. Linked into
   fiber_cost.cpp's program (its header has the command), whose own definition then takes the
   place of the library's. */
.text
.globl jump_fcontext
.type jump_fcontext,@function
.align 16
jump_fcontext:
    leaq  -0x38(%rsp), %rsp
    stmxcsr (%rsp)
    fnstcw 0x4(%rsp)
    movq  %r12, 0x8(%rsp)
    movq  %r13, 0x10(%rsp)
    movq  %r14, 0x18(%rsp)
    movq  %r15, 0x20(%rsp)
    movq  %rbx, 0x28(%rsp)
    movq  %rbp, 0x30(%rsp)
    movq  %rsp, %rax
    movq  %rdi, %rsp
    movq  0x38(%rsp), %r8
    movq  0x8(%rsp), %r12
    movq  0x10(%rsp), %r13
    movq  0x18(%rsp), %r14
    movq  0x20(%rsp), %r15
    movq  0x28(%rsp), %rbx
    movq  0x30(%rsp), %rbp
    leaq  0x40(%rsp), %rsp
    movq  %rsi, %rdx
    movq  %rax, %rdi
    jmp  *%r8
.size jump_fcontext,.-jump_fcontext
.section .note.GNU-stack,"",%progbits
