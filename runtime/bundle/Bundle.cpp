//===- Bundle.cpp - load and run a compiled bundle (no MLIR) --------------===//
#include "runtime/bundle/Bundle.h"

#include "runtime/bundle/GpuReference.h"
#include "runtime/driver/Driver.h"
#include "runtime/driver/DriverApi.h"
#include "runtime/nvrtc/Nvrtc.h"
#include "runtime/problem/Reference.h"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <fstream>
#include <sstream>

using json = nlohmann::json;

namespace attncc::bundle {

namespace {

std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Extent *extentOf(Problem &p, const std::string &name) {
  if (name == "batch") return &p.batch;
  if (name == "seq_q") return &p.seq_q;
  if (name == "seq_k") return &p.seq_k;
  return nullptr;
}

std::optional<int64_t> symbol(const std::string &s, const Problem &p, const Inputs *in,
                              std::optional<int64_t> residentCtas) {
  if (s == "1") return 1;
  if (s == "resident_ctas") return residentCtas;
  if (s == "batch") return p.batch.value;
  if (s == "batch_plus_1" && p.varlen) return p.batch.value + 1;
  if (s == "total_q" && p.varlen && in && !in->cu_seqlens_q.empty()) return in->cu_seqlens_q.back();
  if (s == "total_k" && p.varlen && in && !in->cu_seqlens_k.empty()) return in->cu_seqlens_k.back();
  if (s == "heads_q") return p.heads_q;
  if (s == "heads_kv") return p.heads_kv;
  if (s == "seq_q") return p.seq_q.value;
  if (s == "seq_k") return p.seq_k.value;
  if (s == "head_dim") return p.head_dim;
  if (s == "page_size" && p.paged()) return p.page_size;
  if (s == "max_pages" && p.paged()) return p.maxPages();
  if (s == "num_pages" && p.paged()) return p.cachePages();
  return std::nullopt;
}

int64_t elements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

DType dtypeFrom(const std::string &s) {
  return s == "f16" ? DType::F16 : s == "bf16" ? DType::BF16 : DType::F32;
}

} // namespace

std::optional<Bundle> load(const std::string &dir, std::string &err) {
  Bundle b;
  b.dir = dir;
  std::optional<std::string> text = readFile(dir + "/contract.json");
  if (!text) {
    err = "cannot read " + dir + "/contract.json";
    return std::nullopt;
  }
  b.contract = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (b.contract.is_discarded() || b.contract.value("format", "") != "attncc-bundle-1") {
    err = dir + "/contract.json: not an attncc-bundle-1 contract";
    return std::nullopt;
  }
  for (const char *key : {"problem", "target", "buffers", "launches", "source"})
    if (!b.contract.contains(key)) {
      err = dir + "/contract.json: missing key '" + key + "'";
      return std::nullopt;
    }
  std::optional<std::string> src = readFile(dir + "/" + b.contract["source"].get<std::string>());
  if (!src) {
    err = "cannot read " + dir + "/" + b.contract["source"].get<std::string>();
    return std::nullopt;
  }
  b.source = *src;
  // "init": "zero" (REDUCE@<axis>=g<n>a's arrival counters) only on an i32
  // workspace: the runner clears it once and checks it zero after the runs.
  for (const json &jb : b.contract["buffers"])
    if (jb.contains("init") &&
        (jb["init"] != "zero" || jb.value("role", "") != "workspace" || jb.value("dtype", "") != "i32")) {
      err = dir + "/contract.json: buffer " + jb.value("name", "?") + ": init = " + jb["init"].dump() +
            " is not allowed; expected \"zero\" on an i32 workspace (arrival counters)";
      return std::nullopt;
    }
  // "resident_ctas": {"kernel": K} (gauto's waves) names a launched kernel.
  if (b.contract.contains("resident_ctas")) {
    const json &r = b.contract["resident_ctas"];
    std::string k = r.is_object() && r.contains("kernel") && r["kernel"].is_string() ? r["kernel"].get<std::string>() : "";
    bool launched = std::any_of(b.contract["launches"].begin(), b.contract["launches"].end(),
                                [&](const json &l) { return l.value("kernel", "") == k; });
    if (k.empty() || !launched) {
      err = dir + "/contract.json: resident_ctas = " + r.dump() +
            " is not allowed; expected {\"kernel\": K} with K one of the launched kernels";
      return std::nullopt;
    }
  }
  ProblemError perr;
  std::optional<Problem> p = problemFromJson(b.contract["problem"].dump(), perr);
  if (!p) {
    err = dir + "/contract.json: problem: " + perr.message();
    return std::nullopt;
  }
  b.problem = *p;
  return b;
}

bool setSize(Bundle &b, const std::string &assignment, std::string &err) {
  size_t eq = assignment.find('=');
  std::string name = assignment.substr(0, eq);
  Extent *e = extentOf(b.problem, name);
  if (eq == std::string::npos || !e) {
    err = "invalid --set = '" + assignment + "': expected batch=N, seq_q=N or seq_k=N";
    return false;
  }
  if (!e->symbolic) {
    err = "invalid --set = '" + assignment + "': " + name +
          " is not symbolic in this bundle (compile with ?); its kernel is specialized";
    return false;
  }
  char *end = nullptr;
  long long v = std::strtoll(assignment.c_str() + eq + 1, &end, 10);
  if (*end != '\0' || v < 1) {
    err = "invalid --set = '" + assignment + "': the size must be an integer >= 1";
    return false;
  }
  e->value = v;
  return true;
}

std::optional<int64_t> eval(const json &e, const Problem &p, std::string &err, const Inputs *in,
                            std::optional<int64_t> residentCtas) {
  if (e.contains("const"))
    return e["const"].get<int64_t>();
  if (e.contains("sym")) {
    std::string s = e["sym"].get<std::string>();
    std::optional<int64_t> v = symbol(s, p, in, residentCtas);
    if ((!v || *v <= 0) && s == "resident_ctas")
      err = "the size 'resident_ctas' is the device's (the CTAs of one kernel it holds at once): "
            "it is known only where the bundle runs on a GPU";
    else if (!v || *v <= 0)
      err = "the size '" + s + "' is unknown (symbolic without a value: use --set)";
    return v && *v > 0 ? v : std::nullopt;
  }
  std::string op = e.value("op", "");
  const json &args = e["args"];
  std::optional<int64_t> a = eval(args[0], p, err, in, residentCtas), b = eval(args[1], p, err, in, residentCtas);
  if (!a || !b)
    return std::nullopt;
  uint64_t x = uint64_t(*a), y = uint64_t(*b);
  if ((op == "div" || op == "rem" || op == "ceildiv") && y == 0) {
    err = "division by zero in a contract expression";
    return std::nullopt;
  }
  if (op == "add") return int64_t(x + y);
  if (op == "sub") return int64_t(x - y);
  if (op == "mul") return int64_t(x * y);
  if (op == "div") return int64_t(x / y);
  if (op == "rem") return int64_t(x % y);
  if (op == "ceildiv") return int64_t((x + y - 1) / y);
  if (op == "min") return int64_t(std::min(x, y));
  if (op == "max") return int64_t(std::max(x, y));
  err = "unknown contract operation '" + op + "'";
  return std::nullopt;
}

namespace {
/// Binding strength of an infix operation (0: a call or a leaf).
int precedence(const json &e) {
  std::string op = e.value("op", "");
  if (op == "add" || op == "sub") return 1;
  if (op == "mul" || op == "div" || op == "rem") return 2;
  return 0;
}
} // namespace

std::string exprText(const json &e) {
  if (e.contains("const"))
    return std::to_string(e["const"].get<int64_t>());
  if (e.contains("sym"))
    return e["sym"].get<std::string>();
  std::string op = e.value("op", "?");
  const json &args = e["args"];
  if (op == "ceildiv")
    return "ceil(" + exprText(args[0]) + " / " + exprText(args[1]) + ")";
  static const std::map<std::string, std::string> infix = {
      {"add", " + "}, {"sub", " - "}, {"mul", " * "}, {"div", " / "}, {"rem", " % "}};
  auto it = infix.find(op);
  if (it == infix.end()) // min, max (and any other: as a call)
    return op + "(" + exprText(args[0]) + ", " + exprText(args[1]) + ")";
  // Left-associative: an operand binding less strongly needs parentheses, and
  // so does a right operand of equal strength unless the operation is + or *.
  int p = precedence(e);
  auto side = [&](const json &a, bool right) {
    int q = precedence(a);
    bool paren = q != 0 && (q < p || (right && q == p && op != "add" && op != "mul"));
    return paren ? "(" + exprText(a) + ")" : exprText(a);
  };
  return side(args[0], false) + it->second + side(args[1], true);
}

namespace {

/// The input values of a buffer's role, or null for outputs, workspaces and
/// the int32 inputs (Inputs::indexInput). K and V of a paged problem are its cache.
const std::vector<float> *inputFor(const std::string &role, const Inputs &in) {
  bool paged = !in.kv_lens.empty(), varlen = !in.cu_seqlens_q.empty();
  if (role == "q" || role == "x")
    return varlen ? &in.q_packed : &in.q;
  if (role == "k")
    return paged ? &in.k_cache : varlen ? &in.k_packed : &in.k;
  if (role == "v")
    return paged ? &in.v_cache : varlen ? &in.v_packed : &in.v;
  if (role == "bias")
    return &in.bias;
  return nullptr;
}

struct Buffer {
  std::string name, role;
  DType dtype;
  bool i32 = false; // an int32 input (contract dtype "i32"); dtype is unused
  std::vector<int64_t> shape;
  std::vector<bool> dynamic; // per dimension: passed to kernels as a size
  bool zeroed = false;       // a workspace the kernels leave zero (contract init "zero": counters)
  driver::DeviceBuffer mem;
  bool output() const { return role == "o" || role == "lse" || role == "out"; }
};

struct Launch {
  driver::Function fn;
  driver::Dim3 grid, block;
  size_t smem = 0; // dynamic shared memory, bytes
  bool programmatic = false; // LAUNCH=pdl: after the launch before it, programmatically
  std::vector<json> args;
};

/// Everything one run needs, set up once.
struct Runner {
  const Bundle &b;
  const Inputs *in = nullptr; // a varlen problem's totals
  std::optional<int64_t> resident; // the contract's resident_ctas, on this device
  driver::Driver *drv = nullptr;
  std::vector<Buffer> buffers;
  std::vector<Launch> launches;
  driver::Module module;
  std::string err;

  Buffer *buffer(const std::string &name) {
    for (Buffer &x : buffers)
      if (x.name == name)
        return &x;
    return nullptr;
  }

  /// Launches every kernel in order on `stream`; `ptrs` replaces buffers by
  /// other allocations of the same shape (the rotated copies of the inputs).
  bool launchAll(CUstream stream = nullptr,
                 const std::map<std::string, CUdeviceptr> *ptrs = nullptr) {
    for (Launch &l : launches) {
      driver::KernelArgs args;
      for (const json &a : l.args) {
        if (a.contains("buffer")) {
          Buffer *x = buffer(a["buffer"].get<std::string>());
          if (ptrs && ptrs->count(x->name))
            args.add(ptrs->at(x->name));
          else
            args.add(x->mem);
          for (size_t k = 0; k < x->shape.size(); ++k)
            if (x->dynamic[k])
              args.add(static_cast<long long>(x->shape[k]));
        } else if (a.contains("index")) {
          std::optional<int64_t> v = eval(a["index"], b.problem, err, in, resident);
          if (!v)
            return false;
          args.add(static_cast<long long>(*v));
        } else if (a.contains("tmap")) {
          // A TMA descriptor of a buffer, encoded for the pointer this launch uses.
          const json &m = a["tmap"];
          Buffer *x = buffer(m["buffer"].get<std::string>());
          if (!x)
            return (err = "contract: tmap of unknown buffer " + m["buffer"].dump(), false);
          CUdeviceptr p = ptrs && ptrs->count(x->name) ? ptrs->at(x->name) : x->mem.ptr();
          std::optional<CUtensorMap> map =
              drv->tensorMap(p, x->dtype, x->shape, m["rows"].get<int64_t>(), m["cols"].get<int64_t>(), err);
          if (!map)
            return false;
          args.add(*map);
        } else {
          args.add(a["f32"].get<float>());
        }
      }
      driver::LaunchConfig cfg;
      cfg.grid = l.grid;
      cfg.block = l.block;
      cfg.smemBytes = l.smem;
      cfg.programmatic = l.programmatic;
      cfg.stream = stream;
      if (!drv->launch(l.fn, cfg, args, err))
        return false;
    }
    return true;
  }

  /// Poisons outputs and workspaces (all bits set: NaN in f16, bf16, f32),
  /// but not the zeroed ones (REDUCE@<axis>=g<n>a's arrival counters), which
  /// are cleared once when allocated and which every launch must leave zero.
  bool poison() {
    for (Buffer &x : buffers)
      if ((x.output() || x.role == "workspace") && !x.zeroed && !x.mem.fill(0xFF, err))
        return false;
    return true;
  }

  /// The elements of zeroed workspaces that are not zero after the launches
  /// (each should be back to zero: the last CTA of a row block resets its
  /// counter), or -1 on a read error.
  int64_t nonZeroCounters() {
    int64_t n = 0;
    for (Buffer &x : buffers) {
      if (!x.zeroed)
        continue;
      std::vector<int32_t> v(size_t(elements(x.shape)));
      if (!x.mem.download(v.data(), v.size() * sizeof(int32_t), err))
        return -1;
      n += std::count_if(v.begin(), v.end(), [](int32_t c) { return c != 0; });
    }
    return n;
  }

  std::optional<std::vector<double>> read(const std::string &role) {
    for (Buffer &x : buffers)
      if (x.role == role)
        return x.mem.download(x.dtype, size_t(elements(x.shape)), err);
    err = "no buffer with role " + role;
    return std::nullopt;
  }
};

} // namespace

/// Times the launch sequence: R copies of the inputs (together more than
/// twice the L2, so no replay finds them cached), one CUDA graph per copy,
/// CUDA events around each replay, the median of o.benchIters replays after
/// warm-up. Falls back to plain launches when the driver lacks graphs.
static bool time(Runner &r, const Inputs &in, const RunOptions &o, RunResult &res, std::string &err) {
  const driver::Api &api = r.drv->api();
  size_t inputBytes = 0;
  for (Buffer &x : r.buffers)
    if (!x.output() && x.role != "workspace")
      inputBytes += x.mem.size();
  size_t l2 = size_t(std::max(r.drv->device().l2Bytes, 1));
  int rotations = int(std::min<size_t>(8, std::max<size_t>(1, (2 * l2 + inputBytes - 1) / std::max<size_t>(inputBytes, 1))));
  // The copies (rotation 0 is the buffers themselves).
  std::vector<std::map<std::string, CUdeviceptr>> ptrs(static_cast<size_t>(rotations));
  std::vector<driver::DeviceBuffer> copies;
  for (int k = 1; k < rotations; ++k)
    for (Buffer &x : r.buffers) {
      const std::vector<float> *values = inputFor(x.role, in);
      if (!values)
        continue;
      std::optional<driver::DeviceBuffer> c = r.drv->alloc(x.mem.size(), err);
      if (!c || !c->upload(x.dtype, *values, err))
        return false;
      ptrs[size_t(k)][x.name] = c->ptr();
      copies.push_back(std::move(*c));
    }
  bool graphs = api.cuStreamCreate && api.cuStreamBeginCapture && api.cuStreamEndCapture &&
                api.cuGraphInstantiate && api.cuGraphLaunch && api.cuGraphExecDestroy &&
                api.cuGraphDestroy && api.cuStreamDestroy;
  CUstream stream = nullptr;
  std::vector<CUgraphExec> execs;
  auto cleanup = [&] {
    for (CUgraphExec e : execs)
      api.cuGraphExecDestroy(e);
    if (stream)
      api.cuStreamDestroy(stream);
  };
  if (graphs) {
    if (api.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
      graphs = false;
    for (int k = 0; graphs && k < rotations; ++k) {
      CUgraph g = nullptr;
      CUgraphExec e = nullptr;
      if (api.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL) != CUDA_SUCCESS) {
        graphs = false;
        break;
      }
      bool ok = r.launchAll(stream, &ptrs[size_t(k)]);
      CUresult end = api.cuStreamEndCapture(stream, &g);
      if (!ok || end != CUDA_SUCCESS || api.cuGraphInstantiate(&e, g, 0) != CUDA_SUCCESS) {
        cleanup();
        err = ok ? "capturing the launches into a CUDA graph failed" : r.err;
        return false;
      }
      api.cuGraphDestroy(g);
      execs.push_back(e);
    }
  }
  auto once = [&](int k) {
    if (graphs)
      return api.cuGraphLaunch(execs[size_t(k)], stream) == CUDA_SUCCESS;
    return r.launchAll(nullptr, &ptrs[size_t(k)]);
  };
  std::optional<driver::Event> start = r.drv->createEvent(err), stop = r.drv->createEvent(err);
  if (!start || !stop) {
    cleanup();
    return false;
  }
  std::vector<double> ms;
  for (int i = -3; i < o.benchIters; ++i) { // three warm-up replays
    int k = (i + 3) % rotations;
    if (!start->record(err, stream) || !once(k) || !stop->record(err, stream) ||
        !stop->synchronize(err)) {
      if (err.empty())
        err = r.err.empty() ? "a timed replay failed" : r.err;
      cleanup();
      return false;
    }
    std::optional<float> t = driver::Event::elapsedMs(*start, *stop, err);
    if (!t) {
      cleanup();
      return false;
    }
    if (i >= 0)
      ms.push_back(*t);
  }
  cleanup();
  std::sort(ms.begin(), ms.end());
  res.medianUs = ms[ms.size() / 2] * 1e3;
  res.tflops = flopsOf(r.b.problem, in) / (res.medianUs * 1e-6) / 1e12;
  res.timing = std::string(graphs ? "CUDA graph replays" : "plain launches") + ", " +
               std::to_string(rotations) + " rotation(s) of the inputs, median of " +
               std::to_string(o.benchIters);
  return true;
}

std::optional<RunResult> run(const Bundle &b, const RunOptions &o, std::string &err) {
  const Problem &p = b.problem;
  if (auto e = validate(p)) {
    err = "problem: " + e->message();
    return std::nullopt;
  }
  RunResult res;
  Runner r{b};
  r.drv = driver::Driver::get(err);
  if (!r.drv)
    return std::nullopt;
  const driver::Device &dev = r.drv->device();
  res.device = dev.describe();
  std::string target = b.contract["target"].get<std::string>(), why;
  if (!driver::canRun(target, dev.smMajor, dev.smMinor, why, &res.compileArch)) {
    err = why;
    return std::nullopt;
  }
  if (res.compileArch != target)
    res.note = "compiled for " + res.compileArch + " (the schedule targets " + target + ")";

  // Compile (cached) and load.
  nvrtc::CompileOptions copts;
  copts.arch = res.compileArch;
  std::string first = b.contract["launches"][0]["kernel"].get<std::string>();
  nvrtc::CubinCache cache(nvrtc::CubinCache::defaultDir());
  std::optional<nvrtc::CompiledKernel> k = nvrtc::compileCached(&cache, b.source, first, copts, err);
  if (!k)
    return std::nullopt;
  if (o.compileOnly) {
    res.status = Status::Unchecked;
    res.note = (res.note.empty() ? "" : res.note + "; ") + "compiled only (--compile-only)";
    return res;
  }
  std::optional<driver::Module> mod = r.drv->loadModule(k->cubin, err);
  if (!mod)
    return std::nullopt;
  r.module = std::move(*mod);

  // Buffers, with fresh inputs.
  Inputs in = randomInputs(p, o.seed, o.fullLengths);
  if (p.paged())
    if (std::optional<ProblemError> e = checkPagedInputs(p, in)) {
      err = "problem: " + e->message();
      return std::nullopt;
    }
  if (p.varlen)
    if (std::optional<ProblemError> e = checkVarlenInputs(p, in)) {
      err = "problem: " + e->message();
      return std::nullopt;
    }
  r.in = &in;
  // resident_ctas (REDUCE@kv=gauto's waves): the named kernel's occupancy at
  // its block and shared memory, times the SMs, before anything is sized.
  if (b.contract.contains("resident_ctas")) {
    std::string name = b.contract["resident_ctas"]["kernel"].get<std::string>();
    const json *jl = nullptr; // load() and writeContract keep it a launched kernel
    for (const json &l : b.contract["launches"])
      if (l["kernel"] == name)
        jl = &l;
    if (!jl) {
      err = "contract: resident_ctas names kernel '" + name + "', which is not launched";
      return std::nullopt;
    }
    std::optional<driver::Function> fn = r.module.function(name, err);
    if (!fn)
      return std::nullopt;
    int64_t threads = 1;
    for (const json &d : (*jl)["block"]) {
      std::optional<int64_t> v = eval(d, p, err, &in);
      if (!v)
        return std::nullopt;
      threads *= *v;
    }
    r.resident = r.module.residentCtas(*fn, unsigned(threads), jl->value("smem", size_t(0)), err);
    if (!r.resident)
      return std::nullopt;
    res.residentCtas = *r.resident;
  }
  for (const json &jb : b.contract["buffers"]) {
    Buffer x;
    x.name = jb["name"];
    x.role = jb["role"];
    x.i32 = jb["dtype"] == "i32";
    x.dtype = dtypeFrom(jb["dtype"]);
    for (const json &d : jb["shape"]) {
      std::optional<int64_t> v = eval(d, p, err, &in, r.resident);
      if (!v)
        return std::nullopt;
      x.shape.push_back(*v);
      x.dynamic.push_back(!d.contains("const"));
    }
    size_t bytes = size_t(elements(x.shape)) * (x.i32 ? 4 : driver::dtypeBytes(x.dtype));
    std::optional<driver::DeviceBuffer> mem = r.drv->alloc(std::max<size_t>(bytes, 4), err);
    if (!mem)
      return std::nullopt;
    x.mem = std::move(*mem);
    if (jb.value("init", "") == "zero") { // (load checked that it is an i32 workspace)
      x.zeroed = true;
      if (!x.mem.fill(0, err))
        return std::nullopt;
    }
    if (const std::vector<int32_t> *ints = in.indexInput(x.role)) {
      if (!x.i32 || ints->size() != size_t(elements(x.shape))) {
        err = "buffer " + x.name + ": the contract's shape or dtype disagrees with the problem";
        return std::nullopt;
      }
      if (!x.mem.upload(ints->data(), bytes, err))
        return std::nullopt;
      r.buffers.push_back(std::move(x));
      continue;
    }
    const std::vector<float> *values = inputFor(x.role, in);
    if (values) {
      if (values->size() != size_t(elements(x.shape))) {
        err = "buffer " + x.name + ": the contract's shape disagrees with the problem";
        return std::nullopt;
      }
      if (!x.mem.upload(x.dtype, *values, err))
        return std::nullopt;
    }
    r.buffers.push_back(std::move(x));
  }
  for (const json &jl : b.contract["launches"]) {
    Launch l;
    std::optional<driver::Function> fn = r.module.function(jl["kernel"].get<std::string>(), err);
    if (!fn)
      return std::nullopt;
    l.fn = *fn;
    res.registers[l.fn.name] = l.fn.numRegs;
    unsigned *g[] = {&l.grid.x, &l.grid.y, &l.grid.z}, *t[] = {&l.block.x, &l.block.y, &l.block.z};
    for (int i = 0; i < 3; ++i) {
      std::optional<int64_t> gv = eval(jl["grid"][i], p, err, &in, r.resident),
                             tv = eval(jl["block"][i], p, err, &in, r.resident);
      if (!gv || !tv)
        return std::nullopt;
      *g[i] = unsigned(*gv);
      *t[i] = unsigned(*tv);
    }
    l.args = jl["args"].get<std::vector<json>>();
    l.smem = jl.value("smem", size_t(0));
    l.programmatic = jl.value("programmatic", false);
    // GRID=persistent: the grid counts the tiles; the kernel loops over
    // them in strides of its grid, so it runs only as many CTAs as the
    // device holds at once.
    if (jl.value("persistent", false)) {
      std::optional<int64_t> resident = r.module.residentCtas(l.fn, l.block.x * l.block.y * l.block.z, l.smem, err);
      if (!resident)
        return std::nullopt;
      int64_t ctas = o.persistentCtas > 0 ? std::min(*resident, o.persistentCtas) : *resident;
      l.grid.x = unsigned(std::min<int64_t>(l.grid.x, ctas));
      res.persistentCtas[l.fn.name] = l.grid.x;
    }
    res.gridCtas[l.fn.name] = int64_t(l.grid.x) * l.grid.y * l.grid.z;
    r.launches.push_back(std::move(l));
  }

  // Run, check, repeat: every output is read back after every run and
  // compared bitwise with the first run's.
  bool attention = p.kind == ProblemKind::Attention;
  std::vector<std::string> roles = attention ? std::vector<std::string>{"o", "lse"}
                                             : std::vector<std::string>{"out"};
  std::vector<std::vector<double>> outputs(roles.size());
  res.deterministic = o.repeats >= 2;
  for (int rep = 0; rep < std::max(1, o.repeats); ++rep) {
    if (!r.poison() || !r.launchAll() || !r.drv->synchronize(r.err)) {
      err = r.err;
      return std::nullopt;
    }
    for (size_t k = 0; k < roles.size(); ++k) {
      std::optional<std::vector<double>> out = r.read(roles[k]);
      if (!out) {
        err = r.err;
        return std::nullopt;
      }
      if (rep == 0)
        outputs[k] = std::move(*out);
      else if (out->size() != outputs[k].size() ||
               std::memcmp(outputs[k].data(), out->data(), out->size() * sizeof(double)) != 0)
        res.deterministic = false;
    }
  }
  // REDUCE@<axis>=g<n>a: every launch must leave its arrival counters zero.
  res.countersNotZero = r.nonZeroCounters();
  if (res.countersNotZero < 0) {
    err = r.err;
    return std::nullopt;
  }
  // Varlen: packed O as the logical [B, Hq, Sq, D] the references write;
  // the LSE rows past a sequence must keep the poison (unpackVarlen).
  if (p.varlen) {
    std::vector<double> packed = std::move(outputs[0]);
    WrittenPast w = unpackVarlen(p, in, packed, outputs[0], outputs[1]);
    res.writtenPastSequence = w.lseRows;
    res.gapRowsWritten = w.gapRows;
    res.cuSeqlensQ = in.cu_seqlens_q;
    res.cuSeqlensK = in.cu_seqlens_k;
  }
  // Poison is NaN; a written O is finite, a written LSE is finite or -inf.
  res.allWritten = true;
  for (const std::vector<double> &out : outputs)
    res.allWritten = res.allWritten &&
                     std::none_of(out.begin(), out.end(), [](double v) { return std::isnan(v); });
  res.allWritten = res.allWritten && std::all_of(outputs[0].begin(), outputs[0].end(),
                                                 [](double v) { return std::isfinite(v); });
  // The float64 reference on the CPU while it is affordable, else the naive
  // fp32 kernel on the GPU (attention).
  // (Varlen: always on the CPU; the GPU reference takes no query lengths.)
  bool cpu = p.flops() <= o.checkMaxFlops || p.varlen;
  auto gpuRef = [&](std::vector<double> &ref, std::vector<double> &lowp, std::vector<double> &refLse,
                    std::vector<double> &lowpLse) {
    Buffer *q = r.buffer("q"), *k = r.buffer("k"), *v = r.buffer("v"), *bias = r.buffer("bias"),
           *lens = r.buffer("kv_lens");
    if (!q || !k || !v || (p.paged() && !lens)) {
      err = "the GPU reference needs buffers q, k and v (and kv_lens for a paged cache)";
      return false;
    }
    // A paged cache: the reference reads the logical K and V.
    std::optional<driver::DeviceBuffer> kLogical, vLogical;
    if (p.paged()) {
      kLogical = r.drv->alloc(in.k.size() * driver::dtypeBytes(p.dtype), err);
      vLogical = kLogical ? r.drv->alloc(in.v.size() * driver::dtypeBytes(p.dtype), err) : std::nullopt;
      if (!vLogical || !kLogical->upload(p.dtype, in.k, err) || !vLogical->upload(p.dtype, in.v, err))
        return false;
    }
    return gpuReference(*r.drv, p, driver::archForDevice(dev.smMajor, dev.smMinor), q->mem,
                        kLogical ? *kLogical : k->mem, vLogical ? *vLogical : v->mem,
                        bias ? &bias->mem : nullptr, p.paged() ? &lens->mem : nullptr, ref, lowp,
                        refLse, lowpLse, err);
  };
  auto hold = [](const CheckResult &c) { return OutputCheck{c.maxErr, c.bound, c.pass}; };
  if (o.check && (cpu || attention)) {
    std::vector<double> ref, lowp, refLse, lowpLse;
    if (cpu) {
      referenceF64(p, in, ref, attention ? &refLse : nullptr);
      referenceLowp(p, in, lowp, attention ? &lowpLse : nullptr);
      res.reference = "float64 on the CPU";
      // (Not for varlen: the GPU reference takes no query lengths.)
      if (o.compareReferences && attention && !p.varlen) {
        std::vector<double> gRef, gLowp, gRefLse, gLowpLse;
        if (!gpuRef(gRef, gLowp, gRefLse, gLowpLse))
          return std::nullopt;
        res.gpuRefO = hold(checkTolerance(p, gRef, ref, lowp));
        res.gpuRefLse = hold(checkLse(gRefLse, refLse, lowpLse));
      }
    } else {
      if (!gpuRef(ref, lowp, refLse, lowpLse))
        return std::nullopt;
      res.reference = "fp32 on the GPU";
    }
    CheckResult c = checkTolerance(p, outputs[0], ref, lowp);
    res.checked = true;
    res.pass = c.pass;
    res.maxErr = c.maxErr;
    res.bound = c.bound;
    if (attention) {
      res.lse = hold(checkLse(outputs[1], refLse, lowpLse));
      res.pass = res.pass && res.lse->pass;
    }
    if (res.gpuRefO)
      res.pass = res.pass && res.gpuRefO->pass && res.gpuRefLse->pass;
    // seqused: an O row in a gap between sequences written fails the check.
    if (res.gapRowsWritten)
      res.pass = false;
    // Arrival counters left non-zero: a row block whose last CTA did not
    // combine (or reset), whatever the outputs say.
    if (res.countersNotZero) {
      res.pass = false;
      res.note += std::string(res.note.empty() ? "" : "; ") + std::to_string(res.countersNotZero) +
                  " arrival counters not zero after the launches";
    }
  }
  res.status = judge({/*ran=*/true, res.checked, res.pass, res.allWritten, res.deterministic},
                     o.control);

  if (o.benchIters > 0 && !time(r, in, o, res, err))
    return std::nullopt;
  return res;
}

} // namespace attncc::bundle
