// Every verifier diagnostic of the monoid dialect, and the knob codec's
// messages as they reach a .mlir file through #monoid.schedule<"...">.
// RUN: attncc-opt %s -split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// #monoid.carrier: parse
//===----------------------------------------------------------------------===//

// expected-error@+1 {{channel 'm': unknown combine 'min'; expected max or add}}
#c = #monoid.carrier<m: min(-inf)>

// -----

// expected-error@+1 {{channel 'm': the identity of max is -inf}}
#c = #monoid.carrier<m: max(0)>

// -----

// expected-error@+1 {{channel 'd': the identity of add is 0}}
#c = #monoid.carrier<m: max(-inf), d: add(-inf) twist(m)>

// -----

// expected-error@+1 {{channel 's': the identity of add is 0}}
#c = #monoid.carrier<s: add(1)>

// -----

// expected-error@+1 {{channel 'd' is twisted by unknown channel 'x'}}
#c = #monoid.carrier<m: max(-inf), d: add(0) twist(x)>

// -----

//===----------------------------------------------------------------------===//
// #monoid.carrier: verify
//===----------------------------------------------------------------------===//

// expected-error@+1 {{carrier channel 'm' is declared twice}}
#c = #monoid.carrier<m: max(-inf), m: add(0)>

// -----

// expected-error@+1 {{carrier channel 'm': only add channels can be twisted, this one is max}}
#c = #monoid.carrier<m: max(-inf) twist(m)>

// -----

// expected-error@+1 {{carrier channel 'd' is twisted by 's', which is an add channel; a twist must name a max channel}}
#c = #monoid.carrier<s: add(0), d: add(0) twist(s)>

// -----

// Channel names are identifiers, quoted or not: they become SSA and C++ names.
// expected-error@+1 {{carrier channel name 'a b' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
#c = #monoid.carrier<"a b": add(0)>

// -----

// expected-error@+1 {{carrier channel name '' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
#c = #monoid.carrier<"": add(0)>

// -----

// expected-error@+1 {{carrier channel name '1x' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
#c = #monoid.carrier<"1x": add(0)>

// -----

// A bare keyword may hold a '.', which is not an identifier character.
func.func @channel_name_dot() -> f32 {
  // expected-error@+1 {{carrier channel name 'm.x' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
  %a = monoid.identity <m.x: add(0)> : f32
  return %a : f32
}

// -----

//===----------------------------------------------------------------------===//
// State types (shared by reduce, project, combine, identity)
//===----------------------------------------------------------------------===//

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @identity_count() {
  // expected-error@+1 {{'monoid.identity' op result has 1 values but the carrier has 2 channels}}
  %m = monoid.identity #md : f32
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @max_channel_vector() {
  // expected-error@+1 {{'monoid.identity' op channel 'm' combines by max and must be a scalar float, got 'vector<4xf32>'}}
  %m, %d = monoid.identity #md : vector<4xf32>, f32
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @add_channel_int() {
  // expected-error@+1 {{'monoid.identity' op channel 'd' must be a float or a vector of floats, got 'i32'}}
  %m, %d = monoid.identity #md : f32, i32
  return
}

// -----

//===----------------------------------------------------------------------===//
// monoid.reduce
//===----------------------------------------------------------------------===//

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @reduce_empty_axis(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op needs a non-empty axis name}}
  %m, %d = monoid.reduce "" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj, %xj : f32, f32
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @reduce_lift_arg_not_index(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op lift region must take exactly one 'index' argument (the element index)}}
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: i32):
    %one = arith.constant 1.0 : f32
    monoid.yield %one, %one : f32, f32
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @reduce_lift_two_args(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op lift region must take exactly one 'index' argument (the element index)}}
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index, %k: index):
    %one = arith.constant 1.0 : f32
    monoid.yield %one, %one : f32, f32
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @reduce_state_count(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op result has 1 values but the carrier has 2 channels}}
  %m = monoid.reduce "kv" %c0 to %n carrier #md : f32 {
  ^bb0(%j: index):
    %one = arith.constant 1.0 : f32
    monoid.yield %one : f32
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @reduce_yield_mismatch(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op lift yields ('f32', 'f16') but the reduce produces ('f32', 'f32')}}
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index):
    %one = arith.constant 1.0 : f32
    %h = arith.constant 1.0 : f16
    monoid.yield %one, %h : f32, f16
  }
  return
}

// -----

// The generic form can end the lift in another terminator.
#s = #monoid.carrier<s: add(0)>
func.func @reduce_lift_not_yield(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op lift region must end in monoid.yield}}
  %r = "monoid.reduce"(%c0, %n) <{axis = "n", carrier = #s}> ({
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    "func.return"(%xj) : (f32) -> ()
  }) : (index, index) -> f32
  return %r : f32
}

// -----

//===----------------------------------------------------------------------===//
// monoid.yield
//===----------------------------------------------------------------------===//

func.func @yield_outside(%a: f32) {
  // expected-error@+1 {{'monoid.yield' op expects parent op to be one of 'monoid.reduce, monoid.project'}}
  monoid.yield %a : f32
}

// -----

//===----------------------------------------------------------------------===//
// monoid.contract
//===----------------------------------------------------------------------===//

func.func @contract_shapes(%a: vector<64xf16>, %b: vector<32xf16>) -> f32 {
  // expected-error@+1 {{'monoid.contract' op operand shapes differ: 'vector<64xf16>' vs 'vector<32xf16>'}}
  %s = monoid.contract %a, %b : vector<64xf16>, vector<32xf16> -> f32
  return %s : f32
}

// -----

func.func @contract_narrow_acc(%a: vector<8xf32>, %b: vector<8xf32>) -> f16 {
  // expected-error@+1 {{'monoid.contract' op accumulator 'f16' is narrower than the operands}}
  %s = monoid.contract %a, %b : vector<8xf32>, vector<8xf32> -> f16
  return %s : f16
}

// -----

func.func @contract_rank2(%a: vector<2x8xf16>, %b: vector<2x8xf16>) -> f32 {
  // expected-error@+1 {{'monoid.contract' op operand #0 must be vector of floating-point values of ranks 1}}
  %s = monoid.contract %a, %b : vector<2x8xf16>, vector<2x8xf16> -> f32
  return %s : f32
}

// -----

//===----------------------------------------------------------------------===//
// monoid.project
//===----------------------------------------------------------------------===//

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @project_state_count(%m: f32) -> f32 {
  // expected-error@+1 {{'monoid.project' op state has 1 values but the carrier has 2 channels}}
  %r = monoid.project %m carrier #md : f32 -> f32 {
  ^bb0(%pm: f32):
    monoid.yield %pm : f32
  }
  return %r : f32
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @project_args(%m: f32, %d: f32) -> f32 {
  // expected-error@+1 {{'monoid.project' op body arguments must match the state types}}
  %r = monoid.project %m, %d carrier #md : f32, f32 -> f32 {
  ^bb0(%pm: f32):
    monoid.yield %pm : f32
  }
  return %r : f32
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @project_yield(%m: f32, %d: f32) -> f32 {
  // expected-error@+1 {{'monoid.project' op body yields ('f32', 'f32') but the op produces ('f32')}}
  %r = monoid.project %m, %d carrier #md : f32, f32 -> f32 {
  ^bb0(%pm: f32, %pd: f32):
    monoid.yield %pm, %pd : f32, f32
  }
  return %r : f32
}

// -----

// The generic form can end the body in another terminator.
#s = #monoid.carrier<s: add(0)>
func.func @project_not_yield(%a: f32) -> f32 {
  // expected-error@+1 {{'monoid.project' op body must end in monoid.yield}}
  %r = "monoid.project"(%a) <{carrier = #s}> ({
  ^bb0(%pa: f32):
    "func.return"(%pa) : (f32) -> ()
  }) : (f32) -> f32
  return %r : f32
}

// -----

// The custom form cannot write `->` with no types; the generic form can.
#s = #monoid.carrier<s: add(0)>
func.func @project_no_results(%a: f32) {
  // expected-error@+1 {{'monoid.project' op must produce at least one value}}
  "monoid.project"(%a) <{carrier = #s}> ({
  ^bb0(%pa: f32):
    monoid.yield
  }) : (f32) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// monoid.combine
//===----------------------------------------------------------------------===//

// The custom form shares one type list; the generic form can disagree.
#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @combine_types(%m0: f32, %d0: f32, %m1: f32, %d1: f16) {
  // expected-error@+1 {{'monoid.combine' op lhs, rhs and results must have the same types}}
  %r:2 = "monoid.combine"(%m0, %d0, %m1, %d1) {carrier = #md, operandSegmentSizes = array<i32: 2, 2>}
      : (f32, f32, f32, f16) -> (f32, f32)
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
func.func @combine_count(%m0: f32, %m1: f32) {
  // expected-error@+1 {{'monoid.combine' op state has 1 values but the carrier has 2 channels}}
  %r = monoid.combine #md (%m0), (%m1) : f32
  return
}

// -----

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
func.func @combine_max_vector(%a: vector<4xf32>, %b: vector<4xf32>) {
  // expected-error@+1 {{'monoid.combine' op channel 'm' combines by max and must be a scalar float, got 'vector<4xf32>'}}
  %r:3 = monoid.combine #mdo (%a, %a, %a), (%b, %b, %b) : vector<4xf32>, vector<4xf32>, vector<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// #monoid.schedule: the knob codec's messages (knob, value, what is allowed)
//===----------------------------------------------------------------------===//

// expected-error@+1 {{knob string: 'FOO' is not allowed; expected a family among TILE, STAGE, REDUCE, PLACE, WSPEC, EXP, RESCALE, ACC, GRID, OVERLAP, REPACK, HOIST}}
#s = #monoid.schedule<"FOO@kv=1">

// -----

// expected-error@+1 {{knob TILE: 'TILE' is not allowed; expected TILE@<axis> (this family needs an axis, e.g. TILE@kv)}}
#s = #monoid.schedule<"TILE=n4/f1">

// -----

// expected-error@+1 {{knob string: 'TILE@kv' is not allowed; expected FAMILY[@axis]=value (this item has no '=')}}
#s = #monoid.schedule<"TILE@kv">

// -----

// expected-error@+1 {{knob string: ',' is not allowed; expected FAMILY[@axis]=value items separated by single commas (trailing comma)}}
#s = #monoid.schedule<"TILE@kv=n4/f1,">

// -----

// expected-error@+1 {{knob string: 'TILE@kv=n4 /f1' is not allowed; expected no spaces or control characters anywhere in a knob string}}
#s = #monoid.schedule<"TILE@kv=n4 /f1">

// -----

// expected-error@+1 {{knob TILE@kv: 'n8/f1' is not allowed; expected TILE@kv at most once (it was given twice)}}
#s = #monoid.schedule<"TILE@kv=n4/f1,TILE@kv=n8/f1">

// -----

// expected-error@+1 {{knob TILE@kv: 'a:mma_m16n8k8_f16' is not allowed; expected a:<atom> with <atom> one of mma_m16n8k16_}}
#s = #monoid.schedule<"TILE@kv=a:mma_m16n8k8_f16/w4x1/f2x8/k4">

// -----

// expected-error@+1 {{knob TILE@kv: 'w4x8' is not allowed; expected w<WM>x<WN> with WM, WN >= 1 and WM*WN <= 16 (at most 16 warps per CTA) as the second token}}
#s = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x8/f2x8/k4">

// -----

// expected-error@+1 {{knob TILE@kv: 'a:mma_m16n8k16_f16/w4x1' is not allowed; expected a:<atom>/w<WM>x<WN>/f<FM>x<FN>/k<bk> (all four tokens; f<FM>x<FN> is missing)}}
#s = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1">

// -----

// expected-error@+1 {{knob TILE@kv: 'n0' is not allowed; expected n<N>[x<M>] with N, M in 1..1024}}
#s = #monoid.schedule<"TILE@kv=n0/f1">

// -----

// expected-error@+1 {{knob TILE@kv: 'k2' is not allowed; expected nothing after the last token; the form is exactly n<N>[x<M>]/f<fn>[x<fm>]}}
#s = #monoid.schedule<"TILE@kv=n4/f1/k2">

// -----

// expected-error@+1 {{knob STAGE@kv: 'd9' is not allowed; expected d<depth> with depth in 1..8 as the first token}}
#s = #monoid.schedule<"STAGE@kv=d9/tma">

// -----

// expected-error@+1 {{knob STAGE@kv: 'ring' is not allowed; expected ring only with depth >= 2 (a ring needs at least two stages; got d1)}}
#s = #monoid.schedule<"STAGE@kv=d1/tma/ring">

// -----

// expected-error@+1 {{knob STAGE@kv: 'swz128' is not allowed; expected swz128 only with cp or tma (with sync use pad)}}
#s = #monoid.schedule<"STAGE@kv=d2/sync/swz128">

// -----

// expected-error@+1 {{knob REDUCE@kv: 'g3' is not allowed; expected g3a or g3k (more than one group must combine by atomics a or a combine kernel k)}}
#s = #monoid.schedule<"REDUCE@kv=g3">

// -----

// expected-error@+1 {{knob REDUCE@kv: 'b3' is not allowed; expected b<n> with n one of 1, 2, 4, 8, 16, 32 (cooperative threads)}}
#s = #monoid.schedule<"REDUCE@kv=b3">

// -----

// expected-error@+1 {{knob REDUCE@kv: 'g2k' is not allowed; expected tokens in the order g<n>[a|k]/b<n>/r<n>, each at most once}}
#s = #monoid.schedule<"REDUCE@kv=r2/g2k">

// -----

// expected-error@+1 {{knob PLACE: 'PLACE' is not allowed; expected PLACE@fold (fold is the only PLACE axis)}}
#s = #monoid.schedule<"PLACE=cut">

// -----

// expected-error@+1 {{knob PLACE@fold: 'split' is not allowed; expected auto, fuse or cut}}
#s = #monoid.schedule<"PLACE@fold=split">

// -----

// expected-error@+1 {{knob WSPEC: 'load2' is not allowed; expected each role at most once (load was given twice)}}
#s = #monoid.schedule<"WSPEC=load1/load2">

// -----

// expected-error@+1 {{knob WSPEC: 'foo2' is not allowed; expected <role><n>/... with role one of load, mma, softmax, corr, epilogue (each at most once) and n in 1..16}}
#s = #monoid.schedule<"WSPEC=load1/foo2">

// -----

// expected-error@+1 {{knob WSPEC: 'WSPEC@kv' is not allowed; expected WSPEC without an axis}}
#s = #monoid.schedule<"WSPEC@kv=load1">

// -----

// expected-error@+1 {{knob EXP: 'poly9' is not allowed; expected libm, ex2 or poly<k> with k in 1..8}}
#s = #monoid.schedule<"EXP=poly9">

// -----

// expected-error@+1 {{knob RESCALE: 'lazy08' is not allowed; expected always or lazy<t> with t a non-negative decimal number such as 8, 8.0 or 0.5}}
#s = #monoid.schedule<"RESCALE=lazy08">

// -----

// expected-error@+1 {{knob ACC: 'f16' is not allowed; expected f32, f16x or f16x<s> (s k16 steps per promotion, 1 to 16)}}
#s = #monoid.schedule<"ACC=f16">

// -----

// expected-error@+1 {{knob GRID: 'row' is not allowed; expected tiles, lpt or persistent}}
#s = #monoid.schedule<"GRID=row">

// -----

// expected-error@+1 {{knob OVERLAP: 'qk' is not allowed; expected none, pv, wg, pv+wg or early}}
#s = #monoid.schedule<"OVERLAP=qk">

// -----

// A malformed schedule on an op is refused where it is written.
#s = #monoid.carrier<s: add(0)>
func.func @schedule_on_reduce(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{knob REDUCE@kv: 'g1k' is not allowed; expected g1 without a or k (one group has nothing to combine)}}
  %r = monoid.reduce "kv" %c0 to %n carrier #s schedule #monoid.schedule<"REDUCE@kv=g1k"> : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %r : f32
}

// -----

//===----------------------------------------------------------------------===//
// #monoid.fragment: parse
//===----------------------------------------------------------------------===//

// expected-error@+1 {{unknown fragment layout 'b.mn'; expected c, row, col, a, b.nk, b.kn or smem}}
func.func @f() attributes {attncc.layout = #monoid.fragment<b.mn>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// #monoid.staged: parse
//===----------------------------------------------------------------------===//

// expected-error@+1 {{unknown transport 'dma'; expected sync, cp or tma}}
func.func @f() attributes {attncc.stage = #monoid.staged<dma>} {
  return
}

// -----

// expected-error@+1 {{unknown arrangement 'swizzle'; expected pad or swz}}
func.func @f() attributes {attncc.stage = #monoid.staged<cp, swizzle>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// monoid.to_lanes / monoid.from_lanes
//===----------------------------------------------------------------------===//

func.func @lanes_no_layout(%s: vector<128x64xf32>) {
  // expected-error@+1 {{needs the tile's layout (attncc.layout: c, a, b.nk or b.kn)}}
  %l = monoid.to_lanes %s : vector<128x64xf32> to vector<2x8x2x2xf32>
  return
}

// -----

func.func @lanes_shape(%s: vector<128x64xf32>) {
  %c = arith.addf %s, %s {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
  // expected-error@+1 {{lanes 'vector<2x4x2x2xf32>' are not a thread's share of a 'vector<128x64xf32>' tile in layout 'c'}}
  %l = monoid.to_lanes %c : vector<128x64xf32> to vector<2x4x2x2xf32>
  return
}

// -----

func.func @lanes_type(%s: vector<128x64xf32>) {
  %c = arith.addf %s, %s {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
  // expected-error@+1 {{the tile 'vector<128x64xf32>' and its lanes 'vector<2x8x2x2xf16>' differ in element type}}
  %l = monoid.to_lanes %c : vector<128x64xf32> to vector<2x8x2x2xf16>
  return
}

// -----

// A row vector's lanes are the thread's rows: 2 per 16-row tile.
func.func @lanes_row(%s: vector<128xf32>) {
  %r = arith.addf %s, %s {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
  // expected-error@+1 {{lanes 'vector<2x2x2x2xf32>' are not a thread's rows of a 'vector<128xf32>' vector in layout 'row' (vector<2 fm>)}}
  %l = monoid.to_lanes %r : vector<128xf32> to vector<2x2x2x2xf32>
  return
}

// -----

func.func @lanes_row_odd(%s: vector<128xf32>) {
  %r = arith.addf %s, %s {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
  // expected-error@+1 {{lanes 'vector<3xf32>' are not a thread's rows of a 'vector<128xf32>' vector in layout 'row' (vector<2 fm>)}}
  %l = monoid.to_lanes %r : vector<128xf32> to vector<3xf32>
  return
}

// -----

func.func @lanes_col(%s: vector<64xf32>) {
  %r = arith.addf %s, %s {attncc.layout = #monoid.fragment<col>} : vector<64xf32>
  // expected-error@+1 {{layout 'col' has no lanes form (c, a, b.nk, b.kn, row, rowthread or rowhalf)}}
  %l = monoid.to_lanes %r : vector<64xf32> to vector<2x2x2x2xf32>
  return
}

// -----

// A rowthread tile's lanes are the thread's row: C elements, or C/2 pairs.
func.func @lanes_rowthread(%s: vector<128x64xf32>) {
  %r = arith.addf %s, %s {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
  // expected-error@+1 {{lanes 'vector<16x4xf32>' are not a thread's row of a 'vector<128x64xf32>' tile in layout 'rowthread' (vector<C> or vector<C/2 x 2>)}}
  %l = monoid.to_lanes %r : vector<128x64xf32> to vector<16x4xf32>
  return
}

// -----

func.func @from_lanes_rank(%l: vector<2x8x2x2xf32>) {
  // expected-error@+1 {{needs a 2-d tile and 4-d lanes [.., .., .., 2], not 'vector<128x64x1xf32>' and 'vector<2x8x2x2xf32>'}}
  %t = monoid.from_lanes %l {attncc.layout = #monoid.fragment<c>} : vector<2x8x2x2xf32> to vector<128x64x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// monoid.smem_descriptor / monoid.wgmma
//===----------------------------------------------------------------------===//

func.func @desc_global(%m: memref<2x128x64xf16>, %i: index) {
  // expected-error@+1 {{needs a memref in shared memory (workgroup address space), not 'memref<2x128x64xf16>'}}
  %d = monoid.smem_descriptor %m[%i, %i, %i] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<2x128x64xf16>
  return
}

// -----

func.func @desc_padded(%m: memref<128x72xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error@+1 {{needs a 128-byte swizzled slot [slabs, rows, 64] of 16-bit elements, not 'memref<128x72xf16, #gpu.address_space<workgroup>>'}}
  %d = monoid.smem_descriptor %m[%i, %i] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<128x72xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @desc_indices(%m: memref<2x128x64xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error@+1 {{needs 3 indices, not 2}}
  %d = monoid.smem_descriptor %m[%i, %i] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @desc_swizzle(%m: memref<2x128x64xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error@+1 {{swizzle must be 128 (bytes), not 64}}
  %d = monoid.smem_descriptor %m[%i, %i, %i] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 64 : i64} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @desc_sbo(%m: memref<2x128x64xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error@+1 {{stride_byte_offset must be 1024 (8 rows of 128 bytes), not 512}}
  %d = monoid.smem_descriptor %m[%i, %i, %i] {leading_byte_offset = 0 : i64, stride_byte_offset = 512 : i64, swizzle = 128 : i64} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @desc_lbo(%m: memref<2x128x64xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error@+1 {{leading_byte_offset must be a multiple of 16 below 2^18, not 100}}
  %d = monoid.smem_descriptor %m[%i, %i, %i] {leading_byte_offset = 100 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @wgmma_acc(%d: i64, %acc: memref<2x8x2x2xf32>) {
  // expected-error@+1 {{needs the accumulator as memref<1 x N/8 x 2 x 2 x f32>, not 'memref<2x8x2x2xf32>'}}
  monoid.wgmma %d, %d into %acc {operand_type = f16} : i64, memref<2x8x2x2xf32>
  return
}

// -----

func.func @wgmma_n(%d: i64, %acc: memref<1x40x2x2xf32>) {
  // expected-error@+1 {{N must be 8 to 256 (a multiple of 8), not 320}}
  monoid.wgmma %d, %d into %acc {operand_type = f16} : i64, memref<1x40x2x2xf32>
  return
}

// -----

func.func @wgmma_type(%d: i64, %acc: memref<1x8x2x2xf32>) {
  // expected-error@+1 {{operand_type must be f16 or bf16, not 'f32'}}
  monoid.wgmma %d, %d into %acc {operand_type = f32} : i64, memref<1x8x2x2xf32>
  return
}

// -----

func.func @wgmma_regs(%a: vector<4x2xf16>, %d: i64, %acc: memref<1x8x2x2xf32>) {
  // expected-error@+1 {{a register A operand must be 'vector<4x2xbf16>', not 'vector<4x2xf16>'}}
  monoid.wgmma %a, %d into %acc {operand_type = bf16} : vector<4x2xf16>, memref<1x8x2x2xf32>
  return
}

// -----

func.func @wgmma_a(%a: i32, %d: i64, %acc: memref<1x8x2x2xf32>) {
  // expected-error@+1 {{A must be a shared-memory descriptor (i64) or 'vector<4x2xf16>'}}
  monoid.wgmma %a, %d into %acc {operand_type = f16} : i32, memref<1x8x2x2xf32>
  return
}
