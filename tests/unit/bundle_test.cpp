// The bundle contract's size expressions, --set, and load errors (no GPU needed).
#include "runtime/bundle/Bundle.h"
#include "runtime/bundle/GpuReference.h"
#include "runtime/nvrtc/Nvrtc.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace attncc;
using json = nlohmann::json;

namespace {

Problem problem() {
  Problem p;
  p.batch = {2, false};
  p.heads_q = 8;
  p.heads_kv = 2;
  p.seq_q = {100, true};
  p.seq_k = {300, true};
  p.head_dim = 64;
  return p;
}

std::string tempDir(const char *name) {
  auto d = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

} // namespace

TEST_CASE("contract size expressions", "[bundle]") {
  Problem p = problem();
  std::string err;
  CHECK(bundle::eval(json{{"const", 7}}, p, err) == 7);
  CHECK(bundle::eval(json{{"sym", "seq_k"}}, p, err) == 300);
  CHECK(bundle::eval(json{{"sym", "heads_kv"}}, p, err) == 2);
  CHECK(bundle::eval(json{{"sym", "1"}}, p, err) == 1);
  json points = {{"op", "mul"}, {"args", {json{{"sym", "seq_q"}}, json{{"const", 8}}}}};
  json ctas = {{"op", "ceildiv"}, {"args", {points, json{{"const", 128}}}}};
  CHECK(bundle::eval(ctas, p, err) == 7); // ceil(800 / 128)
  CHECK(bundle::eval(json{{"op", "min"}, {"args", {json{{"const", 5}}, json{{"sym", "batch"}}}}}, p, err) == 2);
  CHECK(bundle::eval(json{{"op", "sub"}, {"args", {json{{"sym", "seq_k"}}, json{{"sym", "seq_q"}}}}}, p, err) == 200);
  // The device's resident CTAs (gauto's waves), given by the runner: 2 x 528 / 64 KV heads.
  json waves = {{"op", "div"},
                {"args", {json{{"op", "mul"}, {"args", {json{{"sym", "resident_ctas"}}, json{{"const", 2}}}}},
                          json{{"const", 64}}}}};
  CHECK(bundle::eval(waves, p, err, nullptr, 528) == 16);
  CHECK(bundle::eval(waves, p, err, nullptr, 78 * 4) == 9);

  // ... and as text (attncc compile prints a grid that is not a constant).
  CHECK(bundle::exprText(waves) == "resident_ctas * 2 / 64");
  CHECK(bundle::exprText(ctas) == "ceil(seq_q * 8 / 128)");
  json sum = {{"op", "add"}, {"args", {json{{"sym", "batch"}}, json{{"const", 1}}}}};
  json diff = {{"op", "sub"}, {"args", {json{{"sym", "seq_k"}}, sum}}};
  CHECK(bundle::exprText(diff) == "seq_k - (batch + 1)");
  CHECK(bundle::exprText(json{{"op", "mul"}, {"args", {sum, json{{"const", 4}}}}}) == "(batch + 1) * 4");
  CHECK(bundle::exprText(json{{"op", "div"}, {"args", {json{{"const", 64}}, waves}}}) == "64 / (resident_ctas * 2 / 64)");
  CHECK(bundle::exprText(json{{"op", "max"}, {"args", {diff, json{{"const", 1}}}}}) == "max(seq_k - (batch + 1), 1)");

  SECTION("errors") {
    CHECK_FALSE(bundle::eval(waves, p, err)); // no device
    CHECK(err == "the size 'resident_ctas' is the device's (the CTAs of one kernel it holds at once): "
                 "it is known only where the bundle runs on a GPU");
    CHECK_FALSE(bundle::eval(json{{"op", "pow"}, {"args", {json{{"const", 1}}, json{{"const", 2}}}}}, p, err));
    CHECK(err == "unknown contract operation 'pow'");
    CHECK_FALSE(bundle::eval(json{{"op", "div"}, {"args", {json{{"const", 1}}, json{{"const", 0}}}}}, p, err));
    CHECK(err == "division by zero in a contract expression");
    p.seq_k.value = 0; // symbolic, no value
    CHECK_FALSE(bundle::eval(json{{"sym", "seq_k"}}, p, err));
    CHECK(err.find("'seq_k' is unknown") != std::string::npos);
  }
}

TEST_CASE("--set on symbolic sizes only", "[bundle]") {
  bundle::Bundle b;
  b.problem = problem();
  std::string err;
  CHECK(bundle::setSize(b, "seq_k=4096", err));
  CHECK(b.problem.seq_k.value == 4096);
  CHECK_FALSE(bundle::setSize(b, "batch=3", err));
  CHECK(err == "invalid --set = 'batch=3': batch is not symbolic in this bundle (compile with ?); "
               "its kernel is specialized");
  CHECK_FALSE(bundle::setSize(b, "heads_q=4", err));
  CHECK(err == "invalid --set = 'heads_q=4': expected batch=N, seq_q=N or seq_k=N");
  CHECK_FALSE(bundle::setSize(b, "seq_q=0", err));
  CHECK(err == "invalid --set = 'seq_q=0': the size must be an integer >= 1");
  CHECK_FALSE(bundle::setSize(b, "seq_q=12x", err));
}

TEST_CASE("loading a bundle", "[bundle]") {
  std::string err;
  std::string d = tempDir("attncc-bundle-test");
  CHECK_FALSE(bundle::load(d, err));
  CHECK(err == "cannot read " + d + "/contract.json");

  std::ofstream(d + "/contract.json") << "{\"format\": \"something-else\"}";
  CHECK_FALSE(bundle::load(d, err));
  CHECK(err == d + "/contract.json: not an attncc-bundle-1 contract");

  json c = {{"format", "attncc-bundle-1"}, {"problem", json::object()}, {"target", "sm_90a"},
            {"buffers", json::array()}, {"source", "kernel.cu"}};
  std::ofstream(d + "/contract.json") << c.dump();
  CHECK_FALSE(bundle::load(d, err));
  CHECK(err == d + "/contract.json: missing key 'launches'");

  c["launches"] = json::array();
  std::ofstream(d + "/contract.json") << c.dump();
  CHECK_FALSE(bundle::load(d, err));
  CHECK(err == "cannot read " + d + "/kernel.cu");

  std::ofstream(d + "/kernel.cu") << "// nothing";
  c["problem"] = {{"head_dim", 7}};
  std::ofstream(d + "/contract.json") << c.dump();
  CHECK_FALSE(bundle::load(d, err));
  CHECK(err == d + "/contract.json: problem: invalid head_dim = 7: one of 32, 64, 96, 128, 256");

  // resident_ctas (gauto's waves) names a launched kernel.
  c["problem"] = {{"seq_q", "?=5"}};
  c["launches"] = json::array({json{{"kernel", "attention_parts"}}});
  for (json bad : {json{{"kernel", "attention_combine"}}, json("attention_parts"), json::object()}) {
    c["resident_ctas"] = bad;
    std::ofstream(d + "/contract.json") << c.dump();
    CHECK_FALSE(bundle::load(d, err));
    CHECK(err == d + "/contract.json: resident_ctas = " + bad.dump() +
                     " is not allowed; expected {\"kernel\": K} with K one of the launched kernels");
  }
  c["resident_ctas"] = {{"kernel", "attention_parts"}};
  std::ofstream(d + "/contract.json") << c.dump();
  REQUIRE(bundle::load(d, err));
  c.erase("resident_ctas");
  c["launches"] = json::array();

  std::ofstream(d + "/contract.json") << c.dump();
  std::optional<bundle::Bundle> b = bundle::load(d, err);
  REQUIRE(b);
  CHECK(b->problem.seq_q.symbolic);
  CHECK(b->problem.seq_q.value == 5);
  CHECK(b->source == "// nothing");
}

TEST_CASE("the GPU reference kernel compiles for every dtype", "[bundle][nvrtc]") {
  for (const char *t : {"__half", "__nv_bfloat16", "float"}) {
    std::string err;
    nvrtc::CompileOptions o;
    o.arch = "sm_90a";
    auto k = nvrtc::compile(bundle::gpuReferenceSource(), std::string("reference_attention<") + t + ">",
                            o, err);
    INFO(err);
    REQUIRE(k);
    CHECK(!k->cubin.empty());
    CHECK(k->loweredName.find("reference_attention") != std::string::npos);
  }
}
