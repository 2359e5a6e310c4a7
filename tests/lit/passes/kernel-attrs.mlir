// RUN: attncc-opt %s -split-input-file -attncc-kernel-attrs -verify-diagnostics | FileCheck %s

// The record attncc-map-to-gpu left on the host function goes onto the kernel.

// CHECK-LABEL: func.func @attention
// CHECK-NOT: attncc.kernel_attrs
// CHECK: gpu.func @attention_combine() kernel attributes {nvvm.minctasm = 1 : i32}
module attributes {gpu.container_module} {
  func.func @attention() attributes {attncc.kernel_attrs = {attention_combine = {nvvm.minctasm = 1 : i32}}} {
    return
  }
  gpu.module @attention_combine_module {
    gpu.func @attention_combine() kernel {
      gpu.return
    }
  }
}

// -----

// A record without its kernel is an error.
module attributes {gpu.container_module} {
  // expected-error @+1 {{attncc-kernel-attrs: no kernel "attention_gone" for its recorded attributes}}
  func.func @attention() attributes {attncc.kernel_attrs = {attention_gone = {nvvm.minctasm = 1 : i32}}} {
    return
  }
}
