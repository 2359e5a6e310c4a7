//===- MonoidDialect.td - the monoid dialect ---------------*- tablegen -*-===//
#ifndef MONOID_DIALECT
#define MONOID_DIALECT

include "mlir/IR/OpBase.td"

def Monoid_Dialect : Dialect {
  let name = "monoid";
  let summary = "Reductions over (twisted) monoid carriers: the top level of attncc";
  let description = [{
    The `monoid` dialect states a reduction by its algebra rather than by its
    shape. A **carrier** (`#monoid.carrier`) names the state channels, each with
    a combine (`max` or `add`), its identity, and an optional **twist**: a channel
    `add twist(m)` holds values in units of `exp(m)` of the `max` channel `m`, and
    is rescaled by `exp(m_old - m_new)` whenever `m` moves. Attention's online
    softmax-weighted sum is `(m: max, d: add twist(m), o: add twist(m))`,
    logsumexp is `(m: max, d: add twist(m))`, a sum is `(s: add)`.

    `monoid.reduce` folds a **lift** region (element index j -> one state) over a
    range with a carrier; `monoid.contract` is the sum-of-products cell that
    `atomize` later maps onto tensor cores; `monoid.project` is the final map of
    the state (`o / d`); `monoid.combine` merges two states; `monoid.identity`
    is the carrier's identity state. Passes dispatch on the carrier algebra and
    read their knobs from `#monoid.schedule` only.
  }];
  let cppNamespace = "::mlir::monoid";
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class Monoid_Op<string mnemonic, list<Trait> traits = []> :
    Op<Monoid_Dialect, mnemonic, traits>;

#endif // MONOID_DIALECT
