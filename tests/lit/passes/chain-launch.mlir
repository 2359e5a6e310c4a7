// RUN: attncc-opt %s -split-input-file -attncc-chain-launch -verify-diagnostics | FileCheck %s

// LAUNCH=pdl over a split's two kernels: the parts let the combine be
// scheduled early (launch_dependents first thing); the combine waits first
// thing; its launch is marked programmatic for the contract.

// CHECK-LABEL: func.func @attention
// CHECK: gpu.launch_func @attention_parts_module::@attention_parts
// CHECK-NOT: attncc.programmatic
// CHECK-SAME: {{$}}
// CHECK: gpu.launch_func @attention_combine_module::@attention_combine {{.*}} {attncc.programmatic}
// CHECK: gpu.func @attention_parts() kernel {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NOT: griddepcontrol
// CHECK: gpu.func @attention_combine() kernel {
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: gpu.return
module attributes {gpu.container_module} {
  func.func @attention() attributes {attncc.schedule = #monoid.schedule<"REDUCE@kv=g2k,LAUNCH=pdl">} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @attention_parts_module::@attention_parts blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @attention_combine_module::@attention_combine blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @attention_parts_module {
    gpu.func @attention_parts() kernel {
      gpu.return
    }
  }
  gpu.module @attention_combine_module {
    gpu.func @attention_combine() kernel {
      gpu.return
    }
  }
}

// -----

// Three kernels: the middle one waits, then lets the last start.

// CHECK-LABEL: func.func @three
// CHECK: gpu.func @k1() kernel {
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
module attributes {gpu.container_module} {
  func.func @three() attributes {attncc.schedule = #monoid.schedule<"PLACE@fold=cut,LAUNCH=pdl">} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k0_module::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k1_module::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k2_module::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @k0_module {
    gpu.func @k0() kernel {
      gpu.return
    }
  }
  gpu.module @k1_module {
    gpu.func @k1() kernel {
      gpu.return
    }
  }
  gpu.module @k2_module {
    gpu.func @k2() kernel {
      gpu.return
    }
  }
}

// -----

// Without LAUNCH=pdl nothing changes.

// CHECK-LABEL: func.func @serial
// CHECK-NOT: griddepcontrol
// CHECK-NOT: attncc.programmatic
module attributes {gpu.container_module} {
  func.func @serial() attributes {attncc.schedule = #monoid.schedule<"REDUCE@kv=g2k">} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a_module::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @b_module::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @a_module {
    gpu.func @a() kernel {
      gpu.return
    }
  }
  gpu.module @b_module {
    gpu.func @b() kernel {
      gpu.return
    }
  }
}

// -----

// LAUNCH=pdl with one kernel is an error (validate refuses it first).
module attributes {gpu.container_module} {
  // expected-error @+1 {{attncc-chain-launch: LAUNCH=pdl needs a schedule of two or more kernels, this one launches 1}}
  func.func @one() attributes {attncc.schedule = #monoid.schedule<"LAUNCH=pdl">} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a_module::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @a_module {
    gpu.func @a() kernel {
      gpu.return
    }
  }
}
