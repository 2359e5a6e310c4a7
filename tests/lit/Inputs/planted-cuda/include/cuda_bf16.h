#error planted: these are not the CUDA headers
