/* A CPU stand-in for the CUDA runtime, for checking polyc's CUDA output
 * without a GPU (tests/cuda.rs; docs/cuda.md, "Checking without a GPU").
 *
 * The test compiles a generated .cu file as C++ with this header included
 * first, after rewriting each launch `K<<<G, B>>>(args);` into
 * `polyc_shim::launch(G, B, [&] { K(args); });`. A launch runs its blocks
 * one after another, the last block first; each block runs its threads as
 * fibers (ucontext) on one OS thread, the last thread first, each until it
 * reaches `__syncthreads()` or ends; a barrier is passed when every thread
 * of the block has reached it. Running blocks and threads backwards, a
 * mapped loop that carries a dependence forwards (the order a wrong
 * mapping relies on) changes the output, and a barrier some threads of a
 * block never reach is reported (the program exits 3). Device memory is
 * host memory. */
#ifndef POLYC_CUDA_SHIM_H
#define POLYC_CUDA_SHIM_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <ucontext.h>
#include <vector>

#define __global__
#define __device__
#define __host__
/* A block's shared memory: one variable for all the fibers of the block
 * running (blocks run one after another). */
#define __shared__ static

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

enum cudaError_t { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };

inline cudaError_t cudaMalloc(void **p, size_t bytes) {
  *p = std::malloc(bytes ? bytes : 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind) {
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void *p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline const char *cudaGetErrorString(cudaError_t) { return "(CPU shim)"; }

namespace polyc_shim {

struct Fiber {
  ucontext_t context;
  std::unique_ptr<char[]> stack; /* uninitialised: only the fiber writes it */
  dim3 thread;
  bool done = false;
};

struct Block {
  ucontext_t scheduler;
  std::vector<Fiber> fibers;
  size_t count = 0; /* the threads of the launch running: fibers[0, count) */
  Fiber *current = nullptr;
  const std::function<void()> *body = nullptr;
};

inline dim3 grid_dim, block_dim, block_idx;
inline Block *block = nullptr;
/* The fibers, kept from launch to launch. */
inline Block pool;
constexpr size_t stack_bytes = 64 * 1024;

inline void fiber_main() {
  (*block->body)();
  block->current->done = true;
  swapcontext(&block->current->context, &block->scheduler);
}

inline void sync() {
  if (block == nullptr || block->current == nullptr) {
    return;
  }
  swapcontext(&block->current->context, &block->scheduler);
}

inline void run_block(Block &b) {
  // Rounds: every thread not done runs to its next barrier or its end.
  for (;;) {
    size_t at_barrier = 0, running = 0;
    for (size_t k = b.count; k-- > 0;) {
      Fiber &f = b.fibers[k];
      if (f.done) {
        continue;
      }
      b.current = &f;
      swapcontext(&b.scheduler, &f.context);
      b.current = nullptr;
      running++;
      if (!f.done) {
        at_barrier++;
      }
    }
    if (running == 0 || at_barrier == 0) {
      return;
    }
    if (at_barrier != running) {
      std::fprintf(stderr, "polyc CUDA shim: some threads of block (%u, %u, %u) ended without reaching a __syncthreads() the others wait at\n",
                   block_idx.x, block_idx.y, block_idx.z);
      std::exit(3);
    }
  }
}

inline void launch(dim3 grid, dim3 threads, const std::function<void()> &kernel) {
  grid_dim = grid;
  block_dim = threads;
  Block &b = pool;
  b.body = &kernel;
  size_t count = (size_t)threads.x * threads.y * threads.z;
  if (b.fibers.size() < count) {
    b.fibers.resize(count);
  }
  b.count = count;
  for (unsigned bz = grid.z; bz-- > 0;)
    for (unsigned by = grid.y; by-- > 0;)
      for (unsigned bx = grid.x; bx-- > 0;) {
        block_idx = dim3(bx, by, bz);
        size_t k = 0;
        for (unsigned tz = 0; tz < threads.z; tz++)
          for (unsigned ty = 0; ty < threads.y; ty++)
            for (unsigned tx = 0; tx < threads.x; tx++, k++) {
              Fiber &f = b.fibers[k];
              if (!f.stack) {
                f.stack.reset(new char[stack_bytes]);
              }
              f.thread = dim3(tx, ty, tz);
              f.done = false;
              getcontext(&f.context);
              f.context.uc_stack.ss_sp = f.stack.get();
              f.context.uc_stack.ss_size = stack_bytes;
              f.context.uc_link = nullptr;
              makecontext(&f.context, fiber_main, 0);
            }
        block = &b;
        run_block(b);
        block = nullptr;
      }
}

} // namespace polyc_shim

#define gridDim (polyc_shim::grid_dim)
#define blockDim (polyc_shim::block_dim)
#define blockIdx (polyc_shim::block_idx)
#define threadIdx (polyc_shim::block->current->thread)
#define __syncthreads() polyc_shim::sync()

#endif
