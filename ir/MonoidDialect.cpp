//===- MonoidDialect.cpp - dialect, carrier and schedule attributes -------===//
#include "ir/MonoidDialect.h"
#include "ir/MonoidOps.h"

#include <cctype>

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::monoid;

#include "ir/MonoidDialect.cpp.inc"

namespace {
/// Prints carriers and schedules once, at the top of a module, under a
/// readable alias: `#carrier_mdo = #monoid.carrier<...>`.
struct MonoidOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (auto c = dyn_cast<CarrierAttr>(attr)) {
      os << "carrier_";
      for (StringAttr n : c.getNames())
        os << n.getValue();
      return AliasResult::FinalAlias;
    }
    if (isa<ScheduleAttr>(attr)) {
      os << "schedule";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void MonoidDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/MonoidOps.cpp.inc"
      >();
  registerAttributes();
  addInterfaces<MonoidOpAsmInterface>();
}

//===----------------------------------------------------------------------===//
// CarrierAttr
//===----------------------------------------------------------------------===//

static StringRef combineName(CombineKind k) {
  return k == CombineKind::Max ? "max" : "add";
}

int64_t CarrierAttr::lookup(StringRef name) const {
  for (auto [i, n] : llvm::enumerate(getNames()))
    if (n.getValue() == name)
      return i;
  return -1;
}

LogicalResult CarrierAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<StringAttr> names, ArrayRef<CombineKind> combines,
                                  ArrayRef<int64_t> twists) {
  if (names.empty())
    return emitError() << "carrier must have at least one channel";
  if (names.size() != combines.size() || names.size() != twists.size())
    return emitError() << "carrier channel lists differ in length";
  for (auto [i, n] : llvm::enumerate(names)) {
    StringRef s = n.getValue();
    bool ident = !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
                 llvm::all_of(s, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!ident)
      return emitError() << "carrier channel name '" << s
                         << "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)";
    for (unsigned j = 0; j < i; ++j)
      if (names[j] == n)
        return emitError() << "carrier channel '" << n.getValue() << "' is declared twice";
    int64_t t = twists[i];
    if (t < 0)
      continue;
    if (t >= (int64_t)names.size())
      return emitError() << "carrier channel '" << n.getValue() << "' has a twist index out of range";
    if (combines[i] != CombineKind::Add)
      return emitError() << "carrier channel '" << n.getValue()
                         << "': only add channels can be twisted, this one is "
                         << combineName(combines[i]);
    if (combines[t] != CombineKind::Max)
      return emitError() << "carrier channel '" << n.getValue() << "' is twisted by '"
                         << names[t].getValue() << "', which is " << (combines[t] == CombineKind::Add ? "an " : "a ") << combineName(combines[t])
                         << " channel; a twist must name a max channel";
  }
  return success();
}

/// #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
Attribute CarrierAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> names;
  SmallVector<CombineKind> combines;
  SmallVector<std::string> twistNames;
  SmallVector<SMLoc> twistLocs;
  MLIRContext *ctx = parser.getContext();
  auto parseChannel = [&]() -> ParseResult {
    std::string name;
    StringRef kind;
    if (parser.parseKeywordOrString(&name) || parser.parseColon())
      return failure();
    SMLoc kindLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&kind))
      return failure();
    CombineKind ck;
    if (kind == "max")
      ck = CombineKind::Max;
    else if (kind == "add")
      ck = CombineKind::Add;
    else
      return parser.emitError(kindLoc) << "channel '" << name << "': unknown combine '" << kind
                                       << "'; expected max or add";
    // The identity, written out and checked against the combine.
    SMLoc idLoc = parser.getCurrentLocation();
    if (parser.parseLParen())
      return failure();
    bool minus = succeeded(parser.parseOptionalMinus());
    bool ok;
    if (minus) {
      ok = succeeded(parser.parseOptionalKeyword("inf")) && ck == CombineKind::Max;
    } else {
      int64_t zero = 1;
      ok = parser.parseOptionalInteger(zero).has_value() && zero == 0 && ck == CombineKind::Add;
    }
    if (!ok)
      return parser.emitError(idLoc) << "channel '" << name << "': the identity of " << kind
                                     << " is " << (ck == CombineKind::Max ? "-inf" : "0");
    if (parser.parseRParen())
      return failure();
    std::string twist;
    SMLoc twistLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("twist"))) {
      if (parser.parseLParen() || parser.parseKeywordOrString(&twist) || parser.parseRParen())
        return failure();
    }
    names.push_back(StringAttr::get(ctx, name));
    combines.push_back(ck);
    twistNames.push_back(twist);
    twistLocs.push_back(twistLoc);
    return success();
  };
  if (parser.parseLess() || parser.parseCommaSeparatedList(parseChannel) || parser.parseGreater())
    return {};
  SmallVector<int64_t> twists;
  for (auto [i, t] : llvm::enumerate(twistNames)) {
    if (t.empty()) {
      twists.push_back(-1);
      continue;
    }
    auto it = llvm::find_if(names, [&](StringAttr n) { return n.getValue() == t; });
    if (it == names.end()) {
      parser.emitError(twistLocs[i]) << "channel '" << names[i].getValue()
                                     << "' is twisted by unknown channel '" << t << "'";
      return {};
    }
    twists.push_back(it - names.begin());
  }
  return parser.getChecked<CarrierAttr>(ctx, names, combines, twists);
}

void CarrierAttr::print(AsmPrinter &p) const {
  p << "<";
  for (unsigned i = 0, e = size(); i < e; ++i) {
    if (i)
      p << ", ";
    p << getNames()[i].getValue() << ": " << combineName(getCombines()[i])
      << (getCombines()[i] == CombineKind::Max ? "(-inf)" : "(0)");
    if (isTwisted(i))
      p << " twist(" << getNames()[getTwists()[i]].getValue() << ")";
  }
  p << ">";
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

std::string ScheduleAttr::str() const { return attncc::printKnobs(getSchedule()); }

/// #monoid.schedule<"TILE@kv=...">: the knob string, through the one codec.
Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  std::string text;
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&text) || parser.parseGreater())
    return {};
  attncc::KnobError err;
  std::optional<attncc::Schedule> s = attncc::parseKnobs(text, err);
  if (!s) {
    parser.emitError(loc) << err.message();
    return {};
  }
  return ScheduleAttr::get(parser.getContext(), *s);
}

void ScheduleAttr::print(AsmPrinter &p) const {
  p << "<\"" << str() << "\">";
}

/// #monoid.fragment<c>: one of the layout names of fragmentName.
Attribute FragmentAttr::parse(AsmParser &parser, Type) {
  std::string name;
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&name) || parser.parseGreater())
    return {};
  std::optional<Fragment> f = fragmentNamed(name);
  if (!f) {
    parser.emitError(loc) << "unknown fragment layout '" << name
                          << "'; expected c, row, col, a, b.nk, b.kn or smem";
    return {};
  }
  return FragmentAttr::get(parser.getContext(), *f);
}

void FragmentAttr::print(AsmPrinter &p) const { p << "<" << layoutName() << ">"; }

/// #monoid.staged<cp, pad>: a transport, then an optional arrangement.
Attribute StagedAttr::parse(AsmParser &parser, Type) {
  std::string t, a;
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&t))
    return {};
  std::optional<Transport> transport;
  for (Transport x : {Transport::Sync, Transport::Cp, Transport::Tma})
    if (transportName(x) == t)
      transport = x;
  if (!transport) {
    parser.emitError(loc) << "unknown transport '" << t << "'; expected sync, cp or tma";
    return {};
  }
  Arrangement arrangement = Arrangement::Plain;
  if (succeeded(parser.parseOptionalComma())) {
    loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&a))
      return {};
    if (a == "pad")
      arrangement = Arrangement::Pad;
    else if (a == "swz")
      arrangement = Arrangement::Swz;
    else {
      parser.emitError(loc) << "unknown arrangement '" << a << "'; expected pad or swz";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return StagedAttr::get(parser.getContext(), *transport, arrangement);
}

void StagedAttr::print(AsmPrinter &p) const {
  p << "<" << transportName(getTransport());
  if (getArrangement() != Arrangement::Plain)
    p << ", " << arrangementName(getArrangement());
  p << ">";
}

#define GET_ATTRDEF_CLASSES
#include "ir/MonoidAttrs.cpp.inc"

void MonoidDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/MonoidAttrs.cpp.inc"
      >();
}
