# lit configuration of attncc's compiler tests.
import os
import lit.formats

config.name = "attncc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.attncc_obj_root, "tests", "lit")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

tools = os.path.join(config.attncc_obj_root, "tools")
config.environment["PATH"] = os.pathsep.join(
    [os.path.join(tools, "attncc"), os.path.join(tools, "attncc-opt"),
     os.path.join(tools, "attncc-runner"), os.path.join(config.attncc_obj_root, "tests", "cpu"),
     config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%repo", os.path.dirname(os.path.dirname(config.test_source_root))))

# scripts/make-bundles.sh (and what calls it) use this build's attncc.
config.environment["ATTNCC"] = os.path.join(tools, "attncc", "attncc")

# The cubin cache of these tests lives in the build tree, not in ~/.cache.
config.environment["ATTNCC_CACHE_DIR"] = os.path.join(config.test_exec_root, "cubin-cache")
