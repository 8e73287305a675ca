/* mb2.c: the throwaway harness behind this folder's mb2.txt files (a record, not part of the
 * build): the plain loop, the reference as built (sl_exact_add + rounding) and candidate integer
 * bins loops over one generated buffer, every variant once per round, medians over the rounds.
 * i64v0: the float64 integer bins with the OR check (c17eb3c); i64v1/i64v1b: significands in
 * scalar registers; i64v2: no overflow check (not exact: the check's cost); i64v3: carries
 * counted with t < m; i64v4: memory-destination add + add-with-carry (52038f8); i64v4l1: i64v4
 * with a second prefetch 1 KB ahead into L1 (df3261c, Intel only); i64g1: 2048 bins of two
 * exponents each; i32s1/2/4: float32 integer bins with 1/2/4 sets (be16205, removed in 9db0ae5);
 * fastf32: the 8-set double bins; rbw/rbwpf: a plain read of the buffer without/with the
 * software prefetch. PF=bytes sets the L2 prefetch distance, HOT=k puts all but every k-th
 * value in one bin. Built (from the repository root, after a CPU-only build in build-cpu) with
 *   gcc -O3 -std=c11 -ffp-contract=off -static -Ireference -Idatasets -o mb2 \
 *       experiments/measured/h200-df3261c-cpuref/harness/mb2.c build-cpu/datasets/libsumlab_datasets.a -lmpfr -lgmp -lm -lpthread
 * usage: mb2 f32|f64 DATASET N ROUNDS [key=value ...] */
#define _POSIX_C_SOURCE 200809L
#include "sl_exact.c"
#include "sl_datasets.h"
#include <time.h>
static double wall(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
__attribute__((noinline)) static double loop64(const double*d,uint64_t n){double s=0;for(uint64_t i=0;i<n;i++)s+=d[i];return s;}
__attribute__((noinline)) static double loop32(const float*d,uint64_t n){double s=0;for(uint64_t i=0;i<n;i++)s+=(double)d[i];return s;}
static int PF = 8192;
/* f32 int bins, S sets, count in bits 40.. */
#define I32K 0x10000800000ull
#define I32_BODY(S) \
  uint64_t i = 0; \
  for (; i + 8 <= n; i += 8) { \
      __builtin_prefetch(p + 4 * i + PF, 0, 1); \
      for (int j = 0; j < 8; j++) { uint32_t u; memcpy(&u, p + 4 * (i + j), 4); \
          c[(j % S) * 512 + (u >> 23)] += (uint64_t)(u & 0x7fffffu) | I32K; } } \
  for (; i < n; i++) { uint32_t u; memcpy(&u, p + 4 * i, 4); c[u >> 23] += (uint64_t)(u & 0x7fffffu) | I32K; }
__attribute__((noinline)) static void i32s1(uint64_t *c, const unsigned char *p, uint64_t n) { I32_BODY(1) }
__attribute__((noinline)) static void i32s2(uint64_t *c, const unsigned char *p, uint64_t n) { I32_BODY(2) }
__attribute__((noinline)) static void i32s4(uint64_t *c, const unsigned char *p, uint64_t n) { I32_BODY(4) }
/* f64 int64 with runtime prefetch distance; variant: 0 vector m (product), 1 scalar m, 2 no OR */
#define I64_BODY(VAR) \
    const v4i fracm = (v4i){0, 0, 0, 0} + (long long)FRAC64; \
    const v4i expm = (v4i){0, 0, 0, 0} + (long long)INF64; \
    const v4i impl = (v4i){0, 0, 0, 0} + (long long)((uint64_t)1 << 52); \
    uint64_t ov = 0, o0 = 0, o1 = 0, o2 = 0, o3 = 0, i = 0; \
    _Alignas(32) uint64_t mb[8]; \
    for (; i + 8 <= n; i += 8) { \
        __builtin_prefetch(p + 8 * i + PF, 0, 1); \
        if (VAR != 1) { for (int h = 0; h < 2; h++) { v4i u; memcpy(&u, p + 8 * i + 32 * h, 32); \
            const v4i m = (u & fracm) | (((u & expm) != 0) & impl); memcpy(mb + 4 * h, &m, 32); } \
          __asm__("" : "+m"(mb)); } \
        uint64_t t[8]; \
        for (int j = 0; j < 8; j++) { uint64_t u; memcpy(&u, p + 8 * (i + j), 8); \
            uint64_t m = VAR == 1 ? ((u & FRAC64) | ((uint64_t)((u & INF64) != 0) << 52)) : mb[j]; \
            t[j] = c[u >> 52] + m; c[u >> 52] = t[j]; } \
        if (VAR != 2) { o0 |= t[0] | t[4]; o1 |= t[1] | t[5]; o2 |= t[2] | t[6]; o3 |= t[3] | t[7]; } \
    } \
    ov = (o0 | o1) | (o2 | o3); \
    return ov;
__attribute__((target("avx2"),noinline)) static uint64_t i64v0(uint64_t *c, const unsigned char *p, uint64_t n) { I64_BODY(0) }
__attribute__((target("avx2"),noinline)) static uint64_t i64v1(uint64_t *c, const unsigned char *p, uint64_t n) { I64_BODY(1) }
__attribute__((target("avx2"),noinline)) static uint64_t i64v2(uint64_t *c, const unsigned char *p, uint64_t n) { I64_BODY(2) }
__attribute__((target("avx2,bmi,bmi2"),noinline)) static uint64_t i64v1b(uint64_t *c, const unsigned char *p, uint64_t n) { I64_BODY(1) }
__attribute__((target("avx2"),noinline)) static uint64_t rbw(const unsigned char*p,uint64_t n,int pf){ v4i a={0,0,0,0},b={0,0,0,0}; for(uint64_t i=0;i+8<=n;i+=8){ if(pf) __builtin_prefetch(p+8*i+PF,0,1); v4i u,w; memcpy(&u,p+8*i,32); memcpy(&w,p+8*i+32,32); a+=u; b^=w;} return (uint64_t)(a[0]+a[1]+a[2]+a[3]+b[0]+b[1]); }

/* v3: carry accumulated (C idiom), no runs; v4: asm add-to-memory + adc */
__attribute__((target("avx2"),noinline)) static uint64_t i64v3(uint64_t *c, const unsigned char *p, uint64_t n) {
    const v4i fracm = (v4i){0, 0, 0, 0} + (long long)FRAC64, expm = (v4i){0, 0, 0, 0} + (long long)INF64, impl = (v4i){0, 0, 0, 0} + (long long)((uint64_t)1 << 52);
    uint64_t o0 = 0, o1 = 0, i = 0; _Alignas(32) uint64_t mb[8];
    for (; i + 8 <= n; i += 8) {
        __builtin_prefetch(p + 8 * i + PF, 0, 1);
        for (int h = 0; h < 2; h++) { v4i u; memcpy(&u, p + 8 * i + 32 * h, 32); const v4i m = (u & fracm) | (((u & expm) != 0) & impl); memcpy(mb + 4 * h, &m, 32); }
        __asm__("" : "+m"(mb));
        for (int j = 0; j < 8; j++) { uint64_t u; memcpy(&u, p + 8 * (i + j), 8); uint64_t t = c[u >> 52] + mb[j]; if (j & 1) o1 += t < mb[j]; else o0 += t < mb[j]; c[u >> 52] = t; }
    }
    return o0 + o1; }
__attribute__((target("avx2"),noinline)) static uint64_t i64v4(uint64_t *c, const unsigned char *p, uint64_t n) {
    const v4i fracm = (v4i){0, 0, 0, 0} + (long long)FRAC64, expm = (v4i){0, 0, 0, 0} + (long long)INF64, impl = (v4i){0, 0, 0, 0} + (long long)((uint64_t)1 << 52);
    uint64_t o0 = 0, o1 = 0, i = 0; _Alignas(32) uint64_t mb[8];
    for (; i + 8 <= n; i += 8) {
        __builtin_prefetch(p + 8 * i + PF, 0, 1);
        for (int h = 0; h < 2; h++) { v4i u; memcpy(&u, p + 8 * i + 32 * h, 32); const v4i m = (u & fracm) | (((u & expm) != 0) & impl); memcpy(mb + 4 * h, &m, 32); }
        __asm__("" : "+m"(mb));
        for (int j = 0; j < 8; j++) { uint64_t u; memcpy(&u, p + 8 * (i + j), 8); uint64_t *bp = c + (u >> 52);
            if (j & 1) __asm__("addq %2, %0\n\tadcq $0, %1" : "+m"(*bp), "+r"(o1) : "r"(mb[j]) : "cc");
            else __asm__("addq %2, %0\n\tadcq $0, %1" : "+m"(*bp), "+r"(o0) : "r"(mb[j]) : "cc"); }
    }
    return o0 + o1; }
/* v5: 2048 bins (u >> 53), m << sh, sh = (e & 1) | (e == 0); G=2: 1024 bins, sh = (e&3) | (e==0) */
#define I64G_BODY(G) \
    const v4i fracm = (v4i){0, 0, 0, 0} + (long long)FRAC64, expm = (v4i){0, 0, 0, 0} + (long long)INF64, impl = (v4i){0, 0, 0, 0} + (long long)((uint64_t)1 << 52); \
    const v4i one = (v4i){1,1,1,1}, gm = (v4i){0,0,0,0} + ((1 << G) - 1); \
    uint64_t o0 = 0, o1 = 0, o2 = 0, o3 = 0, i = 0; _Alignas(32) uint64_t mb[8]; \
    for (; i + 8 <= n; i += 8) { \
        __builtin_prefetch(p + 8 * i + PF, 0, 1); \
        for (int h = 0; h < 2; h++) { v4i u; memcpy(&u, p + 8 * i + 32 * h, 32); \
            const v4i ex = u & expm, z = ex == 0; \
            const v4i sh = ((v4i)((v4u)ex >> 52) & gm) | (z & one); \
            const v4i m = (u & fracm) | (~z & impl); \
            const v4i ms = (v4i)((v4u)m << (v4u)sh); memcpy(mb + 4 * h, &ms, 32); } \
        __asm__("" : "+m"(mb)); \
        uint64_t t[8]; \
        for (int j = 0; j < 8; j++) { uint64_t u; memcpy(&u, p + 8 * (i + j), 8); t[j] = c[u >> (52 + G)] + mb[j]; c[u >> (52 + G)] = t[j]; } \
        o0 |= t[0] | t[4]; o1 |= t[1] | t[5]; o2 |= t[2] | t[6]; o3 |= t[3] | t[7]; \
    } \
    return (o0 | o1) | (o2 | o3);
__attribute__((target("avx2"),noinline)) static uint64_t i64g1(uint64_t *c, const unsigned char *p, uint64_t n) { I64G_BODY(1) }
__attribute__((target("avx2"),noinline)) static uint64_t i64g2(uint64_t *c, const unsigned char *p, uint64_t n) {
    const v4i fracm = (v4i){0, 0, 0, 0} + (long long)FRAC64, expm = (v4i){0, 0, 0, 0} + (long long)INF64, impl = (v4i){0, 0, 0, 0} + (long long)((uint64_t)1 << 52);
    uint64_t o0 = 0, o1 = 0, i = 0; _Alignas(32) uint64_t mb[8];
    for (; i + 8 <= n; i += 8) {
        __builtin_prefetch(p + 8 * i + PF, 0, 1); __builtin_prefetch(p + 8 * i + 1024, 0, 3);
        for (int h = 0; h < 2; h++) { v4i u; memcpy(&u, p + 8 * i + 32 * h, 32); const v4i m = (u & fracm) | (((u & expm) != 0) & impl); memcpy(mb + 4 * h, &m, 32); }
        __asm__("" : "+m"(mb));
        for (int j = 0; j < 8; j++) { uint64_t u; memcpy(&u, p + 8 * (i + j), 8); uint64_t *bp = c + (u >> 52);
            if (j & 1) __asm__("addq %2, %0\n\tadcq $0, %1" : "+m"(*bp), "+r"(o1) : "r"(mb[j]) : "cc");
            else __asm__("addq %2, %0\n\tadcq $0, %1" : "+m"(*bp), "+r"(o0) : "r"(mb[j]) : "cc"); }
    }
    return o0 + o1; }
static int cmpd(const void*a,const void*b){double x=*(const double*)a,y=*(const double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  if(argc<5){fprintf(stderr,"usage: mb2 f32|f64 dataset n reps [param...]\n");return 2;}
  sl_dtype dt = !strcmp(argv[1],"f64")?SL_F64:SL_F32; uint64_t n=strtoull(argv[3],0,0); int reps=atoi(argv[4]);
  if(getenv("PF"))PF=atoi(getenv("PF"));
  const sl_dataset*ds=sl_dataset_find(argv[2]); sl_params pp; sl_err err={{0}}; sl_params_defaults(ds,&pp);
  for(int a=5;a<argc;a++) if(sl_params_set(ds,&pp,argv[a],&err)){fprintf(stderr,"%s\n",err.msg);return 1;}
  size_t sz=dt==SL_F64?8:4; void*x=aligned_alloc(4096,n*sz);
  if(sl_dataset_generate(ds,dt,0,n,&pp,0,n,x,&err)){fprintf(stderr,"%s\n",err.msg);return 1;}
  if(getenv("HOT")){ int k=atoi(getenv("HOT")); for(uint64_t i=0;i<n;i++) if(i%k){ if(dt==SL_F32) ((float*)x)[i]=1.0f+(float)(i%1000)*1e-4f; else ((double*)x)[i]=1.0+(double)(i%1000)*1e-4; } }
  sl_exact*acc=sl_exact_new(); uint64_t *c=aligned_alloc(64,4096*8);
  enum{NV=12}; const char*nm64[NV]={"loop","exact","i64v0","i64v1","i64v1b","i64v2","rbw","rbwpf","i64v3","i64v4","i64g1","i64v4l1"};
  const char*nm32[NV]={"loop","exact","i32s1","i32s2","i32s4","fastf32",0,0,0,0,0,0};
  const char**nm=dt==SL_F64?nm64:nm32; double *tm=calloc(NV*reps,8); volatile double sink; volatile uint64_t sk;
  for(int r=-1;r<reps;r++) for(int v=0;v<NV&&nm[v];v++){
    double t=wall();
    if(v==0) sink = dt==SL_F64?loop64(x,n):loop32(x,n);
    else if(v==1){ sl_exact_reset(acc); sl_exact_add(acc,x,n,dt); sink=sl_exact_round(acc,dt);}
    else if(dt==SL_F64&&(v==6||v==7)) sk=rbw(x,n,v==7);
    else if(dt==SL_F64&&(v==8||v==9)){ uint64_t (*f)(uint64_t*,const unsigned char*,uint64_t)= v==8?i64v3:i64v4; uint64_t o=0; for(uint64_t i=0;i<n;i+=1<<20){ memset(c,0,4096*8); o+=f(c,(const unsigned char*)x+8*i,n-i<(1<<20)?n-i:(1<<20)); } sk=o; }
    else if(dt==SL_F64&&v==11){ uint64_t o=0; for(uint64_t i=0;i<n;i+=1<<20){ memset(c,0,4096*8); o+=i64g2(c,(const unsigned char*)x+8*i,n-i<(1<<20)?n-i:(1<<20)); } sk=o; }
    else if(dt==SL_F64&&v>=10){ uint64_t (*f)(uint64_t*,const unsigned char*,uint64_t)= v==10?i64g1:i64g2; const uint64_t R = v==10?512:128;
        for(uint64_t i=0;i<n;i+=R){ if(!(i&((1<<18)-1))) memset(c,0,4096*8); sk=f(c,(const unsigned char*)x+8*i,n-i<R?n-i:R);} }
    else if(dt==SL_F64){ uint64_t (*f)(uint64_t*,const unsigned char*,uint64_t)= v==2?i64v0:v==3?i64v1:v==4?i64v1b:i64v2;
        for(uint64_t i=0;i<n;i+=1024){ if(!(i&((1<<18)-1))) memset(c,0,4096*8); sk=f(c,(const unsigned char*)x+8*i,n-i<1024?n-i:1024);} }
    else if(v==5){ fast_bins*fb=aligned_alloc(64,sizeof *fb); sl_exact_reset(acc); for(uint64_t i=0;i<n;i+=FAST32_BLOCK) fast_f32(acc,fb,(const unsigned char*)x+4*i,n-i<FAST32_BLOCK?n-i:FAST32_BLOCK); free(fb);}
    else { void (*f)(uint64_t*,const unsigned char*,uint64_t)= v==2?i32s1:v==3?i32s2:i32s4;
        for(uint64_t i=0;i<n;i+=131072){ memset(c,0,2048*8); f(c,(const unsigned char*)x+4*i,n-i<131072?n-i:131072);} }
    t=wall()-t; if(r>=0) tm[v*reps+r]=t;
  }
  double med[NV];
  for(int v=0;v<NV&&nm[v];v++){ qsort(tm+v*reps,reps,8,cmpd); med[v]=tm[v*reps+reps/2]; }
  printf("%s %s n=%llu PF=%d:", argv[1], argv[2], (unsigned long long)n, PF);
  for(int v=0;v<NV&&nm[v];v++) printf("  %s %.3f (%.3f)", nm[v], med[v]/n*1e9, med[0]/med[v]);
  printf("\n"); return 0; }
