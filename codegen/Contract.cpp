//===- Contract.cpp - the launch contract of a bundle ---------------------===//
#include "codegen/Contract.h"

#include "ir/MonoidDialect.h"
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using json = nlohmann::json;

namespace attncc {
namespace {

const char *dtypeOf(Type t) {
  if (t.isF16()) return "f16";
  if (t.isBF16()) return "bf16";
  if (t.isF32()) return "f32";
  if (t.isInteger(32)) return "i32"; // a paged cache's block table and lengths
  return nullptr;
}

/// The symbol of monoid.resident_ctas in contract expressions.
constexpr const char *kResidentCtas = "resident_ctas";

/// Whether a contract expression (or a list of them: a grid) reads `sym`.
bool mentions(const json &e, const char *sym) {
  if (e.is_array())
    return std::any_of(e.begin(), e.end(), [&](const json &x) { return mentions(x, sym); });
  if (e.contains("sym"))
    return e["sym"] == sym;
  return e.contains("args") && mentions(e["args"], sym);
}

struct HostWalker {
  func::FuncOp host;
  DenseMap<Value, std::string> bufferNames;
  std::string error;

  /// The expression of an index value computed on the host.
  std::optional<json> expr(Value v) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return json{{"const", *c}};
    Operation *def = v.getDefiningOp();
    if (!def) {
      error = "a block argument of index type on the host";
      return std::nullopt;
    }
    // gauto's whole waves (monoid.resident_ctas): the runtime's symbol.
    if (isa<monoid::ResidentCtasOp>(def))
      return json{{"sym", kResidentCtas}};
    if (auto dim = dyn_cast<memref::DimOp>(def)) {
      std::optional<int64_t> k = dim.getConstantIndex();
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      if (!k || !arg) {
        error = "memref.dim of something other than a function argument";
        return std::nullopt;
      }
      return dimOfArg(arg, *k);
    }
    const char *op = llvm::TypeSwitch<Operation *, const char *>(def)
                         .Case<arith::AddIOp>([](auto) { return "add"; })
                         .Case<arith::SubIOp>([](auto) { return "sub"; })
                         .Case<arith::MulIOp>([](auto) { return "mul"; })
                         .Case<arith::CeilDivUIOp>([](auto) { return "ceildiv"; })
                         .Case<arith::DivUIOp>([](auto) { return "div"; })
                         .Case<arith::RemUIOp>([](auto) { return "rem"; })
                         .Case<arith::MinUIOp>([](auto) { return "min"; })
                         .Case<arith::MaxUIOp>([](auto) { return "max"; })
                         .Default([](Operation *) { return nullptr; });
    if (!op) {
      error = "host computation '" + def->getName().getStringRef().str() +
              "' has no contract expression";
      return std::nullopt;
    }
    json args = json::array();
    for (Value operand : def->getOperands()) {
      std::optional<json> e = expr(operand);
      if (!e)
        return std::nullopt;
      args.push_back(*e);
    }
    return json{{"op", op}, {"args", args}};
  }

  json dimOfArg(BlockArgument arg, int64_t k) {
    auto mt = cast<MemRefType>(arg.getType());
    if (!mt.isDynamicDim(k))
      return json{{"const", mt.getDimSize(k)}};
    auto dims = host.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), monoid::kDimsAttr);
    if (!dims || k >= (int64_t)dims.size())
      return json{{"sym", "?"}};
    return json{{"sym", cast<StringAttr>(dims[k]).getValue().str()}};
  }

  std::optional<json> shapeOf(Value buffer) {
    auto mt = cast<MemRefType>(buffer.getType());
    json shape = json::array();
    if (auto arg = dyn_cast<BlockArgument>(buffer)) {
      for (int64_t k = 0; k < mt.getRank(); ++k)
        shape.push_back(dimOfArg(arg, k));
      return shape;
    }
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    unsigned dyn = 0;
    for (int64_t k = 0; k < mt.getRank(); ++k) {
      if (!mt.isDynamicDim(k)) {
        shape.push_back(json{{"const", mt.getDimSize(k)}});
        continue;
      }
      std::optional<json> e = expr(alloc.getDynamicSizes()[dyn++]);
      if (!e)
        return std::nullopt;
      shape.push_back(*e);
    }
    return shape;
  }

  LogicalResult fail(Operation *op) {
    return op->emitError("the launch contract cannot express this: ") << error;
  }
};

} // namespace

LogicalResult writeContract(ModuleOp module, json &contract) {
  func::FuncOp host;
  module.walk([&](func::FuncOp f) {
    if (!host && !f->getParentOfType<gpu::GPUModuleOp>())
      host = f;
  });
  if (!host)
    return module.emitError("no host function to describe");
  HostWalker w{host, {}, {}};
  json buffers = json::array(), launches = json::array();

  for (BlockArgument arg : host.getArguments()) {
    auto mt = dyn_cast<MemRefType>(arg.getType());
    auto role = host.getArgAttrOfType<StringAttr>(arg.getArgNumber(), monoid::kRoleAttr);
    if (!mt || !role || !dtypeOf(mt.getElementType()))
      return host.emitError("argument ") << arg.getArgNumber()
                                         << " needs a memref of f16/bf16/f32/i32 and an attncc.role";
    w.bufferNames[arg] = role.getValue().str();
    buffers.push_back({{"name", role.getValue().str()}, {"role", role.getValue().str()},
                       {"dtype", dtypeOf(mt.getElementType())}, {"shape", *w.shapeOf(arg)}});
  }
  for (Operation &op : host.getBody().front()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::string name = "workspace" + std::to_string(buffers.size());
      if (auto n = dyn_cast<NameLoc>(alloc.getLoc()))
        name = n.getName().str();
      for (const json &b : buffers) // names are unique
        if (b["name"] == name)
          name += "_" + std::to_string(buffers.size());
      w.bufferNames[alloc.getResult()] = name;
      std::optional<json> shape = w.shapeOf(alloc.getResult());
      if (!shape)
        return w.fail(alloc);
      buffers.push_back({{"name", name}, {"role", "workspace"},
                         {"dtype", dtypeOf(alloc.getType().getElementType())}, {"shape", *shape}});
      // attncc-last-combine's arrival counters: zero before the first launch
      // (the runtime clears them once; every launch leaves them zero).
      if (alloc->hasAttr("attncc.zero_init"))
        buffers.back()["init"] = "zero";
      continue;
    }
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch)
      continue;
    json l;
    l["kernel"] = launch.getKernelName().getValue().str();
    for (auto [key, dims] : {std::pair{"grid", launch.getGridSizeOperandValues()},
                             std::pair{"block", launch.getBlockSizeOperandValues()}}) {
      json d = json::array();
      for (Value v : {dims.x, dims.y, dims.z}) {
        std::optional<json> e = w.expr(v);
        if (!e)
          return w.fail(launch);
        d.push_back(*e);
      }
      l[key] = d;
    }
    // Dynamic shared memory of a tiled kernel (attncc-atomize), else none.
    int64_t smem = 0;
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
    if (kernel)
      if (auto tile = kernel->getAttrOfType<DictionaryAttr>("attncc.tile"))
        if (auto b = tile.getAs<IntegerAttr>("smem"))
          smem = b.getInt();
    l["smem"] = smem;
    // LAUNCH=pdl (attncc-chain-launch): launched with programmatic stream
    // serialization after the kernel before it.
    if (launch->hasAttr("attncc.programmatic"))
      l["programmatic"] = true;
    // GRID=persistent (attncc-map-to-gpu): the grid counts the tiles; the
    // runner launches at most as many CTAs as the device holds at once,
    // and each loops over the tiles in strides of the grid.
    if (kernel && kernel->hasAttr("attncc.persistent"))
      l["persistent"] = true;
    json args = json::array();
    for (Value v : launch.getKernelOperands()) {
      if (isa<MemRefType>(v.getType())) {
        auto it = w.bufferNames.find(v);
        if (it == w.bufferNames.end())
          return launch.emitError("a kernel argument is a memref the contract does not know");
        args.push_back({{"buffer", it->second}});
      } else if (v.getType().isIndex()) {
        std::optional<json> e = w.expr(v);
        if (!e)
          return w.fail(launch);
        args.push_back({{"index", *e}});
      } else if (auto d = v.getDefiningOp<nvgpu::TmaCreateDescriptorOp>()) {
        // A TMA descriptor (attncc-lower-copies): the runtime encodes it for
        // the buffer, in boxes of rows x cols (the box's last two sizes; the
        // others are 1).
        auto cast = d.getTensor().getDefiningOp<memref::CastOp>();
        auto it = cast ? w.bufferNames.find(cast.getSource()) : w.bufferNames.end();
        auto box = d.getTensorMap().getType().getTensor().getShape();
        if (it == w.bufferNames.end() || box.size() < 2)
          return launch.emitError("a TMA descriptor of a memref the contract does not know");
        args.push_back({{"tmap", {{"buffer", it->second}, {"rows", box[box.size() - 2]}, {"cols", box.back()}}}});
      } else if (auto c = v.getDefiningOp<arith::ConstantOp>(); c && v.getType().isF32()) {
        args.push_back({{"f32", cast<FloatAttr>(c.getValue()).getValueAsDouble()}});
      } else {
        return launch.emitError("a kernel argument of type ") << v.getType()
                                                              << " has no contract form";
      }
    }
    l["args"] = args;
    launches.push_back(l);
  }
  contract["buffers"] = buffers;
  contract["launches"] = launches;
  // resident_ctas: the CTAs of the first kernel whose grid reads it (the
  // parts of a gauto split) that the device holds at once.
  bool resident = false;
  host.walk([&](monoid::ResidentCtasOp r) { resident = resident || !r->use_empty(); });
  if (resident) {
    auto it = std::find_if(launches.begin(), launches.end(),
                           [](const json &l) { return mentions(l["grid"], kResidentCtas); });
    if (it == launches.end())
      return host.emitError("the launch contract reads resident_ctas, but no kernel's grid does: "
                            "it names no kernel whose occupancy it is");
    contract[kResidentCtas] = {{"kernel", (*it)["kernel"]}};
  }
  return success();
}

} // namespace attncc
